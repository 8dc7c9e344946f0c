"""BCMNUW20 Lemma 7 on its own: PMW (Algorithm 1 with Dwork-Roth Theorem 4.15's settings) over a finite domain X~ and
query class H~, fed n i.i.d. samples of a law D on X~, outputs answers with error at most alpha (on [-1, 1], against
D) with probability at least 1 - beta, at Lemma 7's n (``bounds.compute("bcmnuw20:lemma7", ...)``'s private_samples,
the corrected derivation, with its MW accuracy ``mw_accuracy`` passed to PMW; never retyped). Inside A_PAP the lemma is
run by ``thm10``; here PMW runs alone, with no cover and no representative domain.

One trial: H~ = the N + 1 thresholds on N grid points (X~ = the grid), D = ``law`` on the grid, the n private samples
drawn as their histogram (``PointCounts``, the counts of n i.i.d. draws: PMW reads its data only through them);
G~ = ``algorithms.query_release.pmw.pmw``; success = Err_{D,H~}(G~) <= alpha, exactly. Recorded beside it: PMW's
updates against its cut-off c (a halt is the event the lemma's failure budget covers).

Verdict: P[success] >= 1 - beta (Clopper-Pearson at ``confidence``); ``n_factor`` < 1 is ``below-bound``.

Opponents, in the same trials and judged by the same event: ``constant`` (0 on every query) and ``uniform`` (the
answers of the uniform law on X~, PMW's starting point).

Negative control ``wrong_data`` (``EXPERIMENT.controls``): PMW fed n samples of the uniform law instead of D (a data
plumbing slip), which must come out ``violated`` on a law far from uniform.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations import contract
from simulations.experiments import Confidence, Controlled, param

RESULT_ID = "bcmnuw20:lemma7"
LAWS = ("zipf", "uniform")


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    num_points: int = param(64, "grid points N (|X~| = N, |H~| = N + 1 thresholds)", within="[2, 4096]")
    law: str = param("zipf", "the law D on the grid", choices=LAWS)
    alpha: float = param(0.5, "accuracy alpha on [-1, 1]", within="(0, 1)")
    beta: float = param(0.1, "failure probability beta", within="(0, 1)")
    eps: float = param(0.9, "privacy eps (Lemma 7 needs eps < 1)", within="(0, 1)")
    delta: float = param(1e-6, "privacy delta", within="(0, 1)")
    n_factor: float = param(1.0, "private samples as a multiple of Lemma 7's n (< 1: below-bound)", within="(0, inf)")


def sizes(params: Params) -> dict:
    """Lemma 7's n, PMW's MW accuracy and its update cut-off c, from ``bounds``."""
    return contract.required_sizes(RESULT_ID, {"n": ("private_samples", int), "mw_accuracy": "mw_accuracy",
                                               "cutoff": ("update_cutoff", int)},
                                   alpha=params.alpha, beta=params.beta, epsilon=params.eps, delta=params.delta,
                                   num_hypotheses=params.num_points + 1, domain_size=params.num_points)


@dataclass(frozen=True)
class Outcome:
    """One trial: PMW's error against D, its updates, whether it halted, and the opponents' successes."""
    n: int
    error: float
    success: bool
    updates: int
    halted: bool
    constant: bool = contract.opponent_field("constant", "success")
    uniform: bool = contract.opponent_field("uniform", "success")


def trial(params: Params, rng: np.random.Generator) -> Outcome:
    from algorithms.classes import PointCounts, thresholds
    from algorithms.evaluation import true_answers, true_error
    from algorithms.query_release.pmw import pmw
    from simulations.experiments import thm10

    s = sizes(params)
    cls = thresholds(params.num_points)
    D = thm10.make_distribution("thresholds", params.law, params.num_points)
    n = max(1, int(np.ceil(s["n"] * params.n_factor)))
    law = np.full(params.num_points, 1.0 / params.num_points) if params.variant == "wrong_data" else D.probs
    out = pmw(PointCounts(rng.multinomial(n, law)), cls, params.alpha, params.beta, params.eps, params.delta, rng,
              mw_accuracy=s["mw_accuracy"]).value
    err = true_error(cls, D.probs, out.answers)
    uniform = true_answers(cls, np.full(params.num_points, 1.0 / params.num_points))
    return Outcome(n=n, error=err, success=err <= params.alpha, updates=int(out.update_queries.size),
                   halted=bool(out.halted),
                   constant=true_error(cls, D.probs, np.zeros(cls.num_hypotheses)) <= params.alpha,
                   uniform=true_error(cls, D.probs, uniform) <= params.alpha)


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """P[Err_{D,H~}(G~) <= alpha] >= 1 - beta at Lemma 7's n; the opponents by the same event."""
    T = len(records)
    s = sizes(params)
    target = 1.0 - params.beta
    c = contract.claim(sum(r["success"] for r in records), T, target, params.confidence,
                       at_bound=params.n_factor >= 1.0,
                       label="PMW alone: Err_{D,H~} <= alpha w.p. >= 1 - beta at Lemma 7's n")
    opp = {k: contract.baseline(sum(r[k] for r in records), T, target, params.confidence)
           for k in ("constant", "uniform")}
    errs = [r["error"] for r in records]
    text = (f"PMW on {params.num_points}-point thresholds ({params.law}) at n = {records[0]['n']:,} "
            f"({params.n_factor:g} x Lemma 7's {s['n']:,}): error <= alpha = {params.alpha:g} in {c['successes']}/{T} "
            f"(from {min(errs):.3g} to {max(errs):.3g}); at most {max(r['updates'] for r in records)} updates of the "
            f"cut-off {s['cutoff']:,}, {sum(r['halted'] for r in records)} halts; constant "
            f"{opp['constant']['rate']:.2f}, uniform {opp['uniform']['rate']:.2f}")
    return contract.Judgement(claims=[c], text=text, opponents=opp, measurements={
        "result_id": RESULT_ID,
        "claim": "Err_{D,H~}(PMW) <= alpha w.p. >= 1 - beta with n i.i.d. samples (BCMNUW20 Lemma 7, corrected n)",
        "bound_source": (f"bounds.compute('{RESULT_ID}', alpha={params.alpha}, beta={params.beta}, "
                         f"epsilon={params.eps}, delta={params.delta}, num_hypotheses={params.num_points + 1}, "
                         f"domain_size={params.num_points})"),
        "n_required": s["n"], "cutoff": s["cutoff"], "max_error": max(errs), "per_trial": c})


EXPERIMENT = contract.Experiment(
    name="lemma7", results=("bcmnuw20:lemma7",),
    section="thm10",
    description="BCMNUW20 Lemma 7 alone: PMW's error <= alpha w.p. >= 1 - beta at Lemma 7's n, fed counts",
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(30, {}),
    opponents={"constant": "0 on every query", "uniform": "the uniform law's answers (PMW's starting point)"},
    controls={"wrong_data": "PMW fed samples of the uniform law instead of D"},
)
