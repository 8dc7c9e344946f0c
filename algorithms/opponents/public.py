"""BCMNUW20 Section 1's public-only extreme, and its best version: releases that read the public sample alone
(PureDP(0): no private point is read).

* :func:`public_empirical`: G(h) = the public sample's empirical answer (1/m) sum_j h(w_j).
* :func:`public_shrunk`: the empirical answers shrunk toward 0 (the data-free constant, the middle of [-1, 1]) by
  sqrt(m)/(sqrt(m) + 1). On the {0, 1} scale this is the minimax estimator of a binomial proportion under squared
  loss, (X + sqrt(m)/2)/(m + sqrt(m)) (Hodges-Lehmann 1950; Lehmann-Casella, Theory of Point Estimation,
  Example 5.1.7): its mean squared error is 1/(1 + sqrt(m))^2 on [-1, 1] for every true answer, below the empirical
  answer's (1 - a^2)/m wherever |a| < sqrt(1 - m/(1 + sqrt m)^2) and never more than 1/(1 + sqrt m)^2, while the
  constant 0's is a^2 (up to 1). It never reads the private data (it cannot be pulled toward the noisy private
  answers, which it is given none of).
"""
from __future__ import annotations

import math

import numpy as np

from ..privacy import PureDP, Release
from ..validate import check_int, check_values

REALISES = ("baselines:public_finite",)  # its sample-size bound on a finite class (bounds show lists it)

__all__ = ["public_empirical", "public_shrunk", "shrink_factor", "constant_release"]


def _answers(answers) -> np.ndarray:
    a = check_values("answers", answers)
    if a.ndim != 1 or a.size == 0 or a.min() < -1.0 or a.max() > 1.0:
        raise ValueError("answers must be a non-empty 1-d array in [-1, 1] (BCMNUW20 Definition 5's scale)")
    return a


def public_empirical(public_answers) -> Release:
    """BCMNUW20 Section 1: the public sample's empirical answers, as given; PureDP(0)."""
    return Release(_answers(public_answers).copy(), PureDP(0.0))


def shrink_factor(m: int) -> float:
    """Hodges-Lehmann (1950): the minimax factor sqrt(m)/(sqrt(m) + 1) for m public points."""
    r = math.sqrt(check_int("m", m))
    return r / (r + 1.0)


def public_shrunk(public_answers, m: int) -> Release:
    """Hodges-Lehmann (1950): the m public points' empirical answers times sqrt(m)/(sqrt(m) + 1); PureDP(0)."""
    return Release(shrink_factor(m) * _answers(public_answers), PureDP(0.0))


def constant_release(num_queries: int, value: float = 0.0) -> Release:
    """The data-free constant release G(h) = ``value`` (default 0, the middle of [-1, 1]); PureDP(0)."""
    k = check_int("num_queries", num_queries)
    v = float(value)
    if not -1.0 <= v <= 1.0:
        raise ValueError(f"value={value!r} out of range: allowed [-1, 1]")
    return Release(np.full(k, v), PureDP(0.0))
