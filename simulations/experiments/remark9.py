"""BCMNUW20 Remark 9: A_PAP's release G (a data structure H -> [-1, 1]) can be turned into a synthetic data set of
n' > VC(H)/alpha^2 rows whose answers are within 2 alpha of G on every h (hence within 3 alpha of D) whenever
Err_{D,H}(G) <= alpha. The Remark shows such a data set exists; ``algorithms.query_release.synthetic`` builds one
(the law closest to G by a linear program, then the best of several roundings to n' rows).

One trial, on ``thm10``'s thresholds case (``law`` over N grid points), at Theorem 10's own sizes (n, m and PMW's MW
accuracy from ``bounds.compute("bcmnuw20:thm10", ...)`` through ``thm10.theorem_sizes``):

1. G = A_PAP(private, public) (``algorithms.query_release.pap.a_pap``); err_G = Err_{D,H}(G), exactly;
2. n' = ``bounds.compute("bcmnuw20:remark9", alpha, vc)``'s synthetic_rows (the least integer > VC/alpha^2), and
   2 alpha, 3 alpha its error and error_to_d, never retyped;
3. v = the synthetic data set of n' rows; success = max_h |avg_v h - G(h)| <= 2 alpha and Err_{D,H}(v) <= 3 alpha.

Claims: the premise ``P[err_G <= alpha] >= 1 - beta`` (Theorem 10, ``premise``) and the Remark's
``P[success] >= 1 - beta`` (the conversion cannot fail where the premise holds, so the pipeline meets it w.p.
>= 1 - beta), Bonferroni over the two.

Opponent, in the same trials: ``uniform_rows`` (n' rows spread evenly over the domain, ignoring G), judged by the same
event. Negative control ``one_row`` (``EXPERIMENT.controls``): the conversion asked for a data set of one row (n' = 1,
not > VC/alpha^2), which cannot be within 2 alpha of G on thresholds: it must come out ``violated``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations import contract
from simulations.experiments import Confidence, Controlled, param

RESULT_ID = "bcmnuw20:remark9"
LAWS = ("zipf", "uniform")


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    num_points: int = param(64, "grid points N of the thresholds", within="[4, 512]")
    law: str = param("zipf", "marginal of D on the grid", choices=LAWS)
    alpha: float = param(0.25, "accuracy alpha of A_PAP (Theorem 10) and of the Remark", within="(0, 1)")
    beta: float = param(0.1, "failure probability beta of Theorem 10", within="(0, 1)")
    eps: float = param(0.9, "privacy eps of A_PAP (Theorem 10 needs eps < 1)", within="(0, 1)")
    delta: float = param(1e-6, "privacy delta of A_PAP", within="(0, 1)")
    draws: int = param(50, "random roundings of the closest law tried beside the deterministic one",
                       within="[0, 10000]")


def sizes(params: Params) -> dict:
    """Theorem 10's n, m and MW accuracy, and Remark 9's n', 2 alpha and 3 alpha, from ``bounds``."""
    from simulations.experiments import thm10

    cls, d, p = thm10.make_class("thresholds", params.num_points, 1)
    out = thm10.theorem_sizes(params.alpha, params.beta, params.eps, params.delta, d, p)
    out.update(contract.required_sizes(RESULT_ID, {"rows": ("synthetic_rows", int), "to_g": "error",
                                                   "to_d": "error_to_d"}, alpha=params.alpha, vc=d))
    return out


@dataclass(frozen=True)
class Outcome:
    """One trial: G's error, the synthetic data set's rows and its errors to G and to D, and the opponent's success."""
    err_G: float
    rows: int
    to_G: float
    to_D: float
    premise: bool
    success: bool
    uniform_rows: bool = contract.opponent_field("uniform_rows", "success")


def trial(params: Params, rng: np.random.Generator) -> Outcome:
    from algorithms.evaluation import true_error
    from algorithms.query_release.pap import a_pap
    from algorithms.query_release.synthetic import synthetic_answers, synthetic_rows
    from simulations.experiments import thm10

    s = sizes(params)
    cls = thm10.make_class("thresholds", params.num_points, 1)[0]
    D = thm10.make_distribution("thresholds", params.law, params.num_points)
    G = a_pap(thm10.private_sample(D, s["n_bound"], rng), D.sample(s["m_bound"], rng), cls, params.alpha,
              params.beta, params.eps, params.delta, rng, mw_accuracy=s["mw_accuracy"]).value.answers
    rows = 1 if params.variant == "one_row" else s["rows"]
    counts = synthetic_rows(cls, G, rows, rng, draws=params.draws)

    def judged(c) -> tuple[float, float, bool]:
        ans = synthetic_answers(cls, c)
        to_g, to_d = float(np.abs(ans - G).max()), true_error(cls, D.probs, ans)
        return to_g, to_d, bool(to_g <= s["to_g"] and to_d <= s["to_d"])

    to_g, to_d, ok = judged(counts)
    even = np.bincount(np.linspace(0, params.num_points - 1, rows).round().astype(np.int64),
                       minlength=params.num_points)
    err_g = true_error(cls, D.probs, G)
    return Outcome(err_G=err_g, rows=int(counts.sum()), to_G=to_g, to_D=to_d, premise=bool(err_g <= params.alpha),
                   success=ok, uniform_rows=judged(even)[2])


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Theorem 10's accuracy as the premise; the Remark's conversion within 2 alpha of G and 3 alpha of D."""
    T = len(records)
    s = sizes(params)
    target, per = 1.0 - params.beta, 1.0 - (1.0 - params.confidence) / 2
    premise = contract.claim(sum(r["premise"] for r in records), T, target, params.confidence,
                             per_claim_confidence=per, kind="premise",
                             label="A_PAP's G has Err_{D,H}(G) <= alpha w.p. >= 1 - beta (Theorem 10's sizes)")
    conv = contract.claim(sum(r["success"] for r in records), T, target, params.confidence,
                          per_claim_confidence=per,
                          label="a data set of n' > VC/alpha^2 rows within 2 alpha of G and 3 alpha of D")
    opp = {"uniform_rows": contract.baseline(sum(r["uniform_rows"] for r in records), T, target, params.confidence)}
    worst_g, worst_d = max(r["to_G"] for r in records), max(r["to_D"] for r in records)
    text = (f"thresholds on {params.num_points} points ({params.law}), alpha = {params.alpha:g}: G within alpha of D "
            f"in "
            f"{premise['successes']}/{T} (worst {max(r['err_G'] for r in records):.3g}); {records[0]['rows']} "
            f"synthetic rows within 2 alpha of G and 3 alpha of D in {conv['successes']}/{T} (worst {worst_g:.3g} to "
            f"G, {worst_d:.3g} to D); n' rows spread evenly met it in {opp['uniform_rows']['successes']}/{T}")
    return contract.Judgement(claims=[premise, conv], text=text, opponents=opp, measurements={
        "result_id": RESULT_ID,
        "claim": ("BCMNUW20 Remark 9: Err_{D,H}(G) <= alpha => a data set v of n' > VC/alpha^2 rows with "
                  "|avg_v h - G(h)| <= 2 alpha for all h (so Err_{D,H}(v) <= 3 alpha)"),
        "bound_source": (f"bounds.compute('{RESULT_ID}', alpha={params.alpha}, vc=1) and "
                         f"bounds.compute('bcmnuw20:thm10', alpha={params.alpha}, beta={params.beta}, ...)"),
        "rows_required": s["rows"], "n": s["n_bound"], "m": s["m_bound"], "worst_to_G": worst_g,
        "worst_to_D": worst_d, "premise": premise, "conversion": conv})


EXPERIMENT = contract.Experiment(
    name="remark9", results=("bcmnuw20:remark9",),
    section="thm10",
    description="BCMNUW20 Remark 9: A_PAP's release turned into n' > VC/alpha^2 synthetic rows within 2 alpha of G",
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(40, {}),
    opponents={"uniform_rows": "n' rows spread evenly over the domain, ignoring G"},
    controls={"one_row": "the conversion asked for one row (n' = 1, not > VC/alpha^2)"},
)
