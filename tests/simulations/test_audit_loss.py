"""BW18 Thm 5 / Neyman-Pearson with an exact privacy-loss variable (simulations._audit_loss): the "loss" objective
on the Gaussian's point claim, and one-query PMW's exact log-ratio against PMW's own draws."""

from __future__ import annotations

import math

import numpy as np

from algorithms.query_release.pmw import pmw
from simulations import audit, stats
from simulations._audit_loss import hockey_variable, minimal_detectable_loss_delta
from simulations.audit_targets import pmw as pmw_targets


def test_loss_objective_catches_the_point_claim_twin_and_passes_the_real_gaussian():
    """The Gaussian calibrated to (1, 1e-5) passes the loss objective at 200,000 samples and the one calibrated to
    10x delta but declaring (1, 1e-5) is caught (fixed seed; the objective alone, at 95%). Catches the Clopper-Pearson
    bound taken on the upper side (the real Gaussian is then flagged: checked once)."""
    real = audit.audit(audit.get_target("gaussian").make(1.0, 1e-5), 200_000, np.random.default_rng(7),
                       objective="loss")
    assert not real.violated, str(real)
    twin = audit.audit(audit.get_target("gaussian_delta_10x_point").make(1.0, 1e-5), 200_000,
                       np.random.default_rng(7), objective="loss")
    assert twin.violated and twin.objectives[0].loss_delta_bound > 1e-5, str(twin)


def test_hockey_variable_mean_is_the_exact_delta_and_power_is_monotone():
    """E_P[(1 - e^(eps - L))_+] over N(0, sigma^2) samples with L = log N(y; 0) / N(y; 1) equals the BW18 curve's
    delta(eps) within its 99.9% Clopper-Pearson interval of the rounded count (catches e^(L - eps) for
    e^(eps - L)); the minimal detectable delta falls with the sample size."""
    from algorithms.privacy.accounting import gaussian_delta

    sigma, eps, m = 1.0, 0.5, 400_000
    rng = np.random.default_rng(3)
    y = rng.normal(0.0, sigma, m)
    x = hockey_variable(((y - 1.0) ** 2 - y ** 2) / (2 * sigma ** 2), eps)
    k = int(np.count_nonzero(rng.random(m) < x))
    lo, hi = stats.clopper_pearson(k, m, 0.999)
    assert lo <= gaussian_delta(eps, sensitivity=1.0, sigma=sigma) <= hi
    assert minimal_detectable_loss_delta(1_000_000, 1e-5, 0.95) < minimal_detectable_loss_delta(100_000, 1e-5, 0.95)


def test_one_query_llr_is_the_law_pmw_draws():
    """One-query PMW's exact law on the real target's pair against 2,000 PMW runs per neighbour: the no-update mass
    N(q) and the clipped end's mass (1 - N(q)) e^(-(1 - q)/b_a) / 2 inside their 99.9% Clopper-Pearson intervals,
    and ``one_query_llr`` at 0, at the end 1 and inside equal to the logs of those masses' and densities' ratios
    (catches the answer's scale b_a where the release's 2 b_a belongs, which moves the end's mass from 0.105 (1 - N)
    to 0.02 (1 - N) under D0)."""
    eps, pair = pmw_targets.PMW_EPS, pmw_targets.POWER_PAIR
    n = pair[0].size
    b_a = pmw_targets._scales(pmw_targets.CutOff1, eps, n)[2]
    qs = [float(np.mean(d == 1)) for d in pair]
    rng = np.random.default_rng(13)
    masses = []
    for data, q in zip(pair, qs):
        y = np.array([pmw(data, pmw_targets.CLASS, pmw_targets.ALPHA, pmw_targets.BETA, eps, 0.0, rng,
                          sparse=pmw_targets.CutOff1).value.answers[0] for _ in range(2_000)])
        none = pmw_targets.no_update_probability(pmw_targets.CutOff1, eps, q, n)
        end = (1 - none) * 0.5 * math.exp(-(1 - q) / b_a)
        for count, p in ((np.count_nonzero(y == 0.0), none), (np.count_nonzero(y == 1.0), end)):
            lo, hi = stats.clopper_pearson(int(count), y.size, 0.999)
            assert lo <= p <= hi, (q, p, lo, hi)
        masses.append((none, end, 1 - none, 2 * q - 1))
    llr = pmw_targets.one_query_llr(pmw_targets.CutOff1, eps, qs[0], qs[1], n, np.array([0.0, 1.0, 0.1]))
    (n0, e0, t0, c0), (n1, e1, t1, c1) = masses
    inside = math.log(t0 / t1) + (abs(0.1 - c1) - abs(0.1 - c0)) / (2 * b_a)
    assert np.allclose(llr, [math.log(n0 / n1), math.log(e0 / e1), inside], atol=1e-9)


def test_saved_loss_objective_is_rejudged_from_its_counts():
    """A saved audit of the point-claim twin is re-judged by the report from its numbers: the loss objective's bound
    recomputed from its Bernoulli counts refutes the claim, and the headline (from events) stays consistent with its
    own counts (catches a loss bound stored as the headline delta_lb, which the report cannot recompute)."""
    from reports.integrity import recheck_audit

    r = audit.audit(audit.get_target("gaussian_delta_10x_point").make(1.0, 1e-5), 200_000, np.random.default_rng(7))
    saved = {**r.as_dict(), "target": "gaussian_delta_10x_point", "expect_private": False}
    assert r.violated and recheck_audit(saved) == (True, []), recheck_audit(saved)
