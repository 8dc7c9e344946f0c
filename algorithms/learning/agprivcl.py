"""NB20 Algorithm 3 (A_AgPrivCl): private agnostic classification queries by relabelling (Algorithm 2)
then A_SubSamp (Algorithm 5) in the realizable setting; Theorem 7, privacy by Lemma 8.

Steps, as printed, with the parameters of ``AgPrivClParams`` (taken from bounds nb20:alg3 and
nb20:alg5 by the caller):

1. n' = floor(eps n / 56) (``rate`` = eps/56); T, eps', eps^, delta^ as in bounds nb20:alg3;
2. S' = n' examples of S sampled uniformly without replacement;
3. S'' = A_Relabel(S', H) (:mod:`algorithms.learning.relabel`);
4. S^ = n' draws with replacement from S'';
5. the answers = A_SubSamp(S^, m, Q, B_PAC, T, eps^, delta^, beta), online.

Privacy (Lemma 8), composed here from the guarantees actually declared (:func:`lemma8_chain`):
A_SubSamp's declared (eps_s, delta_s) (<= (eps^, delta^)); group privacy for the r copies of one
record of S'' in S^ (r ~ Bin(n', 1/n')), for every r <= r_max = floor(log(2/delta)):
(r_max eps_s, r_max e^{(r_max - 1) eps_s} delta_s); plus P[r > r_max] (the exact binomial tail; Lemma 8
writes delta/2, which holds only for delta <= 2 e^{-4}, see bounds nb20:alg3's notes); then Lemma 5
(eps* + 3, 4 e delta*) for eps* <= 1; then amplification by sampling n' of n without replacement
(Balle-Barthe-Gaboardi 2018 Thm 9: log(1 + (n'/n)(e^{eps} - 1)), (n'/n) delta). The total is recorded
on an ``Accountant`` and returned with the answers; it is <= (eps, delta) on the domain of Theorem 7.

``AgPrivCl.after_step2`` starts from step 3 with S' given and n stated: for an i.i.d. S, a uniformly
random subset of n' examples is itself n' i.i.d. draws, so an experiment may draw S' directly (the
same law for the answers) without holding the n examples in memory; the accounting still uses n.

Count-based path (``AgPrivCl.from_counts``, ``AgPrivCl.after_step2_counts``): the same algorithm on labelled
histograms over the 2N cells (``erm.labeled_counts``), every sample drawn from its exact law given the counts
before it: S' multivariate hypergeometric of n' from S (step 2, sampling without replacement; n below numpy's
limit ``subsamp.MAX_HYPERGEOMETRIC_TOTAL``), S'' = A_Relabel on S''s histogram
(:func:`algorithms.learning.relabel.a_relabel_counts`), and S^'s k sub-samples independent multinomials of
floor(n'/k) over the empirical law of S'' (steps 4-5 with replacement,
:func:`algorithms.learning.subsamp.resample_hypotheses_counts`). A trial at Theorem 7's n (~10^11) costs k
multinomial draws and k ERMs on 2N cells. tests/algorithms/test_learning_nb20_counts.py checks that both
paths give the same answer law.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from .._lazy import lazy_module
from ..classes.finite import FiniteClass, validate_indices
from ..privacy.accounting import (Accountant, ApproxDP, Guarantee, Release, _check_delta,
                                  _check_positive_finite, _check_positive_int, amplify_by_subsampling,
                                  group_privacy)
from ..privacy.mechanisms import _check_rng
from .erm import positive_labels
from .erm import labeled_counts
from .relabel import Relabeled, RelabeledCounts, a_relabel, a_relabel_counts, lemma5_guarantee
from .subsamp import (MAX_HYPERGEOMETRIC_TOTAL, QueryAnswers, SubSamp, SubSampParams, answer_online,
                      resample_hypotheses_counts)

REALISES = ("nb20:alg3", "nb20:thm7")  # the results this module's algorithm realises (bounds show lists it)

sps = lazy_module("scipy.stats")  # imported on first use: list commands must start fast

__all__ = ["AgPrivClParams", "AgPrivCl", "AgPrivClOutput", "a_agprivcl", "lemma8_chain"]


@dataclass(frozen=True)
class AgPrivClParams:
    """NB20 Algorithm 3's inputs (eps, delta, alpha, beta, m = ``num_queries``) and step-1 settings
    (bounds nb20:alg3: ``rate`` = n'/n = eps/56, ``cutoff`` T, ``eps_hat``, ``delta_hat``), with the
    A_SubSamp settings at (eps^, delta^, beta, m, T) (bounds nb20:alg5) in ``subsamp``."""

    eps: float
    delta: float
    alpha: float
    beta: float
    num_queries: int
    rate: float
    cutoff: float
    eps_hat: float
    delta_hat: float
    subsamp: SubSampParams

    def __post_init__(self) -> None:
        _check_positive_finite("eps", self.eps)
        _check_delta("delta", self.delta, allow_zero=False)
        _check_delta("alpha", self.alpha, allow_zero=False)
        _check_delta("beta", self.beta, allow_zero=False)
        _check_positive_int("num_queries", self.num_queries)
        if not (0.0 < self.rate <= 1.0):
            raise ValueError(f"rate={self.rate!r} out of range: allowed (0, 1]")
        if not isinstance(self.subsamp, SubSampParams):
            raise ValueError(f"subsamp must be a SubSampParams, got {type(self.subsamp).__name__}")
        s = self.subsamp
        for name, mine, theirs in (("eps_hat", self.eps_hat, s.eps), ("delta_hat", self.delta_hat, s.delta),
                                   ("cutoff", self.cutoff, s.cutoff), ("beta", self.beta, s.beta)):
            if not math.isclose(mine, theirs, rel_tol=1e-12):
                raise ValueError(f"subsamp.{name}={theirs!r} must equal Algorithm 3's {name}={mine!r}")
        if s.num_queries != self.num_queries:
            raise ValueError(f"subsamp.num_queries={s.num_queries} must equal num_queries={self.num_queries}")

    @property
    def group_size(self) -> int:
        """r_max = floor(log(2/delta)): the copies of one record Lemma 8's group privacy covers."""
        return max(1, int(math.floor(math.log(2.0 / self.delta))))

    def n_prime(self, n: int) -> int:
        """Step 1: n' = floor(rate n)."""
        return int(math.floor(self.rate * n))

    def min_private_samples(self) -> int:
        """The least n with n' >= k (A_SubSamp needs one example per sub-sample)."""
        return int(math.ceil(self.subsamp.k / self.rate))


def lemma8_chain(params: AgPrivClParams, n: int) -> list[tuple[str, Guarantee]]:
    """NB20 Lemma 8, step by step (module docstring): [(step, guarantee)], the last one the total."""
    return list(_lemma8_chain(params, int(n)))


@functools.lru_cache(maxsize=64)
def _lemma8_chain(params: AgPrivClParams, n: int) -> tuple:
    """``lemma8_chain``'s steps, computed once per (params, n): a run's accounting is a function of them alone,
    and its binomial tail is a tenth of a run of the algorithm on its own."""
    n_prime = params.n_prime(n)
    if n_prime < 1:
        raise ValueError(f"n={n} out of range: allowed n with n' = floor(rate n) >= 1")
    r = params.group_size
    g_sub = params.subsamp.guarantee()
    g_group = group_privacy(g_sub, r)
    p_bad = float(sps.binom.sf(r, n_prime, 1.0 / n_prime))
    g_r = ApproxDP(g_group.eps, g_group.delta + p_bad)
    g_l5 = lemma5_guarantee(g_r)
    g_total = amplify_by_subsampling(g_l5, n_prime / n)
    return (("A_SubSamp at (eps^, delta^)", g_sub),
            (f"group privacy over r <= {r} copies in S^", g_group),
            (f"R o A_SubSamp (+ P[r > {r}] = {p_bad:.3g})", g_r),
            ("Lemma 5: A_Relabel then (eps*, delta*)-DP", g_l5),
            (f"amplification: n'/n = {n_prime}/{n}", g_total))


@dataclass(frozen=True, eq=False)
class AgPrivClOutput:
    """What A_AgPrivCl released (``answers``) plus what a validation may inspect: h^ of A_Relabel,
    n', and the k sub-sample hypotheses of A_SubSamp (not released)."""

    answers: QueryAnswers
    relabel_hypothesis: int
    n_prime: int
    subsample_hypotheses: np.ndarray


class AgPrivCl:
    """NB20 Algorithm 3 as an online object: steps 1-4 and A_SubSamp's steps 1-5 at construction,
    then ``answer(x)`` per query. ``accountant`` holds the Lemma 8 total (one spend)."""

    def __init__(self, cls: FiniteClass, points, labels, params: AgPrivClParams, rng: np.random.Generator):
        x, y, rng = self._check(cls, points, labels, params, rng)
        n = x.size
        n_prime = params.n_prime(n)
        self._need(params, n, n_prime)
        keep = rng.choice(n, size=n_prime, replace=False)                  # step 2
        self._build(cls, x[keep], y[keep], n, params, rng)

    @classmethod
    def after_step2(cls_, cls: FiniteClass, sub_points, sub_labels, n: int, params: AgPrivClParams,
                    rng: np.random.Generator) -> "AgPrivCl":
        """Start at step 3 with S' given (n' = floor(rate n) examples) for an S of n examples (module docstring)."""
        x, y, rng = cls_._check(cls, sub_points, sub_labels, params, rng)
        n = _check_positive_int("n", n)
        if x.size != params.n_prime(n):
            raise ValueError(f"sub_points has {x.size} examples: allowed exactly n' = floor(rate n) = "
                             f"{params.n_prime(n)} for n={n}")
        cls_._need(params, n, x.size)
        self = cls_.__new__(cls_)
        self._build(cls, x, y, n, params, rng)
        return self

    @classmethod
    def from_counts(cls_, cls: FiniteClass, counts, params: AgPrivClParams, rng: np.random.Generator) -> "AgPrivCl":
        """The count-based path (module docstring) on S given as its labelled histogram: step 2 draws S''s
        histogram, multivariate hypergeometric of n' from S (n <= MAX_HYPERGEOMETRIC_TOTAL)."""
        c, rng = cls_._check_counts(cls, counts, params, rng)
        n = int(c.sum())
        if n > MAX_HYPERGEOMETRIC_TOTAL:
            raise ValueError(f"n={n} out of range for the exact step 2: allowed n <= {MAX_HYPERGEOMETRIC_TOTAL} "
                             "(for an i.i.d. S draw S' directly: after_step2_counts)")
        n_prime = params.n_prime(n)
        cls_._need(params, n, n_prime)
        sub = rng.multivariate_hypergeometric(c.ravel(), n_prime, method="marginals").reshape(c.shape)
        self = cls_.__new__(cls_)
        self._build_counts(cls, sub, n, params, rng)
        return self

    @classmethod
    def after_step2_counts(cls_, cls: FiniteClass, sub_counts, n: int, params: AgPrivClParams,
                           rng: np.random.Generator) -> "AgPrivCl":
        """The count-based path from step 3, S' given as its labelled histogram (n' = floor(rate n) examples)
        for an S of n examples; for an i.i.d. S, S' is multinomial(n', D) (module docstring)."""
        c, rng = cls_._check_counts(cls, sub_counts, params, rng)
        n = _check_positive_int("n", n)
        if int(c.sum()) != params.n_prime(n):
            raise ValueError(f"sub_counts holds {int(c.sum())} examples: allowed exactly n' = floor(rate n) = "
                             f"{params.n_prime(n)} for n={n}")
        cls_._need(params, n, int(c.sum()))
        self = cls_.__new__(cls_)
        self._build_counts(cls, c, n, params, rng)
        return self

    @staticmethod
    def _check_counts(cls, counts, params, rng):
        if not isinstance(cls, FiniteClass):
            raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
        if not isinstance(params, AgPrivClParams):
            raise ValueError(f"params must be an AgPrivClParams, got {type(params).__name__}")
        return labeled_counts(cls, counts), _check_rng(rng)

    @staticmethod
    def _check(cls, points, labels, params, rng):
        if not isinstance(cls, FiniteClass):
            raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
        if not isinstance(params, AgPrivClParams):
            raise ValueError(f"params must be an AgPrivClParams, got {type(params).__name__}")
        x = validate_indices(points, cls.num_points, "points")
        return x, positive_labels(labels, x.size), _check_rng(rng)

    @staticmethod
    def _need(params: AgPrivClParams, n: int, n_prime: int) -> None:
        if n_prime < params.subsamp.k:
            raise ValueError(f"n={n} out of range: n' = floor(eps n/56) = {n_prime} < k = {params.subsamp.k} "
                             f"sub-samples; allowed n >= {params.min_private_samples()}")

    def _build(self, cls, sub_x, sub_y, n, params, rng) -> None:
        self.cls, self.params, self.n = cls, params, n
        self.relabeled: Relabeled | RelabeledCounts = a_relabel(cls, sub_x, sub_y, rng)    # step 3
        self.n_prime = n_prime = sub_x.size
        pick = rng.integers(n_prime, size=n_prime)                        # step 4
        self.subsamp = SubSamp(cls, self.relabeled.points[pick], self.relabeled.labels[pick],
                               params.subsamp, rng)                       # step 5 (steps 1-5 of Alg 5)
        self._account(params, n)

    def _build_counts(self, cls, sub_counts, n, params, rng) -> None:
        self.cls, self.params, self.n = cls, params, n
        self.relabeled = a_relabel_counts(cls, sub_counts, rng)           # step 3
        self.n_prime = self.relabeled.size
        hyps = resample_hypotheses_counts(cls, self.relabeled.counts, params.subsamp.k, rng)  # steps 4-5
        self.subsamp = SubSamp.from_hypotheses(cls, hyps, params.subsamp, rng)
        self._account(params, n)

    def _account(self, params, n) -> None:
        self.chain = lemma8_chain(params, n)
        self.accountant = Accountant()
        self.accountant.spend("A_AgPrivCl (NB20 Lemma 8)", self.chain[-1][1])

    @property
    def guarantee(self) -> Guarantee:
        return self.accountant.total()

    @property
    def halted_at(self):
        return self.subsamp.halted_at

    def answer(self, x) -> tuple[bool, bool]:
        """One query, online: (label, unstable)."""
        return self.subsamp.answer(x)

    def output(self, answers: QueryAnswers) -> AgPrivClOutput:
        return AgPrivClOutput(answers, self.relabeled.hypothesis, self.n_prime, self.subsamp.hypotheses)


def a_agprivcl(cls: FiniteClass, points, labels, queries, params: AgPrivClParams,
               rng: np.random.Generator) -> Release:
    """NB20 Algorithm 3 (A_AgPrivCl) on S = (points, labels), queries answered online:
    ``Release(AgPrivClOutput, Lemma 8 total)``."""
    algo = AgPrivCl(cls, points, labels, params, rng)
    answers = answer_online(algo, queries)
    return Release(algo.output(answers), algo.guarantee)
