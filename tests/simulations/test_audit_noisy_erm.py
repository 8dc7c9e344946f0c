"""DR14 Thm A.1 with BW18 Thm 8 (Gaussian report-noisy-min, ABM19 Remark 1's approximate learner): the audit
targets' exact law is the one ``GaussianNoisyERM.sample`` draws from, one draw of it is a call, and the worst pair
reaches the declared (eps, delta)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

from algorithms.learning.noisy_erm import GaussianNoisyERM
from simulations.audit_targets import noisy_erm as ne


def test_noisy_erm_sample_is_the_call_and_its_law():
    """One draw of ``sample`` uses the generator as a call does (same outputs on the same seeds), and 20,000 draws on
    the testable pair's D0 give Pr[h_0] = Phi(g / (sigma sqrt 2)) inside the two-sided 99.9% binomial interval
    (catches a law with sigma in place of sigma sqrt 2: 0.0003 against 0.0079 at g = -18)."""
    learner = GaussianNoisyERM(ne._learner(1.0).cls, ne.EPS, ne.DELTA)
    points, pub = np.zeros(ne.N_PRIV, dtype=np.int64), np.zeros(2, dtype=np.int64)
    d0, _ = ne.pair_at(-10)
    for seed in range(5):
        call = learner(points, d0, pub, ne.PUBLIC_LABELS, np.random.default_rng(seed)).value
        assert call == learner.sample(points, d0, pub, ne.PUBLIC_LABELS, np.random.default_rng(seed), 1)[0]
    g = ne.testable_gap(1.0)
    d0, _ = ne.pair_at(g)
    n = 200_000
    hits = int(np.count_nonzero(learner.sample(points, d0, pub, ne.PUBLIC_LABELS, np.random.default_rng(4), n) == 0))
    lo, hi = stats.binom.interval(0.999, n, ne.law(g))
    assert lo <= hits <= hi, (hits, n * ne.law(g))
    with pytest.raises(ValueError):
        learner.sample(points, d0, pub, ne.PUBLIC_LABELS, np.random.default_rng(0), 0)


def test_noisy_erm_worst_pair_reaches_the_claim_and_the_twin_exceeds_it():
    """Two hypotheses make the output a threshold of the declared Gaussian's sufficient statistic: the worst gap's
    exact eps at the declared delta is within 1% of the declared eps and never above it (a law off by sqrt 2 in
    sigma exceeds it); the half-sigma twin's is 2.15; the testable pairs are the module docstring's."""
    g, loss = ne.worst_gap(1.0)
    assert 0.99 * ne.EPS <= loss <= ne.EPS
    assert max(ne.pair_loss(ne.pair_at(h)) for h in ne.reachable_gaps()) <= ne.EPS
    assert ne.worst_gap(ne.HALF_SIGMA)[1] == pytest.approx(2.155, abs=1e-3)
    assert ne.testable_gap(1.0) == -18 and ne.testable_gap(ne.HALF_SIGMA) == -12
    assert ne.expected_eps_lb(-12, ne.HALF_SIGMA, ne.SAMPLES) > 1.2 * ne.EPS
