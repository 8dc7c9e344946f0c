"""Public-support reweighting (private-pgm's public-data estimator; McKenna et al., mbi's
``ReweightedDatasetEstimator`` / ``public_support``, "inspired by PMW^Pub", LVSUW21): measure every workload
marginal once with the Gaussian mechanism under zCDP, then fit weights on the distinct public rows to the noisy
answers. The fit is a convex problem, solved here to a certified optimum instead of by a fixed number of
gradient steps.

Measurement (Bun-Steinke 2016 Prop. 1.6): under replace-one adjacency one changed row moves each marginal's
fraction vector by sqrt(2)/n in L2, so the W marginals together by sqrt(2 W)/n; all of them at once with
``GaussianMechanism.zcdp(sqrt(2 W)/n, rho)``, sigma = sqrt(W / rho)/n per cell: rho-zCDP in total, the only
access to the private rows (the fit is post-processing).

Fit (maximum a posteriori over the public support X^, with the public sample as prior): with A the cells x X^
0/1 matrix (``MarginalQueries``), y the noisy answers and p^ the public histogram,

    minimise  m KL(p || p^) + ||A p - y||^2 / (2 sigma^2)  over distributions p on X^,

i.e. KL(p || p^) + (mu/2) ||A p - y||^2 with mu = 1 / (m sigma^2) by default (m public rows: the public
sample's log-likelihood, to second order, against the Gaussian likelihood of the measurements; no private
quantity chooses it). The KL term makes it the entropy projection of Liu-Vietri-Wu 2021's PEP (there onto the
measured queries' slack box) on LVSUW21's public support, started from the public histogram, and its solution
is a multiplicative-weights distribution: p(x) proportional to p^(x) exp(-(A^T lam)(x)). The strictly convex
primal has the smooth, 1/mu-strongly concave Fenchel dual

    D(lam) = -log sum_x p^(x) exp(-(A^T lam)(x)) - lam . y - ||lam||^2 / (2 mu),

maximised by L-BFGS with its exact gradient A p_lam - y - lam/mu (``_lbfgs``); the primal
value at p_lam minus D(lam) is the duality gap, an upper bound on the primal suboptimality, reported with the
iterations. ``mu=inf`` is private-pgm's plain least-squares fit (no KL term), solved by projected accelerated
gradient (FISTA on the simplex, step 1/L with L = ||A||_2^2 by power iteration), reported with its
Frank-Wolfe gap (also an upper bound on its suboptimality). A p and A^T r are the MW engine's kernels
(``_kernels.scatter_answers`` and ``_kernels.gather_sums``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..privacy import Release
from ..privacy.mechanisms import GaussianMechanism
from . import _kernels
from .pmw_pub import distinct_rows, marginal_answers
from .workloads import CategoricalDomain, MarginalQueries

__all__ = ["FitResult", "PublicFitResult", "fit_public_weights", "measure_all_marginals", "public_fit"]


@dataclass(frozen=True, eq=False)
class FitResult:
    """The fitted weights p on the support and the solver's account: iterations (of L-BFGS or FISTA),
    gap (duality gap for finite mu, Frank-Wolfe gap for mu = inf: an upper bound on the objective's
    suboptimality), objective (the primal value at p), residual ||A p - y||_2."""

    p: np.ndarray
    iterations: int
    gap: float
    objective: float
    residual: float


@dataclass(frozen=True, eq=False)
class PublicFitResult:
    """Output of ``public_fit``: support (S, d) distinct public rows, synthetic (their fitted weights), answers
    (q(synthetic) for every query of the workloads), measurements (the noisy answers y), sigma (the noise
    standard deviation per cell, fractions), mu, and the fit's account (``FitResult``)."""

    support: np.ndarray
    synthetic: np.ndarray
    answers: np.ndarray
    measurements: np.ndarray
    sigma: float
    mu: float
    fit: FitResult


def measure_all_marginals(true_answers, n: int, num_workloads: int, rho: float, rng: np.random.Generator) -> Release:
    """Every workload's marginal (fractions, ``true_answers`` one per cell) plus N(0, sigma^2) noise per cell,
    sigma = sqrt(W / rho)/n: the Gaussian mechanism at L2 sensitivity sqrt(2 W)/n (replace-one) and rho-zCDP
    (module docstring). Returns ``Release(noisy answers, ZCDP(rho))``."""
    if not (isinstance(n, (int, np.integer)) and n >= 1 and isinstance(num_workloads, (int, np.integer))
            and num_workloads >= 1):
        raise ValueError(f"n={n!r} and num_workloads={num_workloads!r} must be integers >= 1")
    mech = GaussianMechanism.zcdp(math.sqrt(2.0 * num_workloads) / n, rho)
    return mech.release(np.asarray(true_answers, dtype=np.float64), rng)


def _kl(p: np.ndarray, log_p0: np.ndarray) -> float:
    nz = p > 0
    return float(np.sum(p[nz] * (np.log(p[nz]) - log_p0[nz])))


def _lbfgs(fun, x, tol, max_iter, memory=10):
    """Minimise a smooth convex ``fun`` (returning value and gradient) by L-BFGS (Nocedal-Wright 2006,
    Algorithm 7.4's two-loop recursion, Armijo backtracking from the unit step) until the gradient's largest
    entry is at most ``tol``, a step improves neither the value nor the gradient at float precision, or ``max_iter``
    iterations; returns (x, value, iterations). Here rather than scipy's L-BFGS-B, whose bound handling costs about a
    second per iteration at 3e5 variables."""
    f, g = fun(x)
    s_hist, y_hist, it = [], [], 0
    while it < max_iter and float(np.max(np.abs(g))) > tol:
        it += 1
        q = g.copy()
        alphas = []
        for s_k, y_k in reversed(list(zip(s_hist, y_hist))):
            a = (s_k @ q) / (y_k @ s_k)
            alphas.append(a)
            q -= a * y_k
        if s_hist:
            q *= (s_hist[-1] @ y_hist[-1]) / (y_hist[-1] @ y_hist[-1])
        for (s_k, y_k), a in zip(zip(s_hist, y_hist), reversed(alphas)):
            q += (a - (y_k @ q) / (y_k @ s_k)) * s_k
        d = -q
        slope = float(g @ d)
        if slope >= 0:                       # not a descent direction (numerical): restart from the gradient
            s_hist, y_hist, d, slope = [], [], -g, -float(g @ g)
        step = 1.0
        while True:
            x_new = x + step * d
            f_new, g_new = fun(x_new)
            if f_new <= f + 1e-4 * step * slope or step < 1e-12:
                break
            step *= 0.5
        s_k, y_k = x_new - x, g_new - g
        if float(s_k @ y_k) > 1e-300:
            s_hist.append(s_k)
            y_hist.append(y_k)
            if len(s_hist) > memory:
                s_hist.pop(0)
                y_hist.pop(0)
        # neither the value nor the gradient improved: at the float floor (about 1e-9 on small supports, above the
        # default tol), where more iterations each halve the step to 1e-12 and change nothing
        stalled = not f_new < f and not float(np.max(np.abs(g_new))) < float(np.max(np.abs(g)))
        x, f, g = x_new, f_new, g_new
        if step < 1e-12 or stalled:
            break
    return x, f, it


def _fit_dual(queries, p0, y, mu, tol, max_iter) -> FitResult:
    from scipy.special import logsumexp

    cells = queries.compact_cells()
    log_p0 = np.log(p0)
    nq = queries.num_queries

    def tilt(lam):
        u = log_p0 - _kernels.gather_sums(cells, lam)
        z = logsumexp(u)
        return np.exp(u - z), z

    def neg_dual(lam):
        p, z = tilt(lam)
        value = z + lam @ y + lam @ lam / (2.0 * mu)
        return value, y - _kernels.scatter_answers(cells, p, nq) + lam / mu

    lam0 = mu * (_kernels.scatter_answers(cells, p0, nq) - y)     # the optimum's form lam* = mu (A p* - y), at p^
    lam, value, iterations = _lbfgs(neg_dual, lam0, tol, max_iter)
    p, _ = tilt(lam)
    r = _kernels.scatter_answers(cells, p, nq) - y
    primal = _kl(p, log_p0) + mu / 2.0 * float(r @ r)
    return FitResult(p=p, iterations=iterations, gap=max(primal + value, 0.0), objective=primal,
                     residual=float(np.sqrt(r @ r)))


def _project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection onto the probability simplex (sort-based; Held-Wolfe-Crowder 1974)."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    k = np.arange(1, v.size + 1)
    r = k[u - css / k > 0][-1]
    return np.maximum(v - css[r - 1] / r, 0.0)


def _fit_least_squares(queries, p0, y, tol, max_iter) -> FitResult:
    cells = queries.compact_cells()
    nq = queries.num_queries

    def grad(p):
        r = _kernels.scatter_answers(cells, p, nq) - y
        return r, _kernels.gather_sums(cells, r)

    v = np.random.default_rng(0).random(p0.size)     # power iteration for L = ||A^T A||_2 (fixed start)
    for _ in range(50):
        v = _kernels.gather_sums(cells, _kernels.scatter_answers(cells, v, nq))
        v /= np.linalg.norm(v)
    L = 1.01 * float(np.linalg.norm(_kernels.gather_sums(cells, _kernels.scatter_answers(cells, v, nq))))
    x, z, t, it, fw = p0.copy(), p0.copy(), 1.0, 0, math.inf
    while it < max_iter:
        it += 1
        _, g = grad(z)
        xn = _project_simplex(z - g / L)
        tn = (1.0 + math.sqrt(1.0 + 4.0 * t * t)) / 2.0
        z, x, t = xn + (t - 1.0) / tn * (xn - x), xn, tn
        if it % 25 == 0:
            _, gx = grad(x)
            fw = float(gx @ x - gx.min())
            if fw <= tol:
                break
    r, gx = grad(x)
    fw = float(gx @ x - gx.min())
    return FitResult(p=x, iterations=it, gap=fw, objective=0.5 * float(r @ r), residual=float(np.sqrt(r @ r)))


def fit_public_weights(queries: MarginalQueries, p0, y, mu: float, *, tol: float = 1e-10,
                       max_iter: int = 2000) -> FitResult:
    """argmin over distributions p on the support of KL(p || p0) + (mu/2) ||A p - y||^2 (dual L-BFGS, to
    gradient tolerance ``tol``; the result reports its duality gap), or of ||A p - y||^2 / 2 for ``mu=inf``
    (FISTA until its Frank-Wolfe gap is at most ``tol``); at most ``max_iter`` iterations either way (module
    docstring). p0 > 0 everywhere, one entry per support point, summing to 1; y one value per query."""
    p0 = np.asarray(p0, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    if p0.shape != (queries.support_size,) or np.any(~(p0 > 0)) or abs(p0.sum() - 1.0) > 1e-9:
        raise ValueError("p0 must be a positive distribution with one entry per support point")
    if y.shape != (queries.num_queries,) or not np.all(np.isfinite(y)):
        raise ValueError(f"y must hold {queries.num_queries} finite values, one per query")
    if not (mu > 0) or math.isnan(mu):
        raise ValueError(f"mu={mu!r} out of range: allowed (0, inf]")
    if math.isinf(mu):
        return _fit_least_squares(queries, p0, y, tol, max_iter)
    return _fit_dual(queries, p0, y, float(mu), tol, max_iter)


def public_fit(private_rows, public_rows, domain: CategoricalDomain, workloads, rho: float,
               rng: np.random.Generator, *, mu: float | None = None, tol: float = 1e-10,
               max_iter: int = 2000) -> Release:
    """Measure every marginal of ``workloads`` once (rho-zCDP, replace-one) and fit the public support's weights
    (module docstring). mu: the fit's weight on the measurements, default 1 / (m sigma^2); ``math.inf`` fits
    least squares alone (private-pgm's objective). Returns ``Release(PublicFitResult, ZCDP(rho))``."""
    priv = domain.check_rows(private_rows, "private_rows")
    pub = domain.check_rows(public_rows, "public_rows")
    support, counts = distinct_rows(pub)
    queries = MarginalQueries(domain, workloads, support)
    true = marginal_answers(domain, queries.workloads, priv)
    n, W = priv.shape[0], queries.num_workloads
    y, guarantee = measure_all_marginals(true, n, W, rho, rng)
    sigma = math.sqrt(W / rho) / n
    mu = 1.0 / (pub.shape[0] * sigma**2) if mu is None else mu
    fit = fit_public_weights(queries, counts / counts.sum(), y, mu, tol=tol, max_iter=max_iter)
    return Release(PublicFitResult(support=support, synthetic=fit.p, answers=queries.answer(fit.p),
                                   measurements=y, sigma=sigma, mu=mu, fit=fit), guarantee)
