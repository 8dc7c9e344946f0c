"""BCMNUW20 Theorems 13-15 and Lemma 17, explicit (bounds.papers.bcmnuw20_explicit): each constant of the chain is held
to the property that defines it, both ways (it satisfies the inequality it is derived from, and it is the extreme
value that does), so a constant halved or doubled fails. Broken once: halving the matrix-Bernstein b (the tail then
exceeds delta), S (no longer the largest total), the 1600 of Theorem 15 and the (2 + sqrt 6) of gamma each failed
here before being restored."""
from __future__ import annotations

import math

import numpy as np
import pytest

import bounds
from bounds.ops import NUMPY
from bounds.papers import bcmnuw20_explicit as L

POINTS = [(0.001, 2000), (0.003, 2000), (0.0005, 10**6), (0.02, 400), (0.2, 2000)]


def chain(alpha, p):
    return bounds.compute("thm14", alpha=alpha, dual_vc=p)


def test_bias_range_maximises_the_leading_signal():
    """gamma = (2 + sqrt 6) alpha maximises F/(gamma + alpha) as alpha -> 0: halving or doubling it loses signal."""
    a = 1e-6
    def lead(g):
        return float(L.thm14_signal_floor(NUMPY, g, L.thm14_accuracy_slack(NUMPY, a, g)) / (g + a))
    g = float(L.thm14_bias_range(NUMPY, a))
    assert g == pytest.approx((2 + math.sqrt(6)) * a)
    for other in (g / 2, 2 * g, 0.9 * g, 1.1 * g):
        assert lead(g) > lead(other)


@pytest.mark.parametrize("alpha,p", POINTS)
def test_accuracy_slack_is_the_supremum_over_failure_probabilities(alpha, p):
    c = chain(alpha, p)
    g, a = c["bias_range"], c["accuracy_slack"]
    b = np.linspace(0, alpha, 101)
    worst = np.max(alpha * (1 - b) + (1 + g) * b)
    assert a == pytest.approx(worst, rel=1e-12)


def test_signal_floor_is_attained_in_the_limit():
    """F(a, gamma) is the limit of the average of (1 - mu^2) g' for g = mu - a tanh(k mu), k -> inf: a floor that
    were half (or any part) of it would not be the greatest lower bound."""
    from proofs_checks.bcmnuw20_explicit import fingerprint_signal

    for a, g in ((0.05, 0.3), (0.2, 0.9), (0.01, 0.05)):
        F = float(L.thm14_signal_floor(NUMPY, g, a))
        near = float(fingerprint_signal(NUMPY, a, g, 1e6, 1.0))
        assert near >= F - 1e-9 and near == pytest.approx(F, abs=1e-3 * max(1, abs(F)))


@pytest.mark.parametrize("alpha,p", POINTS)
def test_range_total_is_the_largest_within_half_the_signal(alpha, p):
    c = chain(alpha, p)
    S, kappa = c["range_total"], c["normalised_signal"]
    assert kappa == pytest.approx(math.sqrt(p) * c["signal_floor"] / c["norm_cap"])
    assert c["norm_cap"] == pytest.approx(min(c["bias_range"] + alpha, 1))
    cost = (lambda s: 2 * s * math.sqrt(2 * math.log(s)) if s >= 1 else 0.0)
    assert cost(S) <= kappa / 2
    assert cost(S + 1) > kappa / 2


@pytest.mark.parametrize("alpha,p", POINTS)
def test_tail_bounds_spend_exactly_delta(alpha, p):
    """Matrix Bernstein at b and Hoeffding at zeta each fail with probability exactly delta = 1/(S^2 p)."""
    c = chain(alpha, p)
    S, g, delta, b, zeta = (c[k] for k in ("range_total", "bias_range", "tail_failure", "operator_norm_bound",
                                           "reference_bound"))
    Se = max(S, 1)
    assert delta == pytest.approx(1 / (Se**2 * p))
    sigma2, R = max(Se, p), 1 + g
    tail = (Se + p) * math.exp(-(b**2 / 2) / (sigma2 + R * b / 3))
    assert tail == pytest.approx(delta, rel=1e-9)
    assert 2 * math.exp(-zeta**2 / 2) == pytest.approx(delta, rel=1e-9)


@pytest.mark.parametrize("alpha,p", POINTS)
def test_expected_count_t_r_and_level(alpha, p):
    c = chain(alpha, p)
    S, g, kappa, b, zeta = (c[k] for k in ("range_total", "bias_range", "normalised_signal", "operator_norm_bound",
                                           "reference_bound"))
    Se = max(S, 1)
    member = max(kappa / 2 - 4 * (1 + g) / (Se * math.sqrt(p)), 0)
    assert c["member_signal"] == pytest.approx(member, abs=1e-12)
    K = (member / (b + math.sqrt(Se) * zeta)) ** 2
    assert c["expected_traced"] == pytest.approx(K, rel=1e-12, abs=1e-300)
    assert c["traced_t"] == pytest.approx(2 * K - 1)
    assert c["range_r"] + c["traced_t"] == pytest.approx(S)
    assert c["failure_probability"] == pytest.approx(1 / Se**2)


def test_thm13_takes_r_and_t_over_two():
    for alpha, p in POINTS:
        c13, c14 = bounds.compute("thm13", alpha=alpha, dual_vc=p), chain(alpha, p)
        assert c13["private_samples"] == pytest.approx(c14["range_r"])
        assert c13["public_samples"] == pytest.approx(c14["traced_t"] / 2)


def test_small_alpha_region_is_not_vacuous_and_alpha_02_is():
    """The explicit constants say where Theorem 13 bites: alpha = 0.001, p = 2000 gives t ~ 49, r ~ 282; at the
    simulation's alpha = 0.2 the attack guarantees nothing (t < 0), and compute says so."""
    c = chain(0.001, 2000)
    assert 40 < c["traced_t"] < 60 and 250 < c["range_r"] < 320 and not c.regime
    assert chain(0.2, 2000)["traced_t"] < 0 and chain(0.2, 2000).regime


@pytest.mark.parametrize("alpha", [1e-2, 3e-3, 1e-4, 6.25e-4])
def test_thm15_is_the_least_integer_above_one_over_1600_alpha(alpha):
    m = bounds.compute("thm15", alpha=alpha)["public_samples"]
    assert m > 1 / (1600 * alpha) and m - 1 <= 1 / (1600 * alpha)
    assert m == bounds.compute("abm19:thm4.1", alpha=alpha)["public_samples"]


def test_thm15_outside_abm19s_alpha_is_flagged():
    assert bounds.compute("thm15", alpha=0.05).regime and not bounds.compute("thm15", alpha=0.005).regime


def test_lemma17_passes_sizes_and_parameters_through():
    c = bounds.compute("lemma17", alpha=0.1, beta=0.05, private_samples=1000, public_samples=20)
    assert c["learner_private_samples"] == 1000 and c["learner_public_samples"] == 20
    assert c["learner_excess_error"] == 0.1 and c["learner_failure"] == 0.05
    assert c["learner_private_samples_as_printed"] == pytest.approx(1000 * math.log(200) / (0.01 * 0.05))


def test_every_headline_quantity_is_explicit():
    for rid in ("thm13", "thm14", "thm15", "lemma17"):
        assert bounds.get(rid).explicit_status == "yes", rid


@pytest.mark.parametrize("alpha,p", [(0.001, 2000), (0.05, 10**8), (0.08, 10**6), (0.02, 10**5)])
def test_tightened_chain_is_the_largest_total_with_t_at_least_one(alpha, p):
    """The tightened chain's S' = r' + t' has t' = 2 K' - 1 >= 1 and S' + 1 does not (recomputed from bounds' own
    step function); it is never worse than the matrix-Bernstein chain's t where that is positive. Broken once:
    dropping the 2 in 2 M zeta of the root made S' + 1 fit."""
    c = chain(alpha, p)
    S, K, kappa = c["range_total_tight"], c["expected_traced_tight"], c["normalised_signal"]
    assert S >= 1 and K >= 1 and c["traced_t_tight"] == pytest.approx(2 * K - 1)
    assert c["range_r_tight"] + c["traced_t_tight"] == pytest.approx(S)
    assert L._tight_K(NUMPY, p, kappa, S + 1) < 1 <= L._tight_K(NUMPY, p, kappa, S)
    if c["traced_t"] > 0:
        assert L._tight_K(NUMPY, p, kappa, c["range_total"]) > c["expected_traced"]


def test_tightened_chain_makes_t_positive_where_bernstein_cannot():
    """At alpha = 0.05, p = 10^8 the matrix-Bernstein chain guarantees nothing (t < 0), the tightened one t' >= 1 over
    r' ~ 1090 samples, still far below the ~1.5e4 samples the exact mean needs for (0.05, 0.05)-accuracy."""
    c = chain(0.05, 10**8)
    assert c["traced_t"] < 0 and c["traced_t_tight"] >= 1 and 500 < c["range_r_tight"] < 2000
