"""ABM19 experiments (thm3_1, lemma4_4, thm4_1): declared VC dimensions, sizes from bounds, small runs,
and each experiment's negative control coming out ``violated``. Small parameters throughout."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import bounds
from algorithms.classes.combinatorics import vc_dimension
from simulations import experiments, runner
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
    assert set(row["baselines"]) == set(thm3_1.BASELINE_TEXT)
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
