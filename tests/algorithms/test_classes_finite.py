"""Tests of algorithms.classes.finite and the packing/hashing in algorithms.classes._bits."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from algorithms.classes import FiniteClass, _bits

bool_matrices = st.tuples(st.integers(1, 40), st.integers(1, 40)).flatmap(
    lambda s: hnp.arrays(np.bool_, s))


def test_matrix_is_read_only_copy_and_shape_is_reported():
    m = np.array([[True, False, True], [False, False, True]])
    h = FiniteClass(m, name="two")
    m[0, 0] = False  # caller's array is not shared
    assert h.matrix[0, 0] and h.shape == (2, 3) and h.num_hypotheses == 2 and h.num_points == 3
    with pytest.raises(ValueError):
        h.matrix[0, 0] = False
    assert np.array_equal(h.signs(), np.where(h.matrix, 1, -1))


@pytest.mark.parametrize("bad, word", [
    (np.zeros((0, 3), dtype=bool), "no hypotheses"),
    (np.zeros((3, 0), dtype=bool), "no points"),
    (np.array([[0, 1], [1, 0]]), "dtype bool"),
    (np.array([[0.5, 1.0]]), "dtype bool"),
    (np.zeros(4, dtype=bool), "2-D"),
])
def test_bad_matrix_raises_value_error_naming_matrix(bad, word):
    with pytest.raises(ValueError, match="matrix") as err:
        FiniteClass(bad)
    assert word in str(err.value)


def test_bad_point_coords_and_signs_raise():
    with pytest.raises(ValueError, match="point_coords"):
        FiniteClass(np.ones((2, 3), dtype=bool), point_coords=np.arange(4))
    with pytest.raises(ValueError, match="values"):
        FiniteClass.from_signs(np.array([[1, 0, -1]]))
    h = FiniteClass.from_signs(np.array([[1, -1, -1]]))
    assert h.matrix.tolist() == [[True, False, False]]


def test_restrict_validates_indices():
    h = FiniteClass(np.eye(4, dtype=bool), point_coords=np.arange(4) * 10)
    sub = h.restrict(hypotheses=[1, 2], points=[2, 1])
    assert sub.matrix.tolist() == [[False, True], [True, False]] and sub.point_coords.tolist() == [20, 10]
    for bad in ([4], [-1], [], [0.5]):
        with pytest.raises(ValueError, match="points"):
            h.restrict(points=bad)


@settings(max_examples=150, deadline=None)
@given(bool_matrices)
def test_pack_columns_equals_numpy_packbits_axis0(m):
    """Catches a wrong shift/bit order or lost rows in the uint64-lane column packing."""
    assert np.array_equal(_bits.pack_columns(m), np.packbits(m, axis=0).T)


def _reference_unique(m):
    seen, first, inverse = {}, [], []
    for i, row in enumerate(map(bytes, m.astype(np.uint8))):
        if row not in seen:
            seen[row] = len(first)
            first.append(i)
        inverse.append(seen[row])
    return np.array(first), np.array(inverse)


@settings(max_examples=150, deadline=None)
@given(bool_matrices)
def test_distinct_rows_and_columns_equal_python_reference(m):
    """Groups are exact and numbered by first occurrence, for rows and for columns."""
    h = FiniteClass(m)
    for (first, inv), ref in ((h.distinct_rows(), _reference_unique(m)),
                              (h.distinct_columns(), _reference_unique(m.T))):
        assert np.array_equal(first, ref[0]) and np.array_equal(inv, ref[1])


def test_hash_collision_falls_back_to_exact(monkeypatch):
    """With a hash that maps every row to 0, the verification must detect it and stay exact."""
    rng = np.random.default_rng(3)
    m = rng.random((200, 30)) < 0.3
    m[50] = m[7]
    monkeypatch.setattr(_bits, "hash_packed", lambda packed: np.zeros(packed.shape[0], dtype=np.uint64))
    first, inv = _bits.unique_rows(m)
    ref = _reference_unique(m)
    assert np.array_equal(first, ref[0]) and np.array_equal(inv, ref[1])


@pytest.mark.parametrize("x", [0, 3, np.int64(2), np.int32(1)])
def test_validate_index_accepts_an_integer_in_range_as_validate_indices_does(x):
    """validate_index (the online learners' per-query check) returns what validate_indices([x]) does."""
    from algorithms.classes.finite import validate_index, validate_indices

    out = validate_index(x, 4, "x")
    assert type(out) is int and out == int(validate_indices(np.array([x]), 4, "x")[0])


@pytest.mark.parametrize("x", [-1, 4, True, 1.0, np.float64(2.0), "1"])
def test_validate_index_rejects_what_validate_indices_rejects_with_its_message(x):
    """An index out of range, a bool, a float or a string: the same ValueError as validate_indices([x])."""
    from algorithms.classes.finite import validate_index, validate_indices

    with pytest.raises(ValueError) as expected:
        validate_indices(np.array([x]), 4, "x")
    with pytest.raises(ValueError) as got:
        validate_index(x, 4, "x")
    assert str(got.value) == str(expected.value)
