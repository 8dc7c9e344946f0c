"""BCMNUW20 Section 2.1 (VC, dual VC, Claim 3, Fact 4), Definition 12, and the Littlestone
dimension: exact values on the papers' classes and property tests against brute force."""

import itertools
from math import comb, e, floor, log2

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from algorithms.classes import (FiniteClass, conjunctions, decision_stumps, halfspaces, intervals,
                                point_functions, representative_domain, thresholds)
from algorithms.classes.combinatorics import (dual_vc_dimension, growth_function, is_mistake_tree,
                                              littlestone_dimension, shatters, vc_dimension)

small_classes = st.tuples(st.integers(1, 12), st.integers(1, 8)).flatmap(
    lambda s: hnp.arrays(np.bool_, s)).map(FiniteClass)


def brute_vc(m):
    """Largest k such that some k columns carry all 2^k patterns (all subsets tried)."""
    best = 0
    for k in range(1, m.shape[1] + 1):
        if any(len({tuple(r) for r in m[:, list(c)]}) == 2 ** k for c in itertools.combinations(range(m.shape[1]), k)):
            best = k
    return best


def brute_ldim(m, alive=None):
    """Littlestone dimension by the plain recursion, no pruning or memo."""
    alive = np.ones(m.shape[0], dtype=bool) if alive is None else alive
    rows = {tuple(r) for r in m[alive]}
    if len(rows) <= 1:
        return len(rows) - 1
    best = 0
    for x in range(m.shape[1]):
        a1, a0 = alive & m[:, x], alive & ~m[:, x]
        if a1.any() and a0.any():
            best = max(best, 1 + min(brute_ldim(m, a1), brute_ldim(m, a0)))
    return best


# ---------------------------------------------------------------- known values
@pytest.mark.parametrize("n", [2, 5, 17, 64])
def test_vc_of_thresholds_is_1(n):
    res = vc_dimension(thresholds(n))
    assert res.value == 1 and shatters(thresholds(n), res.witness)


@pytest.mark.parametrize("n", [3, 6, 20])
def test_vc_of_intervals_is_2(n):
    res = vc_dimension(intervals(n))
    assert res.value == 2 and shatters(intervals(n), res.witness)


@pytest.mark.parametrize("p", range(1, 10))
def test_stumps_vc_is_floor_log2_p_and_dual_vc_is_p(p):
    """BCMNUW20 Definition 12 / Section 4: S_p on {+-1}^p has VC = floor(log2 p) (the paper's
    "log p") and dual VC = p. Checked exactly for p = 1..9; the argument (2^k <= p hypotheses
    are needed to shatter k points, and p >= 2^k coordinates realise every pattern; all 2^p
    points realise every pattern on the p hypotheses) holds for every p >= 1."""
    s = decision_stumps(p)
    vc, dual = vc_dimension(s), dual_vc_dimension(s)
    assert vc.value == floor(log2(p)) and shatters(s, vc.witness)
    assert dual.value == p and shatters(s.dual(), dual.witness)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_halfspaces_in_r2_over_points_in_general_position_have_vc_3(seed):
    rng = np.random.default_rng(seed)
    pts = rng.integers(-10**5, 10**5, size=(9, 2))
    h = halfspaces(pts)
    assert h.num_hypotheses == 9 * 8 + 2  # Cover's counting: no 3 of 9 random points collinear here
    res = vc_dimension(h)
    assert res.value == 3 and shatters(h, res.witness)


@pytest.mark.parametrize("n", [1, 2, 3, 7, 8, 15, 16, 40, 63, 64])
def test_littlestone_of_thresholds_on_n_points_is_floor_log2_n(n):
    """A chain of k threshold functions has Ldim floor(log2 k). The N thresholds t in the grid
    (h_t(x) = +1 iff x <= t) give floor(log2 N), the claim this test holds; the full class with
    the all -1 labeling has N + 1 members and Ldim floor(log2 (N + 1)) (differs iff N + 1 is a
    power of 2). Both are checked, with the mistake tree witness."""
    for cls, k in ((thresholds(n, include_all_negative=False), n), (thresholds(n), n + 1)):
        res = littlestone_dimension(cls)
        assert res.value == floor(log2(k))
        assert is_mistake_tree(cls, res.witness, res.value)


def test_is_mistake_tree_rejects_a_tree_that_is_too_deep():
    cls = thresholds(7)
    res = littlestone_dimension(cls)
    deeper = {"point": 0, -1: res.witness, +1: res.witness}
    assert not is_mistake_tree(cls, deeper, res.value + 1)


def test_other_known_values():
    assert vc_dimension(point_functions(6)).value == 1
    assert vc_dimension(conjunctions(3)).value == 3
    assert growth_function(thresholds(10), 4).value == 5
    assert growth_function(intervals(10), 4).value == 1 + 4 + comb(4, 2)


# ---------------------------------------------------------------- property tests
@settings(max_examples=120, deadline=None)
@given(small_classes)
def test_vc_dual_vc_and_littlestone_equal_brute_force(cls):
    m = cls.matrix
    vc, dual = vc_dimension(cls), dual_vc_dimension(cls)
    assert vc.value == brute_vc(m) and shatters(cls, vc.witness)
    assert dual.value == brute_vc(m.T) and shatters(cls.dual(), dual.witness)
    ld = littlestone_dimension(cls)
    assert ld.value == brute_ldim(m) and is_mistake_tree(cls, ld.witness, ld.value)
    assert vc.value <= ld.value <= floor(log2(cls.num_distinct_hypotheses))


@settings(max_examples=120, deadline=None)
@given(small_classes, st.data())
def test_growth_function_equals_brute_force_and_sauer_lemma_holds(cls, data):
    """Sauer-Shelah: Pi_H(k) <= sum_{i<=d} C(k, i), d = VC(H)."""
    k = data.draw(st.integers(0, cls.num_points))
    g = growth_function(cls, k)
    brute = max(len({tuple(r) for r in cls.matrix[:, list(c)]}) for c
                in itertools.combinations(range(cls.num_points), k))
    assert g.value == brute
    assert len({tuple(r) for r in cls.matrix[:, list(g.witness)]}) == g.value
    d = vc_dimension(cls).value
    assert g.value <= sum(comb(k, i) for i in range(d + 1))


@settings(max_examples=150, deadline=None)
@given(small_classes)
def test_claim3_representative_domain_size_bound(cls):
    """BCMNUW20 Claim 3: |X_H~| <= (e |H~| / VC_dual(H~))^VC_dual(H~), |H~| distinct hypotheses
    (the value 1 when VC_dual = 0, the limit of the bound; then all columns are equal)."""
    size = representative_domain(cls).size
    p = dual_vc_dimension(cls).value
    h = cls.num_distinct_hypotheses
    assert size <= (1 if p == 0 else (e * h / p) ** p)
    # the Sauer form that Claim 3 rounds up: |X_H~| <= sum_{i<=p} C(|H~|, i)
    assert size <= sum(comb(h, i) for i in range(p + 1))


@settings(max_examples=150, deadline=None)
@given(st.tuples(st.integers(1, 16), st.integers(1, 16)).flatmap(lambda s: hnp.arrays(np.bool_, s)).map(FiniteClass))
def test_fact4_assouad_dual_vc_below_2_to_vc_plus_1(cls):
    """BCMNUW20 Fact 4 (Assouad 1983): VC_dual(H) < 2^(VC(H) + 1)."""
    assert dual_vc_dimension(cls).value < 2 ** (vc_dimension(cls).value + 1)


def test_fact4_holds_on_stumps_where_dual_vc_is_exponential_in_vc():
    """S_8 has VC 3 and dual VC 8 < 2^(3+1) = 16 (the dual VC grows like 2^VC here)."""
    s = decision_stumps(8)
    assert dual_vc_dimension(s).value == 8 < 2 ** (vc_dimension(s).value + 1)


def test_bad_inputs_raise_value_error():
    with pytest.raises(ValueError, match="cls"):
        vc_dimension(np.ones((2, 2), dtype=bool))
    with pytest.raises(ValueError, match="k="):
        growth_function(thresholds(4), 5)
    with pytest.raises(ValueError, match="max_subsets"):
        growth_function(intervals(60), 5, max_subsets=1000)
    with pytest.raises(ValueError, match="max_states"):
        littlestone_dimension(FiniteClass(np.random.default_rng(0).random((60, 30)) < 0.5), max_states=10)
