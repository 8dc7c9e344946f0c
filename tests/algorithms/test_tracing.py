"""BCMNUW20 Theorem 14: the robust tracing attack (algorithms.adversaries.tracing). Fixed seeds; tolerances from
Clopper-Pearson bounds (simulations.stats)."""

from __future__ import annotations


import numpy as np
import pytest

import bounds
from algorithms.adversaries import tracing
from simulations import stats


def _exact(x: np.ndarray) -> np.ndarray:
    return x.mean(axis=0, dtype=np.float64)


def test_hard_distribution_has_its_biases():
    """Coordinates are +-1 with mean mu_j, mu_j in [-gamma, gamma] (catches a sign flip or a [0, 1] coding)."""
    rng = np.random.default_rng(0)
    D = tracing.hard_distribution(50, 0.4, rng)
    assert np.all(np.abs(D.biases) <= 0.4)
    x = D.sample(20000, rng)
    assert x.dtype == np.int8 and set(np.unique(x)) <= {-1, 1}
    # 20000 draws: the mean's standard deviation is <= 1/sqrt(20000) = 0.007; 5 sd = 0.035
    assert np.max(np.abs(x.mean(axis=0) - D.biases)) < 0.035


def test_attack_on_exact_answers_traces_most_of_the_private_set_well_below_sqrt_p_over_alpha():
    """p = 1000, alpha = 0.1: sqrt(p)/alpha = 316; at n = 10 the attacker at Theorem 14's level f = 1/(r + t)^2
    (r, t from bounds) says IN on a designated private sample in more than half of 40 independent trials (one-sided
    95% Clopper-Pearson lower bound >= 0.5). Catches a score with the wrong sign (weights -v: no member is IN) and
    centring q by the private data itself (v = 0: no score exceeds the threshold)."""
    p, alpha, n, T = 1000, 0.1, 10, 40
    c = bounds.compute("bcmnuw20:thm14", form="asymptotic", alpha=alpha, dual_vc=p)
    level = float(c["failure_probability"])
    hits = 0
    for i in range(T):
        rng = np.random.default_rng(100 + i)
        D = tracing.hard_distribution(p, 2 * alpha, rng)
        x = D.sample(n, rng)
        A = tracing.Attacker.build(_exact(x), D.sample(1, rng), D.sample(100, rng))
        hits += bool(A.trace(x[:1], A.analytic_threshold(level))[0])
    assert stats.clopper_pearson(hits, T, 0.95, "lower")[0] >= 0.5


@pytest.mark.parametrize("mode", ["noise", "shrink"])
def test_attack_is_robust_to_answers_with_error_up_to_alpha(mode):
    """Answers within alpha = 0.1 of the private mean (uniform noise in [-alpha, alpha], or shrunk by the factor
    1 - alpha towards 0) are still traced at n = 10 << sqrt(p)/alpha at Theorem 14's level: one-sided 95%
    Clopper-Pearson lower bound >= 0.5 over 40 trials (measured: 36/40 and 39/40). Catches the same breaks as the
    exact-answer test."""
    p, alpha, n, T = 1000, 0.1, 10, 40
    level = float(bounds.compute("bcmnuw20:thm14", form="asymptotic", alpha=alpha, dual_vc=p)["failure_probability"])
    hits = 0
    for i in range(T):
        rng = np.random.default_rng(200 + i)
        D = tracing.hard_distribution(p, 2 * alpha, rng)
        x = D.sample(n, rng)
        xb = _exact(x)
        q = xb + rng.uniform(-alpha, alpha, p) if mode == "noise" else (1 - alpha) * xb
        assert np.max(np.abs(q - xb)) <= alpha
        A = tracing.Attacker.build(q, D.sample(1, rng), D.sample(100, rng))
        hits += bool(A.trace(x[:1], A.analytic_threshold(level))[0])
    assert stats.clopper_pearson(hits, T, 0.95, "lower")[0] >= 0.5


@pytest.mark.parametrize("center", [0, 100])
def test_analytic_threshold_false_positive_rate_is_below_its_target(center):
    """The guarantee is over a fresh y and the reference z: for a fixed release (weights v), 20000 fresh pairs (y, z)
    give i.i.d. indicators [<y - z, v> > tau], so the IN count is binomial; at target 0.05 its one-sided 95%
    Clopper-Pearson lower bound stays <= 0.05. Catches tau without its sqrt(ln(1/f)) factor (FPR about 0.07 here),
    checked below on the same draws."""
    rng = np.random.default_rng(7)
    D = tracing.hard_distribution(500, 0.4, rng)
    x = D.sample(30, rng)
    A = tracing.Attacker.build(_exact(x), D.sample(1, rng), D.sample(center, rng) if center else None)
    pairs = (D.sample(20000, rng).astype(float) - D.sample(20000, rng)) @ A.weights
    k = int((pairs > A.analytic_threshold(0.05)).sum())
    assert stats.clopper_pearson(k, 20000, 0.95, "lower")[0] <= 0.05
    k_broken = int((pairs > 2 * A.norm).sum())
    assert stats.clopper_pearson(k_broken, 20000, 0.95, "lower")[0] > 0.05


def test_null_threshold_and_sign_flip_are_valid_at_their_level():
    """Over 400 independent trials (fresh q, z, null draws each), one fresh sample is IN with probability <= 0.1 for
    the conformal null threshold (K = 19) and for the sign-flip test (B = 19): one-sided 95% Clopper-Pearson lower
    bounds <= 0.1. Catches the conformal rank off by one (the 17th smallest of 19 instead of the 18th: level 0.15,
    lower bound 0.103 on these draws) and sign flips of y_j v_j without the reference (not symmetric: level 0.85).
    It does not catch a p-value without its +1, which gives the same decisions at B = 19."""
    T, f = 400, 0.1
    fp_null = fp_flip = 0
    for i in range(T):
        rng = np.random.default_rng(1000 + i)
        D = tracing.hard_distribution(200, 0.4, rng)
        A = tracing.Attacker.build(_exact(D.sample(20, rng)), D.sample(1, rng))
        y = D.sample(1, rng)
        fp_null += bool(A.trace(y, A.null_threshold(D.sample(19, rng), f))[0])
        fp_flip += bool(A.sign_flip_pvalues(y, 19, rng)[0] <= f)
    for k in (fp_null, fp_flip):
        assert stats.clopper_pearson(k, T, 0.95, "lower")[0] <= f


def test_null_threshold_needs_enough_draws():
    rng = np.random.default_rng(0)
    D = tracing.hard_distribution(20, 0.4, rng)
    A = tracing.Attacker.build(_exact(D.sample(5, rng)), D.sample(1, rng))
    with pytest.raises(ValueError, match="null_sample has 10 rows"):
        A.null_threshold(D.sample(10, rng), 0.01)


def test_bad_inputs_name_the_argument():
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="bias_range=1.5"):
        tracing.hard_distribution(10, 1.5, rng)
    with pytest.raises(ValueError, match="candidates has entries other than"):
        tracing.Attacker.build(np.zeros(3), np.ones((1, 3))).scores(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="reference has shape"):
        tracing.Attacker.build(np.zeros(3), np.ones((2, 3)))
    with pytest.raises(ValueError, match="target=1.0"):
        tracing.Attacker.build(np.zeros(3), np.ones((1, 3))).analytic_threshold(1.0)


def test_roc_curve_is_monotone_from_zero_to_one():
    _, fpr, tpr = tracing.roc_curve([3.0, 2.0, 2.0, 0.5], [1.0, 0.0, 2.0])
    assert fpr[0] == tpr[0] == 0 and fpr[-1] == tpr[-1] == 1
    assert np.all(np.diff(fpr) >= 0) and np.all(np.diff(tpr) >= 0)
    # at threshold 1.0 (score > 1): 3 of 4 members, 1 of 3 non-members
    thr, fpr, tpr = tracing.roc_curve([3.0, 2.0, 2.0, 0.5], [1.0, 0.0, 2.0])
    i = int(np.flatnonzero(thr == 1.0)[0])
    assert (tpr[i], fpr[i]) == (0.75, pytest.approx(1 / 3))


def test_signal_floor_matches_the_integral():
    """The closed form (*) equals a numerical integration of (1 - mu^2) g'(mu) for g(mu) = mu - alpha sign(mu)...
    checked here at g(mu) = mu (alpha = 0): (1/2g) int (1 - mu^2) dmu = 1 - gamma^2/3."""
    for g in (0.1, 0.5, 1.0):
        assert tracing.signal_floor(0.0, g) == pytest.approx(1 - g * g / 3)
    assert tracing.signal_floor(0.1, 0.4) < tracing.signal_floor(0.0, 0.4)
