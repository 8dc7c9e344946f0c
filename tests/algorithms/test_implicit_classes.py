"""Decision stumps without their domain (``algorithms.classes.implicit.Stumps``): the cover, PMW and A_PAP run
from the points alone and agree with the dense class ``constructors.decision_stumps(p)`` where 2^p fits."""
import numpy as np
import pytest

from algorithms.classes import build_cover, constructors
from algorithms.classes.implicit import Stumps, build_implicit_cover
from algorithms.query_release.mw import MatrixQueries, MWDistribution
from algorithms.query_release.mw_product import CoordinateQueries, ProductMWDistribution
from algorithms.query_release.pap import a_pap
from algorithms.query_release.pmw import pmw


def _biased_indices(p, size, rng):
    """Point indices of {+-1}^p drawn from a product law with strong biases (so PMW updates)."""
    pts = constructors.hypercube_points(p)
    mu = rng.uniform(-0.9, 0.9, size=p)
    x = np.where(rng.random((size, p)) < (1 + mu) / 2, 1, -1).astype(np.int8)
    bits = ((1 - x) // 2).astype(np.int64)
    idx = (bits << np.arange(p)).sum(axis=1)
    assert np.array_equal(pts[idx], x)
    return idx, x


@pytest.mark.parametrize("seed", range(5))
def test_implicit_cover_equals_the_dense_cover(seed):
    """Catches a cover that keeps another member per pattern, or projects h to the wrong member."""
    rng = np.random.default_rng(seed)
    p = 9
    idx, x = _biased_indices(p, int(rng.integers(1, 12)), rng)
    dense = build_cover(constructors.decision_stumps(p), idx)
    imp = build_implicit_cover(Stumps(p), x)
    assert np.array_equal(dense.members, imp.members) and np.array_equal(dense.member_of, imp.member_of)


def test_product_mw_is_the_dense_mw_distribution():
    """The product form is exact: after random updates its answers equal the dense distribution's."""
    k = 7
    rng = np.random.default_rng(3)
    dense_q = MatrixQueries(constructors.decision_stumps(k).matrix)
    prod_q = CoordinateQueries(np.arange(k), k)
    dense, prod = MWDistribution.uniform(2 ** k), ProductMWDistribution(k)
    for _ in range(40):
        i, step = int(rng.integers(k)), float(rng.normal())
        dense.update_query(dense_q, i, step)
        prod.update_query(prod_q, i, step)
    assert np.allclose(dense.answer(dense_q), prod.answer(prod_q), rtol=0, atol=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_pmw_on_stumps_without_the_domain_matches_the_dense_class(seed):
    """Same NumericSparse decisions (the update sequence) and answers to float32 rounding of the dense engine."""
    p = 10
    rng = np.random.default_rng(seed)
    idx, x = _biased_indices(p, 4000, rng)
    args = (0.3, 0.1, 1.0, 1e-6)
    d = pmw(idx, constructors.decision_stumps(p), *args, np.random.default_rng(100 + seed)).value
    s = pmw(x, Stumps(p), *args, np.random.default_rng(100 + seed)).value
    assert d.num_updates > 0
    assert d.parameters == s.parameters
    assert np.array_equal(d.update_queries, s.update_queries) and d.halted == s.halted
    assert np.allclose(d.answers, s.answers, rtol=0, atol=1e-6)


@pytest.mark.parametrize("seed", range(3))
def test_a_pap_on_stumps_without_the_domain_matches_the_dense_class(seed):
    """Catches a representative map that keeps the wrong coordinates (the updates and answers would differ)."""
    p = 10
    rng = np.random.default_rng(seed)
    idx, x = _biased_indices(p, 6000, rng)
    widx, w = _biased_indices(p, 6, rng)
    args = (0.4, 0.1, 1.0, 1e-6)
    d = a_pap(idx, widx, constructors.decision_stumps(p), *args, np.random.default_rng(seed)).value
    s = a_pap(x, w, Stumps(p), *args, np.random.default_rng(seed)).value
    assert 1 < d.cover.size < p and d.pmw.num_updates > 0
    assert np.array_equal(d.cover.members, s.cover.members)
    assert d.reduced_class.num_points == s.reduced_class.num_points
    assert np.array_equal(d.pmw.update_queries, s.pmw.update_queries)
    assert np.allclose(d.answers, s.answers, rtol=0, atol=1e-6)


def test_a_pap_runs_on_stumps_at_p_2000():
    """The size the tracing attack needs: 2p x 2^p would be 10^600 cells; here O(n p)."""
    rng = np.random.default_rng(0)
    p, n, m = 2000, 400, 30
    mu = rng.uniform(-0.5, 0.5, size=p)
    draw = lambda k: np.where(rng.random((k, p)) < (1 + mu) / 2, 1, -1).astype(np.int8)  # noqa: E731
    rel = a_pap(draw(n), draw(m), Stumps(p), 0.3, 0.1, 1.0, 1e-6, rng)
    out = rel.value
    assert out.answers.shape == (p,) and np.all(np.abs(out.answers) <= 1)
    assert out.cover.size == out.domain.size == out.reduced_class.p
    assert out.pmw.parameters.domain_size == 2 ** out.cover.size
    assert out(7) == out.answers[7] and np.array_equal(out([1, 2]), out.answers[[1, 2]])
    with pytest.raises(ValueError, match="index"):
        out.answer_labels(np.ones(p, dtype=bool))


def test_stumps_refuse_bad_points():
    S = Stumps(4)
    for bad in (np.zeros((2, 4), dtype=np.int8), np.ones((2, 3), dtype=np.int8), np.ones((0, 4), dtype=np.int8),
                np.ones((2, 4)), np.ones(4, dtype=np.int8)):
        with pytest.raises(ValueError):
            S.validate_points(bad)
    with pytest.raises(ValueError):
        Stumps(0)


@pytest.mark.parametrize("seed", [0, 1])
def test_pmw_and_a_pap_on_coordinate_counts_release_the_points_bits(seed):
    """PMW and A_PAP on Stumps read the private points only through their per-coordinate counts, so the data set
    given as ``CoordinateCounts`` releases the same bits as the points (p = 300: beyond the dense class), with a
    skewed law so that PMW updates. Catches counts read on the wrong coordinates (A_PAP restricted to other than
    the cover's coordinates) or a true answer not divided by n."""
    from algorithms.classes.implicit import CoordinateCounts

    rng = np.random.default_rng(seed)
    p, n = 300, 400
    bias = np.where(np.arange(p) % 3 == 0, 0.9, 0.3)
    x = np.where(rng.random((n, p)) < bias, 1, -1).astype(np.int8)
    w = np.where(rng.random((12, p)) < bias, 1, -1).astype(np.int8)
    counts = CoordinateCounts.from_points(x)
    a = pmw(x, Stumps(p), 0.3, 0.1, 1.0, 1e-6, np.random.default_rng(7)).value
    b = pmw(counts, Stumps(p), 0.3, 0.1, 1.0, 1e-6, np.random.default_rng(7)).value
    assert np.array_equal(a.answers, b.answers) and a.num_updates == b.num_updates
    a = a_pap(x, w, Stumps(p), 0.3, 0.1, 1.0, 1e-6, np.random.default_rng(8)).value
    b = a_pap(counts, w, Stumps(p), 0.3, 0.1, 1.0, 1e-6, np.random.default_rng(8)).value
    assert np.array_equal(a.answers, b.answers) and np.array_equal(a.domain, b.domain)
    with pytest.raises(ValueError, match="coordinates"):
        pmw(CoordinateCounts(n, counts.ones[:-1]), Stumps(p), 0.3, 0.1, 1.0, 1e-6, np.random.default_rng(7))
    with pytest.raises(ValueError, match="ones"):
        CoordinateCounts(2, np.array([3]))
