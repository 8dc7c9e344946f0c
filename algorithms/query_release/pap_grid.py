"""BCMNUW20 Algorithm 3 (A_PAP) for thresholds on a grid of 2^L points (L <= 64), without the grid.

Threshold j (j = 0..2^L) is +1 on the grid points < j (``algorithms.classes.constructors.thresholds``' order).
Algorithm 3's steps have a closed form for this class, so nothing of size 2^L is built:

1. T = the distinct public points t_1 < ... < t_k. Threshold j's pattern on T is fixed by c(j) = |{i : t_i < j}|,
   so Pi_H(T) has the k + 1 patterns c = 0..k and H~'s member for c is the least j with c(j) = c: j = 0 for
   c = 0 and j = t_c + 1 otherwise; Project_{H~,w}(h_j) is the member c(j).
2. X_H~: x ~ x' iff every member agrees on them, i.e. iff c(x) := |{i : t_i < x}| agree; the classes are the cells
   (t_{c}, t_{c+1}] (cell 0 = [0, t_1], cell k = (t_k, 2^L), empty when t_k = 2^L - 1 and then dropped). Member c
   is +1 exactly on the cells < c: H~ on X_H~ is the threshold class on the cells.
3. s = the private points' cells (counts: the private data set as ``algorithms.opponents.GridData``).
4. G~ = PMW(s, H~, alpha/2, beta/2, eps, delta) over the cells (``pmw``), the same call as ``a_pap``'s.
5. G(h_j) = G~(c(j)).

On a grid small enough to enumerate, this is ``a_pap`` on ``constructors.thresholds(2^L)`` step for step (the
same members, cells, reduced class and PMW call: the same bits, tested). REALISES Theorem 10 as ``a_pap`` does.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..classes.finite import FiniteClass, PointCounts
from ..privacy import Release
from ..validate import check_rng, check_unit_open
from .pmw import PMWResult, pmw

REALISES = ("bcmnuw20:thm10",)

__all__ = ["GridPAPResult", "a_pap_thresholds_grid"]


@dataclass(frozen=True, eq=False)
class GridPAPResult:
    """The public points T (uint64, ascending, distinct), G~ over the members c = 0..k, and PMW's result."""

    public_points: np.ndarray
    g_tilde: np.ndarray
    pmw: PMWResult

    def answers(self, thresholds) -> np.ndarray:
        """G(h_j) = G~(c(j)) for every j (Python ints in [0, 2^L], or a uint64 array)."""
        j = [int(x) for x in np.ravel(np.asarray(thresholds, dtype=object))]
        top = 1 << 64
        c = np.array([self.public_points.size if x >= top else
                      int(np.searchsorted(self.public_points, np.uint64(x), side="left")) for x in j])
        return self.g_tilde[c]


def a_pap_thresholds_grid(private, public, levels: int, alpha: float, beta: float, eps: float, delta: float,
                          rng: np.random.Generator, *, mw_accuracy: float | None = None) -> Release:
    """BCMNUW20 Algorithm 3 on thresholds over {0, ..., 2^levels - 1}: ``private`` a ``GridData`` on that grid,
    ``public`` the public points (integers in the grid). Returns ``Release(GridPAPResult, PMW's guarantee)``."""
    from algorithms.opponents import GridData

    rng = check_rng(rng)
    alpha = check_unit_open("alpha", alpha)
    beta = check_unit_open("beta", beta)
    if not isinstance(private, GridData) or private.levels != levels:
        raise ValueError(f"private must be a GridData on 2^{levels} points")
    T = np.unique(np.asarray([int(x) for x in np.ravel(np.asarray(public, dtype=object))], dtype=np.uint64))
    if T.size == 0 or (levels < 64 and int(T[-1]) >= 1 << levels):
        raise ValueError(f"public must be a non-empty set of points in [0, 2^{levels})")
    k = T.size
    cells = k + 1 if int(T[-1]) < (1 << levels) - 1 else k      # step 2: cell k is empty when t_k is the last point
    cell_of = np.searchsorted(T, private.values, side="left")    # step 3: c(x) = |{t_i < x}|
    s = np.bincount(cell_of, weights=private.counts.astype(float), minlength=cells)
    matrix = np.arange(cells)[None, :] < np.arange(k + 1)[:, None]  # member c is +1 on the cells < c
    reduced = FiniteClass(matrix, name=f"reduced(thresholds(2^{levels}))", copy=False)
    g, guarantee = pmw(PointCounts(np.rint(s).astype(np.int64)), reduced, alpha / 2.0, beta / 2.0, eps, delta, rng,
                       mw_accuracy=mw_accuracy)                   # step 4
    return Release(GridPAPResult(public_points=T, g_tilde=g.answers, pmw=g), guarantee)
