"""ABM19 (Alon, Bassily, Moran 2019) in bounds: hand values, errata, monotonicity, consistency.

Hand values are computed here with plain ``math`` from the paper's formulas (and the derivation
written in bounds/papers/abm19.py), independently of the engine.
"""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

import bounds
from bounds.papers import abm19


# --- hand computations --------------------------------------------------------------------
def cover_tail(m, alpha, beta, d):
    """Inequality (1) of Lemma 3.3 divided by beta: 2 (2em/d)^{2d} e^{-alpha m/4} / beta."""
    return math.exp(math.log(2) + 2 * d * math.log(2 * math.e * m / d) - alpha * m / 4
                    - math.log(beta))


def least_cover_m(alpha, beta, d):
    """Least integer m >= 8d/alpha with tail <= 1, by a plain doubling + bisection."""
    lo = math.ceil(8 * d / alpha)
    if cover_tail(lo, alpha, beta, d) <= 1:
        return lo
    hi = lo
    while cover_tail(hi, alpha, beta, d) > 1:
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if cover_tail(mid, alpha, beta, d) <= 1:
            hi = mid
        else:
            lo = mid
    return hi


POINTS_33 = [(0.1, 0.05, 3), (0.01, 0.01, 1), (0.2, 0.5, 10), (0.05, 1e-6, 25)]


@pytest.mark.parametrize("alpha,beta,d", POINTS_33)
def test_lemma3_3_is_the_least_m_with_tail_at_most_beta(alpha, beta, d):
    m = bounds.compute("lemma3.3", alpha=alpha, beta=beta, vc=d)["public_samples"]
    assert m == least_cover_m(alpha, beta, d)
    assert cover_tail(m, alpha, beta, d) <= 1
    if m > math.ceil(8 * d / alpha):
        assert cover_tail(m - 1, alpha, beta, d) > 1


def test_lemma3_3_value_at_one_point_by_hand():
    """alpha = 0.1, beta = 0.05, d = 3: log 2 + 6 log(2e m/3) + log 20 = 0.025 m at m = 2130."""
    m = bounds.compute("lemma3.3", alpha=0.1, beta=0.05, vc=3)["public_samples"]
    assert m == 2130
    lhs = lambda k: math.log(2) + 6 * math.log(2 * math.e * k / 3) + math.log(20)  # noqa: E731
    assert lhs(2130) <= 0.025 * 2130 and lhs(2129) > 0.025 * 2129


THM3_1_POINTS = [(0.1, 0.05, 1.0, 3), (0.01, 0.01, 0.1, 1), (0.3, 0.2, 5.0, 7), (0.05, 1e-4, 0.5, 20),
                 (0.4, 0.05, 0.05, 2), (0.2, 0.1, 0.01, 1)]   # the last two: eps < alpha/4, the EM term binds


def test_thm3_1_points_make_each_branch_of_the_max_bind():
    """Each term of n = max(32(.)/a^2, 8(.)/(eps a)) is the larger one at some point of THM3_1_POINTS (the UC
    term where eps > alpha/4, the exponential mechanism's where eps < alpha/4), so a changed constant in
    either is seen by test_thm3_1_chain_by_hand (broken once: the EM term halved fails it at the last two)."""
    binds = {32 / alpha**2 > 8 / (eps * alpha) for alpha, _, eps, _ in THM3_1_POINTS}
    assert binds == {True, False}


@pytest.mark.parametrize("alpha,beta,eps,d", THM3_1_POINTS)
def test_thm3_1_chain_by_hand(alpha, beta, eps, d):
    """m: Lemma 3.3 at (alpha/2, beta/2); log|H~| = d log(em/d); n = max(32(.)/a^2, 8(.)/(eps a))."""
    c = bounds.compute("thm3.1", alpha=alpha, beta=beta, epsilon=eps, vc=d)
    m = least_cover_m(alpha / 2, beta / 2, d)
    assert c["public_samples"] == m
    log_h = d * math.log(math.e * m / d)
    assert c["log_cover_size"] == pytest.approx(log_h, rel=1e-12)
    n = max(32 * (log_h + math.log(8 / beta)) / alpha**2,
            8 * (log_h + math.log(4 / beta)) / (eps * alpha))
    assert c["private_samples"] == math.ceil(n)


def test_thm3_1_error_budget_closes():
    """The derivation's pieces add up: alpha/2 (cover) + 2 gamma + EM gap = alpha, and
    beta/2 + beta/4 + beta/4 = beta, at the computed n (gamma, gap from their definitions)."""
    alpha, beta, eps, d = 0.1, 0.05, 0.5, 4
    c = bounds.compute("thm3.1", alpha=alpha, beta=beta, epsilon=eps, vc=d)
    n, log_h = c["private_samples"], c["log_cover_size"]
    gamma = math.sqrt((log_h + math.log(8 / beta)) / (2 * n))
    gap = 2 * (log_h + math.log(4 / beta)) / (eps * n)
    assert alpha / 2 + 2 * gamma + gap <= alpha
    # one fewer private sample breaks one of the two requirements
    gamma1 = math.sqrt((log_h + math.log(8 / beta)) / (2 * (n - 1)))
    gap1 = 2 * (log_h + math.log(4 / beta)) / (eps * (n - 1))
    assert 2 * gamma1 > alpha / 4 or gap1 > alpha / 4


@pytest.mark.parametrize("rid", ["thm4.1", "thm4.2"])
@pytest.mark.parametrize("alpha,expected", [(0.01, 1), (1e-4, 7), (1 / 3200, 3), (1e-6, 626)])
def test_public_lower_bound_is_least_integer_above_1_over_1600_alpha(rid, alpha, expected):
    """n_pub > 1/(1600 alpha): 1/16 -> 1; 6.25 -> 7; exactly 2 -> 3 (strict); 625 -> 626."""
    assert expected == math.floor(1 / (1600 * alpha)) + 1
    assert bounds.compute(rid, alpha=alpha)["public_samples"] == expected


def test_thm4_3_parameters_by_hand():
    c = bounds.compute("thm4.3", private_samples=100)
    assert c["error"] == 1 / 16 and c["failure_probability"] == 1 / 16 and c["epsilon"] == 0.1
    assert c["delta"] == pytest.approx(1 / (100 * 100**2 * math.log(100)), rel=1e-12)


@pytest.mark.parametrize("alpha,n,m", [(0.001, 20, 1), (0.01, 10**6, 50), (1e-5, 7, 3),
                                       (0.005, 12345, 7)])
def test_lemma4_4_quantities_by_hand(alpha, n, m):
    c = bounds.compute("lemma4.4", alpha=alpha, private_samples=n, public_samples=m)
    p = 1 / (100 * m)
    n_b = max(math.ceil(n / (10 * m)), 4)
    mu = p * n
    tv = 1 - (1 - p) ** m
    run = math.exp(-mu) * (math.e * mu / n_b) ** n_b
    assert c["mixture_weight"] == pytest.approx(p, rel=1e-12)
    assert c["private_samples_B"] == n_b
    assert c["error"] == pytest.approx(100 * m * alpha, rel=1e-12)
    assert c["tv_public"] == pytest.approx(tv, rel=1e-9)
    assert c["runout_probability"] == pytest.approx(run, rel=1e-9)
    assert c["failure_probability"] == pytest.approx(1 / 22 + tv + run, rel=1e-12)
    assert c["failure_probability"] < 1 / 16


# --- errata ---------------------------------------------------------------------------------
def test_erratum_lemma4_4_failure_chain_cannot_close_at_1_over_18():
    """Claim 4.6 adds two 0.01 terms to beta = 1/18; the printed 1/17 and 1/16 do not follow,
    and the TV term is at least 1 - e^{-0.01} for every n_pub, more than 1/16 - 1/18."""
    assert Fraction(1, 18) + Fraction(1, 100) > Fraction(1, 17)
    assert Fraction(1, 18) + Fraction(2, 100) > Fraction(1, 16)
    assert 1 - math.exp(-0.01) > float(Fraction(1, 16) - Fraction(1, 18))
    m = np.array([1, 2, 10, 1000, 10**6])
    tv = bounds.sweep("lemma4.4", alpha=0.001, private_samples=100, public_samples=list(m))
    assert np.all(tv["tv_public"] >= 1 - math.exp(-0.01) - 1e-15)
    assert np.all(tv["tv_public"] <= 0.01 + 1e-15)
    # corrected: beta_A = 1/22 closes it for every n_pub, with the worst-case run-out (e/10)^4
    assert 1 / 22 + 0.01 + (math.e / 10) ** 4 < 1 / 16


def test_erratum_lemma4_4_chernoff_step_fails_for_printed_sample_size():
    """Exact binomial tails: with n~ = ceil(n_priv/(10 n_pub)) PrivSamp runs out w.p. > 0.01."""
    for n, m in [(10, 1), (20, 1)]:
        p, n_tilde = 1 / (100 * m), math.ceil(n / (10 * m))
        # the loop stops early iff the n~-th success comes before draw n_priv
        assert stats.binom.sf(n_tilde - 1, n - 1, p) > 0.01
    assert stats.binom.sf(0, 9, 0.01) == pytest.approx(1 - 0.99**9, rel=1e-12)


def test_corrected_sample_size_keeps_runout_below_its_chernoff_bound_and_0_0055():
    """With n~ = max(ceil(n/(10m)), 4) the exact tail <= the Chernoff quantity <= (e/10)^4.
    Catches a wrong floor (3 gives up to 0.02) or a wrong Chernoff formula (exact tail above it)."""
    n = [4, 5, 10, 20, 33, 50, 100, 300, 1000, 10**4, 10**5]
    m = [1, 2, 7, 100]
    df = bounds.sweep("lemma4.4", alpha=0.001, private_samples=n, public_samples=m)
    n_priv = df["private_samples"].to_numpy(int)
    p = 1 / (100 * df["public_samples"].to_numpy(float))
    n_b = df["private_samples_B"].to_numpy(int)
    exact = stats.binom.sf(n_b - 1, n_priv - 1, p)  # P[n_B-th success before draw n_priv]
    assert np.all(exact <= df["runout_probability"].to_numpy() * (1 + 1e-9))
    assert np.all(df["runout_probability"] <= (math.e / 10) ** 4 * (1 + 1e-12))
    assert np.all(df["failure_probability"] < 1 / 16)
    # a floor of 3 would not do: n_priv = 33, n_pub = 1 gives the printed n~ = 4, but at
    # n_priv = 30, n~ = 3 and the Chernoff bound exceeds 0.01 (exact tail is smaller)
    mu = 0.3
    assert math.exp(-mu) * (math.e * mu / 3) ** 3 > 0.01


# --- monotonicity (hypothesis) -----------------------------------------------------------
alphas = st.floats(1e-6, 0.9)
betas = st.floats(1e-12, 0.9)
epss = st.floats(1e-4, 100)
dims = st.integers(1, 10**6)


@settings(max_examples=60, deadline=None)
@given(alphas, alphas, betas, epss, dims)
def test_thm3_1_samples_decrease_in_alpha(a1, a2, beta, eps, d):
    lo, hi = sorted((a1, a2))
    s = bounds.sweep("thm3.1", alpha=[lo, hi], beta=beta, epsilon=eps, vc=d)
    assert s["public_samples"][0] >= s["public_samples"][1]
    assert s["private_samples"][0] >= s["private_samples"][1]


@settings(max_examples=60, deadline=None)
@given(alphas, betas, betas, epss, epss, dims, dims)
def test_thm3_1_samples_monotone_in_beta_eps_d(alpha, b1, b2, e1, e2, d1, d2):
    s = bounds.sweep("thm3.1", alpha=alpha, beta=sorted((b1, b2)), epsilon=sorted((e1, e2)),
                     vc=sorted((d1, d2)))
    m = s["public_samples"].to_numpy().reshape(2, 2, 2)
    n = s["private_samples"].to_numpy().reshape(2, 2, 2)
    assert np.all(m[0] >= m[1]) and np.all(m[:, :, 0] <= m[:, :, 1])      # beta down, d up
    assert np.all(n[0] >= n[1]) and np.all(n[:, 0] >= n[:, 1])            # beta, eps down
    assert np.all(n[:, :, 0] <= n[:, :, 1])                               # d up


# --- consistency -------------------------------------------------------------------------------
@settings(max_examples=80, deadline=None)
@given(st.floats(1e-9, 0.01), st.floats(1e-12, 1 / 22), st.floats(1e-3, 10), dims)
def test_thm3_1_public_samples_at_least_thm4_1_lower_bound(alpha, beta, eps, d):
    """Upper bound (Thm 3.1) >= lower bound (Thm 4.1, thresholds: d = 1 and up) where both apply
    (alpha <= 1/100, beta <= 1/22, the corrected confidence of the lower bound)."""
    up = bounds.compute("thm3.1", alpha=alpha, beta=beta, epsilon=eps, vc=d)["public_samples"]
    low = bounds.compute("thm4.1", alpha=alpha)["public_samples"]
    assert up >= low


@settings(max_examples=40, deadline=None)
@given(alphas, betas, epss, dims)
def test_explicit_forms_dominate_asymptotic_with_constant_one(alpha, beta, eps, d):
    exp_ = bounds.compute("thm3.1", alpha=alpha, beta=beta, epsilon=eps, vc=d)
    asy = bounds.compute("thm3.1", form="asymptotic", alpha=alpha, beta=beta, epsilon=eps, vc=d)
    assert exp_["public_samples"] >= asy["public_samples"]
    assert exp_["private_samples"] >= asy["private_samples"]
    l33 = bounds.compute("lemma3.3", alpha=alpha, beta=beta, vc=d)["public_samples"]
    assert l33 >= bounds.compute("lemma3.3", form="asymptotic", alpha=alpha, beta=beta,
                                 vc=d)["public_samples"]
    # Thm 3.1 needs the cover at (alpha/2, beta/2): never fewer points than Lemma 3.3 at (alpha, beta)
    assert exp_["public_samples"] >= l33


def test_beyond_float_range_is_carried_in_log_space():
    c = bounds.compute("thm3.1", alpha=1e-9, beta=1e-300, epsilon=1e-300, vc=10**9)
    assert math.isfinite(c.quantities["private_samples"].log10)
    assert c.quantities["private_samples"].log10 > 300


def test_cover_inequality_is_written_once():
    """BCMNUW20 Lemma 11 is ABM19 Lemma 3.3: abm19 uses bcmnuw20's function, not a copy."""
    import inspect

    from bounds.papers import bcmnuw20

    assert abm19.cover_log_tail is bcmnuw20.lemma11_public_samples_g
    assert abm19.cover_lower is bcmnuw20.lemma11_public_samples_lower
    assert "o.log(2 * o.e" not in inspect.getsource(abm19)
    assert "o.log(2 * m / d)" not in inspect.getsource(abm19)


@settings(max_examples=100, deadline=None)
@given(st.floats(1e-9, 0.01), st.integers(4, 10**12), st.integers(1, 10**9))
def test_corrected_reduction_fails_with_probability_below_1_over_16(alpha, n, m):
    """Corrected Lemma 4.4: beta_A = 1/22, TV <= 1/100 and run-out <= (e/10)^4 keep B's failure
    probability below 1/16 for every (n_priv, n_pub); catches a floor below 4 or beta_A = 1/18."""
    c = bounds.compute("lemma4.4", alpha=alpha, private_samples=n, public_samples=m)
    assert c["runout_probability"] <= (math.e / 10) ** 4 * (1 + 1e-12)
    assert c["failure_probability"] < 1 / 16
    assert c["private_samples_B"] >= max(10 * n / (100 * m), 4)  # n~ >= 10 mu


def test_lower_bounds_reject_alpha_above_one_hundredth():
    for rid in ("thm4.1", "thm4.2", "lemma4.4"):
        with pytest.raises(bounds.DomainError, match="--alpha"):
            bounds.compute(rid, alpha=0.02, **({"private_samples": 10, "public_samples": 1}
                                               if rid == "lemma4.4" else {}))
