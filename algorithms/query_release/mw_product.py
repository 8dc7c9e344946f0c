"""Dwork-Roth (2014) Algorithm 4 on {+-1}^k for coordinate queries: the MW distribution as a product.

For the counting queries q_j(x) = 1{x_{c_j} = +1} (decision stumps, BCMNUW20 Definition 12, on the [0, 1]
scale), every multiplicative-weights update x_t(x) proportional to x_{t-1}(x) exp(step q_j(x)) multiplies
the weight of x by a function of the single coordinate c_j. Starting from the uniform distribution on
{+-1}^k (a product), the distribution therefore stays a product of independent coordinates, each with
log-odds theta_c = log Pr[x_c = +1] - log Pr[x_c = -1] = the sum of the steps of the queries on c, and
    q_j(x_t) = Pr_{x_t}[x_{c_j} = +1] = 1 / (1 + exp(-theta_{c_j})).
This is the same distribution as :class:`algorithms.query_release.mw.MWDistribution` over the 2^k points
(exactly, in real arithmetic; tests/algorithms/test_implicit_classes.py compares the two where 2^k fits), at
O(k) memory and O(1) per answer and update, so PMW runs on stumps at p = 2000 or 20000.
"""

from __future__ import annotations

import numpy as np

from .._lazy import lazy_module

special = lazy_module("scipy.special")  # imported on first use: importing the package stays cheap

__all__ = ["CoordinateQueries", "ProductMWDistribution"]


class CoordinateQueries:
    """The counting queries q_j(x) = 1{x_{coords[j]} = +1} on {+-1}^k (k = ``num_coordinates``)."""

    def __init__(self, coords, num_coordinates: int):
        c = np.asarray(coords, dtype=np.intp)
        if c.ndim != 1 or c.size == 0:
            raise ValueError(f"coords must be a non-empty 1-D array of coordinate indices, got shape {c.shape}")
        if c.min() < 0 or c.max() >= num_coordinates:
            raise ValueError(f"coords must lie in [0, {num_coordinates})")
        self.coords = c
        self.num_coordinates = int(num_coordinates)

    @property
    def num_queries(self) -> int:
        return int(self.coords.size)


class ProductMWDistribution:
    """The MW distribution over {+-1}^k for :class:`CoordinateQueries`, kept as per-coordinate log-odds."""

    def __init__(self, num_coordinates: int):
        if isinstance(num_coordinates, bool) or not isinstance(num_coordinates, (int, np.integer)) \
                or num_coordinates < 1:
            raise ValueError(f"num_coordinates={num_coordinates!r} out of range: allowed integers >= 1")
        self._theta = np.zeros(int(num_coordinates))
        self.num_updates = 0

    @property
    def log_odds(self) -> np.ndarray:
        out = self._theta.view()
        out.flags.writeable = False
        return out

    def probabilities(self) -> np.ndarray:
        """Pr[x_c = +1] for every coordinate c: the product distribution's marginals (it has no other state)."""
        return special.expit(self._theta)

    def answer(self, queries: CoordinateQueries, rows=None) -> np.ndarray:
        """q_j(x_t) for every query (or ``rows``)."""
        c = queries.coords if rows is None else queries.coords[rows]
        return special.expit(self._theta[c])

    def update_query(self, queries: CoordinateQueries, i: int, step: float) -> None:
        """x_t proportional to x_{t-1} exp(step q_i(x)): theta of q_i's coordinate moves by ``step``."""
        step = float(step)
        if not np.isfinite(step):
            raise ValueError(f"step={step!r} must be finite")
        self._theta[queries.coords[int(i)]] += step
        self.num_updates += 1
