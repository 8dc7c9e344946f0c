"""The frontier of an upper bound (BCMNUW20 Theorem 10, ABM19 Theorem 3.1, LVSUW21 Proposition 4.3 and Theorem
4.4, NB20 Theorems 7 and 11): the least size of one quantity (n, or m for Proposition 4.3) at which the paper's
algorithm, and each opponent of the catalogue that needs nothing the theorem offers, meets the result's guarantee
w.p. >= 1 - beta, each with an interval, beside the theorem's own size (the looseness factor) and beside each
other (where public data, private data or privacy pays).

One experiment parameterised by ``result`` (``_frontier_targets.TARGETS``: what each result runs, from its own
experiment module, and its opponents, from ``algorithms.opponents``), so every result is searched by the same rule
and the same stage machinery as ``thm10_looseness`` (``_least_size``; docs/DESIGN.md says why one experiment).

Search as stages (``simulations.stages``): stage 0 probes the coarse log grid ceil(N / factor^k), N the theorem's
size of the searched quantity, down to ``span`` N (and ``above`` sizes N factor^j above it, where the result
allows), all other sizes at the theorem's; stage k >= 1 probes, for every release, the geometric midpoints of the
gaps of its bracket wider than 1 + ``resolution`` and its undecided sizes again (``_least_size.bracket``), with
fresh trials (stage k's root seed ``stages.stage_seed(root, k)``); the union of the releases' next sizes is run
for every release (each needs them for its own bracket's evidence). It ends when no release has a size left to
probe, or after ``_least_size.max_refinements(factor, resolution)`` stages.

One trial runs every release once at every size of its stage, fresh draws per size (``Target.run``); a release
not runnable at a size (an algorithm below its least runnable n) records None there.

Rule (``thm10_looseness``'s, ``_least_size.least_holding``): a size holds when its one-sided Clopper-Pearson lower
bound on the success rate is >= 1 - beta at ``confidence``, fails when the upper bound is < 1 - beta, else is
undecided; least size U = the least probed size from which every larger probed size holds, interval (L, U] with
L the largest smaller probed size that fails (0 if none: ``censored`` when U is the smallest size probed, so the
least size is at most U). Each end is one decision at ``confidence``; over K looks both ends are right w.p.
>= 1 - K (1 - confidence) (Bonferroni), assuming the success rate is monotone in the size.

Verdict: only the paper's algorithm at the theorem's own size, from stage 0's trials alone (a later look at that
size would be optional stopping), is a verdict (``holds`` / ``violated`` / ``inconclusive``); every other size
is a measurement. The negative control ``variant=broken`` runs the result's own negative control (its module's
``controls``) and must come out ``violated`` at the theorem's size, its least size above it (none found).
The opponents' least sizes are measurements, not the result's verdict: the result's own experiment judges them
on the same draws at the theorem's sizes (``NoOpponents``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from simulations import contract, stats
from algorithms.opponents import OFFERS
from simulations.experiments import Confidence, Controlled, param
from simulations.experiments._frontier_targets import TARGETS
from simulations.experiments._least_size import (MAX_LOOKS, bracket, check_stage_params, column, grid,
                                                 json_param, max_refinements, merge_evidence, next_stage_params)

BROKEN = "broken"


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    result: str = param("thm3_1", "the result whose frontier is searched", choices=tuple(TARGETS))
    case: str = param("", "the result's case (empty: its first; thm10: class:distribution, thm3_1: as thm3_1's "
                      "cases, thm7/thm11: a class)")
    factor: float = param(4.0, "ratio between successive sizes of stage 0's coarse grid", within="(1, 100]")
    span: float = param(1e-3, "the coarse grid goes down to span times the theorem's size", within="(0, 1]")
    above: int = param(0, "coarse grid sizes above the theorem's size (theorem's size times factor^j, j <= above; "
                       "where the result can run them)", within="[0, 6]")
    resolution: float = param(0.25, "refine each bracket (L, U] until U / L <= 1 + resolution", within="[0.01, 10]")
    stage: int = param(0, "stage number (set by next_stage; 0 = the coarse grid)", within="[0, inf)")
    probes: str = param("", "JSON {unit: [sizes]} a refinement stage runs (set by next_stage)")
    history: str = param("", "JSON counts of the earlier stages (set by next_stage, from their records)")

    def check(self):
        t = TARGETS[self.result]
        if self.case and self.case not in t.cases:
            raise ValueError(f"case={self.case!r} must be one of {', '.join(t.cases)} for result={self.result}")
        check_stage_params(self, [unit(self)])


def case_of(params: Params) -> str:
    return params.case or TARGETS[params.result].cases[0]


def unit(params: Params) -> str:
    return f"{params.result}|{case_of(params)}"


@functools.lru_cache(maxsize=16)
def setup(result: str, case: str, variant: str) -> dict:
    """The target's setup (``Target.setup``) with the variant mapped to the result's own negative control."""
    t = TARGETS[result]
    return t.setup(case, t.control if variant == BROKEN else contract.NO_VARIANT)


def _setup(params: Params) -> dict:
    return setup(params.result, case_of(params), params.variant)


def max_stage(params: Params) -> int:
    """``simulations.stages`` hook: the last possible stage's index (progress line "stage k of at most K")."""
    return max_refinements(params.factor, params.resolution)


def plan(params: Params) -> list[int]:
    """The sizes this stage runs: the coarse grid at stage 0 (the theorem's size first), the ``probes`` after; never
    above the result's largest runnable size."""
    S = _setup(params)
    bound = S["bound"]
    if params.stage == 0:
        ups = [int(round(bound * params.factor ** j)) for j in range(params.above, 0, -1)]
        sizes = ups + grid(bound, params.factor, max(1, int(np.ceil(params.span * bound))))
    else:
        sizes = [int(v) for v in json_param("probes", params.probes).get(unit(params), [])]
    return [v for v in sizes if v <= S["highest"]]


@dataclass(frozen=True)
class Outcome:
    """One trial: the sizes run, and per release (the paper's algorithm and its opponents) success at each (None:
    not runnable there)."""
    sizes: tuple[int, ...]
    success: dict[str, tuple[bool | None, ...]]


def trial(params: Params, rng: np.random.Generator) -> dict:
    """Every release once at every size of this stage (``Target.run``)."""
    sizes = plan(params)
    out = TARGETS[params.result].run(_setup(params), sizes, rng)
    return {"sizes": sizes, "success": {k: [None if x is None else bool(x) for x in v] for k, v in out.items()}}


def stage_counts(records: list[dict], params: Params) -> dict:
    """This stage's evidence: {unit: {release: [[size, successes or None, trials], ...]}}; at stage 0 also the
    algorithm's counts at the theorem's size (``at_bound_stage0``), the only evidence a verdict may use."""
    T = len(records)
    if not T:
        return {}
    sizes = records[0]["sizes"]
    ev = {}
    for name in records[0]["success"]:
        rows = []
        for i, v in enumerate(sizes):
            got = [r["success"][name][i] for r in records]
            ok = all(g is not None for g in got)
            rows.append([int(v), int(sum(got)) if ok else None, T if ok else 0])
        ev[name] = rows
    if params.stage == 0:
        algo = TARGETS[params.result].algorithm
        ev["at_bound_stage0"] = [row for row in ev[algo] if row[0] == _setup(params)["bound"]]
    return {unit(params): ev}


def _release(ev: dict, name: str, T: int, params: Params, target: float, last: bool, highest: int) -> dict:
    sizes, succ, tr = column(ev, name)
    b = bracket(sizes, succ, tr, T, target, params.confidence, params.resolution, refining=not last,
                feasible=lambda v: v <= highest)
    return {"least": b["least"], "interval": b["interval"], "censored": b["censored"],
            "least_point_estimate": b["least_point_estimate"], "resolution_met": b["resolution"][0],
            "resolution_note": b["resolution"][1], "undecided": b["undecided_in_interval"],
            "sizes": sizes, "successes": succ, "trials": tr, "next": b["next"]}


def _strongest(opponents: dict) -> str | None:
    """The opponent with the least holding size (a censored one counts at its smallest probed size)."""
    found = {k: o["least"] for k, o in opponents.items() if o["least"] is not None}
    return min(found, key=lambda k: (found[k], k)) if found else None


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """The least holding size of every release with its interval, the theorem's size beside them, the strongest
    opponent and the ratios; the verdict at the theorem's size (stage 0); the next stage's probes."""
    t, S = TARGETS[params.result], _setup(params)
    T, target, key = len(records), S["target"], unit(params)
    ev = merge_evidence(json_param("history", params.history), stage_counts(records, params)).get(key, {})
    last = params.stage >= max_refinements(params.factor, params.resolution)
    names = [k for k in ev if k != "at_bound_stage0"]
    rel = {k: _release(ev, k, T, params, target, last, S["highest"]) for k in names}
    nxt = sorted({v for r in rel.values() for v in r.pop("next")}, reverse=True)
    final = last or not nxt
    algo = rel[t.algorithm]
    opps = {k: v for k, v in rel.items() if k != t.algorithm}
    best = _strongest(opps)
    at = ev.get("at_bound_stage0", [])
    claims = []
    if at and at[0][1] is not None:
        k_, t_ = at[0][1], at[0][2]
        if params.stage == 0:
            claims = [contract.claim(k_, t_, target, params.confidence, label=f"{t.algorithm} at the theorem's size")]
        else:
            claims = [stats.verdict(k_, t_, target, params.confidence, at_bound=True).status]
    least, bound = algo["least"], S["bound"]
    row = {"result": params.result, "result_id": t.result_id, "case": case_of(params), "searched": t.searched,
           "guarantee": t.guarantee, "fixed": S["fixed"], "theorem_size": bound, "algorithm": t.algorithm,
           "algorithm_least": least, "algorithm_interval": algo["interval"], "algorithm_censored": algo["censored"],
           "looseness": None if not least else bound / least,
           "strongest_opponent": best, "strongest_least": None if best is None else opps[best]["least"],
           "strongest_interval": None if best is None else opps[best]["interval"],
           "strongest_censored": None if best is None else opps[best]["censored"],
           "opponent_over_algorithm": (None if best is None or not least else opps[best]["least"] / least),
           "opponents": {k: {"lacks": list(t.opponents[k][0]), "what": t.opponents[k][1], "least": o["least"],
                             "interval": o["interval"], "censored": o["censored"]} for k, o in opps.items()},
           "strongest_without": {lack: _strongest({k: o for k, o in opps.items() if lack in t.opponents[k][0]})
                                 for lack in OFFERS},
           # where public data pays: the private releases that do without public data alone
           "strongest_private_only": _strongest({k: o for k, o in opps.items()
                                                 if tuple(t.opponents[k][0]) == ("public data",)})}
    text = (f"{t.result_id} ({case_of(params)}), {t.searched} searched, stage {params.stage} of at most "
            f"{max_stage(params)} ({'final' if final else 'the search continues'}), {T} trials per size; "
            f"{t.algorithm}'s least {t.searched} {_interval(algo)} against the theorem's {bound:,}")
    if least:
        text += f" (looseness {bound / least:.3g}x)"
    text += "; " + ("no opponent holds at a probed size" if best is None else
                    f"strongest opponent {best}: least {t.searched} {_interval(opps[best])}")
    private_only = row["strongest_private_only"]
    if private_only is not None and private_only != best:
        text += f"; strongest private release without public data {private_only}: {_interval(opps[private_only])}"
    return contract.Judgement(claims=claims, text=text, measurements={
        "result_id": t.result_id, "claim_at_bound": claims[0] if claims and isinstance(claims[0], dict) else None,
        "row": row, "releases": rel, "stage": params.stage, "final": final,
        "max_refinements": max_stage(params), "trials": T, "confidence": params.confidence, "target": target,
        "factor": params.factor, "resolution": params.resolution,
        "rule": ("a size holds when its one-sided Clopper-Pearson lower bound at confidence is >= 1 - beta, fails when "
                 "its upper bound is < 1 - beta, else is undecided; least size U = the smallest probed size from "
                 "which every larger probed size holds; interval (L, U], L = the largest smaller probed size that "
                 f"fails (0: none); undecided sizes probed again (up to {MAX_LOOKS} looks); Bonferroni over looks"),
        "evidence": {key: ev}, "next_probes": {} if final else {key: nxt}})


def _interval(r: dict) -> str:
    if r["least"] is None:
        return "none holds at a probed size"
    lo, hi = r["interval"]
    return f"<= {hi:,} (censored: the smallest probed)" if r["censored"] else f"in ({lo:,}, {hi:,}]"


def next_stage(params: Params, summary: dict | None) -> Params | None:
    """``simulations.stages`` hook: the next refinement stage's parameters, or None when the search is finished."""
    return next_stage_params(params, summary)


EXPERIMENT = contract.Experiment(
    name="frontier",
    section="frontier",
    results=("bcmnuw20:thm10", "abm19:thm3.1", "lvsuw21:prop4.3", "lvsuw21:thm4.4", "nb20:thm7", "nb20:thm11"),
    description=("frontier of an upper bound: least n (or m) at which the paper's algorithm and each opponent meet "
                 "the guarantee (bisected, Clopper-Pearson intervals) beside the theorem's size"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(30, {"result": "thm3_1", "factor": 8.0, "span": 0.01}),
    opponents=contract.NoOpponents("a least-size search: the opponents' least sizes are measurements beside the "
                                   "algorithm's; the result's own experiment judges them at the theorem's sizes"),
    controls={BROKEN: "the result's own negative control (thm10 pmw_noise_x100, thm3_1 flipped_score, prop4_3 "
                      "support_from_one, thm4_4 one_row_support, thm7 inverted_majority, thm11 "
                      "complement_second_phase): violated at the theorem's size"},
    next_stage=next_stage, max_stage=max_stage,
)
