"""Clopper-Pearson and Wilson intervals against scipy, and the verdict rule."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs
from scipy import stats as st

from simulations import stats

CASES = [(0, 1), (1, 1), (0, 10), (10, 10), (3, 10), (50, 100), (999, 1000), (1, 1000), (7, 23), (4900, 5000)]


@pytest.mark.parametrize("k,n", CASES)
@pytest.mark.parametrize("confidence", [0.9, 0.95, 0.99])
def test_clopper_pearson_two_sided_equals_scipy_exact(k, n, confidence):
    """Two-sided CP equals scipy.stats.binomtest(...).proportion_ci(method='exact') (catches a swapped beta
    argument)."""
    ref = st.binomtest(k, n).proportion_ci(confidence, method="exact")
    low, high = stats.clopper_pearson(k, n, confidence)
    assert low == pytest.approx(ref.low, abs=1e-12) and high == pytest.approx(ref.high, abs=1e-12)


@pytest.mark.parametrize("k,n", CASES)
def test_clopper_pearson_one_sided_equals_scipy(k, n):
    """One-sided CP bounds equal scipy's one-sided exact intervals (alternative 'greater' / 'less')."""
    lo_ref = st.binomtest(k, n, alternative="greater").proportion_ci(0.95, method="exact").low
    hi_ref = st.binomtest(k, n, alternative="less").proportion_ci(0.95, method="exact").high
    assert stats.clopper_pearson(k, n, 0.95, "lower") == pytest.approx((lo_ref, 1.0), abs=1e-12)
    assert stats.clopper_pearson(k, n, 0.95, "upper") == pytest.approx((0.0, hi_ref), abs=1e-12)


@pytest.mark.parametrize("k,n", CASES)
def test_wilson_equals_scipy(k, n):
    """Two-sided Wilson equals scipy's method='wilson'."""
    ref = st.binomtest(k, n).proportion_ci(0.95, method="wilson")
    assert stats.wilson(k, n) == pytest.approx((ref.low, ref.high), abs=1e-12)


def test_known_closed_forms():
    """CP with 0 successes: the upper bound solves (1 - p)^n = miss, i.e. 1 - miss^(1/n) (rule of three)."""
    assert stats.clopper_pearson(0, 100, 0.95, "upper")[1] == pytest.approx(1 - 0.05 ** (1 / 100), rel=1e-12)
    assert stats.clopper_pearson(100, 100, 0.95, "lower")[0] == pytest.approx(0.05 ** (1 / 100), rel=1e-12)


def test_vectorised_matches_scalar():
    k = np.array([0, 5, 10])
    n = np.array([10, 10, 10])
    lo, hi = stats.clopper_pearson(k, n)
    for j in range(3):
        assert (lo[j], hi[j]) == pytest.approx(stats.clopper_pearson(int(k[j]), int(n[j])))


def test_cp_coverage_at_least_nominal():
    """The exact interval covers p with probability >= 95% (exact binomial sum over all outcomes; catches a
    one-sided level used in place of a two-sided one)."""
    n = 60
    k = np.arange(n + 1)
    lo, hi = stats.clopper_pearson(k, np.full(n + 1, n))
    for p in (0.02, 0.1, 0.37, 0.5, 0.9):
        cover = st.binom.pmf(k, n, p)[(lo <= p) & (p <= hi)].sum()
        assert cover >= 0.95


@pytest.mark.parametrize("bad", [dict(successes=-1, trials=5), dict(successes=6, trials=5),
                                 dict(successes=1, trials=0), dict(successes=1.5, trials=5)])
def test_bad_counts_raise(bad):
    with pytest.raises(ValueError):
        stats.clopper_pearson(**bad)


def test_bad_confidence_raises():
    with pytest.raises(ValueError, match="confidence"):
        stats.clopper_pearson(1, 2, 1.0)
    with pytest.raises(ValueError, match="alternative"):
        stats.clopper_pearson(1, 2, 0.9, "both")


def test_verdict_holds_violated_inconclusive():
    """The verdict rule: holds iff the lower bound >= target, violated iff the upper bound < target."""
    v = stats.verdict(990, 1000, 0.95)
    assert v.status == "holds" and v.lower >= 0.95
    v = stats.verdict(900, 1000, 0.95)
    assert v.status == "violated" and v.upper < 0.95
    v = stats.verdict(955, 1000, 0.95)
    assert v.status == "inconclusive" and v.trials_needed > 1000
    # at the predicted number of trials and the same rate, the rule decides "holds"
    n = v.trials_needed
    assert stats.verdict(math.floor(0.955 * n + 1e-9), n, 0.95).status == "holds"
    assert stats.verdict(950, 1000, 0.95).trials_needed is None  # rate == target: no number of trials decides


def test_verdict_false_alarm_rate_at_most_one_minus_confidence():
    """When Pr[success] equals the target exactly, 'violated' has probability <= 5% (exact binomial sum);
    catches a rule that compares the point estimate with the target."""
    n, target = 400, 0.9
    k = np.arange(n + 1)
    violated = np.array([stats.verdict(int(j), n, target).status == "violated" for j in k])
    assert st.binom.pmf(k, n, target)[violated].sum() <= 0.05
    holds = np.array([stats.verdict(int(j), n, target).status == "holds" for j in k])
    assert st.binom.pmf(k, n, target)[holds].sum() <= 0.05


@settings(max_examples=200, deadline=None)
@given(n=hs.integers(1, 5000), frac=hs.floats(0, 1), confidence=hs.floats(0.5, 0.999))
def test_cp_bounds_bracket_the_rate_and_grow_with_successes(n, frac, confidence):
    """low <= k/n <= high, and both bounds are nondecreasing in k (catches swapped or misindexed beta quantiles)."""
    k = int(round(frac * n))
    low, high = stats.clopper_pearson(k, n, confidence)
    assert low <= k / n <= high
    if k < n:
        low2, high2 = stats.clopper_pearson(k + 1, n, confidence)
        assert low2 >= low and high2 >= high


def test_below_bound_run_is_never_a_verdict_whatever_the_rate():
    """A run below the result's sizes is a measurement: 0/100 successes against 0.95 is 'below-bound', not
    'violated'."""
    assert stats.verdict(0, 100, 0.95, at_bound=False).status == "below-bound"
    assert stats.verdict(100, 100, 0.95, at_bound=False).status == "below-bound"
    assert stats.verdict(0, 100, 0.95).status == "violated"
    assert set(stats.VERDICTS) < set(stats.STATUSES) and "below-bound" not in stats.VERDICTS


# ---------------------------------------------------------------- p-values and Holm


@pytest.mark.parametrize("k,n,target", [(990, 1000, 0.95), (20, 30, 0.9), (27, 30, 0.9), (30, 30, 0.9),
                                        (0, 5, 0.5), (45, 50, 0.8), (8, 50, 0.3)])
def test_verdict_p_values_are_dual_to_the_verdict(k, n, target):
    """'violated' iff p_violated < 1 - confidence, 'holds' iff p_holds <= 1 - confidence (Clopper-Pearson
    duality), at two confidence levels (catches p-values from the wrong tail or an off-by-one in k)."""
    pv, ph = stats.verdict_p_values(k, n, target)
    for conf in (0.9, 0.95):
        v = stats.verdict(k, n, target, conf).status
        assert (v == "violated") == (pv < 1 - conf)
        assert (v == "holds") == (ph <= 1 - conf + 1e-12)


def test_holm_step_down_by_hand():
    """Sorted p = 0.005, 0.01, 0.03, 0.04 against 0.05/4, 0.05/3, 0.05/2, 0.05/1: the first two are
    rejected, the third (0.03 > 0.025) stops the procedure, so 0.04 is kept although 0.04 <= 0.05
    (catches a step-up or an unadjusted procedure)."""
    out = stats.holm([0.01, 0.04, 0.03, 0.005], 0.05)
    assert out["rejected"] == [True, False, False, True]
    assert out["adjusted"] == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert out["family_size"] == 4
    with pytest.raises(ValueError, match="level"):
        stats.holm([0.1], 1.5)
    with pytest.raises(ValueError, match="p_values"):
        stats.holm([1.2])


def test_holm_controls_the_family_wise_error_under_the_null():
    """20 true null hypotheses (uniform p-values), 4000 families (fixed seed): the fraction of families with
    any rejection has its 99% Clopper-Pearson lower bound below 0.05 and is above 0.03, Holm being close to
    exact for independent nulls (catches a missing adjustment: unadjusted rejects in ~64% of families)."""
    rng = np.random.default_rng(5)
    p = rng.random((4000, 20))
    any_rej = sum(any(stats.holm(row, 0.05)["rejected"]) for row in p)
    lo, hi = stats.clopper_pearson(any_rej, 4000, 0.99)
    assert lo <= 0.05 and any_rej / 4000 > 0.03


def test_contract_at_bound_combine_and_claims():
    from simulations import contract

    assert contract.at_bound({"n": 10, "m": 5}, {"n": 10, "m": 5})
    assert not contract.at_bound({"n": 9, "m": 50}, {"n": 10, "m": 5})
    assert contract.fractions_of_bound({"n": 5, "m": 5}, {"n": 10, "m": 5}) == {"n": 0.5, "m": 1.0}
    with pytest.raises(ValueError, match="lack"):
        contract.at_bound({"n": 5}, {"n": 10, "m": 5})
    assert contract.combine(["holds", "below-bound"]) == "below-bound"
    assert contract.combine(["violated", "below-bound"]) == "violated"
    assert contract.combine(["holds", "inconclusive"]) == "inconclusive"
    assert contract.combine(["holds", "holds"]) == "holds"
    c = contract.claim(2, 20, 0.9, 0.95, at_bound=False)
    assert c["verdict"] == "below-bound" and c["upper"] < 0.9
    b = contract.baseline(2, 20, 0.9, 0.95)
    assert b["status"] == contract.FAILS and contract.informative({"public_only": b})
    found = contract.find_claims({"x": [{"y": c}], "b": b, "verdict": "holds"})
    assert [path for path, _ in found] == ["x[0].y"]
    with pytest.raises(ValueError, match="variant"):
        contract.check_variant("oops", {"broken": "x"})
