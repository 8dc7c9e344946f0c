"""The least-size searches' shared machinery (``thm10_looseness``'s module docstring states the rule; ``frontier``
uses it for every other upper bound): the least probed size from which every larger probed size holds, its
interval, the resolution reached, the next sizes to probe, and the statuses of the probed sizes (one-sided
Clopper-Pearson bounds against 1 - beta); the coarse log grid, the stage count, the evidence summed over stages
and the next stage's parameters (``simulations.stages``). It reads no experiment parameters.
"""
from __future__ import annotations

import dataclasses
import json
import math

from simulations import contract, stats

#: a size undecided inside a bracket is probed again (T fresh trials per stage) up to this many times T trials
MAX_LOOKS = 4


def least_holding(sizes: list[int], successes: list[int | None], trials, target: float,
                  confidence: float) -> dict:
    """The least probed size from which every larger probed size holds, its interval and the undecided sizes
    inside it (above every failing size when nothing holds yet) (module docstring). ``sizes`` decreasing;
    ``successes[i]`` None for a size not run; ``trials`` an int or one
    count per size."""
    tr = list(trials) if isinstance(trials, (list, tuple)) else [trials] * len(sizes)
    low = [None if k is None else stats.clopper_pearson(k, t, confidence, "lower")[0] for k, t in zip(successes, tr)]
    up = [None if k is None else stats.clopper_pearson(k, t, confidence, "upper")[1] for k, t in zip(successes, tr)]
    point = [None if k is None else (k / t >= target) for k, t in zip(successes, tr)]

    def least(ok: list) -> tuple[int | None, bool]:
        best = None
        for size, o in zip(sizes, ok):  # sizes decrease
            if o is None:
                continue
            if not o:
                break
            best = size
        run = [sz for sz, o in zip(sizes, ok) if o is not None]
        return best, (best is not None and best == min(run))

    holds = [None if v is None else v >= target for v in low]
    fails = [None if u is None else u < target for u in up]
    lo, censored = least(holds)
    lo_point, censored_point = least(point)
    fails_below = [sz for sz, f in zip(sizes, fails) if f and (lo is None or sz < lo)]
    lower = max(fails_below) if fails_below else 0
    top = math.inf if lo is None else lo  # nothing holds yet: the undecided sizes above every failing one
    undecided = [{"size": sz, "successes": k, "trials": t,
                  "trials_to_decide": stats.trials_to_decide(k / t, target, confidence)}
                 for sz, k, t, h, f in zip(sizes, successes, tr, holds, fails)
                 if k is not None and not h and not f and lower < sz < top]
    return {"least": lo, "censored": censored, "least_point_estimate": lo_point,
            "censored_point_estimate": censored_point,
            "interval": None if lo is None else [lower, lo],
            "undecided_in_interval": undecided,
            "holds_empirically": holds, "fails_empirically": fails}


def resolution_status(found: dict, resolution: float) -> tuple[bool, str]:
    """Whether the interval (L, U] of :func:`least_holding` meets U / L <= 1 + resolution, and if not why."""
    if found["least"] is None:
        return False, "no probed size holds"
    if found["censored"]:
        return False, "censored: the smallest size tried holds (the least size is at most that)"
    lower, upper = found["interval"]
    if lower == 0:
        return False, "no probed size below the least holding one fails"
    if upper / lower <= 1 + resolution:
        return True, f"U / L = {upper / lower:.4g} <= 1 + {resolution:g}"
    if found["undecided_in_interval"]:
        return False, (f"U / L = {upper / lower:.4g}: {len(found['undecided_in_interval'])} undecided size(s) inside "
                       "(more trials would decide them)")
    return False, (f"U / L = {upper / lower:.4g}: a gap wider than the resolution is left (probed in the next stage "
                   "unless the stage limit or integer sizes stop the search)")


def refine(sizes: list[int], interval: list[int] | None, resolution: float, feasible=lambda v: True,
           undecided: list[int] = ()) -> list[int]:
    """The next sizes to probe inside ``interval`` = (L, U]: the geometric midpoint of every gap between
    consecutive probed sizes in [L, U] (L = 0: from the smallest probed size) whose ratio exceeds 1 + resolution
    and that has an integer strictly inside (sizes already probed and infeasible ones left out), and the
    ``undecided`` sizes again (fresh trials added to their counts, so that they may decide; with no interval
    yet, only those)."""
    if not interval:
        return sorted({int(u) for u in undecided}, reverse=True)
    lower, upper = interval
    inside = sorted({s for s in sizes if (lower or min(sizes)) <= s <= upper})
    probed = set(sizes)
    out = set(int(u) for u in undecided)
    for a, b in zip(inside, inside[1:]):
        if b / a > 1 + resolution and b - a > 1:
            mid = int(round(math.sqrt(a * b)))
            mid = min(max(mid, a + 1), b - 1)
            if mid not in probed and feasible(mid):
                out.add(mid)
    return sorted(out, reverse=True)


def bracket(sizes: list[int], successes: list[int | None], trials: list[int], stage_trials: int, target: float,
            confidence: float, resolution: float, *, refining: bool = True, feasible=lambda v: True) -> dict:
    """One step of the search on one quantity: :func:`least_holding` over the evidence so far, whether the
    interval meets the resolution (:func:`resolution_status`), and the sizes the next stage probes (``next``:
    gap midpoints and undecided sizes with fewer than ``MAX_LOOKS * stage_trials`` trials; empty when
    ``refining`` is False)."""
    found = least_holding(sizes, successes, trials, target, confidence)
    again = [x["size"] for x in found["undecided_in_interval"] if x["trials"] < MAX_LOOKS * stage_trials]
    nxt = refine(sizes, found["interval"], resolution, feasible, again) if refining else []
    return {**found, "resolution": resolution_status(found, resolution), "next": nxt}


def separates(algorithm: dict, trivial: dict) -> list[int]:
    """The probed sizes where A_PAP holds and the trivial release fails (``least_holding`` records of both over the
    same probed sizes, decisions by the same rule): where the algorithm separates from it (empty: nowhere)."""
    return [s for s, a, t in zip(algorithm["sizes"], algorithm["holds_empirically"], trivial["fails_empirically"])
            if a and t]


def statuses(sizes: list[int], successes: list[int | None], bound: int, trials, target: float,
              confidence: float, other_at_bound: bool = True) -> list[str | None]:
    """Per size: a verdict at the bound's size (with the other size at its bound), below-bound below it."""
    tr = list(trials) if isinstance(trials, (list, tuple)) else [trials] * len(sizes)
    return [None if k is None else contract.claim(k, t, target, confidence,
                                                   at_bound=other_at_bound and sz >= bound)["verdict"]
            for sz, k, t in zip(sizes, successes, tr)]


# ---------------------------------------------------------------- stages: grid, evidence, the next stage


def json_param(name: str, text: str) -> dict:
    """A JSON-object parameter written by :func:`next_stage_params` (``probes``, ``history``); {} when empty."""
    if not text:
        return {}
    try:
        value = json.loads(text)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise ValueError(f"{name}={text[:60]!r} must be a JSON object (written by next_stage) or empty")
    return value


def check_stage_params(params, units) -> None:
    """The stage fields' rules of a least-size search's ``Params`` (``stage``, ``probes``, ``history``, ``factor``,
    ``resolution``): the stage within the refinements allowed, probes exactly after stage 0, no history at stage 0,
    and only the search's ``units`` named (ValueError naming the field)."""
    top = max_refinements(params.factor, params.resolution)
    if params.stage > top:
        raise ValueError(f"stage={params.stage!r} must be an integer in [0, {top}] (the refinements factor and "
                         "resolution allow)")
    probes, history = json_param("probes", params.probes), json_param("history", params.history)
    if (params.stage == 0) != (not probes):
        raise ValueError(f"probes={params.probes[:60]!r} must be empty exactly at stage 0 (stage={params.stage})")
    if params.stage == 0 and history:
        raise ValueError("history must be empty at stage 0")
    for name, value in (("probes", probes), ("history", history)):
        extra = sorted(set(value) - set(units))
        if extra:
            raise ValueError(f"{name} names unit {extra[0]!r}, not one of this search's units")


def max_refinements(factor: float, resolution: float) -> int:
    """Refinement stages that take a gap of ratio ``factor`` below 1 + ``resolution`` by geometric halving
    (log-ratio halves per stage), plus one for integer rounding and one more look at undecided sizes."""
    return max(0, math.ceil(math.log2(math.log(factor) / math.log1p(resolution)))) + 2


def grid(bound: int, factor: float, lowest: int) -> list[int]:
    """ceil(bound / factor^k) for k = 0, 1, ... while >= lowest (distinct, decreasing); [bound] if bound < lowest."""
    out, k = [], 0
    while True:
        v = int(math.ceil(bound / factor**k))
        if v < lowest or (out and v >= out[-1]):  # below the floor, or stuck at 1
            break
        out.append(v)
        k += 1
    return out or [int(bound)]


def merge_evidence(*parts: dict) -> dict:
    """Counts of several stages summed per (unit, search, size); sizes decreasing. A part is
    ``{unit: {search: [[size, successes or None, trials], ...]}}``."""
    acc: dict = {}
    for part in parts:
        for key, ev in part.items():
            for q, rows in ev.items():
                slot = acc.setdefault(key, {}).setdefault(q, {})
                for size, k, t in rows:
                    old = slot.get(int(size), [None, 0])
                    kk = None if (k is None and old[0] is None) else (old[0] or 0) + (k or 0)
                    slot[int(size)] = [kk, old[1] + int(t)]
    return {key: {q: [[s, *slot[s]] for s in sorted(slot, reverse=True)] for q, slot in ev.items()}
            for key, ev in acc.items()}


def column(ev: dict, q: str) -> tuple[list, list, list]:
    """One search's (sizes, successes, trials) from a unit's evidence (:func:`merge_evidence`)."""
    rows = ev.get(q, [])
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def next_stage_params(params, summary: dict | None):
    """``simulations.stages``' ``next_stage`` of a least-size search: ``params`` with ``stage`` + 1, this stage's
    evidence as ``history`` and the sizes to probe as ``probes`` (both JSON), or None when the summary is final or
    has nothing left to probe."""
    if not summary or summary.get("final") or not summary.get("next_probes"):
        return None
    dump = lambda v: json.dumps(v, sort_keys=True, separators=(",", ":"))  # noqa: E731
    return dataclasses.replace(params, stage=params.stage + 1, history=dump(summary["evidence"]),
                               probes=dump(summary["next_probes"]))
