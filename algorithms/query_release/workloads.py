"""LVSUW21 Section 5: k-way marginal queries over a categorical domain, held as workloads.

A categorical domain has d attributes, attribute j taking values {0, ..., sizes[j] - 1}; a record
is a row of d value indices. A *workload* is a set of attributes W = (a_1 < ... < a_k); its
marginal queries are the prod_j sizes[a_j] counting queries q_{W,c}(x) = 1{x_W = c}, one per cell
c of the sub-domain of W. Cells are numbered little-endian (first attribute of W least
significant), the convention of ``simulations.distributions``: c = sum_j c_j prod_{l<j} sizes[a_l].

``MarginalQueries`` binds a list of workloads to a finite support (the rows a distribution lives
on: the whole domain for MWEM, the distinct public rows for PMW^Pub). For every support point and
every workload it stores the global index of the query the point satisfies (an (S, W) integer
table, W = number of workloads): a point satisfies exactly one query per workload. So

* all answers on a distribution p over the support are one weighted bincount:
  answers = bincount(cells.ravel(), weights=repeat(p, W)), O(S W) work, no query x support matrix;
* the support points of a query (``members``) are a contiguous block of a per-workload sort;
* after the multiplicative-weights update of query i (p(x) <- p(x) e^{s q_i(x)} / Z), only the
  points of ``members(i)`` changed before normalisation, so ``delta_answers`` recomputes
  the answers from those points alone: q(p') = (q(p) + (e^s - 1) q(p 1_{members(i)})) / Z, with
  Z = 1 + (e^s - 1) q_i(p). This is the incremental refresh: O(|members(i)| W) instead of O(S W).

It satisfies the ``mw.LinearQueries`` protocol (``num_queries``, ``support_size``, ``answer``,
``values``) and adds ``members`` and ``delta_answers`` for ``mw.IncrementalMWDistribution``.
``dense_matrix`` exists only to test the bincount against a matrix product on small cases.
"""

from __future__ import annotations

import itertools
import math
from typing import Sequence

import numpy as np

__all__ = ["CategoricalDomain", "MarginalQueries", "all_k_way", "random_k_way"]


class CategoricalDomain:
    """LVSUW21 Section 5.2: a product of categorical attributes (``sizes[j]`` values each).

    ``size`` = prod sizes; ``index(rows)`` and ``rows(indices)`` convert between rows of value
    indices and cell indices of the whole domain (little-endian: attribute 0 least significant).
    """

    def __init__(self, sizes: Sequence[int], names: Sequence[str] | None = None):
        s = tuple(int(v) for v in sizes)
        if len(s) == 0 or any(v < 1 for v in s) or any(int(v) != v for v in sizes):
            raise ValueError(f"sizes={tuple(sizes)!r} out of range: allowed a non-empty sequence of integers >= 1")
        if names is None:
            names = tuple(f"a{j}" for j in range(len(s)))
        names = tuple(str(n) for n in names)
        if len(names) != len(s) or len(set(names)) != len(names):
            raise ValueError(f"names={names!r} must be {len(s)} distinct names, one per attribute")
        self.sizes = s
        self.names = names
        self.strides = np.concatenate([[1], np.cumprod(s[:-1], dtype=np.int64)]).astype(np.int64)

    @property
    def num_attributes(self) -> int:
        return len(self.sizes)

    @property
    def size(self) -> int:
        return int(math.prod(self.sizes))

    def check_rows(self, rows, argname: str = "rows") -> np.ndarray:
        """Rows as an (N, d) int64 array with every value in range; ValueError naming ``argname``."""
        r = np.asarray(rows)
        if r.ndim != 2 or r.shape[1] != self.num_attributes or r.shape[0] == 0:
            raise ValueError(f"{argname} must be a non-empty (N, {self.num_attributes}) array, got shape {r.shape}")
        if not np.issubdtype(r.dtype, np.integer):
            raise ValueError(f"{argname} must hold integer value indices, got dtype {r.dtype}")
        r = r.astype(np.int64, copy=False)
        if r.min() < 0 or np.any(r.max(axis=0) >= np.asarray(self.sizes)):
            raise ValueError(f"{argname} has a value outside its attribute's range [0, size): sizes {self.sizes}")
        return r

    def index(self, rows) -> np.ndarray:
        """Cell index of each row in the whole domain (little-endian mixed radix)."""
        return self.check_rows(rows) @ self.strides

    def rows(self, indices) -> np.ndarray:
        """Inverse of ``index``: the (N, d) value indices of domain cells."""
        idx = np.asarray(indices, dtype=np.int64)
        if idx.ndim != 1 or (idx.size and (idx.min() < 0 or idx.max() >= self.size)):
            raise ValueError(f"indices must be a 1-D array of cells in [0, {self.size})")
        return (idx[:, None] // self.strides[None, :]) % np.asarray(self.sizes)[None, :]

    def all_rows(self) -> np.ndarray:
        """Every cell of the domain as rows, in index order (the support of full-domain MWEM)."""
        return self.rows(np.arange(self.size))


def _check_workloads(workloads, d: int) -> tuple[tuple[int, ...], ...]:
    out = []
    for w in workloads:
        t = tuple(sorted(int(a) for a in w))
        if len(t) == 0 or len(set(t)) != len(t) or t[0] < 0 or t[-1] >= d:
            raise ValueError(f"workload {tuple(w)!r} out of range: allowed non-empty sets of distinct attributes in [0, {d})")
        out.append(t)
    if not out:
        raise ValueError("workloads is empty; at least one workload is required")
    return tuple(out)


def all_k_way(domain: CategoricalDomain, k: int) -> tuple[tuple[int, ...], ...]:
    """Every k-subset of the attributes (LVSUW21 Figure 1 top row: all 5-way marginals)."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 1 <= k <= domain.num_attributes:
        raise ValueError(f"k={k!r} out of range: allowed integers in [1, {domain.num_attributes}]")
    return tuple(itertools.combinations(range(domain.num_attributes), int(k)))


def random_k_way(domain: CategoricalDomain, k: int, num_workloads: int, rng: np.random.Generator):
    """``num_workloads`` distinct k-subsets of the attributes drawn uniformly without replacement
    (LVSUW21 Section 5: workloads of random 3-way marginals)."""
    every = all_k_way(domain, k)
    if isinstance(num_workloads, bool) or not isinstance(num_workloads, (int, np.integer)) \
            or not 1 <= num_workloads <= len(every):
        raise ValueError(f"num_workloads={num_workloads!r} out of range: allowed integers in [1, {len(every)}]")
    pick = np.sort(rng.choice(len(every), size=int(num_workloads), replace=False))
    return tuple(every[i] for i in pick)


class MarginalQueries:
    """LVSUW21 Section 5: the marginal queries of ``workloads`` on the support ``support_rows``.

    domain: a ``CategoricalDomain``; workloads: sets of attribute indices; support_rows: the
    (S, d) rows a distribution lives on (distinct rows, e.g. ``np.unique(public, axis=0)``, or
    ``domain.all_rows()``). Query ids run workload by workload, cells within a workload:
    ``offsets[w] + c``. See the module docstring for the bincount representation.
    """

    def __init__(self, domain: CategoricalDomain, workloads, support_rows):
        self.domain = domain
        self.workloads = _check_workloads(workloads, domain.num_attributes)
        rows = domain.check_rows(support_rows, "support_rows")
        sizes = np.asarray(domain.sizes, dtype=np.int64)
        cells_per = np.array([int(np.prod(sizes[list(w)])) for w in self.workloads], dtype=np.int64)
        self.cells_per_workload = cells_per
        self.offsets = np.concatenate([[0], np.cumsum(cells_per)]).astype(np.int64)
        self._num_queries = int(self.offsets[-1])
        self.workload_of = np.repeat(np.arange(len(self.workloads)), cells_per)
        W = len(self.workloads)
        cells = np.empty((rows.shape[0], W), dtype=np.intp)   # (S, W): row-major, a point's W queries adjacent
        for w, attrs in enumerate(self.workloads):           # W small (tens); each step is a vector op over S
            strides = np.concatenate([[1], np.cumprod(sizes[list(attrs)][:-1])])
            cells[:, w] = self.offsets[w] + rows[:, list(attrs)] @ strides
        self.cells = cells
        self.support_rows = rows
        order = np.argsort(cells, axis=0, kind="stable")      # per workload: support points grouped by cell
        self._order = np.ascontiguousarray(order.T)           # (W, S)
        counts = np.bincount(cells.ravel(), minlength=self._num_queries)
        self._starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)

    @property
    def num_queries(self) -> int:
        return self._num_queries

    @property
    def support_size(self) -> int:
        return int(self.cells.shape[0])

    @property
    def num_workloads(self) -> int:
        return len(self.workloads)

    def _check_p(self, p) -> np.ndarray:
        pv = np.asarray(p, dtype=np.float64)
        if pv.shape != (self.support_size,):
            raise ValueError(f"p must have shape ({self.support_size},), got {pv.shape}")
        return pv

    def answer(self, p, rows=None) -> np.ndarray:
        """q(p) for every query (or the queries ``rows``): one weighted bincount over the support."""
        pv = self._check_p(p)
        out = np.bincount(self.cells.ravel(), weights=np.repeat(pv, self.num_workloads),
                          minlength=self._num_queries)
        return out if rows is None else out[rows]

    def workload_answers(self, p, w: int) -> np.ndarray:
        """The marginal of workload ``w`` on p: one bincount of that workload's cells."""
        pv = self._check_p(p)
        local = self.cells[:, w] - self.offsets[w]
        return np.bincount(local, weights=pv, minlength=int(self.cells_per_workload[w]))

    def members(self, i: int) -> np.ndarray:
        """Indices of the support points x with q_i(x) = 1 (sorted by the stable per-workload sort)."""
        i = int(i)
        if not 0 <= i < self._num_queries:
            raise ValueError(f"query index i={i} out of range [0, {self._num_queries})")
        w = int(self.workload_of[i])
        base = int(self._starts[self.offsets[w]])
        return self._order[w, int(self._starts[i]) - base:int(self._starts[i + 1]) - base]

    def values(self, i: int) -> np.ndarray:
        """q_i(x) for every support point x (float64 0/1)."""
        v = np.zeros(self.support_size)
        v[self.members(i)] = 1.0
        return v

    def delta_answers(self, p, points: np.ndarray) -> np.ndarray:
        """q(p 1_points) for every query: the bincount restricted to ``points`` (incremental refresh)."""
        pv = np.asarray(p, dtype=np.float64)
        return np.bincount(self.cells[points].ravel(), weights=np.repeat(pv[points], self.num_workloads),
                           minlength=self._num_queries)

    def dense_matrix(self) -> np.ndarray:
        """The (num_queries x support) 0/1 matrix; for tests on small cases only (O(Q S) memory)."""
        m = np.zeros((self._num_queries, self.support_size), dtype=bool)
        m[self.cells, np.arange(self.support_size)[:, None]] = True
        return m

    def query_label(self, i: int) -> str:
        """Human-readable name of query i: 'attr=value & ...'."""
        w = int(self.workload_of[i])
        c = int(i - self.offsets[w])
        parts = []
        for a in self.workloads[w]:
            parts.append(f"{self.domain.names[a]}={c % self.domain.sizes[a]}")
            c //= self.domain.sizes[a]
        return " & ".join(parts)
