"""NB20 Lemma 6 (A_Relabel's excess error) and Claim 10 (uniform convergence of the disagreements), each at its
own sample size from ``bounds`` (the corrected one: nb20:lemma6 ``relabel_samples``, nb20:claim10
``unlabeled_samples``), on the thm7 cases (thresholds, intervals, halfspaces with label noise, boundary_noise),
each with a negative control judged at the same size. Lemma 9 at its corrected query count is ``nb20_lemma9``
(and its eq. (3) on pure-noise labels the ``corrected`` claim of thm7's counterexample, an algorithm-free draw).

Lemma 6: S' ~ D^{n'} (one multinomial over the 2N labelled cells: the histogram is all A_Relabel reads,
``a_relabel_counts``); success = err(h^; D) - err(h_ERM(S'); D) <= alpha, errors exact. Control
``uniform_relabel``: h^ drawn uniformly from H~ (the exponential mechanism's score ignored), in the same trial.

Claim 10: S_u ~ D_X^{n_o} (one multinomial over the N points); success = max over all pairs (h1, h2) of H of
|dis(h1, h2; D_X) - dis^(h1, h2; S_u)| <= alpha, computed exactly as |(p - p^) . [h1 != h2]| for every pair (one
matrix product). Control ``truncated_sample``: S_u drawn from D_X restricted to the first half of the domain (a
sampler bug), judged against D_X in the same trial.

Both events hold by mathematics at these sizes unless the code is wrong or the constants are; on domains this
small the sizes are far from tight, so the claims are verdicts on the lemmas' sufficiency, not measurements of
their tightness. Lemma 6 runs A_Relabel (the algorithm under test): its claims are ``verdict``s; Claim 10 is a
draw from D_X that runs no algorithm, so its claims are ``algorithm-free`` (outside the verdict family). Both
controls run in every trial; ``variant`` names one to make it the run's verdict.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from algorithms.learning.erm import erm
from algorithms.learning.relabel import a_relabel_counts
from algorithms.learning.sspp import sspp_cover
from simulations import contract, stats
from simulations.experiments import param
from simulations.experiments._nb20_common import claim, trials_for_holds
from simulations.experiments._params import Confidence, Controlled
from simulations.experiments.thm7 import make_case

CASES = ("thresholds", "intervals", "halfspaces", "boundary_noise")
NEGATIVE_CONTROLS = {"uniform_relabel": "A_Relabel's h^ uniform over H~ (score ignored)",
                     "truncated_sample": ("Claim 10's sample drawn from the marginal restricted to the first half of "
                                          "the domain")}


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    cases: tuple = param(CASES, "comma-separated classes", choices=CASES)
    alpha: float = param(0.2, "accuracy alpha", within="(0, 1)")
    beta: float = param(0.2, "failure probability beta", within="(0, 1)")
    noise: float = param(0.1, "label-noise rate gamma of the uniform-noise cases", within="(0, 0.5)")
    boundary_mass: float = param(0.1, "mass of the fair-coin point 8 in boundary_noise", within="(0, 1)")


@functools.lru_cache(maxsize=16)
def sizes(alpha: float, beta: float, d: int) -> dict:
    """The lemmas' own sizes, corrected and printed (``contract.required_sizes``: never retyped)."""
    return {**contract.required_sizes("nb20:lemma6", SIZES["nb20:lemma6"], alpha=alpha, beta=beta, vc=d),
            **contract.required_sizes("nb20:claim10", SIZES["nb20:claim10"], alpha=alpha, beta=beta, vc=d)}


#: what this experiment reads from ``bounds`` (``contract.required_sizes``): {result: {summary key: quantity}}
SIZES = {"nb20:lemma6": {"n_lemma6": ("relabel_samples", contract.ceil_int),
                         "n_lemma6_printed": ("relabel_samples_printed", contract.ceil_int)},
         "nb20:claim10": {"n_claim10": ("unlabeled_samples", contract.ceil_int),
                          "n_claim10_printed": ("unlabeled_samples_printed", contract.ceil_int)}}


def run_case(kind: str, params: Params, rng: np.random.Generator) -> dict:
    c = make_case(kind, params.noise, params.boundary_mass)
    cls, joint, errors = c["cls"], c["joint"], c["errors"]
    N = cls.num_points
    sz = sizes(params.alpha, params.beta, c["d"])
    # Lemma 6
    s = rng.multinomial(sz["n_lemma6"], joint.ravel()).reshape(N, 2)
    h_hat = a_relabel_counts(cls, s, rng).hypothesis
    pts = np.concatenate([np.arange(N)] * 2)
    h_erm = erm(cls, pts, np.repeat([True, False], N), np.concatenate([s[:, 1], s[:, 0]])).hypothesis
    members = sspp_cover(cls, np.flatnonzero(s.sum(axis=1))).members
    h_unif = int(members[rng.integers(members.size)])
    excess = float(errors[h_hat] - errors[h_erm])
    # Claim 10
    p = joint.sum(axis=1)
    M = cls.matrix.astype(np.float64)
    dis_pattern = (M[:, None, :] != M[None, :, :]).reshape(-1, N).astype(np.float64)  # [h1 != h2] per pair

    truncated = np.where(np.arange(N) < N // 2, p, 0.0)
    truncated /= truncated.sum()

    def worst(sample_law):
        p_hat = rng.multinomial(sz["n_claim10"], sample_law) / sz["n_claim10"]
        return float(np.max(np.abs(dis_pattern @ (p - p_hat))))

    return {"lemma6_excess": excess, "lemma6_ok": excess <= params.alpha,
            "control_relabel_excess": float(errors[h_unif] - errors[h_erm]),
            "control_relabel_ok": float(errors[h_unif] - errors[h_erm]) <= params.alpha,
            "claim10_dev": worst(p), "claim10_ok": worst(p) <= params.alpha,
            "control_shift_dev": worst(truncated), "control_shift_ok": worst(truncated) <= params.alpha}


@dataclass(frozen=True)
class Case:
    """One case: Lemma 6's excess over ERM and Claim 10's largest deviation, each with its control's."""
    lemma6_excess: float
    lemma6_ok: bool
    control_relabel_excess: float
    control_relabel_ok: bool
    claim10_dev: float
    claim10_ok: bool
    control_shift_dev: float
    control_shift_ok: bool


@dataclass(frozen=True)
class Outcome:
    """One trial: per case name."""
    cases: dict[str, Case]


def trial(params: Params, rng: np.random.Generator) -> dict:
    return {"cases": {kind: run_case(kind, params, rng) for kind in params.cases}}


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    T, target, conf = len(records), 1 - params.beta, params.confidence
    cases = {}
    for kind in params.cases:
        rows = [r["cases"][kind] for r in records]
        c = make_case(kind, params.noise, params.boundary_mass)

        def n_ok(key, rows=rows):
            return sum(bool(r[key]) for r in rows)

        cases[kind] = {
            "d": c["d"], **sizes(params.alpha, params.beta, c["d"]),
            "lemma6": claim(n_ok("lemma6_ok"), T, target, conf, True,
                            label=f"Lemma 6: err(h^) - err(h_ERM) <= alpha w.p. >= 1 - beta, {kind}"),
            "lemma6_control": claim(n_ok("control_relabel_ok"), T, target, conf, True,
                                    label=f"control uniform_relabel: excess <= alpha, {kind}"),
            "claim10": claim(n_ok("claim10_ok"), T, target, conf, True, kind=contract.ALGORITHM_FREE,
                             label=f"Claim 10: disagreements within alpha w.p. >= 1 - beta, {kind}"),
            "claim10_control": claim(n_ok("control_shift_ok"), T, target, conf, True, kind=contract.ALGORITHM_FREE,
                                     label=f"control truncated_sample: disagreements within alpha, {kind}"),
            "lemma6_excess_max": max(r["lemma6_excess"] for r in rows),
            "claim10_dev_max": max(r["claim10_dev"] for r in rows),
            "control_relabel_excess_mean": float(np.mean([r["control_relabel_excess"] for r in rows])),
            "control_shift_dev_mean": float(np.mean([r["control_shift_dev"] for r in rows])),
        }
    control_keys = {"uniform_relabel": "lemma6_control", "truncated_sample": "claim10_control"}
    controls = {name: any(cs[key]["status"] == stats.VIOLATED for cs in cases.values())
                for name, key in control_keys.items()}
    if params.variant in NEGATIVE_CONTROLS:  # the run is judged by its control arm
        judged = [cs[control_keys[params.variant]] for cs in cases.values()]
    else:
        judged = [cs[k] for cs in cases.values() for k in ("lemma6", "claim10")]
    n_verdicts = 2 * len(cases)  # Lemma 6 and its control per case (Claim 10's are algorithm-free)
    need = trials_for_holds(target, conf, n_verdicts)
    text = (f"Lemma 6 and Claim 10 at bounds' sizes over {len(cases)} case(s), {T} trials ({need} needed "
            f"for holds at the family-wise level over {n_verdicts} verdicts); controls "
            + ", ".join(f"{k} {'caught' if v else 'NOT caught'}" for k, v in controls.items()))
    return contract.Judgement(claims=judged, text=text, measurements={
            "result_id": "nb20:lemma6", "claim": "Lemma 6 and Claim 10 at their corrected sizes",
            "bound_source": "bounds.compute('nb20:lemma6' | 'nb20:claim10', alpha, beta, vc=d)",
            "alpha": params.alpha, "beta": params.beta, "trials": T, "confidence": conf, "trials_for_holds": need,
            "negative_controls": controls, "verdicts_in_family": n_verdicts,
            "negative_controls_caught": all(controls.values()), "cases": cases})


EXPERIMENT = contract.Experiment(
    name="nb20_lemmas", results=("nb20:lemma6", "nb20:claim10"),
    section="nb20-thm7",
    description=("NB20 Lemma 6 (A_Relabel's excess error over ERM <= alpha at n') and Claim 10 (disagreements "
                 "uniformly within alpha at n_o), at bounds' sizes, with negative controls"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    # every size is the lemmas' own
    ci=contract.CiRun(10, {"cases": "thresholds,intervals"}),
    opponents=contract.NoOpponents("Lemma 6 (A_Relabel's excess over ERM) is judged with no trivial learner beside it "
                                   "(not measured) and Claim 10 is an algorithm-free draw"),
    controls=NEGATIVE_CONTROLS,
)
