"""A data set kept as its histogram (``PointCounts``) is the same data set as its point indices for the
algorithms that read data only through counts: PMW and A_PAP release the same bits on the same seeds."""
import numpy as np
import pytest

from algorithms.classes import FiniteClass, PointCounts, as_counts, build_cover, constructors
from algorithms.query_release.pap import a_pap
from algorithms.query_release.pmw import pmw


def _data(N, n, seed):
    rng = np.random.default_rng(seed)
    probs = rng.dirichlet(np.full(N, 0.3))
    counts = rng.multinomial(n, probs)
    return PointCounts(counts), np.repeat(np.arange(N), counts)


@pytest.mark.parametrize("seed", range(4))
def test_pmw_on_counts_releases_the_same_bits_as_on_indices(seed):
    """Catches a counts path that reads n, the true answers or the noise stream differently."""
    cls = constructors.thresholds(64)
    counts, idx = _data(64, 3000, seed)
    a = pmw(counts, cls, 0.2, 0.1, 1.0, 1e-6, np.random.default_rng(100 + seed)).value
    b = pmw(idx[np.random.default_rng(seed).permutation(idx.size)], cls, 0.2, 0.1, 1.0, 1e-6,
            np.random.default_rng(100 + seed)).value
    assert np.array_equal(a.answers, b.answers) and np.array_equal(a.update_queries, b.update_queries)
    assert a.parameters == b.parameters


@pytest.mark.parametrize("kind", ["thresholds", "stumps"])
def test_a_pap_on_counts_releases_the_same_bits_as_on_indices(kind):
    """Catches a representative map on counts that sends a point to the wrong reduced cell."""
    cls = constructors.thresholds(128) if kind == "thresholds" else constructors.decision_stumps(6)
    N = cls.num_points
    for seed in range(3):
        counts, idx = _data(N, 5000, seed)
        w = np.random.default_rng(50 + seed).integers(0, N, size=40)
        a = a_pap(counts, w, cls, 0.3, 0.1, 1.0, 1e-6, np.random.default_rng(seed)).value
        assert a.pmw.num_updates > 0            # the private data reach the answers
        # the reference: Algorithm 3's steps on the expanded sample, point by point
        cover = build_cover(cls, w)
        reduced = FiniteClass(cover.reduced_matrix())
        s = cover.representative_domain().map_to_index(idx)
        ref = pmw(s, reduced, 0.15, 0.05, 1.0, 1e-6, np.random.default_rng(seed)).value
        assert np.array_equal(a.answers, ref.answers[cover.member_of])
        assert np.array_equal(a.pmw.update_queries, ref.update_queries)


def test_point_counts_refuses_bad_counts():
    for bad in ([], [[1, 2]], [1.0, 2.0], [True, False], [1, -1]):
        with pytest.raises(ValueError):
            PointCounts(bad)
    with pytest.raises(ValueError, match="domain has 5"):
        as_counts(PointCounts([1, 2, 3]), 5, "data")
    with pytest.raises(ValueError, match="empty"):
        as_counts(PointCounts([0, 0]), 2, "data")
    assert as_counts([0, 2, 2], 3, "data").counts.tolist() == [1, 0, 2]
