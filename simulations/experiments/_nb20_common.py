"""NB20: the parameters of Algorithms 3, 4 and 5, read from ``bounds`` at run time (never retyped),
and what the thm7 / thm11 experiments and the NB20 audit targets share.

``subsamp_params`` = bounds nb20:alg5 (lambda, k, w, margin sensitivity), ``agprivcl_params`` = bounds
nb20:alg3 (n'/n, T, eps^, delta^) then nb20:alg5 at (eps^, delta^, beta, m, T), ``unvprivcl_params`` =
bounds nb20:thm11 (m_o, and the first phase at (eps/2, delta, alpha, beta/2, m' = min(m_o, m))).
Whatever bounds says (e.g. a revised vote-margin correction) is what the algorithms run with.

``LAMBDAS``: which of bounds' vote-margin lambdas A_SubSamp runs. ``"tight"`` (the default): lambda_tight,
subsamples_tight, threshold_tight, with A_SubSamp declaring the composition of its rounds (the bound
lambda_tight rests on); ``"cautious"``: the doubled lambda, declaring SparseVector's closed form.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from algorithms.learning.agprivcl import AgPrivClParams
from algorithms.learning.subsamp import SubSampParams
from algorithms.learning.unvprivcl import UnvPrivClParams


LAMBDAS = {"tight": ("lambda_tight", "subsamples_tight", "threshold_tight", "composition"),
           "cautious": ("lambda", "subsamples", "threshold", "sparse_vector")}


@functools.lru_cache(maxsize=256)
def subsamp_params(eps: float, delta: float, beta: float, num_queries: int, cutoff: float,
                   lam: str = "tight") -> SubSampParams:
    """NB20 Algorithm 5's settings from bounds nb20:alg5 (lambda, k, w and the margin's sensitivity) at the
    lambda named by ``lam`` (``LAMBDAS``)."""
    import bounds

    if lam not in LAMBDAS:
        raise ValueError(f"lam={lam!r}: allowed {sorted(LAMBDAS)}")
    lam_q, k_q, w_q, accounting = LAMBDAS[lam]
    c = bounds.compute("nb20:alg5", epsilon=eps, delta=delta, beta=beta, num_queries=num_queries, cutoff=cutoff)
    return SubSampParams(eps=eps, delta=delta, beta=beta, num_queries=int(num_queries), cutoff=float(cutoff),
                         lam=float(c[lam_q]), k=int(math.ceil(c[k_q])), w=float(c[w_q]),
                         margin_sensitivity=float(c["margin_sensitivity"]), accounting=accounting)


@functools.lru_cache(maxsize=256)
def agprivcl_params(alpha: float, beta: float, eps: float, delta: float, num_queries: int,
                    lam: str = "tight") -> AgPrivClParams:
    """NB20 Algorithm 3's settings from bounds nb20:alg3, A_SubSamp's from nb20:alg5 at (eps^, delta^, beta, m, T)."""
    import bounds

    c = bounds.compute("nb20:alg3", alpha=alpha, beta=beta, epsilon=eps, delta=delta, num_queries=num_queries)
    T, eps_hat, delta_hat = float(c["cutoff"]), float(c["eps_hat"]), float(c["delta_hat"])
    return AgPrivClParams(eps=eps, delta=delta, alpha=alpha, beta=beta, num_queries=int(num_queries),
                          rate=float(c["subsample_fraction"]), cutoff=T, eps_hat=eps_hat, delta_hat=delta_hat,
                          subsamp=subsamp_params(eps_hat, delta_hat, beta, int(num_queries), T, lam))


@functools.lru_cache(maxsize=256)
def unvprivcl_params(alpha: float, beta: float, eps: float, delta: float, d: int,
                     num_queries: int, lam: str = "tight") -> UnvPrivClParams:
    """NB20 Algorithm 4's settings from bounds nb20:thm11: m_o (corrected), m' and the budget split
    (privacy_eps = eps/2, failure_probability = beta/2) for the first phase."""
    import bounds

    c = bounds.compute("nb20:thm11", alpha=alpha, beta=beta, epsilon=eps, delta=delta, vc=d,
                       num_queries=num_queries)
    m_o = int(math.ceil(c["public_samples"]))
    m_first = int(min(m_o, num_queries))
    first = agprivcl_params(alpha, float(c["failure_probability"]), float(c["privacy_eps"]), delta, m_first, lam)
    return UnvPrivClParams(eps=eps, num_queries=int(num_queries), m_o=m_o, first=first)


def sample_labeled(joint: np.ndarray, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``size`` i.i.d. examples of the labeled law ``joint`` ((N, 2): Pr[x, label 0], Pr[x, label 1])."""
    flat = rng.choice(joint.size, size=size, p=joint.ravel())
    return flat // 2, (flat % 2).astype(bool)


def labeled_histogram(joint: np.ndarray, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The (pos, neg) histogram of ``size`` i.i.d. examples of ``joint`` (one multinomial draw)."""
    counts = rng.multinomial(size, joint.ravel()).reshape(-1, 2).astype(np.float64)
    return counts[:, 1], counts[:, 0]


def check_params(params, cases: tuple, unit: tuple, integers: tuple) -> None:
    """Validation shared by the NB20 experiments' Params: ``cases`` a non-empty tuple drawn from ``cases``,
    the ``unit`` fields in (0, 1), ``noise`` in (0, 1/2), the ``integers`` fields integers >= 1."""
    if not isinstance(params.cases, tuple) or not params.cases or any(c not in cases for c in params.cases):
        raise ValueError(f"cases={params.cases!r} must be a non-empty tuple drawn from {cases}")
    for name in unit:
        v = getattr(params, name)
        if not (isinstance(v, (int, float)) and 0 < v < 1):
            raise ValueError(f"{name}={v!r} out of range: allowed (0, 1)")
    if not (isinstance(params.noise, (int, float)) and 0 < params.noise < 0.5):
        raise ValueError(f"noise={params.noise!r} out of range: allowed (0, 0.5)")
    for name in integers:
        v = getattr(params, name)
        if not (isinstance(v, int) and v >= 1):
            raise ValueError(f"{name}={v!r} out of range: allowed integers >= 1")


def check_run_options(params, controls: dict) -> None:
    """Validation shared by thm7 and thm11: ``per_subsample`` (0 = the theorem's n), ``path`` (counts, or
    examples below the bound), ``lam`` (a key of ``LAMBDAS``) and ``variant`` (contract's convention)."""
    from simulations import contract

    if not (isinstance(params.per_subsample, int) and params.per_subsample >= 0):
        raise ValueError(f"per_subsample={params.per_subsample!r} out of range: allowed integers >= 0")
    if params.path not in ("counts", "examples") or (params.path == "examples" and params.per_subsample < 1):
        raise ValueError(f"path={params.path!r} must be counts, or examples with per_subsample >= 1")
    if params.lam not in LAMBDAS:
        raise ValueError(f"lam={params.lam!r} must be one of {', '.join(LAMBDAS)}")
    contract.check_variant(params.variant, controls)
