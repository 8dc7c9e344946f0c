"""Dwork-Roth (2014) Algorithm 4 / Hardt-Rothblum (2010): the multiplicative-weights engine shared
by PMW (``pmw``), MWEM (``mwem``, Hardt-Ligett-McSherry 2012) and PMW^Pub (LVSUW21 Algorithm 1).

Two pieces, both vectorised (no Python loop over support points or queries):

* ``MatrixQueries``: linear queries given as a matrix, rows = queries, columns = support points.
  A query's answer on a distribution p over the support is q(p) = sum_x q(x) p(x), i.e. all
  answers are one matrix-vector product (computed in row chunks of about 2^22 entries, so a
  10^4 x 10^5 boolean matrix is never converted to floats: boolean chunks go through
  ``np.einsum``, which casts element by element). Values must lie in
  [0, 1] (counting queries, e.g. q_h(x) = 1{h(x) = +1}; a boolean matrix is read as 0/1) or in
  [-1, 1] (``value_range=(-1, 1)``, e.g. the {-1,+1} hypotheses of BCMNUW20). The MW analyses
  (Dwork-Roth Theorem 4.10, HLM12 Theorem 2.2) are written for [0, 1]; the algorithms in this
  package only feed [0, 1] queries to the update.

  Other query representations (LVSUW21's workloads of marginals, answered by one weighted
  bincount) plug in by providing the same three members: ``num_queries``, ``support_size``,
  ``answer(p, rows=None)`` and ``values(i)`` (see ``LinearQueries``).

* ``MWDistribution``: a distribution over a finite support kept as log-weights, so that long
  runs of updates neither underflow nor overflow. Initialised uniform (Dwork-Roth x^1, HLM A_0)
  or from a histogram (LVSUW21 A_0 = the public data's distribution over its support). The
  update is the multiplicative-weights rule

      x_t(x) proportional to x_{t-1}(x) * exp(step * q(x)),

  with ``step = eta * sign`` for PMW (Dwork-Roth Algorithm 4: sign = +1 when the true answer
  exceeds the synthetic one, -1 otherwise; eta = alpha/2 in Theorem 4.10) and
  ``step = (a_t - q_t(A_{t-1})) / 2`` for MWEM / PMW^Pub (HLM12 Algorithm 1, LVSUW21 Algorithm 1).
  ``accumulate()`` adds the current distribution to a running sum; ``average()`` is the averaged
  output of MWEM (HLM12: mean of A_1..A_T) and PMW^Pub (LVSUW21: mean of A_0..A_{T-1}); which
  iterates are averaged is the calling algorithm's choice, made by when it calls ``accumulate``.
"""

from __future__ import annotations

import math
from typing import Protocol, runtime_checkable

import numpy as np

from . import _kernels

__all__ = ["IncrementalMWDistribution", "LinearQueries", "MatrixQueries", "MWDistribution", "as_queries"]

_CHUNK_ENTRIES = 1 << 22


@runtime_checkable
class LinearQueries(Protocol):
    """The interface the engine needs from a set of linear queries over a finite support."""

    @property
    def num_queries(self) -> int: ...

    @property
    def support_size(self) -> int: ...

    def answer(self, p: np.ndarray, rows=None) -> np.ndarray:
        """q(p) = sum_x q(x) p(x) for every query (or the queries ``rows``, a slice or index array)."""
        ...

    def values(self, i: int) -> np.ndarray:
        """The values q_i(x) of query i at every support point, float64 (support_size,)."""
        ...


class MatrixQueries:
    """Linear queries as a dense matrix (num_queries x support_size), values in ``value_range``.

    ``matrix`` may be boolean (True = 1, False = 0: the counting query 1{h(x) = +1} of a finite
    class's hypothesis h) or real. ``value_range`` is (0, 1) (default) or (-1, 1); values outside
    it raise ValueError. The matrix is kept as given (read-only view, not copied when it is
    already a read-only array), and converted to ``dtype`` one row chunk at a time.
    """

    def __init__(self, matrix, *, value_range: tuple[int, int] = (0, 1), dtype=np.float64):
        arr = np.asarray(matrix)
        if arr.ndim != 2 or arr.shape[0] == 0 or arr.shape[1] == 0:
            raise ValueError(f"matrix must be a non-empty 2-D array (queries x support), got shape {arr.shape}")
        if tuple(value_range) not in ((0, 1), (-1, 1)):
            raise ValueError(f"value_range={value_range!r} out of range: allowed (0, 1) or (-1, 1)")
        if arr.dtype != np.bool_:
            if not np.issubdtype(arr.dtype, np.number):
                raise ValueError(f"matrix must be boolean or real, got dtype {arr.dtype}")
            lo, hi = value_range
            if not np.all(np.isfinite(arr)):
                raise ValueError(f"matrix has a non-finite value; allowed range [{lo}, {hi}]")
            if arr.min() < lo or arr.max() > hi:
                raise ValueError(f"matrix has values in [{float(arr.min())}, {float(arr.max())}], "
                                 f"outside the allowed range [{lo}, {hi}]")
        if np.dtype(dtype) not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise ValueError(f"dtype={dtype!r} out of range: allowed float32 or float64")
        self._matrix = arr
        self.value_range = tuple(value_range)
        self.dtype = np.dtype(dtype)
        self._step = max(1, _CHUNK_ENTRIES // arr.shape[1])

    @property
    def matrix(self) -> np.ndarray:
        return self._matrix

    @property
    def num_queries(self) -> int:
        return int(self._matrix.shape[0])

    @property
    def support_size(self) -> int:
        return int(self._matrix.shape[1])

    def answer(self, p: np.ndarray, rows=None) -> np.ndarray:
        """All answers (or those of ``rows``: a slice or an index array) on the distribution ``p``."""
        mat = self._matrix if rows is None else self._matrix[rows]
        pv = np.asarray(p, dtype=self.dtype)
        if pv.shape != (self.support_size,):
            raise ValueError(f"p must have shape ({self.support_size},), got {pv.shape}")
        if mat.dtype == self.dtype:
            return (mat @ pv).astype(np.float64, copy=False)
        out = np.empty(mat.shape[0], dtype=np.float64)
        for start in range(0, mat.shape[0], self._step):
            sl = slice(start, min(mat.shape[0], start + self._step))
            if mat.dtype == np.bool_:   # einsum casts on the fly: no float copy of the chunk (2-4x faster)
                out[sl] = np.einsum("ij,j->i", mat[sl], pv)
            else:
                out[sl] = mat[sl].astype(self.dtype) @ pv
        return out

    def values(self, i: int) -> np.ndarray:
        return self._matrix[int(i)].astype(np.float64)


def as_queries(queries) -> LinearQueries:
    """A ``LinearQueries`` from a FiniteClass (its 0/1 counting queries), a matrix, or itself."""
    from ..classes.finite import FiniteClass  # local import: classes does not depend on us

    if type(queries) is MatrixQueries:   # the hot path: skips the slow runtime Protocol check below
        return queries
    if isinstance(queries, FiniteClass):
        return MatrixQueries(queries.matrix)
    if isinstance(queries, LinearQueries) and not isinstance(queries, np.ndarray):
        return queries
    return MatrixQueries(queries)


class MWDistribution:
    """Dwork-Roth (2014) Algorithm 4: a distribution over a finite support, kept in log space.

    Build with ``uniform(size)`` or ``from_histogram(counts)``. ``update(values, step)`` applies
    x(x) <- x(x) exp(step * values(x)) / Z in place; ``probabilities()`` is the normalised
    distribution (cached until the next update); ``accumulate()`` / ``average()`` maintain the
    averaged output.
    """

    def __init__(self, log_weights):
        lw = np.array(log_weights, dtype=np.float64, copy=True)
        if lw.ndim != 1 or lw.size == 0:
            raise ValueError(f"log_weights must be a non-empty 1-D array, got shape {lw.shape}")
        if np.any(np.isnan(lw)) or np.any(lw == np.inf) or not np.any(np.isfinite(lw)):
            raise ValueError("log_weights must be < +inf, not nan, with at least one finite entry")
        self._log_weights = lw
        self._p: np.ndarray | None = None
        self._sum = np.zeros_like(lw)
        self._num_accumulated = 0
        self.num_updates = 0

    @classmethod
    def uniform(cls, support_size: int) -> "MWDistribution":
        """Dwork-Roth x^1 / HLM12 A_0: the uniform distribution over ``support_size`` points."""
        if isinstance(support_size, bool) or not isinstance(support_size, (int, np.integer)) or support_size < 1:
            raise ValueError(f"support_size={support_size!r} out of range: allowed integers >= 1")
        return cls(np.zeros(int(support_size)))

    @classmethod
    def from_histogram(cls, counts) -> "MWDistribution":
        """LVSUW21 Algorithm 1: A_0 = the distribution given by a histogram (counts or weights >= 0).

        Points of zero count get probability 0 for ever (log-weight -inf): multiplicative updates
        cannot create mass, so pass only the support you want (e.g. the distinct public rows).
        """
        c = np.asarray(counts, dtype=np.float64)
        if c.ndim != 1 or c.size == 0:
            raise ValueError(f"counts must be a non-empty 1-D array, got shape {c.shape}")
        if not np.all(np.isfinite(c)) or c.min() < 0 or c.sum() <= 0:
            raise ValueError("counts must be finite, >= 0, with a positive total")
        with np.errstate(divide="ignore"):
            return cls(np.log(c))

    @property
    def support_size(self) -> int:
        return int(self._log_weights.size)

    @property
    def log_weights(self) -> np.ndarray:
        out = self._log_weights.view()
        out.flags.writeable = False
        return out

    def probabilities(self) -> np.ndarray:
        """The current distribution x_t (a read-only float64 vector summing to 1)."""
        if self._p is None:
            e = np.exp(self._log_weights - self._log_weights.max())   # scipy.special.softmax's formula, bit
            p = e / e.sum()                                               # for bit, without its array-API wrappers
            p.flags.writeable = False
            self._p = p
        return self._p

    def answer(self, queries: LinearQueries, rows=None) -> np.ndarray:
        """q(x_t) for every query (or ``rows``): one matrix-vector product."""
        return queries.answer(self.probabilities(), rows)

    def update(self, values, step: float) -> None:
        """Dwork-Roth Algorithm 4 / HLM12: x_t proportional to x_{t-1} exp(step * values), in place."""
        step = float(step)
        if not np.isfinite(step):
            raise ValueError(f"step={step!r} must be finite")
        v = np.asarray(values, dtype=np.float64)
        if v.shape != self._log_weights.shape:
            raise ValueError(f"values must have shape {self._log_weights.shape}, got {v.shape}")
        self._log_weights += step * v
        self._log_weights -= np.max(self._log_weights)  # keep the log-weights near 0
        self._p = None
        self.num_updates += 1

    def _scale(self, factors: np.ndarray) -> None:
        self._log_weights += np.log(factors)
        self._log_weights -= np.max(self._log_weights)
        self._p = None
        self.num_updates += 1

    def update_query(self, queries: LinearQueries, i: int, step: float) -> None:
        """The update for query ``i`` of ``queries``: ``update(queries.values(i), step)``."""
        self.update(queries.values(int(i)), step)

    def update_workload(self, queries, w: int, measured) -> None:
        """HLM12's whole-marginal update: every cell c of workload ``w`` (disjoint point sets) gets
        its MW step (a_c - q_c(x_t)) / 2 at once, i.e. x(x) <- x(x) exp((a_{c(x)} - q_{c(x)}) / 2) / Z,
        with q_c from one bincount (``queries.workload_cells``)."""
        _workload_steps_apply(self, queries, w, measured)

    def update_workloads(self, queries, workloads, measured, starts, order) -> None:
        """``update_workload(queries, workloads[u], measured[starts[u]:starts[u + 1]])`` for every u in
        ``order``, in that order (replaying past whole-marginal measurements)."""
        for u in np.asarray(order).tolist():
            _workload_steps_apply(self, queries, workloads[u], measured[starts[u]:starts[u + 1]])

    def copy(self) -> "MWDistribution":
        """A fresh distribution with the same log-weights (no accumulated iterates)."""
        return MWDistribution(self._log_weights)

    def accumulate(self) -> None:
        """Add the current distribution to the running sum that ``average`` divides."""
        self._sum += self.probabilities()
        self._num_accumulated += 1

    @property
    def num_accumulated(self) -> int:
        return self._num_accumulated

    def average(self) -> np.ndarray:
        """The mean of the accumulated distributions (HLM12 / LVSUW21 averaged output)."""
        if self._num_accumulated == 0:
            raise ValueError("average() needs at least one accumulate() call")
        return self._sum / self._num_accumulated


class IncrementalMWDistribution:
    """LVSUW21 Algorithm 1 at scale: the MW distribution of ``MWDistribution`` with its answers kept
    up to date incrementally, for queries that list their support points (``members(i)``) and
    answer on them (``delta_answers(p, i)`` = q(p 1_{members(i)}) for every q, and
    ``scale_members(p, i, factor)``), e.g. ``workloads.MarginalQueries`` / ``DomainMarginalQueries``.

    The update of query i with step s multiplies p on members(i) by e^s and renormalises, so for
    every query q: q(p') = (q(p) + (e^s - 1) q(p 1_{members(i)})) / Z with Z = 1 + (e^s - 1) q_i(p).
    ``update_query`` applies exactly that: work O(|members(i)| x workloads) for the answers and
    O(support) for the rescaling, instead of recomputing every answer. The probabilities are kept
    normalised in linear space, Z taken as the exact sum after scaling (each step has |s| <= 1/2 in
    MWEM / PMW^Pub, so thousands of updates stay far from underflow). A rounding error in the cached
    answers is multiplied by 1/Z at each update; the answers are recomputed from scratch every
    ``resync_every`` updates and whenever the product of max(1, 1/Z) since the last recomputation
    exceeds 1e4 (replaying measurements can shrink Z below 1 many times in a row), so the cached
    answers stay within ~1e-10 of exact.

    Same interface as ``MWDistribution`` (``probabilities``, ``answer``, ``update``,
    ``update_query``, ``accumulate``, ``average``, ``copy``): ``mwem.mw_rounds`` runs on either.
    ``answer(queries)`` returns the cached answers when ``queries`` is the bound query set.
    """

    def __init__(self, queries, p0, *, resync_every: int = 256):
        for member in ("scale_members", "delta_answers", "answer", "support_size"):
            if not hasattr(queries, member):
                raise ValueError(f"queries must provide {member!r} (e.g. workloads.MarginalQueries)")
        p = np.array(p0, dtype=np.float64, copy=True)
        if p.shape != (queries.support_size,):
            raise ValueError(f"p0 must have shape ({queries.support_size},), got {p.shape}")
        if not np.all(np.isfinite(p)) or p.min() < 0 or p.sum() <= 0:
            raise ValueError("p0 must be finite, >= 0, with a positive total")
        if isinstance(resync_every, bool) or not isinstance(resync_every, (int, np.integer)) or resync_every < 1:
            raise ValueError(f"resync_every={resync_every!r} out of range: allowed integers >= 1")
        self._queries = queries
        self._p = p / p.sum()
        self._answers = queries.answer(self._p)
        self._exact = True        # _answers = queries.answer(_p) exactly (not refreshed incrementally)
        self._amplification = 1.0
        self._since_resync = 0
        self._stale = False
        self._sum = np.zeros_like(self._p)
        self._num_accumulated = 0
        self.num_updates = 0
        self.resync_every = int(resync_every)

    @classmethod
    def from_histogram(cls, queries, counts, **kw) -> "IncrementalMWDistribution":
        """LVSUW21 Algorithm 1: A_0 = the public histogram over its support (zero counts stay zero)."""
        return cls(queries, counts, **kw)

    @classmethod
    def uniform(cls, queries, **kw) -> "IncrementalMWDistribution":
        """HLM12 A_0: uniform over the support (full-domain MWEM)."""
        return cls(queries, np.ones(queries.support_size), **kw)

    @property
    def support_size(self) -> int:
        return int(self._p.size)

    def update_workload(self, queries, w: int, measured) -> None:
        """``MWDistribution.update_workload`` in O(support): p rescaled cell by cell and renormalised;
        the cached answers are marked stale and recomputed by the next ``answer`` (or update_query)."""
        a = np.asarray(measured, dtype=np.float64)
        if a.ndim != 1:
            raise ValueError(f"measured must have one value per cell of workload {w}: got shape {a.shape}")
        self.update_workloads(queries, np.array([int(w)]), a, np.array([0, a.size]), np.array([0]))

    def update_workloads(self, queries, workloads, measured, starts, order) -> None:
        """``update_workload(queries, workloads[u], measured[starts[u]:starts[u + 1]])`` for every u in
        ``order``, in that order: with queries that give their (workloads x support) cell table
        (``workloads.MarginalQueries``), one call of ``_kernels.workload_updates`` (compiled when numba
        is there; the same bits as the numpy loop), otherwise one ``update_workload`` at a time."""
        table = getattr(queries, "workload_cell_table", None)
        order = np.asarray(order, dtype=np.intp)
        if table is None:
            for u in order.tolist():
                _workload_steps_apply(self, queries, workloads[u], measured[starts[u]:starts[u + 1]])
            return
        workloads = np.asarray(workloads, dtype=np.intp)
        starts = np.asarray(starts, dtype=np.intp)
        measured = np.ascontiguousarray(measured, dtype=np.float64)
        bad = _kernels.workload_updates(self._p, table(), queries.cells_per_workload, workloads, measured,
                                        starts, order)
        if bad:     # checked before p was touched: nothing applied
            u = int(order[bad - 1])
            raise ValueError(f"update {bad - 1}: unit {u} of {starts.size - 1} must be a measured workload in "
                             f"[0, {queries.num_workloads}) of a table with one column per support point "
                             f"({self._p.size}), with one value per cell "
                             f"(starts {starts[u:u + 2].tolist() if 0 <= u < starts.size - 1 else 'out of range'}, "
                             f"{measured.size} values)")
        self._stale = True
        self.num_updates += int(order.size)

    def _scale(self, factors: np.ndarray) -> None:
        self._p *= factors
        self._p /= self._p.sum()
        self._stale = True
        self.num_updates += 1

    def copy(self) -> "IncrementalMWDistribution":
        """A fresh distribution on p / p.sum() (no accumulated iterates); when that renormalisation leaves
        p's bits unchanged and the cached answers are exact, they are copied instead of recomputed."""
        new = object.__new__(IncrementalMWDistribution)
        new.__dict__.update(self.__dict__)
        new._p = self._p / self._p.sum()
        reuse = self._exact and not self._stale and np.array_equal(new._p, self._p)
        new._answers = self._answers.copy() if reuse else self._queries.answer(new._p)
        new._exact, new._stale, new._amplification, new._since_resync = True, False, 1.0, 0
        new._sum = np.zeros_like(new._p)
        new._num_accumulated = 0
        new.num_updates = 0
        return new

    def current_answers(self, p) -> np.ndarray | None:
        """A copy of the cached answers when they are exactly ``queries.answer(p)`` (p has the current
        distribution's bits and no update or incremental refresh came since the answers were computed),
        else None."""
        if self._exact and not self._stale and (p is self._p or np.array_equal(p, self._p)):
            return self._answers.copy()
        return None

    def probabilities(self) -> np.ndarray:
        out = self._p.view()
        out.flags.writeable = False
        return out

    def answer(self, queries, rows=None) -> np.ndarray:
        if queries is not self._queries:
            return queries.answer(self._p, rows)
        if self._stale:
            self._resync()
        return self._answers.copy() if rows is None else self._answers[rows]

    def answer_unit_errors(self, queries, true: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(``answer(queries)``, ``np.add.reduceat(np.abs(answers - true), starts[:-1])``): the answers and
        every unit's L1 error (the whole-marginal round's scores), recomputed with the answers in one
        compiled pass when they are stale (``_kernels.normalise_answer_scores``; the same bits)."""
        compact = getattr(queries, "compact_cells", None)
        if queries is not self._queries or not self._stale or compact is None:
            syn = self.answer(queries)
            return syn, np.add.reduceat(np.abs(syn - true), starts[:-1])
        self._answers, scores = _kernels.normalise_answer_scores(self._p, compact(), queries.num_queries, true,
                                                                 starts, queries.query_matrix)
        self._exact, self._stale, self._amplification, self._since_resync = True, False, 1.0, 0
        return self._answers.copy(), scores

    def _resync(self) -> None:
        self._p /= _kernels.pairwise_sum(self._p)
        self._answers = self._queries.answer(self._p)
        self._exact = True
        self._stale = False
        self._amplification = 1.0
        self._since_resync = 0

    def update(self, values, step: float) -> None:
        """Generic update p <- p exp(step values) / Z (full recomputation of the answers)."""
        step = float(step)
        if not np.isfinite(step):
            raise ValueError(f"step={step!r} must be finite")
        v = np.asarray(values, dtype=np.float64)
        if v.shape != self._p.shape:
            raise ValueError(f"values must have shape {self._p.shape}, got {v.shape}")
        self._p *= np.exp(step * v)
        self._resync()
        self.num_updates += 1

    def update_query(self, queries, i: int, step: float) -> None:
        """The MW update of query i by ``step`` with the incremental answer refresh (class docstring)."""
        if queries is not self._queries:
            self.update(queries.values(int(i)), step)
            return
        step = float(step)
        if not np.isfinite(step):
            raise ValueError(f"step={step!r} must be finite")
        if self._stale:
            self._resync()
        i = int(i)
        grow = math.expm1(step)                       # e^s - 1
        delta = queries.delta_answers(self._p, i)     # q(p 1_{members(i)}) for every q
        queries.scale_members(self._p, i, 1.0 + grow)
        z = float(self._p.sum())                       # = 1 + grow q_i(p), computed exactly (no drift in p)
        self._p *= 1.0 / z
        self._answers += grow * delta
        self._answers *= 1.0 / z
        self._exact = False
        # an error already in the cached answers is multiplied by 1/z: bound the product since the last
        # exact recomputation and recompute before it can matter (z < 1 repeatedly happens with replay)
        self._amplification *= max(1.0, 1.0 / z)
        self.num_updates += 1
        self._since_resync += 1
        if self._since_resync >= self.resync_every or self._amplification > 1e4:
            self._resync()

    def accumulate(self) -> None:
        self._sum += self._p
        self._num_accumulated += 1

    @property
    def num_accumulated(self) -> int:
        return self._num_accumulated

    def average(self) -> np.ndarray:
        if self._num_accumulated == 0:
            raise ValueError("average() needs at least one accumulate() call")
        return self._sum / self._num_accumulated


def _workload_steps_apply(dist, queries, w: int, measured) -> None:
    """The whole-marginal MW update (see ``update_workload``) for queries without a cell table
    (``DomainMarginalQueries``) or an ``MWDistribution``: the workload's current marginal (a bincount of
    p over its cells), the factors exp((a - current) / 2), then p *= factors[cells] and renormalise; on
    an ``IncrementalMWDistribution`` it is ``_kernels.workload_updates`` on a one-row cell table, as in
    ``update_workloads`` (compiled when numba is there; libm's exp; the same bits)."""
    cells_of = getattr(queries, "workload_cells", None)
    if cells_of is None:
        raise ValueError("queries must provide 'workload_cells' (workloads.MarginalQueries / DomainMarginalQueries)")
    w = int(w)
    cells = cells_of(w)
    a = np.asarray(measured, dtype=np.float64)
    sizes = getattr(queries, "cells_per_workload", None)
    if sizes is None or not isinstance(dist, IncrementalMWDistribution):
        p = dist._p if isinstance(dist, IncrementalMWDistribution) else dist.probabilities()
        current = np.bincount(cells, weights=p, minlength=a.size)
        if current.shape != a.shape:
            raise ValueError(f"measured must have one value per cell of workload {w}: shape {current.shape}, "
                             f"got {a.shape}")
        dist._scale(np.exp((a - current) / 2.0)[cells])
        return
    size = int(sizes[w])       # cells < size by construction: the compiled bincount cannot write out of range
    if a.shape != (size,):
        raise ValueError(f"measured must have one value per cell of workload {w}: shape ({size},), got {a.shape}")
    p = dist._p
    if cells.shape != p.shape:      # queries over another support (the compiled loops do no bounds checks)
        raise ValueError(f"queries have {cells.size} support points, the distribution {p.size}")
    # the one update of update_workloads, on a one-row cell table (its checks passed above)
    _kernels.workload_updates(p, cells[None, :], np.array([size]), np.zeros(1, dtype=np.intp), a,
                              np.array([0, size], dtype=np.intp), np.zeros(1, dtype=np.intp))
    dist._stale = True
    dist.num_updates += 1
