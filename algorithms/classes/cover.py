"""BCMNUW20 Algorithm 3 (steps 1-4) and Lemma 11: the public cover, Definition 2 (representative
domain) and Project_{H~,w}.

All steps are array operations on packed, hashed bits (see ``_bits``):

* Pi_H(T): the columns of the public points T, packed per hypothesis, grouped by hash;
* H~: the first hypothesis of every group (one hypothesis per distinct pattern);
* X_H~: the columns of H~ over the whole domain, packed per point, grouped by hash;
  the smallest point of every group is its representative.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from . import _bits
from .finite import FiniteClass, PointCounts, as_counts, validate_indices


def _as_class(cls) -> FiniteClass:
    if not isinstance(cls, FiniteClass):
        raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
    return cls


@dataclass(frozen=True, eq=False)
class Projection:
    """BCMNUW20 Algorithm 3: Pi_H(T) = {(h(w^_1), ..., h(w^_m^)) : h in H}.

    cls : the class H.
    points : the distinct points T = (w^_1 < ... < w^_m^) of the sample, ascending.
    pattern_of : (num_hypotheses,) the pattern of each hypothesis (patterns numbered by
        first occurrence).
    first_hypothesis : (num_patterns,) the first hypothesis having each pattern.
    patterns : bool (num_patterns, m^), the distinct patterns (computed on first use).
    """

    cls: FiniteClass
    points: np.ndarray
    pattern_of: np.ndarray
    first_hypothesis: np.ndarray

    @property
    def size(self) -> int:
        """|Pi_H(T)|."""
        return int(self.first_hypothesis.size)

    @cached_property
    def patterns(self) -> np.ndarray:
        return np.take(self.cls.matrix[self.first_hypothesis], self.points, axis=1)


def _pattern_keys(cls: FiniteClass, points: np.ndarray) -> np.ndarray:
    """Packed bytes per hypothesis that are equal iff the hypotheses agree on ``points``.

    Few points: gather their columns and pack them. Many points (|T| >= N/16): AND the
    class's cached packed rows with a packed mask of T, which avoids the column gather.
    """
    if points.size * 16 >= cls.num_points:
        mask = np.zeros(cls.num_points, dtype=bool)
        mask[points] = True
        return cls.packed_rows & np.packbits(mask)[None, :]
    return _bits.pack_rows(np.take(cls.matrix, points, axis=1))


def projection(cls: FiniteClass, sample) -> Projection:
    """BCMNUW20 Algorithm 3: the projection Pi_H(T) of the class onto the distinct points of ``sample``.

    ``sample`` is a sequence of point indices in [0, N), repetitions allowed.
    """
    cls = _as_class(cls)
    sample = validate_indices(sample, cls.num_points, "sample")
    points = np.unique(sample)
    first, inverse = _bits.unique_packed_rows(_pattern_keys(cls, points))
    return Projection(cls=cls, points=points, pattern_of=inverse, first_hypothesis=first)


@dataclass(frozen=True, eq=False)
class RepresentativeDomain:
    """BCMNUW20 Definition 2: X_H~, one representative per class of x ~ x' iff h(x) = h(x') for all h in H~.

    representatives : point indices of X_H~, ascending; each is the smallest point of its group.
    group_of : (N,) for every domain point, the index (into ``representatives``) of its group.
    """

    representatives: np.ndarray
    group_of: np.ndarray

    @property
    def size(self) -> int:
        """|X_H~|."""
        return int(self.representatives.size)

    @property
    def point_to_representative(self) -> np.ndarray:
        """(N,) the representative X_H~(x) of every domain point x (a point index)."""
        return self.representatives[self.group_of]

    def map(self, points) -> np.ndarray:
        """BCMNUW20 Section 2 notation: X_H~(x_1..x_n) = (X_H~(x_1), ..., X_H~(x_n)) as point indices."""
        x = validate_indices(points, self.group_of.size, "points")
        return self.representatives[self.group_of[x]]

    def map_to_index(self, points) -> np.ndarray:
        """Like :meth:`map`, but as indices 0..|X_H~|-1 into ``representatives`` (the reduced domain)."""
        x = validate_indices(points, self.group_of.size, "points")
        return self.group_of[x]

    def map_counts(self, data) -> PointCounts:
        """X_H~ applied to a data set given as point indices or :class:`PointCounts` over the full domain:
        the counts of its images in the reduced domain (index i counts the points whose representative
        is ``representatives[i]``), without expanding the data set."""
        x = as_counts(data, self.group_of.size, "points")
        if x.n >= 1 << 53:  # the float64 sums of np.bincount's weights are exact below 2^53
            raise ValueError(f"points: n={x.n} must be < 2^53")
        reduced = np.bincount(self.group_of, weights=x.counts, minlength=self.representatives.size)
        return PointCounts(np.rint(reduced).astype(np.int64))


def representative_domain(cls: FiniteClass) -> RepresentativeDomain:
    """BCMNUW20 Definition 2: the representative domain of a finite class (distinct columns).

    Claim 3 bounds its size by (e |H~| / VC_dual(H~))^VC_dual(H~).
    """
    cls = _as_class(cls)
    first, inverse = cls.distinct_columns()
    return RepresentativeDomain(representatives=first, group_of=inverse)


@dataclass(frozen=True, eq=False)
class Cover:
    """BCMNUW20 Algorithm 3 (the alpha-cover of Lemma 11): one hypothesis of H per pattern in Pi_H(T).

    cls : the class H.
    public_points : the distinct public points T, ascending.
    members : hypothesis indices (into H) of H~, one per pattern; the first hypothesis
        having the pattern (so ``members`` is ascending).
    member_of : (num_hypotheses,) for each h in H, the index into ``members`` of
        Project_{H~,w}(h), the member agreeing with h on every public point.
    patterns : bool (|H~|, |T|), the pattern of each member on the public points
        (computed on first use).
    """

    cls: FiniteClass
    public_points: np.ndarray
    members: np.ndarray
    member_of: np.ndarray

    @cached_property
    def patterns(self) -> np.ndarray:
        return np.take(self.cls.matrix[self.members], self.public_points, axis=1)

    @property
    def size(self) -> int:
        """|H~| = |Pi_H(T)|."""
        return int(self.members.size)

    def project(self, hypotheses) -> np.ndarray:
        """BCMNUW20 Algorithm 3: Project_{H~,w}(h) for hypothesis indices h of H.

        Returns hypothesis indices (into H) of the cover members; an int for an int input.
        """
        scalar = np.ndim(hypotheses) == 0
        h = validate_indices(hypotheses, self.cls.num_hypotheses, "hypotheses")
        out = self.members[self.member_of[h]]
        return int(out[0]) if scalar else out

    def project_labels(self, labels) -> np.ndarray:
        """BCMNUW20 Algorithm 3: Project_{H~,w} for hypotheses given as boolean label rows.

        ``labels`` is bool (N,) or (k, N) over the whole domain (or (|T|,) / (k, |T|) on the
        public points only). Returns indices into ``members``. A row whose pattern on the
        public points is not in Pi_H(T) (so the hypothesis is not in H) raises ValueError.
        """
        arr = np.asarray(labels)
        if arr.dtype != np.bool_:
            raise ValueError(f"labels must have dtype bool, got {arr.dtype}")
        single = arr.ndim == 1
        arr = np.atleast_2d(arr)
        if arr.ndim != 2 or arr.shape[1] not in (self.cls.num_points, self.public_points.size):
            raise ValueError(
                f"labels must have last axis num_points={self.cls.num_points} or "
                f"|T|={self.public_points.size}, got shape {np.shape(labels)}"
            )
        on_t = arr if arr.shape[1] == self.public_points.size and arr.shape[1] != self.cls.num_points \
            else np.take(arr, self.public_points, axis=1)
        found = self._find_patterns(_bits.pack_rows(on_t))
        missing = np.flatnonzero(found < 0)
        if missing.size:
            raise ValueError(
                f"labels row {int(missing[0])} has a pattern on the public points that no hypothesis of H has")
        return found[0] if single else found

    def _find_patterns(self, keys: np.ndarray) -> np.ndarray:
        """Index into ``members`` of each packed pattern row in ``keys`` (-1 if absent); exact."""
        members_packed = _bits.pack_rows(self.patterns)
        hm = _bits.hash_packed(members_packed)
        order = np.argsort(hm, kind="stable")
        hq = _bits.hash_packed(keys)
        pos = np.minimum(np.searchsorted(hm[order], hq), order.size - 1)
        cand = order[pos]
        ok = (hm[cand] == hq) & (members_packed[cand] == keys).all(axis=1)
        found = np.where(ok, cand, -1)
        retry = np.flatnonzero(~ok)
        if retry.size:  # absent, or a hash shared by two member patterns: exact look-up
            table = {row.tobytes(): j for j, row in enumerate(members_packed)}
            found[retry] = [table.get(keys[i].tobytes(), -1) for i in retry]
        return found

    def matrix(self) -> np.ndarray:
        """H~ over the whole domain: bool (|H~|, N)."""
        return self.cls.matrix[self.members]

    def member_class(self) -> FiniteClass:
        """H~ as a FiniteClass over the whole domain {0..N-1}."""
        return FiniteClass(self.matrix(), point_coords=self.cls.point_coords,
                           name=f"cover({self.cls.name}, |T|={self.public_points.size})", copy=False)

    @cached_property
    def _representative_domain(self) -> RepresentativeDomain:
        if self.members.size == self.cls.num_hypotheses:  # H~ = H: reuse the class's cache
            first, inverse = self.cls.distinct_columns()
        else:
            first, inverse = _bits.unique_columns(self.matrix())
        return RepresentativeDomain(representatives=first, group_of=inverse)

    def representative_domain(self) -> RepresentativeDomain:
        """BCMNUW20 Definition 2: X_H~ for the cover H~ (computed once, then cached)."""
        return self._representative_domain

    def reduced_matrix(self) -> np.ndarray:
        """H~ on X_H~: bool (|H~|, |X_H~|), the (query class x domain) input of PMW in Algorithm 3."""
        reps = self.representative_domain().representatives
        return np.take(self.cls.matrix[self.members], reps, axis=1)


def build_cover(cls: FiniteClass, public_sample) -> Cover:
    """BCMNUW20 Algorithm 3 / Lemma 11: the cover H~ of H from the public sample w (repetitions allowed).

    T = distinct points of w; H~ holds the first hypothesis of H for every pattern in Pi_H(T);
    ``member_of`` gives Project_{H~,w}(h) for every h in H. By Lemma 11, for
    m = O((d log(1/alpha) + log(1/beta)) / alpha) i.i.d. public points H~ is an alpha/4-cover
    of H w.r.t. D with probability at least 1 - beta/2.
    """
    proj = projection(cls, public_sample)
    return Cover(cls=cls, public_points=proj.points, members=proj.first_hypothesis,
                 member_of=proj.pattern_of)
