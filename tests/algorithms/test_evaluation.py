"""BCMNUW20 Definitions 1 and 5: exact true answers, true error and cover radius."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from algorithms.classes import FiniteClass, build_cover, thresholds
from algorithms.evaluation import (cover_radius, disagreement_mass, true_answers, true_error,
                                   validate_distribution)

matrices = st.tuples(st.integers(1, 20), st.integers(1, 15)).flatmap(lambda s: hnp.arrays(np.bool_, s))


def _dist(data, n):
    w = np.array(data.draw(st.lists(st.floats(0, 1), min_size=n, max_size=n)))
    if w.sum() == 0:
        w[0] = 1.0
    return w / w.sum()


@settings(max_examples=150, deadline=None)
@given(matrices, st.data())
def test_true_answers_and_error_equal_the_definition_computed_by_loops(m, data):
    """E_D[h] = sum_x D(x) h(x) with h in {-1,+1}; Err = max_h |G(h) - E_D[h]|."""
    cls = FiniteClass(m)
    d = _dist(data, m.shape[1])
    g = np.array(data.draw(st.lists(st.floats(-1, 1), min_size=m.shape[0], max_size=m.shape[0])))
    expect = np.array([sum(d[x] * (1 if m[i, x] else -1) for x in range(m.shape[1])) for i in range(m.shape[0])])
    assert np.allclose(true_answers(cls, d), expect, atol=1e-12)
    assert true_error(cls, d, g) == pytest.approx(max(abs(g[i] - expect[i]) for i in range(m.shape[0])), abs=1e-12)
    assert true_error(cls, d, true_answers(cls, d)) == 0.0


@settings(max_examples=150, deadline=None)
@given(matrices, st.data())
def test_cover_radius_equals_max_disagreement_with_project(m, data):
    """Definition 1: radius = max_h Pr_D[h(x) != Project(h)(x)], Project agreeing on the public points."""
    cls = FiniteClass(m)
    d = _dist(data, m.shape[1])
    sample = data.draw(st.lists(st.integers(0, m.shape[1] - 1), min_size=1, max_size=20))
    cover = build_cover(cls, sample)
    proj = cover.project(np.arange(m.shape[0]))
    expect = [sum(d[x] for x in range(m.shape[1]) if m[i, x] != m[proj[i], x]) for i in range(m.shape[0])]
    assert np.allclose(disagreement_mass(cover, d), expect, atol=1e-12)
    assert cover_radius(cover, d) == pytest.approx(max(expect), abs=1e-12)
    # the public points carry no disagreement: moving all mass there gives radius 0
    on_public = np.zeros(m.shape[1])
    on_public[cover.public_points] = 1.0 / cover.public_points.size
    assert cover_radius(cover, on_public) == 0.0


def test_cover_of_all_points_has_radius_zero_and_empty_cover_would_not():
    cls = thresholds(8)
    assert cover_radius(build_cover(cls, np.arange(8)), np.full(8, 1 / 8)) == 0.0
    assert cover_radius(build_cover(cls, [0]), np.full(8, 1 / 8)) == pytest.approx(7 / 8)


@pytest.mark.parametrize("d, word", [
    (np.full(7, 1 / 7), "length"),
    (np.array([0.5, 0.5, 0.1, -0.1, 0, 0, 0, 0]), "negative"),
    (np.array([0.5, 0.6, 0, 0, 0, 0, 0, 0]), "sums to"),
    (np.array([np.nan] * 8), "non-finite"),
    (np.full((2, 4), 1 / 8), "length"),
])
def test_bad_distribution_raises_value_error_naming_d(d, word):
    cls = thresholds(8)
    with pytest.raises(ValueError, match="D") as err:
        true_answers(cls, d)
    assert word in str(err.value)
    with pytest.raises(ValueError, match="D"):
        cover_radius(build_cover(cls, [1]), d)


@pytest.mark.parametrize("g, word", [
    (np.zeros(8), "length 9"),
    (np.full(9, 1.5), "outside"),
    (np.array([np.inf] + [0] * 8), "non-finite"),
])
def test_bad_answers_raise_value_error_naming_g(g, word):
    with pytest.raises(ValueError, match="G") as err:
        true_error(thresholds(8), np.full(8, 1 / 8), g)
    assert word in str(err.value)


def test_bad_class_or_cover_argument():
    with pytest.raises(ValueError, match="cls"):
        true_answers(np.ones((2, 2), dtype=bool), np.array([0.5, 0.5]))
    with pytest.raises(ValueError, match="cover"):
        cover_radius(thresholds(2), np.array([0.5, 0.5]))
    assert validate_distribution([0.25, 0.75], 2).dtype == np.float64
