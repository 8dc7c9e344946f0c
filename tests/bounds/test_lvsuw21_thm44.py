"""LVSUW21 Theorem 4.4, explicit (bounds.papers.lvsuw21_thm44): each constant held to the property that defines it
(the tails spend exactly beta/2 each, E_mw is the root of its quadratic, T* minimises the bound), so a constant
halved fails. Broken once: halving nu, c_sel or the 15/16 of the root each failed here before being restored."""
from __future__ import annotations

import math

import pytest

import bounds
from bounds.ops import NUMPY
from bounds.papers import lvsuw21_thm44 as L

POINTS = [dict(private_samples=10**4, public_samples=1000, num_queries=5000, beta=0.05, eps_tilde=1.0,
               best_mixture_error=0.02),
          dict(private_samples=10**6, public_samples=50, num_queries=100, beta=0.01, eps_tilde=0.3,
               best_mixture_error=0.0),
          dict(private_samples=300, public_samples=10**5, num_queries=10**6, beta=0.2, eps_tilde=2.0,
               best_mixture_error=0.1)]


@pytest.mark.parametrize("kw", POINTS)
def test_each_step_is_what_defines_it(kw):
    c = bounds.compute("thm4.4", **kw)
    n, m, Q, beta, et, f = (kw[k] for k in ("private_samples", "public_samples", "num_queries", "beta", "eps_tilde",
                                             "best_mixture_error"))
    T, eps0, nu, cs, E = (c[k] for k in ("iterations", "eps_round", "noise_bound", "selection_error", "mw_error"))
    assert eps0 == pytest.approx(et / math.sqrt(2 * T))
    sigma = 1 / (n * eps0)
    assert T * 2 * math.exp(-nu**2 / (2 * sigma**2)) == pytest.approx(beta / 2, rel=1e-9)   # Gaussian tails
    assert T * Q * math.exp(-eps0 * n * cs / 2) == pytest.approx(beta / 2, rel=1e-9)        # permute-and-flip
    b, c0 = f + 9 * nu / 8, f * nu / 2 + nu**2 / 32
    assert (15 / 32) * E**2 - (b / 2) * E - c0 - math.log(m) / T == pytest.approx(0, abs=1e-12)
    assert E >= 0 and c["error"] == pytest.approx(E + cs)


@pytest.mark.parametrize("kw", POINTS)
def test_T_star_is_no_worse_than_its_neighbours(kw):
    c = bounds.compute("thm4.4", **kw)
    args = [kw[k] for k in ("private_samples", "public_samples", "num_queries", "beta", "eps_tilde",
                            "best_mixture_error")]
    T = c["iterations"]
    for other in (max(1, round(T / 2)), round(2 * T), round(1.05 * T) + 1):
        assert c["error"] <= float(L.thm44_bound_at(NUMPY, *args, other)) * (1 + 1e-12)


def test_theorem_4_4_is_explicit():
    assert bounds.get("thm4.4").explicit_status == "yes"
