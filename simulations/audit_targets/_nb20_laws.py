"""NB20 Algorithms 3-6 and Lemma 5 (privacy): the exact output laws of the NB20 audit targets' mechanisms at their
small settings, and the exact privacy loss of a neighbouring pair from them (``simulations.audit_targets.nb20``).
Not a target module (its name starts with ``_``: discovery skips it).

The loss of a pair (``eps_at_delta``): the least eps at which the two output laws P, Q are (eps, delta)-
indistinguishable at the declared delta, both directions, sup_E P(E) - e^eps Q(E) <= delta (delta = 0: the largest
|log P(o) / Q(o)|), as the sibling targets give it (noisy_erm.py, public_fit.py). For discrete laws it is exactly
the largest log((P(E) - delta) / Q(E)) over the sets E of the j outputs of largest P / Q (the hockey-stick
divergence's optimal sets are these "top-j" sets, so at the least eps one of them meets delta with equality).

Laws (each derived in its function's docstring; the tests hold each to the mechanism's own draws):

* A_stab on a vote margin M: Pr[release] = Pr[M + Lap(Delta / eps) > Delta Gamma] (``stab_release_probability``).
* A o A_Relabel (Lemma 5): a mixture over h^ (A_Relabel's exact law) of Laplace laws centred at the positives of S''
  (``relabel_centre_weights``, ``laplace_mixture_loss``).
* A_SubSamp end to end on one point (thresholds(N=1)), S = 3k records: the vote count V (sub-samples of 3 records
  with at least 2 labels 1) of a uniformly random split, then one SparseVector round (``subsamp_answer_table``).
* A_AgPrivCl end to end on one point: S' hypergeometric, h^ by A_Relabel's exponential mechanism, every sub-sample
  of S'' agrees (margin k), one SparseVector round (``agprivcl_answer_probability``); with step 2 skipped (the
  broken twins) S' is the fixed S_fix (``agprivcl_fixed_answer_probability``).
"""

from __future__ import annotations

import functools
import math

import numpy as np
from scipy import special as ssp
from scipy import stats as sst

from algorithms.learning.relabel import EPS_TILDE
from algorithms.learning.subsamp import SubSampParams, erm_rows, laplace_difference_tail
from algorithms.privacy.stability import DistanceToInstability, laplace_tail
from simulations._audit_pairs import eps_at_delta  # re-exported: the loss of two finite laws


def stab_release_probability(mech: DistanceToInstability, margin: float) -> float:
    """NB20 Algorithm 6: Pr[margin + Lap(Delta / eps) > Delta Gamma] = Pr[Lap(1 / eps') > Delta Gamma - margin],
    eps' = 1 / noise scale (``laplace_tail``)."""
    return laplace_tail(mech.effective_threshold - float(margin), 1.0 / mech.noise_scale)


def laplace_mixture_loss(w0: np.ndarray, w1: np.ndarray, eps: float) -> float:
    """sup over real o of |log f0(o) / f1(o)| for f_i(o) = sum_c w_i[c] (eps / 2) e^{-eps |o - c|}, centres c the
    integers 0..len - 1. Between two consecutive integers each density is A e^{eps o} + B e^{-eps o}, so the ratio
    (A0 u + B0) / (A1 u + B1), u = e^{2 eps o}, is monotone there; beyond the last (first) integer both densities are
    e^{-eps o} (e^{eps o}) times a constant, so the ratio is the endpoint's: the sup is at an integer 0..len - 1."""
    c = np.arange(w0.size, dtype=float)
    kern = np.exp(-eps * np.abs(c[:, None] - c[None, :]))           # kern[o, c]
    with np.errstate(divide="ignore"):
        r = np.log(kern @ w0) - np.log(kern @ w1)
    return float(np.max(np.abs(r)))


def laplace_mixture_cdf(w: np.ndarray, eps: float, o: np.ndarray) -> np.ndarray:
    """The CDF at ``o`` of sum_c w[c] Lap(c, 1 / eps) (centres the integers 0..len - 1)."""
    c = np.arange(w.size, dtype=float)
    return sst.laplace.cdf(np.asarray(o, dtype=float)[:, None], loc=c[None, :], scale=1.0 / eps) @ w


def _stable_probability(params: SubSampParams, margin) -> np.ndarray:
    """NB20 Algorithm 5 steps 9-10 as SparseVector's first round: stable iff margin + Lap(2 lambda) > w + Lap(lambda)
    (the SparseVector reports a top when -margin + Lap(2 sigma) >= -w + Lap(sigma), sigma = lambda), so
    Pr[stable] = Pr[Lap(2 lambda) - Lap(lambda) > w - margin] (``laplace_difference_tail``)."""
    return np.array([laplace_difference_tail(params.w - float(d), 2.0 * params.lam, params.lam)
                     for d in np.atleast_1d(margin)])


def majority_vote_laws(k: int, last: int) -> np.ndarray:
    """Rows P = 0..``last`` (last <= 3k/2): the exact law of V, the number of the k blocks of 3 with at least 2
    labels 1, when P labels 1 among 3k records are split uniformly into the blocks. The counts c_P(v) = [z^P t^v]
    g^k, g = 1 + 3z + 3t z^2 + t z^3 (a block's generating function: labels 1 by z, a majority block by t), satisfy
    g z G' = k z g' G, i.e. P c_P(v) = (3k - 3(P-1)) c_{P-1}(v) + (6k - 3(P-2)) c_{P-2}(v-1) + (3k - (P-3))
    c_{P-3}(v-1); divided by C(3k, P) they are the probabilities. The first coefficient is negative for P > k + 1,
    where the recurrence subtracts: tests/simulations/test_nb20_pair_loss.py holds it to the direct sum
    C(k, v) sum_i C(v, i) C(k - v, P - 2v - i) 3^{P - v - 2i} / C(3k, P) (within 1e-11 at k = 3093, P = 3k/2, far
    below the differences the losses read). P > 3k/2 is read from 3k - P by exchanging the labels (V -> k - V)."""
    n = 3 * k
    if not 0 <= last <= n // 2:
        raise ValueError(f"last={last} out of range: allowed 0..{n // 2}")
    out = np.zeros((last + 1, k + 1))
    out[0, 0] = 1.0
    for P in range(1, last + 1):
        r1 = P / (n - P + 1)                        # C(n, P-1) / C(n, P)
        r2 = r1 * (P - 1) / (n - P + 2)             # C(n, P-2) / C(n, P)
        r3 = r2 * (P - 2) / (n - P + 3)             # C(n, P-3) / C(n, P)
        row = (3 * k - 3 * (P - 1)) * r1 * out[P - 1]
        if P >= 2:
            row[1:] += (6 * k - 3 * (P - 2)) * r2 * out[P - 2, :-1]
        if P >= 3:
            row[1:] += (3 * k - (P - 3)) * r3 * out[P - 3, :-1]
        out[P] = row / P
    return out


def subsamp_answer_given_votes(params: SubSampParams) -> np.ndarray:
    """a(v) = Pr[answer 1 | V = v votes for 1 among k], v = 0..k (one query, one SparseVector round): the majority
    (ties to 0, ``vote_margins``) when stable, a fair coin when not (unstable with probability u = 1 - s at margin
    d = |2v - k|, read directly as Pr[Lap(2 lambda) - Lap(lambda) > d - w] by the symmetry of that difference, so a
    coin probability near 0 keeps its digits): a(v) = 1 - u / 2 above the tie, u / 2 at or below it."""
    return _answer_laws_given_votes(params)[:, 1]


def _answer_laws_given_votes(params: SubSampParams) -> np.ndarray:
    """Rows v = 0..k: (Pr[answer 0], Pr[answer 1]) given v votes (``subsamp_answer_given_votes``), each side's
    coin probability u / 2 kept (not read as 1 minus the other)."""
    v = np.arange(params.k + 1)
    u = np.array([laplace_difference_tail(float(d) - params.w, 2.0 * params.lam, params.lam)
                  for d in np.abs(2 * v - params.k)])
    maj = 2 * v > params.k
    return np.stack([np.where(maj, u / 2.0, 1.0 - u / 2.0), np.where(maj, 1.0 - u / 2.0, u / 2.0)], axis=1)


def subsamp_no_split_answer_law(params: SubSampParams, cls, counts: np.ndarray) -> np.ndarray:
    """(Pr[answer 0], Pr[answer 1]) at point 0 of A_SubSamp with the split skipped (the broken twin): every h_j =
    ERM(S) (``erm_rows`` on the labelled histogram ``counts``), so all k votes are ERM(S)(0): the law at 0 or k votes
    (an answer against them is the coin's u(k) / 2 = 1.8e-50 at the target's k: kept, so the loss is finite)."""
    h = erm_rows(cls, counts[:, 1][None, :], counts.sum(axis=1)[None, :])[0]
    return _answer_laws_given_votes(params)[params.k * int(cls.matrix[h, 0])]


@functools.lru_cache(maxsize=4)
def subsamp_answer_table(params: SubSampParams) -> np.ndarray:
    """Pr[answer 1 at the point | P labels 1 in S], P = 0..3k, for A_SubSamp (one query, T = 1) on S of 3k records
    at the single point of thresholds(N=1): sub-samples of 3 (no remainder) whose ERM is h_1 iff it holds >= 2
    labels 1, V such votes (``majority_vote_laws``), margin |2V - k| (k odd: no tie), then the answer is the
    majority when stable (``_stable_probability``), a fair coin when not:
    Pr[1 | V] = s(|2V - k|) [2V > k] + (1 - s(|2V - k|)) / 2."""
    k = params.k
    n = 3 * k
    a = subsamp_answer_given_votes(params)
    laws = majority_vote_laws(k, n // 2)
    low = laws @ a                     # P <= n // 2
    high = laws @ a[::-1]              # P = n - row: the labels exchanged, V -> k - V
    return np.r_[low, high[: n - n // 2][::-1]]


HOEFFDING_LOG = 120.0   # pos' is summed over mean +- sqrt(60 n'): Hoeffding (sampling without replacement too)
                        # leaves out mass <= 2 e^{-120} = 2.6e-52, below a double's resolution of the sums


@functools.lru_cache(maxsize=512)
def agprivcl_answer_probability(params, n: int, positives: int) -> float:
    """Pr[first answer 1] of A_AgPrivCl (count path, one point, thresholds(N=1)) on S of n records, ``positives``
    labels 1: S' = n' = floor(rate n) of them without replacement (pos' hypergeometric), h^ = h_1 with A_Relabel's
    exponential-mechanism probability 1 / (1 + e^{eps~ (neg' - pos') / 2}) (score -err / n', sensitivity 1 / n';
    eps~ = 1), S'' relabelled by h^ holds one cell so every resampled sub-sample's ERM is h^ (margin k), and the
    answer is h^(0) when stable, a fair coin when not: s(k) f + (1 - s(k)) / 2. (pos' beyond ``HOEFFDING_LOG``'s
    window is left out of f: its mass is below 2.6e-52.)"""
    n1 = params.n_prime(n)
    lo, hi = max(0, n1 - (n - positives)), min(positives, n1)
    mean, t = n1 * positives / n, math.ceil(math.sqrt(HOEFFDING_LOG * n1 / 2.0))
    lo, hi = max(lo, math.floor(mean) - t), min(hi, math.ceil(mean) + t)   # outside: mass <= 2 e^{-HOEFFDING_LOG}
    j = np.arange(lo, hi + 1)
    pmf = sst.hypergeom.pmf(j, n, positives, n1)
    f = float(pmf @ ssp.expit(-EPS_TILDE * (n1 - 2.0 * j) / 2.0))
    return _answer_given_h1(params, f)


def _answer_given_h1(params, f: float) -> float:
    """Pr[answer 1] when h^ = h_1 with probability f and S'' holds one cell (margin k): s(k) f + (1 - s(k)) / 2."""
    s = float(_stable_probability(params.subsamp, params.subsamp.k)[0])
    return s * f + (1.0 - s) / 2.0


def agprivcl_fixed_answer_probability(params, negatives: int, positives: int) -> float:
    """Pr[first answer 1] of A_AgPrivCl with step 2 skipped (the broken twins: S' = a fixed S_fix of n' records on
    the single point): h^ = h_1 with A_Relabel's probability 1 / (1 + e^{eps~ (neg' - pos') / 2}) on S_fix itself,
    then as ``agprivcl_answer_probability`` (one cell, margin k)."""
    return _answer_given_h1(params, float(ssp.expit(-EPS_TILDE * (negatives - positives) / 2.0)))


def sspp_one_point_probability(eps: float, negatives: int, positives: int) -> float:
    """ABM19 Algorithm 1 on one point (H~ = {h_0, h_1}): Pr[h_priv = h_1] = 1 / (1 + e^{eps (neg - pos) / 2})
    (the exponential mechanism at eps on -err / n, sensitivity 1 / n)."""
    return float(ssp.expit(-eps * (negatives - positives) / 2.0))


def binary(p1: float) -> np.ndarray:
    """The law (Pr[0], Pr[1]) of a binary output."""
    return np.array([1.0 - p1, p1])


__all__ = ["eps_at_delta", "stab_release_probability", "laplace_mixture_loss", "laplace_mixture_cdf",
           "majority_vote_laws", "subsamp_answer_given_votes", "subsamp_no_split_answer_law",
           "subsamp_answer_table", "agprivcl_answer_probability",
           "agprivcl_fixed_answer_probability",
           "sspp_one_point_probability", "binary"]
