"""ABM19 Algorithms 2-4 (the reduction B): PrivSamp's sample is a subsequence of S~ using each element
at most once (Claim 4.5), the dummy labels are uniform and independent of x, the run-out frequency
matches the exact binomial tail (the erratum's numbers), B on a toy learner with a known law fails
exactly as often as Claim 4.6's mixture argument predicts, and B's formulas equal those in ``bounds``."""

import math

import numpy as np
import pytest
from scipy import stats

from algorithms.adversaries.public_reduction import (
    dummy_examples,
    exact_runout_probability,
    input_size,
    mixture_weight,
    priv_samp,
    pub_samp,
    reduction_b,
)
from algorithms.classes import FiniteClass, random_class, thresholds
from algorithms.learning.erm import erm, population_errors
from algorithms.learning.sspp import ASSPP
from algorithms.privacy.accounting import PureDP, Release
from simulations.stats import clopper_pearson


@pytest.mark.parametrize("seed", range(10))
def test_private_sample_is_a_subsequence_using_each_point_at_most_once(seed):
    """Catches reuse of a private point (Claim 4.5) and out-of-order use; every position is either
    the next element of S~ or a dummy, and the length is n_priv unless S~ ran out."""
    rng = np.random.default_rng(seed)
    n_tilde = int(rng.integers(1, 8))
    x = rng.integers(0, 20, size=n_tilde)
    y = rng.integers(0, 2, size=n_tilde)
    ps = priv_samp(x, y, p=float(rng.uniform(0.05, 0.6)), n_priv=int(rng.integers(1, 40)), num_points=20, rng=rng)
    real = ps.source[ps.source >= 0]
    assert np.array_equal(real, np.arange(real.size))  # z~_1, z~_2, ... in order, each once
    assert np.array_equal(ps.points[ps.source >= 0], x[real])
    assert np.array_equal(ps.labels[ps.source >= 0], y[real])
    assert ps.points.size == ps.labels.size == ps.source.size
    if ps.ran_out:
        assert ps.points.size < ps.n_priv and real.size == n_tilde and ps.source[-1] == n_tilde - 1
    else:
        assert ps.points.size == ps.n_priv


def test_dummy_labels_uniform_and_independent_of_x():
    """40000 D_0 examples (PrivSamp's dummies and PubSamp's): label mean 1/2 (two-sided binomial test)
    and a 2 x N contingency table consistent with independence (chi-square), both at p > 1e-3. The
    same tests reject labels y = 1(x < N/2) (dependence) and y = 1 w.p. 0.53 (non-uniform) below 1e-6."""
    rng = np.random.default_rng(1)
    N = 10
    ps = priv_samp([3], [1], p=1e-9, n_priv=20000, num_points=N, rng=rng)
    px, py = ps.points[ps.source < 0], ps.labels[ps.source < 0]
    qx, qy = pub_samp(20000, N, rng)
    x, y = np.concatenate([px, qx]), np.concatenate([py, qy])

    def pvalues(x, y):
        table = np.array([np.bincount(x[y == v], minlength=N) for v in (0, 1)])
        return stats.binomtest(int(y.sum()), y.size, 0.5).pvalue, stats.chi2_contingency(table)[1]

    assert min(pvalues(x, y)) > 1e-3
    assert pvalues(x, (x < N // 2).astype(int))[1] < 1e-6
    assert pvalues(x, (rng.random(x.size) < 0.53).astype(int))[0] < 1e-6


def test_dummy_marginal_is_used():
    rng = np.random.default_rng(2)
    x, _ = dummy_examples(500, 4, rng, dummy_marginal=[0, 0, 1, 0])
    assert np.all(x == 2)


@pytest.mark.parametrize("n_priv, n_pub, floor, runs", [(10, 1, 1, 20000), (20, 1, 1, 4000), (10, 1, 4, 2000),
                                                        (200, 2, 4, 2000)])
def test_runout_frequency_matches_the_exact_binomial_tail(n_priv, n_pub, floor, runs):
    """P[ran out] = P[Bin(n_priv - 1, p) >= n~]: the erratum's 0.0865 (n_priv = 10, n_pub = 1, printed
    n~ = 1) and 0.0153 (n_priv = 20); up to 20000 runs, two-sided 99.9% Clopper-Pearson interval. Catches an
    exit test off by one position (then the tail is Bin(n_priv, p): 0.0956 instead of 0.0865)."""
    rng = np.random.default_rng(n_priv + floor)
    n_tilde = input_size(n_priv, n_pub, floor)
    ran = sum(priv_samp(np.zeros(n_tilde, int), np.zeros(n_tilde, int), mixture_weight(n_pub), n_priv, 5,
                        rng).ran_out for _ in range(runs))
    exact = exact_runout_probability(n_priv, n_pub, n_tilde)
    lo, hi = clopper_pearson(ran, runs, 0.999)
    assert lo <= exact <= hi
    if (n_priv, floor) == (10, 1):
        assert exact == pytest.approx(0.0865, abs=5e-5)
        off_by_one = stats.binom.sf(n_tilde - 1, n_priv, mixture_weight(n_pub))
        assert not lo <= off_by_one <= hi


def _toy_failure_probability(n_priv: int, p: float) -> float:
    """Exact law of B's failure with the two-hypothesis ERM learner {h*, not h*} (ties to h*): with K ~
    Bin(n_priv, p) real examples and V ~ Bin(n_priv - K, 1/2) dummies that h* mislabels, not-h* wins
    iff its count K + (n_priv - K - V) is below V, i.e. 2V > n_priv."""
    k = np.arange(n_priv + 1)
    return float(np.sum(stats.binom.pmf(k, n_priv, p) * stats.binom.sf(n_priv // 2, n_priv - k, 0.5)))


@pytest.mark.parametrize("n_pub", [1, 4])
def test_toy_learner_fails_as_the_mixture_argument_predicts(n_pub):
    """B (S~ as long as n_priv, so it never runs out) on ERM over {h*, not h*}: err(B) is 0 or 1 and
    P[err = 1] equals the exact law at p = 1/(100 n_pub) (0.16 at n_pub = 1, 0.40 at n_pub = 4, for
    n_priv = 10000); 800 runs, 99.9% Clopper-Pearson. Catches p = 1/n_pub (then P ~ 0), dummy
    labels copied from h* or real examples dropped (then P ~ 0 or 1/2)."""
    N, n_priv, runs = 8, 10000, 800
    target = thresholds(N).matrix[3]
    cls = FiniteClass(np.stack([target, ~target]))

    def learner(px, py, qx, qy, rng):
        return Release(erm(cls, px, py).hypothesis, PureDP(1.0))

    rng = np.random.default_rng(10 + n_pub)
    fails = 0
    for _ in range(runs):
        x = rng.integers(0, N, size=n_priv)
        out = reduction_b(learner, x, target[x].astype(int), n_priv=n_priv, n_pub=n_pub, num_points=N, rng=rng)
        assert not out.value.ran_out and out.guarantee == PureDP(1.0)
        fails += out.value.hypothesis == 1
    exact = _toy_failure_probability(n_priv, mixture_weight(n_pub))
    lo, hi = clopper_pearson(fails, runs, 0.999)
    assert lo <= exact <= hi
    assert not lo <= _toy_failure_probability(n_priv, 1.0 / n_pub) <= hi


def test_mixture_identity_of_claim_4_6():
    """err(h; D_(p)) = p err(h; D) + (1 - p)/2 for every h and realizable D (exact arithmetic on the
    joint tables): the identity that turns excess error alpha on D_(p) into error alpha/p on D."""
    rng = np.random.default_rng(4)
    cls = random_class(40, 12, rng)
    marginal = rng.random(12)
    marginal /= marginal.sum()
    target = cls.matrix[7]
    D = np.stack([marginal * ~target, marginal * target], axis=1)
    q = rng.random(12)
    q /= q.sum()
    D0 = np.stack([q / 2, q / 2], axis=1)
    p = mixture_weight(3)
    mix = p * D + (1 - p) * D0
    np.testing.assert_allclose(population_errors(cls, mix), p * population_errors(cls, D) + (1 - p) / 2,
                               atol=1e-12)


def test_b_on_a_sspp_returns_a_hypothesis_of_the_class_and_its_guarantee():
    cls = thresholds(16)
    rng = np.random.default_rng(5)
    x = rng.integers(0, 16, size=input_size(400, 2))
    out = reduction_b(ASSPP(cls, 0.5), x, cls.matrix[6, x], n_priv=400, n_pub=2, num_points=16, rng=rng)
    assert out.guarantee == PureDP(0.5) and out.value.guarantee == PureDP(0.5)
    assert 0 <= out.value.hypothesis < cls.num_hypotheses
    assert out.value.public_points.size == 2 and out.value.p == 1 / 200


def test_formulas_equal_those_in_bounds():
    """p and n~ are written in both packages (algorithms does not import bounds): held equal here."""
    import bounds

    for n_priv, n_pub in [(10, 1), (20, 1), (1000, 3), (10**6, 7), (5, 50)]:
        c = bounds.compute("abm19:lemma4.4", alpha=0.01, private_samples=n_priv, public_samples=n_pub)
        assert c["mixture_weight"] == pytest.approx(mixture_weight(n_pub), rel=1e-15)
        assert int(c["private_samples_B"]) == input_size(n_priv, n_pub)
    assert input_size(10, 1, floor=1) == 1 and input_size(10, 1) == 4 and math.ceil(1000 / 30) == input_size(1000, 3)


@pytest.mark.parametrize("call, match", [
    (lambda: mixture_weight(0), "n_pub"),
    (lambda: input_size(0, 1), "n_priv"),
    (lambda: priv_samp([0], [1], 0.0, 5, 3, np.random.default_rng(0)), "p="),
    (lambda: priv_samp([7], [1], 0.5, 5, 3, np.random.default_rng(0)), "points"),
    (lambda: reduction_b(None, [0], [1], n_priv=5, n_pub=1, num_points=3, rng=np.random.default_rng(0)), "learner"),
    (lambda: reduction_b(lambda *a: 3, [0], [1], n_priv=5, n_pub=1, num_points=3, rng=np.random.default_rng(0)),
     "Release"),
    (lambda: reduction_b(ASSPP(thresholds(3), 1.0), [], [], n_priv=5, n_pub=1, num_points=3,
                         rng=np.random.default_rng(0)), "points"),
    (lambda: dummy_examples(3, 3, np.random.default_rng(0), dummy_marginal=[1, 0]), "dummy_marginal"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
