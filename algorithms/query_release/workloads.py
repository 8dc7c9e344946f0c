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
  answers = bincount(cells.ravel(), weights=repeat(p, W)), O(S W) work, no dense query x support
  matrix (computed as the product with the same 0/1 table in CSR form, which adds in the same
  order: bit-identical, about twice as fast);
* the support points of a query (``members``) are a contiguous block of a per-workload sort;
* after the multiplicative-weights update of query i (p(x) <- p(x) e^{s q_i(x)} / Z), only the
  points of ``members(i)`` changed before normalisation, so ``delta_answers(p, i)`` recomputes
  the answers from those points alone: q(p') = (q(p) + (e^s - 1) q(p 1_{members(i)})) / Z, with
  Z = 1 + (e^s - 1) q_i(p). This is the incremental refresh: O(|members(i)| W) instead of O(S W).

It satisfies the ``mw.LinearQueries`` protocol (``num_queries``, ``support_size``, ``answer``,
``values``) and adds ``delta_answers`` and ``scale_members`` for ``mw.IncrementalMWDistribution``.

``DomainMarginalQueries`` is the same query set on the *whole* domain (full-domain MWEM), where the
product structure gives a faster exact representation: split the attributes into a low block H1
and a high block H2, view p as a matrix P (cells of H2 x cells of H1); the marginal of a workload
B = B1 u B2 is E2_{B2} P E1_{B1}^T with 0/1 aggregation matrices E (cells of B_j x cells of H_j),
so all marginals are two matrix products G2 P G1^T (G_j = the stacked E's of the distinct B_j),
and a query's points form a sub-block (rows x_{A2} = c2, columns x_{A1} = c1), so the incremental
refresh is G2[:, rows] P[rows, cols] G1[:, cols]^T: O(|members| (r1 + r2)) with BLAS, never a
query x domain matrix. Query ids are those of ``MarginalQueries(domain, workloads, domain.all_rows())``.
``dense_matrix`` exists only to test the bincount against a matrix product on small cases.
"""

from __future__ import annotations

import itertools
import math
from typing import Sequence

import numpy as np

from algorithms._lazy import lazy_module
from . import _kernels

sparse = lazy_module("scipy.sparse")  # imported on first use

__all__ = ["CategoricalDomain", "DomainMarginalQueries", "MarginalQueries", "all_k_way", "random_k_way"]


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
            raise ValueError(f"workload {tuple(w)!r} out of range: allowed non-empty sets of distinct attributes in "
                             f"[0, {d})")
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
        local = np.ascontiguousarray((cells - self.offsets[:-1]).T)   # (W, S): each workload's cell map, cached
        local.flags.writeable = False
        self._local_cells = local
        self._csr = None
        self._compact = None

    def query_matrix(self):
        """The (queries x support) 0/1 matrix as a ``scipy.sparse.csr_array``, column indices increasing
        within each row (built on first use and cached: do not modify it). Its product with p adds, for every query,
        p(x) over its points in
        increasing x, the order the weighted bincount adds them in, so the answers are bit-identical
        to ``np.bincount(cells.ravel(), weights=repeat(p, W))`` at about half the cost."""
        if self._csr is None:
            S, W = self.cells.shape
            order = np.argsort(self.cells.ravel(), kind="stable")   # query-major, x increasing within a query
            idx_type = np.int32 if S * W < 2**31 else np.int64
            self._csr = sparse.csr_array((np.ones(S * W), (order // W).astype(idx_type),
                                          self._starts.astype(idx_type)), shape=(self._num_queries, S))
        return self._csr

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
        """q(p) for every query (or the queries ``rows``): one pass over the (S, W) cell map
        (``_kernels.scatter_answers``: compiled, or the CSR product; the same bits either way)."""
        pv = np.ascontiguousarray(self._check_p(p))
        out = _kernels.scatter_answers(self.compact_cells(), pv, self._num_queries, self.query_matrix)
        return out if rows is None else out[rows]

    def compact_cells(self) -> np.ndarray:
        """``cells`` (S, W) as a C-contiguous uint16 / int32 array (the compiled kernels' input; cached)."""
        if self._compact is None:
            self._compact = _kernels.compact_cells(self.cells, self._num_queries)
            self._compact.flags.writeable = False
        return self._compact

    def workload_answers(self, p, w: int) -> np.ndarray:
        """The marginal of workload ``w`` on p: one bincount of that workload's cells."""
        pv = self._check_p(p)
        local = self.cells[:, w] - self.offsets[w]
        return np.bincount(local, weights=pv, minlength=int(self.cells_per_workload[w]))

    def workload_cells(self, w: int) -> np.ndarray:
        """The cell of workload ``w`` (0 .. cells_per_workload[w] - 1) of every support point (a
        read-only view of the map cached at construction)."""
        return self._local_cells[int(w)]

    def workload_cell_table(self) -> np.ndarray:
        """Every workload's cell map, (W, S) read-only: row w is ``workload_cells(w)``."""
        return self._local_cells

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

    def delta_answers(self, p, i: int) -> np.ndarray:
        """q(p 1_{members(i)}) for every query q: the weighted count restricted to query i's points
        (the incremental refresh; ``np.add.at``, faster than bincount at these sizes)."""
        points = self.members(i)
        out = np.zeros(self._num_queries)
        np.add.at(out, self.cells[points].ravel(), np.repeat(np.asarray(p)[points], self.num_workloads))
        return out

    def scale_members(self, p: np.ndarray, i: int, factor: float) -> None:
        """p[x] *= factor for every support point x of query i, in place."""
        p[self.members(i)] *= factor

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


def _aggregation(sizes: np.ndarray, block: Sequence[int], attrs: Sequence[int]) -> np.ndarray:
    """E (cells of ``attrs`` x cells of ``block``): E[c, i] = 1 iff block cell i has attrs-cell c
    (both little-endian; ``attrs`` a subset of ``block``; empty attrs -> one all-ones row)."""
    bsizes = sizes[list(block)]
    n = int(np.prod(bsizes)) if len(block) else 1
    idx = np.arange(n)
    coords = {a: (idx // int(np.prod(bsizes[:k]))) % int(bsizes[k]) for k, a in enumerate(block)}
    cell = np.zeros(n, dtype=np.int64)
    stride = 1
    for a in attrs:
        cell += coords[a] * stride
        stride *= int(sizes[a])
    E = np.zeros((stride, n))
    E[cell, idx] = 1.0
    return E


class DomainMarginalQueries:
    """LVSUW21 Section 5 / HLM12 MWEM: the marginal queries of ``workloads`` on the whole domain,
    by the two-block matrix representation of the module docstring (full-domain MWEM's engine)."""

    def __init__(self, domain: CategoricalDomain, workloads, *, split: int | None = None):
        self.domain = domain
        self.workloads = _check_workloads(workloads, domain.num_attributes)
        sizes = np.asarray(domain.sizes, dtype=np.int64)
        d = domain.num_attributes
        if split is None:                         # H1 = attributes [0, split): about sqrt(|X|) cells
            logs = np.cumsum(np.log(sizes))
            split = int(np.argmin(np.abs(logs - logs[-1] / 2))) + 1 if d > 1 else 1
        if not 1 <= split <= d:
            raise ValueError(f"split={split!r} out of range: allowed [1, {d}]")
        self.split = split
        H1, H2 = list(range(split)), list(range(split, d))
        self.n1 = int(np.prod(sizes[H1]))
        self.n2 = int(np.prod(sizes[H2])) if H2 else 1
        cells_per = np.array([int(np.prod(sizes[list(w)])) for w in self.workloads], dtype=np.int64)
        self.cells_per_workload = cells_per
        self.offsets = np.concatenate([[0], np.cumsum(cells_per)]).astype(np.int64)
        self._num_queries = int(self.offsets[-1])
        self.workload_of = np.repeat(np.arange(len(self.workloads)), cells_per)
        parts1 = sorted({tuple(a for a in w if a < split) for w in self.workloads})
        parts2 = sorted({tuple(a for a in w if a >= split) for w in self.workloads})
        E1 = [_aggregation(sizes, H1, b) for b in parts1]
        E2 = [_aggregation(sizes, H2, b) for b in parts2]
        off1 = dict(zip(parts1, np.concatenate([[0], np.cumsum([e.shape[0] for e in E1])])))
        off2 = dict(zip(parts2, np.concatenate([[0], np.cumsum([e.shape[0] for e in E2])])))
        self._G1T = np.ascontiguousarray(np.vstack(E1).T)    # (n1, r1)
        self._G2T = np.ascontiguousarray(np.vstack(E2).T)    # (n2, r2)
        qrow = np.empty(self._num_queries, dtype=np.intp)
        qcol = np.empty(self._num_queries, dtype=np.intp)
        for w, attrs in enumerate(self.workloads):
            b1 = tuple(a for a in attrs if a < split)
            b2 = tuple(a for a in attrs if a >= split)
            k1 = int(np.prod(sizes[list(b1)])) if b1 else 1
            c = np.arange(cells_per[w])
            qcol[self.offsets[w]:self.offsets[w + 1]] = off1[b1] + c % k1
            qrow[self.offsets[w]:self.offsets[w + 1]] = off2[b2] + c // k1
        self._qrow, self._qcol = qrow, qcol
        # per query: the block cell values (c1 on H1 attrs, c2 on H2 attrs) that define its points
        self._cell1 = np.stack([(np.arange(self.n1) // int(np.prod(sizes[:k]))) % sizes[k] for k in H1])
        self._cell2 = (np.stack([(np.arange(self.n2) // int(np.prod(sizes[split:k]))) % sizes[k] for k in H2])
                       if H2 else np.zeros((0, 1), dtype=np.int64))

    @property
    def num_queries(self) -> int:
        return self._num_queries

    @property
    def support_size(self) -> int:
        return self.domain.size

    @property
    def num_workloads(self) -> int:
        return len(self.workloads)

    def _matrix(self, p) -> np.ndarray:
        pv = np.asarray(p, dtype=np.float64)
        if pv.shape != (self.support_size,):
            raise ValueError(f"p must have shape ({self.support_size},), got {pv.shape}")
        return pv.reshape(self.n2, self.n1)                   # P[i2, i1], index = i1 + n1 i2

    def answer(self, p, rows=None) -> np.ndarray:
        """All marginal answers: Z = G2 P G1^T, then each query's entry of Z."""
        Z = self._G2T.T @ (self._matrix(p) @ self._G1T)
        out = Z[self._qrow, self._qcol]
        return out if rows is None else out[rows]

    def workload_cells(self, w: int) -> np.ndarray:
        """The cell of workload ``w`` of every domain point (index i1 + n1 i2), as the query ids
        ``offsets[w] + cell`` decode it (first attribute fastest); cached per workload."""
        w = int(w)
        cache = self.__dict__.setdefault("_workload_cells", {})
        if w not in cache:
            c1, c2 = np.zeros(self.n1, dtype=np.intp), np.zeros(self.n2, dtype=np.intp)
            stride = 1
            for a in self.workloads[w]:
                if a < self.split:
                    c1 += stride * self._cell1[a]
                else:
                    c2 += stride * self._cell2[a - self.split]
                stride *= self.domain.sizes[a]
            cache[w] = (c2[:, None] + c1[None, :]).ravel()
        return cache[w]

    def _blocks(self, i: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows (H2 cells) and columns (H1 cells) whose product is query i's point set."""
        i = int(i)
        if not 0 <= i < self._num_queries:
            raise ValueError(f"query index i={i} out of range [0, {self._num_queries})")
        w = int(self.workload_of[i])
        c = int(i - self.offsets[w])
        keep1 = np.ones(self.n1, dtype=bool)
        keep2 = np.ones(self.n2, dtype=bool)
        for a in self.workloads[w]:
            v = c % self.domain.sizes[a]
            c //= self.domain.sizes[a]
            if a < self.split:
                keep1 &= self._cell1[a] == v
            else:
                keep2 &= self._cell2[a - self.split] == v
        return np.flatnonzero(keep2), np.flatnonzero(keep1)

    def members(self, i: int) -> np.ndarray:
        rows, cols = self._blocks(i)
        return (rows[:, None] * self.n1 + cols[None, :]).ravel()

    def values(self, i: int) -> np.ndarray:
        v = np.zeros(self.support_size)
        v[self.members(i)] = 1.0
        return v

    def delta_answers(self, p, i: int) -> np.ndarray:
        """q(p 1_{members(i)}) for every q: G2[:, rows] P[rows, cols] G1[:, cols]^T, then the entries."""
        rows, cols = self._blocks(i)
        sub = self._matrix(p)[np.ix_(rows, cols)]
        g2, g1 = self._G2T[rows], self._G1T[cols]
        r2, r1 = g2.shape[1], g1.shape[1]
        # the cheaper association: (g2^T sub) g1 or g2^T (sub g1), by multiply-add count
        if r2 * sub.size + r2 * cols.size * r1 <= sub.size * r1 + r2 * rows.size * r1:
            Z = (g2.T @ sub) @ g1
        else:
            Z = g2.T @ (sub @ g1)
        return Z[self._qrow, self._qcol]

    def scale_members(self, p: np.ndarray, i: int, factor: float) -> None:
        rows, cols = self._blocks(i)
        P = p.reshape(self.n2, self.n1)
        P[np.ix_(rows, cols)] *= factor

    def dense_matrix(self) -> np.ndarray:
        """The (num_queries x |X|) 0/1 matrix; tests on small domains only."""
        return np.stack([self.values(i) for i in range(self._num_queries)]).astype(bool)
