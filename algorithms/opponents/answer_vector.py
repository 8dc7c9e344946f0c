"""Dwork-Roth (2014) Theorems 3.6 and A.1 with Balle-Wang (2018) Theorem 8: the Laplace and Gaussian
mechanisms on the whole answer vector of a finite query class, the private-only releases a referee brings first.

Answers are on BCMNUW20 Definition 5's [-1, 1] scale: a_h = (1/n) sum_j h(x_j) with h(x) in {-1, +1}. Replacing
one of the n private points moves every answer by at most 2/n, so the vector of k answers has L1 sensitivity
2k/n and L2 sensitivity 2 sqrt(k)/n (neighbouring data sets differ in one point; n is public). The noisy answers
are clipped to [-1, 1] (post-processing, which only brings them closer to any answer in [-1, 1]).

Marginal workloads (``workloads`` = W): the answers are W histograms of fractions on [0, 1] (LVSUW21's k-way
marginals), every point in exactly one cell of each, so replacing one point moves two cells of each histogram by
1/n: L1 sensitivity 2W/n and L2 sensitivity sqrt(2W)/n (:func:`workload_sensitivities`), whatever the number of
cells; the noisy answers are clipped to [0, 1].

* :func:`gaussian_answers`: N(0, sigma^2) on every answer, sigma from the exact analytic calibration
  (``GaussianMechanism.analytic``: the least sigma that is (eps, delta)-DP) or from a zCDP budget rho
  (``GaussianMechanism.zcdp``); declares ApproxDP(eps, delta) or ZCDP(rho).
* :func:`laplace_answers`: Lap(2k/(n eps)) on every answer; declares PureDP(eps).

Their sample-size bounds are ``baselines:gaussian`` and ``baselines:laplace`` in ``bounds``.

``fallback_beta``: where the noise is so large that its union quantile over the k answers (the level that all k
stay below w.p. 1 - fallback_beta/2, the bound's own tail) reaches 1, the half-width of [-1, 1], the release is
the constant 0 instead (a choice made from n, k, eps, delta alone: post-processing, no privacy spent on it), so
that the opponent is never the noise-swamped release a referee would not bring. None (default): always the noisy
answers, the release the bounds analyse.
"""
from __future__ import annotations

import math

import numpy as np

from ..privacy import Release
from ..privacy.mechanisms import GaussianMechanism, LaplaceMechanism
from ..validate import check_int, check_rng, check_values

REALISES = ("baselines:gaussian", "baselines:laplace")

__all__ = ["answer_sensitivities", "workload_sensitivities", "gaussian_answers", "laplace_answers"]


def _answers(answers, low: float = -1.0) -> np.ndarray:
    a = check_values("answers", answers)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"answers has shape {a.shape}: allowed a non-empty 1-d array of answers in [{low:g}, 1]")
    if a.min() < low or a.max() > 1.0:
        raise ValueError(f"answers must lie in [{low:g}, 1]" + (" (BCMNUW20 Definition 5's scale)" if low < 0 else
                                                                " (fractions of marginal workloads)"))
    return a


def workload_sensitivities(num_workloads: int, n: int) -> tuple[float, float]:
    """(L1, L2) sensitivity of W histograms of fractions of n points under replacement: (2W/n, sqrt(2W)/n)."""
    w = check_int("num_workloads", num_workloads)
    n = check_int("n", n)
    return 2.0 * w / n, math.sqrt(2.0 * w) / n


def _setup(answers, n: int, workloads: int | None):
    """The answers checked on their scale, the (L1, L2) sensitivities and the clipping range."""
    if workloads is None:
        a = _answers(answers)
        return a, answer_sensitivities(a.size, n), -1.0
    return _answers(answers, 0.0), workload_sensitivities(workloads, n), 0.0


def answer_sensitivities(num_queries: int, n: int) -> tuple[float, float]:
    """(L1, L2) sensitivity of k answers on [-1, 1] of n points under replacement: (2k/n, 2 sqrt(k)/n)."""
    k = check_int("num_queries", num_queries)
    n = check_int("n", n)
    return 2.0 * k / n, 2.0 * math.sqrt(k) / n


def _swamped(noise_quantile: float, low: float = -1.0) -> bool:
    return noise_quantile >= (1.0 - low) / 2  # the half-width of the answers' range


def gaussian_answers(answers, n: int, rng: np.random.Generator, *, eps: float | None = None,
                     delta: float | None = None, rho: float | None = None,
                     fallback_beta: float | None = None, workloads: int | None = None) -> Release:
    """Dwork-Roth (2014) Theorem A.1 / Balle-Wang (2018) Theorem 8: the private sample's exact answers ``answers``
    (length k) plus one draw of N(0, sigma^2 I), clipped to [-1, 1] (``workloads``: W marginal histograms, [0, 1]).
    Give ``eps`` and ``delta`` (the analytic calibration, ApproxDP(eps, delta)) or ``rho`` (Bun-Steinke Prop. 1.6,
    ZCDP(rho))."""
    a, (_, l2), low = _setup(answers, n, workloads)
    if rho is not None:
        if eps is not None or delta is not None:
            raise ValueError("give either rho, or eps and delta, not both")
        mech = GaussianMechanism.zcdp(l2, rho)
    elif eps is None or delta is None:
        raise ValueError("give either rho, or eps and delta")
    else:
        mech = GaussianMechanism.analytic(l2, eps, delta)
    noisy = a + check_rng(rng).normal(0.0, mech.sigma, size=a.shape)
    if fallback_beta is not None and _swamped(mech.sigma * math.sqrt(2 * math.log(2 * a.size / fallback_beta)), low):
        return Release(np.zeros_like(a), mech.guarantee)
    return Release(np.clip(noisy, low, 1.0), mech.guarantee)


def laplace_answers(answers, n: int, eps: float, rng: np.random.Generator, *,
                    fallback_beta: float | None = None, workloads: int | None = None) -> Release:
    """Dwork-Roth (2014) Theorem 3.6: ``answers`` (length k) plus i.i.d. Lap(2k/(n eps)) (``workloads`` = W:
    Lap(2W/(n eps)) on W marginal histograms), clipped; PureDP(eps)."""
    a, (l1, _), low = _setup(answers, n, workloads)
    mech = LaplaceMechanism(l1, eps)
    noisy = a + check_rng(rng).laplace(0.0, mech.scale, size=a.shape)
    if fallback_beta is not None and _swamped(mech.scale * math.log(2 * a.size / fallback_beta), low):
        return Release(np.zeros_like(a), mech.guarantee)
    return Release(np.clip(noisy, low, 1.0), mech.guarantee)
