"""NB20 Algorithm 6 (A_stab): distance to instability with threshold ln(1/delta)/eps.

The release probability is exact from the definition: Pr[f(S) released] =
Pr[dist_f(S) + Lap(1/eps) > Gamma]. Counts at fixed seeds are tested with an exact binomial
test (pass above 1e-3), and each test rejects a broken variant (noise Lap(1/(2 eps))) below 1e-6.
"""

import math

import numpy as np
import pytest
from scipy import stats

from algorithms.privacy.accounting import ApproxDP
from algorithms.privacy.stability import DistanceToInstability, a_stab, laplace_tail, stability_threshold

ALPHA, REJECT = 1e-3, 1e-6
N = 40_000


def _release_probability(dist, threshold, eps):
    """Pr[dist + Lap(1/eps) > Gamma] from the Laplace cdf, written out."""
    x = threshold - dist
    return 0.5 * math.exp(-eps * x) if x >= 0 else 1 - 0.5 * math.exp(eps * x)


class _HalfNoise(DistanceToInstability):
    """Broken on purpose: Lap(1/(2 eps)) noise on the distance."""

    @property
    def noise_scale(self):
        return super().noise_scale / 2


def test_threshold_is_log_one_over_delta_over_eps():
    """eps = 0.5, delta = 1e-6: ln(1e6)/0.5 = 27.631021."""
    assert stability_threshold(0.5, 1e-6) == pytest.approx(27.631021, rel=1e-7)
    m = DistanceToInstability.for_delta(0.5, 1e-6)
    assert m.threshold == pytest.approx(27.631021, rel=1e-7) and m.guarantee == ApproxDP(0.5, 1e-6)


@pytest.mark.parametrize("dist", [0.0, 1.0, 2.0, 4.0])
def test_release_frequency_matches_laplace_tail(dist):
    """eps = 1, delta = 0.2 (Gamma = ln 5 = 1.609): at dist = 0 the release probability is
    delta/2 = 0.1; exact binomial test of the release count over N independent runs. Catches:
    noise halved (checked), a threshold without the log."""
    eps, delta = 1.0, 0.2
    mech = DistanceToInstability.for_delta(eps, delta)
    p = _release_probability(dist, mech.threshold, eps)
    stable = mech.sample(dist, np.random.default_rng(17), N)
    assert stats.binomtest(int(stable.sum()), N, p).pvalue > ALPHA
    stable_b = _HalfNoise(eps, mech.threshold, delta).sample(dist, np.random.default_rng(17), N)
    assert stats.binomtest(int(stable_b.sum()), N, p).pvalue < REJECT


def test_at_dist_zero_release_probability_is_half_delta():
    """Smith-Thakurta's delta: an unstable input (dist 0) releases f(S) with probability delta/2 <= delta."""
    for eps, delta in [(1.0, 1e-3), (0.1, 1e-6), (3.0, 0.3)]:
        g = stability_threshold(eps, delta)
        assert laplace_tail(g, eps) == pytest.approx(delta / 2, rel=1e-12)


def test_declared_guarantee_holds_exactly_on_worst_neighbours():
    """The (eps, delta) inequality Pr_S[E] <= e^eps Pr_S'[E] + delta for all events, from the exact
    laws, for neighbours (dist d, d-1) with the same f and for an unstable pair (dist 0, f differs)."""
    eps, delta = 0.7, 1e-3
    m = DistanceToInstability.for_delta(eps, delta)
    G = m.threshold
    for d in np.linspace(1.0, 3 * G, 50):
        for a, b in [(d, d - 1), (d - 1, d)]:
            pa, pb = _release_probability(a, G, eps), _release_probability(b, G, eps)
            assert pa <= math.exp(eps) * pb + 1e-15 and (1 - pa) <= math.exp(eps) * (1 - pb) + 1e-15
    # f(S) = v != f(S') = w, both dist 0: S releases v, which S' never outputs
    assert _release_probability(0.0, G, eps) <= delta


def test_explicit_threshold_declares_exact_laplace_tail_delta():
    m = DistanceToInstability(1.0, 3.0)
    assert m.guarantee == ApproxDP(1.0, 0.5 * math.exp(-3.0))
    with pytest.raises(ValueError, match="delta"):
        DistanceToInstability(1.0, 3.0, 1e-6)   # threshold too low for the claimed delta


def test_a_stab_with_paper_inputs_returns_f_or_bottom():
    """NB20 Alg 6 inputs (S, f, dist_f, Gamma, eps): a very stable S gives f(S), a very unstable one bottom."""
    rng = np.random.default_rng(0)
    S = [1, 2, 3]
    value, g = a_stab(S, sum, lambda s: 1e6, 5.0, 1.0, rng)
    assert value == 6 and g == ApproxDP(1.0, 0.5 * math.exp(-5.0))
    assert a_stab(S, sum, lambda s: -1e6, 5.0, 1.0, rng).value is None


def test_release_many_releases_only_stable_values_and_declares_basic_composition():
    m = DistanceToInstability.for_delta(0.5, 1e-6)
    vals = np.array([10.0, 20.0, 30.0, 40.0])
    (stable, out), g = m.release_many(vals, np.array([1e6, -1e6, 1e6, -1e6]), np.random.default_rng(0))
    assert stable.tolist() == [True, False, True, False] and out.tolist() == [10.0, 0.0, 30.0, 0.0]
    assert g.eps == pytest.approx(2.0) and g.delta == pytest.approx(4e-6)


# --- sensitivity Delta (NB20 Algorithm 5's vote margin has Delta = 2, erratum nb20-alg5-margin) ------------------
def test_default_sensitivity_is_one_and_leaves_noise_and_threshold_unchanged():
    m = DistanceToInstability.for_delta(0.5, 1e-6)
    assert m.sensitivity == 1.0 and m.noise_scale == 2.0 and m.effective_threshold == m.threshold
    a = m.sample_noisy(3.0, np.random.default_rng(5), 100)
    b = DistanceToInstability(0.5, m.threshold, 1e-6, 1.0).sample_noisy(3.0, np.random.default_rng(5), 100)
    assert np.array_equal(a, b)


def test_sensitivity_two_doubles_the_noise_scale_ks():
    """KS test of the noisy distance against the exact law dist + Lap(Delta/eps) with Delta = 2, eps = 0.5
    (scale 4): passes above 1e-3; the same sample against the sensitivity-1 scale 2 (the broken variant that
    ignores Delta) is rejected below 1e-6, and so is a sample drawn at Delta = 1 against scale 4."""
    eps, dist = 0.5, 3.0
    m = DistanceToInstability.for_delta(eps, 1e-6, sensitivity=2)
    assert m.noise_scale == pytest.approx(4.0) and m.effective_threshold == pytest.approx(2 * math.log(1e6) / eps)
    x = m.sample_noisy(dist, np.random.default_rng(23), N)
    assert stats.kstest(x, stats.laplace(loc=dist, scale=4.0).cdf).pvalue > ALPHA
    assert stats.kstest(x, stats.laplace(loc=dist, scale=2.0).cdf).pvalue < REJECT
    y = DistanceToInstability.for_delta(eps, 1e-6).sample_noisy(dist, np.random.default_rng(23), N)
    assert stats.kstest(y, stats.laplace(loc=dist, scale=4.0).cdf).pvalue < REJECT


class _NoiseOnlyScaled(DistanceToInstability):
    """Broken on purpose: noise scaled by Delta, threshold not."""

    @property
    def effective_threshold(self):
        return self.threshold


class _ThresholdOnlyScaled(DistanceToInstability):
    """Broken on purpose: threshold scaled by Delta, noise not."""

    @property
    def noise_scale(self):
        return 1.0 / self.eps


@pytest.mark.parametrize("dist", [2.0, 4.0])
def test_sensitivity_two_release_frequency_matches_exact_law(dist):
    """Delta = 2, eps = 1, delta = 0.2: Pr[release] = Pr[dist + Lap(2/eps) > 2 Gamma] = Pr[dist/2 + Lap(1/eps) >
    Gamma]; exact binomial test over N runs. Catches: Delta ignored (Lap(1/eps) against Gamma), only the noise
    scaled, only the threshold scaled (each rejected below 1e-6)."""
    eps, delta = 1.0, 0.2
    m = DistanceToInstability.for_delta(eps, delta, sensitivity=2)
    p = _release_probability(dist / 2, m.threshold, eps)
    assert stats.binomtest(int(m.sample(dist, np.random.default_rng(29), N).sum()), N, p).pvalue > ALPHA
    for broken in (DistanceToInstability.for_delta(eps, delta), _NoiseOnlyScaled(eps, m.threshold, delta, 2.0),
                   _ThresholdOnlyScaled(eps, m.threshold, delta, 2.0)):
        count = int(broken.sample(dist, np.random.default_rng(29), N).sum())
        assert stats.binomtest(count, N, p).pvalue < REJECT


def test_sensitivity_two_keeps_the_declared_guarantee_on_neighbours_two_apart():
    """Exact laws: with Delta = 2, neighbours whose distances differ by 2 (a vote margin M and M - 2) satisfy the
    eps-DP inequality for release and bottom; with the printed Delta = 1 the same pair breaks it (the ratio
    reaches e^{2 eps}), which is the erratum."""
    eps, delta = 0.7, 1e-3
    G = stability_threshold(eps, delta)
    fixed = DistanceToInstability.for_delta(eps, delta, sensitivity=2)
    assert fixed.guarantee == ApproxDP(eps, delta)
    worst_printed = 0.0
    for d in np.linspace(2.0, 4 * G, 80):
        pa, pb = _release_probability(d / 2, G, eps), _release_probability((d - 2) / 2, G, eps)
        assert pa <= math.exp(eps) * pb + 1e-15 and (1 - pb) <= math.exp(eps) * (1 - pa) + 1e-15
        qa, qb = _release_probability(d, G, eps), _release_probability(d - 2, G, eps)
        worst_printed = max(worst_printed, qa / qb)
    assert worst_printed == pytest.approx(math.exp(2 * eps), rel=1e-12)  # attained wherever d <= Gamma


def test_a_stab_passes_sensitivity_through():
    """a_stab(..., sensitivity=2): same declared guarantee, and a distance 2 Gamma - 1e-9 with no noise to speak
    of (eps huge) is bottom while Gamma + 1 would be released at Delta = 1."""
    rng = np.random.default_rng(1)
    G = 5.0
    r2 = a_stab([1], sum, lambda s: 2 * G - 1e-3, G, 1e6, rng, sensitivity=2)
    assert r2.value is None and r2.guarantee == ApproxDP(1e6, laplace_tail(G, 1e6))
    assert a_stab([1], sum, lambda s: G + 1.0, G, 1e6, rng).value == 1
    assert a_stab([1], sum, lambda s: 2 * G + 1e-3, G, 1e6, rng, sensitivity=2).value == 1


@pytest.mark.parametrize("call, name", [
    (lambda r: DistanceToInstability(1.0, 3.0, sensitivity=0.0), "sensitivity"),
    (lambda r: DistanceToInstability.for_delta(1.0, 1e-6, sensitivity=float("inf")), "sensitivity"),
    (lambda r: stability_threshold(0.0, 1e-6), "eps"),
    (lambda r: stability_threshold(1.0, 0.0), "delta"),
    (lambda r: DistanceToInstability(1.0, float("nan")), "threshold"),
    (lambda r: DistanceToInstability.for_delta(1.0, 1e-6).release(1, float("nan"), r), "dist"),
    (lambda r: DistanceToInstability.for_delta(1.0, 1e-6).release(1, 3.0, None), "rng"),
    (lambda r: DistanceToInstability.for_delta(1.0, 1e-6).release_many(np.zeros(3), np.zeros(2), r), "f_values"),
])
def test_stability_bad_input_raises_value_error_naming_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call(np.random.default_rng(0))
