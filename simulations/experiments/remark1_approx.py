"""ABM19 Remark 1: the public-data reduction of Lemma 4.4 "holds even when the public sample is labeled" and "for
both pure and approximate private/semi-private learners". The pure, unlabelled half is the ``lemma4_4`` experiment
(A_SSPP); this one runs the other half: B (Algorithms 2-4, ``algorithms.adversaries.public_reduction.reduction_b``)
on an (eps, delta)-DP semi-private learner that reads its public sample's labels,
``algorithms.learning.noisy_erm.GaussianNoisyERM`` (report-noisy-min with Gaussian noise), with delta > 0.

Class and law as ``lemma4_4``'s ``pair`` case: H = {h*, not h*} over N grid points, h* the threshold at N/2, D
realizable by h* with x uniform; D_0 = (uniform x, uniform label independent of x). On D_(p) = p D + (1 - p) D_0 the
excess error of not-h* is p = 1/(100 n_pub), so with alpha < p Lemma 4.4's premise and conclusion are both
non-trivial. Sizes from ``bounds.compute("abm19:lemma4.4", alpha, private_samples=n_priv, public_samples=n_pub)``
(p, B's corrected input size n~ and the error bound 100 n_pub alpha), never retyped.

One trial: (1) B on n~ examples of D: success_B = err(B(S~); D) <= 100 n_pub alpha (exact, from H's errors on D);
(2) the premise in the same trial: A on n_priv private and n_pub labelled public examples of D_(p) (drawn as
histograms, the sufficient statistic of the error counts A reads), success_A = excess on D_(p) <= alpha.

Verdicts (``summarise``): the premise ``P[success_A] >= 21/22`` (Lemma 4.4's (alpha, 1/22)-learner, corrected from
1/18 in docs/ERRATA.md) is a ``premise`` claim; B's ``P[success_B] >= 15/16`` is judged only where the premise is
established (its lower Clopper-Pearson bound >= 21/22), else ``below-bound``. Both at Bonferroni level over the two.

Opponent, in the same trials: ``uniform_pick`` (a hypothesis of H drawn uniformly, no data), judged by B's event.

Negative control ``dependent_dummy_labels`` (``EXPERIMENT.controls``): B whose dummies (private and public) are
labelled by not-h*(x) instead of a fair coin independent of x; the mixture then favours not-h*, B outputs it and must
come out ``violated`` where the premise holds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations import contract
from simulations.experiments import Confidence, Controlled, param
from simulations.experiments.lemma4_4 import lemma_values, setup

RESULT_ID = "abm19:lemma4.4"
PREMISE_TARGET = 21 / 22
B_TARGET = 15 / 16


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    num_points: int = param(256, "domain size N of the thresholds", within="[4, 8192]")
    alpha: float = param(0.005, "A's excess error alpha (Lemma 4.4's domain; below p = 1/(100 n_pub))",
                         within="(0, 1/100]")
    eps: float = param(1.0, "A's privacy eps", within="(0, inf)")
    delta: float = param(1e-6, "A's privacy delta (> 0: the approximate half of Remark 1)", within="(0, 1)")
    n_priv: int = param(100_000, "A's private sample size n_priv", within="[10, inf)")
    n_pub: int = param(1, "A's labelled public sample size n_pub", within="[1, inf)")


def _histogram(joint: np.ndarray, n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """n i.i.d. labelled examples of a joint table (N, 2), as points and labels from their histogram."""
    flat = np.repeat(np.arange(joint.size), rng.multinomial(n, joint.ravel()))
    return flat // 2, flat % 2


def _run_b(learner, cls, D, params: Params, n_tilde: int, rng: np.random.Generator) -> int:
    """B on n~ examples of D; the control relabels every dummy (private and public) by not-h*(x) = 1(x >= N/2)."""
    from algorithms.adversaries.public_reduction import mixture_weight, priv_samp, pub_samp, reduction_b

    sx, sy = D.sample(n_tilde, rng)
    if params.variant == contract.NO_VARIANT:
        out = reduction_b(learner, sx, sy, n_priv=params.n_priv, n_pub=params.n_pub, num_points=cls.num_points,
                          rng=rng).value
        return int(out.hypothesis)
    ps = priv_samp(sx, sy, mixture_weight(params.n_pub), params.n_priv, cls.num_points, rng)
    qx, _ = pub_samp(params.n_pub, cls.num_points, rng)
    half = cls.num_points // 2
    labels = np.where(ps.source >= 0, ps.labels, (ps.points >= half).astype(np.int64))
    return int(learner(ps.points, labels, qx, (qx >= half).astype(np.int64), rng).value)


@dataclass(frozen=True)
class Outcome:
    """One trial: B's error on D and success, A's excess on D_(p) and success, and the uniform pick's success."""
    err_B: float
    success_B: bool
    excess_A: float
    success_A: bool
    uniform_pick: bool = contract.opponent_field("uniform_pick", "success")


def trial(params: Params, rng: np.random.Generator) -> Outcome:
    from algorithms.learning import GaussianNoisyERM
    from algorithms.learning.erm import population_errors

    cls, D, D0, err_D = setup("pair", params.num_points, "uniform")
    v = lemma_values(params.alpha, params.n_priv, params.n_pub)
    learner = GaussianNoisyERM(cls, params.eps, params.delta)
    h_b = _run_b(learner, cls, D, params, v["n_tilde"], rng)
    mix = v["p"] * D.joint + (1 - v["p"]) * D0
    px, py = _histogram(mix, params.n_priv, rng)
    qx, qy = _histogram(mix, params.n_pub, rng)
    h_a = int(learner(px, py, qx, qy, rng).value)
    err_mix = population_errors(cls, mix)
    excess = float(err_mix[h_a] - err_mix.min())
    pick = int(rng.integers(cls.num_hypotheses))
    return Outcome(err_B=float(err_D[h_b]), success_B=bool(err_D[h_b] <= v["error_bound"]), excess_A=excess,
                   success_A=excess <= params.alpha, uniform_pick=bool(err_D[pick] <= v["error_bound"]))


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """The premise (A on D_(p)), then B's claim where the premise is established (module docstring)."""
    T = len(records)
    per = 1.0 - (1.0 - params.confidence) / 2
    v = lemma_values(params.alpha, params.n_priv, params.n_pub)
    premise = contract.claim(sum(r["success_A"] for r in records), T, PREMISE_TARGET, params.confidence,
                             per_claim_confidence=per, kind="premise",
                             label="A (Gaussian noisy ERM, labelled public data) is an (alpha, 1/22)-learner on D_(p)")
    established = premise["lower"] >= PREMISE_TARGET
    b = contract.claim(sum(r["success_B"] for r in records), T, B_TARGET, params.confidence,
                       per_claim_confidence=per, at_bound=established,
                       label="err(B; D) <= 100 n_pub alpha w.p. >= 15/16 (Lemma 4.4 with an (eps, delta) learner)")
    opp = {"uniform_pick": contract.baseline(sum(r["uniform_pick"] for r in records), T, B_TARGET,
                                             params.confidence)}
    text = (f"A = Gaussian noisy ERM at (eps, delta) = ({params.eps:g}, {params.delta:g}) with {params.n_pub} labelled "
            f"public example(s): A met alpha = {params.alpha:g} on D_(p) in {premise['successes']}/{T} (premise "
            f"{'established' if established else 'not established'}); B met 100 n_pub alpha = "
            f"{v['error_bound']:.3g} on D in {b['successes']}/{T} at n~ = {v['n_tilde']}; uniform pick "
            f"{opp['uniform_pick']['rate']:.2f}")
    return contract.Judgement(claims=[premise, b], text=text, opponents=opp, measurements={
        "result_id": RESULT_ID,
        "claim": ("ABM19 Remark 1: Lemma 4.4's reduction holds for an approximate (eps, delta)-DP semi-private "
                  "learner with a labelled public sample"),
        "bound_source": (f"bounds.compute('{RESULT_ID}', alpha={params.alpha}, private_samples={params.n_priv}, "
                         f"public_samples={params.n_pub})"),
        "p": v["p"], "n_tilde": v["n_tilde"], "error_bound": v["error_bound"],
        "premise_established": established, "premise": premise, "reduction": b})


EXPERIMENT = contract.Experiment(
    name="remark1_approx", results=("abm19:lemma4.4",),
    section="abm19-lemma4-4",
    description="ABM19 Remark 1: Lemma 4.4's reduction B on an (eps, delta)-DP learner that reads labelled public data",
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(90, {}),
    opponents={"uniform_pick": "a hypothesis of H drawn uniformly (no data)"},
    controls={"dependent_dummy_labels": "B's dummies labelled by not-h*(x), not by a coin independent of x"},
)
