"""MWEM (HLM12 Algorithm 1, pure DP) and its zCDP variant (LVSUW21 Algorithm 1) on the shared engine.

Selection and measurement laws are checked against their definitions (chi-square / KS at 0.01,
fixed seeds); accuracy against HLM12 Theorem 2.2's bound with a Clopper-Pearson tolerance.
"""

from __future__ import annotations

import importlib
import math

import numpy as np
import pytest
from scipy import stats

from algorithms.classes import thresholds
from algorithms.privacy import PureDP, ZCDP, exponential_probabilities
from algorithms.query_release.mw import MWDistribution
from algorithms.query_release.mwem import mwem, mwem_zcdp, mwem_zcdp_from_answers, true_answers_of

mw_mod = importlib.import_module("algorithms.query_release.mw")

LEVEL = 0.01


@pytest.mark.parametrize("T", [1, 7, 50])
def test_mwem_spends_pure_eps_and_the_zcdp_variant_eps_tilde_squared_over_two(T):
    """HLM12: T rounds of eps/(2T) + eps/(2T) compose to eps. LVSUW21 Thm 4.5: T eps_0^2 = eps~^2/2."""
    rng = np.random.default_rng(T)
    data = rng.integers(0, 16, 300)
    _, g = mwem(data, thresholds(16), 0.7, T, rng)
    assert isinstance(g, PureDP) and g.eps == pytest.approx(0.7, rel=1e-12)
    _, z = mwem_zcdp(data, thresholds(16), 0.7, T, rng)
    assert isinstance(z, ZCDP) and z.rho == pytest.approx(0.7**2 / 2, rel=1e-12)


def test_mwem_first_selection_follows_the_exponential_mechanism_at_eps_over_2T():
    """Round 1 selects q with probability ~ exp((eps/2T) |q(A_0) - q(D)| / (2/n)). Chi-square at 0.01.
    Catches a wrong budget split (eps or eps/T instead of eps/2T), a wrong score or sensitivity."""
    cls = thresholds(4)
    data = np.array([0] * 6 + [3] * 2)        # n = 8
    T, eps, runs = 3, 6.0, 3000
    true, n = true_answers_of(data, cls)
    scores = np.abs(cls.matrix.mean(axis=1) - true)
    probs = exponential_probabilities(scores, eps=eps / (2 * T), sensitivity=1 / n)
    picks = [mwem(data, cls, eps, T, np.random.default_rng(c)).value.selected[0]
             for c in np.random.SeedSequence(1).spawn(runs)]
    counts = np.bincount(picks, minlength=cls.num_hypotheses)
    assert probs.min() * runs > 5 and probs.max() < 0.6
    assert stats.chisquare(counts, probs * runs).pvalue > LEVEL


def test_mwem_measurements_carry_laplace_noise_of_scale_2T_over_eps_n():
    """HLM12: a_t = q_t(D) + Lap(2T/(eps n)). KS at 0.01; catches removed noise or a wrong scale."""
    cls = thresholds(4)
    data = np.array([1] * 50 + [2] * 50)
    T, eps, n = 4, 2.0, 100
    true, _ = true_answers_of(data, cls)
    noise = []
    for c in np.random.SeedSequence(2).spawn(400):
        r = mwem(data, cls, eps, T, np.random.default_rng(c)).value
        noise.append(r.measurements[0] - true[r.selected[0]])
    assert stats.kstest(noise, stats.laplace(scale=2 * T / (eps * n)).cdf).pvalue > LEVEL


def test_mwem_zcdp_measurements_are_gaussian_with_sigma_one_over_n_eps0():
    """LVSUW21 Algorithm 1: a_t = q_t(D) + N(0, 1/(n eps_0)^2), eps_0 = eps~/sqrt(2T) (clipping is
    negligible here: every true answer is in [0.25, 1] and sigma = 0.032). KS at 0.01."""
    cls = thresholds(4, include_all_negative=False)
    data = np.array([0] * 400 + [3] * 100)
    T, eps_t, n = 5, 1.0, 500
    true, _ = true_answers_of(data, cls)
    sigma = 1 / (n * eps_t / math.sqrt(2 * T))
    noise = []
    for c in np.random.SeedSequence(3).spawn(400):
        r = mwem_zcdp(data, cls, eps_t, T, np.random.default_rng(c)).value
        noise.append(r.measurements[0] - true[r.selected[0]])
    assert stats.kstest(noise, stats.norm(scale=sigma).cdf).pvalue > LEVEL


def _hlm_bound_successes(runs=10, T=200, n=1_000_000, eps=1.0):
    """Runs whose max error is below HLM12 Theorem 2.2's 2 sqrt(ln|X|/T) + 10 T ln|Q| / (eps n)."""
    cls = thresholds(32)
    bound = 2 * math.sqrt(math.log(32) / T) + 10 * T * math.log(33) / (eps * n)
    ok = 0
    for c in np.random.SeedSequence(4).spawn(runs):
        rng = np.random.default_rng(c)
        D = rng.dirichlet(np.full(32, 0.3))
        data = np.repeat(np.arange(32), rng.multinomial(n, D))
        r = mwem(data, cls, eps, T, rng).value
        true, _ = true_answers_of(data, cls)
        ok += np.max(np.abs(r.answers - true)) <= bound
    return ok, runs


def test_mwem_error_within_hlm_theorem_2_2_bound():
    """HLM12 Theorem 2.2 in >= 1 - beta (0.1) of runs, Clopper-Pearson at 0.01. Catches a broken
    update (sign, step) or averaging."""
    ok, runs = _hlm_bound_successes()
    assert stats.binomtest(ok, runs, 0.9, alternative="less").pvalue > LEVEL


def test_broken_mwem_with_flipped_update_fails_the_bound(monkeypatch):
    original = MWDistribution.update
    monkeypatch.setattr(mw_mod.MWDistribution, "update", lambda self, v, step: original(self, v, -step))
    ok, runs = _hlm_bound_successes(runs=5, T=50)
    assert stats.binomtest(ok, runs, 0.9, alternative="less").pvalue <= LEVEL


def test_mwem_zcdp_on_public_support_with_public_histogram_start():
    """LVSUW21 Algorithm 1 shape (PMW^Pub): support = distinct public rows, A_0 = public histogram.
    With the private data on that support and a large budget the answers approach the private ones."""
    rng = np.random.default_rng(6)
    cls = thresholds(30)
    support = np.array([2, 7, 11, 20, 28])
    private = rng.choice(support, size=5000, p=[0.4, 0.1, 0.1, 0.3, 0.1])
    true, n = true_answers_of(private, cls)
    public_hist = np.array([1, 1, 1, 1, 1])
    res, g = mwem_zcdp_from_answers(true, n, cls.matrix[:, support], 50.0, 100, rng, initial=public_hist)
    start = cls.matrix[:, support].astype(float) @ (public_hist / 5)
    assert np.max(np.abs(res.answers - true)) < np.max(np.abs(start - true)) / 3
    assert g == ZCDP(50.0**2 / 2) or g.rho == pytest.approx(1250.0)


def test_mwem_replay_is_post_processing_with_the_same_guarantee():
    rng = np.random.default_rng(0)
    data = rng.integers(0, 16, 400)
    _, g = mwem(data, thresholds(16), 1.0, 10, rng, replay_passes=2)
    assert g.eps == pytest.approx(1.0)


@pytest.mark.parametrize("kw,name", [({"T": 0}, "T"), ({"eps": 0.0}, "eps"), ({"selection": "max"}, "selection"),
                                     ({"replay_passes": -1}, "replay_passes"), ({"initial": [1, 2]}, "initial")])
def test_mwem_rejects_bad_input_naming_the_argument(kw, name):
    args = dict(eps=1.0, T=3)
    args.update(kw)
    eps, T = args.pop("eps"), args.pop("T")
    with pytest.raises(ValueError, match=name):
        mwem([0, 1, 2], thresholds(8), eps, T, np.random.default_rng(0), **args)


def test_mwem_from_answers_rejects_answers_outside_unit_interval():
    with pytest.raises(ValueError, match="true_answers"):
        mwem_zcdp_from_answers(np.full(9, 1.5), 10, thresholds(8), 1.0, 2, np.random.default_rng(0))
    with pytest.raises(ValueError, match="data"):
        mwem([0, 9], thresholds(8), 1.0, 2, np.random.default_rng(0))
