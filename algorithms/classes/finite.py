"""BCMNUW20 Section 2 (H subset of {-1,+1}^X): a finite hypothesis class over a finite domain.

The domain is X = {0, ..., N-1} (point indices); a class of |H| hypotheses is a boolean
matrix of shape (|H|, N) with ``matrix[i, x] == True`` meaning h_i(x) = +1 and False meaning
h_i(x) = -1. Query answers E_{x~D}[h(x)] live in [-1, 1] (BCMNUW20 Definition 5).

Rows may repeat (a class given as an explicit list); every combinatorial function works on
distinct rows and distinct columns, found by packing bits and hashing (``_bits``).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from . import _bits


class FiniteClass:
    """BCMNUW20 Section 2: a finite class H over the domain {0..N-1} as a boolean matrix.

    Parameters
    ----------
    matrix : boolean array (num_hypotheses, num_points); True means h(x) = +1.
    point_coords : optional array whose first axis has length num_points (the points'
        coordinates, e.g. the grid of a threshold class or the points in R^2 of halfspaces).
    name : a short human-readable name ("thresholds(N=10)").
    copy : copy the matrix (default). Constructors that built a fresh array pass False.

    The stored matrix is read-only, so cached packings stay valid.
    """

    def __init__(self, matrix, point_coords=None, name: str = "explicit", *, copy: bool = True):
        arr = np.asarray(matrix)
        if arr.dtype != np.bool_:
            raise ValueError(
                f"matrix must have dtype bool (True means h(x) = +1), got dtype {arr.dtype}; "
                "use FiniteClass.from_signs for a {-1,+1} matrix"
            )
        if arr.ndim != 2:
            raise ValueError(f"matrix must be 2-D (hypotheses x points), got shape {arr.shape}")
        if arr.shape[0] == 0:
            raise ValueError(f"matrix has no hypotheses (shape {arr.shape}); a class needs at least 1")
        if arr.shape[1] == 0:
            raise ValueError(f"matrix has no points (shape {arr.shape}); a domain needs at least 1")
        arr = np.array(arr, dtype=bool, order="C", copy=True) if copy else np.ascontiguousarray(arr)
        arr.flags.writeable = False
        self._matrix = arr
        if point_coords is not None:
            coords = np.asarray(point_coords)
            if coords.ndim == 0 or coords.shape[0] != arr.shape[1]:
                raise ValueError(
                    f"point_coords must have first axis of length num_points={arr.shape[1]}, "
                    f"got shape {coords.shape}"
                )
            coords = coords.copy()
            coords.flags.writeable = False
            self._point_coords = coords
        else:
            self._point_coords = None
        if not isinstance(name, str):
            raise ValueError(f"name must be a str, got {name!r}")
        self.name = name

    # ----------------------------------------------------------------- constructors
    @classmethod
    def from_signs(cls, values, point_coords=None, name: str = "explicit") -> "FiniteClass":
        """A class from a {-1,+1} matrix (hypotheses x points); other values raise ValueError."""
        v = np.asarray(values)
        if v.size and not np.isin(v, (-1, 1)).all():
            bad = v[~np.isin(v, (-1, 1))].flat[0]
            raise ValueError(f"values must be in {{-1, +1}}, found {bad!r}")
        return cls(v == 1, point_coords=point_coords, name=name, copy=False)

    # ----------------------------------------------------------------- basic views
    @property
    def matrix(self) -> np.ndarray:
        """Read-only boolean (num_hypotheses, num_points) matrix; True means h(x) = +1."""
        return self._matrix

    @property
    def point_coords(self):
        return self._point_coords

    @property
    def num_hypotheses(self) -> int:
        return self._matrix.shape[0]

    @property
    def num_points(self) -> int:
        return self._matrix.shape[1]

    @property
    def shape(self) -> tuple[int, int]:
        return self._matrix.shape

    def signs(self) -> np.ndarray:
        """The class as an int8 {-1,+1} matrix (hypotheses x points)."""
        return self._matrix.astype(np.int8) * np.int8(2) - np.int8(1)

    def __len__(self) -> int:
        return self.num_hypotheses

    def __repr__(self) -> str:
        return f"FiniteClass(name={self.name!r}, num_hypotheses={self.num_hypotheses}, num_points={self.num_points})"

    # ----------------------------------------------------------------- packed / hashed
    @cached_property
    def packed_rows(self) -> np.ndarray:
        """uint8 (num_hypotheses, ceil(N/8)): each hypothesis's labels as packed bits."""
        out = _bits.pack_rows(self._matrix)
        out.flags.writeable = False
        return out

    @cached_property
    def _distinct_rows(self) -> tuple[np.ndarray, np.ndarray]:
        return _bits.unique_packed_rows(self.packed_rows)

    @cached_property
    def _distinct_columns(self) -> tuple[np.ndarray, np.ndarray]:
        return _bits.unique_columns(self._matrix)

    def distinct_rows(self) -> tuple[np.ndarray, np.ndarray]:
        """Distinct hypotheses: ``(first, inverse)``; ``first[g]`` = first hypothesis of group g
        (groups numbered by first occurrence), ``inverse[i]`` = group of hypothesis i."""
        first, inverse = self._distinct_rows
        return first.copy(), inverse.copy()

    def distinct_columns(self) -> tuple[np.ndarray, np.ndarray]:
        """Distinct points (columns): ``(first, inverse)`` as in :meth:`distinct_rows`."""
        first, inverse = self._distinct_columns
        return first.copy(), inverse.copy()

    @property
    def num_distinct_hypotheses(self) -> int:
        return int(self._distinct_rows[0].size)

    @property
    def num_distinct_points(self) -> int:
        return int(self._distinct_columns[0].size)

    # ----------------------------------------------------------------- sub-classes
    def restrict(self, hypotheses=None, points=None, name: str | None = None) -> "FiniteClass":
        """The sub-matrix on the given hypothesis indices and/or point indices (validated).

        Restricting the points gives a class over the new domain {0..len(points)-1}.
        """
        h = np.arange(self.num_hypotheses) if hypotheses is None else validate_indices(
            hypotheses, self.num_hypotheses, "hypotheses")
        x = None if points is None else validate_indices(points, self.num_points, "points")
        sub = self._matrix[h] if x is None else np.take(self._matrix[h], x, axis=1)
        coords = self._point_coords if (x is None or self._point_coords is None) else self._point_coords[x]
        return FiniteClass(sub, point_coords=coords, name=name or f"{self.name}|restricted", copy=False)

    def dual(self, name: str | None = None) -> "FiniteClass":
        """BCMNUW20 Definition 2 (dual class): points become hypotheses, x -> (h -> h(x))."""
        return FiniteClass(self._matrix.T, name=name or f"dual({self.name})", copy=True)


def validate_indices(indices, upper: int, argname: str, *, allow_empty: bool = False) -> np.ndarray:
    """Integer indices in [0, upper) as an intp array; ValueError naming ``argname`` otherwise."""
    arr = np.asarray(indices)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"{argname} must be a 1-D sequence of indices, got shape {arr.shape}")
    if arr.size == 0:
        if allow_empty:
            return arr.astype(np.intp)
        raise ValueError(f"{argname} is empty; at least one index in [0, {upper}) is required")
    if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
        raise ValueError(f"{argname} must be integer indices in [0, {upper}), got dtype {arr.dtype}")
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi >= upper:
        bad = lo if lo < 0 else hi
        raise ValueError(f"{argname} contains {bad}, outside the domain [0, {upper})")
    return arr.astype(np.intp, copy=False)


def validate_index(x, upper: int, argname: str) -> int:
    """One index in [0, upper) as an int: ``validate_indices([x])``'s check and errors, with an integer in range
    (the online learners' per-query call) accepted without building an array."""
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool) and 0 <= x < upper:
        return int(x)
    return int(validate_indices(np.array([x]), upper, argname)[0])


class PointCounts:
    """A data set over the domain {0..N-1} given by how often each point occurs.

    ``PointCounts(counts)`` is the same data set as the point indices
    ``np.repeat(np.arange(N), counts)`` (a multiset: algorithms that read their data only through its
    histogram, such as PMW's true answers and A_PAP's representative map, cannot tell the two apart),
    at O(N) memory instead of O(n). Monte-Carlo trials draw an i.i.d. sample of size n as
    ``rng.multinomial(n, D)`` and pass it in this form. ``counts``: non-negative integers, one per point,
    summing to n >= 1 (read-only int64 copy).
    """

    __slots__ = ("counts", "n")

    def __init__(self, counts):
        arr = np.asarray(counts)
        if arr.ndim != 1 or arr.size == 0:
            raise ValueError(f"counts must be a non-empty 1-D array (one count per point), got shape {arr.shape}")
        if arr.dtype == np.bool_ or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"counts must be non-negative integers, got dtype {arr.dtype}")
        arr = np.array(arr, dtype=np.int64)
        if int(arr.min()) < 0:
            raise ValueError(f"counts contains {int(arr.min())}; counts must be non-negative")
        arr.setflags(write=False)
        self.counts = arr
        self.n = int(arr.sum())

    @property
    def num_points(self) -> int:
        return int(self.counts.size)

    def indices(self) -> np.ndarray:
        """The data set as sorted point indices (O(n) memory: for algorithms that read single points)."""
        return np.repeat(np.arange(self.num_points, dtype=np.intp), self.counts)

    def __repr__(self) -> str:
        return f"PointCounts(n={self.n}, num_points={self.num_points})"


def as_counts(data, num_points: int, argname: str) -> PointCounts:
    """A data set (point indices in [0, num_points), or :class:`PointCounts` over that domain) as its counts;
    ValueError naming ``argname`` when it is empty or lies outside the domain."""
    if isinstance(data, PointCounts):
        if data.num_points != num_points:
            raise ValueError(f"{argname} counts cover {data.num_points} points, the domain has {num_points}")
        if data.n < 1:
            raise ValueError(f"{argname} is empty (its counts sum to 0); at least one point is required")
        return data
    idx = validate_indices(data, num_points, argname)
    return PointCounts(np.bincount(idx, minlength=num_points))
