"""NB20 Lemma 9 at its corrected query count (simulations/experiments/nb20_lemma9.py): its sizes are bounds' and its
proof's steps add up to the lemma's event (the contract test runs it and its control at CI size)."""

import math

import pytest

import bounds
from simulations.experiments import nb20_lemma9, thm7


def test_sizes_are_the_corrected_query_count_and_theorem7s_n_there():
    """m = ceil(bounds nb20:lemma9 min_queries) at the case's gamma (above the printed count), n = Theorem 7's n at
    that m. Catches a run at thm7's fixed m or at the printed count."""
    sz = nb20_lemma9.lemma_sizes("thresholds", 0.2, 0.2, 0.99, 0.03, 0.1, 0.1, "tight")
    c = bounds.compute("nb20:lemma9", alpha=0.2, beta=0.2, epsilon=0.99, delta=0.03, vc=1, num_queries=10**6,
                       approx_error=0.1)
    assert sz["m"] == math.ceil(c["min_queries"]) > sz["m_printed"] == math.ceil(c["min_queries_as_printed"])
    assert sz["n_bound"] == thm7.theorem_sizes(0.2, 0.2, 0.99, 0.03, 1, sz["m"], 0.1, "tight")["n_bound"]


def test_the_proof_steps_bound_the_lemmas_event_in_every_trial():
    """The triangle inequality of the proof, on one trial's draws: avg error of y_priv <= step (1) + step (2) +
    step (3) (each an average over the same m queries); in the thresholds case every algorithm answers as ERM, so
    it is an equality there. Catches step (3) taken as the excess over gamma (checked by breaking it once)."""
    import numpy as np

    p = nb20_lemma9.Params(cases=("thresholds",))
    r = nb20_lemma9.trial(p, np.random.default_rng(np.random.SeedSequence(7, spawn_key=(0,))))["cases"]["thresholds"]
    s = r["steps"]
    assert r["avg_error"]["agprivcl"] <= s["eq1"] + s["eq2"] + s["eq3"] + 1e-12
    assert r["m"] == nb20_lemma9.lemma_sizes("thresholds", 0.2, 0.2, 0.99, 0.03, 0.1, 0.1, "tight")["m"]


def test_params_reject_bad_input():
    with pytest.raises(ValueError, match="alpha"):
        nb20_lemma9.Params(alpha=1.5)
