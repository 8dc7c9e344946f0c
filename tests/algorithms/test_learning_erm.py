"""ERM over a finite class (algorithms.learning.erm): counts against a loop over examples written
from the definition err_hat(h; S) = (1/n) sum_i 1(h(x_i) != y_i), the tie rule, population errors
against the definition, bad input."""

import numpy as np
import pytest

from algorithms.classes import FiniteClass, random_class, thresholds
from algorithms.learning.erm import (
    ERMResult,
    empirical_errors,
    erm,
    error_counts,
    population_errors,
)


def _reference_counts(matrix, points, positive, weights):
    """sum_i w_i 1(h(x_i) != y_i), one example at a time (the definition)."""
    out = np.zeros(matrix.shape[0])
    for x, y, w in zip(points, positive, weights):
        out += w * (matrix[:, x] != y)
    return out


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("label_set", [(0, 1), (-1, 1), (False, True)])
def test_error_counts_equal_the_definition(seed, label_set):
    """Catches a swapped sign in sum pos + M (neg - pos) or a lost repeated point (bincount)."""
    rng = np.random.default_rng(seed)
    n_points = int(rng.integers(3, 40))
    cls = random_class(int(rng.integers(2, 30)), n_points, rng)
    n = int(rng.integers(1, 3 * n_points))  # few or many points: both code paths (gather / dense)
    points = rng.integers(0, n_points, size=n)
    positive = rng.random(n) < 0.5
    labels = np.where(positive, label_set[1], label_set[0])
    weights = rng.random(n) if seed % 2 else None
    ref = _reference_counts(cls.matrix, points, positive, np.ones(n) if weights is None else weights)
    got = error_counts(cls, points, labels, weights)
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-9)
    total = n if weights is None else weights.sum()
    np.testing.assert_allclose(empirical_errors(cls, points, labels, weights), ref / total, atol=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_erm_returns_the_least_index_minimiser(seed):
    """Catches an argmax for argmin, or a tie rule other than the documented least row index."""
    rng = np.random.default_rng(100 + seed)
    cls = random_class(25, 12, rng)
    points = rng.integers(0, 12, size=15)
    positive = rng.random(15) < 0.5
    ref = _reference_counts(cls.matrix, points, positive, np.ones(15))
    res = erm(cls, points, positive.astype(int))
    assert isinstance(res, ERMResult)
    minimisers = np.flatnonzero(ref == ref.min())
    assert res.hypothesis == int(minimisers[0])
    assert res.num_minimisers == minimisers.size
    assert res.error_count == ref.min()
    assert res.empirical_error == pytest.approx(ref.min() / 15)


def test_erm_on_a_duplicated_class_picks_the_first_copy():
    """Two identical rows tie everywhere: the first must be returned, with num_minimisers 2."""
    cls = FiniteClass(np.array([[True, False], [False, True], [False, True]]))
    res = erm(cls, [1, 1, 0], [1, 1, 0])
    assert (res.hypothesis, res.error_count, res.num_minimisers) == (1, 0.0, 2)


def test_erm_realizable_thresholds_reaches_zero_error():
    """A sample labeled by a threshold: ERM must find a consistent threshold (zero mistakes)."""
    cls = thresholds(50)
    rng = np.random.default_rng(3)
    points = rng.integers(0, 50, size=30)
    labels = cls.matrix[17, points].astype(int)
    res = erm(cls, points, labels)
    assert res.error_count == 0
    assert np.array_equal(cls.matrix[res.hypothesis, points], cls.matrix[17, points])


def test_population_errors_equal_the_definition():
    """err(h; D) = sum_x joint[x, 0] 1(h(x)=+1) + joint[x, 1] 1(h(x)=-1); catches swapped columns."""
    rng = np.random.default_rng(7)
    cls = random_class(20, 9, rng)
    joint = rng.random((9, 2))
    joint /= joint.sum()
    ref = (cls.matrix * joint[:, 0]).sum(axis=1) + (~cls.matrix * joint[:, 1]).sum(axis=1)
    np.testing.assert_allclose(population_errors(cls, joint), ref, atol=1e-12)


@pytest.mark.parametrize("kwargs, match", [
    (dict(points=[0, 5], labels=[0, 1]), "points"),
    (dict(points=[], labels=[]), "points"),
    (dict(points=[0, 1], labels=[0, 2]), "labels"),
    (dict(points=[0, 1], labels=[-1, 0]), "labels"),
    (dict(points=[0, 1], labels=[1]), "labels"),
    (dict(points=[0, 1], labels=[0, 1], weights=[1.0, -1.0]), "weights"),
    (dict(points=[0, 1], labels=[0, 1], weights=[0.0, 0.0]), "total weight"),
])
def test_bad_input_names_the_argument(kwargs, match):
    cls = thresholds(3)
    with pytest.raises(ValueError, match=match):
        erm(cls, **kwargs)


def test_bad_class_and_joint():
    with pytest.raises(ValueError, match="cls"):
        erm(np.zeros((2, 2), bool), [0], [1])
    with pytest.raises(ValueError, match="joint"):
        population_errors(thresholds(3), np.ones((3, 2)))
