"""ABM19 experiments (thm3_1, lemma4_4, thm4_1): declared VC dimensions, sizes from bounds, small runs,
and each experiment's negative control coming out ``violated``. Small parameters throughout."""

from __future__ import annotations


import numpy as np
import pytest

import bounds
from algorithms.classes.combinatorics import vc_dimension
from simulations import contract, runner
from simulations.experiments import _abm19_common as common
from simulations.experiments import thm3_1


@pytest.mark.parametrize("kind,size", [("thresholds", 12), ("intervals", 10), ("halfspaces", 3),
                                       ("stumps", 4), ("stumps", 8)])
def test_declared_vc_dimensions_are_the_exact_ones(kind, size):
    """The d each class queries bounds with equals its exact VC dimension on a small instance
    (catches e.g. halfspaces declared with d = 2, which would make n_pub too small)."""
    cls, d = common.make_class(kind, size)
    assert vc_dimension(cls).value == d


def test_case_laws_have_the_target_as_best_hypothesis():
    for case in ("thresholds:near_threshold", "intervals:uniform", "halfspaces:uniform", "stumps:zipf"):
        kind, law = common.check_case(case)
        size = {"thresholds": 32, "intervals": 16, "halfspaces": 4, "stumps": 4}[kind]
        cls, _ = common.make_class(kind, size)
        ex = common.excess_errors(kind, law, size, 0.1)
        assert ex[common.target_row(kind, cls)] == 0.0 and ex.min() == 0.0


THM31_SMALL = {"cases": ("thresholds:uniform", "halfspaces:uniform"), "num_points": 64, "grid_side": 4,
               "alpha": 0.2, "fractions": (0.5, 0.01)}


def test_thm3_1_uses_the_sizes_of_bounds_and_records_baselines():
    params = thm3_1.Params(**THM31_SMALL)
    rec = thm3_1.trial(params, np.random.default_rng(0))
    c = bounds.compute("abm19:thm3.1", alpha=0.2, beta=0.1, epsilon=1.0, vc=1)
    lem = bounds.compute("abm19:lemma3.3", alpha=0.2, beta=0.1, vc=1)
    row = rec["cases"]["thresholds:uniform"]
    assert (row["n"], row["m"]) == (int(c["private_samples"]), int(c["public_samples"]))
    assert thm3_1.theorem_sizes(0.2, 0.1, 1.0, 1)["m_lemma3_3"] == int(lem["public_samples"])
    assert set(row["baselines"]) == {thm3_1.RECORD_KEY.get(k, k) for k in (*thm3_1.OPPONENTS, *thm3_1.PRIVACY_BLIND,
                                                                     *thm3_1.LABEL_BLIND)}
    assert row["looseness"]["0.01"]["n"] == int(np.ceil(0.01 * row["n"]))


def test_thm3_1_small_run_is_not_violated_and_below_bound_runs_are_never_verdicts(tmp_path):
    """40 trials at the theorem's sizes: no claim may be violated; the reduced runs are below-bound."""
    r = runner.run("thm3_1", 40, tmp_path / "run", seed=3, workers=1, progress=False, overrides=THM31_SMALL)
    s = r.summary
    assert s["verdict"] in ("holds", "inconclusive")
    for c in s["cases"].values():
        for f in c["looseness"].values():
            assert f["n_reduced"]["verdict"] == f["m_reduced"]["verdict"] == "below-bound"


def test_thm3_1_negative_control_is_violated(tmp_path):
    """The negative control (score +err_hat in step 6) at the theorem's sizes must come out violated:
    catches a summarise that ignores the records, or an accuracy event that does not look at h_priv."""
    r = runner.run("thm3_1", 20, tmp_path / "neg", seed=4, workers=1, progress=False,
                   overrides={**THM31_SMALL, "variant": "broken_flipped_score"})
    assert r.summary["verdict"] == "violated"
    assert all(c["accuracy"]["verdict"] == "violated" for c in r.summary["cases"].values())


def test_thm3_1_bad_params():
    for kw in ({"cases": ("thresholds:nope",)}, {"alpha": 1.5}, {"noise": 0.5}, {"fractions": (1.5,)},
               {"variant": "x"}, {"grid_side": 40}):
        with pytest.raises(ValueError, match=next(iter(kw))):
            thm3_1.Params(**kw)


# ---------------------------------------------------------------- lemma4_4

from simulations.experiments import lemma4_4  # noqa: E402

L44_SMALL = {"classes": ("pair",), "n_pubs": (1,), "runout_cases": (), "n_priv": 100_000, "num_points": 64}


def test_lemma4_4_values_come_from_bounds():
    v = lemma4_4.lemma_values(0.001, 100_000, 4)
    c = bounds.compute("abm19:lemma4.4", alpha=0.001, private_samples=100_000, public_samples=4)
    assert v["n_tilde"] == int(c["private_samples_B"]) == 2500 and v["p"] == pytest.approx(1 / 400)
    assert v["error_bound"] == pytest.approx(0.4) and lemma4_4.printed_n_tilde(10, 1) == 1


def test_lemma4_4_b_holds_where_the_premise_is_established(tmp_path):
    """H = {h*, not h*}, n_pub = 1, n_priv = 10^5, 80 trials: A_SSPP's premise on D_(p) is established
    and B's claim err <= 100 n_pub alpha w.p. >= 15/16 holds; each private point is used at most once."""
    r = runner.run("lemma4_4", 80, tmp_path / "b", seed=5, workers=1, progress=False, overrides=L44_SMALL)
    c = r.summary["cells"]["pair:1"]
    assert c["premise_established"] and c["claim_4_6"]["verdict"] == "holds"
    assert c["each_point_used_once"]["passed"] and c["mixture_identity_max_deviation"] < 1e-12


def test_lemma4_4_negative_control_is_violated(tmp_path):
    """B with dummy labels (not h*)(x) (not uniform, not independent of x) at the same sizes: the
    premise (A on the true D_(p)) still holds, and B's claim must come out violated."""
    r = runner.run("lemma4_4", 80, tmp_path / "neg", seed=5, workers=1, progress=False,
                   overrides={**L44_SMALL, "variant": "broken_dependent_dummy_labels"})
    c = r.summary["cells"]["pair:1"]
    assert c["premise_established"] and c["claim_4_6"]["verdict"] == "violated"
    assert r.summary["verdict"] == "violated"


def test_lemma4_4_printed_runout_claim_is_violated_at_small_sizes(tmp_path):
    """The erratum: at n_priv = 10, n_pub = 1 the printed n~ = 1 runs out w.p. 0.0865 > 1/100; 3000
    PrivSamp runs give 'violated' for it, while the corrected n~ = 4 (exact tail 1.2e-6) 'holds'; the
    cells' run-out floor check contains the exact tail. With no cell judging B's claim the run is 'inconclusive'
    (a run-out verdict alone says nothing of B's error)."""
    r = runner.run("lemma4_4", 30, tmp_path / "ro", seed=8, workers=1, progress=False,
                   overrides={**L44_SMALL, "n_priv": 1000, "runout_cases": ("10:1",), "runout_reps": 100})
    ro = r.summary["runout_small"]["10:1"]
    assert ro["printed"]["verdict"] == "violated" and ro["printed"]["trials"] == 3000
    assert ro["printed"]["exact_runout"] == pytest.approx(0.0865, abs=1e-4)
    assert ro["corrected"]["verdict"] == "holds"
    # at 30 trials A's premise cannot be established, so no cell judges B's claim: the run says nothing of it
    judged = [c for c in r.summary["cells"].values() if c["claim_4_6"]["verdict"] in ("holds", "violated")]
    assert r.summary["verdict"] == ("holds" if judged else "inconclusive")
    assert r.summary["cells"]["pair:1"]["runout"]["passed"]


def test_lemma4_4_bad_params():
    for kw in ({"alpha": 0.02}, {"n_pubs": (0,)}, {"runout_cases": ("10",)}, {"classes": ("nope",)},
               {"variant": "x"}, {"n_priv": 5}, {"runout_reps": 0}):
        with pytest.raises(ValueError, match=next(iter(kw))):
            lemma4_4.Params(**kw)


# ---------------------------------------------------------------- thm4_1

from simulations.experiments import thm4_1  # noqa: E402

T41_SMALL = {"grids": (64, 512), "n_pubs": (1, 4, 512), "alphas": (0.00001, 0.01), "n_priv": 10_000}


def test_thm4_1_boundary_comes_from_bounds():
    b = thm4_1.boundary(0.0001)
    assert b["n_pub_min"] == int(bounds.compute("abm19:thm4.1", alpha=0.0001)["public_samples"]) == 7
    assert b["n_pub_a_sspp"] == int(bounds.compute("abm19:thm3.1", alpha=0.0001, beta=1 / 22, epsilon=0.1,
                                                   vc=1)["public_samples"])
    assert thm4_1.b_size(10_000, 4) == 250


def test_thm4_1_regime_follows_from_the_records_and_the_oracle_is_violated(tmp_path):
    """100 trials at n_priv = 10,000 on grids of 64 and 512 points. On 64 points the no-public learner learns
    (alpha = 1e-5 included: every point carries ~150 examples), so that grid is outside the class Theorem 4.1
    covers: its cells below the boundary are below-bound and say so, never violated. On 512 points it fails at
    alpha = 1e-5 (its `no_public_learns` record 'fails'): the grid is informative, and there A_SSPP below the
    boundary (n_pub = 1, 4) fails w.p. >= 1/22 ('holds') while the oracle control comes out 'violated' (0 failures
    of 100 < 1/22 at Bonferroni 2). Catches an informative flag that is declared (the 64-point grid would be
    judged) and a control judged where the claim cannot fail."""
    r = runner.run("thm4_1", 100, tmp_path / "a", seed=6, workers=1, progress=False, overrides=T41_SMALL)
    s = r.summary
    assert s["informative"] == {"N=64,alpha=1e-05": False, "N=64,alpha=0.01": False,
                                "N=512,alpha=1e-05": True, "N=512,alpha=0.01": False}
    for N, informative in (("64", False), ("512", True)):
        a = s["grids"][N]["alphas"][repr(0.00001)]
        assert (a["no_public_learns"]["status"] == "fails") == informative
        for m in ("1", "4"):
            c = a["cells"][m]
            assert c["below_boundary"] and (c["lower_bound_prediction"]["verdict"] == "below-bound") != informative
            assert ("outside_regime" in c) != informative
    assert s["verdict"] == "holds"
    cells = s["grids"]["64"]["alphas"][repr(0.01)]["cells"]
    assert all(c["lower_bound_prediction"]["verdict"] == "below-bound" for c in cells.values())
    o = runner.run("thm4_1", 100, tmp_path / "o", seed=6, workers=1, progress=False,
                   overrides={**T41_SMALL, "variant": "oracle"})
    assert o.summary["verdict"] == "violated"


def test_thm4_1_outside_the_privacy_regime_is_below_bound():
    """eps = 0.2 > 0.1: Theorem 4.1's proof covers no such learner, so no cell is judged."""
    import numpy as np

    params = thm4_1.Params(**{**T41_SMALL, "grids": (512,), "eps": 0.2})
    recs = [thm4_1.trial(params, np.random.default_rng(i)) for i in range(5)]
    s = contract.summarise_run(thm4_1.EXPERIMENT, recs, params)
    assert s["verdict"] == "below-bound" and not any(s["informative"].values())
    assert "eps > 0.1" in s["grids"]["512"]["alphas"][repr(0.00001)]["cells"]["1"]["outside_regime"]


def test_thm4_1_bad_params():
    for kw in ({"grids": (3,)}, {"alphas": (0.5,)}, {"n_pubs": ()}, {"variant": "x"}, {"eps": 0.0}):
        with pytest.raises(ValueError, match=next(iter(kw))):
            thm4_1.Params(**kw)
