"""NB20 Algorithm 5 and Lemma 8 (privacy): bounds on the largest shift of the answer's law that ANY neighbouring pair
can cause in the end-to-end A_SubSamp and A_AgPrivCl audit targets (``simulations.audit_targets.nb20``), so that
their lines can say that no pair, not only the one audited, reaches a positive loss at the declared delta. Not a
target module (its name starts with ``_``: discovery skips it).

The released output is one bit (the answer at the query point; a bottom answer is a fair coin, NB20 B.1), so a pair's
loss at delta is 0 exactly when the two Pr[answer 1] differ by at most delta (``_nb20_laws.eps_at_delta`` on two
binary laws: the top event's P(E) - delta <= Q(E)). Each bound below is a sup over pairs of that difference.

* A_SubSamp (one query, T = 1: one SparseVector round), any class, any domain, any query point, S in any order
  (the consecutive split of the per-example path or the uniformly random split of the count path): put the changed
  record at the same position on both sides; it lies in at most one sub-sample, so the number V of votes for 1
  moves by at most one, and the answer's law given V is a(V) = s(|2V - k|) [2V > k] + (1 - s(|2V - k|)) / 2
  (majority when stable, ties to 0, a coin when not; s the stable probability). Hence
  |Pr_D0[1] - Pr_D1[1]| <= E|a(V0) - a(V1)| <= max_v |a(v + 1) - a(v)| (``subsamp_shift_bound``). It is attained:
  on one point, an ordered S whose consecutive blocks of 3 give V = v + 1 with one block at 2 labels 1 against 1,
  and the neighbour with one of those labels 0 (V = v; ``subsamp_ordered_pair``), so the bound is the worst pair's
  shift, not a slack one. (Were the bottom flag released too, the output's total variation would be at most
  max(s(1), max_d s(d + 2) - s(d)): ``subsamp_flag_shift_bound``.)
* A_AgPrivCl on the target's one-point domain (every neighbouring pair is S with P labels 1 against P + 1, in any
  order: step 2 draws a uniformly random S'): put the changed record i at the same place; it joins S' with
  probability q = n'/n, and then pos' grows by one. Given the count j of labels 1 among the other n' - 1 records of
  S' (hypergeometric: n - 1 records, P labels 1, n' - 1 draws), h^ = h_1 with probability sigma(j - n'/2) or
  sigma(j + 1 - n'/2) (the exponential mechanism at eps~ = 1, ``agprivcl_answer_probability``), S'' holds one cell
  (margin k) and Pr[1] = s(k) Pr[h^ = h_1] + (1 - s(k)) / 2. So the shift is q s(k) E[g(J)], g(j) = sigma(j + 1 -
  n'/2) - sigma(j - n'/2) > 0, and g sums to 1 over the integers (it telescopes), so E[g(J)] <= max_j Pr[J = j],
  the hypergeometric's mode probability. Far from balance that is large but g is small: for P <= P0,
  E[g(J)] <= Pr_P0[J >= n'/2 - t] + e^{1 - t} (J is stochastically increasing in P; g(j) <= sigma(j + 1 - n'/2)
  <= e^{1 - t} below n'/2 - t); P >= n - 1 - P0 is the mirror image (g(n' - 1 - j) = g(j)). The bound is the largest
  of these over every P (``agprivcl_one_point_shift_bound``).

Each bound is held by tests/simulations/test_nb20_shift_bounds.py to the exact laws and to the mechanisms' draws.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sst

from algorithms.learning.subsamp import SubSampParams
from simulations.audit_targets._nb20_laws import _stable_probability, subsamp_answer_given_votes

TAIL_T = 50.0              # t of the A_AgPrivCl tail argument: g <= e^{1 - t} = 5.2e-22 beyond n'/2 - t
TAIL_MARGIN_SIGMAS = 10.0  # P0 puts E[J] this many standard deviations of J below n'/2 - t


@dataclass(frozen=True)
class ShiftBound:
    """A bound on |Pr_D0[answer 1] - Pr_D1[answer 1]| over every neighbouring pair, where it is (nearly) attained,
    and the formula it comes from (for the line)."""

    value: float
    at: int
    formula: str

    def line(self, delta: float, scope: str = "") -> str:
        """The line's statement: no pair (of ``scope``) reaches a positive loss at ``delta`` when the bound is below
        it."""
        if self.value <= delta:
            return (f"no neighbouring pair{scope} reaches a positive loss at delta {delta:.4g}: the answer's "
                    f"probability moves by at most {self.value:.4g} < delta ({self.formula})")
        return f"the shift bound {self.value:.4g} ({self.formula}) exceeds delta {delta:.4g}: it settles nothing"


def subsamp_shift_bound(params: SubSampParams) -> ShiftBound:
    """max_v |a(v + 1) - a(v)| (module docstring: every neighbouring pair moves V by at most one), and its v."""
    if params.num_queries != 1 or params.rounds != 1:
        raise ValueError("the bound is derived for one query and one SparseVector round (m = T = 1)")
    jumps = np.abs(np.diff(subsamp_answer_given_votes(params)))
    v = int(np.argmax(jumps))
    return ShiftBound(float(jumps[v]), v,
                      f"max over v of |a(v+1) - a(v)|, a(v) = Pr[answer 1 | v votes of k = {params.k}]: one record "
                      f"moves at most one vote; attained by an ordered S with {v + 1} vs {v} votes, margins "
                      f"{abs(2 * v + 2 - params.k)} vs {abs(2 * v - params.k)} about the threshold w = {params.w:.1f}")


def subsamp_flag_shift_bound(params: SubSampParams) -> float:
    """The total-variation bound were the bottom flag released with the answer: the output given V is (stable,
    majority) with probability s, else bottom, so one vote moves it by |s(d') - s(d)| off the tie and by s(1) across
    it (the stable mass changes label): max over v of that."""
    v = np.arange(params.k + 1)
    s = _stable_probability(params, np.abs(2 * v - params.k))
    maj = 2 * v > params.k
    laws = np.stack([s * ~maj, s * maj, 1.0 - s], axis=1)       # (stable 0, stable 1, bottom)
    return float(np.max(0.5 * np.abs(np.diff(laws, axis=0)).sum(axis=1)))


def subsamp_ordered_pair(k: int, votes: int) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """3k records at the single point in the order the per-example path splits them (consecutive blocks of 3): D0
    has block 0 = labels (1, 1, 0), blocks 1..``votes`` - 1 all 1 and the rest all 0 (V = ``votes``); D1 has the
    first label 0 (block 0 turns to the 0 majority: V = ``votes`` - 1)."""
    if not 1 <= votes <= k:
        raise ValueError(f"votes={votes} out of range: allowed 1..{k}")
    y0 = np.zeros(3 * k, dtype=bool)
    y0[:3 * votes] = True
    y0[2] = False
    y1 = y0.copy()
    y1[0] = False
    x = np.zeros(3 * k, dtype=np.int64)
    return (x, y0), (x, y1)


def _mode_probability(population: int, successes: np.ndarray, draws: int) -> np.ndarray:
    """The largest probability of Hypergeom(population, successes, draws), at its mode floor((draws + 1)
    (successes + 1) / (population + 2)) (the law is unimodal)."""
    mode = np.floor((draws + 1) * (successes + 1.0) / (population + 2))
    return sst.hypergeom.pmf(mode, population, successes, draws)


@functools.lru_cache(maxsize=8)
def agprivcl_one_point_shift_bound(params, n: int) -> ShiftBound:
    """The largest |Pr[1 | P + 1] - Pr[1 | P]| over every P = 0..n - 1 for A_AgPrivCl on the one-point domain
    (module docstring): q s(k) times max(the mode probability over P0 <= P <= (n - 1) / 2, the tail
    Pr_P0[J >= n'/2 - t] + e^{1 - t})."""
    n1 = params.n_prime(n)
    pop, draws, centre = n - 1, n1 - 1, n1 / 2.0
    q = n1 / n
    s = float(_stable_probability(params.subsamp, params.subsamp.k)[0])
    sd = math.sqrt(draws * 0.25)
    p0 = max(0, int(math.floor((centre - TAIL_T - TAIL_MARGIN_SIGMAS * sd) * pop / draws)))
    lo_cut = math.ceil(centre - TAIL_T)
    tail = float(sst.hypergeom.sf(lo_cut - 1, pop, p0, draws)) + math.exp(1.0 - TAIL_T)
    middle = np.arange(p0, (pop + 1) // 2 + 1)
    modes = _mode_probability(pop, middle, draws)
    i = int(np.argmax(modes))
    value = q * s * max(float(modes[i]), tail)
    return ShiftBound(value, int(middle[i]),
                      f"q s(k) max_P Pr[J = mode], q = n'/n = {n1}/{n}, J ~ Hypergeom(n - 1, P, n' - 1) the labels 1 "
                      f"of S' beside the changed record; every P of the one point, tail {tail:.1e} beyond "
                      f"P0 = {p0}")


__all__ = ["ShiftBound", "subsamp_shift_bound", "subsamp_flag_shift_bound",
           "subsamp_ordered_pair", "agprivcl_one_point_shift_bound", "TAIL_T"]
