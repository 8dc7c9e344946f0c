"""Adaptive public-support fit: AIM's select-measure-refit loop (McKenna, Mullins, Sheldon, Miklau 2022, "AIM",
Algorithm 1: the exponential mechanism on a marginal's current L1 error minus the error its measurement is
expected to add, then Gaussian noise on the chosen marginal), as JAM (Fuentes, Mullins, McKenna, Miklau, Sheldon,
AISTATS 2024) runs it with public data, but with this workbench's public-support MAP fit as the estimator in place
of a graphical model: after each round the weights on the distinct public rows are refitted to every measurement
so far, the public histogram the prior (``public_fit``'s objective with one weight per measured cell).

Round t of T (rho split evenly over the rounds, a share ``alpha`` of each for the selection):
- select a workload w by ``ExponentialMechanism(sqrt(8 rho_sel), 2/n)`` on the score
  ||marginal_w - fit_w||_1 - sqrt(2/pi) sigma_t |cells_w| (AIM's expected-error penalty; JAM's "PRIV" score).
  Under replace-one adjacency one changed row moves a marginal's fractions by 2/n in L1, so the score moves by
  at most 2/n; the mechanism is sqrt(8 rho_sel)-bounded-range, hence rho_sel-zCDP (Cesar-Rogers 2021);
- measure that marginal by ``GaussianMechanism.zcdp(sqrt(2)/n, rho_meas)``: sigma_t = 1 / (n sqrt(rho_meas));
  a marginal chosen again is averaged with its earlier measurements (inverse-variance weights);
- refit: KL(p || p^) + sum_c (mu_c / 2) ((A p)_c - y_c)^2 over the measured cells, mu_c = 1 / (m s_c^2) with s_c
  the noise of cell c's inverse-variance mean y_c (sigma_t / sqrt(k) for k measurements; ``public_fit``'s MAP
  weight), solved by the dual L-BFGS from the previous round's dual (a new cell at the optimum's form mu_c (A p -
  y)_c) to the gap g = (mu/2) (1e-3 sigma_t)^2, mu = 1/(m sigma_t^2): every measured answer within a thousandth
  of its own s_c of the optimum's (sum_c mu_c d_c^2 <= 2 g).
With ``first`` > 0 that share of rho first measures every marginal at once (``public_fit``'s measurement) and
the rounds share the rest (a hybrid: the measure-all fit, then adaptive re-measurement of its worst marginals).
Total: the composition of every mechanism run, T (rho_sel + rho_meas) + first rho = rho, replace-one adjacency.
JAM's second option (take a marginal from the public data instead of measuring it) is already in the prior here,
so it is not a candidate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..privacy import ZCDP, Release, compose
from ..privacy.mechanisms import ExponentialMechanism, GaussianMechanism
from ..validate import check_int
from . import _kernels
from .pmw_pub import distinct_rows, marginal_answers
from .public_fit import FitResult, _fit_dual, gap_tolerance, measure_all_marginals
from .workloads import CategoricalDomain, MarginalQueries

__all__ = ["AdaptiveFitResult", "adaptive_public_fit"]


@dataclass(frozen=True, eq=False)
class AdaptiveFitResult:
    """Output of ``adaptive_public_fit``: support, synthetic (the final weights), answers (every workload cell),
    selected (the workload chosen in each round), measurements (each round's noisy marginal, fractions), sigma
    (their noise, per cell), and the last fit's account."""

    support: np.ndarray
    synthetic: np.ndarray
    answers: np.ndarray
    selected: np.ndarray
    measurements: tuple
    sigma: float
    fit: FitResult


def adaptive_public_fit(private_rows, public_rows, domain: CategoricalDomain, workloads, rho: float,
                        rng: np.random.Generator, *, rounds: int = 30, alpha: float = 0.1, first: float = 0.0,
                        max_iter: int = 2000) -> Release:
    """T = ``rounds`` rounds of select, measure, refit (module docstring) at ``rho``-zCDP in total, replace-one;
    ``first`` > 0: a share of rho spent first on every marginal at once (``public_fit``'s measurement), the rounds
    sharing the rest. Returns ``Release(AdaptiveFitResult, ZCDP(rho))``."""
    check_int("rounds", rounds)
    if not (0.0 < alpha < 1.0) or not (0.0 <= first < 1.0) or not (0.0 < rho < math.inf):
        raise ValueError(f"alpha={alpha!r} must lie in (0, 1), first={first!r} in [0, 1) and rho={rho!r} in "
                         "(0, inf)")
    priv = domain.check_rows(private_rows, "private_rows")
    pub = domain.check_rows(public_rows, "public_rows")
    support, counts = distinct_rows(pub)
    queries = MarginalQueries(domain, workloads, support)
    true = marginal_answers(domain, queries.workloads, priv)
    n, m, W = priv.shape[0], pub.shape[0], queries.num_workloads
    rho_sel, rho_meas = alpha * (1 - first) * rho / rounds, (1.0 - alpha) * (1 - first) * rho / rounds
    select = ExponentialMechanism(math.sqrt(8.0 * rho_sel), 2.0 / n)
    measure = GaussianMechanism.zcdp(math.sqrt(2.0) / n, rho_meas)
    sigma = measure.noise_sigma
    penalty = math.sqrt(2.0 / math.pi) * sigma * queries.cells_per_workload
    p0 = counts / counts.sum()
    precision = np.zeros(queries.num_queries)     # per cell: sum of 1 / sigma_i^2 over its measurements
    weighted = np.zeros(queries.num_queries)      # per cell: sum of y_i / sigma_i^2
    lam_all = np.zeros(queries.num_queries)       # per cell: the last fit's dual (warm start)
    tol = gap_tolerance(sigma, 1.0 / (m * sigma**2))
    selected, measured, noisy = [], [], []
    spent = [select.zcdp_guarantee, ZCDP(measure.rho)] * rounds
    if first > 0:
        y0, g0 = measure_all_marginals(true, n, W, first * rho, rng)
        spent.append(g0)
        s0 = math.sqrt(W / (first * rho)) / n
        precision += 1.0 / s0**2
        weighted += y0 / s0**2
        measured = list(range(W))
    p, fit = _refit(queries, p0, precision, weighted, measured, lam_all, m, tol, max_iter) if first > 0 else (p0, None)
    for _ in range(rounds):
        answers = queries.answer(p)
        score = np.add.reduceat(np.abs(true - answers), queries.offsets[:-1]) - penalty
        w = int(select.release(score, rng).value)
        new = slice(int(queries.offsets[w]), int(queries.offsets[w + 1]))
        precision[new] += 1.0 / sigma**2
        noisy.append(measure.release(true[new], rng).value)
        weighted[new] += noisy[-1] / sigma**2
        selected.append(w)
        measured = sorted(set(measured) | {w})
        lam_all[new] = precision[new] / m * (answers[new] - weighted[new] / precision[new])   # the optimum's form
        p, fit = _refit(queries, p0, precision, weighted, measured, lam_all, m, tol, max_iter)
    return Release(AdaptiveFitResult(support=support, synthetic=p, answers=queries.answer(p),
                                     selected=np.array(selected, dtype=np.int64),
                                     measurements=tuple(noisy), sigma=sigma, fit=fit), compose(*spent))


def _refit(queries, p0, precision, weighted, measured, lam_all, m, tol, max_iter):
    """The MAP fit to the measured workloads' cells (y the inverse-variance mean, mu = precision / m), started at
    ``lam_all`` (updated in place to the new dual); returns (p, FitResult)."""
    ids = np.concatenate([np.arange(queries.offsets[v], queries.offsets[v + 1]) for v in measured])
    position = np.full(queries.num_queries, -1, dtype=np.int64)
    position[ids] = np.arange(ids.size)
    y, mu = weighted[ids] / precision[ids], precision[ids] / m
    start = lam_all[ids]
    fit, lam = _fit_dual(_kernels.compact_cells(position[queries.cells[:, measured]], ids.size), p0, y, mu, tol,
                         max_iter, lam_start=lambda touched: start[touched])
    lam_all[ids] = lam
    return fit.p, fit
