"""The opponents' catalogue (algorithms.opponents): each accurate at its own sample-size bound from ``bounds``
(Clopper-Pearson tolerance, fixed seeds), each statistical test checked once against a broken twin."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import bounds
from algorithms import opponents as op
from algorithms.privacy import ApproxDP, PureDP, gaussian_delta
from bounds.intervals import clopper_pearson

ALPHA, BETA, EPS, DELTA = 0.3, 0.1, 0.9, 1e-6
TRIALS = 200
CONF = 0.999


def _not_rejected(successes: int, trials: int, target: float) -> bool:
    """The claim 'success probability >= target' survives: its one-sided Clopper-Pearson upper bound reaches it."""
    return clopper_pearson(successes, trials, CONF, "upper")[1] >= target


def _rejected(successes: int, trials: int, target: float) -> bool:
    return clopper_pearson(successes, trials, CONF, "upper")[1] < target


def _product_law_answers(k: int, seed: int = 1) -> np.ndarray:
    """E_D h for k coordinate stumps under a product law (E x_i drawn once)."""
    return np.random.default_rng(seed).uniform(-0.8, 0.8, size=k)


def _private_answers(truth: np.ndarray, n: int, rng) -> np.ndarray:
    """The empirical answers of n i.i.d. points of the product law (stump i reads coordinate i): 2 Bin(n, q_i)/n - 1."""
    return 2.0 * rng.binomial(n, (1 + truth) / 2) / n - 1.0


def _success(release_fn, truth, n, seed) -> int:
    ok = 0
    for i in range(TRIALS):
        rng = np.random.default_rng([seed, i])
        a = _private_answers(truth, n, rng)
        ok += float(np.max(np.abs(release_fn(a, n, rng) - truth))) <= ALPHA
    return ok


def test_gaussian_release_accurate_at_its_bound_and_broken_twin_caught():
    """The Gaussian release meets Err <= alpha w.p. >= 1 - beta at baselines:gaussian's n (k = 2000 stumps).
    Catches: sigma 4x the calibration (a wrong sensitivity or delta) fails the same claim."""
    k = 2000
    n = int(bounds.compute("baselines:gaussian", alpha=ALPHA, beta=BETA, epsilon=EPS, delta=DELTA,
                           num_hypotheses=k)["private_samples"])
    truth = _product_law_answers(k)
    good = _success(lambda a, n, rng: op.gaussian_answers(a, n, rng, eps=EPS, delta=DELTA).value, truth, n, 7)
    assert _not_rejected(good, TRIALS, 1 - BETA)
    broken = _success(lambda a, n, rng: op.gaussian_answers(a, n, rng, eps=EPS / 4, delta=DELTA ** 4).value,
                      truth, n, 7)
    assert _rejected(broken, TRIALS, 1 - BETA)


def test_gaussian_release_declares_the_exact_curve_that_bounds_solves():
    """bounds' noise size is the least n whose analytic sigma meets alpha/2 on all k answers: at that n the
    mechanism's exact delta (algorithms' Balle-Wang curve) is <= delta, one below it is > delta."""
    k = 2000
    out = bounds.compute("baselines:gaussian", alpha=ALPHA, beta=BETA, epsilon=EPS, delta=DELTA, num_hypotheses=k)
    n = int(out["private_samples_noise"])
    sigma_max = ALPHA / (2 * math.sqrt(2 * math.log(2 * k / BETA)))
    for size, ok in ((n, True), (n - 1, False)):
        d = gaussian_delta(EPS, sensitivity=2 * math.sqrt(k) / size, sigma=sigma_max)
        assert (d <= DELTA) is ok
    rel = op.gaussian_answers(np.zeros(k), n, np.random.default_rng(0), eps=EPS, delta=DELTA)
    assert rel.guarantee == ApproxDP(EPS, DELTA)
    assert op.gaussian_answers(np.zeros(3), 10, np.random.default_rng(0), rho=0.5).guarantee.rho == 0.5


def test_laplace_release_accurate_at_its_bound_and_broken_twin_caught():
    """Laplace on every answer meets Err <= alpha w.p. >= 1 - beta at baselines:laplace's n (k = 200).
    Catches: the scale computed with 4x the sensitivity (eps/4) fails."""
    k = 200
    n = int(bounds.compute("baselines:laplace", alpha=ALPHA, beta=BETA, epsilon=EPS,
                           num_hypotheses=k)["private_samples"])
    truth = _product_law_answers(k)
    good = _success(lambda a, n, rng: op.laplace_answers(a, n, EPS, rng).value, truth, n, 8)
    assert _not_rejected(good, TRIALS, 1 - BETA)
    broken = _success(lambda a, n, rng: op.laplace_answers(a, n, EPS / 4, rng).value, truth, n, 8)
    assert _rejected(broken, TRIALS, 1 - BETA)
    assert op.laplace_answers(np.zeros(3), 10, EPS, np.random.default_rng(0)).guarantee == PureDP(EPS)


def _tree_success(levels: int, probs: np.ndarray, n: int, eps: float, delta: float, kind: str, seed: int) -> int:
    N = probs.size
    cdf = np.concatenate([[0.0], np.cumsum(probs)])
    ok = 0
    mech = op.TreeMechanism(levels, eps, delta)
    for i in range(TRIALS):
        rng = np.random.default_rng([seed, i])
        data = op.GridData.from_histogram(rng.multinomial(n, probs))
        if kind == "thresholds":
            got = mech.thresholds(data, np.arange(N + 1), rng).value
            truth = 2 * cdf - 1
        else:
            a, b = np.triu_indices(N)
            got = mech.intervals(data, a, b, rng).value
            truth = 2 * (cdf[b + 1] - cdf[a]) - 1
        ok += float(np.max(np.abs(got - truth))) <= ALPHA
    return ok


@pytest.mark.parametrize("kind,N,factor", [("thresholds", 1024, 4), ("intervals", 64, 8)])
def test_tree_release_accurate_at_its_bound_and_broken_twin_caught(kind, N, factor):
    """The binary tree answers every threshold (every interval) of a grid within alpha w.p. >= 1 - beta at
    baselines:tree_<kind>'s n. Catches: node noise calibrated at eps/4 for thresholds, eps/8 for intervals (whose
    bound has more slack: measured 126/200 and 12/200 accurate) fails the same claim."""
    n = int(bounds.compute(f"baselines:tree_{kind}", alpha=ALPHA, beta=BETA, epsilon=EPS, delta=DELTA,
                           domain_size=N)["private_samples"])
    probs = np.random.default_rng(3).dirichlet(np.full(N, 0.3))
    levels = int(math.ceil(math.log2(N)))
    assert _not_rejected(_tree_success(levels, probs, n, EPS, DELTA, kind, 9), TRIALS, 1 - BETA)
    assert _rejected(_tree_success(levels, probs, n, EPS / factor, DELTA, kind, 9), TRIALS, 1 - BETA)


def test_tree_counts_exact_nodes_on_a_2_to_64_grid():
    """On 2^64 points (never materialised) the tree's prefix counts are the exact counts plus the sum of one
    noisy node per set bit: with sigma taken out (the noise draws recorded), the counts are exact."""
    rng = np.random.default_rng(5)
    pts = rng.integers(0, 2**64 - 1, size=5000, dtype=np.uint64, endpoint=True)
    data = op.GridData.from_points(64, pts)
    ends = [0, 1, 2**32, 2**63 + 12345, 2**64 - 1, 2**64]
    exact = np.array([np.count_nonzero(pts < np.uint64(e)) if e < 2**64 else pts.size for e in ends], float)
    mech = op.TreeMechanism(64, 1.0, 1e-6)
    draws = np.stack([mech.noisy_prefix_counts(data, ends, np.random.default_rng([5, j])) for j in range(400)])
    bits = np.array([bin(e).count("1") if e < 2**64 else 0 for e in ends])
    sd = mech.node_sigma * np.sqrt(bits)
    z = stats.norm.ppf(1 - 1e-4 / (2 * len(ends)))
    mean_err = np.abs(draws.mean(axis=0) - exact)
    assert np.all(mean_err <= z * sd / math.sqrt(400) + 1e-9)  # unbiased, exact at t = 0 and t = 2^64
    assert draws[:, 0].tolist() == [0.0] * 400 and draws[:, -1].tolist() == [5000.0] * 400
    assert np.allclose(draws.std(axis=0)[1:5], sd[1:5], rtol=0.2)
    with pytest.raises(ValueError):
        mech.noisy_prefix_counts(data, [2**64 + 1], rng)


def test_shrunk_public_release_has_the_minimax_risk_and_never_exceeds_the_constants_worst_case():
    """Hodges-Lehmann: E(lambda a_w - a)^2 = 1/(1 + sqrt m)^2 for every true answer a (exact, binomial sums), below
    the empirical answers' worst risk 1/m and the constant 0's worst risk 1. Catches: a factor m/(m + 1) in place
    of sqrt(m)/(sqrt(m) + 1) (its risk is not constant in a)."""
    for m in (1, 4, 25, 100):
        x = np.arange(m + 1)
        lam = op.shrink_factor(m)
        for a in np.linspace(-1, 1, 41):
            pmf = stats.binom.pmf(x, m, (1 + a) / 2)
            risk = float(np.sum(pmf * (lam * (2 * x / m - 1) - a) ** 2))
            assert risk == pytest.approx(1 / (1 + math.sqrt(m)) ** 2, rel=1e-9, abs=1e-12)
        if m == 1:  # m/(m + 1) = sqrt(m)/(sqrt(m) + 1) there
            continue
        wrong = m / (m + 1)
        risks = [np.sum(stats.binom.pmf(x, m, (1 + a) / 2) * (wrong * (2 * x / m - 1) - a) ** 2) for a in (0, 1)]
        assert abs(risks[0] - risks[1]) > 1e-3
    rel = op.public_shrunk(np.array([1.0, -0.5]), 4)
    assert rel.guarantee == PureDP(0.0) and np.allclose(rel.value, [2 / 3, -1 / 3])


def test_nonprivate_releases_are_the_exact_and_pooled_answers():
    """exact_pooled weighs the two samples by their sizes; neither declares privacy."""
    a, b = np.array([1.0, 0.0]), np.array([-1.0, 0.5])
    assert np.allclose(op.exact_pooled(a, 3, b, 1).value, [0.5, 0.125])
    assert op.exact_private(a).guarantee is None
    assert [o.name for o in op.CATALOGUE][:3] == ["gaussian", "laplace", "tree"]
    with pytest.raises(ValueError):
        op.opponent("nope")


def _learner_success(n: int, eps: float, seed: int) -> int:
    from algorithms.classes import constructors
    from algorithms.learning.erm import population_errors

    cls = constructors.thresholds(16)
    x = np.arange(16)
    p_pos = np.where(x < 6, 0.75, 0.25)  # agnostic: threshold 6 is best, with error 0.25
    joint = np.stack([(1 - p_pos) / 16, p_pos / 16], axis=1)
    errs = population_errors(cls, joint)
    ok = 0
    for i in range(TRIALS):
        rng = np.random.default_rng([seed, i])
        c = rng.multinomial(n, joint.ravel()).reshape(16, 2)
        h = op.exponential_learner(cls, c[:, 1], c[:, 0], eps, rng).value
        ok += errs[h] - errs.min() <= ALPHA / 3
    return ok


def test_exponential_learner_meets_its_bound_and_broken_twin_caught():
    """The generic private learner's excess error is <= alpha' = 0.1 w.p. >= 1 - beta at baselines:em_learner's
    n (thresholds on 16 points, agnostic). Catches: the selection at eps/300 (noise 300x) fails."""
    n = int(bounds.compute("baselines:em_learner", alpha=ALPHA / 3, beta=BETA, epsilon=EPS,
                           num_hypotheses=17)["private_samples"])
    assert _not_rejected(_learner_success(n, EPS, 11), TRIALS, 1 - BETA)
    assert _rejected(_learner_success(n, EPS / 300, 11), TRIALS, 1 - BETA)
    assert op.exponential_learner.__module__.endswith("learning")


@pytest.mark.parametrize("kind,factor", [("thresholds", 1), ("intervals", 2)])
def test_tree_bound_is_the_least_n_whose_noise_budget_covers_the_mechanisms_sigma(kind, factor):
    """bounds' tree noise size and the mechanism's calibration agree: at n_noise the largest node sigma that meets
    alpha/2 on every prefix (union of N Gaussian tails over L nodes) is >= TreeMechanism's analytic sigma, and at
    n_noise - 1 it is below."""
    N, L = 2.0**40, 40
    n = int(bounds.compute(f"baselines:tree_{kind}", alpha=ALPHA, beta=BETA, epsilon=EPS, delta=DELTA,
                           domain_size=N)["private_samples_noise"])
    sigma = op.TreeMechanism(L, EPS, DELTA).node_sigma

    def budget(size):
        return ALPHA * size / (4 * factor * math.sqrt(2 * L * math.log(2 * N / BETA)))

    assert budget(n) >= sigma * (1 - 1e-9) and budget(n - 1) < sigma


def test_declared_sensitivities_bound_every_replacement_exactly():
    """Privacy rests on the sensitivities: for random data sets and every replacement of one point, the answer
    vector of k stumps moves by at most (2k/n, 2 sqrt(k)/n) in (L1, L2), and the tree's node counts (levels 0..L-1)
    by at most (2L, sqrt(2L)); both are attained. Catches: a sensitivity of 1/n (the {0, 1} scale) or sqrt(L)."""
    rng = np.random.default_rng(4)
    k, n = 6, 9
    x = rng.choice([-1, 1], size=(n, k))
    l1, l2 = op.answer_sensitivities(k, n)
    worst = [0.0, 0.0]
    for i in range(n):
        for new in (np.ones(k), -np.ones(k), -x[i]):
            y = x.copy()
            y[i] = new
            d = np.abs(x.mean(axis=0) - y.mean(axis=0))
            worst = [max(worst[0], d.sum()), max(worst[1], np.sqrt((d ** 2).sum()))]
    assert worst[0] <= l1 + 1e-12 and worst[1] <= l2 + 1e-12
    assert worst[0] == pytest.approx(l1) and worst[1] == pytest.approx(l2)
    L = 5
    nodes = [(lev, i) for lev in range(L) for i in range(2 ** (L - lev))]

    def counts(pts):
        return np.array([np.count_nonzero((pts >> lev) == i) for lev, i in nodes])

    pts = rng.integers(0, 2**L, size=7)
    worst = [0, 0.0]
    for j in range(7):
        for v in range(2**L):
            q = pts.copy()
            q[j] = v
            d = np.abs(counts(pts) - counts(q))
            worst = [max(worst[0], d.sum()), max(worst[1], np.sqrt((d ** 2).sum()))]
    assert worst == [2 * L, pytest.approx(math.sqrt(2 * L))]
    from algorithms.privacy.mechanisms import GaussianMechanism

    assert op.TreeMechanism(L, EPS, DELTA).node_sigma == GaussianMechanism.analytic(math.sqrt(2 * L), EPS, DELTA).sigma


def test_workload_sensitivities_bound_every_replacement_of_a_row_of_marginal_histograms():
    """The marginal opponents rest on (2W/n, sqrt(2W)/n): for random rows of a small categorical domain and every
    replacement of one row, the W = 3 two-way marginal histograms (fractions) move by at most that in (L1, L2), and
    both are attained; the Gaussian release at rho adds N(0, sigma^2) with sigma = sqrt(2W)/(n sqrt(2 rho)) (its
    noise's sample sd within a chi-square 99.9% interval) and clips to [0, 1]. Catches: the [-1, 1] scale's
    2 sqrt(k)/n with k the cell count in place of the workloads' (the second assert), or sqrt(W)/n (the first)."""
    from algorithms.privacy import ZCDP
    from algorithms.query_release.pmw_pub import marginal_answers
    from algorithms.query_release.workloads import CategoricalDomain, all_k_way

    rng = np.random.default_rng(5)
    dom = CategoricalDomain([2, 3, 2], ["a", "b", "c"])
    wl = all_k_way(dom, 2)
    n = 7
    rows = np.column_stack([rng.integers(0, s, size=n) for s in dom.sizes])
    base = marginal_answers(dom, wl, rows)
    l1, l2 = op.workload_sensitivities(len(wl), n)
    worst = [0.0, 0.0]
    for i in range(n):
        for new in dom.all_rows():
            other = rows.copy()
            other[i] = new
            d = np.abs(base - marginal_answers(dom, wl, other))
            worst = [max(worst[0], d.sum()), max(worst[1], np.sqrt((d ** 2).sum()))]
    assert worst[0] <= l1 + 1e-12 and worst[1] <= l2 + 1e-12
    assert worst[0] == pytest.approx(l1) and worst[1] == pytest.approx(l2) and l2 < op.answer_sensitivities(base.size,
                                                                                                           n)[1] / 2
    rho, big = 0.5, 10**4
    half = np.full(20_000, 0.5)
    rel = op.gaussian_answers(half, big, np.random.default_rng(6), rho=rho, workloads=len(wl))
    sigma = math.sqrt(2 * len(wl)) / big / math.sqrt(2 * rho)
    var = float(np.var(rel.value - half, ddof=1))
    lo, hi = stats.chi2.ppf([0.0005, 0.9995], half.size - 1) / (half.size - 1)
    assert lo * sigma**2 <= var <= hi * sigma**2 and rel.guarantee == ZCDP(rho)
    lap = op.laplace_answers(np.array([0.0, 1.0]), 1, 1.0, np.random.default_rng(7), workloads=1)
    assert lap.value.min() >= 0.0 and lap.value.max() <= 1.0 and lap.guarantee == PureDP(1.0)
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        op.gaussian_answers(np.array([-0.5]), 10, rng, rho=1.0, workloads=1)
