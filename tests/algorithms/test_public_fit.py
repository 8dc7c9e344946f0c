"""The public-support fit (``algorithms.query_release.public_fit``, private-pgm's public-data reweighting with
the fit solved to a certified optimum): the fitted weights against a direct computation on a tiny domain, the
solver's gap against the true suboptimality, the rho the release declares against the Gaussian noise it adds, and
the gather kernel's bits. Each test names the break it catches."""

import itertools
import math

import numpy as np
import pytest
from scipy.optimize import minimize

from algorithms.privacy import ZCDP
from algorithms.query_release import _kernels
from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers
from algorithms.query_release.public_fit import fit_public_weights, gap_tolerance, measure_all_marginals, public_fit
from algorithms.query_release.workloads import CategoricalDomain, MarginalQueries

SIZES = (2, 3, 2)
WORKLOADS = ((0, 1), (1, 2), (0, 2))


def _dense_matrix(support):
    """A[q, x] = 1 when support row x lies in cell q, from the definition (cells run workload by workload, the
    first attribute of a workload varying fastest), independent of MarginalQueries' cell maps."""
    cols = []
    for row in support:
        col = []
        for w in WORKLOADS:
            cells = list(itertools.product(*[range(SIZES[a]) for a in reversed(w)]))   # last attribute slowest
            col += [1.0 if tuple(row[a] for a in reversed(w)) == c else 0.0 for c in cells]
        cols.append(col)
    return np.array(cols).T


def _tiny(seed):
    rng = np.random.default_rng(seed)
    dom = CategoricalDomain(SIZES)
    support, counts = distinct_rows(dom.rows(rng.integers(0, dom.size, size=9)))
    q = MarginalQueries(dom, WORKLOADS, support)
    y = rng.random(q.num_queries) / 4
    return q, counts / counts.sum(), y, _dense_matrix(support)


@pytest.mark.parametrize("mu", [0.5, 20.0])
def test_map_fit_is_the_direct_optimum(mu):
    """Finite mu: the fit's weights minimise KL(p || p0) + (mu/2)||A p - y||^2 over the simplex, checked against
    an independent solve of the primal with the dense matrix (SLSQP on the simplex) and against the optimality
    the reported gap bounds the suboptimality, and the weights are the direct solution's up to the distance the
    gaps allow (the objective is 1-strongly convex in L1 by Pinsker, so ||p - p*||_1 <= sqrt(2 (P(p) - P*))).
    Catches a dual with a wrong sign or scale, a transposed gather (A^T r summed over the wrong cells) and a gap
    that is not a bound."""
    for seed in range(2):
        q, p0, y, A = _tiny(seed)
        assert np.array_equal(A @ p0, q.answer(p0))
        fit = fit_public_weights(q, p0, y, mu, tol=1e-10, max_iter=500)
        assert fit.gap <= 1e-10 and fit.iterations < 500        # stopped by its gap, not by the cap

        def primal(p):
            p = np.clip(p, 1e-300, None)
            return float(np.sum(p * np.log(p / p0)) + mu / 2 * np.sum((A @ p - y) ** 2))

        direct = minimize(primal, p0, method="SLSQP", bounds=[(0, 1)] * p0.size,
                          constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1}],
                          options=dict(ftol=1e-14, maxiter=500))
        assert fit.objective <= direct.fun + 1e-9
        assert abs(fit.objective - primal(fit.p)) < 1e-12
        assert fit.gap >= 0 and fit.objective - direct.fun <= fit.gap + 1e-9
        direct_excess = max(direct.fun - fit.objective + fit.gap, 0.0)   # >= P(direct) - P* (SLSQP's 1e-9 slack)
        assert np.abs(fit.p - direct.x).sum() <= math.sqrt(2 * fit.gap) + math.sqrt(2 * direct_excess + 2e-9)


def test_gap_tolerance_bounds_every_answer_against_the_optimum():
    """The stopping rule's promise: a fit stopped at ``gap_tolerance(sigma, mu, f)`` has every answer within f sigma
    of the exact optimum's (here a fit to gap 1e-15 stands in for it; it is itself within 5e-8 sigma), at loose f
    where the solver does stop early. Catches a gap read off the gradient with the wrong scale (mu in place of
    1/mu: the bound sqrt(2 g / mu) would not hold) and a tolerance that ignores mu."""
    sigma = 0.05
    for seed, mu in itertools.product(range(2), (0.5, 20.0)):
        q, p0, y, A = _tiny(seed)
        exact = fit_public_weights(q, p0, y, mu, tol=1e-15, max_iter=2000)
        for f in (0.3, 0.03):
            fit = fit_public_weights(q, p0, y, mu, tol=gap_tolerance(sigma, mu, f), max_iter=2000)
            assert fit.gap <= gap_tolerance(sigma, mu, f)
            assert np.linalg.norm(A @ (fit.p - exact.p)) <= f * sigma + math.sqrt(2e-15 / mu), (seed, mu, f)


def test_least_squares_fit_is_the_direct_optimum():
    """mu = inf: the plain least-squares fit on the simplex (private-pgm's objective) reaches the direct
    optimum (SLSQP on the dense matrix) within its Frank-Wolfe gap. Catches a projection that leaves the simplex
    and a step past 1/L (FISTA diverges)."""
    for seed in range(2):
        q, p0, y, A = _tiny(seed)
        fit = fit_public_weights(q, p0, y, math.inf, tol=1e-12, max_iter=20000)
        direct = minimize(lambda p: 0.5 * float(np.sum((A @ p - y) ** 2)), p0, method="SLSQP",
                          bounds=[(0, 1)] * p0.size, constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1}],
                          options=dict(ftol=1e-15, maxiter=500))
        assert np.all(fit.p >= 0) and abs(fit.p.sum() - 1) < 1e-12
        assert fit.objective <= direct.fun + 1e-10
        assert fit.objective - direct.fun <= fit.gap + 1e-10


def test_fit_stops_at_the_float_floor_of_its_dual():
    """On a four-row support, asked for a gap (1e-30) below what float precision reaches, the fit stops when a step
    improves neither the dual's value nor its gap, within 30 iterations and with its duality gap at float precision
    (catches the loop that ran to its 2,000-iteration cap there, each iteration halving its step to 1e-12: 3 of the
    first 8 fits of this test, 0.5-0.9 s each)."""
    dom = CategoricalDomain((2, 2))
    pub = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [0, 0], [1, 1]])
    q = MarginalQueries(dom, [(0,)], pub[:4])
    rng = np.random.default_rng(0)
    for _ in range(20):
        y = 0.5 + 0.25 * rng.normal(size=2)
        fit = fit_public_weights(q, np.array([2, 1, 1, 2]) / 6, y, 2.0, tol=1e-30)
        assert fit.iterations <= 30 and fit.gap <= 1e-14, (fit.iterations, fit.gap)


def test_release_declares_exactly_the_rho_its_noise_buys():
    """Privacy accounting: the release declares ZCDP(rho) with the rho given, and the noise it adds per cell
    has the standard deviation sqrt(W / rho)/n that makes the Gaussian at replace-one L2 sensitivity sqrt(2 W)/n
    exactly rho-zCDP (Bun-Steinke Prop. 1.6: rho = Delta^2 / (2 sigma^2)). The noise is checked by its sample
    variance over all cells of 20 seeded releases (N = 900 draws): a chi-square 99.99% interval for the
    variance (|s^2/sigma^2 - 1| <= 4 sqrt(2/N)). Catches add/remove sensitivity sqrt(W)/n (noise sqrt 2 too
    small: expected ratio 0.5, about 10 standard errors outside; checked once: the test fails with that break)
    and a budget split across the workloads that is not composed (noise per marginal at rho instead of rho / W)."""
    rng = np.random.default_rng(7)
    dom = CategoricalDomain((3, 4, 2, 5))
    wl = ((0, 1), (1, 2), (2, 3), (0, 3))
    priv = dom.rows(rng.integers(0, dom.size, size=500))
    pub = dom.rows(rng.integers(0, dom.size, size=60))
    rho = 0.3
    true = marginal_answers(dom, wl, priv)
    noise = []
    for s in range(20):
        # the fit is post-processing and not what is checked here: a few iterations of it suffice
        rel = public_fit(priv, pub, dom, wl, rho, np.random.default_rng(s), max_iter=20)
        assert rel.guarantee == ZCDP(rho)
        sigma = math.sqrt(len(wl) / rho) / priv.shape[0]
        assert rel.value.sigma == pytest.approx(sigma, rel=1e-15)
        assert (math.sqrt(2 * len(wl)) / priv.shape[0]) ** 2 / (2 * rel.value.sigma**2) == pytest.approx(rho)
        noise.append(rel.value.measurements - true)
    z = np.concatenate(noise)
    ratio = float(np.mean(z**2)) / sigma**2
    assert abs(ratio - 1) <= 4 * math.sqrt(2 / z.size), ratio
    assert measure_all_marginals(true, priv.shape[0], len(wl), rho, np.random.default_rng(0)).guarantee == ZCDP(rho)


def test_bad_input_is_refused():
    """One clear ValueError each: p0 not positive or of the wrong length, y of the wrong length or not finite,
    mu not positive, a gap tolerance not positive; the kernel's IndexError for a cell id past r."""
    q, p0, y, _ = _tiny(0)
    bad = p0.copy()
    bad[0] = 0.0
    for args in [(bad, y, 1.0), (p0[:-1], y, 1.0), (p0, y[:-1], 1.0), (p0, np.full_like(y, np.nan), 1.0),
                 (p0, y, 0.0), (p0, y, -1.0), (p0, y, float("nan"))]:
        with pytest.raises(ValueError):
            fit_public_weights(q, *args)
    for tol in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError):
            fit_public_weights(q, p0, y, 1.0, tol=tol)
    with pytest.raises(ValueError):
        measure_all_marginals(y, 0, 3, 1.0, np.random.default_rng(0))
    if _kernels._build():
        with _kernels.using("numba"), pytest.raises(IndexError):
            _kernels.gather_sums(q.compact_cells(), y[:3])


@pytest.mark.skipif(not _kernels._build(), reason="numba is not installed")
def test_gather_kernel_equals_numpy_bit_for_bit():
    """The compiled A^T r adds each support point's W values as ``r[cells].sum(axis=1)`` does (numpy's pairwise
    sum): equal bits for W below and above the 128-term block. Catches a left-to-right loop."""
    rng = np.random.default_rng(3)
    for W in (3, 127, 256, 300):
        cells = rng.integers(0, 5000, size=(200, W)).astype(np.int32)
        r = rng.normal(size=5000) * 10.0 ** rng.integers(-4, 5, size=5000)
        with _kernels.using("numba"):
            a = _kernels.gather_sums(cells, r)
        with _kernels.using("numpy"):
            b = _kernels.gather_sums(cells, r)
        assert np.array_equal(a, b), W
