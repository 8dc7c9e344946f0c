"""BCMNUW20 Theorem 15 / Lemma 17: the thm15 experiment on a small grid (thresholds on 64 points, alpha = 0.4)."""

from __future__ import annotations

import copy

import json

import numpy as np
import pytest

import bounds
from simulations import contract, stats
from simulations.experiments import thm15

SMALL = {"num_points": 64, "alpha": 0.4, "m_alpha_grid": (0.5, 16.0), "n_max": 200_000, "form": "asymptotic"}
#: the regime Theorem 15 covers on a finite grid: private learning alone fails and the non-private release succeeds
#: (356 private samples on 256 points)
REGIME = {"num_points": 256, "alpha": 0.25, "m_alpha_grid": (0.5, 16.0), "n_scale": 1.5e-5, "form": "asymptotic",
          "with_b": False}


def _run(T=12, **kw):
    params = thm15.Params(**{**SMALL, **kw})
    recs = [thm15.trial(params, np.random.default_rng(np.random.SeedSequence(15, spawn_key=(i,)))) for i in range(T)]
    return params, recs, contract.summarise_run(thm15.EXPERIMENT, recs, params)


def test_line_and_sizes_come_from_bounds():
    params = thm15.Params(**SMALL)
    s = thm15.theorem_sizes(params)
    assert s["m_min"] == pytest.approx(
        float(bounds.compute("bcmnuw20:thm15", form="asymptotic", alpha=0.4)["public_samples"]))
    assert s["n"] == 200_000 and s["n_counts"] == min(s["n_bound_thm10"], (1 << 53) - 1)
    assert thm15.public_size(0.5, 0.4) == 2 and thm15.public_size(16.0, 0.4) == 40


def test_a_finite_grid_private_learning_handles_is_outside_the_theorem_and_the_reduction_holds():
    """m = 2 < 1/alpha = 2.5 on 64 points with Theorem 10's n: the private-only release (PMW, no public data) is
    accurate in every trial, so this finite grid is outside what Theorem 15 covers: below-bound with the reason,
    not a verdict (and never `violated`); m = 40 is above the line. Lemma 17's inequality excess <= Err_{H^+-}(G)
    holds in every trial (floor check). Catches a learner that ignores the release (excess up to 1/2 > the release
    error) and a regime gate that is declared rather than read from the private-only records."""
    _, recs, sm = _run()
    rows = {r["m"]: r for r in sm["rows"]}
    assert rows[2]["below_line"] and rows[2]["private_only_accurate"]["rate"] == 1.0   # 12/12: not shown to fail
    assert rows[2]["status"] == stats.BELOW_BOUND and "private-only" in rows[2]["outside_regime"]
    assert not rows[40]["below_line"] and rows[40]["status"] == stats.BELOW_BOUND
    assert sm["reduction_floor_check"]["passed"]
    assert sm["verdict"] == stats.BELOW_BOUND
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


def test_in_the_regime_the_claim_holds_and_the_true_answers_control_is_violated():
    """356 private samples on 256 points (Theorem 10's n x 1.5e-5): the private-only releases (PMW and the tree) fail
    in every trial while the exact non-private answers of the pooled samples succeed, so the cells are informative
    (computed from their records); below the line (m = 2) A_PAP is inaccurate (holds) and the control that releases
    the true answers is accurate in 30/30 (violated). With the private-only release, or the tree, made accurate in
    the records, or the non-private release made inaccurate (a failure that would be sampling error at this n), the
    cells are no longer informative. Catches a control judged outside the regime, an informative flag that ignores
    the records, and a lower bound judged where the non-private release fails (at n = 24 it fails 9/30)."""
    params, recs, sm = _run(T=30, **REGIME)
    assert sm["informative"] == {"m_alpha=0.5": True, "m_alpha=16": True}
    edited = copy.deepcopy(recs)  # the private-only release made accurate in the records: the cells leave the regime
    for r in edited:
        for cell in r["sizes"].values():
            cell["private_only_accurate"] = True
    assert not any(contract.summarise_run(thm15.EXPERIMENT, edited, params)["informative"].values())
    for key, value in (("tree_accurate", True), ("exact_pooled_accurate", False)):
        edited = copy.deepcopy(recs)
        for r in edited:
            for cell in r["sizes"].values():
                cell[key] = value
        again = contract.summarise_run(thm15.EXPERIMENT, edited, params)
        assert not any(again["informative"].values()) and again["verdict"] == stats.BELOW_BOUND, key
    assert sm["rows"][0]["private_only_accurate"]["status"] == "fails" and sm["verdict"] == stats.HOLDS
    _, _, bad = _run(T=30, **REGIME, variant="true_answers")
    assert bad["verdict"] == stats.VIOLATED


def test_explicit_line_and_its_privacy_regime():
    """The default explicit form: C_15 = 1/1600 (m_min = floor(1/(1600 alpha)) + 1 from bounds); at alpha = 0.25 no
    m >= 1 is below it, and eps = 0.9, beta = 0.1 are outside the regime the theorem is proven for."""
    params = thm15.Params(**{**SMALL, "form": "explicit"})
    assert thm15.theorem_sizes(params)["m_min"] == float(
        bounds.compute("bcmnuw20:thm15", alpha=0.4)["public_samples"]) == 1
    fails = thm15.privacy_regime(params, 1000)
    assert any("alpha" in f for f in fails) and any("eps" in f for f in fails) and any("beta" in f for f in fails)
    assert thm15.privacy_regime(thm15.Params(alpha=0.0005, beta=0.04, eps=0.1, delta=1e-12), 1000) == []


@pytest.mark.parametrize("m", [1, 2, 7])
def test_abm19_law_is_the_mixture_its_lemma_uses(m):
    """ABM19 Lemma 4.4's D_(p) = p D + (1 - p) D_0, p = 1/(100 m): D's two points carry p/2 + (1 - p)/N each, D_0's
    labels are fair coins, and (Claim 4.6) err(h; D_(p)) = p err(h; D) + (1 - p)/2, so h* is the unique best threshold
    with err(h*; D_(p)) = (1 - p)/2. Catches a D_0 with h*'s labels (err(h*) would be 0) and a weight other than
    1/(100 m)."""
    from algorithms.adversaries import query_to_learner as q2l

    params = thm15.Params(num_points=64, alpha=0.00025, m_alpha_grid=(0.00025,))
    D, eta, D_real, labels = thm15.hard_law(params, m, np.random.default_rng(m))
    p, N = 1 / (100 * m), 64
    x_star = int(np.flatnonzero(D_real.probs)[0])
    assert D.probs.sum() == pytest.approx(1) and D.probs[x_star] == pytest.approx(p / 2 + (1 - p) / N)
    errors = q2l.population_errors(thm15._thresholds(N), q2l.labelled_distribution(D.probs, eta))
    real = q2l.population_errors(thm15._thresholds(N), q2l.labelled_distribution(D_real.probs, (labels == 1) * 1.0))
    assert errors == pytest.approx(p * real + (1 - p) / 2)
    assert np.argmin(errors) == x_star + 1 and errors.min() == pytest.approx((1 - p) / 2)
    assert np.sum(errors == errors.min()) == 1
