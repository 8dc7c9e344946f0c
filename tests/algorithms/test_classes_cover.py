"""BCMNUW20 Algorithm 3 (cover H~, Project), Lemma 11 (cover radius) and Definition 2
(representative domain) on thresholds, and the fast cover against a slow reference."""

from math import log

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from algorithms.classes import (FiniteClass, build_cover, decision_stumps, halfspaces, projection,
                                representative_domain, thresholds)
from algorithms.evaluation import cover_radius


def slow_cover(m, sample):
    """Algorithm 3 read literally: loop over H, keep the first h of each new pattern on T;
    representative domain: loop over points, keep the first x of each new column of H~."""
    t = sorted(set(int(x) for x in sample))
    members, member_of, seen = [], [], {}
    for i, row in enumerate(m):
        key = tuple(row[t])
        if key not in seen:
            seen[key] = len(members)
            members.append(i)
        member_of.append(seen[key])
    cover = m[members]
    reps, group_of, cols = [], [], {}
    for x in range(m.shape[1]):
        key = tuple(cover[:, x])
        if key not in cols:
            cols[key] = len(reps)
            reps.append(x)
        group_of.append(cols[key])
    return np.array(t), np.array(members), np.array(member_of), np.array(reps), np.array(group_of)


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.integers(1, 30), st.integers(1, 25)).flatmap(lambda s: hnp.arrays(np.bool_, s)), st.data())
def test_fast_cover_equals_slow_reference_on_random_matrices(m, data):
    sample = data.draw(st.lists(st.integers(0, m.shape[1] - 1), min_size=1, max_size=40))
    cls = FiniteClass(m)
    cover = build_cover(cls, sample)
    rd = cover.representative_domain()
    t, members, member_of, reps, group_of = slow_cover(m, sample)
    assert np.array_equal(cover.public_points, t)
    assert np.array_equal(cover.members, members) and np.array_equal(cover.member_of, member_of)
    assert np.array_equal(rd.representatives, reps) and np.array_equal(rd.group_of, group_of)
    assert np.array_equal(cover.patterns, m[members][:, t])
    assert np.array_equal(cover.reduced_matrix(), m[members][:, reps])


@settings(max_examples=200, deadline=None)
@given(st.tuples(st.integers(1, 30), st.integers(1, 25)).flatmap(lambda s: hnp.arrays(np.bool_, s)), st.data())
def test_project_returns_a_member_agreeing_with_h_on_every_public_point(m, data):
    sample = data.draw(st.lists(st.integers(0, m.shape[1] - 1), min_size=1, max_size=40))
    cls = FiniteClass(m)
    cover = build_cover(cls, sample)
    proj = cover.project(np.arange(m.shape[0]))
    assert set(proj.tolist()) <= set(cover.members.tolist())
    assert np.array_equal(m[proj][:, sample], m[:, sample])
    # by labels too (whole-domain rows and public-point rows), and scalar form
    assert np.array_equal(cover.members[cover.project_labels(m)], proj)
    assert np.array_equal(cover.members[cover.project_labels(m[:, cover.public_points])], proj) or \
        cover.public_points.size == m.shape[1]
    assert cover.project(0) == proj[0]


def test_project_labels_rejects_a_hypothesis_outside_the_class():
    cover = build_cover(thresholds(6), [1, 4])
    with pytest.raises(ValueError, match="labels row 0"):
        cover.project_labels(np.array([True, False, False, False, True, False]))  # -1 at 1, +1 at 4


@pytest.mark.parametrize("seed", range(5))
def test_cover_of_thresholds_has_distinct_public_points_plus_one_members(seed):
    rng = np.random.default_rng(seed)
    n = 200
    w = rng.integers(0, n, size=rng.integers(1, 300))
    cover = build_cover(thresholds(n), w)
    assert cover.size == np.unique(w).size + 1
    # Definition 2 example: the members are h_0 (all -1) and the M = |T| thresholds just right of
    # each public point; M non-constant thresholds cut the grid into M + 1 groups, one fewer when
    # the largest public point is the last grid point (its threshold is the constant +1)
    t = np.unique(w)
    assert cover.representative_domain().size == t.size + 1 - int(t[-1] == n - 1)


def max_gap_mass(public, n):
    """Exact radius of the thresholds cover under the uniform D on n grid points: Project(h_j)
    is h_{a+1} with a the largest public point below j, so h and Project(h) disagree exactly on a
    run of grid points free of public points; the radius is the longest such run / n."""
    t = np.unique(public)
    gaps = np.diff(np.concatenate([[-1], t, [n]])) - 1
    return gaps.max() / n


def test_cover_radius_of_thresholds_shrinks_like_log_m_over_m():
    """BCMNUW20 Lemma 11 on thresholds (d = 1), D uniform on N = 1000 grid points.

    Exactness first: every trial's cover_radius equals the longest public-free run / N.
    Rate: couple grid point floor(N U) with U uniform on [0, 1]. Then the radius R lies within
    2/N of the largest spacing S of m uniforms (m + 1 spacings), and E[S] = H_{m+1}/(m+1)
    (harmonic number): the radius decays like (ln m)/m, i.e. 1/m up to the log factor of
    Lemma 11's m = O((d log(1/alpha) + log(1/beta))/alpha). The Monte-Carlo mean over T trials
    is tested two-sided against [E[S] - 2/N, E[S]] with a Hoeffding margin on R truncated at
    t0 = (ln(m+1) + ln(1/delta0))/m, where P(S > t0) <= (m+1)(1-t0)^m <= delta0; the union of all
    error events has probability <= 1e-3. Catches: a cover missing members (radius ~2x), the
    radius computed on the wrong rows, an off-by-one in Project (radius > E[S]), or a radius
    that does not shrink."""
    n, trials = 1000, 400
    ms = (25, 50, 100, 200)
    cls = thresholds(n)
    rng = np.random.default_rng(20200711)
    d_uniform = np.full(n, 1.0 / n)
    delta_trunc = 1e-4 / (trials * len(ms))
    delta_mean = 9e-4 / (2 * len(ms))
    means = []
    for m in ms:
        radii = np.empty(trials)
        for i in range(trials):
            w = rng.integers(0, n, size=m)
            cover = build_cover(cls, w)
            assert cover.size == np.unique(w).size + 1
            radii[i] = cover_radius(cover, d_uniform)
            assert radii[i] == pytest.approx(max_gap_mass(w, n), abs=1e-12)
        expected_s = sum(1.0 / k for k in range(1, m + 2)) / (m + 1)
        t0 = (log(m + 1) + log(1 / delta_trunc)) / m
        margin = t0 * np.sqrt(log(1 / delta_mean) / (2 * trials))
        mean = radii.mean()
        assert expected_s - 2.0 / n - margin <= mean <= expected_s + margin, (m, mean, expected_s, margin)
        means.append(mean)
    assert means[-1] < means[0] / 4  # m x 8: mean radius drops by more than 4 (E[S] ratio ~ 5.6)


def test_representative_domain_of_stumps_and_halfspaces():
    """Definition 2: points grouped by their column; all 2^p columns of S_p differ, and a cover
    of halfspaces groups the points into cells of the arrangement of its members."""
    s = decision_stumps(5)
    rd = representative_domain(s)
    assert rd.size == 32 and np.array_equal(rd.point_to_representative, np.arange(32))
    pts = np.random.default_rng(1).integers(0, 1000, size=(15, 2))
    h = halfspaces(pts)
    cover = build_cover(h, [0, 3, 3, 7])
    rd = cover.representative_domain()
    cm = cover.matrix()
    assert np.array_equal(cm[:, rd.point_to_representative], cm)        # each point ~ its representative
    assert np.unique(cm[:, rd.representatives], axis=1).shape[1] == rd.size  # representatives pairwise distinct
    assert np.array_equal(rd.map([5, 5, 0]), rd.point_to_representative[[5, 5, 0]])
    assert np.array_equal(rd.representatives[rd.map_to_index([2, 9])], rd.map([2, 9]))


def test_projection_counts_patterns():
    p = projection(thresholds(10), [7, 2, 2, 5])
    assert p.size == 4 and p.points.tolist() == [2, 5, 7]
    assert p.patterns.tolist() == [[False] * 3, [True, False, False], [True, True, False], [True] * 3]


@pytest.mark.parametrize("sample", [[], [10], [-1], [1.5], [[1, 2]]])
def test_bad_public_sample_raises_value_error(sample):
    with pytest.raises(ValueError, match="sample"):
        build_cover(thresholds(10), sample)


def test_bad_cover_inputs():
    with pytest.raises(ValueError, match="cls"):
        build_cover(np.ones((2, 2), dtype=bool), [0])
    cover = build_cover(thresholds(10), [3])
    with pytest.raises(ValueError, match="hypotheses"):
        cover.project([11])
    with pytest.raises(ValueError, match="points"):
        cover.representative_domain().map([10])
    with pytest.raises(ValueError, match="labels"):
        cover.project_labels(np.zeros((2, 4), dtype=bool))
    with pytest.raises(ValueError, match="labels"):
        cover.project_labels(np.zeros(10, dtype=int))
