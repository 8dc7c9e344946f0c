"""Compiled kernels for the MW engine's whole-marginal hot loop (the PMW^Pub speed goal), bit-identical to numpy.

Each kernel has a numpy twin that computes the same floating-point operations in the same order, so a
seeded run gives the same bits whichever backend runs it:

* ``scatter_answers(cells, p, num_queries)``: every marginal query's answer q(p) =
  sum_{x: cell_w(x) = q} p(x), with ``cells`` the (S, W) map of support points to query ids.
  The compiled loop walks the support once and adds p(x) to its W cells, so every query adds
  its points in increasing x, starting from 0.0: the order of the CSR product
  (``MarginalQueries.query_matrix() @ p``, column indices increasing in each row) and of the
  weighted bincount before it. Walking x-major, consecutive additions go to W different
  queries, so no addition waits for the previous one (the CSR row loop is one dependency chain
  per query): 34 us against 85 us for the reference workload's 560 x 1,480 table.
* ``gather_sums(cells, r)``: the transpose, (A^T r)(x) = sum_k r[cells[x, k]] for every support point, as
  ``r[cells].sum(axis=1)`` adds each row (numpy's pairwise sum; the public-support fit's gradient).
* ``normalise_answer_scores``: a whole-marginal round's scoring in one pass: ``p /= p.sum()``, the
  answers, and every unit's L1 error as ``np.add.reduceat`` sums it (the first term, then numpy's
  pairwise sum of the rest).
* ``bincount`` (compiled only, a building block of ``workload_updates``): ``np.bincount(cells,
  weights=p, minlength=size)`` (a workload's current marginal: adds in increasing x).
* ``scale_normalise`` (compiled only, likewise): ``p *= factors[cells]; p /= p.sum()`` in place, where
  ``p.sum()`` is numpy's pairwise summation (``pairwise_sum``: blocks of at most 128 summed with
  eight interleaved accumulators, halves split at multiples of 8, as numpy's ``pairwise_sum``
  in ``loops_utils.h.src``), so the normaliser has numpy's bits too.
* ``workload_updates``: a sequence of whole-marginal MW updates (a round's update, a replay, a fit
  pass) in one call: per unit the bincount, the factors exp((a - current) / 2) by libm's exp
  (``libm_exp``: the function both backends call; numpy's own SIMD exp may differ from it in the last
  bit on AVX-512 machines), the rescale and numpy's sum. Every unit is checked before p changes.

* ``pmw_scan`` (compiled only; its numpy twin is ``pmw._scan`` on ``mw_counts.SignedCountMW`` with NumericSparse's
  own code): PMW's whole pass, called by ``pmw._scan_compiled`` with NumericSparse's noise drawn beforehand by numpy.

Random draws never move into the kernels: they stay numpy ``Generator`` calls between them.
The compiled backend needs numba (the ``fast`` extra; ``dev`` includes it). Without it, or with
the environment variable ``PUBPRIV_NO_NUMBA=1``, or after ``set_backend("numpy")``, the numpy
twins run. numba is imported, and the kernels compiled (cached on disk by numba), on first use
only, so nothing that does not run the MW engine pays for it.
tests/algorithms/test_kernels.py holds both backends to the same bits.
"""
from __future__ import annotations

import contextlib
import math
import os

import numpy as np

__all__ = ["backend", "compact_cells", "compiled", "gather_sums", "libm_exp", "normalise_answer_scores",
           "pairwise_sum",
           "scatter_answers", "set_backend", "using", "workload_updates"]

_BACKENDS = ("auto", "numba", "numpy")
_choice = "auto"
_compiled = None      # the numba kernels once built: a dict, or False when numba is unavailable
_active = None        # the kernels the wrappers use (dict, or False for numpy), resolved once per choice


def set_backend(name: str) -> None:
    """``"auto"`` (numba when importable and ``PUBPRIV_NO_NUMBA`` is not 1), ``"numba"`` (ImportError
    if numba is missing) or ``"numpy"``."""
    global _choice, _active
    if name not in _BACKENDS:
        raise ValueError(f"backend={name!r} out of range: allowed {_BACKENDS}")
    if name == "numba" and not _build():
        raise ImportError("the numba backend needs numba: pip install numba (the 'fast' extra)")
    _choice, _active = name, None


@contextlib.contextmanager
def using(name: str):
    """``set_backend(name)`` for the ``with`` block, then the previous choice again."""
    previous = _choice
    set_backend(name)
    try:
        yield
    finally:
        set_backend(previous)


def backend() -> str:
    """The backend the kernels run on now: ``"numba"`` or ``"numpy"``."""
    return "numba" if compiled() else "numpy"


def compiled():
    """The compiled kernels (a dict: ``sum``, ``scatter``, ``bincount``, ``scale_normalise``,
    ``answer_scores``, ``workload_updates``, ``pmw_scan``) when the numba backend is active, else None. Resolved
    once per ``set_backend`` (the hot loop's check)."""
    global _active
    if _active is None:
        if _choice == "numpy" or (_choice == "auto" and os.environ.get("PUBPRIV_NO_NUMBA", "") == "1"):
            _active = False
        else:
            _active = _build()
    return _active or None


def _build():
    """Import the numba kernels on first call (numba compiles them once and caches them on disk)."""
    global _compiled
    if _compiled is None:
        try:
            from . import _kernels_nb as nb
        except ImportError:
            _compiled = False
            return _compiled
        _compiled = dict(sum=nb.array_sum, scatter=nb.scatter, bincount=nb.bincount,
                         scale_normalise=nb.scale_normalise, answer_scores=nb.normalise_answer_scores,
                         workload_updates=nb.workload_updates, pmw_scan=nb.pmw_scan, gather=nb.gather)
    return _compiled


def compact_cells(cells: np.ndarray, num_queries: int) -> np.ndarray:
    """``cells`` (S, W) as a C-contiguous uint16 / int32 array (a quarter / half of intp's memory
    traffic in ``scatter_answers``)."""
    dtype = np.uint16 if num_queries <= 1 << 16 else np.int32 if num_queries < 1 << 31 else np.int64
    return np.ascontiguousarray(cells, dtype=dtype)


def scatter_answers(cells: np.ndarray, p: np.ndarray, num_queries: int, csr=None) -> np.ndarray:
    """q(p) for every marginal query (module docstring). ``csr``: a callable returning the CSR
    0/1 matrix, used by the numpy backend (the same bits)."""
    k = compiled()
    if k is not None:
        return k["scatter"](cells, p, num_queries)
    if csr is not None:
        return csr() @ p
    S, W = cells.shape
    return np.bincount(cells.ravel(), weights=np.repeat(p, W), minlength=num_queries)


def gather_sums(cells: np.ndarray, r: np.ndarray) -> np.ndarray:
    """(A^T r)(x) = sum_k r[cells[x, k]] for every row x of the (S, W) cell map (module docstring); r one value
    per query id in ``cells`` (float64)."""
    r = np.ascontiguousarray(r, dtype=np.float64)
    k = compiled()
    if k is not None:
        out = k["gather"](cells, r)
        if out.size != cells.shape[0]:
            raise IndexError(f"a cell id is outside the {r.size} values given")
        return out
    return r[cells].sum(axis=1)


def pairwise_sum(a: np.ndarray) -> float:
    """``a.sum()`` for a contiguous 1-D float64 array, by numpy's pairwise algorithm."""
    k = compiled()
    if k is not None:
        return float(k["sum"](a))
    return float(a.sum())


def normalise_answer_scores(p: np.ndarray, cells: np.ndarray, num_queries: int, true: np.ndarray,
                            starts: np.ndarray, csr=None) -> tuple[np.ndarray, np.ndarray]:
    """``p /= p.sum()`` in place, the answers ``scatter_answers(cells, p)`` and every unit's L1 error
    ``np.add.reduceat(np.abs(answers - true), starts[:-1])``, in one compiled pass when numba is there
    (the MW round's scoring; ``starts``: intp unit offsets from 0 to num_queries in increasing steps,
    ``true`` one value per query, ``cells`` one row per point: ValueError otherwise, p untouched; the query
    ids in ``cells`` must be below num_queries, as a ``MarginalQueries.compact_cells()`` map's are)."""
    k = compiled()
    if k is not None:
        ans, scores = k["answer_scores"](p, cells, num_queries, true, starts)
        if ans.size == 0:
            raise ValueError(_SCORES_INPUT)
        return ans, scores
    if cells.shape[0] != p.size or true.shape != (num_queries,) or starts.size < 2 or starts[0] != 0 \
            or starts[-1] != num_queries or np.any(np.diff(starts) < 1):
        raise ValueError(_SCORES_INPUT)
    p /= p.sum()
    ans = scatter_answers(cells, p, num_queries, csr)
    return ans, np.add.reduceat(np.abs(ans - true), starts[:-1])


_SCORES_INPUT = ("whole-marginal scoring needs a cell map with one row per support point, one true answer per "
                 "query, and unit offsets from 0 to num_queries in increasing steps")


def libm_exp(x: np.ndarray) -> np.ndarray:
    """exp of every entry by the C library's ``exp`` (Python's ``math.exp``), the function the compiled
    kernels call: numpy's own SIMD exp (AVX-512 machines) may differ from it in the last bit, so the
    whole-marginal update's few factors per round are taken from libm in both backends."""
    return np.fromiter(map(math.exp, x.tolist()), dtype=np.float64, count=x.size)


def workload_updates(p: np.ndarray, cells2d: np.ndarray, sizes: np.ndarray, workloads: np.ndarray,
                     ma: np.ndarray, starts: np.ndarray, order: np.ndarray) -> int:
    """The whole-marginal MW updates of the measured units ``order``, one after the other, in place on p:
    unit u measured workload ``workloads[u]`` as ``ma[starts[u]:starts[u + 1]]``; each update is
    current = bincount(cells2d[w], p), p *= libm_exp((a - current) / 2)[cells2d[w]], p /= p.sum().
    Compiled: one call for the sequence. Returns 0, or j + 1 when position j of ``order`` names a unit,
    workload or measurement range out of range or not one value per cell (nothing applied then)."""
    k = compiled()
    if k is not None:
        return int(k["workload_updates"](p, cells2d, sizes, workloads, ma, starts, order))
    for j, u in enumerate(order.tolist()):
        if not 0 <= u < min(starts.size - 1, workloads.size):
            return j + 1
        w = int(workloads[u])
        if not (0 <= w < min(sizes.size, cells2d.shape[0]) and 0 <= starts[u] and starts[u + 1] <= ma.size
                and starts[u + 1] - starts[u] == sizes[w] and cells2d.shape[1] == p.size):
            return j + 1
    for u in order.tolist():
        w = int(workloads[u])
        cells = cells2d[w]
        current = np.bincount(cells, weights=p, minlength=int(sizes[w]))
        p *= libm_exp((ma[starts[u]:starts[u + 1]] - current) / 2.0)[cells]
        p /= p.sum()
    return 0
