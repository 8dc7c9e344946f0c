"""BCMNUW20 results: values recomputed by hand with plain ``math`` from the formulas in the paper
(and its corrected constants), the least-integer property of the solved sample sizes, the chain of
Theorem 10, and consistency between its upper bounds and the lower bounds (Theorems 13, 15).

Breaks caught: a constant changed (200 -> 6804.7, 9216, 8, 16, 32d/alpha), a step of Theorem 10's
chain at the wrong (alpha, beta) share, Sauer or Claim 3 applied outside their range, a solver
that returns a non-least integer.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds
from bounds.errors import DomainError

E = math.e
DR415 = 2 + 32 * math.sqrt(2)  # Dwork & Roth Thm 4.15 (the printed Lemma 7 reads it at alpha/2)


# --- hand formulas (independent of the engine) ----------------------------------------------------
def hand_lemma7(alpha, beta, eps, delta, log_h, log_x):
    """Corrected Lemma 7: Dwork-Roth Alg. 5 over NumericSparse (Alg. 3), union bound, Hoeffding."""
    c = math.floor(4 * log_x / (alpha / 8) ** 2) + 1
    r = math.sqrt(512)
    eps1, eps2 = r * eps / (r + 1), 2 * eps / (r + 1)
    sigma1 = math.sqrt(32 * c * math.log(2 / delta)) / eps1
    sigma2 = math.sqrt(32 * c * math.log(2 / delta)) / eps2
    k, b = 2 * math.exp(log_h), beta / 2 / 3
    alpha_ns = max(4 * sigma1 * math.log(k / b), 2 * sigma1 * math.log((c + 1) / b),
                   sigma2 * math.log(c / b))
    return max(8 * alpha_ns / alpha, 32 * math.log(4 * math.exp(log_h) / beta) / alpha**2)


def hand_union(n, alpha, beta, eps, delta, log_h, log_x, s):
    """The corrected Lemma 7's union bound at n private samples and error share s (alpha_mw =
    s alpha/6, Hoeffding (1 - s) alpha/2 on [0, 1]): total failure probability of the four families."""
    a_mw, a_uc = s * alpha / 6, (1 - s) * alpha / 2
    c = math.floor(4 * log_x / a_mw**2) + 1
    r = math.sqrt(512)
    sigma = math.sqrt(32 * c * math.log(2 / delta))
    s1, s2 = sigma * (r + 1) / (r * eps), sigma * (r + 1) / (2 * eps)
    h2 = 2 * math.exp(log_h)
    return (h2 * math.exp(-n * a_mw / (4 * s1)) + (c + 1) * math.exp(-n * a_mw / (2 * s1))
            + c * math.exp(-n * a_mw / s2) + h2 * math.exp(-2 * n * a_uc**2))


def hand_least_n(alpha, beta, eps, delta, log_h, log_x, s):
    """Least integer n with hand_union <= beta (doubling then integer bisection)."""
    lo, hi = 0, 1
    while hand_union(hi, alpha, beta, eps, delta, log_h, log_x, s) > beta:
        lo, hi = hi, 2 * hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if hand_union(mid, alpha, beta, eps, delta, log_h, log_x, s) <= beta \
            else (mid, hi)
    return hi


def hand_lemma7_printed(alpha, beta, eps, delta, log_h, log_x):
    return (200 / (eps * alpha**2) * math.sqrt(log_x * math.log(2 / delta))
            * (log_h + math.log(128 * log_x / (alpha**2 * beta))))


def cover_tail(m, alpha, beta, d):
    """ABM19 (1): log of 2 (2em/d)^{2d} e^{-alpha m/4} / beta."""
    return math.log(2) + 2 * d * math.log(2 * E * m / d) - alpha * m / 4 - math.log(beta)


def least_m(alpha, beta, d):
    """Least integer m >= 8d/alpha with cover_tail <= 0: doubling, then integer bisection."""
    lo = math.ceil(8 * d / alpha)
    if cover_tail(lo, alpha, beta, d) <= 0:
        return lo
    hi = lo
    while cover_tail(hi, alpha, beta, d) > 0:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if cover_tail(mid, alpha, beta, d) <= 0 else (mid, hi)
    return hi


README = dict(alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, vc=3, dual_vc=8)


# --- Claim 3, Fact 4 ------------------------------------------------------------------------------
@pytest.mark.parametrize("size_h,p,expected", [
    (100, 3, 3 * math.log(E * 100 / 3)),        # Claim 3 as printed
    (1000, 10, 10 * math.log(E * 1000 / 10)),
    (2, 5, 2 * math.log(2)),                    # p > |H~|: 2^|H~| is the bound
    (4, 4, 4 * math.log(2)),                    # at p = |H~|: 2^4 < e^4
])
def test_claim3_log_domain_by_hand(size_h, p, expected):
    c = bounds.compute("claim3", num_hypotheses=size_h, dual_vc=p)
    assert c["log_domain_size"] == pytest.approx(expected, rel=1e-12)


def test_claim3_huge_class_carried_in_log_space():
    c = bounds.compute("claim3", num_hypotheses=10**400, dual_vc=50)
    expected = 50 * (1 + 400 * math.log(10) - math.log(50))
    assert c["log_domain_size"] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("d", [1, 3, 10, 52])
def test_fact4_by_hand(d):
    assert bounds.compute("fact4", vc=d)["max_dual_vc"] == 2 ** (d + 1) - 1


def test_fact4_beyond_float():
    q = bounds.compute("fact4", vc=2000).quantities["max_dual_vc"]
    assert q.log10 == pytest.approx(2001 * math.log10(2), rel=1e-12)
    # the engine rebuilds integers beyond float from log10: ~15 significant digits, not exact
    assert abs(q.exact - (2**2001 - 1)) / 2**2001 < 1e-12


# --- Lemma 7 --------------------------------------------------------------------------------------
@pytest.mark.parametrize("alpha,beta,eps,delta,size_h,size_x", [
    (0.1, 0.05, 0.5, 1e-6, 100, 1000),
    (0.01, 0.1, 0.9, 1e-3, 2, 2),
    (0.3, 0.5, 0.1, 0.5, 10**6, 2**40),
])
def test_lemma7_corrected_and_printed_by_hand(alpha, beta, eps, delta, size_h, size_x):
    c = bounds.compute("lemma7", alpha=alpha, beta=beta, epsilon=eps, delta=delta,
                       num_hypotheses=size_h, domain_size=size_x)
    lh, lx = math.log(size_h), math.log(size_x)
    assert c["private_samples_fixed_split"] == math.ceil(hand_lemma7(alpha, beta, eps, delta, lh, lx))
    assert c["private_samples_as_printed"] == math.ceil(
        hand_lemma7_printed(alpha, beta, eps, delta, lh, lx))


def test_lemma7_printed_value_of_the_engine_example():
    """The printed formula at the engine's first example gave 7,604,737 (kept as a step)."""
    c = bounds.compute("lemma7", alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6,
                       num_hypotheses=100, domain_size=1000)
    assert c["private_samples_as_printed"] == 7_604_737


def test_lemma7_printed_constants_are_dwork_roth_at_half_alpha():
    """Erratum check on the constants the code uses for the printed Lemma 7, read back from its formula (linear in
    log|H~|: the slope gives C1 in C1/(eps alpha^2), the intercept C2 in log(C2 log|X~|/(alpha^2 beta))): C1 = 200
    >= 4 (2 + 32 sqrt 2) and C2 = 128 = 32 * 2^2, i.e. Dwork-Roth 4.15 at a = alpha/2. Broken once: 200 -> 190
    in bounds' formula fails the first assertion."""
    from bounds.ops import NUMPY
    from bounds.papers.bcmnuw20 import lemma7_n_printed_logs

    alpha, beta, eps, delta, log_x = 0.1, 0.05, 0.5, 1e-6, math.log(1000)
    f = lambda log_h: lemma7_n_printed_logs(NUMPY, alpha, beta, eps, delta, log_h, log_x)  # noqa: E731
    slope = f(2.0) - f(1.0)
    c1 = slope * eps * alpha**2 / math.sqrt(log_x * math.log(2 / delta))
    c2 = math.exp((f(1.0) - slope) / slope) * alpha**2 * beta / log_x
    assert c1 == pytest.approx(200, rel=1e-9) and 4 * DR415 <= c1 < 4 * DR415 * 1.06
    assert c2 == pytest.approx(32 * 2**2, rel=1e-9)


@settings(max_examples=60, deadline=None)
@given(alpha=st.floats(1e-6, 0.99), beta=st.floats(1e-9, 0.99), eps=st.floats(1e-3, 0.99),
       delta=st.floats(1e-12, 0.99), size_h=st.integers(1, 10**9), size_x=st.integers(2, 10**12))
def test_lemma7_corrected_is_at_least_printed(alpha, beta, eps, delta, size_h, size_x):
    """The corrected n exceeds the printed one (the printed one promises more than it gets)."""
    c = bounds.compute("lemma7", alpha=alpha, beta=beta, epsilon=eps, delta=delta,
                       num_hypotheses=size_h, domain_size=size_x)
    assert c["private_samples"] >= c["private_samples_as_printed"]


@pytest.mark.parametrize("alpha,beta,eps,delta,size_h,size_x", [
    (0.5, 0.1, 0.999, 1e-6, 33, 32), (0.1, 0.05, 0.5, 1e-6, 100, 1000),
    (0.02, 1e-4, 0.2, 1e-9, 5000, 2**20)])
def test_lemma7_equals_the_pmw_that_runs(alpha, beta, eps, delta, size_h, size_x):
    """bounds and algorithms.query_release.pmw derive the same sufficient n (no formula drift)."""
    from algorithms.query_release.pmw import pmw_sample_size

    n = bounds.compute("lemma7", alpha=alpha, beta=beta, epsilon=eps, delta=delta,
                       num_hypotheses=size_h, domain_size=size_x)["private_samples_fixed_split"]
    assert n == pmw_sample_size(alpha, beta, eps, delta, domain_size=size_x, num_queries=size_h)


@pytest.mark.parametrize("alpha,beta,eps,delta,size_h,size_x", [
    (0.5, 0.1, 0.999, 1e-6, 33, 32), (0.1, 0.05, 0.5, 1e-6, 100, 1000),
    (0.02, 1e-4, 0.2, 1e-9, 5000, 2**20), (0.05, 0.014, 0.45, 1.2e-4, 10**60, 2**40)])
def test_lemma7_tight_equals_the_pmw_that_runs_at_its_mw_accuracy(alpha, beta, eps, delta, size_h,
                                                                   size_x):
    """PMW given bounds' mw_accuracy derives bounds' tight n (the algorithms-side twin of the formula
    and its failure shares does not drift); without it, the fixed split's n."""
    from algorithms.query_release.pmw import pmw_parameters, pmw_sample_size

    c = bounds.compute("lemma7", alpha=alpha, beta=beta, epsilon=eps, delta=delta,
                       num_hypotheses=size_h, domain_size=size_x)
    kw = dict(domain_size=size_x, num_queries=size_h)
    assert c["private_samples"] == pmw_sample_size(alpha, beta, eps, delta, mw_accuracy=c["mw_accuracy"], **kw)
    p = pmw_parameters(alpha, beta, eps, delta, n=c["private_samples"], mw_accuracy=c["mw_accuracy"], **kw)
    assert p.accurate and p.tight and p.alpha_mw == c["mw_accuracy"] and p.c == c["update_cutoff"]
    assert p.alpha_ns == pytest.approx(c["tolerance_comparisons"] + c["tolerance_thresholds"]
                                       + c["tolerance_answers"], rel=1e-9)


def hand_tight_slacks(n, alpha, eps, delta, log_h, log_x, a_mw, shares):
    """The tight Lemma 7's three steps at n private samples (plain math, [0, 1] scale). The failure
    shares fix each family's tolerance at n: t = scale * log(count/share)/n for the 2|H~| comparison
    (scale 2 sigma_1), c + 1 threshold (sigma_1) and c answer (sigma_2) noises, Hoeffding
    sqrt(log(2|H~|/share)/(2n)). Returns the slacks of the direction step (2 a - t_cmp - t_thr -
    t_ans), the update step (a - t_cmp - t_thr) and the error step (alpha/2 - 2a - t_cmp - t_thr -
    a_uc); all >= 0 means the derivation holds at n."""
    c = math.floor(4 * log_x / a_mw**2) + 1
    r = math.sqrt(512)
    sigma = math.sqrt(32 * c * math.log(2 / delta))
    s1, s2 = sigma * (r + 1) / (r * eps), sigma * (r + 1) / (2 * eps)
    b_cmp, b_thr, b_ans, b_uc = shares
    t_cmp = 2 * s1 * math.log(2 * math.exp(log_h) / b_cmp) / n
    t_thr = s1 * math.log((c + 1) / b_thr) / n
    t_ans = s2 * math.log(c / b_ans) / n
    a_uc = math.sqrt(math.log(2 * math.exp(log_h) / b_uc) / (2 * n))
    return (2 * a_mw - t_cmp - t_thr - t_ans, a_mw - t_cmp - t_thr,
            alpha / 2 - 2 * a_mw - t_cmp - t_thr - a_uc)


SHARES = ("failure_comparisons", "failure_thresholds", "failure_answers", "failure_uniform")


def tight_least_ok(c, alpha, beta, eps, delta, log_h, log_x):
    """n is the least integer at which the three steps hold at the shown alpha_mw and shares, and the
    shares sum to beta."""
    a, n, shares = c["mw_accuracy"], c["private_samples"], [c[k] for k in SHARES]
    return (sum(shares) == pytest.approx(beta, rel=1e-9)
            and min(hand_tight_slacks(n, alpha, eps, delta, log_h, log_x, a, shares)) >= -1e-15
            and min(hand_tight_slacks(n - 1, alpha, eps, delta, log_h, log_x, a, shares)) < 0)


LEMMA7_POINTS = [(0.1, 0.05, 0.5, 1e-6, 100, 1000), (0.01, 0.1, 0.9, 1e-3, 2, 2),
                 (0.3, 0.5, 0.1, 0.5, 10**6, 2**40), (0.5, 1e-6, 0.99, 1e-9, 10**9, 2)]


@pytest.mark.parametrize("alpha,beta,eps,delta,size_h,size_x", LEMMA7_POINTS)
def test_lemma7_tight_n_is_least_and_below_the_previous(alpha, beta, eps, delta, size_h, size_x):
    """The tight n is the least integer at which the direction, update and error steps hold at the
    shown alpha_mw and failure shares (which sum to beta), and is below the previous correction and
    the fixed split. Breaks caught: the answer tolerance held to alpha_mw again (n doubles, the
    README test fails), a family dropped from the shares, a tolerance off by 2, a non-least n."""
    c = bounds.compute("lemma7", alpha=alpha, beta=beta, epsilon=eps, delta=delta,
                       num_hypotheses=size_h, domain_size=size_x)
    lh, lx = math.log(size_h), math.log(size_x)
    assert tight_least_ok(c, alpha, beta, eps, delta, lh, lx)
    assert 0 < c["mw_error_share"] < 1 and 0 < c["mw_accuracy"] < alpha / 4
    assert c["private_samples"] < c["private_samples_previous"] <= c["private_samples_fixed_split"]


@pytest.mark.parametrize("alpha,beta,eps,delta,size_h,size_x", LEMMA7_POINTS)
def test_lemma7_previous_is_the_union_bound_at_its_best_share(alpha, beta, eps, delta, size_h, size_x):
    """The previous correction (answer noise within alpha_mw) is within 0.5% above the least n over a
    hand grid of 400 error shares of its union bound, and not below a finer grid around the best
    share by more than 0.1%. Breaks caught: a family dropped from its union bound, a rate off by 2, a Newton
    iterate returned before the sound step."""
    c = bounds.compute("lemma7", alpha=alpha, beta=beta, epsilon=eps, delta=delta,
                       num_hypotheses=size_h, domain_size=size_x)
    lh, lx = math.log(size_h), math.log(size_x)
    best, t0 = min((hand_least_n(alpha, beta, eps, delta, lh, lx, t / 400), t) for t in range(1, 400))
    fine = min(hand_least_n(alpha, beta, eps, delta, lh, lx, (t0 + u / 50) / 400) for u in range(-49, 50))
    assert fine * 0.999 <= c["private_samples_previous"] <= best * 1.005


@pytest.mark.parametrize("alpha,beta,eps,delta,log_h,log_x", [
    (0.05, 0.025, 0.5, 1e-6, 27.37, 210.3), (0.3, 1e-6, 0.9, 1e-9, 3.0, 80.0),
    (0.05, 0.014, 0.45, 1.2e-4, 157.0, 28.3)])
def test_lemma7_tight_choice_is_near_a_numerical_minimum(alpha, beta, eps, delta, log_h, log_x):
    """The closed-form alpha_mw and shares give an n within 0.3% of a Nelder-Mead search over the three
    free splits (PMW's error share, comparison+threshold vs answer tolerance, comparison vs threshold)
    of the same steps as a union bound; the last point has log|H~| > log|X~|, where the update step
    binds. Breaks caught: a closed-form pass dropped or a gradient sign flipped (1-16% worse)."""
    from scipy.optimize import minimize

    from bounds.ops import NUMPY
    from bounds.papers import bcmnuw20_lemma7 as l7

    r = math.sqrt(512)

    def log_n(x):
        s, t, u = x
        if not (0 < s < 1 and 0 < t <= 1 and 0 < u < 1):
            return 1e9
        a = s * alpha / 2 / (2 + t)
        c = math.floor(4 * log_x / a**2) + 1
        sig = math.sqrt(32 * c * math.log(2 / delta))
        s1, s2 = sig * (r + 1) / (r * eps), sig * (r + 1) / (2 * eps)
        fam = [(math.log(2) + log_h, u * t * a / (2 * s1)), (math.log(c + 1), (1 - u) * t * a / s1),
               (math.log(c), (2 - t) * a / s2), (math.log(2) + log_h, 2 * ((1 - s) * alpha / 2) ** 2)]
        lo, hi = -5.0, 200.0
        for _ in range(80):
            mid = (lo + hi) / 2
            tot = sum(math.exp(min(lg - math.exp(mid) * rate, 700)) for lg, rate in fam)
            lo, hi = (lo, mid) if tot <= beta else (mid, hi)
        return hi

    start = min(((s, t, u) for s in (0.9, 0.99, 0.999) for t in (0.2, 0.6, 1.0) for u in (0.3, 0.7)),
                key=log_n)
    ref = math.exp(minimize(log_n, start, method="Nelder-Mead",
                            options=dict(xatol=1e-9, fatol=1e-12, maxiter=2000)).fun)
    a = l7.lemma7_tight_accuracy(NUMPY, alpha, beta, eps, delta, log_h, log_x)
    c = l7.lemma7_cutoff_at(NUMPY, log_x, a)
    n = l7.lemma7_tight_n(NUMPY, alpha, eps, delta, log_h, a, c,
                          *l7.lemma7_tight_shares(NUMPY, alpha, beta, eps, delta, log_h, a, c))
    assert n <= ref * 1.003


def test_lemma7_readme_values_and_ratios():
    """At the README point Theorem 10's PMW step: tight n 2,171,649,578 (an independent
    re-derivation found about 2.17e9; a Nelder-Mead search over the splits 2,171,456,702), the previous correction about
    4.277e9 (2.05x), the fixed split 8,455,347,274 and the printed 417,675,167 (re-measured for docs/ERRATA.md)."""
    c = bounds.compute("thm10", **README)
    assert c["private_samples"] == 2_171_649_578
    assert 4.276e9 < c["private_samples_previous"] < 4.278e9
    assert c["private_samples_fixed_split"] == 8_455_347_274
    assert c["private_samples_as_printed"] == 417_675_167


def test_lemma7_domain():
    with pytest.raises(DomainError, match="--epsilon"):
        bounds.compute("lemma7", alpha=0.1, beta=0.1, epsilon=1.5, delta=1e-6,
                       num_hypotheses=4, domain_size=4)
    with pytest.raises(DomainError, match="--domain-size"):
        bounds.compute("lemma7", alpha=0.1, beta=0.1, epsilon=0.5, delta=1e-6,
                       num_hypotheses=4, domain_size=1)


# --- Lemma 11 -------------------------------------------------------------------------------------
@pytest.mark.parametrize("alpha,beta,d", [(0.1, 0.05, 3), (0.5, 0.5, 1), (0.01, 1e-9, 20),
                                          (1e-4, 0.1, 1000)])
def test_lemma11_least_m_by_hand(alpha, beta, d):
    """Lemma 11 = ABM19 Lemma 3.3 at (alpha/4, beta/2): least m, checked by brute force."""
    m = bounds.compute("lemma11", alpha=alpha, beta=beta, vc=d)["public_samples"]
    assert m == least_m(alpha / 4, beta / 2, d)
    assert cover_tail(m, alpha / 4, beta / 2, d) <= 0
    assert m == math.ceil(32 * d / alpha) or cover_tail(m - 1, alpha / 4, beta / 2, d) > 0


def test_lemma11_no_solution_below_the_solver_start():
    """Below 32d/alpha the tail bound never drops under beta/2 (so starting there loses nothing)."""
    alpha, beta, d = 0.5, 0.5, 2
    start = math.ceil(8 * d / (alpha / 4))
    assert all(cover_tail(m, alpha / 4, beta / 2, d) > 0 for m in range(max(1, d // 2), start))


def test_lemma11_readme_point_value():
    assert bounds.compute("lemma11", alpha=0.1, beta=0.05, vc=3)["public_samples"] == 10_126


# --- Theorem 10 and the Remark -------------------------------------------------------------------
def hand_thm10(alpha, beta, eps, delta, d, p):
    m = least_m(alpha / 4, beta / 2, d)
    log_h = min(m * math.log(2), d * math.log(E * m / d))
    k = min(p, math.exp(log_h)) if log_h < 700 else p
    log_x = min(k * (1 + log_h - math.log(k)), math.exp(log_h) * math.log(2) if log_h < 700
                else math.inf)
    n = hand_lemma7(alpha / 2, beta / 2, eps, delta, log_h, log_x)
    return m, log_h, log_x, math.ceil(n)


def hand_thm10_optimised_ok(c, alpha, beta, eps, delta, log_h, log_x):
    """Theorem 10's n is the tight Lemma 7 at (alpha/2, beta/2) and the shown budgets: least."""
    return tight_least_ok(c, alpha / 2, beta / 2, eps, delta, log_h, log_x)


@pytest.mark.parametrize("point", [
    README,
    dict(alpha=0.05, beta=0.01, epsilon=0.9, delta=1e-9, vc=1, dual_vc=1),
    dict(alpha=0.2, beta=0.2, epsilon=0.1, delta=0.01, vc=10, dual_vc=500),
])
def test_thm10_chain_by_hand(point):
    c = bounds.compute("thm10", **point)
    m, log_h, log_x, n = hand_thm10(point["alpha"], point["beta"], point["epsilon"],
                                    point["delta"], point["vc"], point["dual_vc"])
    assert c["public_samples"] == m
    assert c["log_cover_size"] == pytest.approx(log_h, rel=1e-12)
    assert c["log_domain_size"] == pytest.approx(log_x, rel=1e-12)
    assert c["private_samples_fixed_split"] == n
    assert hand_thm10_optimised_ok(c, point["alpha"], point["beta"], point["epsilon"],
                                   point["delta"], log_h, log_x)
    assert c.explicit


def test_thm10_readme_values():
    """The README's first command: m = 10,126 and n = 8,455,347,274 (corrected Lemma 7)."""
    c = bounds.compute("thm10", **README)
    assert (c["public_samples"], c["private_samples_fixed_split"]) == (10_126, 8_455_347_274)


def test_thm10_public_samples_equal_lemma11():
    for a in (0.3, 0.1, 0.01):
        assert (bounds.compute("thm10", **{**README, "alpha": a})["public_samples"]
                == bounds.compute("lemma11", alpha=a, beta=0.05, vc=3)["public_samples"])


def test_sauer_projection_when_fewer_points_than_dimension():
    """m < d: |Pi_H(T)| <= 2^m, not (em/d)^d (which would be below 1)."""
    from bounds.ops import NUMPY
    from bounds.papers.bcmnuw20 import sauer_log_projection

    assert float(sauer_log_projection(NUMPY, 3.0, 10.0)) == pytest.approx(3 * math.log(2))
    assert float(sauer_log_projection(NUMPY, 100.0, 3.0)) == pytest.approx(3 * math.log(E * 100 / 3))
    assert float(sauer_log_projection(NUMPY, 10.0, 10.0)) == pytest.approx(10 * math.log(2))


def test_remark10_is_thm10_at_the_fact4_dual_dimension():
    for d in (1, 3, 8):
        rem = bounds.compute("remark10", alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, vc=d)
        thm = bounds.compute("thm10", **{**README, "vc": d, "dual_vc": 2 ** (d + 1) - 1})
        assert rem["max_dual_vc"] == 2 ** (d + 1) - 1
        for q in ("public_samples", "log_cover_size", "log_domain_size", "private_samples"):
            assert rem[q] == pytest.approx(thm[q], rel=1e-12)


def test_thm10_asymptotic_forms_with_constants():
    c = bounds.compute("thm10", form="asymptotic", constants={"C_10n": 2.0, "C_10m": 3.0},
                       **README)
    L = 3 * math.log(10) + math.log(20)
    assert c["public_samples"] == math.ceil(3.0 * L / 0.1)
    assert c["private_samples"] == math.ceil(2.0 * L**1.5 * math.sqrt(8 * math.log(1e6))
                                             / (0.5 * 0.01))
    assert not c.explicit and any("C_10n = 2" in s for s in c.caveats)


# --- Theorems 13, 14, 15, Lemma 17 -----------------------------------------------------------------
def test_thm14_and_thm13_by_hand_with_user_constants():
    consts = {"C_14r": 0.5, "C_14t": 3.0}
    c14 = bounds.compute("thm14", form="asymptotic", alpha=0.05, dual_vc=400, constants=consts)
    r, t = 0.5 * 20 / 0.05, 3.0 / 0.05**2
    assert c14["range_r"] == pytest.approx(r) and c14["traced_t"] == pytest.approx(t)
    assert c14["failure_probability"] == pytest.approx(1 / (r + t) ** 2)
    assert not c14.explicit and len(c14.caveats) == 3
    c13 = bounds.compute("thm13", form="asymptotic", alpha=0.05, dual_vc=400, constants=consts)
    assert c13["private_samples"] == pytest.approx(r)
    assert c13["public_samples"] == pytest.approx(t / 2)


def test_thm15_and_lemma17_by_hand():
    assert bounds.compute("thm15", form="asymptotic", alpha=0.01)["public_samples"] == pytest.approx(100)
    c = bounds.compute("lemma17", form="asymptotic", alpha=0.1, beta=0.1, private_samples=100, public_samples=50,
                       constants={"C_17": 2})
    assert c["learner_private_samples"] == pytest.approx(2 * 100 * math.log(100) / (0.01 * 0.1))
    assert c["learner_public_samples"] == 50
    assert c.quantities["learner_public_samples"].explicit
    assert not c.quantities["learner_private_samples"].explicit  # the asymptotic form was asked for


# --- consistency between upper and lower bounds ---------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(alpha=st.floats(1e-4, 0.45), k=st.integers(1, 40))
def test_thm10_on_decision_stumps_respects_thm13(alpha, k):
    """Decision stumps S_p, p = 2^k: VC = k, dual VC = p. Theorem 10's m is o(1/alpha^2), so
    Theorem 13 (constants 1) demands n >= sqrt(p)/alpha whenever m < 1/(2 alpha^2); Theorem 10's
    explicit n must not fall below it."""
    p = 2**k
    up = bounds.compute("thm10", alpha=alpha, beta=alpha, epsilon=0.99, delta=0.01, vc=k,
                        dual_vc=p)
    low = bounds.compute("thm13", alpha=alpha, dual_vc=p)
    if up["public_samples"] < low["public_samples"]:
        assert up["private_samples"] >= low["private_samples"]
    # no private data at all: uniform convergence (all public) must exceed Theorem 13's t/2
    uc = bounds.compute("uc", alpha=alpha, beta=alpha, vc=k)
    assert uc["public_samples"] >= low["public_samples"]


@settings(max_examples=40, deadline=None)
@given(alpha=st.floats(1e-9, 0.99), beta=st.floats(1e-9, 0.99))
def test_thm10_public_samples_respect_thm15_on_thresholds(alpha, beta):
    """Thresholds over R (VC 1, infinite Littlestone dimension): m >= 1/alpha (Theorem 15, C=1)."""
    m = bounds.compute("lemma11", alpha=alpha, beta=beta, vc=1)["public_samples"]
    assert m >= bounds.compute("thm15", alpha=alpha)["public_samples"]


def test_pmw_over_stumps_domain_respects_thm13():
    """Without public data (m = 0 < t/2) PMW over {+-1}^p must need >= sqrt(p)/alpha samples."""
    for p, alpha in ((8, 0.1), (1024, 0.01), (4096, 0.05)):
        n = bounds.compute("pmw", alpha=alpha, beta=alpha, epsilon=0.99, delta=0.01,
                           num_hypotheses=p, domain_size=2**p)["private_samples"]
        assert n >= bounds.compute("thm13", alpha=alpha, dual_vc=p)["private_samples"]


def test_lemma11_tail_agrees_with_abm19_lemma3_3():
    """ABM19 Lemma 3.3 is written twice (abm19.cover_log_tail, bcmnuw20.lemma11_public_samples_g):
    catches a drift between the two until one imports the other."""
    import numpy as np

    from bounds.ops import NUMPY
    from bounds.papers import abm19
    from bounds.papers.bcmnuw20 import lemma11_public_samples_g, lemma11_public_samples_lower

    rng = np.random.default_rng(3)
    m = np.exp(rng.uniform(0, 40, 1000))
    alpha, beta = rng.uniform(1e-6, 1, 1000), np.exp(rng.uniform(-30, 0, 1000))
    d = rng.integers(1, 10**4, 1000).astype(float)
    np.testing.assert_allclose(lemma11_public_samples_g(NUMPY, m, alpha, beta, d),
                               abm19.cover_log_tail(NUMPY, m, alpha, beta, d), rtol=1e-9, atol=1e-6)
    np.testing.assert_allclose(lemma11_public_samples_lower(NUMPY, alpha, d),
                               abm19.cover_lower(NUMPY, alpha, d))
    assert (bounds.compute("lemma11", alpha=0.1, beta=0.05, vc=3)["public_samples"]
            == bounds.compute("lemma3.3", alpha=0.1 / 4, beta=0.05 / 2, vc=3)["public_samples"])
