"""NB20 Algorithm 5 (A_SubSamp, Bassily-Thakurta-Thakkar 2018): private classification queries by
subsample-and-aggregate, the distance-to-instability test (Algorithm 6, A_stab) and the sparse vector.

Steps, as printed (Appendix B.1), with the parameters of ``SubSampParams`` (taken from bounds nb20:alg5
by the caller; this package does not import ``bounds``):

1-2. lambda, k, w as in bounds nb20:alg5 (lambda corrected for the vote margin's sensitivity 2,
     erratum nb20-alg5-margin); w^ = w + Lap(lambda);
3-5. S split into k disjoint sub-samples of floor(n/k) examples each (the n mod k left over are unused:
     "equal-sized"); h_j = B_PAC(S_j), the non-private learner (:func:`subsample_hypotheses`, the exact
     ERM of :mod:`algorithms.learning.erm` run on every sub-sample at once, least-index ties);
6-11. for each query x_i, online: votes of h_1..h_k, majority q^ (ties: label 0) and margin
     dist = largest count - second largest count; A_stab(dist, Gamma = w^, eps = 1/(2 lambda)) adds
     Lap(2 lambda) to dist and releases q^ if above w^; otherwise bottom, c <- c + 1 and w^ redrawn.

Steps 2, 9 and 10 together are exactly one Sparse-vector round per query (Dwork-Roth Algorithm 2 on
the query -dist against the threshold -w, threshold noise Lap(sigma), query noise Lap(2 sigma),
sigma = lambda, a "top" is an unstable answer), so they run on
:class:`algorithms.privacy.sparse_vector.SparseVector` with ``sensitivity`` = the margin's
sensitivity Delta and the eps that makes its sigma equal lambda. The sparse vector halts after
c = floor(T) unstable answers: Algorithm 5's loop guard "c <= T" would admit a (floor(T)+1)-th
round, which lambda's calibration (T rounds) does not pay for (erratum nb20-alg5-halt). After the
halt, and on every bottom, the answer is a fair coin (NB20 B.1: "otherwise, it returns a random
label"; post-processing).

Declared privacy (``SubSampParams.guarantee``), derived here, not copied from BTT18 Theorem 3.1:
(i) the pattern of stable/unstable answers is c rounds of AboveThreshold, each (2 Delta/lambda)-DP,
composed by Dwork-Roth Theorem 3.20 at slack delta/2 (the SparseVector's own declaration, which is
<= eps when c <= T); (ii) a stable release can differ between neighbours only where their majorities
differ, which forces dist <= Delta; each such release has probability <= P[Delta + Lap(2 lambda) >
w + Lap(lambda)], so the m queries add m P[Lap(2 lambda) - Lap(lambda) > w - Delta] to delta
(:func:`stable_release_tail`; about (4/3) e^{Delta/(2 lambda)} delta/4).

Two declarations of (i) (``SubSampParams.accounting``): ``"sparse_vector"`` (the default) takes the larger of
SparseVector's closed form and the rounds' composition, as calibrated for the doubled lambda of bounds
nb20:alg5; ``"composition"`` declares the advanced composition of the c rounds itself (Dwork-Roth Thm 3.20,
the step by which Dwork-Roth prove SparseVector), which is what lets lambda be the tight lambda_tight of
bounds nb20:alg5 (about half the doubled one, so k and Theorems 7 and 11's n halve): the rounds then compose
to <= eps while SparseVector's closed form would say about 2 eps.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..classes.finite import FiniteClass, validate_index, validate_indices
from ..privacy.accounting import ApproxDP, Release, _check_delta, _check_positive_finite, _check_positive_int
from ..privacy.mechanisms import _check_rng
from ..privacy.sparse_vector import SparseVector, sparse_round_composition_epsilon
from .erm import labeled_counts, positive_labels

REALISES = ("nb20:alg5", "nb20:lemma4")  # the results this module's algorithm realises (bounds show lists it)

__all__ = ["SubSampParams", "QueryAnswers", "SubSamp", "a_subsamp", "subsample_hypotheses", "erm_rows", "answer_online",
           "stable_release_tail", "vote_margins", "subsample_hypotheses_counts", "resample_hypotheses_counts",
           "MAX_HYPERGEOMETRIC_TOTAL"]

MAX_HYPERGEOMETRIC_TOTAL = 10**9 - 1  # numpy's multivariate hypergeometric ("marginals") needs a total below 1e9

_ROWS_PER_CHUNK = 4096


def laplace_difference_tail(t: float, a: float, b: float) -> float:
    """P[X - Y > t] for independent X ~ Lap(a), Y ~ Lap(b), a != b (equal in law to X + Y):
    (a^2 e^{-t/a} - b^2 e^{-t/b}) / (2 (a^2 - b^2)) for t >= 0, 1 - that at -t below 0."""
    if t < 0:
        return 1.0 - laplace_difference_tail(-t, a, b)
    return (a * a * math.exp(-t / a) - b * b * math.exp(-t / b)) / (2.0 * (a * a - b * b))


def stable_release_tail(num_queries: int, lam: float, w: float, sensitivity: float) -> float:
    """The delta of (ii) in the module docstring: m P[Lap(2 lambda) - Lap(lambda) > w - Delta]."""
    return num_queries * laplace_difference_tail(w - sensitivity, 2.0 * lam, lam)


@dataclass(frozen=True)
class SubSampParams:
    """NB20 Algorithm 5's inputs and step 1-2 settings: eps, delta, beta, m (``num_queries``), T (``cutoff``)
    and lambda (``lam``), k, w from bounds nb20:alg5; ``margin_sensitivity`` Delta of the vote margin
    (2, bounds nb20:alg5 margin_sensitivity; 1 reproduces the printed, broken calibration)."""

    eps: float
    delta: float
    beta: float
    num_queries: int
    cutoff: float
    lam: float
    k: int
    w: float
    margin_sensitivity: float = 2.0
    accounting: str = "sparse_vector"

    def __post_init__(self) -> None:
        if self.accounting not in ("sparse_vector", "composition"):
            raise ValueError(f"accounting={self.accounting!r}: allowed 'sparse_vector' or 'composition'")
        _check_positive_finite("eps", self.eps)
        _check_delta("delta", self.delta, allow_zero=False)
        _check_delta("beta", self.beta, allow_zero=False)
        _check_positive_int("num_queries", self.num_queries)
        if not (isinstance(self.cutoff, (int, float)) and 1.0 <= self.cutoff < math.inf):
            raise ValueError(f"cutoff={self.cutoff!r} out of range: allowed [1, inf)")
        _check_positive_finite("lam", self.lam)
        _check_positive_int("k", self.k)
        _check_positive_finite("w", self.w)
        _check_positive_finite("margin_sensitivity", self.margin_sensitivity)

    @property
    def rounds(self) -> int:
        """Unstable answers before the halt: floor(T) (module docstring, erratum nb20-alg5-halt)."""
        return max(1, int(math.floor(self.cutoff + 1e-9)))

    @property
    def sparse_vector_eps(self) -> float:
        """The eps at which SparseVector(c = rounds, delta/2, Delta) has sigma = lambda:
        Delta sqrt(32 c log(2/delta)) / lambda (= eps when c = T and lambda is the corrected one)."""
        return self.margin_sensitivity * math.sqrt(32.0 * self.rounds * math.log(2.0 / self.delta)) / self.lam

    @property
    def round_epsilon(self) -> float:
        """Privacy of one AboveThreshold round: 2 Delta / lambda (bounds nb20:alg5 round_epsilon)."""
        return 2.0 * self.margin_sensitivity / self.lam

    def guarantee(self) -> ApproxDP:
        """(max(SparseVector's eps, advanced composition of the rounds), delta/2 + stable-release tail); with
        ``accounting="composition"`` the composition alone (module docstring)."""
        eps_adv = sparse_round_composition_epsilon(self.round_epsilon, self.rounds, self.delta / 2.0)
        tail = stable_release_tail(self.num_queries, self.lam, self.w, self.margin_sensitivity)
        eps = eps_adv if self.accounting == "composition" else max(self.sparse_vector_eps, eps_adv)
        return ApproxDP(eps, self.delta / 2.0 + tail)


@dataclass(frozen=True, eq=False)
class QueryAnswers:
    """The answers of a private classification-query algorithm: ``labels`` (bool, True = label 1),
    ``unstable`` (True where the answer was bottom, a fair coin, including every answer after the halt),
    ``halted_at`` (index of the first query answered after the halt, or None)."""

    labels: np.ndarray
    unstable: np.ndarray
    halted_at: int | None


def erm_rows(cls: FiniteClass, pos: np.ndarray, tot: np.ndarray) -> np.ndarray:
    """The exact ERM (least index among ties, as :func:`algorithms.learning.erm.erm`) of each row of a
    batch of labeled histograms: ``pos[j, x]`` examples (x, 1) and ``tot[j, x]`` examples at x in sample j.
    count(j, h) = sum_x pos_j[x] + M_h . (neg_j - pos_j), neg = tot - pos, chunked over rows."""
    pos, tot = np.asarray(pos, dtype=np.float64), np.asarray(tot, dtype=np.float64)
    if pos.ndim != 2 or pos.shape != tot.shape or pos.shape[1] != cls.num_points:
        raise ValueError(f"pos and tot must both have shape (rows, {cls.num_points}), got {pos.shape}, {tot.shape}")
    M = cls.matrix.astype(np.float64)
    out = np.empty(pos.shape[0], dtype=np.int64)
    for g0 in range(0, pos.shape[0], _ROWS_PER_CHUNK):
        p, t = pos[g0:g0 + _ROWS_PER_CHUNK], tot[g0:g0 + _ROWS_PER_CHUNK]
        out[g0:g0 + p.shape[0]] = np.argmin(p.sum(axis=1)[:, None] + (t - 2.0 * p) @ M.T, axis=1)
    return out


def subsample_hypotheses(cls: FiniteClass, points: np.ndarray, positive: np.ndarray, k: int) -> np.ndarray:
    """NB20 Algorithm 5, steps 3-5: h_j = ERM on S_j for k consecutive sub-samples of floor(n/k) examples
    (the exact ERM of :func:`algorithms.learning.erm.erm` on every sub-sample at once, :func:`erm_rows`)."""
    n = points.size
    if n < k:
        raise ValueError(f"n={n} examples out of range for k={k} sub-samples: allowed n >= k")
    s = n // k
    N = cls.num_points
    out = np.empty(k, dtype=np.int64)
    for g0 in range(0, k, _ROWS_PER_CHUNK):
        g1 = min(k, g0 + _ROWS_PER_CHUNK)
        x, y = points[g0 * s:g1 * s], positive[g0 * s:g1 * s]
        idx = np.repeat(np.arange(g1 - g0, dtype=np.int64), s) * N + x
        pos = np.bincount(idx, weights=y, minlength=(g1 - g0) * N).reshape(-1, N)
        tot = np.bincount(idx, minlength=(g1 - g0) * N).reshape(-1, N)
        out[g0:g1] = erm_rows(cls, pos, tot)
    return out


def _block_hypotheses(cls: FiniteClass, blocks: np.ndarray) -> np.ndarray:
    """ERM (:func:`erm_rows`) of each labelled block histogram blocks[j, x, y]."""
    return erm_rows(cls, blocks[:, :, 1], blocks.sum(axis=2))


def subsample_hypotheses_counts(cls: FiniteClass, counts, k: int, rng: np.random.Generator) -> np.ndarray:
    """NB20 Algorithm 5, steps 3-5 on S given as its labelled histogram (``erm.labeled_counts``), S in a
    uniformly random order (an i.i.d. or exchangeable sample, the law under which the per-example path's
    consecutive split is a uniformly random partition into k sub-samples of s = floor(n/k) and n - ks left
    over). The k x 2N table of sub-sample histograms is then a uniformly random table with those margins,
    drawn exactly cell by cell: the examples of cell c go to the sub-samples by a multivariate hypergeometric
    over the room each has left (2N draws of k + 1 colours; n must be below numpy's limit
    ``MAX_HYPERGEOMETRIC_TOTAL``). The h_j, in order."""
    c = labeled_counts(cls, counts)
    n = int(c.sum())
    if n < k:
        raise ValueError(f"n={n} examples out of range for k={k} sub-samples: allowed n >= k")
    if n > MAX_HYPERGEOMETRIC_TOTAL:
        raise ValueError(f"n={n} out of range: the exact split draws multivariate hypergeometric counts, "
                         f"allowed n <= {MAX_HYPERGEOMETRIC_TOTAL}")
    s = n // k
    room = np.append(np.full(k, s, dtype=np.int64), n - k * s)
    flat = c.ravel()
    blocks = np.zeros((k + 1, flat.size), dtype=np.int64)
    for cell in np.flatnonzero(flat):
        blocks[:, cell] = rng.multivariate_hypergeometric(room, int(flat[cell]), method="marginals")
        room -= blocks[:, cell]
    return _block_hypotheses(cls, blocks[:k].reshape(k, cls.num_points, 2))


def resample_hypotheses_counts(cls: FiniteClass, counts, k: int, rng: np.random.Generator) -> np.ndarray:
    """NB20 Algorithm 3 step 4 then Algorithm 5 steps 3-5, on S'' given as its labelled histogram (n' examples):
    S^ = n' draws with replacement from S'', cut into k sub-samples of floor(n'/k); being disjoint runs of
    i.i.d. draws, the sub-samples are k independent multinomials of floor(n'/k) over the empirical law of
    S'' (the n' - k floor(n'/k) draws left over are unused). Any n' numpy's multinomial takes (int64). When S''
    has one non-empty cell every sub-sample is floor(n'/k) copies of it: one ERM, no draw."""
    c = labeled_counts(cls, counts)
    n = int(c.sum())
    if n < k:
        raise ValueError(f"n'={n} examples out of range for k={k} sub-samples: allowed n' >= k")
    flat = c.ravel()
    if np.count_nonzero(flat) == 1:
        block = np.where(flat > 0, n // k, 0).reshape(1, cls.num_points, 2)
        return np.full(k, _block_hypotheses(cls, block)[0], dtype=np.int64)
    cells = np.flatnonzero(flat)  # draw over the non-empty cells only (the same law, fewer binomials)
    out = np.empty(k, dtype=np.int64)
    for g0 in range(0, k, _ROWS_PER_CHUNK):
        g1 = min(k, g0 + _ROWS_PER_CHUNK)
        blocks = np.zeros((g1 - g0, flat.size), dtype=np.int64)
        blocks[:, cells] = rng.multinomial(n // k, flat[cells] / n, size=g1 - g0)
        out[g0:g1] = _block_hypotheses(cls, blocks.reshape(g1 - g0, cls.num_points, 2))
    return out


def vote_margins(cls: FiniteClass, hypotheses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """NB20 Algorithm 5, steps 7-8 for every point of the domain: (majority label (ties: 0), margin =
    largest count - second largest count) of the k votes (h_1(x), ..., h_k(x))."""
    ones = np.bincount(hypotheses, minlength=cls.num_hypotheses).astype(np.float64) @ cls.matrix
    ones = np.rint(ones).astype(np.int64)
    zeros = hypotheses.size - ones
    return ones > zeros, np.abs(ones - zeros)


class SubSamp:
    """NB20 Algorithm 5 (A_SubSamp) as an online object: built on S (steps 1-5), then ``answer(x)`` one
    query at a time (steps 6-11), each answered before the next is seen.

    ``guarantee`` is what the whole interaction spends (``SubSampParams.guarantee``), however many of
    the m queries are asked; asking more than m raises.
    """

    def __init__(self, cls: FiniteClass, points, labels, params: SubSampParams, rng: np.random.Generator):
        if not isinstance(cls, FiniteClass):
            raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
        if not isinstance(params, SubSampParams):
            raise ValueError(f"params must be a SubSampParams, got {type(params).__name__}")
        self.cls, self.params = cls, params
        self._rng = _check_rng(rng)
        x = validate_indices(points, cls.num_points, "points")
        y = positive_labels(labels, x.size)
        self._start(subsample_hypotheses(cls, x, y, params.k))

    @classmethod
    def from_hypotheses(cls_, cls: FiniteClass, hypotheses, params: SubSampParams,
                        rng: np.random.Generator) -> "SubSamp":
        """Start at step 6 with h_1..h_k given (an experiment that drew each sub-sample's histogram from
        its exact law, :func:`erm_rows`); there must be exactly k of them."""
        if not isinstance(cls, FiniteClass) or not isinstance(params, SubSampParams):
            raise ValueError("cls must be a FiniteClass and params a SubSampParams")
        self = cls_.__new__(cls_)
        self.cls, self.params, self._rng = cls, params, _check_rng(rng)
        h = validate_indices(hypotheses, cls.num_hypotheses, "hypotheses")
        if h.size != params.k:
            raise ValueError(f"hypotheses has {h.size} entries: allowed exactly k = {params.k}")
        self._start(h)
        return self

    @classmethod
    def from_counts(cls_, cls: FiniteClass, counts, params: SubSampParams, rng: np.random.Generator) -> "SubSamp":
        """Steps 1-5 on S given as its labelled histogram (:func:`subsample_hypotheses_counts`: S in a
        uniformly random order), then online as usual."""
        rng = _check_rng(rng)
        return cls_.from_hypotheses(cls, subsample_hypotheses_counts(cls, counts, params.k, rng), params, rng)

    def _start(self, hypotheses: np.ndarray) -> None:
        params, cls = self.params, self.cls
        self.hypotheses = hypotheses
        self._majority, self._margin = vote_margins(cls, self.hypotheses)
        self._sv = SparseVector(-params.w, params.rounds, params.sparse_vector_eps, self._rng,
                                delta=params.delta / 2.0, sensitivity=params.margin_sensitivity)
        if not math.isclose(self._sv.sigma, params.lam, rel_tol=1e-9):  # the calibration of the docstring
            raise AssertionError(f"sparse vector sigma {self._sv.sigma} != lambda {params.lam}")
        self.asked = 0
        self.unstable_count = 0
        self.halted_at: int | None = None

    @property
    def guarantee(self) -> ApproxDP:
        return self.params.guarantee()

    @property
    def halted(self) -> bool:
        return self._sv.halted

    @property
    def noisy_threshold(self) -> float:
        """The current w^ (the SparseVector holds -w^)."""
        return -self._sv._noisy_threshold

    def margin(self, x: int) -> tuple[bool, int]:
        """(majority label, vote margin) at query point x (steps 7-8; no privacy spent: not released)."""
        return bool(self._majority[x]), int(self._margin[x])

    def answer(self, x) -> tuple[bool, bool]:
        """Steps 7-11 for one query point x: (label, unstable). Unstable (bottom) answers are a fair coin."""
        if self.asked >= self.params.num_queries:
            raise ValueError(f"query {self.asked + 1} out of range: A_SubSamp was set up for "
                             f"m={self.params.num_queries} queries")
        xi = validate_index(x, self.cls.num_points, "x")
        i = self.asked
        self.asked += 1
        if self.halted:
            return bool(self._rng.integers(2)), True
        maj, dist = self.margin(xi)
        if self._sv.query(-float(dist)):  # -dist + Lap(2 lam) >= -w^ : dist + noise <= w^ : bottom
            self.unstable_count += 1
            if self.halted:
                self.halted_at = i + 1
            return bool(self._rng.integers(2)), True
        return maj, False


def answer_online(answerer, queries) -> QueryAnswers:
    """Feed the queries one at a time to ``answerer.answer`` (each answered before the next is seen)."""
    q = np.asarray(queries).ravel()
    labels = np.empty(q.size, dtype=bool)
    unstable = np.empty(q.size, dtype=bool)
    for i, x in enumerate(q):
        labels[i], unstable[i] = answerer.answer(x)
    halted_at = getattr(answerer, "halted_at", None)
    return QueryAnswers(labels=labels, unstable=unstable,
                        halted_at=None if halted_at is None or halted_at >= q.size else halted_at)


def a_subsamp(cls: FiniteClass, points, labels, queries, params: SubSampParams,
              rng: np.random.Generator) -> Release:
    """NB20 Algorithm 5 (A_SubSamp) on S = (points, labels) and the query points, answered online:
    ``Release(QueryAnswers, params.guarantee())``."""
    algo = SubSamp(cls, points, labels, params, rng)
    return Release(answer_online(algo, queries), algo.guarantee)
