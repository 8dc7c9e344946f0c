"""NB20: the parameters of Algorithms 3, 4 and 5, read from ``bounds`` at run time (never retyped),
and what the thm7 / thm11 experiments and the NB20 audit targets share.

``subsamp_params`` = bounds nb20:alg5 (lambda, k, w, margin sensitivity), ``agprivcl_params`` = bounds
nb20:alg3 (n'/n, T, eps^, delta^) then nb20:alg5 at (eps^, delta^, beta, m, T), ``unvprivcl_params`` =
bounds nb20:thm11 (m_o, and the first phase at (eps/2, delta, alpha, beta/2, m' = min(m_o, m))).
Whatever bounds says (e.g. a revised vote-margin correction) is what the algorithms run with.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from algorithms.learning.agprivcl import AgPrivClParams
from algorithms.learning.subsamp import SubSampParams
from algorithms.learning.unvprivcl import UnvPrivClParams
from simulations import contract
from simulations.experiments._params import Confidence, Controlled, param


@functools.lru_cache(maxsize=256)
def subsamp_params(eps: float, delta: float, beta: float, num_queries: int, cutoff: float) -> SubSampParams:
    """NB20 Algorithm 5's settings from bounds nb20:alg5 (lambda, k, w and the margin's sensitivity)."""
    import bounds

    c = bounds.compute("nb20:alg5", epsilon=eps, delta=delta, beta=beta, num_queries=num_queries, cutoff=cutoff)
    return SubSampParams(eps=eps, delta=delta, beta=beta, num_queries=int(num_queries), cutoff=float(cutoff),
                         lam=float(c["lambda"]), k=int(math.ceil(c["subsamples"])), w=float(c["threshold"]),
                         margin_sensitivity=float(c["margin_sensitivity"]))


@functools.lru_cache(maxsize=256)
def agprivcl_params(alpha: float, beta: float, eps: float, delta: float, num_queries: int) -> AgPrivClParams:
    """NB20 Algorithm 3's settings from bounds nb20:alg3, A_SubSamp's from nb20:alg5 at (eps^, delta^, beta, m, T)."""
    import bounds

    c = bounds.compute("nb20:alg3", alpha=alpha, beta=beta, epsilon=eps, delta=delta, num_queries=num_queries)
    T, eps_hat, delta_hat = float(c["cutoff"]), float(c["eps_hat"]), float(c["delta_hat"])
    return AgPrivClParams(eps=eps, delta=delta, alpha=alpha, beta=beta, num_queries=int(num_queries),
                          rate=float(c["subsample_fraction"]), cutoff=T, eps_hat=eps_hat, delta_hat=delta_hat,
                          subsamp=subsamp_params(eps_hat, delta_hat, beta, int(num_queries), T))


@functools.lru_cache(maxsize=256)
def unvprivcl_params(alpha: float, beta: float, eps: float, delta: float, d: int,
                     num_queries: int) -> UnvPrivClParams:
    """NB20 Algorithm 4's settings from bounds nb20:thm11: m_o (corrected), m' and the budget split
    (privacy_eps = eps/2, failure_probability = beta/2) for the first phase."""
    import bounds

    c = bounds.compute("nb20:thm11", alpha=alpha, beta=beta, epsilon=eps, delta=delta, vc=d,
                       num_queries=num_queries)
    m_o = int(math.ceil(c["public_samples"]))
    m_first = int(min(m_o, num_queries))
    first = agprivcl_params(alpha, float(c["failure_probability"]), float(c["privacy_eps"]), delta, m_first)
    return UnvPrivClParams(eps=eps, num_queries=int(num_queries), m_o=m_o, first=first)


def sample_labeled(joint: np.ndarray, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """``size`` i.i.d. examples of the labeled law ``joint`` ((N, 2): Pr[x, label 0], Pr[x, label 1])."""
    flat = rng.choice(joint.size, size=size, p=joint.ravel())
    return flat // 2, (flat % 2).astype(bool)


def labeled_histogram(joint: np.ndarray, size: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """The (pos, neg) histogram of ``size`` i.i.d. examples of ``joint`` (one multinomial draw)."""
    counts = rng.multinomial(size, joint.ravel()).reshape(-1, 2).astype(np.float64)
    return counts[:, 1], counts[:, 0]


def claim(successes: int, trials: int, target: float, confidence: float, at_bound: bool, *,
          kind: str = contract.VERDICT, label: str | None = None) -> dict:
    """``contract.claim`` at one confidence, with ``status`` and ``text`` beside ``verdict`` and
    ``verdict_text`` (the NB20 report section and earlier run directories read those names)."""
    c = contract.claim(successes, trials, target, confidence, at_bound=at_bound, kind=kind, label=label)
    return {**c, "status": c["verdict"], "text": c["verdict_text"]}


@dataclass(frozen=True)
class Setting(Controlled, Confidence):
    """The fields the NB20 experiments (``thm7``, ``thm11``) share."""
    beta: float = param(0.2, "failure probability beta", within="(0, 1)")
    eps: float = param(0.99, "privacy eps", within="(0, 1)")
    delta: float = param(0.03, "privacy delta", within="(0, 1)")
    noise: float = param(0.1, "label-noise rate gamma", within="(0, 0.5)")
