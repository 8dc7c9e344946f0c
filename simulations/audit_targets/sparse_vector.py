"""Dwork-Roth (2014) Theorems 3.23, 3.25, 3.27: audit targets for AboveThreshold, Sparse and NumericSparse
(:mod:`algorithms.privacy.sparse_vector`, the classes themselves, one object per output), their hard
neighbouring pairs, and deliberately broken variants built here as subclasses (the classes are not edited).

Pairs (answer vectors of sensitivity-1 queries, k = 16 for ``lsl``, 32 for ``shift``, threshold T = 0; a replacement may
move every answer by up to 1, in either direction):

* ``lsl``: q(D0) = (0, ..., 0), q(D1) = (1, ..., 1, -1) (the last c = 1 answer down), the
  non-monotone pair of Lyu, Su and Li (2017, "Understanding the sparse vector technique", Section 3): under
  D1 the first k - c answers are more likely to fire and the last c less likely, so the output "tops at the
  last c queries" carries the whole budget. Statistic: (first top, second top, k where none; number of
  tops), categorical (the auditor orders the categories by their likelihood ratio on the selection half).
* ``shift``: q(D0) = (1, ..., 1), q(D1) = (0, ..., 0): every answer moves down by one (monotone), the pair on
  which the number of tops carries the loss; what halting after c tops protects. Same statistic.
* searched (the ``*_searched`` targets and the ``*_reused_comparison_noise`` twins): the pair is chosen by the
  auditor's neighbour search (``random_answers``, ``move_answers``) from the ``lsl`` and ``swap`` pairs and random
  answer vectors, statistic ``fired``. Measured at 100,000 samples (seed 2): AboveThreshold eps_lb 0.53, Sparse 0.70.
  The ``lsl`` targets that must pass rank random answer vectors by their exact loss instead (``loss_neighbours``,
  no sampled search), so their lines state the worst pair found.
* ``swap``: q(D0) = (0, ..., 0, 1), q(D1) = (1, ..., 1, 0), k = 8: the order of the answers reversed, in the
  manner of Lyu, Su and Li's counterexamples to the published variants. Statistic ``fired``: the whole
  top/bottom pattern (bit i set iff query i fired), categorical. With independent comparison noise the
  pattern "only the last query fired" is about equally likely under both (measured eps_lb 0.06-0.09 at
  4,000 samples); with one comparison draw shared by every query it is impossible under D1.

Declared eps = 1 (each algorithm at its own eps; Sparse and NumericSparse with cut-off c = 1, delta = 0:
one round carries the whole budget. With c = 2 these pairs attained about a third of eps, 0.33 for the
correct Sparse and 0.58 for the half-noise one at 100,000 samples: a break invisible at any feasible size).

Broken variants (``expect_private=False``), each caught at its default sample count:

* ``*_small_query_noise``: each query's comparison noise at a quarter of its scale (AboveThreshold
  Lap(1/eps) instead of Lap(4/eps); Sparse/NumericSparse Lap(sigma/2) instead of Lap(2 sigma)), on the
  ``lsl`` pair. At half the scale the audit's reach ends: measured eps_lb (eps = 1, seed 3) AboveThreshold
  1.35 at 100,000 samples (caught), Sparse 1.11 at 40,000 (caught), NumericSparse 0.92 at 40,000 (missed:
  its comparisons run at eps_1 = 8 eps / 9 and the statistic ignores the released answers);
* ``*_no_halting``: Sparse/NumericSparse that keep answering after the c-th top, on the ``shift`` pair.
* ``*_reused_comparison_noise``: one comparison noise draw shared by all queries of a run, on the ``swap``
  pair with the ``fired`` statistic: the one-token mutation ``size=x.size`` -> ``size=1`` of the vectorised
  scan (which broadcasts one draw), on which the unit law test of the scan fails with p = 0.0 and which the
  ``lsl`` and ``shift`` targets miss (eps_lb 0.13 at 20,000 samples, the mutation applied to the class
  itself); here eps_lb 5.3 at 20,000 samples (the same mutation in the class) and above 3 at 4,000 (this
  subclass, which reproduces it with an rng whose vector draws are one draw repeated).

Not a broken variant: a threshold that is **not redrawn** after a top. With Dwork-Roth's scales (threshold
Lap(2c/eps), queries Lap(4c/eps)) that is Lyu, Su and Li's Algorithm 1 (threshold Lap(2/eps), queries
Lap(4c/eps), proven eps-DP there) with more threshold noise, so it is private; the targets
``sparse_no_redraw`` and ``numeric_sparse_no_redraw`` declare it private and must pass (the redraw is still
checked in law by tests/algorithms/test_privacy_sparse_vector.py).
"""

from __future__ import annotations

import math

import numpy as np

from algorithms.privacy.sparse_vector import AboveThreshold, NumericSparse, SparseVector
from simulations.audit import AuditCase, AuditTarget, with_ci_samples

K = 8         # queries of the lsl pair
K_SHIFT = 32  # queries of the shift pair
C = 1
THRESHOLD = 0.0
PAIRS = {
    "lsl": (np.zeros(K), np.r_[np.ones(K - C), -np.ones(C)]),
    "shift": (np.ones(K_SHIFT), np.zeros(K_SHIFT)),
    "swap": (np.r_[np.zeros(K - 1), 1.0], np.r_[np.ones(K - 1), 0.0]),
}


def _tops(output, k: int = K) -> tuple[int, int, int]:
    """(index of the first top, of the second top, k where there is none; number of tops) of one output of
    any of the three classes."""
    if output is None:
        return k, k, 0
    if isinstance(output, (int, np.integer)):
        return int(output), k, 1
    a = np.asarray(output)
    hit = np.flatnonzero(a if a.dtype == bool else ~np.isnan(a))
    return (int(hit[0]) if hit.size else k), (int(hit[1]) if hit.size > 1 else k), int(hit.size)


def fired(output) -> int:
    """The full top/bottom pattern of one output, as an integer: sum of 2^i over the queries that fired. With the
    queries asked in order and the run stopping at the c-th top, this is the whole output of AboveThreshold and
    Sparse (and NumericSparse's output without its released answers)."""
    if output is None:
        return 0
    if isinstance(output, (int, np.integer)):
        return 1 << int(output)
    a = np.asarray(output)
    hit = np.flatnonzero(a if a.dtype == bool else ~np.isnan(a))
    return int(np.sum(np.left_shift(1, hit))) if hit.size else 0


def _mechanism(make, statistic=None):
    """A batched mechanism: ``make(rng)`` builds one object of the audited class (its threshold drawn from rng),
    which runs the answer vector; the statistic is ``_tops`` of each output, or ``statistic(output)``."""

    def mechanism(answers, public, rng, size=None):
        k = len(answers)
        stat = (lambda o: _tops(o, k)) if statistic is None else statistic
        out = np.array([stat(make(rng).run(answers).value) for _ in range(size or 1)], dtype=float)
        return out if size is not None else out[0]

    return mechanism


class _OneComparisonDraw:
    """An rng whose vector draws are one draw repeated (``laplace(loc, scale, size=n)`` -> n copies of one
    Laplace draw); scalar draws (thresholds, released answers) are the rng's own."""

    def __init__(self, rng: np.random.Generator):
        self._rng = rng

    def laplace(self, loc=0.0, scale=1.0, size=None):
        if size is None:
            return self._rng.laplace(loc, scale)
        return np.full(size, self._rng.laplace(loc, scale))


def _reused_comparison_noise(cls):
    class ReusedComparisonNoise(cls):
        """Broken: one comparison noise draw shared by every query of a run (the one-token mutation
        ``size=x.size`` -> ``size=1`` of the vectorised scan, which broadcasts one draw): then query i fires iff
        f_i(D) >= T^ - nu, a noisy threshold with no per-query noise."""

        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self._rng = _OneComparisonDraw(self._rng)

    ReusedComparisonNoise.__name__ = f"{cls.__name__}ReusedComparisonNoise"
    return ReusedComparisonNoise


QUERY_NOISE_FACTOR = 0.25


def _small_query_noise(cls):
    class SmallQueryNoise(cls):
        """Broken: comparison noise at QUERY_NOISE_FACTOR of the scale the proof needs."""

        @property
        def query_scale(self):
            return QUERY_NOISE_FACTOR * super().query_scale

    SmallQueryNoise.__name__ = f"{cls.__name__}SmallQueryNoise"
    return SmallQueryNoise


def _no_halting(cls):
    class NoHalting(cls):
        """Broken: never halts; every query is compared, however many tops came before."""

        @property
        def halted(self):
            return False

    NoHalting.__name__ = f"{cls.__name__}NoHalting"
    return NoHalting


def _no_redraw(cls):
    class NoRedraw(cls):
        """The threshold drawn once and kept after each top (private: module docstring)."""

        def _draw_threshold(self):
            if getattr(self, "_kept", None) is None:
                self._kept = super()._draw_threshold()
            return self._kept

    NoRedraw.__name__ = f"{cls.__name__}NoRedraw"
    return NoRedraw


def random_answers(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A random pair of answer vectors of K sensitivity-1 queries: q(D0) in {0, 1}^K, q(D1) = q(D0) + d with
    d in {-1, 0, 1}^K (a replacement may move every answer by up to 1, either way)."""
    a0 = rng.integers(0, 2, K).astype(float)
    return a0, a0 + rng.integers(-1, 2, K)


def move_answers(pair, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A local move: one query's answer under D0 moved by +-1 (its difference kept), or its difference redrawn."""
    a0, a1 = (np.array(x, dtype=float) for x in pair)
    i = int(rng.integers(K))
    if rng.random() < 0.5:
        step = float(rng.choice([-1.0, 1.0]))
        a0[i] += step
        a1[i] += step
    else:
        a1[i] = a0[i] + float(rng.integers(-1, 2))
    return a0, a1


def first_top_probabilities(answers, threshold: float, threshold_scale: float, query_scale: float) -> np.ndarray:
    """Dwork-Roth (2014) Algorithm 1 (AboveThreshold; one round of Sparse / NumericSparse), exactly: the probability
    that the first top is query i (i = 0..k-1) and that there is none (last entry), for the answer vector
    ``answers``, T^ = threshold + Lap(threshold_scale), query i firing iff answers[i] + Lap(query_scale) >= T^.

    P(first top at i) = E_T^[prod_{j<i} F(T^ - a_j) (1 - F(T^ - a_i))], P(none) = E_T^[prod_j F(T^ - a_j)], F the
    Laplace(query_scale) cdf: one vector quadrature over T^ (``scipy.integrate.quad_vec``), split at the kinks."""
    from scipy import integrate

    a = np.asarray(answers, dtype=float).reshape(-1)
    b_t, b_q = float(threshold_scale), float(query_scale)

    def cdf(x):
        return np.where(x < 0, 0.5 * np.exp(np.minimum(x, 0.0) / b_q), 1.0 - 0.5 * np.exp(-np.maximum(x, 0.0) / b_q))

    def f(t):
        below = cdf(t - a)
        before = np.r_[1.0, np.cumprod(below)]
        return math.exp(-abs(t - threshold) / b_t) / (2.0 * b_t) * np.r_[before[:-1] * (1.0 - below), before[-1]]

    lo, hi = min(threshold, a.min()) - 60.0 * max(b_t, b_q), max(threshold, a.max()) + 60.0 * max(b_t, b_q)
    pieces = np.unique(np.r_[lo, np.clip(np.r_[a, threshold], lo, hi), hi])
    total = np.zeros(a.size + 1)
    for x0, x1 in zip(pieces[:-1], pieces[1:]):
        if x1 > x0:
            total += integrate.quad_vec(f, x0, x1, epsabs=0.0, epsrel=1e-11)[0]
    return total


def first_top_loss(p0: np.ndarray, p1: np.ndarray, answer_moves=None) -> float:
    """The exact privacy loss of one round's output from its outcome probabilities under D0 and D1
    (``first_top_probabilities``): max over outcomes of |log p0/p1|, plus, for an outcome that releases a
    Laplace(b) answer of a query moved by d, d/b (``answer_moves``: per query, d/b; its density ratio ranges over
    exp(+-d/b), the sup taken jointly)."""
    p0, p1 = np.asarray(p0, dtype=float), np.asarray(p1, dtype=float)
    with np.errstate(divide="ignore"):
        ratio = np.abs(np.log(p0) - np.log(p1))
    ratio[(p0 == 0) & (p1 == 0)] = 0.0
    if answer_moves is not None:
        ratio[:-1] += np.asarray(answer_moves, dtype=float)
    return float(np.max(ratio))


def sparse_pair_loss(make, pair, full: bool = True) -> float:
    """The exact privacy loss of a cut-off-1 sparse-vector object (``make(rng)``: AboveThreshold, Sparse or
    NumericSparse at c = 1) on answer vectors ``pair``: its output is the first top (and, for NumericSparse, that
    query's answer plus Laplace noise, counted when ``full``), so ``first_top_probabilities`` gives it exactly."""
    obj = make(np.random.default_rng(0))
    p0, p1 = (first_top_probabilities(x, obj.threshold, obj.threshold_scale, obj.query_scale) for x in pair)
    moves = None
    if full and isinstance(obj, NumericSparse):
        moves = np.abs(np.asarray(pair[1], dtype=float) - np.asarray(pair[0], dtype=float)) / obj.answer_scale
    return first_top_loss(p0, p1, moves)


def _case(cls, pair: str, statistic=None, search: bool = False, exact: bool = True, rank: bool = False):
    """``exact``: the case gives its pair's exact loss (``sparse_pair_loss``, of what ``statistic`` sees: the
    first top for ``fired`` and ``_tops`` at c = 1, and NumericSparse's answer is not seen by either), which holds
    for the correct classes and the variants whose output is still one round with independent noise. ``rank``
    (with ``exact``): the auditor ranks random pairs of K answers (``random_answers``) by that exact loss
    (``loss_neighbours``), so the line states the worst pair found beside the audited one."""
    def make_case(eps: float, delta: float) -> AuditCase:
        if cls is AboveThreshold or (isinstance(cls, type) and issubclass(cls, AboveThreshold)):
            make = lambda rng: cls(THRESHOLD, eps, rng)  # noqa: E731
        else:
            make = lambda rng: cls(THRESHOLD, C, eps, rng, delta=delta)  # noqa: E731
        extra = {"neighbours": random_answers, "mutate": move_answers, "starts": (PAIRS["swap"],)} if search else {}
        if exact and delta == 0.0:
            extra["pair_loss"] = lambda p: sparse_pair_loss(make, p, full=False)
            if rank and not search:
                extra["loss_neighbours"] = random_answers
        return AuditCase(_mechanism(make, statistic), None, PAIRS[pair], None, float(eps), float(delta),
                         batched=True, **extra)

    return make_case


_SAMPLES = 100_000
_SWAP_SAMPLES = 100_000
_SHIFT_SAMPLES = 20_000  # 32 queries, up to 32 tops (and redraws) per output without halting: slower per sample
SPARSE_EPS = 1.0
_T = []
for _name, _cls, _src in (("above_threshold", AboveThreshold, "DR14 Thm 3.23"),
                          ("sparse", SparseVector, "DR14 Thm 3.25"),
                          ("numeric_sparse", NumericSparse, "DR14 Thm 3.27")):
    _eps = 1.0 if _cls is AboveThreshold else SPARSE_EPS
    _T.append(AuditTarget(_name, _src, f"{_cls.__name__} on the Lyu-Su-Li pair, k={K}" +
                          ("" if _cls is AboveThreshold else f", c={C}"), _case(_cls, "lsl", rank=True),
                          default_samples=_SAMPLES, default_eps=_eps))
    _T.append(AuditTarget(f"{_name}_searched", _src, f"{_cls.__name__}, k={K}" +
                          ("" if _cls is AboveThreshold else f", c={C}") +
                          ", full output, pair searched from the Lyu-Su-Li and swapped-order pairs",
                          _case(_cls, "lsl", fired, search=True), default_samples=_SWAP_SAMPLES, default_eps=_eps))
    _T.append(AuditTarget(f"{_name}_reused_comparison_noise", f"{_src} (broken)",
                          f"{_cls.__name__} with one comparison noise draw shared by all queries, pair searched",
                          _case(_reused_comparison_noise(_cls), "lsl", fired, search=True, exact=False),
                          expect_private=False,
                          default_samples=_SWAP_SAMPLES, default_eps=_eps))
    _T.append(AuditTarget(f"{_name}_small_query_noise", f"{_src} (broken)",
                          f"{_cls.__name__} with its comparison noise at {QUERY_NOISE_FACTOR:g} of its scale, "
                          f"Lyu-Su-Li pair",
                          _case(_small_query_noise(_cls), "lsl"), expect_private=False, default_samples=_SAMPLES,
                          default_eps=_eps))
    if _cls is AboveThreshold:
        continue
    _T.append(AuditTarget(f"{_name}_shift", _src, f"{_cls.__name__} on the all-answers-shifted pair, c={C}",
                          _case(_cls, "shift"), default_samples=_SHIFT_SAMPLES, default_eps=_eps))
    _T.append(AuditTarget(f"{_name}_no_halting", f"{_src} (broken)",
                          f"{_cls.__name__} that does not halt after c={C} tops, shifted pair",
                          _case(_no_halting(_cls), "shift", exact=False), expect_private=False,
                          default_samples=_SHIFT_SAMPLES,
                          default_eps=_eps))
    _T.append(AuditTarget(f"{_name}_no_redraw", f"{_src}; LSL17 Alg 1",
                          f"{_cls.__name__} without threshold redraw (private by Lyu-Su-Li Thm 1), Lyu-Su-Li pair",
                          _case(_no_redraw(_cls), "lsl", rank=True), default_samples=_SAMPLES, default_eps=_eps))

TARGETS = tuple(_T)

#: the contract test's sample counts (tests/simulations/test_contract.py), the least of 1,000 / 3,000 /
#: 10,000 / 30,000 at which the outcome was as expected in a measured run (seed 5)
TARGETS = with_ci_samples(TARGETS, {
    "above_threshold": 3_000, "above_threshold_small_query_noise": 30_000,
    "sparse": 3_000, "sparse_small_query_noise": 10_000, "sparse_shift": 3_000, "sparse_no_halting": 10_000,
    "sparse_no_redraw": 3_000, "numeric_sparse": 3_000, "numeric_sparse_small_query_noise": 10_000,
    "numeric_sparse_shift": 3_000, "numeric_sparse_no_halting": 10_000, "numeric_sparse_no_redraw": 3_000,
    "above_threshold_searched": 4_000, "sparse_searched": 4_000, "numeric_sparse_searched": 4_000,
    "above_threshold_reused_comparison_noise": 4_000, "sparse_reused_comparison_noise": 4_000,
    "numeric_sparse_reused_comparison_noise": 4_000,
})
