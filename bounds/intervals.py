"""Clopper & Pearson (1934) exact binomial confidence intervals: the statistics the packages share (the bottom
layer: ``simulations.stats`` builds its verdicts on it, ``proofs_checks`` its Monte-Carlo checks, ``reports`` its
tables), here because ``bounds`` imports no other package of the project.

>>> round(clopper_pearson(0, 10, 0.95, "upper")[1], 12) == round(1 - 0.05 ** (1 / 10), 12)
True
"""

from __future__ import annotations

from typing import Literal

import numpy as np

__all__ = ["clopper_pearson", "Alternative", "ALTERNATIVES", "check_counts", "check_level", "tail_masses"]

Alternative = Literal["two-sided", "lower", "upper"]
ALTERNATIVES = ("two-sided", "lower", "upper")


def check_counts(successes, trials) -> tuple[np.ndarray, np.ndarray]:
    k = np.asarray(successes)
    n = np.asarray(trials)
    if not (np.issubdtype(k.dtype, np.integer) or np.all(np.equal(np.mod(k, 1), 0))):
        raise ValueError(f"successes={successes!r} must be integers")
    if not (np.issubdtype(n.dtype, np.integer) or np.all(np.equal(np.mod(n, 1), 0))):
        raise ValueError(f"trials={trials!r} must be integers")
    if np.any(n < 1):
        raise ValueError(f"trials={trials!r} must be >= 1")
    if np.any(k < 0) or np.any(k > n):
        raise ValueError(f"successes={successes!r} must lie in [0, trials={trials!r}]")
    return k.astype(float), n.astype(float)


def check_level(confidence: float, alternative: str) -> None:
    if not (0.0 < confidence < 1.0):
        raise ValueError(f"confidence={confidence!r} must lie in the open interval (0, 1)")
    if alternative not in ALTERNATIVES:
        raise ValueError(f"alternative={alternative!r} must be one of {ALTERNATIVES}")


def tail_masses(confidence: float, alternative: str) -> tuple[float, float]:
    """Miss probability allotted to the lower and to the upper end of the interval."""
    miss = 1.0 - confidence
    if alternative == "two-sided":
        return miss / 2, miss / 2
    if alternative == "lower":  # only a lower bound: the interval is [low, 1]
        return miss, 0.0
    return 0.0, miss  # "upper": the interval is [0, high]


def clopper_pearson(successes, trials, confidence: float = 0.95, alternative: Alternative = "two-sided"):
    """Clopper & Pearson (1934): exact binomial confidence interval ``(low, high)`` for ``Pr[success]``.

    ``alternative="lower"`` gives the one-sided bound ``[low, 1]``, ``"upper"`` gives ``[0, high]``,
    ``"two-sided"`` splits ``1 - confidence`` evenly. Vectorised over array inputs (returns arrays);
    equals ``scipy.stats.binomtest(k, n).proportion_ci(confidence, method='exact')`` for two-sided.
    """
    from scipy.stats import beta  # imported on first use: bounds starts without scipy

    check_level(confidence, alternative)
    k, n = check_counts(successes, trials)
    a_low, a_high = tail_masses(confidence, alternative)
    with np.errstate(invalid="ignore"):
        low = np.where(k == 0, 0.0, beta.ppf(a_low, k, n - k + 1)) if a_low > 0 else np.zeros_like(k)
        high = np.where(k == n, 1.0, beta.ppf(1 - a_high, k + 1, n - k)) if a_high > 0 else np.ones_like(k)
    low = np.where(k == 0, 0.0, low)
    high = np.where(k == n, 1.0, high)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high
