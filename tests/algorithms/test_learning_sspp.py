"""A_SSPP (ABM19 Algorithm 1): its exact law against the exponential mechanism written from the
definition, its draws against that law, Lemma 3.2's eps-DP on every neighbouring private sample,
the interface B wraps, bad input."""

import itertools

import numpy as np
import pytest
from scipy import stats

from algorithms.classes import random_class, thresholds
from algorithms.privacy.accounting import PureDP, Release
from algorithms.privacy.mechanisms import ExponentialMechanism
from algorithms.learning.sspp import ASSPP, a_sspp, a_sspp_law, a_sspp_sample, sspp_cover, sspp_scores


def _reference_law(matrix, priv_x, priv_y, pub, eps):
    """Algorithm 1 from the text: one h per pattern on the distinct public points (the first row
    having it), Pr[h] proportional to exp(eps * (-err_hat) / (2 * (1/n)))."""
    n = len(priv_x)
    first = {}
    for i, row in enumerate(matrix):
        key = tuple(row[sorted(set(pub))])
        first.setdefault(key, i)
    members = np.array(sorted(first.values()))
    err = np.array([np.mean(matrix[h, priv_x] != priv_y) for h in members])
    w = np.exp(eps * (-err) / (2.0 / n))
    return members, w / w.sum()


@pytest.mark.parametrize("seed", range(8))
def test_law_equals_the_exponential_mechanism_over_the_cover(seed):
    """Catches a missing factor 2 or a sensitivity 1 (instead of 1/n) in step 6, and a cover
    that is not one hypothesis per public pattern."""
    rng = np.random.default_rng(seed)
    cls = random_class(30, 10, rng, density=0.5)
    priv_x = rng.integers(0, 10, size=int(rng.integers(1, 12)))
    priv_y = rng.random(priv_x.size) < 0.5
    pub = rng.integers(0, 10, size=int(rng.integers(1, 6)))
    eps = float(rng.uniform(0.2, 3.0))
    members, ref = _reference_law(cls.matrix, priv_x, priv_y, pub, eps)
    law = a_sspp_law(cls, priv_x, priv_y, pub, eps)
    assert np.array_equal(law.members, members)
    np.testing.assert_allclose(law.probabilities, ref, rtol=1e-10, atol=1e-14)
    full = law.hypothesis_probabilities()
    assert full.sum() == pytest.approx(1.0) and np.all(full[np.setdiff1d(np.arange(30), members)] == 0)


def test_draws_follow_the_exact_law():
    """4000 draws of a_sspp against the exact law (chi-square): a correct sampler passes at 1e-3;
    the same draws scored against the law with the factor 2 dropped must be rejected below 1e-6."""
    cls = thresholds(12)
    rng = np.random.default_rng(11)
    priv_x = rng.integers(0, 12, size=8)
    priv_y = (priv_x < 5).astype(int)
    pub = np.array([2, 4, 4, 7, 9])
    eps = 1.0
    law = a_sspp_law(cls, priv_x, priv_y, pub, eps)
    draws = np.array([a_sspp(cls, priv_x, priv_y, pub, eps, rng).value for _ in range(4000)])
    assert np.isin(draws, law.members).all()
    counts = np.array([(draws == m).sum() for m in law.members])
    assert stats.chisquare(counts, 4000 * law.probabilities).pvalue > 1e-3
    broken = ExponentialMechanism(eps, 1.0 / 8, monotone=True).probabilities(law.scores)
    assert stats.chisquare(counts, 4000 * broken).pvalue < 1e-6


def test_lemma3_2_every_neighbour_within_e_eps():
    """Lemma 3.2: for a fixed T_pub, replacing any one private example (all of them, all
    replacements) changes each output probability by a factor <= e^eps. Catches sensitivity 1/n
    replaced by anything smaller (the check fails for the scores scaled by 2)."""
    cls = thresholds(6)
    priv_x = np.array([0, 2, 3, 5])
    priv_y = np.array([1, 1, 0, 0])
    pub = np.array([1, 3, 4])
    eps = 0.7
    base = a_sspp_law(cls, priv_x, priv_y, pub, eps)
    worst = 0.0
    worst_broken = 0.0
    for i, x, y in itertools.product(range(4), range(6), (0, 1)):
        nx, ny = priv_x.copy(), priv_y.copy()
        nx[i], ny[i] = x, y
        other = a_sspp_law(cls, nx, ny, pub, eps)
        worst = max(worst, np.abs(np.log(base.probabilities) - np.log(other.probabilities)).max())
        pb = ExponentialMechanism(eps, 0.5 / 4).probabilities(base.scores)
        po = ExponentialMechanism(eps, 0.5 / 4).probabilities(other.scores)
        worst_broken = max(worst_broken, np.abs(np.log(pb) - np.log(po)).max())
    assert worst <= eps + 1e-12
    assert worst_broken > eps


def test_release_and_callable_interface():
    cls = thresholds(8)
    rng = np.random.default_rng(0)
    out = a_sspp(cls, [1, 6], [1, 0], [0, 3, 3], 0.5, rng)
    assert isinstance(out, Release) and out.guarantee == PureDP(0.5)
    assert isinstance(out.value, int) and 0 <= out.value < cls.num_hypotheses
    learner = ASSPP(cls, 0.5)
    a = learner([1, 6], [1, 0], [0, 3, 3], [0, 1, 1], np.random.default_rng(5))
    b = a_sspp(cls, [1, 6], [1, 0], [0, 3, 3], 0.5, np.random.default_rng(5))
    assert a == b and learner.guarantee == PureDP(0.5)


def test_output_agrees_with_the_cover_member_on_public_points():
    cls = thresholds(20)
    cover = sspp_cover(cls, [3, 9, 15])
    assert cover.size == 4  # thresholds: |T~| + 1 patterns
    scores = sspp_scores(cover, [0, 19], [1, 0])
    assert scores.shape == (4,) and scores.max() == 0.0


@pytest.mark.parametrize("args, match", [
    (([], [], [0], 1.0), "points"),
    (([0], [1], [], 1.0), "public_points"),
    (([0], [3], [0], 1.0), "labels"),
    (([0], [1], [0], 0.0), "eps"),
    (([0], [1], [0], -1.0), "eps"),
])
def test_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        a_sspp(thresholds(4), *args, rng=np.random.default_rng(0))
    if match == "eps":
        with pytest.raises(ValueError, match="eps"):
            ASSPP(thresholds(4), args[-1])


def test_histogram_input_has_the_law_of_the_expanded_sample():
    """counts = multiplicities gives exactly the law of the expanded list (catches n_priv taken as the
    number of distinct examples instead of the total count)."""
    cls = thresholds(10)
    x, y, c = np.array([1, 4, 8]), np.array([1, 1, 0]), np.array([3, 0, 5])
    expanded = a_sspp_law(cls, np.repeat(x, c), np.repeat(y, c), [2, 6], 0.8)
    hist = a_sspp_law(cls, x, y, [2, 6], 0.8, counts=c)
    np.testing.assert_allclose(hist.probabilities, expanded.probabilities, rtol=1e-12)
    with pytest.raises(ValueError, match="counts"):
        a_sspp(cls, x, y, [2], 1.0, np.random.default_rng(0), counts=[1.5, 1, 1])


def test_batched_draws_follow_the_exact_law():
    """20000 draws of a_sspp_sample against a_sspp_law (chi-square at 1e-3): catches draws indexing
    H~ instead of H (then outputs are member positions, not rows of the class)."""
    cls = thresholds(12)
    x, y, pub = np.array([0, 3, 5, 9, 11]), np.array([1, 1, 0, 0, 0]), np.array([2, 4, 8])
    law = a_sspp_law(cls, x, y, pub, 2.0)
    draws = a_sspp_sample(cls, x, y, pub, 2.0, np.random.default_rng(3), 20000)
    assert np.isin(draws, law.members).all()
    counts = np.array([(draws == m).sum() for m in law.members])
    assert stats.chisquare(counts, 20000 * law.probabilities).pvalue > 1e-3
