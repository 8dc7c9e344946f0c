"""Constructors of algorithms.classes: each class is the family its docstring names, exactly."""

import itertools

import numpy as np
import pytest
from scipy.optimize import linprog

from algorithms.classes import (boolean_cube, conjunctions, decision_stumps, explicit, halfspaces,
                                hypercube_points, intervals, marginals, point_functions, random_class,
                                thresholds)


def test_thresholds_are_all_prefix_labelings_h_t_x_plus_iff_x_le_t():
    h = thresholds(5)
    assert h.num_hypotheses == 6 and h.num_distinct_hypotheses == 6
    for j, row in enumerate(h.matrix):
        assert row.tolist() == [x < j for x in range(5)]
    assert thresholds(5, include_all_negative=False).num_hypotheses == 5
    assert not thresholds(5, include_all_negative=False).matrix.sum(axis=1).min() == 0


def test_intervals_are_all_contiguous_labelings_plus_empty():
    n = 6
    h = intervals(n)
    rows = {tuple(r) for r in h.matrix}
    expect = {tuple(a <= x <= b for x in range(n)) for a in range(n) for b in range(a, n)} | {(False,) * n}
    assert rows == expect and h.num_hypotheses == len(expect)


def test_decision_stumps_follow_bcmnuw20_definition_12():
    """S_p = {h_i(x) = x_i : i in [p]} over {+-1}^p: p hypotheses, 2^p points, no negations or constants."""
    p = 4
    s = decision_stumps(p)
    pts = hypercube_points(p)
    assert s.shape == (p, 2**p) and np.array_equal(s.point_coords, pts)
    assert {tuple(r) for r in pts.tolist()} == set(itertools.product((-1, 1), repeat=p))
    assert np.array_equal(s.signs(), pts.T)


def test_point_functions_and_marginals_and_conjunctions():
    assert np.array_equal(point_functions(4).matrix, np.eye(4, dtype=bool))
    assert point_functions(4, include_all_negative=True).num_hypotheses == 5
    d, k = 4, 2
    mg = marginals(d, k)
    cube = boolean_cube(d)
    expect = {tuple(bool((cube[x, list(S)] == v).all()) for x in range(2**d))
              for S in itertools.combinations(range(d), k) for v in itertools.product((0, 1), repeat=k)}
    assert mg.num_hypotheses == 6 * 4 and {tuple(r) for r in mg.matrix} == expect
    cj = conjunctions(3)
    assert cj.num_hypotheses == 27 and cj.num_distinct_hypotheses == 27
    assert conjunctions(3, monotone=True).num_hypotheses == 8
    assert conjunctions(3, max_literals=1).num_hypotheses == 1 + 6
    # every conjunction with x_0 positive and x_1 negated is +1 exactly on such points
    row = [r for r in cj.matrix if tuple(r) == tuple((c[0] == 1 and c[1] == 0) for c in cube[:8, :3])]
    assert len(row) == 1


def _separable(pts, labels):
    """LP: exists (w, b) with y_i (<w, x_i> + b) >= 1 (strict linear separability)."""
    y = np.where(labels, 1.0, -1.0)
    a = -y[:, None] * np.hstack([pts, np.ones((len(pts), 1))])
    res = linprog(np.zeros(3), A_ub=a, b_ub=-np.ones(len(pts)), bounds=[(None, None)] * 3, method="highs")
    return res.status == 0


@pytest.mark.parametrize("pts", [
    np.array([[0, 0], [1, 1], [2, 2], [3, 3], [0, 3], [3, 0]]),          # 4 collinear + 2
    np.array([[0, 0], [2, 0], [1, 0], [1, 1], [1, -1], [1, 2]]),         # two collinear triples
    np.array([[0, 0], [0, 0], [5, 1], [2, 7]]),                          # a repeated point
    np.array([[3, 4]]),
])
def test_halfspaces_are_exactly_the_linearly_separable_labelings(pts):
    """Every returned labeling is strictly separable (LP), and every separable labeling found
    by a dense sweep of float directions is present (degenerate point sets included)."""
    h = halfspaces(pts)
    rows = {tuple(r) for r in h.matrix}
    assert len(rows) == h.num_hypotheses
    assert all(_separable(pts.astype(float), np.array(r)) for r in rows)
    swept = {(False,) * len(pts), (True,) * len(pts)}
    for theta in np.linspace(0, 2 * np.pi, 20011):
        proj = pts @ np.array([np.cos(theta), np.sin(theta)])
        for c in np.unique(proj):
            swept.add(tuple(proj >= c))
    assert {r for r in swept if _separable(pts.astype(float), np.array(r))} <= rows


def test_halfspaces_collinear_points_give_2n_labelings():
    pts = np.array([[i, 2 * i] for i in range(7)])
    assert halfspaces(pts).num_hypotheses == 2 * 7


def test_explicit_and_random_class():
    m = np.array([[True, False]])
    assert explicit(m).matrix.tolist() == [[True, False]]
    r = random_class(30, 20, np.random.default_rng(0), density=0.2)
    assert r.shape == (30, 20) and 0.05 < r.matrix.mean() < 0.4


@pytest.mark.parametrize("call, arg", [
    (lambda: thresholds(0), "num_points"),
    (lambda: thresholds(2.5), "num_points"),
    (lambda: intervals(-1), "num_points"),
    (lambda: decision_stumps(0), "p"),
    (lambda: decision_stumps(40), "p"),
    (lambda: marginals(3, 4), "k"),
    (lambda: conjunctions(3, max_literals=5), "max_literals"),
    (lambda: halfspaces(np.array([[0.5, 1.0]])), "points"),
    (lambda: halfspaces(np.zeros((0, 2), dtype=int)), "points"),
    (lambda: halfspaces(np.array([[2**40, 0]])), "points"),
    (lambda: random_class(2, 2, None), "rng"),
    (lambda: random_class(2, 2, np.random.default_rng(0), density=1.5), "density"),
    (lambda: thresholds(3, grid=[0, 2, 1]), "grid"),
    (lambda: decision_stumps(30), "decision_stumps"),
])
def test_bad_constructor_arguments_raise_value_error_naming_them(call, arg):
    with pytest.raises(ValueError, match=arg):
        call()
