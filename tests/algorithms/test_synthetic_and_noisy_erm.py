"""BCMNUW20 Remark 9's conversion (``algorithms.query_release.synthetic``) and ABM19 Remark 1's approximate-DP learner
(``algorithms.learning.noisy_erm``): what each promises, on cases whose answer is known exactly."""
from __future__ import annotations

import math

import numpy as np
import pytest

from algorithms.classes import thresholds
from algorithms.evaluation import true_answers
from algorithms.learning import GaussianNoisyERM
from algorithms.privacy.accounting import ApproxDP
from algorithms.privacy.mechanisms import GaussianMechanism
from algorithms.query_release.synthetic import closest_law, synthetic_answers, synthetic_rows


def test_closest_law_of_a_laws_own_answers_is_that_close():
    """G = D's answers: the linear program finds a law at distance 0 (t <= 1e-9). Catches a sign or scale slip in the
    constraints (answers on {0, 1} instead of [-1, 1] leave t >= 0.5 here)."""
    cls = thresholds(16)
    D = np.random.default_rng(3).dirichlet(np.ones(16))
    mu, t = closest_law(cls, true_answers(cls, D))
    assert t <= 1e-9 and np.abs(synthetic_answers(cls, mu) - true_answers(cls, D)).max() <= 1e-7


def test_synthetic_rows_on_thresholds_meet_remark_9():
    """G = D's answers (error 0 <= alpha = 0.25) on 32-point thresholds: the n' = 17 rows Remark 9 asks at VC = 1 are
    within 2 alpha of G, from the deterministic rounding alone (draws=0) and better with random roundings tried.
    Catches a rounding that drops rows (counts not summing to n')."""
    cls = thresholds(32)
    D = np.random.default_rng(5).dirichlet(np.ones(32))
    G = true_answers(cls, D)
    counts = synthetic_rows(cls, G, 17, np.random.default_rng(0), draws=0)
    first = np.abs(synthetic_answers(cls, counts) - G).max()
    assert counts.sum() == 17 and first <= 0.5
    best = synthetic_rows(cls, G, 17, np.random.default_rng(0), draws=50)
    assert best.sum() == 17 and np.abs(synthetic_answers(cls, best) - G).max() <= first


def test_noisy_erm_declares_its_guarantee_and_calibrates_to_sqrt_h():
    """The learner's sigma is the analytic (eps, delta) one at L2 sensitivity sqrt(|H|) and it declares ApproxDP; with
    far more private evidence than noise it returns the best hypothesis. Catches a sensitivity of 1 (sigma too small
    by sqrt(|H|))."""
    cls = thresholds(8)
    A = GaussianNoisyERM(cls, 1.0, 1e-6)
    assert A.guarantee == ApproxDP(1.0, 1e-6)
    assert A.sigma == pytest.approx(GaussianMechanism.analytic(math.sqrt(9), 1.0, 1e-6).sigma)
    x = np.repeat(np.arange(8), 500)
    y = (x < 3).astype(np.int64)                    # threshold 3: +1 on the first 3 points
    h = A(x, y, np.array([0]), np.array([1]), np.random.default_rng(1)).value
    assert h == 3
