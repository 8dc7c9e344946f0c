"""Exact distributions over finite domains, labeled versions, and Renyi divergences."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as st

from simulations import distributions as dist
from simulations import stats


def test_constructors_are_probability_vectors():
    for d in [dist.uniform(7), dist.zipf(9, 1.2), dist.point_mass_heavy(5, 2, 0.7), dist.near_threshold(20, 10, 2, 0.8),
              dist.interval_endpoints(20, 3, 15, 0.9), dist.product_bernoulli([0.2, 0.5, 0.9]),
              dist.product_signs([0.3, 0.6]),
              dist.mixture([dist.uniform(4), dist.zipf(4)], [0.3, 0.7])]:
        assert d.probs.sum() == pytest.approx(1.0) and np.all(d.probs >= 0)
        with pytest.raises(ValueError):
            d.probs[0] = 0.5  # read-only


def test_adversarial_masses_where_documented():
    d = dist.near_threshold(20, 10, 2, 0.8)
    assert d.probs[8:12].sum() == pytest.approx(0.8 + 0.2 * 4 / 20)
    e = dist.interval_endpoints(20, 3, 15, 0.9)
    assert e.probs[3] == e.probs[15] == pytest.approx(0.45 + 0.1 / 20)
    h = dist.point_mass_heavy(5, 2, 0.7)
    assert h.probs[2] == pytest.approx(0.7 + 0.3 / 5)
    z = dist.zipf(4, 1.0)
    assert z.probs == pytest.approx(np.array([1, 1 / 2, 1 / 3, 1 / 4]) / (25 / 12))


def test_product_index_convention_matches_algorithms_classes():
    """Little-endian indexing, the convention of algorithms.classes.constructors: the probability of point j is the
    product over coordinates of the law of x_i as boolean_cube / hypercube_points place it (catches a reversed bit
    order)."""
    from algorithms.classes.constructors import boolean_cube, hypercube_points

    q = np.array([0.1, 0.7, 0.4])
    cube = boolean_cube(3)
    assert dist.product_bernoulli(q).probs == pytest.approx(np.prod(np.where(cube == 1, q, 1 - q), axis=1))
    signs = hypercube_points(3)
    assert dist.product_signs(q).probs == pytest.approx(np.prod(np.where(signs == 1, q, 1 - q), axis=1))
    coords = dist.index_to_coordinates(np.arange(8), (2, 2, 2))
    assert np.array_equal(coords, cube)
    assert list(coords[6]) == [0, 1, 1]  # 6 = 0b110: bit 0 is coordinate 0
    assert np.array_equal(dist.coordinates_to_index(coords, (2, 2, 2)), np.arange(8))
    mixed = dist.index_to_coordinates(np.arange(12), (3, 4))
    assert np.array_equal(dist.coordinates_to_index(mixed, (3, 4)), np.arange(12)) and list(mixed[5]) == [2, 1]
    law = dist.product([[0.2, 0.3, 0.5], [0.1, 0.2, 0.3, 0.4]])
    assert law.probs[5] == pytest.approx(0.5 * 0.2)


def test_sample_frequencies_match_probabilities():
    """Chi-square goodness of fit at level 0.001 of 20000 samples (catches a sampler ignoring probs)."""
    d = dist.zipf(6, 1.5)
    x = d.sample(20_000, np.random.default_rng(3))
    counts = np.bincount(x, minlength=6)
    assert st.chisquare(counts, 20_000 * d.probs).pvalue > 0.001


def test_labeled_error_is_exact_and_noise_rate_is_bayes_error():
    m = dist.uniform(4)
    target = np.array([0, 0, 1, 1])
    L = dist.agnostic(m, target, 0.1)
    assert L.error(target) == pytest.approx(0.1)
    assert L.error(np.array([1, 1, 1, 1])) == pytest.approx(0.5 * 0.9 + 0.5 * 0.1)
    R = dist.realizable(m, np.array([-1, 1, 1, -1]), labels=(-1, 1))
    assert R.error(np.array([-1, 1, 1, -1])) == 0.0
    assert np.allclose(L.marginal.probs, m.probs)


def test_labeled_sample_noise_rate():
    """Empirical flip rate of 20000 agnostic samples lies in the 99.9% CP interval around it (catches noise applied
    twice)."""
    L = dist.agnostic(dist.zipf(10), np.arange(10) % 2, 0.2)
    x, y = L.sample(20_000, np.random.default_rng(5))
    flips = int(np.sum(y != (x % 2)))
    lo, hi = stats.clopper_pearson(flips, 20_000, 0.999)
    assert lo <= 0.2 <= hi


def test_renyi_divergences_exact_values():
    p = dist.Distribution(np.array([0.5, 0.5, 0.0]))
    q = dist.Distribution(np.array([0.25, 0.25, 0.5]))
    assert dist.renyi_d2(p, q) == pytest.approx(math.log(0.25 / 0.25 + 0.25 / 0.25))
    assert dist.renyi_dinf(p, q) == pytest.approx(math.log(2))
    assert dist.renyi_divergence(p, q, 1) == pytest.approx(math.log(2))  # KL
    assert dist.renyi_d2(q, p) == math.inf and dist.renyi_dinf(q, p) == math.inf  # supp(q) not in supp(p)
    assert dist.renyi_d2(q, q) == pytest.approx(0.0, abs=1e-12)


def test_renyi_monotone_in_order():
    """D_alpha is nondecreasing in alpha (Van Erven-Harremoes 2014, Thm 3)."""
    p, q = dist.zipf(8, 2.0), dist.uniform(8)
    vals = [dist.renyi_divergence(p, q, a) for a in (1, 1.5, 2, 5, np.inf)]
    assert all(a <= b + 1e-12 for a, b in zip(vals, vals[1:]))


@pytest.mark.parametrize("call",
                         [lambda: dist.uniform(0), lambda: dist.point_mass_heavy(5, 5), lambda: dist.zipf(5, -1),
                                  lambda: dist.Distribution([0.5, 0.6]),
                          lambda: dist.agnostic(dist.uniform(2), [0, 1], 0.7),
                                  lambda: dist.mixture([dist.uniform(2), dist.uniform(3)], [0.5, 0.5]),
                                  lambda: dist.interval_endpoints(10, 5, 2)])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()
