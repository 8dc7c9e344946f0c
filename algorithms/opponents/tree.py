"""Dwork-Naor-Pitassi-Rothblum (2010) and Chan-Shi-Song (2011), the binary-tree (CDF) mechanism: thresholds and
intervals on a grid of 2^L points (L <= 64) privately, without materialising the grid.

The grid is {0, ..., 2^L - 1}. The tree's node (l, i), level l = 0..L-1, counts the private points in the dyadic
block [i 2^l, (i + 1) 2^l). Replacing one point changes at most two nodes per level, by 1 each, so the vector of
all node counts has L1 sensitivity 2L and L2 sensitivity sqrt(2L) (the root, n itself, is public and not noised).
Every node gets independent noise: N(0, sigma^2) with sigma the analytic (eps, delta) calibration at L2
sensitivity sqrt(2L) (``GaussianMechanism.analytic``), or Lap(2L/eps) (pure).

A prefix [0, t) is the disjoint union of at most L nodes (one per set bit of t), so its noisy count sums at most
L noisy nodes. The release draws noise only for the nodes its queries read (the others are never looked at, so
this has the law of the full tree post-processed): on a 2^64 grid nothing of size 2^L is ever allocated.
Answers are on BCMNUW20 Definition 5's [-1, 1] scale, matching ``algorithms.classes.constructors``:
threshold j is +1 on the points < j (answer 2 F(j) - 1 with F(j) the fraction of points below j), interval
[a, b] is +1 on a <= x <= b. Clipped to [-1, 1]. The sample-size bounds are ``baselines:tree_thresholds`` and
``baselines:tree_intervals``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..privacy import ApproxDP, PureDP, Release
from ..privacy.mechanisms import GaussianMechanism, LaplaceMechanism
from ..validate import check_int, check_rng

REALISES = ("baselines:tree_thresholds", "baselines:tree_intervals")

__all__ = ["GridData", "TreeMechanism"]

_U64 = np.uint64


@dataclass(frozen=True, eq=False)
class GridData:
    """A data set on the grid {0, ..., 2^levels - 1} as its distinct points (``values``, uint64, ascending) and
    their multiplicities (``counts``): n points at O(distinct) memory whatever n and the grid are."""

    levels: int
    values: np.ndarray
    counts: np.ndarray

    def __post_init__(self):
        L = check_int("levels", self.levels)
        if L > 64:
            raise ValueError(f"levels={L} out of range: allowed 1..64")
        v = np.asarray(self.values)
        c = np.asarray(self.counts)
        if v.ndim != 1 or v.shape != c.shape or v.size == 0:
            raise ValueError("values and counts must be non-empty 1-d arrays of one length")
        if v.dtype != np.uint64 or not np.issubdtype(c.dtype, np.integer):
            raise ValueError(f"values must be uint64 and counts integers, got {v.dtype}, {c.dtype}")
        if np.any(np.diff(v) == 0) or np.any(v[1:] < v[:-1]):
            raise ValueError("values must be strictly increasing")
        if L < 64 and int(v[-1]) >= 1 << L:
            raise ValueError(f"values must lie in [0, 2^{L})")
        if c.min() < 0 or c.sum() == 0:
            raise ValueError("counts must be >= 0 with a positive total")
        object.__setattr__(self, "levels", L)
        object.__setattr__(self, "counts", c.astype(np.int64, copy=False))

    @classmethod
    def from_points(cls, levels: int, points) -> "GridData":
        """The data set of the grid points ``points`` (any integer array, each in [0, 2^levels))."""
        v, c = np.unique(np.asarray(points, dtype=_U64), return_counts=True)
        return cls(levels, v, c)

    @classmethod
    def from_histogram(cls, hist) -> "GridData":
        """A histogram over the grid points 0..N-1 (e.g. ``PointCounts.counts``), on the least grid 2^L >= N."""
        h = np.asarray(hist)
        L = max(1, math.ceil(math.log2(h.size)))
        nz = np.flatnonzero(h)
        return cls(L, nz.astype(_U64), h[nz])

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def count_below(self, t: np.ndarray) -> np.ndarray:
        """|{points < t}| for every t (uint64; exact integer counts)."""
        cum = np.concatenate([[0], np.cumsum(self.counts)])
        return cum[np.searchsorted(self.values, t, side="left")]


@dataclass(frozen=True)
class TreeMechanism:
    """The binary-tree mechanism on 2^``levels`` grid points: Gaussian node noise at (eps, delta) (``delta`` > 0,
    the exact analytic calibration) or Laplace node noise at pure eps (``delta`` = 0)."""

    levels: int
    eps: float
    delta: float = 0.0

    @property
    def node_sigma(self) -> float:
        """Standard deviation of each node's noise, in counts."""
        if self.delta > 0:
            return GaussianMechanism.analytic(math.sqrt(2.0 * self.levels), self.eps, self.delta).sigma
        return math.sqrt(2.0) * LaplaceMechanism(2.0 * self.levels, self.eps).scale

    @property
    def guarantee(self):
        return ApproxDP(self.eps, self.delta) if self.delta > 0 else PureDP(self.eps)

    def _noise(self, size: int, rng: np.random.Generator) -> np.ndarray:
        if self.delta > 0:
            return rng.normal(0.0, self.node_sigma, size=size)
        return rng.laplace(0.0, 2.0 * self.levels / self.eps, size=size)

    def _check(self, data: GridData, rng) -> None:
        if not isinstance(data, GridData) or data.levels != self.levels:
            raise ValueError(f"data must be a GridData on 2^{self.levels} points")
        check_rng(rng)

    def noisy_prefix_counts(self, data: GridData, ends, rng: np.random.Generator) -> np.ndarray:
        """The noisy |{points < t}| for every t in ``ends`` (uint64 in [0, 2^L), or the Python int 2^L for the
        whole grid, answered n exactly): the sum of the noisy nodes of t's dyadic decomposition, each node noised
        once however many prefixes read it."""
        self._check(data, rng)
        L = self.levels
        e = [int(x) for x in np.ravel(np.asarray(ends, dtype=object))]
        if not e or min(e) < 0 or max(e) > 1 << L:
            raise ValueError(f"ends must be a non-empty list of integers in [0, 2^{L}]")
        full = np.array([x == 1 << L for x in e], dtype=bool)
        t = np.array([0 if x == 1 << L else x for x in e], dtype=_U64)
        q, lev, idx = [], [], []
        for level in range(L):
            shifted = t >> _U64(level)
            on = (shifted & _U64(1)).astype(bool)
            q.append(np.flatnonzero(on))
            lev.append(np.full(int(on.sum()), level, dtype=_U64))
            idx.append(shifted[on] - _U64(1))
        q, lev, idx = np.concatenate(q), np.concatenate(lev), np.concatenate(idx)
        out = np.zeros(t.size)
        if q.size:
            nodes, inverse = np.unique(np.stack([lev, idx], axis=1), axis=0, return_inverse=True)
            start = nodes[:, 1] << nodes[:, 0]
            end = (nodes[:, 1] + _U64(1)) << nodes[:, 0]
            counts = data.count_below(end) - data.count_below(start)
            noisy = counts + self._noise(nodes.shape[0], rng)
            np.add.at(out, q, noisy[np.ravel(inverse)])
        out[full] = data.n
        return out

    def thresholds(self, data: GridData, thresholds, rng: np.random.Generator) -> Release:
        """Threshold j (+1 on the points < j) for every j in ``thresholds``: 2 F~(j) - 1, clipped."""
        c = self.noisy_prefix_counts(data, thresholds, rng)
        return Release(np.clip(2.0 * c / data.n - 1.0, -1.0, 1.0), self.guarantee)

    def intervals(self, data: GridData, lo, hi, rng: np.random.Generator) -> Release:
        """Interval [a, b] (+1 on a <= x <= b) for every pair (a, b) of ``lo``, ``hi``: from the noisy prefixes
        at a and b + 1 (every distinct endpoint's nodes noised once)."""
        a = [int(x) for x in np.ravel(lo)]
        b = [int(x) + 1 for x in np.ravel(hi)]
        if len(a) != len(b) or any(x >= y for x, y in zip(a, b)):
            raise ValueError("lo and hi must have one length with lo <= hi")
        ends = sorted(set(a) | set(b))
        vals = self.noisy_prefix_counts(data, ends, rng)
        at = dict(zip(ends, vals))
        c = np.array([at[y] - at[x] for x, y in zip(a, b)])
        return Release(np.clip(2.0 * c / data.n - 1.0, -1.0, 1.0), self.guarantee)
