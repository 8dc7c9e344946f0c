"""NB20 Remark 12 (BTT18's A_SubSamp composed with ABM19's A_SSPP: Algorithm 4 with A_SubSamp alone in its first
phase) at the workbench's explicit sizes (bounds nb20:remark12, record nb20-remark12-explicit; the remark gives only
an O~ form): the first m_o queries answered by A_SubSamp at Lemma 4's explicit k, T and sub-sample size (eps/2,
beta/2), the m_o query points then public data for A_SSPP (eps/2), whose h_priv answers every later query.

One trial (thresholds on 16 points, x uniform, the threshold at 8, labels flipped w.p. ``noise`` = gamma):

1. S ~ D^n as in ``nb20_lemma3`` (k i.i.d. multinomial blocks of s examples, their ERMs, the rest of S drawn as one
   multinomial so that n = max(k s, A_SSPP's n));
2. m_o labelled queries ~ D answered online by A_SubSamp (``SubSamp.from_hypotheses`` at bounds nb20:alg5's tight
   lambda at (eps/2, delta, beta/2, m_o, T));
3. h_priv = A_SSPP(S, T_pub = the m_o query points, eps/2) (``sspp_from_histogram``, exact law on S's histogram);
4. the remark's event (the guarantee Lemma 4 and ABM19 Theorem 3.1 give the two phases): the first m_o answers
   average <= alpha + 3 gamma AND err(h_priv; D) <= gamma + alpha (exact), so every later query is answered by a
   hypothesis within the same error.

Opponents, by the same event on the same draws: the generic private learner (``exponential_learner`` on all of S at
eps, one hypothesis for every query) and the constant labels 0 and 1.

Negative control ``one_example`` (``EXPERIMENT.controls``): the first phase's sub-samples of one example each (n // n
for n // k), as in ``nb20_lemma3``: must come out ``violated``.

Below the sizes (``s_factor`` < 1) the status is ``below-bound``. A finite run decides the workbench's explicit
form, not the O~ statement, whose polylog factors are unnamed (record nb20-remark12-explicit).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from algorithms.learning.erm import population_errors
from algorithms.learning.subsamp import SubSamp, answer_online
from algorithms.learning.unvprivcl import sspp_from_histogram
from simulations import contract
from simulations.experiments import Confidence, Controlled, param
from simulations.experiments._nb20_common import subsamp_params
from simulations.experiments.nb20_lemma3 import OPPONENTS, draw_hypotheses, draw_queries, law

RESULT_ID = "nb20:remark12"


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    alpha: float = param(0.2, "accuracy alpha", within="(0, 1)")
    beta: float = param(0.1, "failure probability beta", within="(0, 1)")
    eps: float = param(0.99, "privacy eps (each phase gets eps/2)", within="(0, 1)")
    delta: float = param(1e-6, "privacy delta", within="(0, 1)")
    noise: float = param(0.02, "label-noise rate gamma", within="(0, 0.5)")
    s_factor: float = param(1.0, "sub-sample size as a multiple of bounds' s (< 1: below-bound)", within="(0, inf)")


@functools.lru_cache(maxsize=16)
def sizes(alpha: float, beta: float, eps: float, delta: float, gamma: float) -> dict:
    """bounds nb20:remark12's m_o, the first phase's T, k, s and its regime m_min, A_SSPP's n and n."""
    return contract.required_sizes(RESULT_ID, {
        "m_o": ("public_samples", int), "m_min": "min_queries", "T": "cutoff", "k": ("subsamples", int),
        "s": ("subsample_size", int), "n_sspp": ("sspp_samples", int), "n": ("private_samples", int),
        "eps_run": "privacy_eps", "beta_run": "failure_probability"},
        alpha=alpha, beta=beta, epsilon=eps, delta=delta, vc=1, approx_error=gamma)


def trial(params: Params, rng: np.random.Generator) -> dict:
    from algorithms.opponents import exponential_learner

    cls, joint, gamma = law("agnostic", params.noise)
    sz = sizes(params.alpha, params.beta, params.eps, params.delta, gamma)
    m_o, k = sz["m_o"], sz["k"]
    P = subsamp_params(sz["eps_run"], params.delta, sz["beta_run"], m_o, sz["T"], "tight")
    if P.k != k:
        raise ValueError(f"A_SubSamp's k={P.k} is not bounds' subsamples={k}")
    s_lemma = max(1, int(math.ceil(sz["s"] * params.s_factor)))
    s = 1 if params.variant == "one_example" else s_lemma
    n = max(k * s_lemma, sz["n_sspp"])
    hyps, total = draw_hypotheses(cls, joint, k, s, rng)
    total = total + rng.multinomial(n - k * s, joint.ravel())  # the rest of S (all of it unused by phase 1)
    qx, qy = draw_queries(joint, m_o, rng)
    first = answer_online(SubSamp.from_hypotheses(cls, hyps, P, rng), qx).labels
    pos, neg = total[1::2], total[::2]
    h_priv = sspp_from_histogram(cls, pos, neg, qx, sz["eps_run"], rng)
    h_em = int(exponential_learner(cls, pos, neg, params.eps, rng).value)
    errs = population_errors(cls, joint)
    first_err = {"remark12": float(np.mean(first != qy)), "em_learner": float(np.mean(cls.matrix[h_em, qx] != qy)),
                 "constant_0": float(np.mean(qy)), "constant_1": float(np.mean(~qy))}
    later_err = {"remark12": float(errs[h_priv]), "em_learner": float(errs[h_em]),
                 "constant_0": float(joint[:, 1].sum()), "constant_1": float(joint[:, 0].sum())}
    ok = {a: bool(first_err[a] <= params.alpha + 3 * gamma and later_err[a] <= gamma + params.alpha)
          for a in first_err}
    return {"n": n, "k": k, "s": s, "m_o": m_o, "gamma": gamma, "first_error": first_err, "later_error": later_err,
            "accurate": ok}


@dataclass(frozen=True)
class Errors:
    """Per release: the first phase's average error over the m_o queries, or the later answers' population error."""
    remark12: float
    em_learner: float
    constant_0: float
    constant_1: float


@dataclass(frozen=True)
class Accurate:
    """Per release: the remark's event (both phases within their errors)."""
    remark12: bool
    em_learner: bool = contract.opponent_field("em_learner", "success")
    constant_0: bool = contract.opponent_field("constant_0", "success")
    constant_1: bool = contract.opponent_field("constant_1", "success")


@dataclass(frozen=True)
class Outcome:
    accurate: Accurate
    first_error: Errors
    later_error: Errors
    gamma: float
    k: int
    m_o: int
    n: int
    s: int


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """P[first m_o answers within alpha + 3 gamma and err(h_priv) <= gamma + alpha] >= 1 - beta at bounds' n."""
    T, target, conf = len(records), 1 - params.beta, params.confidence
    gamma = records[0]["gamma"]
    sz = sizes(params.alpha, params.beta, params.eps, params.delta, gamma)
    main = "BTT18 + A_SSPP" if params.variant == "none" else f"BTT18 + A_SSPP ({params.variant}, broken)"
    c = contract.claim(sum(r["accurate"]["remark12"] for r in records), T, target, conf,
                       at_bound=params.s_factor >= 1.0 and sz["m_o"] >= sz["m_min"],
                       label=f"{main}: first m_o answers avg <= alpha + 3 gamma and err(h_priv) <= gamma + alpha "
                             "w.p. >= 1 - beta")
    opp = {a: contract.baseline(sum(r["accurate"][a] for r in records), T, target, conf) for a in OPPONENTS}
    informative = contract.informative(opp)
    worst = {key: max(r[key]["remark12"] for r in records) for key in ("first_error", "later_error")}
    text = (f"{c['successes']}/{T} trials within both at m_o = {sz['m_o']} (regime m_o >= {sz['m_min']:.0f}), "
            f"k = {sz['k']:,}, s = {records[0]['s']:,}, n = {records[0]['n']:,} (A_SSPP's {sz['n_sspp']:,}); worst "
            f"first-phase error {worst['first_error']:.3g} (bound {params.alpha + 3 * gamma:g}), worst err(h_priv) "
            f"{worst['later_error']:.3g} (bound {gamma + params.alpha:g}); opponents: "
            + ", ".join(f"{a} {o['rate']:.2f}" for a, o in opp.items()) + f"; informative: {informative}")
    return contract.Judgement(claims=[c], text=text, opponents=opp, measurements={
        "result_id": RESULT_ID,
        "claim": "first m_o answers avg <= alpha + 3 gamma and err(h_priv; D) <= gamma + alpha w.p. >= 1 - beta",
        "bound_source": ("bounds.compute('nb20:remark12', alpha, beta, epsilon, delta, vc=1, approx_error=gamma): "
                         "public_samples, min_queries, cutoff, subsamples, subsample_size, sspp_samples, "
                         "private_samples (the workbench's explicit form, record nb20-remark12-explicit)"),
        **{f"bound_{k_}": v for k_, v in sz.items()}, "n_used": records[0]["n"], "s_used": records[0]["s"],
        "worst_first_error": worst["first_error"], "worst_later_error": worst["later_error"],
        "per_trial": c})


EXPERIMENT = contract.Experiment(
    name="nb20_remark12", results=(RESULT_ID,),
    section="nb20-thm11",
    description=("NB20 Remark 12: BTT18's A_SubSamp then A_SSPP on the first m_o query points, at the workbench's "
                 "explicit sizes, with a negative control"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(2, {}),
    opponents={a: d for a, d in OPPONENTS.items()},
    controls={"one_example": "the first phase's sub-samples of one example each (n // n for n // k)"},
)
