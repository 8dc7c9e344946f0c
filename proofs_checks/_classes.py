"""Small finite classes for the exhaustive checks (BCMNUW20 Section 2, ABM19 Lemma 3.3, NB20 Claim 10).

Every family is built with :mod:`algorithms.classes`; the random ones from fixed seeds, so the
checks are deterministic. Sizes are kept small (the checks enumerate all point subsets).
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from algorithms.classes import (FiniteClass, build_cover, decision_stumps, explicit, intervals,
                                point_functions, random_class, thresholds)
from algorithms.classes.combinatorics import dual_vc_dimension, growth_function, vc_dimension


@lru_cache(maxsize=1)
def small_classes() -> tuple[FiniteClass, ...]:
    """Structured classes (thresholds, intervals, point functions, decision stumps) and 12 random ones."""
    out = [thresholds(n) for n in (3, 5, 7)]
    out += [intervals(n) for n in (4, 6)]
    out += [point_functions(n) for n in (4, 6)]
    out += [decision_stumps(p) for p in (2, 3, 4)]
    rng = np.random.default_rng(20200712)
    for h, n in [(4, 5), (6, 6), (8, 6), (10, 7), (12, 7), (16, 8)] * 2:
        out.append(random_class(h, n, rng))
    return tuple(out)


@lru_cache(maxsize=None)
def vc(cls: FiniteClass) -> int:
    return vc_dimension(cls).value


@lru_cache(maxsize=None)
def dual_vc(cls: FiniteClass) -> int:
    return dual_vc_dimension(cls).value


@lru_cache(maxsize=None)
def growth(cls: FiniteClass, k: int) -> int:
    return growth_function(cls, k).value


def delta_class(cls: FiniteClass) -> FiniteClass:
    """ABM19 Lemma 3.3 / NB20 Claim 10: H_Delta = {h1 XOR h2 : h1, h2 in H} (distinct rows)."""
    m = cls.matrix
    rows, _ = cls.distinct_rows()
    m = m[rows]
    x = (m[:, None, :] ^ m[None, :, :]).reshape(-1, m.shape[1])
    x = np.unique(x, axis=0)
    return explicit(x, name=f"delta({cls.name})")


@lru_cache(maxsize=1)
def covers() -> tuple[tuple[FiniteClass, FiniteClass, int], ...]:
    """(H, H~, m) for public samples of several sizes m drawn uniformly (with repeats) from each class's domain."""
    rng = np.random.default_rng(11)
    out = []
    for cls in small_classes():
        for m in (1, 2, 3, 5, 8):
            w = rng.integers(0, cls.num_points, size=m)
            cov = build_cover(cls, w)
            out.append((cls, cov, m))
    return tuple(out)
