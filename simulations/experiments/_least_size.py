"""The rule of the Theorem 10 looseness search (``thm10_looseness``, its module docstring): the least probed size
from which every larger probed size holds, its interval, the resolution reached, the next sizes to probe, and the
statuses of the probed sizes (one-sided Clopper-Pearson bounds against 1 - beta). Kept apart from the experiment
so each module stays within the layout's size; it reads no experiment parameters.
"""
from __future__ import annotations

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
