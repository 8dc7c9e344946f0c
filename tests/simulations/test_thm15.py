"""BCMNUW20 Theorem 15 / Lemma 17: the thm15 experiment on a small grid (thresholds on 64 points, alpha = 0.4)."""

from __future__ import annotations

import json

import numpy as np
import pytest

import bounds
from simulations import stats
from simulations.experiments import thm15

SMALL = {"num_points": 64, "alpha": 0.4, "m_alpha_grid": (0.5, 16.0), "n_max": 200_000}


def _run(T=12, **kw):
    params = thm15.Params(**{**SMALL, **kw})
    recs = [thm15.trial(params, np.random.default_rng(np.random.SeedSequence(15, spawn_key=(i,)))) for i in range(T)]
    return params, recs, thm15.summarise(recs, params)


def test_line_and_sizes_come_from_bounds():
    params = thm15.Params(**SMALL)
    s = thm15.theorem_sizes(params)
    assert s["m_min"] == pytest.approx(float(bounds.compute("bcmnuw20:thm15", form="asymptotic", alpha=0.4)["public_samples"]))
    assert s["n"] == 200_000
    assert thm15.public_size(0.5, 0.4) == 2 and thm15.public_size(16.0, 0.4) == 40


def test_below_the_line_a_pap_is_not_accurate_and_the_reduction_holds():
    """m = 2 < 1/alpha = 2.5: A_PAP is not (alpha, beta)-accurate on the uniform law with 12 trials (status holds);
    m = 40 is above the line (below-bound, a measurement). Lemma 17's inequality excess <= Err_{H^+-}(G) holds in
    every trial (floor check). Catches a learner that ignores the release (excess up to 1/2 > the release error)."""
    _, recs, sm = _run()
    rows = {r["m"]: r for r in sm["rows"]}
    assert rows[2]["below_line"] and rows[2]["status"] == stats.HOLDS
    assert not rows[40]["below_line"] and rows[40]["status"] == stats.BELOW_BOUND
    assert sm["reduction_floor_check"]["passed"]
    assert sm["verdict"] == stats.HOLDS
    # the chain of the proof ran: B around the learner, with ABM19's input size n~ = max(ceil(n/(10 m)), 4)
    assert rows[2]["b_input_size"] == 10_000 and rows[40]["b_input_size"] == 500
    assert 0 <= rows[2]["b_error_mean"] <= 1 and rows[2]["b_p"] == 1 / 200
    json.dumps(sm)
    json.dumps(recs[0])


@pytest.mark.parametrize("bad,match", [({"num_points": 8}, "num_points=8"), ({"m_alpha_grid": (0.0,)}, "m_alpha_grid"),
                                       ({"alpha": 1.0}, "alpha=1.0")])
def test_bad_params_name_the_field(bad, match):
    with pytest.raises(ValueError, match=match):
        thm15.Params(**bad)
