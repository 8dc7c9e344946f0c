"""LVSUW21 Definition 4.1 and Lemma 4.2: the best mixture error of a support, exactly, and its release
(the quantity LVSUW21 Proposition 4.3 bounds for the support of m public samples, lvsuw21:prop4.3).

f_{D,Q}(S) = min_{mu in Delta(S)} max_{q in Q} |q(D) - sum_{x in S} mu_x q(x)|

is the optimum of the linear program (variables mu_x >= 0 for x in S, and t):

    minimise t  subject to   sum_x mu_x q(x) - t <= q(D),   -sum_x mu_x q(x) - t <= -q(D)   (q in Q),
                             sum_x mu_x = 1,  mu >= 0.

It is solved by scipy's HiGHS (``scipy.optimize.linprog(method="highs")``) with a sparse
constraint matrix: for marginal workloads (``workloads.MarginalQueries``) the matrix is built from
the (S, W) table of cells, so no dense query x support matrix is formed; other linear queries
pass a (num_queries x S) matrix (dense or scipy.sparse).

Lemma 4.2: f is 1/n-sensitive in D (neighbours replace one record; each q(D) moves by <= 1/n),
so ``release_best_mixture_error`` adds Laplace noise of scale 1/(n eps) and is eps-DP.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from algorithms._lazy import lazy_module

from ..privacy import LaplaceMechanism, Release
from ..validate import check_rng as _check_rng

optimize, sparse = lazy_module("scipy.optimize"), lazy_module("scipy.sparse")  # imported on first use

# the results this module's algorithm realises (bounds show lists it)
REALISES = ("lvsuw21:lemma4.2", "lvsuw21:prop4.3")

__all__ = ["MixtureFit", "PublicCheck", "best_mixture_error", "check_public_support", "release_best_mixture_error",
           "query_matrix"]


@dataclass(frozen=True, eq=False)
class MixtureFit:
    """LVSUW21 Definition 4.1: ``error`` = f_{D,Q}(S) and a minimising mixture ``mu`` over S."""

    error: float
    mu: np.ndarray


def query_matrix(queries) -> sparse.csr_matrix:
    """The (num_queries x S) query matrix as scipy.sparse CSR: from ``MarginalQueries`` (built from its
    cell table, S x workloads non-zeros) or from a dense / sparse matrix with values in [0, 1]."""
    if hasattr(queries, "cells") and hasattr(queries, "query_matrix"):
        return sparse.csr_matrix(queries.query_matrix(), copy=True)
    if hasattr(queries, "matrix") and not sparse.issparse(queries):
        queries = queries.matrix
    m = sparse.csr_matrix(queries, dtype=np.float64)
    if m.ndim != 2 or m.shape[0] == 0 or m.shape[1] == 0:
        raise ValueError(f"queries must be a non-empty (num_queries x support) matrix, got shape {m.shape}")
    if m.nnz and (not np.all(np.isfinite(m.data)) or m.data.min() < 0 or m.data.max() > 1):
        raise ValueError("queries must take values in [0, 1] (statistical queries, LVSUW21 Definition 4.1)")
    return m


def best_mixture_error(true_answers, queries) -> MixtureFit:
    """LVSUW21 Definition 4.1: f_{D,Q}(S) by the linear program above (HiGHS), and the optimal mu.

    true_answers: q(D) for every query (the private dataset's answers, in [0, 1]);
    queries: ``MarginalQueries`` bound to the support S, or a (num_queries x S) matrix.
    """
    A = query_matrix(queries)
    Q, S = A.shape
    a = np.asarray(true_answers, dtype=np.float64)
    if a.shape != (Q,):
        raise ValueError(f"true_answers must have shape ({Q},), got {a.shape}")
    if not np.all(np.isfinite(a)) or a.min() < 0 or a.max() > 1:
        raise ValueError("true_answers must be finite and in [0, 1]")
    minus_t = sparse.csr_matrix(-np.ones((Q, 1)))
    A_ub = sparse.vstack([sparse.hstack([A, minus_t]), sparse.hstack([-A, minus_t])], format="csr")
    b_ub = np.concatenate([a, -a])
    A_eq = sparse.csr_matrix(np.concatenate([np.ones(S), [0.0]])[None, :])
    c = np.zeros(S + 1)
    c[-1] = 1.0
    res = optimize.linprog(c, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=[1.0],
                           bounds=[(0, None)] * S + [(0, None)], method="highs")
    if res.status != 0:
        raise RuntimeError(f"HiGHS did not solve the best-mixture LP: {res.message}")
    mu = np.clip(res.x[:S], 0.0, None)
    mu /= mu.sum()
    # report the error of the returned mixture itself (>= the LP optimum by at most HiGHS's tolerance)
    err = float(np.max(np.abs(a - A @ mu)))
    return MixtureFit(error=err, mu=mu)


def release_best_mixture_error(error: float, n: int, eps: float, rng: np.random.Generator) -> Release:
    """LVSUW21 Lemma 4.2 / Section 5.5.1: f + Lap(1/(n eps)), eps-DP since f is 1/n-sensitive."""
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n={n!r} out of range: allowed integers >= 1")
    if not (isinstance(error, (int, float, np.floating)) and 0 <= float(error) <= 1):
        raise ValueError(f"error={error!r} out of range: allowed [0, 1]")
    mech = LaplaceMechanism(sensitivity=1.0 / int(n), eps=eps)
    return mech.release(float(error), _check_rng(rng))


@dataclass(frozen=True, eq=False)
class PublicCheck:
    """LVSUW21 Section 5's private check of a public set: ``accept`` iff ``released`` (f + Laplace noise)
    is at most ``threshold``."""

    accept: bool
    released: float
    threshold: float


def check_public_support(true_answers, queries, n: int, eps: float, threshold: float,
                         rng: np.random.Generator) -> Release:
    """LVSUW21 Section 5 ("we can measure the best mixture error with a tiny fraction of the privacy budget
    (such as eps = 0.01)") with Lemma 4.2: release f_{D,Q}(supp(public)) + Lap(1/(n eps)) and accept the
    public support iff the released error is at most the caller's ``threshold``. ``queries`` is the query
    set on the public support (e.g. ``MarginalQueries(domain, workloads, distinct public rows)``) and
    ``true_answers`` q(D) for the n private rows. eps-DP (the accept bit and the released value are
    post-processing of one Laplace release): ``Release(PublicCheck, PureDP(eps))``."""
    if not (isinstance(threshold, (int, float, np.floating)) and np.isfinite(threshold)):
        raise ValueError(f"threshold={threshold!r} out of range: allowed finite numbers")
    f = best_mixture_error(true_answers, queries).error
    released = release_best_mixture_error(min(max(f, 0.0), 1.0), n, eps, rng)
    value = float(released.value)
    return Release(PublicCheck(accept=bool(value <= threshold), released=value, threshold=float(threshold)),
                   released.guarantee)
