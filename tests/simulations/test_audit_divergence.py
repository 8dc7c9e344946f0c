"""Donsker-Varadhan / Renyi variational bounds with empirical Bernstein (simulations._audit_divergence): the bound
holds at its confidence on laws whose divergence equals the ceiling, sees a Gaussian above it, and enters the
audit as the "divergence" objective."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from simulations import audit
from simulations._audit_divergence import (
    TranscriptFeatures, bernstein_mean_bound, declared_ceiling, divergence_objective, minimal_detectable_kl,
    variational_bound,
)


def _gauss(mu, n, rng):
    return rng.normal(0.0, 1.0, n), rng.normal(mu, 1.0, n)


def test_variational_forms_reach_the_divergence_with_the_exact_witness():
    """With g = log dP/dQ (clipped at +-3) the bounds approach KL = mu^2/2 and D_alpha = alpha mu^2/2 of a Gaussian
    shift from below. Broken by once: a Renyi form without the alpha/(alpha-1) factor gives 0.5 at alpha 2, not 1."""
    rng = np.random.default_rng(1)
    mu = 1.0
    q, p = _gauss(mu, 400_000, rng)
    g = lambda x: np.clip(mu * x - mu * mu / 2, -3, 3)  # noqa: E731
    kl = variational_bound(g(p), g(q), 1.0, 3.0, 0.01)
    d2 = variational_bound(g(p), g(q), 2.0, 3.0, 0.01)
    assert 0.5 - 0.02 < kl <= 0.5
    assert 1.0 - 0.07 < d2 <= 1.0


def test_bernstein_bound_holds_at_its_level():
    """Maurer-Pontil's bound on the mean of a skewed [0, 1] variable fails in at most its 5% of 400 seeded sets
    (at most 30 failures: Pr[Bin(400, 0.05) > 30] < 0.02). Broken by once: without the 7 R ln/(3(m-1)) term it
    fails in 36 of 400 on this law (a rare value)."""
    fails = 0
    for seed in range(400):
        x = (np.random.default_rng(seed).random(200) < 0.02).astype(float)
        fails += bernstein_mean_bound(x, 0.0, 1.0, 0.05, "upper") < 0.02
    assert fails <= stats.binom.ppf(0.98, 400, 0.05)


def test_no_false_alarm_when_the_divergence_equals_the_ceiling():
    """A Gaussian shift with KL = D_alpha / alpha = rho exactly (mu = sqrt(2 rho)): the objective at 99% flags at
    most 6 of 200 seeded sample sets (Pr[Bin(200, 0.01) > 6] < 0.005), the learned witness fitted on each.
    Broken by once: the plug-in estimate (no deviation term) flags 30 of the first 40."""
    rho = 0.5
    mu = math.sqrt(2 * rho)
    flags = 0
    for seed in range(200):
        rng = np.random.default_rng(seed)
        q, p = _gauss(mu, 2_000, rng)
        flags += divergence_objective(q, p, 1_000, 0.99, 1.0, 1e-5, rho).refutes
    assert flags <= 6


def test_a_gaussian_above_the_declared_rho_is_seen_and_the_power_line_says_so():
    """A Gaussian with sigma / sqrt 2 (rho 1 declared, true KL 2) is flagged at 20,000 samples per law, and the
    minimal detectable KL at that size is below 2 and shrinks with samples."""
    rng = np.random.default_rng(3)
    q, p = _gauss(2.0, 20_000, rng)
    r = divergence_objective(q, p, 10_000, 0.99, 1.0, 1e-5, 1.0)
    assert r.refutes and r.bound / r.alpha > 1.0
    assert minimal_detectable_kl(10_000, 1.0, 1e-5, 1.0, 0.99) < 2.0
    assert minimal_detectable_kl(40_000, 1.0, 1e-5, 1.0, 0.99) < minimal_detectable_kl(4_000, 1.0, 1e-5, 1.0, 0.99)


def test_ceilings_of_the_declared_guarantees():
    assert declared_ceiling(2.0, 1.0, 1e-5, 0.5) == 1.0
    assert declared_ceiling(1.0, 1.0, 0.0, None) == 0.5 and declared_ceiling(4.0, 1.0, 0.0, None) == 1.0
    assert declared_ceiling(1.0, 1.0, 1e-5, None) == math.inf


def test_transcript_features_separate_categories_and_atoms():
    """A discrete part with 3 values and a real part clipped at 0 (an atom): the features are per category, and
    the atom is one of them."""
    rng = np.random.default_rng(0)
    t = np.c_[rng.integers(0, 3, 500), np.clip(rng.normal(0, 1, 500), 0, None)]
    f = TranscriptFeatures.fit(t)
    assert f.discrete == (0,) and f.real == (1,) and f.atoms == ((0.0,),)
    assert f.transform(t).shape == (500, 4 * (1 + 3 + 1))


def test_audit_reports_the_divergence_objective_on_whole_transcripts():
    """A case whose released transcript is (a coin, a Gaussian whose mean moves with the coin's neighbour) and whose
    statistic keeps only the coin: the event objectives see little, the divergence objective on the transcript sees
    KL 2 > rho 1. Broken by once: the same audit with ``transcript=None`` (statistic only) does not refute."""

    def mechanism(data, public, rng, size=None):
        n = size or 1
        coin = rng.integers(0, 2, n)
        return np.c_[coin, rng.normal(np.where(coin == 1, 2.0 * data, -2.0 * data), 1.0)]

    case = audit.AuditCase(mechanism, lambda out: out[:, 0], (0.0, 1.0), None, 1.0, 1e-5, batched=True, rho=1.0,
                           transcript=lambda out: out)
    r = audit.audit(case, 20_000, np.random.default_rng(2))
    names = [o.objective for o in r.objectives]
    assert names[-1] == "divergence" and r.violated
    assert "whole transcripts" in r.objectives[-1].test
    blind = audit.audit(audit.AuditCase(mechanism, lambda out: out[:, 0], (0.0, 1.0), None, 1.0, 1e-5, batched=True,
                                        rho=1.0), 20_000, np.random.default_rng(2))
    assert not blind.violated


def test_divergence_objective_needs_a_bounded_divergence():
    case = audit.AuditCase(lambda d, p, rng: rng.normal(d), None, (0.0, 1.0), None, 1.0, 1e-5)
    with pytest.raises(ValueError, match="divergence"):
        audit.audit(case, 100, np.random.default_rng(0), objective="divergence")
