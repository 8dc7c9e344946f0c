"""LVSUW21 (Liu, Vietri, Steinke, Ullman, Wu 2021) in bounds: hand values, the numerical
infimum of Theorem 4.5 against independent minimisers, monotonicity and consistency.

Hand values use plain ``math`` (and scipy/dp_accounting as independent minimisers).
"""
from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq, minimize_scalar

import bounds


# --- Lemma 4.2 --------------------------------------------------------------------------------
@pytest.mark.parametrize("n,eps,beta", [(10**5, 0.01, 0.05), (1000, 1.0, 0.5), (7, 0.3, 1e-9)])
def test_lemma4_2_by_hand(n, eps, beta):
    c = bounds.compute("lemma4.2", private_samples=n, epsilon=eps, beta=beta)
    assert c["sensitivity"] == pytest.approx(1 / n, rel=1e-15)
    assert c["laplace_scale"] == pytest.approx(1 / (n * eps), rel=1e-15)
    assert c["laplace_std"] == pytest.approx(math.sqrt(2) / (n * eps), rel=1e-15)
    assert c["release_error"] == pytest.approx(math.log(1 / beta) / (n * eps), rel=1e-15)


def test_lemma4_2_matches_the_papers_example():
    """Sec. 5.5.1: n ~ 1e5, eps = 0.01 gives Laplace standard deviation ~ 1.414e-3."""
    c = bounds.compute("lemma4.2", private_samples=10**5, epsilon=0.01, beta=0.5)
    assert round(c["laplace_std"], 6) == 0.001414


# --- Proposition 4.3 ----------------------------------------------------------------------------
PROP_POINTS = [(0.1, 0.05, 4096, 0.5, 2.0), (0.01, 0.01, 1, 0.0, 0.0), (0.5, 0.9, 10**6, 3.0, 7.0)]


@pytest.mark.parametrize("alpha,beta,q,d2,dinf", PROP_POINTS)
def test_prop4_3_by_hand(alpha, beta, q, d2, dinf):
    c = bounds.compute("prop4.3", alpha=alpha, beta=beta, num_queries=q, renyi_2=d2, renyi_inf=dinf)
    n = 8 / alpha**2 * math.log(4 * q / beta)
    m = (32 / alpha**2 * math.exp(d2) + 8 / (3 * alpha) * math.exp(dinf)) * math.log((4 * q + 4) / beta)
    assert c["private_samples"] == math.ceil(n)
    assert c["public_samples"] == math.ceil(m)


def test_prop4_3_one_point_in_full():
    """alpha = 0.1, beta = 0.05, |Q| = 4096, D2 = 0.5, Dinf = 2:
    n = 800 log(327680) = 10159.6..; m = (3200 e^0.5 + 26.67 e^2) log(327700) = 69506.6.."""
    c = bounds.compute("prop4.3", alpha=0.1, beta=0.05, num_queries=4096, renyi_2=0.5, renyi_inf=2)
    assert (c["private_samples"], c["public_samples"]) == (10160, 69507)


@pytest.mark.parametrize("alpha,beta,q,d2,dinf", PROP_POINTS)
def test_prop4_3_union_bound_is_at_most_beta_at_the_sizes(alpha, beta, q, d2, dinf):
    """The proof's final failure probability 2|Q| e^{-a^2 n/8} + (2|Q|+2) e^{-a^2 m/(32 e^D2 +
    8/3 a e^Dinf)} is <= beta at the computed n, m (and each half <= beta/2)."""
    c = bounds.compute("prop4.3", alpha=alpha, beta=beta, num_queries=q, renyi_2=d2, renyi_inf=dinf)
    n, m = c["private_samples"], c["public_samples"]
    p_n = 2 * q * math.exp(-alpha**2 * n / 8)
    p_m = (2 * q + 2) * math.exp(-alpha**2 * m / (32 * math.exp(d2) + 8 / 3 * alpha * math.exp(dinf)))
    assert p_n <= beta / 2 * (1 + 1e-12) and p_m <= beta / 2 * (1 + 1e-12)


def test_prop4_3_bernstein_exponent_and_final_ratio():
    """Bernstein at t = alpha m/4 with variance e^D2 and range e^Dinf gives the printed
    denominator; the ratio alpha/4 + (alpha/2)/(1 - alpha/4) <= alpha for alpha <= 4/3."""
    for alpha, var, rng_, m in [(0.1, 1.6, 7.4, 1000), (0.9, 20.0, 100.0, 50)]:
        t = alpha * m / 4
        bernstein = (t**2 / 2) / (m * var + rng_ * t / 3)
        printed = alpha**2 * m / (32 * var + 8 / 3 * alpha * rng_)
        assert bernstein == pytest.approx(printed, rel=1e-12)
    for alpha in np.linspace(1e-6, 4 / 3, 1000):
        assert alpha / 4 + (alpha / 2) / (1 - alpha / 4) <= alpha * (1 + 1e-12)
    alpha = 1.4
    assert alpha / 4 + (alpha / 2) / (1 - alpha / 4) > alpha  # the step needs alpha <= 4/3


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-4, 0.99), st.floats(1e-4, 0.99), st.floats(1e-12, 0.9), st.floats(1e-12, 0.9),
       st.integers(1, 10**9), st.integers(1, 10**9), st.floats(0, 20), st.floats(0, 20),
       st.floats(0, 20), st.floats(0, 20))
def test_prop4_3_monotone(a1, a2, b1, b2, q1, q2, x1, x2, y1, y2):
    grid = dict(alpha=sorted((a1, a2)), beta=sorted((b1, b2)), num_queries=sorted((q1, q2)),
                # Dinf above both D2 values: the result rejects D2 > Dinf (no such pair mu, nu)
                renyi_2=sorted((x1, x2)), renyi_inf=sorted((max(x1, x2) + y1, max(x1, x2) + y2)))
    s = bounds.sweep("prop4.3", **grid)
    n = s["private_samples"].to_numpy().reshape(2, 2, 2, 2, 2)
    m = s["public_samples"].to_numpy().reshape(2, 2, 2, 2, 2)
    for arr, axes in ((n, (0, 1, 2)), (m, (0, 1, 2, 3, 4))):
        for ax in axes:
            first, second = np.take(arr, 0, axis=ax), np.take(arr, 1, axis=ax)
            if ax <= 1:   # alpha, beta: decreasing
                assert np.all(first >= second)
            else:         # |Q|, D2, Dinf: increasing
                assert np.all(first <= second)


# --- Theorem 4.4 --------------------------------------------------------------------------------
def test_thm4_4_asymptotic_forms_by_hand_with_constants_one():
    n, m, q, beta, et, f = 10**5, 1000, 4096, 0.05, 0.5, 0.01
    c = bounds.compute("thm4.4", form="asymptotic", private_samples=n, public_samples=m, num_queries=q, beta=beta,
                       eps_tilde=et, best_mixture_error=f)
    T = n * et * math.sqrt(math.log(m)) / math.log(q) + math.log(1 / beta)
    err = math.sqrt(math.log(q) * (math.sqrt(math.log(m)) + math.log(1 / beta)) / (n * et)) + f
    assert c["iterations"] == pytest.approx(T, rel=1e-12)
    assert c["error"] == pytest.approx(err, rel=1e-12)
    assert not c.explicit  # the asymptotic form was asked for (the paper pins no constant down)
    c2 = bounds.compute("thm4.4", form="asymptotic", constants={"C_4_4": 3.0}, private_samples=n, public_samples=m,
                        num_queries=q, beta=beta, eps_tilde=et, best_mixture_error=f)
    assert c2["error"] == pytest.approx(3 * err, rel=1e-12)


# --- Theorem 4.5 --------------------------------------------------------------------------------
def cks_objective(a, rho, delta):
    """The paper's conversion at Renyi order a > 1."""
    return a * rho + math.log(1 / (a * delta)) / (a - 1) + math.log(1 - 1 / a)


def cks_infimum_by_root(rho, delta):
    """Independent: the minimiser solves rho (a-1)^2 = log(1/(a delta)) (f' = 0), by brentq."""
    a = 1 + brentq(lambda x: rho * x * x - math.log(1 / ((1 + x) * delta)), 1e-300,
                   min(math.sqrt(math.log(1 / delta) / rho), 1 / delta - 1), xtol=1e-300,
                   rtol=4 * np.finfo(float).eps, maxiter=500)
    return cks_objective(a, rho, delta)


@pytest.mark.parametrize("eps_tilde,delta", [(0.5, 1e-6), (1.0, 1e-5), (0.05, 1e-10), (10.0, 0.1),
                                             (3.0, 0.9), (1e-4, 1e-3)])
def test_thm4_5_infimum_matches_independent_minimisers(eps_tilde, delta):
    c = bounds.compute("thm4.5", eps_tilde=eps_tilde, delta=delta, iterations=50)
    rho = eps_tilde**2 / 2
    ref = cks_infimum_by_root(rho, delta)
    assert c["epsilon"] == pytest.approx(ref, rel=1e-9, abs=1e-12)
    sc = minimize_scalar(lambda u: cks_objective(1 + math.exp(u), rho, delta),
                         bounds=(-40, 40), method="bounded", options={"xatol": 1e-12})
    assert c["epsilon"] <= sc.fun + 1e-9 * abs(sc.fun) + 1e-12


def test_thm4_5_infimum_agrees_with_dp_accounting_grid():
    """dp_accounting's RDP conversion (same CKS formula) over a fine grid of orders is an upper
    bound on the infimum and within 1e-6 of it."""
    from dp_accounting.rdp.rdp_privacy_accountant import compute_epsilon

    rho, delta = 0.125, 1e-6
    orders = np.linspace(1.001, 200, 400_000)
    eps_grid, _ = compute_epsilon(orders, rho * orders, delta)
    ours = bounds.compute("thm4.5", eps_tilde=0.5, delta=delta, iterations=1)["epsilon"]
    assert ours <= eps_grid + 1e-12 and eps_grid - ours < 1e-6
    assert ours == pytest.approx(2.419093176867, rel=1e-10)


@pytest.mark.parametrize("eps_tilde,delta,T", [(0.5, 1e-6, 100), (2.0, 1e-9, 1), (0.1, 0.5, 7)])
def test_thm4_5_accounting_by_hand(eps_tilde, delta, T):
    c = bounds.compute("thm4.5", eps_tilde=eps_tilde, delta=delta, iterations=T)
    eps0 = eps_tilde / math.sqrt(2 * T)
    assert c["eps_round"] == pytest.approx(eps0, rel=1e-15)
    assert c["rho_round"] == pytest.approx(eps0**2 / 2, rel=1e-14)
    assert c["rho"] == pytest.approx(eps_tilde**2 / 2, rel=1e-12)  # 2T (eps0^2/2), T cancels
    closed = eps_tilde**2 / 2 + math.sqrt(2 * math.log(1 / delta)) * eps_tilde  # as printed
    assert c["epsilon_closed"] == pytest.approx(closed, rel=1e-12)


def test_thm4_5_sweep_equals_pointwise():
    et = [0.01, 0.3, 1.0, 5.0]
    dl = [1e-12, 1e-6, 0.3]
    s = bounds.sweep("thm4.5", eps_tilde=et, delta=dl, iterations=10)
    for row in s.itertuples():
        one = bounds.compute("thm4.5", eps_tilde=row.eps_tilde, delta=row.delta, iterations=10)
        assert row.epsilon == pytest.approx(one["epsilon"], rel=1e-12, abs=1e-15)


@settings(max_examples=200, deadline=None)
@given(st.floats(1e-6, 1e3), st.floats(1e-300, 0.999))
def test_thm4_5_infimum_never_above_closed_bound(eps_tilde, delta):
    """inf_a CKS(a) <= rho + 2 sqrt(rho log(1/delta)) (exact inequality; 1e-12 relative slack
    for float rounding of the two evaluations only)."""
    c = bounds.compute("thm4.5", eps_tilde=eps_tilde, delta=delta, iterations=1)
    assert c["epsilon"] <= c["epsilon_closed"] * (1 + 1e-12)
    assert c["epsilon"] >= math.log(1 - delta) - 1e-12  # never below the trivial floor


@settings(max_examples=60, deadline=None)
@given(st.floats(1e-4, 100), st.floats(1e-4, 100), st.floats(1e-200, 0.99), st.floats(1e-200, 0.99))
def test_thm4_5_monotone(e1, e2, d1, d2):
    s = bounds.sweep("thm4.5", eps_tilde=sorted((e1, e2)), delta=sorted((d1, d2)), iterations=3)
    for q in ("epsilon", "epsilon_closed"):
        v = s[q].to_numpy().reshape(2, 2)
        tol = 1e-12 * np.abs(v).max() + 1e-15
        assert np.all(v[0] <= v[1] + tol)          # increasing in eps~
        assert np.all(v[:, 0] >= v[:, 1] - tol)    # decreasing in delta


def test_cli_takes_the_new_parameters_and_rejects_bad_delta():
    run = lambda *a: subprocess.run([sys.executable, "-m", "bounds", *a],  # noqa: E731
                                    capture_output=True, text=True)
    ok = run("compute", "thm4.5", "--eps-tilde", "0.5", "--delta", "1e-6", "--iterations", "10",
             "--json")
    assert ok.returncode == 0, ok.stderr
    import json

    q = json.loads(ok.stdout)["quantities"]
    assert q["epsilon"]["explicit"] and abs(q["epsilon"]["value"] - 2.419093176867) < 1e-9
    bad = run("compute", "thm4.5", "--eps-tilde", "0.5", "--delta", "0", "--iterations", "10")
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--delta" in bad.stderr
    assert "Traceback" not in bad.stderr
