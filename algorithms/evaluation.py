"""BCMNUW20 Definitions 1 and 5: exact evaluation of query-release answers and covers on a finite domain.

A distribution D over the domain {0..N-1} is a probability vector of length N; answers
to the query class H are a vector G of length |H| with values in [-1, 1] (one per
hypothesis, in the order of the class's rows). Everything is one matrix-vector product
(chunked over hypotheses to bound memory), so these helpers scale to 10^5 x 10^4 classes.
"""

from __future__ import annotations

import numpy as np

from .classes.cover import Cover
from .classes.finite import FiniteClass

_PROB_TOL = 1e-9
_CHUNK_ENTRIES = 1 << 26  # about 64 M booleans per block


def validate_distribution(D, num_points: int, argname: str = "D") -> np.ndarray:
    """A probability vector of length ``num_points`` (float64): finite, >= 0, summing to 1 within 1e-9."""
    arr = np.asarray(D, dtype=np.float64) if not isinstance(D, np.ndarray) or D.dtype != np.float64 else D
    if arr.ndim != 1 or arr.shape[0] != num_points:
        raise ValueError(f"{argname} must be a probability vector of length num_points={num_points}, got shape "
                         f"{np.shape(D)}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{argname} has a non-finite entry; a probability vector needs finite entries in [0, 1]")
    if arr.min() < 0:
        raise ValueError(f"{argname} has a negative entry {float(arr.min())}; probabilities must be in [0, 1]")
    total = float(arr.sum())
    if abs(total - 1.0) > _PROB_TOL:
        raise ValueError(f"{argname} sums to {total!r}; a probability vector must sum to 1 (tolerance {_PROB_TOL})")
    return arr


def _as_class(cls) -> FiniteClass:
    if not isinstance(cls, FiniteClass):
        raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
    return cls


def _row_chunks(num_rows: int, num_cols: int):
    step = max(1, _CHUNK_ENTRIES // max(1, num_cols))
    for start in range(0, num_rows, step):
        yield slice(start, min(num_rows, start + step))


def positive_mass(matrix: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Pr_{x~D}[h(x) = +1] for every row h of a boolean matrix (chunked matrix-vector product)."""
    out = np.empty(matrix.shape[0], dtype=np.float64)
    for sl in _row_chunks(matrix.shape[0], matrix.shape[1]):
        out[sl] = np.einsum("ij,j->i", matrix[sl], D)    # no float copy, and no BLAS threads left spinning
    return out


def true_answers(cls: FiniteClass, D) -> np.ndarray:
    """BCMNUW20 Definition 5: E_{x~D}[h(x)] = 2 Pr_D[h(x) = +1] - 1 for every h in H (length |H|)."""
    cls = _as_class(cls)
    D = validate_distribution(D, cls.num_points)
    return np.clip(2.0 * positive_mass(cls.matrix, D) - 1.0, -1.0, 1.0)


def validate_answers(G, num_hypotheses: int, argname: str = "G") -> np.ndarray:
    """An answer vector of length |H| with finite values in [-1, 1] (nothing is clipped)."""
    arr = np.asarray(G, dtype=np.float64)
    if arr.ndim != 1 or arr.shape[0] != num_hypotheses:
        raise ValueError(f"{argname} must have one answer per hypothesis, length {num_hypotheses}, got shape "
                         f"{np.shape(G)}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{argname} has a non-finite answer; answers must be in [-1, 1]")
    lo, hi = float(arr.min()), float(arr.max())
    if lo < -1.0 or hi > 1.0:
        bad = lo if lo < -1.0 else hi
        raise ValueError(f"{argname} has the answer {bad!r}, outside the allowed range [-1, 1]")
    return arr


def true_error(cls: FiniteClass, D, G, *, truth=None) -> float:
    """BCMNUW20 Definition 5: Err_{D,H}(G) = max_{h in H} |G(h) - E_{x~D}[h(x)]|, exactly.

    ``truth``: the answers E_D h as :func:`true_answers` returned them for this (cls, D), to reuse when
    several releases are judged against one D (a Monte-Carlo trial's baselines); recomputed when omitted."""
    cls = _as_class(cls)
    G = validate_answers(G, cls.num_hypotheses)
    if truth is None:
        truth = true_answers(cls, D)
    else:
        truth = validate_answers(truth, cls.num_hypotheses, "truth")
    return float(np.max(np.abs(G - truth)))


def disagreement_mass(cover: Cover, D) -> np.ndarray:
    """BCMNUW20 Definition 1: Pr_{x~D}[h(x) != Project_{H~,w}(h)(x)] for every h in H (length |H|)."""
    if not isinstance(cover, Cover):
        raise ValueError(f"cover must be a Cover (algorithms.classes.build_cover), got {type(cover).__name__}")
    mat = cover.cls.matrix
    D = validate_distribution(D, cover.cls.num_points)
    proj = cover.members[cover.member_of]
    out = np.empty(mat.shape[0], dtype=np.float64)
    for sl in _row_chunks(mat.shape[0], mat.shape[1]):
        out[sl] = np.einsum("ij,j->i", mat[sl] != mat[proj[sl]], D)
    return out


def cover_radius(cover: Cover, D) -> float:
    """BCMNUW20 Definition 1 / Lemma 11: the exact radius max_{h in H} Pr_{x~D}[h(x) != Project(h)(x)].

    H~ is an alpha-cover of H w.r.t. D iff this is <= alpha (Lemma 11: <= alpha/4 w.p. >= 1 - beta/2).
    """
    return float(np.max(disagreement_mass(cover, D)))
