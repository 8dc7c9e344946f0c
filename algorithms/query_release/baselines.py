"""BCMNUW20 Section 1 (the two extremes A_PAP sits between): the public-only and private-only baselines.

* Public-only: G(h) = the public sample's empirical mean of h, (1/m) sum_j h(w_j). No private
  data is read, so it spends PureDP(0). Its error is the sampling error of m points
  (uniform convergence: about sqrt(d / m) for VC dimension d), far above A_PAP's when m is
  only the O(d log(1/alpha) / alpha) that Theorem 10 asks for.
* Private-only: PMW (Lemma 7) over the whole domain X and the whole class H, no public data.
"""

from __future__ import annotations

import numpy as np

from ..classes.finite import FiniteClass, validate_indices
from ..privacy import PureDP, Release
from .mw import MatrixQueries
from .pmw import pmw

REALISES = ("baselines:uc", "baselines:pmw")  # the results this module's algorithm realises (bounds show lists it)

__all__ = ["public_only", "private_only"]


def public_only(public, cls: FiniteClass) -> Release:
    """Public-only baseline: G(h) = (1/m) sum_j h(w_j) for every h in H, spending PureDP(0).

    public: the public sample as point indices (m >= 1). Returns Release(answers (|H|,), PureDP(0)).
    """
    if not isinstance(cls, FiniteClass):
        raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
    w = validate_indices(public, cls.num_points, "public")
    hist = np.bincount(w, minlength=cls.num_points) / w.size
    positive = MatrixQueries(cls.matrix).answer(hist)
    return Release(np.clip(2.0 * positive - 1.0, -1.0, 1.0), PureDP(0.0))


def private_only(private, cls: FiniteClass, alpha: float, beta: float, eps: float, delta: float,
                 rng: np.random.Generator, *, order=None) -> Release:
    """Private-only baseline: BCMNUW20 Algorithm 1 (PMW) over the whole domain and the whole class.

    Returns PMW's ``Release(PMWResult, guarantee)``; ``.value.answers`` is G over H.
    """
    return pmw(private, cls, alpha, beta, eps, delta, rng, order=order)
