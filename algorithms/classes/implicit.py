"""BCMNUW20 Section 2 and Algorithm 3 without the domain: classes given by how they label points.

A :class:`~algorithms.classes.finite.FiniteClass` is a |H| x |X| boolean matrix, so decision stumps on
{+-1}^p stop at p of about 20 (2^p columns). Nothing in A_PAP needs the whole domain: the cover H~ is built
from the public points (their patterns under H), and the private points enter only through the
representative map. An :class:`ImplicitClass` therefore gives the class by ``labels(points)``: the
(|H|, k) boolean matrix of H on k given points (rows of coordinates), never on X.

* The cover (:func:`build_implicit_cover`) is BCMNUW20 Algorithm 3's / Lemma 11's, for every implicit class:
  T = the distinct public points, H~ = the first hypothesis of H for every pattern in Pi_H(T), and
  Project_{H~,w}(h) for every h, exactly as :func:`algorithms.classes.cover.build_cover` (same members, same
  order, tested on the same seeds).
* The representative domain (BCMNUW20 Definition 2) of H~ and PMW over it need the class's structure. For
  a *coordinate class*, one whose every hypothesis reads a single coordinate (:class:`Stumps`, BCMNUW20
  Definition 12: h_i(x) = x_i), two points are equivalent under H~ iff they agree on the coordinates of
  H~'s members, so X_H~ = {+-1}^I for those coordinates I and the representative map is x -> x_I; PMW's
  multiplicative weights over {+-1}^I stay a product distribution (every update multiplies the weight of
  x by exp(step * 1{x_i = +1}), a function of one coordinate), which
  ``algorithms.query_release.mw_product`` keeps as one log-odds per coordinate. A_PAP and PMW on
  :class:`Stumps` run that way at any p (``algorithms.query_release.pap.a_pap``, ``pmw``).
* PMW on stumps reads the private points only through how many have x_i = +1 for every coordinate i (its true
  answers), and A_PAP through those counts on the cover's coordinates; so both also accept the private data set as
  :class:`CoordinateCounts` (n and those p counts), the same data set for them at O(p) memory whatever n is
  (the same bits as the points, tested), as ``PointCounts`` is for a dense class.

Other classes (thresholds, intervals, halfspaces) get the cover; their representative domains have no such
product structure, and on a grid small enough to enumerate the dense class does the rest.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _bits

__all__ = ["ImplicitClass", "Stumps", "CoordinateCounts", "ImplicitCover", "build_implicit_cover"]


class ImplicitClass:
    """A class H of ``num_hypotheses`` hypotheses over points with ``dim`` coordinates, given by ``labels``."""

    name = "implicit"
    num_hypotheses: int
    dim: int

    def validate_points(self, points, argname: str = "points") -> np.ndarray:
        """Points as a (k, dim) array (k >= 1); ValueError naming ``argname`` otherwise."""
        raise NotImplementedError

    def labels(self, points) -> np.ndarray:
        """The (num_hypotheses, k) boolean matrix of H on ``points`` (True = +1)."""
        raise NotImplementedError


class Stumps(ImplicitClass):
    """BCMNUW20 Definition 12: S_p = {h_i(x) = x_i : i in [p]} over {+-1}^p, for any p >= 1.

    The same class as ``constructors.decision_stumps(p)`` (hypothesis i is coordinate i) without its 2^p
    columns: points are rows of a (k, p) array with entries +-1. VC(S_p) = floor(log2 p), VC_dual(S_p) = p.
    """

    def __init__(self, p: int):
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)) or p < 1:
            raise ValueError(f"p={p!r} out of range: allowed integers >= 1")
        self.p = int(p)
        self.num_hypotheses = self.p
        self.dim = self.p
        self.name = f"stumps(p={self.p})"

    @property
    def num_points(self) -> int:
        """|{+-1}^p| = 2^p (a Python int: never allocated)."""
        return 2 ** self.p

    def coordinate_of(self, hypotheses) -> np.ndarray:
        """The coordinate each hypothesis reads (h_i reads x_i)."""
        h = np.asarray(hypotheses, dtype=np.intp)
        if h.size and (h.min() < 0 or h.max() >= self.p):
            raise ValueError(f"hypotheses must be indices in [0, {self.p})")
        return h

    def validate_points(self, points, argname: str = "points") -> np.ndarray:
        arr = np.asarray(points)
        if arr.ndim != 2 or arr.shape[1] != self.p or arr.shape[0] == 0:
            raise ValueError(f"{argname} must be a non-empty (k, {self.p}) array of +-1 points, got shape {arr.shape}")
        if not np.issubdtype(arr.dtype, np.integer) or arr.dtype == np.bool_:
            raise ValueError(f"{argname} must hold integers +-1, got dtype {arr.dtype}")
        if not np.all(np.abs(arr) == 1):
            raise ValueError(f"{argname} has an entry other than +1 or -1")
        return arr.astype(np.int8, copy=False)

    def labels(self, points) -> np.ndarray:
        return np.ascontiguousarray(self.validate_points(points).T == 1)

    def __repr__(self) -> str:
        return f"Stumps(p={self.p})"


@dataclass(frozen=True, eq=False)
class CoordinateCounts:
    """A data set of n points of {+-1}^p kept as ``ones[i]`` = |{j : x_j[i] = +1}| for every coordinate i: all
    that PMW and A_PAP on :class:`Stumps` read of a private data set (module docstring)."""

    n: int
    ones: np.ndarray

    def __post_init__(self):
        if isinstance(self.n, bool) or not isinstance(self.n, (int, np.integer)) or self.n < 1:
            raise ValueError(f"n={self.n!r} out of range: allowed integers >= 1")
        ones = np.asarray(self.ones)
        if ones.ndim != 1 or ones.size == 0 or not np.issubdtype(ones.dtype, np.integer):
            raise ValueError(f"ones must be a non-empty 1-D integer array, got shape {ones.shape} dtype {ones.dtype}")
        if ones.min() < 0 or ones.max() > self.n:
            raise ValueError(f"ones must lie in [0, n={self.n}]")
        object.__setattr__(self, "n", int(self.n))
        object.__setattr__(self, "ones", ones.astype(np.int64, copy=False))

    @property
    def dim(self) -> int:
        return int(self.ones.size)

    @classmethod
    def from_points(cls, points) -> "CoordinateCounts":
        """The counts of an (n, p) array of +-1 points."""
        pts = np.asarray(points)
        if pts.ndim != 2 or pts.shape[0] == 0:
            raise ValueError(f"points must be a non-empty (n, p) array, got shape {pts.shape}")
        return cls(int(pts.shape[0]), np.count_nonzero(pts == 1, axis=0))

    def restrict(self, coords) -> "CoordinateCounts":
        """The same data set seen on the coordinates ``coords`` only (x -> x_coords)."""
        return CoordinateCounts(self.n, self.ones[np.asarray(coords, dtype=np.intp)])


@dataclass(frozen=True, eq=False)
class ImplicitCover:
    """BCMNUW20 Algorithm 3 (the alpha-cover of Lemma 11) of an implicit class, built from public points.

    public_points: the distinct public points T (rows). members: hypothesis indices of H~, the first
    hypothesis of every pattern in Pi_H(T) (ascending). member_of: for every h in H, the index into
    ``members`` of Project_{H~,w}(h).
    """

    cls: ImplicitClass
    public_points: np.ndarray
    members: np.ndarray
    member_of: np.ndarray

    @property
    def size(self) -> int:
        return int(self.members.size)


def build_implicit_cover(cls: ImplicitClass, public_sample) -> ImplicitCover:
    """BCMNUW20 Algorithm 3 / Lemma 11 on an implicit class: the cover from the public points alone."""
    if not isinstance(cls, ImplicitClass):
        raise ValueError(f"cls must be an ImplicitClass, got {type(cls).__name__}")
    w = cls.validate_points(public_sample, "public")
    T = np.unique(w, axis=0)
    first, inverse = _bits.unique_rows(cls.labels(T))
    return ImplicitCover(cls=cls, public_points=T, members=first, member_of=inverse)
