"""BCMNUW20 Theorem 10 experiments (thm10, thm10_looseness) and the A_PAP audit target.

Small parameters throughout (thresholds on 64 points, alpha = 0.9): the sizes still come from ``bounds``.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import bounds
from algorithms.classes import constructors
from algorithms.classes.combinatorics import dual_vc_dimension, vc_dimension
from simulations import audit, runner, stats
from simulations.__main__ import main as cli
from simulations.experiments import thm10, thm10_looseness
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
    assert c["n"] == min(math.ceil(0.01 * int(want["private_samples_fixed_split"])), params.n_max)
    assert c["cover_ok"] == (c["cover_radius"] <= 0.9 / 4) and c["accurate"] == (c["error"] <= 0.9)
    assert 0 <= c["cover_radius"] <= 1 and 0 <= c["error"] <= 2
    assert c["spent_eps"] == pytest.approx(0.9) and c["spent_delta"] == pytest.approx(1e-6)
    assert rec["success"] == all(x["accurate"] for x in rec["cases"].values())
    json.dumps(rec)


def test_private_sample_has_the_drawn_histogram():
    D = thm10.make_distribution("thresholds", "zipf", 32)
    x = thm10.private_sample(D, 10_000, np.random.default_rng(0))
    assert x.size == 10_000 and x.min() >= 0 and x.max() < 32
    # same multinomial draw -> same histogram: the sample is the histogram expanded
    counts = np.random.default_rng(0).multinomial(10_000, D.probs)
    assert np.array_equal(np.bincount(x, minlength=32), counts)


def test_summary_shape_and_intervals(tmp_path):
    params = small(n_scale=0.05)
    r = runner.run("thm10", 6, tmp_path / "run", seed=5, workers=1, progress=False, params=params)
    s = r.summary
    assert s["verdict"] in ("holds", "violated", "inconclusive") and s["trials"] == 6
    assert set(s["cases"]) == set(params.cases)
    c = s["cases"]["stumps:zipf"]
    for key in ("m_bound", "n_bound", "m_used", "n_used", "n_fraction_of_bound", "cover", "accuracy",
                "spent_eps_max", "d", "p"):
        assert key in c
    acc = c["accuracy"]
    lo, hi = stats.clopper_pearson(acc["successes"], 6, 0.95, "two-sided")
    assert acc["ci"] == [pytest.approx(lo), pytest.approx(hi)]
    assert acc["verdict"] == stats.verdict(acc["successes"], 6, 0.9, s["per_claim_confidence"]).status
    assert c["n_fraction_of_bound"] == pytest.approx(c["n_used"] / c["n_bound"])


def test_far_below_the_bound_the_accuracy_claim_is_violated(tmp_path):
    """At 1/10^4 of Theorem 10's n the PMW noise swamps the answers: the experiment must say 'violated'
    (catches a verdict rule or an evaluation that cannot fail, e.g. errors measured on the wrong scale)."""
    params = small(cases=("thresholds:near_threshold",), n_scale=1e-4)
    r = runner.run("thm10", 20, tmp_path / "run", seed=7, workers=1, progress=False, params=params)
    assert r.summary["cases"]["thresholds:near_threshold"]["accuracy"]["verdict"] == "violated"
    assert r.summary["verdict"] == "violated"


def test_near_the_bound_the_guarantee_is_not_violated(tmp_path):
    """At the bound's m and n capped at 300k (alpha = 0.9, 64 points): no violation in 20 trials (a correct
    A_PAP has Err <= alpha w.p. >= 0.9 there; the run found it always)."""
    r = runner.run("thm10", 20, tmp_path / "run", seed=8, workers=1, progress=False, params=small())
    for c in r.summary["cases"].values():
        assert c["accuracy"]["verdict"] != "violated" and c["cover"]["verdict"] != "violated"
        assert c["accuracy"]["rate"] == 1.0


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
    out = thm10_looseness.least_holding(sizes, [None, 30, 30, 28, 30], 30, 0.9, 0.95)
    assert out["least"] == 200 and not out["censored"] and out["statuses"][0] is None
    assert out["least_point_estimate"] == 50 and out["censored_point_estimate"]
    assert thm10_looseness.least_holding(sizes, [29, 30, 30, 30, 30], 30, 0.9, 0.95)["least"] is None


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


# ---------------------------------------------------------------- the A_PAP audit target


def test_pap_targets_are_registered():
    t = audit.targets()
    assert t["pap"].expect_private and not t["pap_private_cover"].expect_private


def test_pap_cover_depends_only_on_public_data_and_broken_one_on_private():
    """|H~| (part of the statistic) is 2 for both neighbours for A_PAP, 2 vs 3 for the broken variant."""
    rng = np.random.default_rng(0)
    d0, d1 = pap_target.neighbours()
    real, broken = pap_target.pap_case(1.0, 0.0), pap_target.pap_private_cover_case(1.0, 0.0)
    assert real.mechanism(d0, real.public, rng).cover.size == real.mechanism(d1, real.public, rng).cover.size == 2
    assert broken.mechanism(d0, broken.public, rng).cover.size == 2
    assert broken.mechanism(d1, broken.public, rng).cover.size == 3
    assert real.eps == 1.0 and real.delta == 0.0  # declared = what A_PAP's Release says


def test_real_pap_passes_the_audit():
    """eps_lb <= declared eps (false alarm probability <= 5% per seed; fixed seed)."""
    result = audit.run_target("pap", seed=4)
    assert not result.violated, str(result)


def test_private_cover_variant_is_caught():
    """The cover built from the private data leaks the neighbour with certainty: eps_lb > 5 > eps = 1
    with 2000 samples (catches an auditor or statistic blind to the cover)."""
    result = audit.run_target("pap_private_cover", seed=4)
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
