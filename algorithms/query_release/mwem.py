"""MWEM (Hardt, Ligett, McSherry 2012, Algorithm 1) over a finite support, with its pure-DP accounting,
and the zCDP variant of LVSUW21 Algorithm 1 (Gaussian measurement, permute-and-flip or exponential
selection) that PMW^Pub reuses with the public data's support and histogram.

Both run T rounds on the shared engine (``mw.MWDistribution``):
  select q_t with probability ~ exp(eps_sel * |q(A_{t-1}) - q(D)| / (2 * (1/n)))  (score sensitivity 1/n),
  measure a_t = q_t(D) + noise,
  update A_t(x) ~ A_{t-1}(x) exp(q_t(x) (a_t - q_t(A_{t-1})) / 2),
and output an average of the iterates. Queries take values in [0, 1]; answers are normalised
(q(D) = fraction of the data), so every query has sensitivity 1/n.

Pure variant (HLM12 Algorithm 1): eps_sel = eps/(2T), a_t = q_t(D) + Lap(2T/(eps n)); output the
mean of A_1..A_T. Each round is eps/T-DP; basic composition gives PureDP(eps).
zCDP variant (LVSUW21 Algorithm 1): eps_0 = eps~/sqrt(2T); selection eps_0-DP (counted as
eps_0^2/2-zCDP, Bun-Steinke Prop. 1.4, as LVSUW21 Theorem 4.5 does); a_t = q_t(D) +
N(0, 1/(n eps_0)^2) clipped to [0, 1] (eps_0^2/2-zCDP); output the mean of A_0..A_{T-1}.
Total ZCDP(T eps_0^2) = ZCDP(eps~^2/2) for every T (LVSUW21 Theorem 4.5).

Replaying past measurements (HLM12 Section 3.3's empirical improvement, off by default):
``replay_passes`` > 0 re-applies the update for every measurement taken so far, that many times
after each round; it is post-processing (no privacy cost) and voids the averaged-iterate analysis.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..classes.finite import validate_indices
from ..privacy import (
    Accountant,
    GaussianMechanism,
    LaplaceMechanism,
    PureDP,
    Release,
    pure_to_zcdp,
)
from ..validate import check_positive_finite as _check_positive_finite
from ..validate import check_rng as _check_rng
from .mw import IncrementalMWDistribution, LinearQueries, MWDistribution, as_queries

__all__ = ["MWEMResult", "mw_rounds", "mwem", "mwem_from_answers", "mwem_zcdp", "mwem_zcdp_from_answers",
           "true_answers_of"]

_SELECTIONS = ("exponential", "permute_and_flip")


@dataclass(frozen=True, eq=False)
class MWEMResult:
    """Output of MWEM / LVSUW21 Algorithm 1.

    synthetic: the averaged distribution A over the support.
    answers: q(A) for every query ([0, 1], the queries' scale).
    selected, measurements: q_t and a_t of every round (a_t after clipping, if any).
    final: the last iterate A_T.
    """

    synthetic: np.ndarray
    answers: np.ndarray
    selected: np.ndarray
    measurements: np.ndarray
    final: np.ndarray


def _check_T(T) -> int:
    if isinstance(T, bool) or not isinstance(T, (int, np.integer)) or T < 1:
        raise ValueError(f"T={T!r} out of range: allowed integers >= 1")
    return int(T)


def _check_selection(selection: str) -> str:
    if selection not in _SELECTIONS:
        raise ValueError(f"selection={selection!r} out of range: allowed {_SELECTIONS}")
    return selection


def _check_true_answers(true_answers, num_queries: int) -> np.ndarray:
    t = np.asarray(true_answers, dtype=np.float64)
    if t.shape != (num_queries,):
        raise ValueError(f"true_answers must have one value per query, shape ({num_queries},), got {t.shape}")
    if not np.all(np.isfinite(t)) or t.min() < 0.0 or t.max() > 1.0:
        raise ValueError("true_answers must be finite and in [0, 1] (normalised counting-query answers)")
    return t


def _initial(initial, support_size: int) -> MWDistribution:
    if initial is None:
        return MWDistribution.uniform(support_size)
    if isinstance(initial, (MWDistribution, IncrementalMWDistribution)):
        if initial.support_size != support_size:
            raise ValueError(f"initial has support size {initial.support_size}, queries have {support_size}")
        return initial.copy()
    dist = MWDistribution.from_histogram(initial)
    if dist.support_size != support_size:
        raise ValueError(f"initial has length {dist.support_size}, queries have support size {support_size}")
    return dist


def true_answers_of(data, queries) -> tuple[np.ndarray, int]:
    """q(D) = (1/n) sum_i q(x_i) for every query, and n, for data given as support point indices."""
    q = as_queries(queries)
    x = validate_indices(data, q.support_size, "data")
    hist = np.bincount(x, minlength=q.support_size) / x.size
    return np.clip(q.answer(hist), 0.0, 1.0), int(x.size)


def select_index(scores: np.ndarray, eps: float, sensitivity: float, selection: str,
                 rng: np.random.Generator) -> int:
    """One eps-DP selection by score, sampled with a single vectorised draw (the MW loop's hot path).

    "exponential": McSherry-Talwar, Pr[r] ~ exp(eps u(r) / (2 Delta)), by the Gumbel-max trick
    (the law of ``privacy.ExponentialMechanism``). "permute_and_flip": McKenna-Sheldon (2020)
    Algorithm 1, sampled as report-noisy-max with exponential noise, argmax_r eps u(r)/(2 Delta) +
    Exp(1), which has exactly permute-and-flip's law (Ding, Kifer, Wang, Zhang 2021, "The
    permute-and-flip mechanism is identical to report-noisy-max with exponential noise"); checked
    against ``privacy.permute_and_flip_probabilities`` in tests. Both are eps-DP.
    """
    factor = eps / (2.0 * sensitivity)
    if selection == "exponential":
        noise = rng.gumbel(size=scores.size)
    else:
        noise = rng.exponential(size=scores.size)
    return int(np.argmax(factor * (scores - scores.max()) + noise))


def mw_rounds(initial, queries: LinearQueries, true_answers: np.ndarray, n: int, T: int,
              rng: np.random.Generator, *, select_eps: float, selection: str, measure, clip: bool,
              average_previous: bool, replay_passes: int = 0, replay_threshold: bool = False) -> MWEMResult:
    """HLM12 Algorithm 1 / LVSUW21 Algorithm 1's loop, privacy-agnostic (the callers account).

    ``initial``: an ``MWDistribution`` or an ``IncrementalMWDistribution`` (mutated).
    ``measure(value, rng)`` returns the noisy measurement of one true answer. With
    ``average_previous`` the output averages A_0..A_{T-1} (LVSUW21), else A_1..A_T (HLM12).
    ``replay_threshold`` (LVSUW21 Section 5.3, post-processing): round t's single update is
    replaced by one pass, in random order, over every past measurement i <= t whose current error
    c_i = |q_i(A) - a_i| is at least c_t / 2 (c_t = round t's own error, so q_t is always in it),
    each update using q_i(A) at the time it is applied. The paper does not say whether c_i is
    taken before or after round t's update; here it is before (on the distribution q_t was
    selected on).
    """
    dist = initial
    selected = np.empty(T, dtype=np.intp)
    measured = np.empty(T)
    sens = 1.0 / n
    for t in range(T):
        syn = dist.answer(queries)
        if average_previous:
            dist.accumulate()
        scores = np.abs(syn - true_answers)
        i = select_index(scores, select_eps, sens, selection, rng)
        a = float(measure(true_answers[i], rng))
        if clip:
            a = min(1.0, max(0.0, a))
        selected[t], measured[t] = i, a
        if replay_threshold:
            past_q, past_a = selected[: t + 1], measured[: t + 1]
            c = np.abs(syn[past_q] - past_a)
            chosen = np.flatnonzero(c >= c[t] / 2.0)
            for k in rng.permutation(chosen):
                j = int(past_q[k])
                qj = float(dist.answer(queries, np.array([j]))[0])
                dist.update_query(queries, j, (past_a[k] - qj) / 2.0)
        else:
            dist.update_query(queries, i, (a - syn[i]) / 2.0)
        for _ in range(replay_passes):
            for j, aj in zip(selected[: t + 1], measured[: t + 1]):
                qj = float(dist.answer(queries, np.array([j]))[0])
                dist.update_query(queries, int(j), (aj - qj) / 2.0)
        if not average_previous:
            dist.accumulate()
    synthetic = dist.average()
    return MWEMResult(synthetic=synthetic, answers=queries.answer(synthetic), selected=selected,
                      measurements=measured, final=np.array(dist.probabilities()))


def _check_replay(replay_passes) -> int:
    if isinstance(replay_passes, bool) or not isinstance(replay_passes, (int, np.integer)) or replay_passes < 0:
        raise ValueError(f"replay_passes={replay_passes!r} out of range: allowed integers >= 0")
    return int(replay_passes)


def _check_inputs(queries, true_answers, n, T, rng, selection, replay_passes):
    """The validation both MWEM variants share; returns the checked values."""
    q = as_queries(queries)
    rng = _check_rng(rng)
    T = _check_T(T)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n={n!r} out of range: allowed integers >= 1")
    true = _check_true_answers(true_answers, q.num_queries)
    return q, true, int(n), T, rng, _check_selection(selection), _check_replay(replay_passes)


def mwem_from_answers(true_answers, n: int, queries, eps: float, T: int, rng: np.random.Generator, *,
                      selection: str = "exponential", initial=None, replay_passes: int = 0) -> Release:
    """HLM12 Algorithm 1 (MWEM), given q(D) for every query (each of sensitivity 1/n on the private data).

    queries: a FiniteClass (its counting queries 1{h = +1}), a [0, 1] matrix (queries x support) or a
    ``LinearQueries``; initial: None (uniform), a histogram or an ``MWDistribution`` over the support.
    Returns ``Release(MWEMResult, PureDP(eps))``: T rounds of eps/(2T) selection + eps/(2T) Laplace.
    """
    q, true, n, T, rng, selection, replay_passes = _check_inputs(
        queries, true_answers, n, T, rng, selection, replay_passes)
    eps = _check_positive_finite("eps", eps)
    acct = Accountant()
    half = eps / (2.0 * T)
    lap = LaplaceMechanism(sensitivity=1.0 / n, eps=half)
    for t in range(T):
        acct.spend(f"select t={t + 1}", PureDP(half))
        acct.spend(f"measure t={t + 1}", lap.guarantee)
    result = mw_rounds(_initial(initial, q.support_size), q, true, int(n), T, rng, select_eps=half,
                       selection=selection, measure=lambda v, r: lap.release(v, r).value, clip=False,
                       average_previous=False, replay_passes=replay_passes)
    return Release(result, acct.total())


def mwem(data, queries, eps: float, T: int, rng: np.random.Generator, *, selection: str = "exponential",
         initial=None, replay_passes: int = 0) -> Release:
    """HLM12 Algorithm 1 (MWEM) on a data set of support point indices: ``mwem_from_answers`` on q(D)."""
    true, n = true_answers_of(data, queries)
    return mwem_from_answers(true, n, queries, eps, T, rng, selection=selection, initial=initial,
                             replay_passes=replay_passes)


def mwem_zcdp_from_answers(true_answers, n: int, queries, eps_tilde: float, T: int, rng: np.random.Generator,
                           *, selection: str = "permute_and_flip", initial=None,
                           replay_passes: int = 0, replay_threshold: bool = False) -> Release:
    """LVSUW21 Algorithm 1's loop (PMW^Pub when ``queries``/``initial`` live on the public support).

    true_answers: q(D~) for every query, computed on the private data (sensitivity 1/n each).
    queries: the queries' values on the support (FiniteClass, [0, 1] matrix or ``LinearQueries``).
    initial: None (uniform over the support; plain MWEM), the public histogram (LVSUW21 A_0), or an
    ``MWDistribution`` / ``IncrementalMWDistribution`` (copied; the latter for workload queries).
    replay_threshold: LVSUW21 Section 5.3's replay of past measurements (see ``mw_rounds``).
    eps_0 = eps~ / sqrt(2T); selection eps_0 (exponential or permute-and-flip), Gaussian measurement
    sigma = 1/(n eps_0) clipped to [0, 1]. Returns ``Release(MWEMResult, ZCDP(eps~^2 / 2))``
    (composed per round by the accountant: T (eps_0^2/2 + eps_0^2/2)).
    """
    q, true, n, T, rng, selection, replay_passes = _check_inputs(
        queries, true_answers, n, T, rng, selection, replay_passes)
    eps_tilde = _check_positive_finite("eps_tilde", eps_tilde)
    eps0 = eps_tilde / math.sqrt(2.0 * T)
    gauss = GaussianMechanism.zcdp(sensitivity=1.0 / n, rho=eps0**2 / 2.0)
    acct = Accountant()
    for t in range(T):
        acct.spend(f"select t={t + 1}", pure_to_zcdp(PureDP(eps0)))
        acct.spend(f"measure t={t + 1}", gauss.guarantee)
    result = mw_rounds(_initial(initial, q.support_size), q, true, int(n), T, rng, select_eps=eps0,
                       selection=selection, measure=lambda v, r: gauss.release(v, r).value, clip=True,
                       average_previous=True, replay_passes=replay_passes,
                       replay_threshold=bool(replay_threshold))
    return Release(result, acct.total())


def mwem_zcdp(data, queries, eps_tilde: float, T: int, rng: np.random.Generator, *,
              selection: str = "permute_and_flip", initial=None, replay_passes: int = 0) -> Release:
    """LVSUW21 Algorithm 1 with the support = the data's domain: ``mwem_zcdp_from_answers`` on q(D)."""
    true, n = true_answers_of(data, queries)
    return mwem_zcdp_from_answers(true, n, queries, eps_tilde, T, rng, selection=selection,
                                  initial=initial, replay_passes=replay_passes)
