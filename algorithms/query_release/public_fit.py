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

maximised by L-BFGS with its exact gradient A p_lam - y - lam/mu (``_lbfgs``) over the cells some support
point reaches (the others' dual variables are -mu y_c in closed form). The primal value at p_lam minus D(lam),
an upper bound on the primal suboptimality, equals (mu/2) ||gradient||^2; the fit stops when it is at most
``gap_tolerance(sigma, mu)``, which keeps every fitted answer within a thousandth of the noise's sigma of the
exact optimum's (the objective is mu-strongly convex along A), and reports it with the iterations.
``mu=inf`` is private-pgm's plain least-squares fit (no KL term), solved by projected accelerated
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

__all__ = ["ANSWER_TOLERANCE", "FitResult", "PublicFitResult", "fit_public_weights", "gap_tolerance",
           "measure_all_marginals", "public_fit"]

ANSWER_TOLERANCE = 1e-3   # the fit stops with every answer within this fraction of sigma of the optimum's


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


def _lbfgs(fun, x, gap_tol, max_iter, memory=10):
    """Minimise a smooth convex ``fun`` (returning value, gradient and a duality gap) by L-BFGS (Nocedal-Wright
    2006, Algorithm 7.4's two-loop recursion, Armijo backtracking from the unit step) until the gap is at most
    ``gap_tol``, a step improves neither the value nor the gap at float precision, or ``max_iter`` iterations;
    returns (x, value, gap, iterations, evaluations). Here rather than scipy's L-BFGS-B, whose bound handling costs
    about a second per iteration at 3e5 variables."""
    f, g, gap = fun(x)
    s_hist, y_hist, rho_hist, it, evals = [], [], [], 0, 1
    while it < max_iter and gap > gap_tol:
        it += 1
        q = g.copy()
        alphas = []
        for s_k, y_k, r_k in zip(reversed(s_hist), reversed(y_hist), reversed(rho_hist)):
            a = r_k * (s_k @ q)
            alphas.append(a)
            q -= a * y_k
        if s_hist:
            q *= 1.0 / (rho_hist[-1] * (y_hist[-1] @ y_hist[-1]))
        for s_k, y_k, r_k, a in zip(s_hist, y_hist, rho_hist, reversed(alphas)):
            q += (a - r_k * (y_k @ q)) * s_k
        d = -q
        slope = float(g @ d)
        if slope >= 0:                       # not a descent direction (numerical): restart from the gradient
            s_hist, y_hist, rho_hist, d, slope = [], [], [], -g, -float(g @ g)
        step = 1.0
        while True:
            x_new = x + step * d
            f_new, g_new, gap_new = fun(x_new)
            evals += 1
            if f_new <= f + 1e-4 * step * slope or step < 1e-12:
                break
            step *= 0.5
        s_k, y_k = x_new - x, g_new - g
        sy = float(s_k @ y_k)
        if sy > 1e-300:
            s_hist.append(s_k)
            y_hist.append(y_k)
            rho_hist.append(1.0 / sy)
            if len(s_hist) > memory:
                del s_hist[0], y_hist[0], rho_hist[0]
        # neither the value nor the gap improved: the float floor (about 1e-9 in the gradient on small supports), where
        # a ``gap_tol`` below it would otherwise run every remaining iteration with its step halved to 1e-12
        stalled = not f_new < f and not gap_new < gap
        x, f, g, gap = x_new, f_new, g_new, gap_new
        if step < 1e-12 or stalled:
            break
    return x, f, gap, it, evals


def _reached_cells(cells, num_queries):
    """The cells some support point lies in (increasing ids) and the (S, W) map onto their positions: a cell no
    point reaches is a zero row of A, so A p and A^T r need only the others."""
    reached = np.zeros(num_queries, dtype=bool)
    reached[cells.ravel()] = True
    touched = np.flatnonzero(reached)
    local_id = np.cumsum(reached, dtype=np.int64) - 1
    return touched, _kernels.compact_cells(local_id[cells], touched.size)


def _fit_dual(cells, p0, y, mu, gap_tol, max_iter, lam_start=None):
    """argmin KL(p || p0) + sum_q (mu_q / 2) ((A p)_q - y_q)^2, A the 0/1 map ``cells`` (S, W') onto the ids of y,
    mu a weight per id of y (or one for all). Returns (``FitResult``, the dual lam, one value per id of y);
    ``lam_start(touched)``: the start on the reached ids (default the optimum's form mu (A p0 - y)).

    The dual is restricted to the cells some support point lies in: a cell c no point reaches has a zero column
    in A, so its dual variable enters D only as -lam_c y_c - lam_c^2 / (2 mu_c), maximised at lam_c = -mu_c y_c in
    closed form (its residual is -y_c whatever p is); L-BFGS runs on the others. At any lam the gap
    P(p_lam) - D(lam) equals sum_c (lam_c - mu_c r_c)^2 / (2 mu_c) = sum_c (mu_c/2) grad_c^2, r = A p_lam - y
    (KL(p_lam || p0) = -lam . A p_lam - log Z: the terms cancel), so it is read off the gradient without the
    cancellation of subtracting two values near the objective."""
    touched, local = _reached_cells(cells, y.size)
    mu = np.broadcast_to(np.asarray(mu, dtype=np.float64), y.shape)
    yt, mut = y[touched], np.ascontiguousarray(mu[touched])
    log_p0 = np.log(p0)
    nt = touched.size

    def tilt(lam):
        u = log_p0 - _kernels.gather_sums(local, lam)
        top = float(u.max())
        e = np.exp(u - top)
        s = float(e.sum())
        return e / s, top + math.log(s)

    def neg_dual(lam):
        p, z = tilt(lam)
        g = yt - _kernels.scatter_answers(local, p, nt) + lam / mut
        return z + lam @ yt + lam @ (lam / mut) / 2.0, g, float(g @ (mut * g)) / 2.0

    lam0 = mut * (_kernels.scatter_answers(local, p0, nt) - yt) if lam_start is None else lam_start(touched)
    lam, _, gap, iterations, _ = _lbfgs(neg_dual, np.ascontiguousarray(lam0, dtype=np.float64), gap_tol, max_iter)
    p, _ = tilt(lam)
    r = _kernels.scatter_answers(cells, p, y.size) - y
    primal = _kl(p, log_p0) + float(r @ (mu * r)) / 2.0
    lam_all = -mu * y
    lam_all[touched] = lam
    return FitResult(p=p, iterations=iterations, gap=gap, objective=primal,
                     residual=float(np.sqrt(r @ r))), lam_all


def _project_simplex(v: np.ndarray) -> np.ndarray:
    """Euclidean projection onto the probability simplex (sort-based; Held-Wolfe-Crowder 1974)."""
    u = np.sort(v)[::-1]
    css = np.cumsum(u) - 1.0
    k = np.arange(1, v.size + 1)
    r = k[u - css / k > 0][-1]
    return np.maximum(v - css[r - 1] / r, 0.0)


def _fit_least_squares(queries, p0, y, tol, max_iter) -> FitResult:
    touched, cells = _reached_cells(queries.compact_cells(), queries.num_queries)
    nq, yt = touched.size, y[touched]
    rest = np.delete(y, touched)
    unreached = float(rest @ rest)                          # ||y||^2 on the cells no point reaches: constant

    def grad(p):
        r = _kernels.scatter_answers(cells, p, nq) - yt
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
    rr = float(r @ r) + unreached
    return FitResult(p=x, iterations=it, gap=fw, objective=0.5 * rr, residual=math.sqrt(rr))


def fit_public_weights(queries: MarginalQueries, p0, y, mu: float, *, tol: float = 1e-10,
                       max_iter: int = 2000) -> FitResult:
    """argmin over distributions p on the support of KL(p || p0) + (mu/2) ||A p - y||^2 (dual L-BFGS until its
    duality gap is at most ``tol``), or of ||A p - y||^2 / 2 for ``mu=inf`` (FISTA until its Frank-Wolfe gap is at
    most ``tol``); at most ``max_iter`` iterations either way (module docstring). p0 > 0 everywhere, one entry per
    support point, summing to 1; y one value per query."""
    p0 = np.asarray(p0, dtype=np.float64)
    y = np.ascontiguousarray(y, dtype=np.float64)
    if p0.shape != (queries.support_size,) or np.any(~(p0 > 0)) or abs(p0.sum() - 1.0) > 1e-9:
        raise ValueError("p0 must be a positive distribution with one entry per support point")
    if y.shape != (queries.num_queries,) or not np.all(np.isfinite(y)):
        raise ValueError(f"y must hold {queries.num_queries} finite values, one per query")
    if not (mu > 0) or math.isnan(mu):
        raise ValueError(f"mu={mu!r} out of range: allowed (0, inf]")
    if not (tol > 0):
        raise ValueError(f"tol={tol!r} out of range: allowed (0, inf)")
    if math.isinf(mu):
        return _fit_least_squares(queries, p0, y, tol, max_iter)
    return _fit_dual(queries.compact_cells(), p0, y, float(mu), tol, max_iter)[0]


def gap_tolerance(sigma: float, mu: float, fraction: float = ANSWER_TOLERANCE) -> float:
    """The duality gap at which the fit stops: every fitted answer within ``fraction`` sigma of the exact
    optimum's. Suboptimality g bounds ||A (p - p*)||_2 <= sqrt(2 g / mu) (the objective is mu-strongly convex
    along A, its KL part convex, and p* optimal on the simplex; mu = 1 for the least-squares objective), and the
    L2 norm bounds every cell, so g = (mu/2) (fraction sigma)^2 keeps the optimisation's error a ``fraction`` of
    the noise's standard deviation in every cell (and its mean over the N cells below that over sqrt(N))."""
    return (1.0 if math.isinf(mu) else mu) / 2.0 * (fraction * sigma) ** 2


def public_fit(private_rows, public_rows, domain: CategoricalDomain, workloads, rho: float,
               rng: np.random.Generator, *, mu: float | None = None, tol: float | None = None,
               max_iter: int = 2000) -> Release:
    """Measure every marginal of ``workloads`` once (rho-zCDP, replace-one) and fit the public support's weights
    (module docstring). mu: the fit's weight on the measurements, default 1 / (m sigma^2); ``math.inf`` fits
    least squares alone (private-pgm's objective). tol: the gap to stop at, default ``gap_tolerance(sigma, mu)``
    (every answer within a thousandth of sigma of the exact optimum's). Returns
    ``Release(PublicFitResult, ZCDP(rho))``."""
    priv = domain.check_rows(private_rows, "private_rows")
    pub = domain.check_rows(public_rows, "public_rows")
    support, counts = distinct_rows(pub)
    queries = MarginalQueries(domain, workloads, support)
    true = marginal_answers(domain, queries.workloads, priv)
    n, W = priv.shape[0], queries.num_workloads
    y, guarantee = measure_all_marginals(true, n, W, rho, rng)
    sigma = math.sqrt(W / rho) / n
    mu = 1.0 / (pub.shape[0] * sigma**2) if mu is None else mu
    tol = gap_tolerance(sigma, mu) if tol is None else tol
    fit = fit_public_weights(queries, counts / counts.sum(), y, mu, tol=tol, max_iter=max_iter)
    return Release(PublicFitResult(support=support, synthetic=fit.p, answers=queries.answer(fit.p),
                                   measurements=y, sigma=sigma, mu=mu, fit=fit), guarantee)
