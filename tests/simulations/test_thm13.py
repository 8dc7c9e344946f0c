"""BCMNUW20 Theorems 13 and 14: the thm13 experiment (tracing attack against real releases). Small versions of the
run: p = 1000, one cell in Theorem 13's region; sizes from bounds."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

import bounds
from algorithms.privacy import ApproxDP, PureDP
from simulations import contract, stats
from simulations.__main__ import main as cli
from simulations.experiments import thm13

SMALL = {"p": 1000, "alpha": 0.2, "bias_range": 0.4, "n_grid": (32,), "m_grid": (0,), "form": "asymptotic",
         "releases": ("exact", "laplace", "gaussian", "gaussian_broken"), "null_draws": 19, "num_flips": 19,
         "fresh_draws": 50, "center_draws": 50, "fpr": 0.05}


@pytest.fixture(scope="module")
def small_run():
    """150 independent trials of one in-region cell (n = 32, m = 0; r = 158, t = 25 at p = 1000, alpha = 0.2)."""
    params = thm13.Params(**SMALL)
    records = [thm13.trial(params, np.random.default_rng(np.random.SeedSequence(5, spawn_key=(i,))))
               for i in range(150)]
    return params, records, contract.summarise_run(thm13.EXPERIMENT, records, params)


def test_sizes_come_from_bounds_and_the_region_follows_the_proof():
    s = thm13.theorem_sizes(0.2, 1000, 1.0, 1.0)
    c = bounds.compute("bcmnuw20:thm14", form="asymptotic", alpha=0.2, dual_vc=1000)  # drawn at C_14r = C_14t = 1
    assert s["r"] == pytest.approx(float(c["range_r"])) and s["t"] == pytest.approx(float(c["traced_t"]))
    assert s["level_thm14"] == pytest.approx(1 / (s["r"] + s["t"]) ** 2)
    assert thm13.in_region(32, 0, s) and not thm13.in_region(8, 0, s)        # n + m > t = 25 needed
    assert not thm13.in_region(32, 12, s) and thm13.in_region(32, 11, s)     # m <= t/2 - 1 = 11.5
    assert not thm13.in_region(159, 0, s)                                   # n <= r = 158.1
    assert not thm13.in_region(10, 20, s)                                   # n >= 11 (erratum)


def test_releases_declare_their_guarantees():
    params = thm13.Params(**{**SMALL, "releases": thm13.RELEASES[:6], "m_grid": (4,)})
    rng = np.random.default_rng(0)
    x = np.where(rng.random((32, 1000)) < 0.5, 1, -1).astype(np.int8)
    w = x[:4]
    assert thm13.release("exact", x, w, params, rng)[1] is None
    assert thm13.release("laplace", x, w, params, rng)[1] == PureDP(1.0)
    assert thm13.release("gaussian", x, w, params, rng)[1] == ApproxDP(1.0, 1 / 128)
    assert thm13.release("gaussian_broken", x, w, params, rng)[1] == ApproxDP(1.0, 1 / 128)
    assert thm13.release("public_only", x, w, params, rng)[1] == PureDP(0.0)
    q0, g0 = thm13.release("zero", x, w, params, rng)
    assert g0 == PureDP(0.0) and not q0.any()
    assert thm13.release("public_only", x, w[:0], params, rng) is None
    q, _ = thm13.release("exact", x, w, params, rng)
    assert np.allclose(q, np.vstack([x, w]).mean(axis=0))


def test_attack_breaks_exact_answers_and_the_broken_gaussian_in_the_region(small_run):
    """Negative control: at n = 32 << sqrt(p)/alpha = 158 the attack contradicts (1, 1/(4n))-DP for the exact
    answers and for gaussian_broken (declared (1, 1/128) with 1% of the noise), so the negative control's status
    is 'violated'. Catches an attack that does not trace (e.g. scores with the wrong sign) and a broken variant that
    secretly adds the full noise."""
    _, _, sm = small_run
    cell = sm["cells"]["n=32,m=0"]
    assert cell["in_region"]
    for kind in ("exact", "gaussian_broken"):
        assert cell["releases"][kind]["contradicts_theorem_privacy"], kind
    assert sm["control_release"]["status"] == stats.VIOLATED


def test_gaussian_release_tpr_stays_within_the_fpr_interval(small_run):
    """A correctly private release: with the Gaussian at (1, 1/(4n)) the attacker's TPR at every threshold lies in the
    two-sided 95% Clopper-Pearson interval of its FPR widened by the DP inequality (TPR <= e FPR + 1/(4n)), the TPR
    and FPR intervals overlap (150 trials, fixed seed), and the
    implied epsilon lower bound never exceeds the declared epsilon, for Laplace too (privacy floor check passes).
    Catches the Gaussian released without (enough) noise: gaussian_broken, with the same declaration, is caught
    above."""
    _, _, sm = small_run
    cell = sm["cells"]["n=32,m=0"]["releases"]
    for kind in ("gaussian", "laplace"):
        v = cell[kind]
        assert v["eps_lb"] <= v["declared"]["eps"], kind
        for meth, e in v["methods"].items():
            tpr = e["tpr_private"]["rate"]
            lo, hi = e["fpr"]["ci"]
            assert tpr <= math.e * hi + 1 / 128, (kind, meth)
            t_lo, t_hi = e["tpr_private"]["ci"]
            assert t_lo <= hi and lo <= t_hi, (kind, meth)   # the two 95% intervals overlap
    assert sm["privacy_floor_check"]["passed"]
    # no release, not even the exact mean, is (alpha, alpha)-accurate in this region cell: Theorem 13's claim cannot
    # fail there, so it is below-bound (not informative), for the Gaussian and for q = 0 alike
    assert cell["exact"]["accurate_record"]["status"] == "fails"
    assert not sm["informative"]["n=32,m=0"]
    assert cell["gaussian"]["theorem_claim"]["verdict"] == stats.BELOW_BOUND
    assert sm["verdict"] == stats.BELOW_BOUND


def test_fresh_samples_stay_out_at_the_analytic_level(small_run):
    """Theorem 14's first guarantee for the attacker: a fresh sample is OUT at level f = 1/(r+t)^2 = 3.0e-5; over 150
    trials x 4 releases no designated fresh sample is IN (the probability of any is <= 600 f = 0.018)."""
    _, records, sm = small_run
    fp = sum(r["cells"]["n=32,m=0"][k]["decisions"]["analytic_thm14"]["fresh"] for r in records
             for k in sm["releases"])
    assert fp == 0


def test_records_are_json_and_roc_is_summarised(small_run):
    _, records, sm = small_run
    json.dumps(records[0])
    json.dumps(sm)
    roc = sm["cells"]["n=32,m=0"]["releases"]["exact"]["roc"]
    assert roc["fpr"][0] == 0 and roc["tpr"][-1] == 1 and roc["positives"] == 150 * 4


def test_informative_follows_from_the_records_and_the_claim_can_fail_there():
    """Hidden-constant mode at C_14r = 10 (r = 1581, t = 25 at p = 1000, alpha = 0.2): at n = 600 the exact mean is
    (alpha, alpha)-accurate in 30/30 trials, so the cell is informative (computed from the accuracy records, not
    declared) and the claims there are verdicts: the Gaussian and q = 0 hold, while the broken Gaussian (1% of the
    noise, the same declaration) is accurate and its Theorem-13 claim comes out violated; at n = 32 nothing is
    accurate and every claim is below-bound. The negative control (its declaration contradicted by the attack) is
    violated. Catches an informative flag that is declared rather than computed (n = 32 would be informative) and a
    claim judged in a cell where it cannot fail."""
    params = thm13.Params(**{**SMALL, "n_grid": (32, 600), "c_14r": 10.0,
                             "releases": ("exact", "zero", "gaussian", "gaussian_broken")})
    recs = [thm13.trial(params, np.random.default_rng(np.random.SeedSequence(7, spawn_key=(i,)))) for i in range(30)]
    sm = contract.summarise_run(thm13.EXPERIMENT, recs, params)
    assert sm["informative"] == {"n=32,m=0": False, "n=600,m=0": True}
    big = sm["cells"]["n=600,m=0"]["releases"]
    assert big["exact"]["accurate_record"]["status"] == "succeeds"
    assert big["gaussian"]["theorem_claim"]["verdict"] == stats.HOLDS
    assert big["zero"]["theorem_claim"]["verdict"] == stats.HOLDS and big["zero"]["theorem_claim"][
        "kind"] == "floor check"
    assert big["gaussian_broken"]["theorem_claim"]["verdict"] == stats.VIOLATED
    assert "successes" not in big["gaussian_broken"]["theorem_claim"]   # a control's record, never in the Holm family
    assert all("gaussian_broken" not in path for path, _ in contract.find_claims(sm))
    small = sm["cells"]["n=32,m=0"]["releases"]
    assert all(v["theorem_claim"]["verdict"] == stats.BELOW_BOUND for v in small.values() if "theorem_claim" in v)
    assert sm["verdict"] == stats.HOLDS
    assert sm["control_release"]["status"] == stats.VIOLATED
    # each cell names its strongest opponent: the declared-private release closest to accurate (the exact mean and
    # the broken Gaussian, not private, do not count)
    best = sm["cells"]["n=600,m=0"]["strongest_opponent"]
    assert best["name"] in thm13.PRIVATE_RELEASES and best["failed"] == (best["status"] == "fails")


def test_explicit_constants_leave_no_region_at_simulable_sizes():
    """The default form: bounds' explicit r, t for this attack (t < 0 at alpha = 0.2), so no cell is in the region
    and the summary says no verdict is possible; the control is judged on every cell and still caught (40 trials, as
    the contract test's CI run; 20 are too few at n = 32)."""
    params = thm13.Params(**{**SMALL, "form": "explicit", "releases": ("exact", "zero", "gaussian_broken")})
    recs = [thm13.trial(params, np.random.default_rng(np.random.SeedSequence(3, spawn_key=(i,)))) for i in range(40)]
    sm = contract.summarise_run(thm13.EXPERIMENT, recs, params)
    assert sm["sizes"]["t"] == pytest.approx(
        float(bounds.compute("bcmnuw20:thm14", alpha=0.2, dual_vc=1000)["traced_t"]))
    assert sm["sizes"]["t"] < 0 and sm["verdict"] == stats.BELOW_BOUND and "no verdict is possible" in sm[
        "verdict_text"]
    assert sm["control_release"]["status"] == stats.VIOLATED


def test_outside_the_region_is_below_bound():
    params = thm13.Params(**{**SMALL, "n_grid": (200,), "releases": ("gaussian",)})
    recs = [thm13.trial(params, np.random.default_rng(i)) for i in range(3)]
    sm = contract.summarise_run(thm13.EXPERIMENT, recs, params)
    assert sm["verdict"] == stats.BELOW_BOUND
    assert sm["cells"]["n=200,m=0"]["releases"]["gaussian"]["theorem_claim"]["verdict"] == stats.BELOW_BOUND


def test_pmw_and_pap_releases_on_small_p():
    """PMW and A_PAP on decision_stumps(8): run, answer every stump, declare ApproxDP(eps, 1/(4n))."""
    params = thm13.Params(p=8, alpha=0.4, bias_range=0.8, n_grid=(16,), m_grid=(4,), releases=("pmw", "pap"),
                          null_draws=19, num_flips=19, fresh_draws=10, center_draws=10)
    rec = thm13.trial(params, np.random.default_rng(1))
    for kind in ("pmw", "pap"):
        r = rec["cells"]["n=16,m=4"][kind]
        assert r["declared"] == {"kind": "ApproxDP", "eps": 1.0, "delta": 1 / 64}
        assert 0 <= r["error"] <= 2


@pytest.mark.parametrize("bad,match", [({"fpr": 0.01, "null_draws": 50}, "null_draws=50"),
                                       ({"n_grid": (0,)}, r"n_grid=\(0,\) must be .* integers in \[1, inf\)"),
                                       ({"releases": ("nope",)}, "releases=")])
def test_bad_params_name_the_field(bad, match):
    with pytest.raises(ValueError, match=match):
        thm13.Params(**bad)


def test_pmw_and_pap_release_at_p_2000():
    """The papers' own algorithms at a p where tracing has power (the dense class would have 2^2000 columns)."""
    params = thm13.Params(p=2000, n_grid=(40,), m_grid=(8,), releases=("pmw", "pap"), roc_k=2)
    rec = thm13.trial(params, np.random.default_rng(0))
    for kind in ("pmw", "pap"):
        r = rec["cells"]["n=40,m=8"][kind]
        assert r["declared"]["kind"] == "ApproxDP" and 0 <= r["error"] <= 2


def test_cli_runs_a_small_thm13(tmp_path):
    out = tmp_path / "thm13"
    args = ["run", "thm13", "--trials", "2", "--seed", "3", "--workers", "1", "--out", str(out)]
    for k, v in {"p": 300, "n_grid": "16", "m_grid": "0", "releases": "exact,gaussian", "null_draws": 19,
                 "num_flips": 19, "fresh_draws": 10, "center_draws": 10}.items():
        args += ["--param", f"{k}={v}"]
    assert cli(args) == 0
    sm = json.loads((out / "summary.json").read_text())
    assert sm["verdict"] in stats.STATUSES
    assert cli(["run", "thm13", "--trials", "2", "--out", str(tmp_path / "bad"), "--param", "p=1"]) == 2
    assert not (tmp_path / "bad").exists()
