"""BCMNUW20 Theorem 14's soundness half (DSS+15 Theorem 17): whatever the release q, the attacker says OUT on a fresh
sample y of D~ with probability at least 1 - f, i.e. a non-member is traced with probability at most f. ``thm13``
runs the attack's completeness half (IN on >= t/2 samples) across releases; this run holds its analytic threshold
(``algorithms.adversaries.tracing.Attacker.analytic_threshold``, the sub-Gaussian tail Pr[score > tau] <=
exp(-tau^2/(4 ||v||^2)) for every q) to the soundness claim.

One trial: D~ = ``tracing.hard_distribution(p, bias_range)``; the release q = the mean of n samples of D~ (the most
revealing release: the claim is for every q); the attacker's reference sample z and ``center_draws`` centring samples;
one designated fresh sample and ``fresh_draws`` more (pooled, a point rate), and one designated member. At level f =
``level`` (the threshold tau = 2 ||v|| sqrt(ln(1/f))) and at Theorem 14's own f = 1/(r + t)^2 (``bounds.compute(
"bcmnuw20:thm14", alpha, dual_vc=p, form="asymptotic")``'s failure_probability at the hidden constants
``c_14r``, ``c_14t``, as ``thm13``'s asymptotic form), the attacker's decision on each.

Verdict: P[the designated fresh sample is OUT at level f] >= 1 - f (Clopper-Pearson at ``confidence``; trials are
independent). Measurements: at Theorem 14's f, the fresh samples traced (designated and pooled: any one contradicts the
claim there, but a level of 1/(r + t)^2 can only be refuted by sampling, never confirmed); the member's IN rate at
both levels (the attack's power, ``thm13``'s subject).

Negative control ``no_reference`` (``EXPERIMENT.controls``): the statistic <y, q> without the reference sample and
the centring (v = q, no z): a fresh sample then scores sum_j mu_j q_j ~ p bias_range^2/3 on average, above the
threshold, and the claim must come out ``violated``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations import contract
from simulations.experiments import Confidence, Controlled, param


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    p: int = param(1000, "dimension p of {+-1}^p (p stumps)", within="[2, 100000]")
    n: int = param(30, "samples the release q averages (the members)", within="[1, 1000000]")
    bias_range: float = param(0.4, "the hard distribution's biases are uniform on [-bias_range, bias_range]",
                              within="(0, 1]")
    level: float = param(0.05, "level f of the judged threshold", within="(0, 1)")
    alpha: float = param(0.1, "accuracy alpha fixing Theorem 14's r and t (its f = 1/(r + t)^2)", within="(0, 1)")
    c_14r: float = param(1.0, "hidden constant C_14r of Theorem 14's r", within="(0, inf)")
    c_14t: float = param(1.0, "hidden constant C_14t of Theorem 14's t", within="(0, inf)")
    center_draws: int = param(50, "fresh samples the attacker centres its weights with", within="[0, 100000]")
    fresh_draws: int = param(100, "further fresh samples scored per trial (pooled, a point rate)", within="[0, 100000]")


def theorem_level(params: Params) -> float:
    """Theorem 14's f = 1/(r + t)^2 at the asymptotic form's constants, from ``bounds``."""
    import bounds

    c = bounds.compute("bcmnuw20:thm14", form="asymptotic", constants={"C_14r": params.c_14r, "C_14t": params.c_14t},
                       alpha=params.alpha, dual_vc=params.p)
    return float(c["failure_probability"])


@dataclass(frozen=True)
class Outcome:
    """One trial: the designated fresh sample's and member's decisions at both levels, and the pooled fresh INs."""
    fresh_in: bool
    fresh_in_thm14: bool
    pooled_fresh_in: int
    pooled_fresh_in_thm14: int
    member_in: bool
    member_in_thm14: bool


def trial(params: Params, rng: np.random.Generator) -> Outcome:
    from algorithms.adversaries import tracing

    D = tracing.hard_distribution(params.p, params.bias_range, rng)
    members = D.sample(params.n, rng)
    q = members.mean(axis=0, dtype=np.float64)
    center = D.sample(params.center_draws, rng) if params.center_draws else None
    T = tracing.Attacker.build(q, D.sample(1, rng), center)
    fresh = D.sample(1 + params.fresh_draws, rng)
    cand = np.vstack([fresh, members[:1]])
    if params.variant == "no_reference":
        scores = cand.astype(np.float64) @ tracing.clip_answers(q)
        taus = [2.0 * float(np.linalg.norm(tracing.clip_answers(q))) * np.sqrt(np.log(1.0 / f))
                for f in (params.level, theorem_level(params))]
    else:
        scores = T.scores(cand)
        taus = [T.analytic_threshold(params.level), T.analytic_threshold(theorem_level(params))]
    ins = [scores > tau for tau in taus]
    return Outcome(fresh_in=bool(ins[0][0]), fresh_in_thm14=bool(ins[1][0]), pooled_fresh_in=int(ins[0][1:-1].sum()),
                   pooled_fresh_in_thm14=int(ins[1][1:-1].sum()), member_in=bool(ins[0][-1]),
                   member_in_thm14=bool(ins[1][-1]))


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """P[fresh OUT at level f] >= 1 - f; Theorem 14's level and the members' IN rate as measurements."""
    T = len(records)
    f14 = theorem_level(params)
    c = contract.claim(sum(not r["fresh_in"] for r in records), T, 1.0 - params.level, params.confidence,
                       label="a fresh non-member is OUT w.p. >= 1 - f at the analytic threshold of level f")
    pooled = sum(r["pooled_fresh_in"] for r in records)
    traced14 = sum(r["fresh_in_thm14"] for r in records) + sum(r["pooled_fresh_in_thm14"] for r in records)
    scored = T * (1 + params.fresh_draws)
    member = sum(r["member_in"] for r in records) / T
    what = " (negative control: no reference sample, no centring)" if params.variant == "no_reference" else ""
    text = (f"fresh non-members traced at level f = {params.level:g}: {T - c['successes']}/{T} designated, "
            f"{pooled}/{T * params.fresh_draws} pooled{what}; at Theorem 14's f = {f14:.3g}: {traced14} of {scored} "
            f"fresh traced; a member traced in {member:.2f} of the trials at level f")
    return contract.Judgement(claims=[c], text=text, measurements={
        "result_id": "bcmnuw20:thm14",
        "claim": "BCMNUW20 Thm 14: P_{y ~ D~ fresh}[T(q, y) = OUT] >= 1 - 1/(r + t)^2 for every release q",
        "bound_source": (f"bounds.compute('bcmnuw20:thm14', form='asymptotic', constants={{'C_14r': "
                         f"{params.c_14r}, 'C_14t': {params.c_14t}}}, alpha={params.alpha}, dual_vc={params.p})"
                         "['failure_probability']"),
        "level": params.level, "level_thm14": f14, "pooled_fresh_rate": pooled / max(1, T * params.fresh_draws),
        "fresh_traced_at_thm14_level": traced14, "fresh_scored": scored,
        "member_in_rate": member, "member_in_rate_thm14": sum(r["member_in_thm14"] for r in records) / T,
        "per_trial": c})


EXPERIMENT = contract.Experiment(
    name="thm14_soundness", results=("bcmnuw20:thm14",),
    section="lower-bounds",
    description="BCMNUW20 Thm 14's soundness half: a fresh non-member is traced w.p. at most f, for every release",
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(60, {"p": 300, "n": 50, "fresh_draws": 20}),
    opponents=contract.NoOpponents("a property of the attacker that holds for every release (the non-member is "
                                   "independent of q): no release is judged, so none trivial to compare with"),
    controls={"no_reference": "the statistic <y, q> without the reference sample and the centring"},
)
