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


@pytest.mark.parametrize("call, name", [
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
