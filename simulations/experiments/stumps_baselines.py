"""BCMNUW20 Sections 1 and 4 (the claim beside Theorem 13): the decision stumps S_p = {h_i(x) = x_i} on {+-1}^p "can
be released using either O~(log(p)/alpha^2 + sqrt(p)/alpha) private samples and no public samples, or using
O(log(p)/alpha^2) public samples and no private samples". Both halves at their explicit sizes from ``bounds``:

* public only: the m public rows' empirical answers (``algorithms.opponents.public_empirical``) at m =
  ``baselines:public_finite``'s public_samples (Hoeffding and a union over the p stumps: 2 log(2p/beta)/alpha^2);
* private only: the n private rows' answers plus Gaussian noise at the least (eps, delta)-DP sigma for L2 sensitivity
  2 sqrt(p)/n (``algorithms.opponents.gaussian_answers``) at n = ``baselines:gaussian``'s private_samples, which
  grows as log(p/beta)/alpha^2 + sqrt(p log(p/beta) log(1/delta))/(eps alpha): the paper's O~ form.

One trial: D = a product law on {+-1}^p whose coordinate means mu_i (the stumps' answers on D) are drawn uniformly
from [-``spread``, ``spread``]; the public and private samples are drawn as rows of D; success of a release = its
largest error over the p stumps is <= alpha. Verdicts: each release meets alpha w.p. >= 1 - beta (Clopper-Pearson,
Bonferroni over the two claims); a size below bounds' (``m_factor`` or ``n_factor`` < 1) is ``below-bound``.

Opponent, in the same trials: ``constant`` (the data-free release 0 on every stump); with ``spread`` well above alpha
it fails, so a ``holds`` shows more than the constant does.

Negative controls (``EXPERIMENT.controls``), each must come out ``violated``:

* ``l1_sensitivity``: the Gaussian noise calibrated to the L1 sensitivity 2p/n instead of the L2 one 2 sqrt(p)/n
  (sigma sqrt(p) times too large: 8 times at p = 64), the mis-calibration a release of many answers invites;
* ``zero_one_scale``: the public answers as fractions of +1 rows, (1 + mu_i)/2 on the {0, 1} scale, reported as
  answers on BCMNUW20 Definition 5's [-1, 1] scale.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulations import contract
from simulations.experiments import Confidence, Controlled, param

RESULT_IDS = ("baselines:public_finite", "baselines:gaussian")


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    p: int = param(64, "dimension p of the cube {+-1}^p (p stumps)", within="[1, 4096]")
    alpha: float = param(0.2, "accuracy alpha on [-1, 1]", within="(0, 1)")
    beta: float = param(0.1, "failure probability beta", within="(0, 1)")
    eps: float = param(1.0, "privacy eps of the Gaussian release", within="(0, inf)")
    delta: float = param(1e-6, "privacy delta of the Gaussian release", within="(0, 1)")
    spread: float = param(0.8, "the stumps' answers on D are uniform on [-spread, spread]", within="[0, 1]")
    m_factor: float = param(1.0, "public samples as a multiple of bounds' m (< 1: below-bound)", within="(0, inf)")
    n_factor: float = param(1.0, "private samples as a multiple of bounds' n (< 1: below-bound)", within="(0, inf)")


def required(params: Params) -> dict:
    """bounds' m (public only) and n (Gaussian, private only) for the p stumps."""
    m = contract.required_sizes(RESULT_IDS[0], {"m": ("public_samples", int)}, alpha=params.alpha,
                                beta=params.beta, num_hypotheses=params.p)
    n = contract.required_sizes(RESULT_IDS[1], {"n": ("private_samples", int)}, alpha=params.alpha,
                                beta=params.beta, epsilon=params.eps, delta=params.delta, num_hypotheses=params.p)
    return {**m, **n}


def _stump_answers(mu: np.ndarray, size: int, rng: np.random.Generator) -> np.ndarray:
    """(1/size) sum_j x_ij over ``size`` rows of D (x_ij = +1 w.p. (1 + mu_i)/2): every stump's empirical answer."""
    rows = np.where(rng.random((size, mu.size)) < (1.0 + mu) / 2.0, 1.0, -1.0)
    return rows.mean(axis=0)


@dataclass(frozen=True)
class Outcome:
    """One trial: each release's largest error over the p stumps, whether it met alpha, and the constant's."""
    m: int
    n: int
    public_error: float
    private_error: float
    public_success: bool
    private_success: bool
    constant: bool = contract.opponent_field("constant", "success")


def trial(params: Params, rng: np.random.Generator) -> Outcome:
    from algorithms.opponents import gaussian_answers, public_empirical

    req = required(params)
    m = max(1, math.ceil(req["m"] * params.m_factor))
    n = max(1, math.ceil(req["n"] * params.n_factor))
    mu = rng.uniform(-params.spread, params.spread, size=params.p)
    pub = _stump_answers(mu, m, rng)
    if params.variant == "zero_one_scale":
        pub = (1.0 + pub) / 2.0
    public = public_empirical(pub).value
    # the L1 control: sigma for sensitivity 2p/n, i.e. the L2 calibration at n / sqrt(p) rows (rounded)
    n_cal = max(1, round(n / math.sqrt(params.p))) if params.variant == "l1_sensitivity" else n
    priv = gaussian_answers(_stump_answers(mu, n, rng), n_cal, rng, eps=params.eps, delta=params.delta).value
    e_pub, e_priv = float(np.abs(public - mu).max()), float(np.abs(priv - mu).max())
    return Outcome(m=m, n=n, public_error=e_pub, private_error=e_priv, public_success=e_pub <= params.alpha,
                   private_success=e_priv <= params.alpha, constant=bool(np.abs(mu).max() <= params.alpha))


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Each release: P[max error <= alpha] >= 1 - beta at its own size (Bonferroni over the two)."""
    T = len(records)
    target, per = 1.0 - params.beta, 1.0 - (1.0 - params.confidence) / 2
    req = required(params)
    pub = contract.claim(sum(r["public_success"] for r in records), T, target, params.confidence,
                         per_claim_confidence=per, at_bound=params.m_factor >= 1.0,
                         label="public only: every stump within alpha w.p. >= 1 - beta at m = O(log p/alpha^2)")
    priv = contract.claim(sum(r["private_success"] for r in records), T, target, params.confidence,
                          per_claim_confidence=per, at_bound=params.n_factor >= 1.0,
                          label="private only (Gaussian): every stump within alpha w.p. >= 1 - beta at n = "
                                "O~(log p/alpha^2 + sqrt(p)/alpha)")
    opp = {"constant": contract.baseline(sum(r["constant"] for r in records), T, target, params.confidence)}
    worst_pub = max(r["public_error"] for r in records)
    worst_priv = max(r["private_error"] for r in records)
    text = (f"p = {params.p} stumps, alpha = {params.alpha:g}: public only {pub['successes']}/{T} at m = "
            f"{records[0]['m']} (bounds' {req['m']}, worst error {worst_pub:.3g}); private only "
            f"{priv['successes']}/{T} at n = {records[0]['n']} (bounds' {req['n']}, worst error {worst_priv:.3g}); "
            f"constant 0 met alpha in {opp['constant']['successes']}/{T}")
    return contract.Judgement(claims=[pub, priv], text=text, opponents=opp, measurements={
        "bounds": list(RESULT_IDS),
        "claim": ("BCMNUW20 Sec. 1/4: decision stumps are released with O(log p/alpha^2) public samples alone, or "
                  "O~(log p/alpha^2 + sqrt(p)/alpha) private samples alone"),
        "bound_source": (f"bounds.compute('baselines:public_finite', alpha={params.alpha}, beta={params.beta}, "
                         f"num_hypotheses={params.p})['public_samples']; bounds.compute('baselines:gaussian', ..., "
                         f"epsilon={params.eps}, delta={params.delta})['private_samples']"),
        "m_required": req["m"], "n_required": req["n"], "m_used": records[0]["m"], "n_used": records[0]["n"],
        "worst_public_error": worst_pub, "worst_private_error": worst_priv,
        "public_only": pub, "private_only": priv})


EXPERIMENT = contract.Experiment(
    name="stumps_baselines", results=("baselines:public_finite", "baselines:gaussian"),
    section="lower-bounds",
    description="decision stumps released by public data alone at O(log p/alpha^2) or privately at the Gaussian's n",
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(40, {"p": 16, "alpha": 0.3}),
    opponents={"constant": "the data-free release 0 on every stump"},
    controls={"l1_sensitivity": "the Gaussian noise calibrated to the L1 sensitivity 2p/n, not 2 sqrt(p)/n",
              "zero_one_scale": "the public answers on the {0, 1} scale reported as [-1, 1] answers"},
)
