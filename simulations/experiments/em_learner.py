"""Kasiviswanathan, Lee, Nissim, Raskhodnikova & Smith (2008) Theorem 3.4, the generic private learner that ABM19
Theorem 3.1's proof invokes (``baselines:em_learner``): the exponential mechanism over a finite class H with score
minus the error count is eps-DP, and once n >= bounds' ``private_samples`` its hypothesis's population error is
within alpha of the best in H with probability >= 1 - beta (agnostic: no hypothesis need be perfect).

One trial, at n = ``n_factor`` times bounds' n (``bounds.compute("baselines:em_learner", alpha, beta, epsilon,
num_hypotheses=N + 1)``, never retyped):

* H = the N + 1 thresholds on a grid of N points (``algorithms.classes.thresholds``), D = x uniform on the grid and
  the label +1 iff x < N/2, flipped with probability ``noise`` (so err(h_j; D) = noise + (1 - 2 noise) |j - N/2|/N,
  computed exactly from H's matrix);
* the n private examples' labelled histogram, drawn exactly (one multinomial over the 2N cells (x, y): the
  sufficient statistic of n i.i.d. examples for every hypothesis's error count, which is all the learner reads);
* A = ``algorithms.opponents.exponential_learner`` (the realisation the bound names); success = err(h; D) -
  min_H err <= alpha, exactly.

Opponents, in the same trials and judged by the same event: ``uniform_pick`` (a hypothesis of H drawn uniformly:
no data, eps = 0) and ``constant`` (the all-negative hypothesis of H). The run is informative where both fail.

Verdict: P[success] >= 1 - beta by the Clopper-Pearson rule at ``confidence``; below bounds' n (``n_factor`` < 1)
the status is ``below-bound``.

Negative control ``noise_300x`` (``EXPERIMENT.controls``): the selection at eps/300 (the score's noise 300 times too
large, as a sensitivity mis-scaled by 300 would make it) must come out ``violated``: at the CI size (30 trials,
seed 1) it met alpha in 17 of 30 trials against the algorithm's 30 of 30.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations import contract
from simulations.experiments import Confidence, Controlled, param

RESULT_ID = "baselines:em_learner"
NOISE_BLOWUP = 300.0


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    num_points: int = param(16, "grid points N of the thresholds (|H| = N + 1)", within="[2, 4096]")
    alpha: float = param(0.1, "excess error alpha", within="(0, 1)")
    beta: float = param(0.1, "failure probability beta", within="(0, 1)")
    eps: float = param(1.0, "privacy eps of the exponential mechanism", within="(0, inf)")
    noise: float = param(0.1, "label noise of D (agnostic for > 0)", within="[0, 1/2)")
    n_factor: float = param(1.0, "private samples as a multiple of bounds' n (< 1: below-bound)", within="(0, inf)")


def required_n(params: Params) -> int:
    """bounds' n for (alpha, beta, eps, |H| = N + 1): ``baselines:em_learner``'s private_samples."""
    return contract.required_sizes(RESULT_ID, {"n": ("private_samples", int)}, alpha=params.alpha,
                                   beta=params.beta, epsilon=params.eps,
                                   num_hypotheses=params.num_points + 1)["n"]


def population(num_points: int, noise: float):
    """H (thresholds with the all-negative one), the law of (x, y) as (P[x, +1], P[x, -1]) and every err(h; D)."""
    from algorithms.classes import thresholds

    cls = thresholds(num_points)
    x = np.arange(num_points)
    plus = np.where(x < num_points / 2, 1.0 - noise, noise) / num_points
    minus = 1.0 / num_points - plus
    m = cls.matrix
    errs = (m * minus[None, :]).sum(axis=1) + (~m * plus[None, :]).sum(axis=1)
    return cls, plus, minus, errs


@dataclass(frozen=True)
class Outcome:
    """One trial: the learner's excess error and success, and each opponent's success at the same alpha."""
    n: int
    excess: float
    success: bool
    uniform_pick: bool = contract.opponent_field("uniform_pick", "success")
    constant: bool = contract.opponent_field("constant", "success")


def trial(params: Params, rng: np.random.Generator) -> Outcome:
    from algorithms.opponents import exponential_learner

    cls, plus, minus, errs = population(params.num_points, params.noise)
    n = max(1, int(np.ceil(required_n(params) * params.n_factor)))
    cells = rng.multinomial(n, np.concatenate([plus, minus]))
    pos, neg = cells[: params.num_points], cells[params.num_points:]
    eps = params.eps / NOISE_BLOWUP if params.variant == "noise_300x" else params.eps
    h = int(exponential_learner(cls, pos, neg, eps, rng).value)
    best = float(errs.min())
    excess = float(errs[h] - best)
    pick = int(rng.integers(errs.size))
    return Outcome(n=n, excess=excess, success=excess <= params.alpha,
                   uniform_pick=bool(errs[pick] - best <= params.alpha),
                   constant=bool(errs[0] - best <= params.alpha))  # hypothesis 0: -1 everywhere


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """P[excess <= alpha] >= 1 - beta at bounds' n (below it: below-bound); the opponents by the same event."""
    T = len(records)
    n_req = required_n(params)
    at = params.n_factor >= 1.0
    target = 1.0 - params.beta
    c = contract.claim(sum(r["success"] for r in records), T, target, params.confidence, at_bound=at,
                       label="excess error <= alpha w.p. >= 1 - beta at KLNRS08's n")
    opp = {name: contract.baseline(sum(r[name] for r in records), T, target, params.confidence)
           for name in ("uniform_pick", "constant")}
    ex = [r["excess"] for r in records]
    text = (f"{c['successes']}/{T} trials within alpha = {params.alpha:g} of the best threshold at n = "
            f"{records[0]['n']} ({params.n_factor:g} x bounds' {n_req}); excess error from {min(ex):.4g} to "
            f"{max(ex):.4g}; uniform pick {opp['uniform_pick']['rate']:.2f}, constant {opp['constant']['rate']:.2f}")
    return contract.Judgement(claims=[c], text=text, opponents=opp, measurements={
        "result_id": RESULT_ID,
        "claim": "err(A(S); D) - min_H err(h; D) <= alpha w.p. >= 1 - beta once n >= private_samples (KLNRS08 Thm 3.4)",
        "bound_source": (f"bounds.compute('{RESULT_ID}', alpha={params.alpha}, beta={params.beta}, "
                         f"epsilon={params.eps}, num_hypotheses={params.num_points + 1})['private_samples']"),
        "n_required": n_req, "n_used": records[0]["n"], "mean_excess": float(np.mean(ex)),
        "max_excess": float(max(ex)), "per_trial": c})


EXPERIMENT = contract.Experiment(
    name="em_learner", results=("baselines:em_learner",),
    section="abm19-thm3-1",
    description="KLNRS08's generic private learner (exponential mechanism over H) at its own n: excess <= alpha",
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(30, {}),
    opponents={"uniform_pick": "a hypothesis of H drawn uniformly (no data)",
               "constant": "the all-negative hypothesis of H"},
    controls={"noise_300x": "the selection at eps/300: the score's noise 300 times too large (must be violated)"},
)
