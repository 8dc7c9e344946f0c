"""BCMNUW20 Theorem 10 experiments (thm10, thm10_looseness) and the A_PAP audit target.

Small parameters throughout (thresholds on 64 points, alpha = 0.9): the sizes still come from ``bounds``.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import bounds
from algorithms.classes.combinatorics import dual_vc_dimension, vc_dimension
from simulations import audit, contract, runner, stats
from simulations.__main__ import main as cli
from simulations.experiments import _least_size, thm10, thm10_looseness
from simulations.audit_targets import pap as pap_target

SMALL = {"cases": ("thresholds:near_threshold", "stumps:zipf"), "num_points": 64, "stump_dim": 4,
         "alpha": 0.9, "n_max": 300_000}


def small(**kw) -> thm10.Params:
    return thm10.Params(**{**SMALL, **kw})


@pytest.mark.parametrize("kind,N,p", [("thresholds", 16, 3), ("intervals", 12, 3), ("stumps", 16, 3),
                                      ("stumps", 16, 4), ("stumps", 16, 5), ("stumps", 16, 6)])
def test_declared_dimensions_are_the_exact_ones(kind, N, p):
    """class_dimensions (used to query bounds) equals the exact VC and dual VC dimensions on small instances
    (catches e.g. stumps declared with d = p, which would make bounds' n far too large)."""
    cls, d, dual = thm10.make_class(kind, N, p)
    assert (d, dual) == (vc_dimension(cls).value, dual_vc_dimension(cls).value)


def test_trial_record_shape_and_sizes_from_bounds():
    params = small(n_scale=0.01, m_scale=0.5)
    rec = thm10.trial(params, np.random.default_rng(3))
    assert set(rec) == {"cases", "success"} and set(rec["cases"]) == set(params.cases)
    c = rec["cases"]["thresholds:near_threshold"]
    want = bounds.compute("bcmnuw20:thm10", alpha=0.9, beta=0.1, epsilon=0.9, delta=1e-6, vc=1, dual_vc=1)
    assert c["m"] == math.ceil(0.5 * int(want["public_samples"]))
    assert c["n"] == min(math.ceil(0.01 * int(want["private_samples"])), params.n_max)
    assert c["pmw_alpha_mw"] == want["mw_accuracy"]   # PMW runs at the split the tight n is proven for
    assert c["cover_ok"] == (c["cover_radius"] <= 0.9 / 4) and c["accurate"] == (c["error"] <= 0.9)
    assert 0 <= c["cover_radius"] <= 1 and 0 <= c["error"] <= 2
    assert c["spent_eps"] == pytest.approx(0.9) and c["spent_delta"] == pytest.approx(1e-6)
    assert rec["success"] == all(x["accurate"] for x in rec["cases"].values())
    json.dumps(rec)


def test_private_sample_has_the_drawn_histogram():
    D = thm10.make_distribution("thresholds", "zipf", 32)
    x = thm10.private_sample(D, 10_000, np.random.default_rng(0))
    assert x.n == 10_000 and x.num_points == 32
    # same multinomial draw -> same histogram, kept as counts (never expanded)
    counts = np.random.default_rng(0).multinomial(10_000, D.probs)
    assert np.array_equal(x.counts, counts)
    assert np.array_equal(np.bincount(x.indices(), minlength=32), counts)


def test_summary_shape_and_intervals(tmp_path):
    params = small(n_scale=0.05)
    r = runner.run("thm10", 6, tmp_path / "run", seed=5, workers=1, progress=False, params=params)
    s = r.summary
    assert s["verdict"] == stats.BELOW_BOUND and s["trials"] == 6 and not s["at_bound"]
    assert set(s["cases"]) == set(params.cases)
    c = s["cases"]["stumps:zipf"]
    for key in ("m_bound", "n_bound", "m_used", "n_used", "n_fraction_of_bound", "cover", "accuracy",
                "spent_eps_max", "d", "p", "baselines", "informative", "at_bound"):
        assert key in c
    acc = c["accuracy"]
    lo, hi = stats.clopper_pearson(acc["successes"], 6, 0.95, "two-sided")
    assert acc["ci"] == [pytest.approx(lo), pytest.approx(hi)]
    assert acc["verdict"] == stats.verdict(acc["successes"], 6, 0.9, s["per_claim_confidence"], at_bound=False).status
    assert c["n_fraction_of_bound"] == pytest.approx(c["n_used"] / c["n_bound"])
    for b in c["baselines"].values():
        assert b["status"] in contract.BASELINE_STATUSES and 0 <= b["successes"] <= 6
    assert c["informative"] == all(b["status"] == contract.FAILS for b in c["baselines"].values())


def test_far_below_the_bound_the_status_is_below_bound_never_violated(tmp_path):
    """At 1/10^4 of Theorem 10's n the PMW noise swamps the answers (Err > alpha in most trials), yet the
    theorem claims nothing there: the status must be 'below-bound' and never 'violated' (catches a summary
    that gives verdicts below the bound). The interval still shows the failures."""
    params = small(cases=("thresholds:near_threshold",), n_scale=1e-4)
    r = runner.run("thm10", 20, tmp_path / "run", seed=7, workers=1, progress=False, params=params)
    acc = r.summary["cases"]["thresholds:near_threshold"]["accuracy"]
    assert acc["verdict"] == stats.BELOW_BOUND and r.summary["verdict"] == stats.BELOW_BOUND
    assert acc["upper"] < 0.9  # it would have been 'violated' at the bound: the measurement is kept
    assert "violated" not in r.summary["verdict_text"].split(":")[0]


AT_BOUND = {"cases": ("thresholds:zipf",), "num_points": 64, "alpha": 0.5, "baselines": False}


def test_defaults_run_at_the_theorems_sizes():
    """Default Params: no cap, scales 1, so every case's (n, m) is bounds' (n, m) (catches a default cap
    such as the old n_max = 4e6 that made every default run below the bound)."""
    p = thm10.Params()
    assert p.n_max == 0 and p.n_scale == 1.0 and p.m_scale == 1.0 and p.baselines
    for case in p.cases:
        s = thm10.case_setup(case, p)
        assert thm10.used_sizes(s["n_bound"], s["m_bound"], p.n_scale, p.m_scale, p.n_max) == (s["n_bound"],
            s["m_bound"])


def test_at_the_bound_a_pap_holds_or_is_undecided_never_violated(tmp_path):
    """At Theorem 10's full n and m (thresholds on 64 points, zipf, alpha = 0.5): 4 trials, no violation and
    every trial accurate (A_PAP's measured Err is about 0.13 there)."""
    r = runner.run("thm10", 4, tmp_path / "run", seed=8, workers=1, progress=False, overrides=AT_BOUND)
    c = r.summary["cases"]["thresholds:zipf"]
    assert c["at_bound"] and c["n_used"] == c["n_bound"] and c["m_used"] == c["m_bound"]
    assert r.summary["verdict"] in (stats.HOLDS, stats.INCONCLUSIVE)
    assert c["accuracy"]["rate"] == 1.0


@pytest.mark.parametrize("variant", sorted(thm10.NEGATIVE_CONTROLS))
def test_negative_controls_are_violated_at_the_theorems_sizes(tmp_path, variant):
    """Negative controls at Theorem 10's own n and m, 4 trials: PMW's noise x100 (Err 1.4-1.5 > alpha = 0.5
    measured) and a cover from one public point (radius ~0.5 > alpha/4) must come out 'violated' (catches an
    experiment that cannot fail: a verdict rule blind to the records, or an evaluation on the wrong scale)."""
    r = runner.run("thm10", 4, tmp_path / "run", seed=11, workers=1, progress=False,
                   overrides={**AT_BOUND, "variant": variant})
    s = r.summary
    assert s["negative_control"] and s["variant"] == variant and s["at_bound"]
    assert s["verdict"] == stats.VIOLATED, s["verdict_text"]


def test_public_only_baseline_fails_where_a_pap_succeeds_with_few_public_points(tmp_path):
    """The regime built for it: decision stumps on {+-1}^8 under zipf with m = 0.5% of Theorem 10's m (9
    public points) and n = 1% of its n (below-bound: a measurement). Measured over 40 trials: the public-only
    release met alpha = 0.5 in 16/40 (status 'fails'), A_PAP in 39/40, private-only PMW in 40/40. The test
    requires 'fails' for public-only and A_PAP's two-sided interval entirely above public-only's (catches
    a public-only baseline that reads the private data or the true distribution, and baselines run on
    other draws than A_PAP's would not change it: the same-draws property is checked in the record test)."""
    r = runner.run("thm10", 40, tmp_path / "run", seed=3, workers=1, progress=False,
                   overrides={"cases": "stumps:zipf", "alpha": 0.5, "m_scale": 0.005, "n_scale": 0.01})
    c = r.summary["cases"]["stumps:zipf"]
    assert r.summary["verdict"] == stats.BELOW_BOUND and c["m_used"] < c["m_bound"]
    pub = c["baselines"]["public_only"]
    assert pub["status"] == contract.FAILS
    assert c["accuracy"]["ci"][0] > pub["ci"][1]


def test_bad_params_name_the_field():
    with pytest.raises(ValueError, match="cases entry"):
        thm10.Params(cases=("thresholds:interval_endpoints",))
    with pytest.raises(ValueError, match="n_scale"):
        thm10.Params(n_scale=0.0)
    with pytest.raises(ValueError, match="eps"):
        thm10.Params(eps=1.0)
    with pytest.raises(ValueError, match="alphas"):
        thm10_looseness.Params(alphas=(1.5,))


# ---------------------------------------------------------------- looseness


def test_grid_is_geometric_and_stops():
    assert thm10_looseness.grid(100, 2.0, 1) == [100, 50, 25, 13, 7, 4, 2, 1]
    assert thm10_looseness.grid(100, 2.0, 20) == [100, 50, 25]
    assert thm10_looseness.grid(5, 2.0, 20) == [5]


def test_least_holding_rule():
    """30/30 holds at target 0.9 (CP lower 0.905), 28/30 does not; the least size is the last of the run of holds."""
    sizes = [800, 400, 200, 100, 50]
    out = _least_size.least_holding(sizes, [None, 30, 30, 28, 30], 30, 0.9, 0.95)
    assert out["least"] == 200 and not out["censored"] and out["holds_empirically"][0] is None
    assert out["least_point_estimate"] == 50 and out["censored_point_estimate"]
    assert out["interval"] == [0, 200]  # 28/30 does not fail empirically (CP upper 0.99 >= 0.9): no lower end
    assert _least_size.least_holding(sizes, [29, 30, 30, 30, 30], 30, 0.9, 0.95)["least"] is None
    out = _least_size.least_holding(sizes, [30, 30, 30, 20, 30], 30, 0.9, 0.95)
    assert out["least"] == 200 and out["interval"] == [100, 200]  # 20/30: CP upper 0.81 < 0.9, fails


def test_looseness_statuses_below_the_bound_are_never_violated():
    """Only the bound's own size gets a verdict; smaller grid sizes are below-bound even at 0/30
    (catches a looseness search that calls a failure below the bound a violation of Theorem 10)."""
    st = _least_size.statuses([800, 400, 200], [0, 0, 0], 800, 30, 0.9, 0.95)
    assert st == ["violated", "below-bound", "below-bound"]
    assert _least_size.statuses([800, 400], [0, 0], 800, 30, 0.9, 0.95, other_at_bound=False) == \
        ["below-bound", "below-bound"]


def test_looseness_run_shape(tmp_path):
    r = runner.run("thm10_looseness", 3, tmp_path / "run", seed=9, workers=1, progress=False,
                   overrides={"cases": "thresholds:near_threshold", "alphas": "0.9", "num_points": 64,
                              "factor": 8.0, "n_min": 5000, "n_max": 300_000})
    row = r.summary["rows"][0]
    assert row["n_grid"][0] == row["n_bound"] and not row["n_bound_feasible"]
    assert all(s is None for n, s in zip(row["n_grid"], row["n_successes"]) if n > 300_000)
    assert all(0 <= s <= 3 for s in row["m_successes"])
    assert row["least_n"] is None  # 3 trials can never give a 95% CP lower bound >= 0.9
    assert row["least_n_point_estimate"] is not None and row["least_n_point_estimate"] <= 300_000
    assert row["n_statuses"][0] is None and all(s in (None, "below-bound") for s in row["n_statuses"])
    assert r.summary["verdict"] == "below-bound"  # n_bound not run, the m search ran at n = n_max < n_bound
    want = bounds.compute("bcmnuw20:lemma7", alpha=0.45, beta=0.05, epsilon=0.9, delta=1e-6,
                          num_hypotheses=thm10_looseness.lemma7_sizes(0.9, 0.1, 0.9, 1e-6, 1, 1)["cover_size"],
                          domain_size=thm10_looseness.lemma7_sizes(0.9, 0.1, 0.9, 1e-6, 1, 1)["domain_size"])
    assert row["n_printed_lemma7"] == int(want["private_samples_as_printed"]) < row["n_bound"]


def test_fitted_exponents_recover_a_power_law():
    """n = 1000/alpha^2 and m = 50/alpha exactly: slopes 2 and 1; censored points are left out (catches a fit
    against alpha instead of 1/alpha, which gives -2)."""
    rows = [{"alpha": a, "least_n": 1000 / a**2, "least_n_censored": False, "n_bound": 10**6 / a**2,
             "least_m": 50 / a, "least_m_censored": a == 0.9, "m_bound": 500 / a} for a in (0.9, 0.5, 0.25)]
    f = thm10_looseness.fitted_exponents(rows)
    assert f["least_n"] == pytest.approx(2) and f["bound_n"] == pytest.approx(2)
    assert f["least_m"] == pytest.approx(1) and f["bound_m"] == pytest.approx(1)
    assert thm10_looseness.fitted_exponents(rows[:1])["least_n"] is None


def test_lemma7_corrected_at_the_cover_sizes_is_theorem_10s_n():
    """Lemma 7 (corrected) at (alpha/2, beta/2) and the ceilings of |H~|, |X~| is Theorem 10's n up to
    the ceilings (within 0.01%; the tight split is chosen from the continuous log|H~|, log|X~|) (catches
    a printed/corrected mix-up, or |H~|, |X~| read at the wrong alpha)."""
    for alpha, d, p in ((0.9, 1, 1), (0.5, 1, 1), (0.5, 3, 8)):  # p < 2^(d+1) (Fact 4)
        l7 = thm10_looseness.lemma7_sizes(alpha, 0.1, 0.9, 1e-6, d, p)
        assert l7["n_lemma7_corrected"] == pytest.approx(l7["n_corrected"], rel=1e-4)
        assert l7["n_printed"] < l7["n_corrected"]


# ---------------------------------------------------------------- the A_PAP audit target


def test_pap_targets_are_registered():
    t = audit.targets()
    assert t["pap"].expect_private and t["pap_papers_cutoff"].expect_private
    assert not t["pap_private_cover"].expect_private


def test_pap_cover_depends_only_on_public_data_and_broken_one_on_private():
    """|H~| (part of the statistic) is 1 for both neighbours for A_PAP, 1 vs 2 for the broken variant; the
    cut-off-1 hook leaves the declared guarantee A_PAP's Release states."""
    rng = np.random.default_rng(0)
    real, broken = audit.get_target("pap").make(2.0, 0.0), audit.get_target("pap_private_cover").make(2.0, 0.0)
    sizes = [real.mechanism(d, real.public, rng).cover.size for d in real.private_pair]
    assert sizes == [1, 1]
    assert [broken.mechanism(d, broken.public, rng).cover.size for d in broken.private_pair] == [1, 2]
    assert real.eps == 2.0 and real.delta == 0.0  # declared = what A_PAP's Release says


def test_pap_sparse_hook_leaves_the_papers_algorithm_unchanged():
    """A_PAP's ``sparse=`` hook defaults to NumericSparse: the same seed gives the same answers with and without
    naming it; the cut-off-1 class is the one PMW runs: over 200 seeded runs on D0 its update rate is near its exact
    0.063 (below 0.2), against 0.71 at the papers' cut-off (above 0.5). Catches a hook that is ignored (both rates
    would be about 0.71) or that alters the default path."""
    from algorithms.privacy import NumericSparse
    from algorithms.query_release.pap import a_pap
    from simulations.audit_targets.pmw import CutOff1

    args = (pap_target.PAIR[0], pap_target.PUBLIC, pap_target.CLASS, 0.9, 0.1, 2.0, 0.0)
    plain = a_pap(*args, np.random.default_rng(3)).value
    named = a_pap(*args, np.random.default_rng(3), sparse=NumericSparse).value
    assert np.array_equal(plain.answers, named.answers) and plain.pmw.parameters.c == 877
    rng = np.random.default_rng(3)
    rates = [np.mean([a_pap(*args, rng, sparse=cls).value.answers[0] != 0.0 for _ in range(200)])
             for cls in (CutOff1, NumericSparse)]
    assert rates[0] < 0.2 and rates[1] > 0.5, rates


def test_pap_pair_exact_loss_matches_simulated_runs_and_explains_the_gap():
    """The exact loss of A_PAP's largest-loss pair and of the pair it audits (one cover member, PMW at cut-off 1):
    the no-update probability against 2,000 A_PAP runs per neighbour of both (inside the 99.9% Clopper-Pearson
    interval); the losses are below half the declared eps (the gap is the pair's), the audited pair's below the
    largest, and at the papers' own cut-off the loss is below 1e-3 eps (why eps_lb is 0 there). Catches the loss
    computed at A_PAP's alpha instead of PMW's alpha/2 (the threshold doubles and the no-update probability under
    D0 moves from 0.937 to 0.9996), or at the wrong n (0.80 at n = 50)."""
    from algorithms.privacy import NumericSparse
    from simulations import stats
    from simulations.audit_targets.pmw import CutOff1, no_update_probability

    loss = pap_target.pap_pair_loss(CutOff1, 2.0, pap_target.PAIR)
    assert 0.6 < loss < 1.0 and 0.5 < pap_target.pap_pair_loss(CutOff1, 2.0, pap_target.AUDITED_PAIR) < loss
    assert pap_target.pap_pair_loss(NumericSparse, 2.0, pap_target.PAIR) < 2e-3
    case = audit.get_target("pap").make(2.0, 0.0)
    rng = np.random.default_rng(11)
    for d in (*pap_target.PAIR, *pap_target.AUDITED_PAIR):
        g = case.statistic(case.mechanism(d, case.public, rng, size=2_000))[:, 1]
        lo, hi = stats.clopper_pearson(int(np.sum(g == 0.0)), g.size, 0.999)
        q = float(np.mean(d == 0))
        n_g = no_update_probability(CutOff1, 2.0, q, d.size, alpha=pap_target.ALPHA / 2, beta=pap_target.BETA / 2)
        assert lo <= n_g <= hi, (lo, n_g, hi)


def test_real_pap_passes_the_audit():
    """eps_lb <= declared eps (false alarm probability <= 5% per seed; fixed seed), and below the pair's exact loss."""
    result = audit.run_target("pap", samples=3_000, seed=4)
    assert not result.violated and result.eps_lower_bound <= result.pair_loss, str(result)


def test_private_cover_variant_is_caught():
    """The cover built from the private data leaks the neighbour with certainty: eps_lb > 5 > eps = 2
    with 2000 samples (catches an auditor or statistic blind to the cover)."""
    result = audit.run_target("pap_private_cover", samples=2_000, seed=4)
    assert result.violated and result.eps_lower_bound > 5, str(result)


def test_audit_cli_saves_result_and_refuses_to_overwrite(tmp_path, capsys):
    out = tmp_path / "audits"
    assert cli(["audit", "pap_private_cover", "--samples", "200", "--out", str(out)]) == 0
    saved = json.loads((out / "audit-pap_private_cover.json").read_text())
    assert saved["format"] == "simulations-audit/1" and saved["target"] == "pap_private_cover"
    assert saved["expect_private"] is False and saved["samples"] == 200 and "eps_lower_bound" in saved
    capsys.readouterr()
    assert cli(["audit", "pap_private_cover", "--samples", "200", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "already holds" in err


def test_summary_judges_accuracy_against_1_minus_beta_not_a_looser_target():
    """Theorem 10's accuracy target is 1 - beta. Records at Theorem 10's sizes where A_PAP is accurate in
    k of T trials, k the largest count whose verdict against 1 - beta is 'violated' (derived with
    simulations.stats.verdict at the summary's per-claim confidence) while against 1 - 2 beta it is not:
    the summary must say violated. Catches a wrong target in summarise (e.g. 1 - 2 beta), and a verdict
    rule that ignores the records."""
    params = small()
    T = 60
    per_claim = 1 - (1 - params.confidence) / (2 * len(params.cases))
    k = max(j for j in range(T + 1) if stats.verdict(j, T, 1 - params.beta, per_claim).status == stats.VIOLATED)
    assert stats.verdict(k, T, 1 - 2 * params.beta, per_claim).status != stats.VIOLATED  # the test can tell them apart
    setups = {case: thm10.case_setup(case, params) for case in params.cases}
    records = [{"cases": {case: {"n": s["n_bound"], "m": s["m_bound"], "cover_radius": 0.0, "error": 0.0,
                                 "cover_ok": True, "accurate": t < k, "spent_eps": params.eps,
                                 "spent_delta": params.delta} for case, s in setups.items()}}
               for t in range(T)]
    s = contract.summarise_run(thm10.EXPERIMENT, records, params)
    for c in s["cases"].values():
        assert c["at_bound"] and c["accuracy"]["successes"] == k
        assert c["accuracy"]["target"] == pytest.approx(1 - params.beta)
        assert c["accuracy"]["verdict"] == stats.VIOLATED and c["cover"]["verdict"] != stats.VIOLATED
    assert s["verdict"] == stats.VIOLATED


#: the cell where A_PAP separates from private-only PMW as well (below Theorem 10's n and m: a measurement)
WIDE_CELL = {"cases": "wide_stumps:clusters", "alpha": 0.3, "n_max": 20_000_000, "m_scale": 0.001}


def test_cluster_law_cover_radius_and_truth_are_exact():
    """ClusterLaw's truth is each coordinate's bias and its cover radius Pr[x_i != x_proj(i)] is 0 within a cluster
    and (1 - mu_a mu_b)/2 across (e.g. 0.68 for biases 0.6 and -0.6), checked against its own sampled points (a
    Clopper-Pearson interval on 20,000 draws). Catches a radius computed for equal rather than independent bits and
    private counts drawn per coordinate rather than per cluster."""
    law = thm10.ClusterLaw(12, 4)
    assert np.allclose(law.truth[:4], [0.6, -0.6, 0.4, -0.4]) and np.array_equal(law.truth[4:8], law.truth[:4])
    proj = np.arange(12)
    assert law.cover_radius(proj) == 0.0 and law.cover_radius(np.where(np.arange(12) % 4 == 1, 4, proj)) == \
        pytest.approx(0.68)
    x = law.sample(20_000, np.random.default_rng(3))
    lo, hi = stats.clopper_pearson(int(np.sum(x[:, 1] != x[:, 0])), 20_000, 0.999, "two-sided")
    assert lo <= 0.68 <= hi and np.all(x[:, 0] == x[:, 4])
    counts = law.private_counts(1000, np.random.default_rng(4))
    assert counts.dim == 12 and np.array_equal(counts.ones[:4], counts.ones[4:8])


def test_wide_stumps_a_pap_separates_from_pmw_but_not_from_the_gaussian_release():
    """Decision stumps on {+-1}^2000 under a 4-cluster law, n = 2e7 (0.003 of Theorem 10's n), m = 10: A_PAP's cover
    finds the clusters and its PMW runs on {+-1}^4 and succeeds (Clopper-Pearson 'succeeds' vs 0.9), while
    private-only PMW on {+-1}^2000, the public-only releases and the constant fail; but the Gaussian and Laplace
    mechanisms on the 2,000 answers (no public data) succeed too, so the case is not informative and the summary
    names a private-only release as the strongest opponent, which did not fail. 40 trials, about 3 s of CPU.
    Catches A_PAP run on the full coordinate set (it then fails with PMW), private-only PMW given the cover's
    coordinates (it then succeeds), and a summary that calls the case a separation with the Gaussian left out."""
    _, s = runner.evaluate("thm10", 40, seed=10, overrides=WIDE_CELL)
    c = s["cases"]["wide_stumps:clusters"]
    assert not c["at_bound"] and s["verdict"] == stats.BELOW_BOUND
    assert c["separation"]["algorithm"]["status"] == contract.SUCCEEDS
    status = {k: b["status"] for k, b in c["baselines"].items()}
    assert status == {"public_only": contract.FAILS, "public_shrunk": contract.FAILS, "private_only": contract.FAILS,
                      "gaussian": contract.SUCCEEDS, "laplace": contract.SUCCEEDS, "constant_zero": contract.FAILS}
    assert not c["separation"]["separated"] and not c["informative"]
    assert c["strongest"] in ("gaussian", "laplace") and not c["strongest_failed"] and c["weaker_than_constant"] == []
