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
from dataclasses import dataclass

import numpy as np

from algorithms.learning.agprivcl import AgPrivClParams
from algorithms.learning.subsamp import SubSampParams
from algorithms.learning.unvprivcl import UnvPrivClParams
from simulations import contract
from simulations.experiments._params import Confidence, Controlled, param


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


def claim(successes: int, trials: int, target: float, confidence: float, at_bound: bool, *,
          kind: str = contract.VERDICT, label: str | None = None) -> dict:
    """``contract.claim`` at one confidence, with ``status`` and ``text`` beside ``verdict`` and
    ``verdict_text`` (the NB20 report section and earlier run directories read those names)."""
    c = contract.claim(successes, trials, target, confidence, at_bound=at_bound, kind=kind, label=label)
    return {**c, "status": c["verdict"], "text": c["verdict_text"]}


def trials_for_holds(target: float, confidence: float, verdicts: int) -> int:
    """The least T at which T successes out of T give ``holds`` at the family-wise level: Clopper-Pearson's
    one-sided lower bound ((1 - confidence)/F)^(1/T) >= target, F = ``verdicts`` (Bonferroni, the worst case
    of Holm's step-down)."""
    return int(math.ceil(math.log((1 - confidence) / max(1, verdicts)) / math.log(target)))


@dataclass(frozen=True)
class Setting(Controlled, Confidence):
    """The fields the NB20 experiments (``thm7``, ``thm11``) share: the paper's parameters, the label law of
    the cases, and the run options (the theorem's own n or a fraction of it, the count-based or per-example
    path, the vote-margin lambda)."""
    beta: float = param(0.2, "failure probability beta", within="(0, 1)")
    eps: float = param(0.99, "privacy eps", within="(0, 1)")
    delta: float = param(0.03, "privacy delta", within="(0, 1)")
    noise: float = param(0.1, "label-noise rate gamma of the uniform-noise cases", within="(0, 0.5)")
    boundary_mass: float = param(0.1, "mass of the fair-coin point 8 in boundary_noise", within="(0, 1)")
    per_subsample: int = param(0, "0 = the theorem's own n; s >= 1: n' = s * k in A_AgPrivCl (the first phase "
                                  "in thm11), below the bound: a measurement", within="[0, inf)")
    path: str = param("counts", "counts (labelled histograms, exact laws) or examples (per example; needs "
                                "per_subsample >= 1)", choices=("counts", "examples"))
    lam: str = param("tight", "vote-margin lambda of A_SubSamp: tight (adopted) or cautious (doubled)",
                     choices=tuple(LAMBDAS))

    def check(self) -> None:
        if self.path == "examples" and self.per_subsample < 1:
            raise ValueError(f"path={self.path!r} needs per_subsample >= 1 (got {self.per_subsample}): the "
                             "per-example path cannot hold the theorem's n")
