"""Baselines: uniform convergence (Anthony & Bartlett 1999, Thm 4.3 with Sauer) and PMW over the
full domain (BCMNUW20 Lemma 7, corrected). Hand values with plain ``math``, the least-integer
property, and the comparison with Theorem 10 that the README advertises.

Breaks caught: gamma = alpha instead of alpha/2 (the [-1, 1] scale), the 4 or 1/8 of the VC
bound changed, Sauer at m instead of 2m, pmw not reusing Lemma 7.
"""
from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bounds

E = math.e


def uc_tail(m, alpha, beta, d):
    """log of 4 (2em/d)^d exp(-(alpha/2)^2 m/8) / beta."""
    return math.log(4) + d * math.log(2 * E * m / d) - (alpha / 2) ** 2 * m / 8 - math.log(beta)


def least_uc(alpha, beta, d):
    m = math.ceil(32 * d / alpha**2)
    while uc_tail(m, alpha, beta, d) > 0:
        m = m * 2
    lo = m // 2
    while m - lo > 1:
        mid = (lo + m) // 2
        lo, m = (lo, mid) if uc_tail(mid, alpha, beta, d) <= 0 else (mid, m)
    return m


@pytest.mark.parametrize("alpha,beta,d", [(0.1, 0.05, 3), (0.5, 0.5, 1), (0.01, 1e-6, 10),
                                          (0.9, 0.9, 100)])
def test_uc_least_m_by_hand(alpha, beta, d):
    m = bounds.compute("uc", alpha=alpha, beta=beta, vc=d)["public_samples"]
    assert m == least_uc(alpha, beta, d)
    assert uc_tail(m, alpha, beta, d) <= 0
    assert m == math.ceil(32 * d / alpha**2) or uc_tail(m - 1, alpha, beta, d) > 0


def test_uc_value_at_the_readme_point():
    assert bounds.compute("uc", alpha=0.1, beta=0.05, vc=3)["public_samples"] == 132_992


def test_uc_no_solution_below_the_solver_start():
    alpha, beta, d = 0.9, 0.9, 4
    start = math.ceil(32 * d / alpha**2)
    assert all(uc_tail(m, alpha, beta, d) > 0 for m in range(max(1, d // 2), start))


@settings(max_examples=60, deadline=None)
@given(alpha=st.floats(1e-5, 0.99), beta=st.floats(1e-12, 0.99), d=st.integers(1, 10**5))
def test_uc_above_its_order_with_constant_one(alpha, beta, d):
    c = bounds.compute("uc", alpha=alpha, beta=beta, vc=d)
    assert c["public_samples"] >= (d + math.log(1 / beta)) / alpha**2


@pytest.mark.parametrize("alpha,beta,eps,delta,size_h,size_x", [
    (0.1, 0.05, 0.5, 1e-6, 8, 256), (0.02, 0.01, 0.9, 1e-9, 10**4, 2**64)])
def test_pmw_is_lemma7_over_the_full_domain(alpha, beta, eps, delta, size_h, size_x):
    kw = dict(alpha=alpha, beta=beta, epsilon=eps, delta=delta, num_hypotheses=size_h,
              domain_size=size_x)
    n = bounds.compute("pmw", **kw)["private_samples"]
    assert n == bounds.compute("lemma7", **kw)["private_samples"]
    lx = math.log(size_x)
    c = math.floor(256 * lx / alpha**2) + 1
    r = math.sqrt(512)
    s1 = math.sqrt(32 * c * math.log(2 / delta)) * (r + 1) / (r * eps)
    s2 = math.sqrt(32 * c * math.log(2 / delta)) * (r + 1) / (2 * eps)
    b = beta / 6
    a_ns = max(4 * s1 * math.log(2 * size_h / b), 2 * s1 * math.log((c + 1) / b),
               s2 * math.log(c / b))
    hand = max(8 * a_ns / alpha, 32 * math.log(4 * size_h / beta) / alpha**2)
    assert bounds.compute("pmw", **kw)["private_samples_fixed_split"] == math.ceil(hand)
    assert n <= math.ceil(hand)


def test_compare_thm10_uc_gives_ratios():
    comps = bounds.compare(["thm10", "uc"], alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, vc=3,
                           dual_vc=8)
    thm10, uc = comps
    ratio = uc["public_samples"] / thm10["public_samples"]
    assert ratio == pytest.approx(132_992 / 10_126)
    assert ratio > 1  # the public cover needs fewer samples than uniform convergence


@settings(max_examples=40, deadline=None)
@given(alpha=st.floats(1e-6, 0.2), d=st.integers(1, 50))
def test_thm10_public_samples_below_uniform_convergence_for_small_alpha(alpha, d):
    """BCMNUW20's point: ~d log(1/alpha)/alpha public samples against ~d log(1/alpha)/alpha^2."""
    kw = dict(alpha=alpha, beta=0.05, vc=d)
    assert (bounds.compute("lemma11", **kw)["public_samples"]
            < bounds.compute("uc", **kw)["public_samples"])
