"""Confidence intervals for binomial proportions and the verdict rule for "holds with probability >= 1 - beta".

Clopper & Pearson (1934) exact intervals and Wilson (1927) score intervals, one- and two-sided, and the
verdict every experiment uses to judge a guarantee of the form ``Pr[success] >= target`` (usually
``target = 1 - beta``) from ``successes`` out of ``trials`` independent trials.

Verdict rule (one-sided Clopper-Pearson bounds at level ``confidence``, default 0.95):

* ``"violated"``: the one-sided *upper* bound on the success probability is below ``target``.
  If the guarantee held (true success probability >= target), this happens with probability
  at most ``1 - confidence``: a false alarm is rare.
* ``"holds"``: the one-sided *lower* bound on the success probability is at least ``target``.
  If the guarantee failed (true success probability < target), this happens with probability at
  most ``1 - confidence``: we are ``confidence``-sure the guarantee holds.
* ``"inconclusive"``: neither; ``trials_needed`` says how many trials would decide if the observed
  success rate stayed what it is (None when it equals ``target`` exactly: a tight bound can never
  be confirmed by sampling).

The two outcomes cannot both occur (the lower bound never exceeds the upper bound).

Verdicts are given only at the result's own sizes. A run below any size the result requires
(private n, public m, number of queries, ... from ``bounds``) gets the status ``"below-bound"``
(``at_bound=False``): a measurement, never a verdict on the theorem, whatever its success rate; the
interval is still reported. A check that only a bug could fail (an output that meets its bound by
construction) is a ``"floor check"`` and is not listed as validating the result.

``STATUSES`` is the whole vocabulary; experiments, reports and the README use these words only.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from algorithms._lazy import lazy_module
from bounds.intervals import Alternative, check_counts, check_level, tail_masses, clopper_pearson

_st = lazy_module("scipy.stats")  # imported on first use: `simulations list` must start fast

_MAX_TRIALS_SEARCHED = 10**12

HOLDS, VIOLATED, INCONCLUSIVE, BELOW_BOUND = "holds", "violated", "inconclusive", "below-bound"
FLOOR_CHECK = "floor check"
VERDICTS = (HOLDS, VIOLATED, INCONCLUSIVE)  # statuses that are verdicts on a result (only at its sizes)
STATUSES = VERDICTS + (BELOW_BOUND, FLOOR_CHECK)


def wilson(successes, trials, confidence: float = 0.95, alternative: Alternative = "two-sided"):
    """Wilson (1927): score confidence interval ``(low, high)`` for ``Pr[success]`` (approximate, no continuity
    correction).

    Same conventions as :func:`clopper_pearson`; equals
    ``scipy.stats.binomtest(k, n).proportion_ci(confidence, method='wilson')`` for two-sided.
    """
    check_level(confidence, alternative)
    k, n = check_counts(successes, trials)
    a_low, a_high = tail_masses(confidence, alternative)

    def bound(miss: float, sign: float):
        z = _st.norm.isf(miss)
        p = k / n
        centre = p + z * z / (2 * n)
        spread = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
        return (centre + sign * spread) / (1 + z * z / n)

    low = np.clip(bound(a_low, -1.0), 0.0, 1.0) if a_low > 0 else np.zeros_like(k)
    high = np.clip(bound(a_high, +1.0), 0.0, 1.0) if a_high > 0 else np.ones_like(k)
    if np.ndim(low) == 0:
        return float(low), float(high)
    return low, high


@dataclass(frozen=True)
class Verdict:
    """The verdict on a guarantee ``Pr[success] >= target`` (see the module docstring for the rule)."""

    status: str  # "holds" | "violated" | "inconclusive" | "below-bound"
    successes: int
    trials: int
    rate: float
    target: float
    confidence: float
    lower: float  # one-sided lower Clopper-Pearson bound at `confidence`
    upper: float  # one-sided upper Clopper-Pearson bound at `confidence`
    trials_needed: int | None  # only for "inconclusive"; None if no number of trials would decide

    def as_dict(self) -> dict:
        return asdict(self)

    def __str__(self) -> str:
        pct = f"{100 * self.confidence:g}%"
        head = (f"{self.successes}/{self.trials} = {self.rate:.4f} "
                f"(one-sided {pct} bounds [{self.lower:.4f}, {self.upper:.4f}]) vs target {self.target:g}")
        if self.status == "holds":
            return f"holds at {pct} confidence: {head}"
        if self.status == "violated":
            return f"violated at {pct} confidence: {head}"
        if self.status == BELOW_BOUND:
            return f"below-bound (a measurement, not a verdict on the result): {head}"
        more = ("no finite number of trials decides (observed rate equals the target)"
                if self.trials_needed is None else f"about {self.trials_needed} trials needed at this rate")
        return f"inconclusive: {head}; {more}"


def _decides(rate: float, n: int, target: float, confidence: float, side: str) -> bool:
    if side == "holds":
        k = math.floor(rate * n + 1e-9)
        return clopper_pearson(k, n, confidence, "lower")[0] >= target
    k = math.ceil(rate * n - 1e-9)
    return clopper_pearson(k, n, confidence, "upper")[1] < target


def trials_to_decide(rate: float, target: float, confidence: float = 0.95) -> int | None:
    """Least ``n`` (found by doubling then bisection) at which an observed success rate ``rate`` would decide.

    Decides "holds" when ``rate > target`` and "violated" when ``rate < target`` under the rule of this
    module; None when ``rate == target`` or more than 10^12 trials would be needed. The bound is not
    exactly monotone in ``n`` (rounding of ``rate * n``), so the answer is the least n found by
    bisection on a bracket where the rule flips, a planning figure, not a guarantee.
    """
    if not (0.0 <= rate <= 1.0):
        raise ValueError(f"rate={rate!r} must lie in [0, 1]")
    if not (0.0 < target <= 1.0):
        raise ValueError(f"target={target!r} must lie in (0, 1]")
    if rate == target:
        return None
    side = "holds" if rate > target else "violated"
    hi = 1
    while not _decides(rate, hi, target, confidence, side):
        hi *= 2
        if hi > _MAX_TRIALS_SEARCHED:
            return None
    lo = hi // 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _decides(rate, mid, target, confidence, side):
            hi = mid
        else:
            lo = mid
    return hi


def verdict(successes: int, trials: int, target: float, confidence: float = 0.95, *,
            at_bound: bool = True) -> Verdict:
    """The verdict on ``Pr[success] >= target`` from ``successes`` out of ``trials`` (rule in the module docstring).

    ``target`` is usually ``1 - beta``. Example: ``verdict(990, 1000, 0.95).status == "holds"``.
    ``at_bound=False`` (the run is below some size the result requires) gives status ``"below-bound"``
    with the same bounds: never ``"violated"``, whatever the rate.
    """
    if not (0.0 < target <= 1.0):
        raise ValueError(f"target={target!r} must lie in (0, 1]")
    check_level(confidence, "two-sided")
    lower = clopper_pearson(successes, trials, confidence, "lower")[0]
    upper = clopper_pearson(successes, trials, confidence, "upper")[1]
    rate = successes / trials
    needed = None
    if not at_bound:
        status = BELOW_BOUND
    elif upper < target:
        status = "violated"
    elif lower >= target:
        status = "holds"
    else:
        status = "inconclusive"
        needed = trials_to_decide(rate, target, confidence)
        if needed is not None:
            needed = max(needed, trials + 1)
    return Verdict(status, int(successes), int(trials), float(rate), float(target), float(confidence),
                   float(lower), float(upper), needed)


def verdict_p_values(successes: int, trials: int, target: float) -> tuple[float, float]:
    """One-sided exact binomial p-values behind :func:`verdict`: ``(p_violated, p_holds)``.

    ``p_violated`` = Pr[Bin(trials, target) <= successes], the p-value of the test of "Pr[success] >= target"
    (small: evidence of a violation); ``p_holds`` = Pr[Bin(trials, target) >= successes], the p-value of the
    test of "Pr[success] < target" (small: evidence the guarantee holds; at the boundary the worst case is
    the success probability equal to target). ``verdict`` says "violated" exactly when ``p_violated`` <
    1 - confidence and "holds" exactly when ``p_holds`` <= 1 - confidence (Clopper-Pearson duality).
    """
    if not (0.0 < target <= 1.0):
        raise ValueError(f"target={target!r} must lie in (0, 1]")
    k, n = check_counts(successes, trials)
    k, n = int(k), int(n)
    return float(_st.binom.cdf(k, n, target)), float(_st.binom.sf(k - 1, n, target))


def holm(p_values, level: float = 0.05) -> dict:
    """Holm (1979) step-down: which of the hypotheses with these p-values are rejected at family-wise
    error rate ``level`` (the probability that any rejection is false is at most ``level``, whatever the
    dependence between the tests).

    Sort p ascending; reject p_(1), ..., p_(j) while p_(i) <= level / (N - i + 1); stop at the first
    that is not. Returns ``{"rejected": [bool per input], "adjusted": [Holm-adjusted p per input],
    "level": level, "family_size": N}``; adjusted p_(i) = max_{j <= i} min(1, (N - j + 1) p_(j)), and a
    hypothesis is rejected exactly when its adjusted p is <= level.
    """
    if not (0.0 < level < 1.0):
        raise ValueError(f"level={level!r} must lie in the open interval (0, 1)")
    p = np.asarray(p_values, dtype=float).reshape(-1)
    if np.any(~np.isfinite(p)) or np.any((p < 0) | (p > 1)):
        raise ValueError(f"p_values={list(p_values)!r} must lie in [0, 1]")
    N = p.size
    order = np.argsort(p, kind="stable")
    adjusted_sorted = np.maximum.accumulate(np.minimum(1.0, (N - np.arange(N)) * p[order]))
    adjusted = np.empty(N)
    adjusted[order] = adjusted_sorted
    return {"rejected": [bool(a <= level) for a in adjusted], "adjusted": adjusted.tolist(), "level": level,
            "family_size": int(N)}
