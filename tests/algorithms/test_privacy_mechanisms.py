"""Mechanisms: output laws against their definitions, declared guarantees, bad input.

Goodness of fit at fixed seeds: a correct mechanism must give a p-value above ALPHA = 1e-3;
each test is also run on a deliberately broken variant (noise scale halved, or the factor 2
of the exponential mechanism dropped) and must reject it with p-value below 1e-6. The
reference laws are written from the definitions in this file, not taken from the code tested.
"""

import dataclasses
import itertools
import math

import numpy as np
import pytest
from scipy import stats

from algorithms.privacy.accounting import ApproxDP, PureDP, Release, ZCDP, gaussian_delta
from algorithms.privacy.mechanisms import (
    ExponentialMechanism,
    GaussianMechanism,
    LaplaceMechanism,
    PermuteAndFlip,
    exponential_mechanism,
    exponential_probabilities,
    gaussian_mechanism,
    laplace_mechanism,
    permute_and_flip,
    permute_and_flip_probabilities,
)

ALPHA = 1e-3      # level at which a correct mechanism must pass
REJECT = 1e-6     # a broken mechanism must be rejected this strongly
N_CONT = 20_000   # draws for KS tests
N_DISC = 100_000  # draws for chi-square tests


# ----------------------------------------------------------------- Laplace

@dataclasses.dataclass(frozen=True)
class _HalfScaleLaplace(LaplaceMechanism):
    """Broken on purpose: declares eps but adds Lap(Delta / (2 eps))."""

    @property
    def scale(self):
        return super().scale / 2


def _laplace_ks_pvalue(mech, seed):
    """KS of the noise against Lap(Delta_1 / eps) computed from the declared eps and sensitivity."""
    values = np.array([0.3, -2.0, 5.0])
    draws = mech.sample(values, np.random.default_rng(seed), N_CONT // 3)
    noise = (draws - values).ravel()
    b = mech.sensitivity / mech.guarantee.eps
    return stats.kstest(noise, stats.laplace(scale=b).cdf).pvalue


@pytest.mark.parametrize("sensitivity, eps", [(1.0, 1.0), (0.01, 0.3), (2.0, 5.0)])
def test_laplace_noise_is_laplace_with_scale_sensitivity_over_eps(sensitivity, eps):
    """Catches: a wrong scale (e.g. halved: checked below), Gaussian in place of Laplace."""
    mech = LaplaceMechanism(sensitivity, eps)
    assert mech.guarantee == PureDP(eps)
    assert _laplace_ks_pvalue(mech, seed=11) > ALPHA
    assert _laplace_ks_pvalue(_HalfScaleLaplace(sensitivity, eps), seed=11) < REJECT


def test_laplace_release_is_one_run_returning_release_and_scalar_for_scalar():
    rng = np.random.default_rng(0)
    value, guarantee = laplace_mechanism(1.5, sensitivity=1.0, eps=0.5, rng=rng)
    assert isinstance(value, float) and guarantee == PureDP(0.5)
    r = LaplaceMechanism(1.0, 0.5).release(np.zeros((2, 3)), rng)
    assert isinstance(r, Release) and r.value.shape == (2, 3)


def test_laplace_same_seed_same_output_and_no_global_state():
    a = laplace_mechanism([1.0, 2.0], sensitivity=1, eps=1, rng=np.random.default_rng(5)).value
    np.random.seed(0)
    b = laplace_mechanism([1.0, 2.0], sensitivity=1, eps=1, rng=np.random.default_rng(5)).value
    assert np.array_equal(a, b)


# ----------------------------------------------------------------- Gaussian

def _declared_sigma(mech, how):
    """sigma from the declaration, by the calibration formula written here."""
    g, d = mech.guarantee, mech.sensitivity
    if how == "zcdp":
        return d / math.sqrt(2 * g.rho)
    if how == "classic":
        return d * math.sqrt(2 * math.log(1.25 / g.delta)) / g.eps
    raise AssertionError(how)


@dataclasses.dataclass(frozen=True)
class _HalfSigmaGaussian(GaussianMechanism):
    """Broken on purpose: declares the calibrated guarantee but adds N(0, (sigma/2)^2)."""

    @property
    def noise_sigma(self):
        return self.sigma / 2


def _gaussian_ks_pvalue(mech, sigma_ref, seed):
    values = np.array([0.0, 1.0, -4.0, 0.5])
    noise = (mech.sample(values, np.random.default_rng(seed), N_CONT // 4) - values).ravel()
    return stats.kstest(noise, stats.norm(scale=sigma_ref).cdf).pvalue


@pytest.mark.parametrize("how, mech", [
    ("zcdp", GaussianMechanism.zcdp(1.0, 0.5)),
    ("zcdp", GaussianMechanism.zcdp(0.001, 0.02)),
    ("classic", GaussianMechanism.classic(1.0, 0.5, 1e-5)),
    ("classic", GaussianMechanism.classic(0.1, 0.9, 1e-3)),
])
def test_gaussian_noise_is_normal_with_declared_calibration(how, mech):
    """Catches: sigma off by any factor (halved: checked), sigma^2 used as sigma, Laplace noise."""
    sigma_ref = _declared_sigma(mech, how)
    assert mech.sigma == pytest.approx(sigma_ref, rel=1e-12)
    assert _gaussian_ks_pvalue(mech, sigma_ref, seed=3) > ALPHA
    broken = _HalfSigmaGaussian(mech.sensitivity, mech.sigma, mech.guarantee)  # same declaration, half the noise
    assert _gaussian_ks_pvalue(broken, sigma_ref, seed=3) < REJECT


def test_gaussian_calibrations_declare_their_guarantees_and_hand_sigmas():
    """Classic eps = 0.5, delta = 1e-5: sqrt(2 ln 125000)/0.5 = 9.689611; zCDP rho = 0.5: sigma = 1."""
    c = GaussianMechanism.classic(1.0, 0.5, 1e-5)
    assert c.guarantee == ApproxDP(0.5, 1e-5) and c.sigma == pytest.approx(9.689611, rel=1e-6)
    z = GaussianMechanism.zcdp(1.0, 0.5)
    assert z.guarantee == ZCDP(0.5) and z.sigma == pytest.approx(1.0)
    a = GaussianMechanism.analytic(1.0, 1.0, 1e-5)
    assert a.guarantee == ApproxDP(1.0, 1e-5)
    assert GaussianMechanism(2.0, 4.0).guarantee == ZCDP(0.125)


@pytest.mark.parametrize("eps, delta", [(0.1, 1e-5), (0.5, 1e-6), (0.99, 1e-3)])
def test_classic_and_analytic_gaussian_meet_their_delta_on_the_exact_curve(eps, delta):
    """Dwork-Roth Thm A.1 holds (exact delta at eps <= delta) and Balle-Wang is tight (= delta)
    with a smaller sigma."""
    c = GaussianMechanism.classic(1.0, eps, delta)
    a = GaussianMechanism.analytic(1.0, eps, delta)
    assert c.delta(eps) <= delta
    assert a.delta(eps) == pytest.approx(delta, rel=1e-6)
    assert a.sigma < c.sigma
    assert a.epsilon(delta) == pytest.approx(eps, rel=1e-8)


def test_gaussian_exact_curve_method_matches_module_function():
    m = GaussianMechanism.zcdp(0.5, 0.1)
    assert m.rho == pytest.approx(0.1)
    assert m.delta(1.0) == pytest.approx(gaussian_delta(1.0, rho=0.1), rel=1e-12)


def test_gaussian_mechanism_function_routes():
    rng = np.random.default_rng(1)
    assert gaussian_mechanism([0.0], sensitivity=1, rho=0.1, rng=rng).guarantee == ZCDP(0.1)
    assert gaussian_mechanism([0.0], sensitivity=1, eps=2.0, delta=1e-6, rng=rng).guarantee == ApproxDP(2.0, 1e-6)
    with pytest.raises(ValueError, match="calibration"):
        gaussian_mechanism([0.0], sensitivity=1, eps=0.5, delta=1e-6, rng=rng, calibration="x")
    with pytest.raises(ValueError, match="rho"):
        gaussian_mechanism([0.0], sensitivity=1, rho=0.1, eps=0.5, delta=1e-6, rng=rng)


# ----------------------------------------------------------------- exponential mechanism

SCORES = np.array([0.0, 1.0, 2.5, 0.3, -1.0])


def _em_definition(scores, eps, sensitivity, monotone=False):
    """Dwork-Roth Def 3.4 written out: exp(eps u / (2 Delta)) normalised (eps u / Delta if monotone)."""
    w = np.exp((eps / sensitivity if monotone else eps / (2 * sensitivity)) * scores)
    return w / w.sum()


def _chisq_pvalue(draws, probs):
    counts = np.bincount(draws, minlength=probs.size)
    return stats.chisquare(counts, probs * counts.sum()).pvalue


@dataclasses.dataclass(frozen=True)
class _NoFactorTwoEM(ExponentialMechanism):
    """Broken on purpose: samples exp(eps u / Delta) while declaring the non-monotone eps-DP mechanism."""

    def _draw(self, scores, rng, n):
        w = self.eps * np.asarray(scores) / self.sensitivity
        return np.argmax(w + rng.gumbel(size=(n, w.size)), axis=1)


@pytest.mark.parametrize("eps, sensitivity, monotone", [(1.0, 1.0, False), (0.5, 0.25, False), (1.0, 1.0, True)])
def test_exponential_mechanism_selection_law_matches_definition(eps, sensitivity, monotone):
    """Chi-square of Gumbel-trick draws against Def 3.4. Catches: the missing factor 2 (checked),
    argmax without Gumbel noise, Gumbel noise of the wrong scale."""
    mech = ExponentialMechanism(eps, sensitivity, monotone)
    ref = _em_definition(SCORES, eps, sensitivity, monotone)
    assert mech.probabilities(SCORES) == pytest.approx(ref, rel=1e-12)
    assert _chisq_pvalue(mech.sample(SCORES, np.random.default_rng(21), N_DISC), ref) > ALPHA
    if not monotone:
        broken = _NoFactorTwoEM(eps, sensitivity)
        assert _chisq_pvalue(broken.sample(SCORES, np.random.default_rng(21), N_DISC), ref) < REJECT


def test_exponential_probabilities_stable_for_huge_scores():
    p = exponential_probabilities(np.array([1e4, 1e4 - 2.0]), eps=1.0, sensitivity=1.0)
    assert p == pytest.approx([1 / (1 + math.e**-1), math.e**-1 / (1 + math.e**-1)])


def test_exponential_release_returns_index_and_pure_guarantee():
    idx, g = exponential_mechanism(SCORES, eps=0.7, sensitivity=1.0, rng=np.random.default_rng(2))
    assert isinstance(idx, int) and 0 <= idx < SCORES.size and g == PureDP(0.7)


# ----------------------------------------------------------------- permute-and-flip

def _pf_by_enumeration(scores, eps, sensitivity):
    """McKenna-Sheldon Alg 1 by brute force over all k! orders: Pr[r] = mean over orders of
    p_r prod_{s before r} (1 - p_s)."""
    p = np.exp(eps * (scores - scores.max()) / (2 * sensitivity))
    k = scores.size
    out = np.zeros(k)
    for order in itertools.permutations(range(k)):
        survive = 1.0
        for r in order:
            out[r] += survive * p[r]
            survive *= 1 - p[r]
    return out / math.factorial(k)


@pytest.mark.parametrize("scores", [SCORES, np.array([1.0, 1.0, 1.0]), np.array([0.0, 3.0, 3.0, -2.0, 1.0, 0.5])])
@pytest.mark.parametrize("eps", [0.2, 1.0, 4.0])
def test_permute_and_flip_exact_probabilities_equal_enumeration_over_all_orders(scores, eps):
    exact = permute_and_flip_probabilities(scores, eps=eps, sensitivity=1.0)
    assert exact == pytest.approx(_pf_by_enumeration(scores, eps, 1.0), rel=1e-10, abs=1e-14)
    assert exact.sum() == pytest.approx(1.0, rel=1e-12)


def test_permute_and_flip_two_candidates_hand_value():
    """Scores (0, -2), eps = 1, Delta = 1: p = (1, e^-1); the loser wins iff it comes first and
    flips heads: e^-1 / 2 = 0.1839397."""
    p = permute_and_flip_probabilities(np.array([0.0, -2.0]), eps=1.0, sensitivity=1.0)
    assert p[1] == pytest.approx(0.1839397, rel=1e-6)


@dataclasses.dataclass(frozen=True)
class _DoubleEpsPF(PermuteAndFlip):
    """Broken on purpose: flips coins with exp(eps (u - u*) / Delta) while declaring eps."""

    def _draw(self, scores, rng, n):
        return PermuteAndFlip(2 * self.eps, self.sensitivity)._draw(scores, rng, n)


@pytest.mark.parametrize("eps, sensitivity", [(1.0, 1.0), (0.3, 0.1)])
def test_permute_and_flip_selection_law_matches_exact_probabilities(eps, sensitivity):
    """Chi-square of draws of the algorithm as written against the exact law. Catches: the
    factor 2 dropped (checked), a non-uniform order, coins compared the wrong way."""
    mech = PermuteAndFlip(eps, sensitivity)
    ref = _pf_by_enumeration(SCORES, eps, sensitivity)
    assert mech.guarantee == PureDP(eps)
    assert _chisq_pvalue(mech.sample(SCORES, np.random.default_rng(8), N_DISC), ref) > ALPHA
    broken = _DoubleEpsPF(eps, sensitivity)
    assert _chisq_pvalue(broken.sample(SCORES, np.random.default_rng(8), N_DISC), ref) < REJECT


def test_permute_and_flip_expected_score_never_below_exponential_mechanism():
    """McKenna-Sheldon (2020) Theorem 2, on 200 random score vectors, exactly."""
    rng = np.random.default_rng(4)
    for _ in range(200):
        k = int(rng.integers(2, 12))
        s = rng.normal(0, 3, size=k)
        eps = float(rng.uniform(0.05, 5))
        pf = permute_and_flip_probabilities(s, eps=eps, sensitivity=1.0) @ s
        em = exponential_probabilities(s, eps=eps, sensitivity=1.0) @ s
        assert pf >= em - 1e-9


def test_permute_and_flip_release():
    idx, g = permute_and_flip(SCORES, eps=1.0, sensitivity=1.0, rng=np.random.default_rng(0))
    assert isinstance(idx, int) and g == PureDP(1.0)


# ----------------------------------------------------------------- bad input

@pytest.mark.parametrize("make, name", [
    (lambda: LaplaceMechanism(0.0, 1.0), "sensitivity"),
    (lambda: LaplaceMechanism(1.0, -1.0), "eps"),
    (lambda: GaussianMechanism.classic(1.0, 1.0, 1e-5), "eps"),
    (lambda: GaussianMechanism.classic(1.0, 0.5, 0.0), "delta"),
    (lambda: GaussianMechanism.zcdp(1.0, 0.0), "rho"),
    (lambda: GaussianMechanism.analytic(1.0, 1.0, 1.0), "delta"),
    (lambda: GaussianMechanism(1.0, 0.0), "sigma"),
    (lambda: GaussianMechanism(1.0, 1.0, ZCDP(0.4)), "guarantee"),          # exact rho is 0.5
    (lambda: GaussianMechanism(1.0, 1.0, ApproxDP(1.0, 1e-6)), "guarantee"),  # exact delta(1) ~ 0.127
    (lambda: GaussianMechanism(1.0, 1.0, PureDP(1.0)), "guarantee"),
    (lambda: ExponentialMechanism(0.0, 1.0), "eps"),
    (lambda: ExponentialMechanism(1.0, 1.0, monotone="yes"), "monotone"),
    (lambda: PermuteAndFlip(1.0, float("inf")), "sensitivity"),
])
def test_bad_parameters_raise_value_error_naming_argument(make, name):
    with pytest.raises(ValueError, match=name):
        make()


@pytest.mark.parametrize("call, name", [
    (lambda rng: LaplaceMechanism(1, 1).release([1.0, float("nan")], rng), "values"),
    (lambda rng: LaplaceMechanism(1, 1).release([1.0], 42), "rng"),
    (lambda rng: LaplaceMechanism(1, 1).release([1.0], np.random.RandomState(0)), "rng"),
    (lambda rng: LaplaceMechanism(1, 1).sample([1.0], rng, 0), "size"),
    (lambda rng: GaussianMechanism.zcdp(1, 1).release(["a"], rng), "values"),
    (lambda rng: ExponentialMechanism(1, 1).release([], rng), "scores"),
    (lambda rng: ExponentialMechanism(1, 1).release([[1.0, 2.0]], rng), "scores"),
    (lambda rng: PermuteAndFlip(1, 1).release([0.0, float("inf")], rng), "scores"),
    (lambda rng: permute_and_flip_probabilities([1.0], eps=0.0, sensitivity=1.0), "eps"),
])
def test_bad_inputs_raise_value_error_naming_argument(call, name):
    with pytest.raises(ValueError, match=name):
        call(np.random.default_rng(0))
