"""BCMNUW20 Theorem 10 looseness: the staged bisection (simulations.stages + thm10_looseness), its interval
rule, the at-bound verdict, and the shape fits. Synthetic oracles where the answer is known; tiny real runs."""

from __future__ import annotations

import json
import math
import shutil

import numpy as np
import pytest

from simulations import contract, experiments, stages, stats
from simulations.__main__ import main as cli
from simulations.experiments import _least_size as ls
from simulations.experiments import thm10_looseness as tl

T = 30  # 30/30 is the fewest all-success trials whose 95% CP lower bound reaches 0.9


def _search(oracle, bound=10**6, factor=2.0, resolution=0.1, lowest=1000, max_stages=None):
    """Drive the search's own step (ls.bracket) against ``oracle(size) -> successes of T`` until it stops."""
    evidence = {n: [oracle(n), T] for n in tl.grid(bound, factor, lowest)}
    limit = tl.max_refinements(factor, resolution) if max_stages is None else max_stages
    for stage in range(limit + 1):
        sizes = sorted(evidence, reverse=True)
        step = ls.bracket(sizes, [evidence[s][0] for s in sizes], [evidence[s][1] for s in sizes], T, 0.9, 0.95,
                          resolution, refining=stage < limit)
        if not step["next"]:
            return step, stage
        for n in step["next"]:
            k, t = evidence.get(n, [0, 0])
            evidence[n] = [k + oracle(n), t + T]
    raise AssertionError("the search did not stop")


@pytest.mark.parametrize("least", [1955, 2345, 77_777, 500_001, 999_999])
def test_bisection_brackets_a_step_oracle_to_the_resolution(least):
    """Success rate 1 from n = least on, 0 below (a monotone step with known least size): the search stops
    within max_refinements stages with an interval (L, U] that contains ``least`` and has U / L <= 1.1.
    Catches a refinement that never probes (U / L stays 2), a midpoint outside its gap, an interval end off by
    one (least = L + 1 or U), and a stage limit too small for factor 2 -> 10%."""
    step, stages_used = _search(lambda n: T if n >= least else 0)
    lower, upper = step["interval"]
    assert lower < least <= upper
    assert step["resolution"][0] and upper / lower <= 1.1, step["resolution"]
    assert stages_used <= tl.max_refinements(2.0, 0.1)


def test_bisection_with_a_noisy_oracle_keeps_the_truth_inside():
    """Success probability 0.995 from n = 40,000 on and 0.5 below (fixed seed): the sizes are decided by
    Clopper-Pearson from binomial draws (the largest size comes out 29/30, undecided, at this seed) and the
    interval still contains 40,000 (catches a search that gives up when the largest size is undecided instead of
    looking at it again: measured, the interval was None before that was handled)."""
    rng = np.random.default_rng(4)
    step, _ = _search(lambda n: int(rng.binomial(T, 0.995 if n >= 40_000 else 0.5)))
    lower, upper = step["interval"]
    assert lower < 40_000 <= upper


def test_an_undecided_size_is_never_called_holds_and_is_looked_at_again():
    """29/30 against target 0.9 is undecided (CP lower 0.85, upper 0.998): it is not 'holds', it stops the run of
    holding sizes (U = 800, not 200), it is listed inside the interval with the trials that would decide it, the
    resolution note says so, and the next stage probes it again until it has MAX_LOOKS * T trials (catches a rule
    on the point estimate 29/30 >= 0.9, and a search that never adds trials to undecided sizes)."""
    sizes, succ = [800, 400, 200, 100], [30, 29, 30, 0]
    found = ls.least_holding(sizes, succ, T, 0.9, 0.95)
    assert found["holds_empirically"] == [True, False, True, False]
    assert found["fails_empirically"] == [False, False, False, True]
    assert found["least"] == 800 and found["interval"] == [100, 800]
    assert [u["size"] for u in found["undecided_in_interval"]] == [400]
    assert found["undecided_in_interval"][0]["trials_to_decide"] == stats.trials_to_decide(29 / 30, 0.9, 0.95)
    ok, note = ls.resolution_status(found, 0.1)
    assert not ok and "undecided" in note
    step = ls.bracket(sizes, succ, [T] * 4, T, 0.9, 0.95, 0.1)
    assert 400 in step["next"] and 566 in step["next"] and 283 in step["next"]
    full = ls.bracket(sizes, [30, 29 * ls.MAX_LOOKS, 30, 0], [T, ls.MAX_LOOKS * T, T, T], T, 0.9, 0.95, 0.1)
    assert 400 not in full["next"]


def test_refine_probes_integer_midpoints_inside_the_bracket_only():
    assert ls.refine([1000, 500, 250], [250, 1000], 0.1) == [707, 354]
    assert ls.refine([1000, 500, 250], [500, 1000], 0.1) == [707]  # nothing below L
    assert ls.refine([4, 3], [3, 4], 0.1) == []  # no integer strictly inside
    assert ls.refine([1000, 500], [500, 1000], 0.1, feasible=lambda v: v < 600) == []
    assert ls.refine([1000, 500], None, 0.1) == []


def test_shape_fits_recover_known_exponents_in_p_and_d():
    """least n = 5000 sqrt(p), L = least / 1.2, bound n = 10^7 p^0.8, Theorem 13's n = sqrt(p) / alpha: the fits in
    p give 0.5, 0.5, 0.8, 0.5; in d (least n = 300 d^2) 2; a censored least size is left out (catches a fit
    against 1/p or against the raw values, and censored points entering the fit)."""
    rows = [{"key": f"p={p}", "p": p, "d": int(math.log2(p)), "least_n": 5000 * p**0.5, "least_n_censored": False,
             "n_interval": [5000 * p**0.5 / 1.2, 5000 * p**0.5], "n_bound": 1e7 * p**0.8,
             "n_corrected": 4e6 * p**0.8, "thm13_n": p**0.5 / 0.5} for p in (2, 4, 8, 16)]
    rows.append({**rows[0], "key": "censored", "p": 32, "least_n": 1.0, "least_n_censored": True,
                 "n_interval": None, "n_bound": 1e7 * 32**0.8, "n_corrected": 4e6 * 32**0.8, "thm13_n": 32**0.5 / 0.5})
    f = tl.fitted_exponents_in(rows, "p")
    assert f["least_n"] == pytest.approx(0.5) and f["lower_n"] == pytest.approx(0.5)
    assert f["bound_n"] == pytest.approx(0.8) and f["bound_n_optimised"] == pytest.approx(0.8)
    assert f["thm13_n"] == pytest.approx(0.5)
    drows = [{**r, "d": d, "least_n": 300 * d**2, "n_interval": [0, 300 * d**2]} for r, d in zip(rows[:3], (1, 2, 3))]
    g = tl.fitted_exponents_in(drows, "d")
    assert g["least_n"] == pytest.approx(2) and g["lower_n"] is None and "thm13_n" not in g
    assert tl.fitted_exponents_in(rows[:1], "p")["least_n"] is None


SMALL = ["--param", "cases=thresholds:near_threshold", "--param", "alphas=0.9", "--param", "num_points=64",
         "--param", "n_min=20000", "--param", "n_max=2000000", "--param", "m_search=false",
         "--param", "factor=4", "--param", "resolution=0.5"]


def test_staged_search_from_the_command_line_is_reproducible_and_resumes(tmp_path, capsys):
    """`run thm10_looseness` runs stages (stage-00, ...) each a run directory with the derived seed and the
    earlier counts in its params; the last stage is final. Deleting the last stage and resuming gives the same
    records and summary (reproducible from the root seed); a stage edited by hand is refused (catches a stage
    seeded from fresh entropy, a next stage that depends on anything but the previous summary, and a resume
    that silently mixes two searches)."""
    out = tmp_path / "loose"
    assert cli(["run", "thm10_looseness", "--trials", str(T), "--seed", "5", "--workers", "1", "--out", str(out),
                *SMALL]) == 0
    printed = capsys.readouterr().out
    dirs = stages.stage_dirs(out)
    assert len(dirs) >= 2 and "stage 1:" in printed
    manifests = [json.loads((d / "manifest.json").read_text()) for d in dirs]
    assert [m["root_seed"] for m in manifests] == [stages.stage_seed(5, k) for k in range(len(dirs))]
    assert [m["params"]["stage"] for m in manifests] == list(range(len(dirs)))
    last = json.loads((dirs[-1] / "summary.json").read_text())
    assert last["final"] and last["stage"] == len(dirs) - 1
    row = last["rows"][0]
    assert row["n_interval"] and row["n_interval"][0] < row["least_n"] == row["n_interval"][1]
    records = (dirs[-1] / "records.jsonl").read_text()
    shutil.rmtree(dirs[-1])
    assert cli(["resume", str(out), "--workers", "1"]) == 0
    assert (dirs[-1] / "records.jsonl").read_text() == records
    assert json.loads((dirs[-1] / "summary.json").read_text()) == last
    assert cli(["status", str(out)]) == 0 and "finished" in capsys.readouterr().out
    m = json.loads((dirs[1] / "manifest.json").read_text())
    m["params"]["probes"] = json.dumps({"alpha=0.9|thresholds:near_threshold": {"n": [12345]}})
    (dirs[1] / "manifest.json").write_text(json.dumps(m))
    assert cli(["resume", str(out), "--workers", "1"]) == 2
    assert "differ from the ones the search derives" in capsys.readouterr().err


def test_at_the_bound_a_broken_a_pap_makes_the_search_violated(tmp_path):
    """The looseness search runs Theorem 10's own n (with its m) in stage 0 and gives it a verdict: with PMW's
    noise x100 (negative control, 4 trials at thresholds on 64 points, zipf, alpha = 0.5; Err 1.4-1.5 measured
    by test_thm10) the verdict must be 'violated' (catches a search whose at-bound claim ignores the records or
    is always below-bound). Smaller sizes stay below-bound."""
    from simulations import runner

    r = runner.run("thm10_looseness", 4, tmp_path / "run", seed=11, workers=1, progress=False,
                   overrides={"cases": "thresholds:zipf", "alphas": "0.5", "num_points": 64, "factor": 100.0,
                              "n_min": 10**6, "m_search": False, "variant": "pmw_noise_x100"})
    s = r.summary
    row = s["rows"][0]
    assert row["n_grid"][0] == row["n_bound"] and row["claims_at_bound"]["n_search"]["verdict"] == stats.VIOLATED
    assert all(st == stats.BELOW_BOUND for st in row["n_statuses"][1:])
    assert s["verdict"] == stats.VIOLATED and s["negative_control"]


def test_looseness_params_are_checked():
    with pytest.raises(ValueError, match="stump_dims"):
        tl.Params(stump_dims=(1,))
    with pytest.raises(ValueError, match="probes"):
        tl.Params(probes='{"x": {}}')
    with pytest.raises(ValueError, match="resolution"):
        tl.Params(resolution=0.0)
    with pytest.raises(ValueError, match="probes names unit"):
        tl.Params(stage=1, probes='{"alpha=0.3|thresholds:zipf": {"n": [5]}}')
    assert experiments.make_params(tl.EXPERIMENT, {"cases": "stumps:uniform", "stump_dims": "4,8"}).stump_dims == (4, 8)
    keys = [u["key"] for u in tl.units(tl.Params(cases=("stumps:uniform", "thresholds:zipf"), stump_dims=(4, 8),
                                                  alphas=(0.5,)))]
    assert keys == ["alpha=0.5|stumps:uniform|p=4", "alpha=0.5|stumps:uniform|p=8", "alpha=0.5|thresholds:zipf"]


def test_the_at_bound_verdict_comes_from_stage_0_alone():
    """Re-probes of the bound's own size in later stages (to place the least size) never enter the verdict: stage 0
    saw 10/10 at n_bound (inconclusive against 0.9 at 95%), a later stage's 30 more successes there would make the
    pooled 40/40 'holds'. The stage-1 summary must still say 'inconclusive' (catches pooling the history's counts
    at n_bound into the verdict: optional stopping)."""
    import dataclasses

    base = tl.Params(cases=("thresholds:zipf",), alphas=(0.5,), num_points=64, factor=100.0, n_min=10**6,
                     m_search=False)
    u = tl.units(base)[0]
    n_bound = tl.plan(base, u)["setup"]["n_bound"]
    history = {u["key"]: {"n": [[n_bound, 10, 10]], "n_at_bound_stage0": [[n_bound, 10, 10]]}}
    stage1 = dataclasses.replace(base, stage=1, history=json.dumps(history),
                                 probes=json.dumps({u["key"]: {"n": [n_bound]}}))
    records = [{"points": {u["key"]: {"n_accurate": [True], "m_accurate": [], "m_cover_ok": []}}}] * 30
    s = contract.summarise_run(tl.EXPERIMENT, records, stage1)
    row = s["rows"][0]
    assert row["n_successes"][0] == 40 and row["n_trials"][0] == 40  # the search itself pools them
    assert row["status_at_bound"] == stats.INCONCLUSIVE and s["verdict"] == stats.INCONCLUSIVE


def test_trivial_release_gets_its_own_least_size_beside_a_paps():
    """With ``baselines``, private-only PMW's outcomes at the n-search's probes give it its own least n and the
    sizes where A_PAP holds and it fails (``separates_at``), from the records (catches a separation copied from
    A_PAP's column or declared: here PMW fails below the bound and A_PAP holds everywhere)."""
    import dataclasses

    p = tl.Params(cases=("thresholds:zipf",), alphas=(0.5,), num_points=64, factor=100.0, n_min=10**4,
                  m_search=False, baselines=True)
    u = tl.units(p)[0]
    grid = tl.plan(p, u)["n_grid"]
    assert len(grid) >= 2
    point = {"n_accurate": [True] * len(grid), "m_accurate": [], "m_cover_ok": [],
             "n_private_only": [True] + [False] * (len(grid) - 1), "m_public_only": []}
    s = contract.summarise_run(tl.EXPERIMENT, [{"points": {u["key"]: point}}] * 40, p)
    t = s["rows"][0]["trivial_least_sizes"]["private_only"]
    assert t["least"] == grid[0] and t["algorithm_least"] == grid[-1]
    assert t["separates_at"] == grid[1:] and t["separates"]
    same = dict(point, n_private_only=[True] * len(grid))
    t2 = contract.summarise_run(tl.EXPERIMENT, [{"points": {u["key"]: same}}] * 40,
                                p)["rows"][0]["trivial_least_sizes"]["private_only"]
    assert t2["separates_at"] == [] and not t2["separates"]
    assert dataclasses.replace(p, baselines=False).baselines is False


def test_the_search_refuses_wide_stumps_with_one_clear_error():
    """wide_stumps (no domain) is thm10's alone: the search names the case instead of failing mid-run."""
    from simulations import experiments

    with pytest.raises(ValueError, match="wide_stumps:clusters"):
        experiments.make_params(experiments.get("thm10_looseness"), {"cases": "wide_stumps:clusters"})
