"""Audit targets of PMW (BCMNUW20 Alg 1) and PMW^Pub (LVSUW21 Alg 1): correct runs pass, broken ones are caught."""

from __future__ import annotations

import numpy as np
import pytest

from algorithms.query_release.pmw import pmw
from simulations import audit
from simulations.audit_targets import pmw as pmw_targets


def test_pmw_target_statistic_reads_the_update_from_the_release():
    """BCMNUW20 Alg 1 at c = 1: G~(h) == 0 exactly iff PMW made no update (the statistic's second coordinate),
    and NumericSparse runs at c = 1 (catches a hook that leaves PMW's own cut-off, or a synthetic answer
    that is not exactly 0)."""
    rng = np.random.default_rng(3)
    for data in pmw_targets.PAIR:
        for _ in range(200):
            r = pmw(data, pmw_targets.CLASS, pmw_targets.ALPHA, pmw_targets.BETA, pmw_targets.PMW_EPS, 0.0, rng,
                    sparse=pmw_targets.CutOff1).value
            assert r.num_tops <= 1
            assert pmw_targets._statistic(r.answers)[0, 1] == float(r.num_updates == 1)


@pytest.mark.parametrize("name", ["pmw_no_answer_noise", "pmw_eps_10x"])
def test_broken_pmw_is_caught_in_a_small_run(name):
    """Each broken PMW is caught at 4,000 samples, fixed seed (catches a pair or statistic that cannot see
    an update: with the statistic G~(h) alone on the shift pair of the old attempt both gave eps_lb 0)."""
    result = audit.run_target(name, samples=4_000, seed=5)
    assert result.violated, str(result)


def test_correct_pmw_passes_in_a_small_run():
    """The correct PMW (c = 1) passes on the same pair (false alarm <= 5%; fixed seed)."""
    result = audit.run_target("pmw", samples=4_000, seed=5)
    assert not result.violated, str(result)


def test_zcdp_delta_at_is_the_inverse_of_the_cks_conversion():
    """LVSUW21 Thm 4.5 read at a fixed eps: eps(delta(eps)) = eps, and the declared delta(2) for rho = 1 lies above
    the exact Gaussian curve at rho = 1 (CKS is an upper bound; catches an inversion on the wrong side)."""
    from algorithms.privacy import gaussian_delta, zcdp_epsilon_infimum
    from simulations.audit_targets.pmw_pub import zcdp_delta_at

    d = zcdp_delta_at(1.0, 2.0)
    assert zcdp_epsilon_infimum(1.0, d)[0] == pytest.approx(2.0, abs=1e-6)
    assert gaussian_delta(2.0, rho=1.0) < d < 1


@pytest.mark.slow
def test_pmw_pub_zcdp_claim_audit_small_run():
    """PMW^Pub's (eps = 2, delta(2)) point from its zCDP claim: the correct run passes and the Gaussian
    measurement at a quarter of sigma is caught, 3,000 samples, fixed seed (catches a measurement whose
    scale does not reach the release, and a delta audit that does not use the declared delta)."""
    good = audit.run_target("pmw_pub", samples=3_000, seed=5)
    assert not good.violated, str(good)
    bad = audit.run_target("pmw_pub_quarter_sigma", samples=3_000, seed=5)
    assert bad.violated and bad.delta_lower_bound > bad.declared_delta, str(bad)


def test_pmw_without_comparison_noise_is_caught_on_the_lsl_pair():
    """PMW whose comparisons carry no noise is caught at 3,000 samples, and the correct PMW passes on the same
    two-query pair (fixed seed; catches PMW ignoring its ``sparse=`` class, which makes the broken variant the
    correct PMW, eps_lb about 0.05, and a pair on which the first update's index does not move)."""
    bad = audit.run_target("pmw_no_comparison_noise", samples=3_000, seed=5)
    assert bad.violated, str(bad)
    good = audit.run_target("pmw_lsl", samples=3_000, seed=5)
    assert not good.violated, str(good)


def test_renyi_bound_of_exact_gaussian_rates_lies_below_the_pairs_rho():
    """Data processing: the Renyi bound of a threshold event's exact rates on N(1, 1) vs N(0, 1) (rho = 1/2)
    is at most 1/2 and, at the best threshold, above 0.3; equal rates refute nothing."""
    from scipy import stats as st

    ts = np.linspace(-2.0, 3.0, 51)
    lbs = audit.renyi_rho_lower_bound(st.norm.sf(ts), st.norm.cdf(ts - 1.0))
    assert np.all(lbs <= 0.5) and lbs.max() > 0.3
    assert audit.renyi_rho_lower_bound(0.3, 0.7) < 1e-12 and audit.renyi_rho_lower_bound(0.5, 0.7) == 0.0


def test_renyi_audit_catches_pmw_pub_at_a_quarter_sigma_and_passes_the_real_one():
    """The Renyi objective alone (the declared rho-zCDP claim, its own 95% statement) refutes rho = 1 for PMW^Pub
    whose Gaussian measurement runs at sigma/4 (rho 8 per measurement) at 1,000 samples, and the real PMW^Pub
    passes (catches a bound taken at the wrong corner of the confidence box, which flags the real one)."""
    broken = audit.audit(audit.get_target("pmw_pub_quarter_sigma").make(2.0, 0.0), 1_000,
                         np.random.default_rng(5), objective="renyi")
    assert broken.violated and broken.objectives[0].rho_lower_bound > 1.0, str(broken)
    real = audit.audit(audit.get_target("pmw_pub").make(2.0, 0.0), 1_000, np.random.default_rng(5), objective="renyi")
    assert not real.violated and real.objectives[0].rho_lower_bound < 1.0, str(real)


def test_pmw_pair_exact_loss_matches_the_simulated_no_update_law_and_bounds_the_audit():
    """The exact loss of the one-query PMW pair: its no-update probability N(g) against PMW runs per
    neighbour (1,500 runs each; inside the 99.9% Clopper-Pearson interval of the simulated rate); the loss 0.277 < eps/2
    = 1, so the audit's gap is the pair's, as the result says. Catches a quadrature with the wrong noise scales
    (the comparison scale b_t instead of 2 b_t moves N(0) from 0.36 to 0.44)."""
    import math

    from simulations import stats

    loss = pmw_targets.one_query_pair_loss(pmw_targets.CutOff1, pmw_targets.PMW_EPS, pmw_targets.PAIR)
    assert 0.25 < loss < 0.3
    rng = np.random.default_rng(11)
    for data in pmw_targets.PAIR:
        runs = [pmw(data, pmw_targets.CLASS, pmw_targets.ALPHA, pmw_targets.BETA, pmw_targets.PMW_EPS, 0.0, rng,
                    sparse=pmw_targets.CutOff1).value.answers[0] == 0.0 for _ in range(1_500)]
        lo, hi = stats.clopper_pearson(int(np.sum(runs)), 1_500, 0.999)
        n_g = pmw_targets.no_update_probability(pmw_targets.CutOff1, pmw_targets.PMW_EPS, float(np.mean(data == 1)),
                                                data.size)
        assert lo <= n_g <= hi, (lo, n_g, hi)
        assert pmw_targets.one_query_pair_loss(pmw_targets.CutOff1, pmw_targets.PMW_EPS, (data, data)) == 0.0
    r = audit.run_target("pmw", samples=1_000, seed=2)
    assert r.eps_lower_bound <= r.pair_loss and "the gap is the pair's" in str(r) and math.isfinite(r.pair_loss)


def test_pmw_lsl_exact_law_matches_pmw_runs_and_gives_the_pairs_loss():
    """The two-query pair's exact release law (``lsl_law``) against PMW runs (10,000 per neighbour, fixed seed): the
    masses of a first top at h_1 with G~(h_1) above its centre 2 q_1 - 1 and at or below it (half of that branch
    each: the Laplace answer's median), of a first top at h_2 and of none, each inside the two-sided Clopper-Pearson
    interval of its simulated rate at 1 - 1e-3/8 (Bonferroni over 4 masses x 2 neighbours); after a top at h_1,
    G~(h_2) is a function of the side of G~(h_1) (the loss reads nothing else there). The pair's loss is 0.2906 and
    a data set against itself has none. Break checked once: the threshold redrawn before h_2 (independent one-query
    no-top probabilities, the mistake the shared threshold rules out) moves the h_2 mass from 0.216 to 0.263 under
    D0 and fails; so does the comparison scale b_t instead of 2 b_t (none 0.216 -> 0.327)."""
    from simulations import stats

    rng = np.random.default_rng(17)
    runs, level = 10_000, 1 - 1e-3 / 8
    for data in pmw_targets.LSL_PAIR:
        masses, q, _ = pmw_targets.lsl_law(pmw_targets.CutOff1, pmw_targets.PMW_EPS, data)
        g = np.array([pmw(data, pmw_targets.LSL_CLASS, pmw_targets.ALPHA, pmw_targets.BETA, pmw_targets.PMW_EPS, 0.0,
                          rng, sparse=pmw_targets.CutOff1).value.answers for _ in range(runs)])
        first = pmw_targets._first_update(g)
        top1 = first == 0
        above = g[:, 0] > 2 * q[0] - 1
        counts = [np.sum(top1 & above), np.sum(top1 & ~above), np.sum(first == 1), np.sum(first == 2)]
        for k, p in zip(counts, [masses[0] / 2, masses[0] / 2, masses[1], masses[2]]):
            lo, hi = stats.clopper_pearson(int(k), runs, level)
            assert lo <= p <= hi, (data, k / runs, p)
        side = g[top1, 0] > pmw_targets.LSL_SYNTHETIC
        assert all(np.unique(g[top1][side == s, 1]).size == 1 for s in (True, False))
    loss = pmw_targets.lsl_pair_loss(pmw_targets.CutOff1, pmw_targets.PMW_EPS, pmw_targets.LSL_PAIR)
    assert loss == pytest.approx(0.2906, abs=1e-4)
    d0 = pmw_targets.LSL_PAIR[0]
    assert pmw_targets.lsl_pair_loss(pmw_targets.CutOff1, pmw_targets.PMW_EPS, (d0, d0)) == 0.0


def test_pmw_with_a_shared_comparison_draw_is_caught_and_pmw_lsl_passes():
    """PMW whose NumericSparse shares one comparison noise draw across the block it is handed (the mutation the
    scan's unit law test rejects) is caught on the Lyu-Su-Li-type pair at 2,000 samples: a first update at h_2
    is then impossible under D1. The real PMW passes on the same pair and seed."""
    assert audit.run_target("pmw_reused_comparison_noise", samples=2_000, seed=5).violated
    real = audit.run_target("pmw_lsl", samples=2_000, seed=5)
    assert not real.violated and real.eps_lower_bound <= real.pair_loss < 1.0, str(real)


def test_mwem_transcript_catches_the_unsplit_budget_and_the_real_mwem_passes():
    """MWEM spending eps/2 + eps/2 in every round (the budget not split across the T = 4 rounds) is caught at
    2,000 samples through its released transcript's likelihood-ratio score (every measurement at or above 1);
    the real MWEM passes on the same pair, and its bound stays below the pair's exact loss eps/2. Without the
    score coordinate (measurements and selections only, learned score) the broken variant gave eps_lb 1.65 at
    2,000 samples (seed 1: missed), and the answers-only target needs about 50,000."""
    broken = audit.run_target("mwem_transcript_budget_not_split", samples=2_000, seed=5)
    assert broken.violated, str(broken)
    real = audit.run_target("mwem_transcript", samples=2_000, seed=5)
    assert not real.violated and real.eps_lower_bound <= real.pair_loss == 1.0, str(real)
