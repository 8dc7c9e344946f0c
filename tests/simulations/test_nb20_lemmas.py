"""NB20 Lemma 6 and Claim 10 at bounds' sizes (simulations/experiments/nb20_lemmas.py): both hold on 30 trials
and both negative controls come out violated at the same sizes."""

import numpy as np
import pytest

from simulations import contract, stats
from simulations.experiments import nb20_lemmas


def test_lemmas_hold_and_their_controls_are_violated():
    """30 trials, two cases: Lemma 6 and Claim 10 hold (30/30 >= the family-wise need for 8 verdicts, 24), the
    uniform h^ and the truncated sample are violated. Catches a relabelling whose h^ ignores the score, a
    disagreement computed on the wrong law, or sizes that are not bounds'."""
    p = nb20_lemmas.Params(cases=("thresholds", "boundary_noise"))
    recs = [nb20_lemmas.trial(p, np.random.default_rng(np.random.SeedSequence(3, spawn_key=(i,)))) for i in range(30)]
    s = contract.summarise_run(nb20_lemmas.EXPERIMENT, recs, p)
    assert s["trials_for_holds"] <= 30
    assert s["verdict"] == stats.HOLDS, s["verdict_text"]
    assert s["negative_controls_caught"]
    c = s["cases"]["thresholds"]
    assert c["n_lemma6"] >= c["n_lemma6_printed"] and c["n_claim10"] >= c["n_claim10_printed"]
    assert c["lemma6"]["kind"] == "verdict" and c["lemma6"]["label"].startswith("Lemma 6")


def test_params_reject_bad_input():
    with pytest.raises(ValueError, match="alpha"):
        nb20_lemmas.Params(alpha=1.5)
