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
from scipy import special as ssp
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




# ---------------------------------------------------------------- A_AgPrivCl on three points: an exact search
#
# Not a bound: an exact search over pairs that move a point, on thresholds(N=3) (rows h_t = [x < t], so a one-record
# ERM votes 1 at the query point 0 iff its label is 1), in the family the coupling argument above finds hardest: S has
# A records (0, 1), B records at point 1 of which Pb are labelled 1, and C = n - A - B records (2, 0). Then h^ is h_1
# (S'' labels points 0 only) or h_2 (points 0 and 1), decided by the tie at point 1 (h_0 and h_3 are left out: their
# weight against these is at most e^{-min(n'_0, n'_2)/2}, reported), each sub-sample is one draw of S'' (n' = k), so
# V ~ Bin(k, j / n') with j the labels 1 of S'', and Pr[1] = E[f(n'_1) A(n'_0 + n'_1) + (1 - f(n'_1)) A(n'_0)], f(m) =
# E[sigma(J - m / 2)], J ~ Hypergeom(B, Pb, m), A(j) = E[a(V)]. A pair whose toggle of h^ moves j across the
# stability steps (j about (k -+ w) / 2) while the tie's count J has a small spread is this family's worst.

WINDOW_MASS = 1e-13   # each hypergeometric sum runs over its quantiles at this tail mass (left out: reported)


def _window(dist, mass: float = WINDOW_MASS) -> np.ndarray:
    lo, hi = dist.ppf(mass), dist.isf(mass)
    return np.arange(int(max(lo, 0)), int(hi) + 1)


@functools.lru_cache(maxsize=8)
def _answer_table(params_subsamp: SubSampParams, n1: int) -> np.ndarray:
    """A(j) = E[a(V)], V ~ Bin(k, j / n'), j = 0..n': NaN until ``_answer_curve`` fills it on demand."""
    return np.full(n1 + 1, np.nan)


def _answer_curve(params_subsamp: SubSampParams, n1: int, js: np.ndarray) -> np.ndarray:
    """A(j) at ``js`` (``_answer_table``), each over V's quantiles at tail mass 1e-16."""
    table = _answer_table(params_subsamp, n1)
    a = subsamp_answer_given_votes(params_subsamp)
    k = params_subsamp.k
    for j in np.unique(js[np.isnan(table[js])]):
        v = _window(sst.binom(k, j / n1), 1e-16) if 0 < j < n1 else np.array([k * int(j >= n1)])
        table[j] = float(sst.binom.pmf(v, k, j / n1) @ a[v])
    return table[js]


def _log_choose(n, k):
    k = np.asarray(k, dtype=float)
    return ssp.gammaln(n + 1.0) - ssp.gammaln(k + 1.0) - ssp.gammaln(n - k + 1.0)


def _tie_probability(b_count: int, b_pos: int, m: np.ndarray) -> np.ndarray:
    """f(m) = E[sigma(J - m / 2)], J ~ Hypergeom(b_count, b_pos, m) (the labels 1 among the m records of S' at
    point 1), for every m at once over J = its mean +- 10 sd + 5 (the rest below 1e-20), each row normalised."""
    reach = int(math.ceil(10.0 * math.sqrt(max(int(m.max()), 1)) / 2.0 + 5))
    j = np.rint(m * b_pos / b_count).astype(np.int64)[:, None] + np.arange(-reach, reach + 1)[None, :]
    mm = m[:, None]
    ok = (j >= 0) & (j <= b_pos) & (mm - j >= 0) & (mm - j <= b_count - b_pos)
    logp = np.where(ok, _log_choose(b_pos, np.where(ok, j, 0)) + _log_choose(b_count - b_pos, np.where(ok, mm - j, 0)),
                    -np.inf)
    w = np.exp(logp - logp.max(axis=1, keepdims=True))
    return (w * ssp.expit(j - mm / 2.0)).sum(axis=1) / w.sum(axis=1)


def three_point_answer_probability(params, n: int, a_count: int, b_count: int, b_pos: int) -> tuple[float, float]:
    """(Pr[answer 1 at point 0], a bound on what the sums leave out: the windows' tail mass plus the weight of h_0
    and h_3) of A_AgPrivCl on thresholds(N=3) with S = ``a_count`` records (0, 1), ``b_count`` at point 1
    (``b_pos`` labelled 1) and the rest (2, 0) (the family above; S' multivariate hypergeometric of n' from S)."""
    n1 = params.n_prime(n)
    c_count = n - a_count - b_count
    da, db = sst.hypergeom(n, a_count, n1), sst.hypergeom(n, b_count, n1)
    na, nb = _window(da), _window(db)
    na2, nb2 = na[:, None], nb[None, :]
    nc2 = n1 - na2 - nb2
    ok = (nc2 >= 0) & (nc2 <= c_count)
    logc = np.where(ok, _log_choose(a_count, na2) + _log_choose(b_count, nb2)
                    + _log_choose(c_count, np.where(ok, nc2, 0)), -np.inf)
    joint = np.exp(logc - logc.max())
    outside = float(da.cdf(na[0] - 1) + da.sf(na[-1]) + db.cdf(nb[0] - 1) + db.sf(nb[-1]))
    joint *= (1.0 - outside) / joint.sum()
    f = _tie_probability(b_count, b_pos, nb)[None, :]
    sub = params.subsamp
    low = _answer_curve(sub, n1, na).reshape(-1, 1)
    high = _answer_curve(sub, n1, (na2 + nb2).ravel()).reshape(joint.shape)
    p = float(np.sum(joint * (f * high + (1.0 - f) * low)))
    weight = math.exp(-min(int(na[0]), int(np.min(np.where(ok, nc2, n1)))) / 2.0)
    return p, outside + weight


THREE_POINT_MOVES = (  # (name, change of (a_count, b_count, b_pos)): one record replaced, a label or a point moved
    ("(1, 0) -> (1, 1)", (0, 0, 1)), ("(0, 1) -> (1, 1)", (-1, 1, 1)), ("(0, 1) -> (1, 0)", (-1, 1, 0)),
    ("(2, 0) -> (1, 1)", (0, 1, 1)), ("(2, 0) -> (1, 0)", (0, 1, 0)), ("(0, 1) -> (2, 0)", (-1, 0, 0)))
THREE_POINT_TIES = (25, 50, 100, 200, 400, 800, 1600, 3200, 6400)  # E[n'_1]: records of S' at the tie
THREE_POINT_OFFSETS = (-1.0, -0.5, 0.0, 0.5, 1.0)   # E[n'_0] - (step - n'_1 / 2), in units of n'_1 / 2 + 150


@dataclass(frozen=True)
class ThreePointPair:
    """One pair of the three-point search: S's counts (A, B, Pb), the move, the shift of Pr[answer 1] and the mass
    the exact sums leave out."""

    counts: tuple
    move: str
    shift: float
    left_out: float


def three_point_shift(params, n: int, counts: tuple, move: str) -> ThreePointPair:
    """|Pr[1 | S] - Pr[1 | S with ``move``]| (``three_point_answer_probability``) for S = ``counts`` = (A, B, Pb)."""
    d = dict(THREE_POINT_MOVES)[move]
    p0, l0 = three_point_answer_probability(params, n, *counts)
    p1, l1 = three_point_answer_probability(params, n, *(c + e for c, e in zip(counts, d)))
    return ThreePointPair(tuple(counts), move, abs(p1 - p0), l0 + l1)


def three_point_search(params, n: int, ties=THREE_POINT_TIES, offsets=THREE_POINT_OFFSETS) -> list:
    """Every move of ``THREE_POINT_MOVES`` from S with E[n'_1] in ``ties`` (Pb = B / 2: the tie's centre) and E[n'_0]
    placed so that h^'s toggle straddles either stability step of A(j) (j = (k -+ w) / 2) by each offset; sorted by
    shift, largest first."""
    n1 = params.n_prime(n)
    k, w = params.subsamp.k, params.subsamp.w
    out = []
    for m in ties:
        b = int(round(m * n / n1))
        for step in ((k - w) / 2.0, (k + w) / 2.0):
            for off in offsets:
                centre = step - m / 2.0 + off * (m / 2.0 + 150.0)
                counts = (int(round(centre * n / n1)), b, b // 2)
                out += [three_point_shift(params, n, counts, name) for name, _ in THREE_POINT_MOVES]
    return sorted(out, key=lambda r: -r.shift)


#: the largest shift ``three_point_search`` found at the A_AgPrivCl target's setting (eps 0.99, delta 0.03): S =
#: (A, B, Pb) and the move (a label flip at the tie), held by tests/simulations/test_nb20_shift_bounds.py; the run is
#: recorded in benchmarks/RESULTS.md
THREE_POINT_WORST = ((2827967, 362020, 181010), "(1, 0) -> (1, 1)")
THREE_POINT_WORST_SHIFT = 1.732e-4   # its shift (the test recomputes it to 4 digits)
THREE_POINT_PAIRS = len(THREE_POINT_TIES) * 2 * len(THREE_POINT_OFFSETS) * len(THREE_POINT_MOVES)


__all__ = ["ShiftBound", "subsamp_shift_bound", "subsamp_flag_shift_bound", "subsamp_ordered_pair",
           "agprivcl_one_point_shift_bound", "TAIL_T", "three_point_answer_probability", "three_point_shift",
           "three_point_search", "ThreePointPair", "THREE_POINT_WORST", "THREE_POINT_WORST_SHIFT",
           "THREE_POINT_PAIRS"]
