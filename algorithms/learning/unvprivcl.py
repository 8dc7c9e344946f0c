"""NB20 Algorithm 4 (A_UnvPrivCl): any number of classification queries; Theorem 11.

Steps, as printed, with the corrections bounds nb20:thm11 encodes:

1. m_o (bounds nb20:thm11 ``public_samples``: max(printed 32 (d log(1/alpha) + log(1/beta))/alpha,
   A_SSPP's cover size), erratum), m' = min(m_o, m);
2. the first m' queries answered online by A_AgPrivCl(S, m', ..., eps/2, delta, alpha, beta/2);
3-5. if m' = m_o: T_pub = (x~_1, ..., x~_{m_o}), h_priv = A_SSPP(S, T_pub, H, eps/2);
6-7. every later query answered by h_priv(x~_j).

Erratum (budget, bounds nb20:thm11): both phases read the same private S, so the printed Algorithm 4
(eps for each) is (2 eps, delta)-DP by basic composition. Here each phase gets eps/2 (and beta/2),
and the two spends are composed on an ``Accountant``: total (eps_1 + eps/2, delta_1) with (eps_1,
delta_1) A_AgPrivCl's Lemma 8 total at eps/2, which is <= (eps, delta).

Online: ``answer(x)`` answers each query before the next is seen; h_priv is computed right after the
m_o-th query (it depends on S and the first m_o query points only).

``UnvPrivCl.after_step2`` is the exact-law entry of experiments: A_AgPrivCl started from S' (see
:mod:`algorithms.learning.agprivcl`) and A_SSPP fed the histogram of S (A_SSPP reads S only through the
error counts of H~: ``a_sspp``'s ``counts``, :func:`sspp_from_histogram`), so S never has to be held as n examples.
``UnvPrivCl.after_step2_counts`` does the same with S' as a labelled histogram (A_AgPrivCl's count-based
path), and ``UnvPrivCl.from_counts`` starts from S's histogram (step 2 of A_AgPrivCl by its exact
multivariate hypergeometric law): both phases then cost O(k + N) whatever n.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..classes.finite import FiniteClass, validate_index, validate_indices
from ..privacy.accounting import Accountant, Guarantee, PureDP, Release, _check_positive_finite, _check_positive_int
from ..privacy.mechanisms import _check_rng
from .agprivcl import AgPrivCl, AgPrivClParams
from .erm import labeled_counts, positive_labels
from .sspp import a_sspp
from .subsamp import QueryAnswers, answer_online

REALISES = ("nb20:alg4", "nb20:thm11")  # the results this module's algorithm realises (bounds show lists it)

__all__ = ["UnvPrivClParams", "UnvPrivCl", "a_unvprivcl", "sspp_from_histogram", "label_histogram"]


@dataclass(frozen=True)
class UnvPrivClParams:
    """NB20 Algorithm 4: eps, m = ``num_queries``, m_o (bounds nb20:thm11 public_samples), the first
    phase's A_AgPrivCl settings at (eps/2, delta, alpha, beta/2, m') in ``first`` and A_SSPP's eps/2."""

    eps: float
    num_queries: int
    m_o: int
    first: AgPrivClParams

    def __post_init__(self) -> None:
        _check_positive_finite("eps", self.eps)
        _check_positive_int("num_queries", self.num_queries)
        _check_positive_int("m_o", self.m_o)
        if not isinstance(self.first, AgPrivClParams):
            raise ValueError(f"first must be an AgPrivClParams, got {type(self.first).__name__}")
        if self.first.num_queries != self.first_phase_queries:
            raise ValueError(f"first.num_queries={self.first.num_queries} must equal m' = min(m_o, m) = "
                             f"{self.first_phase_queries}")
        if not math.isclose(self.first.eps, self.eps / 2.0, rel_tol=1e-12):
            raise ValueError(f"first.eps={self.first.eps!r} must be eps/2 = {self.eps / 2.0!r} (budget split)")

    @property
    def first_phase_queries(self) -> int:
        """m' = min(m_o, m)."""
        return min(self.m_o, self.num_queries)

    @property
    def sspp_eps(self) -> float:
        """A_SSPP's share of the budget: eps/2 (erratum: the printed eps is spent twice)."""
        return self.eps / 2.0


def label_histogram(num_points: int, points, positive) -> tuple[np.ndarray, np.ndarray]:
    """(pos, neg): the number of examples (x, 1) and (x, 0) at every point x of the domain."""
    pos = np.bincount(points, weights=positive.astype(np.float64), minlength=num_points)
    neg = np.bincount(points, minlength=num_points) - pos
    return pos, neg


def sspp_from_histogram(cls: FiniteClass, pos: np.ndarray, neg: np.ndarray, public_points, eps: float,
                        rng: np.random.Generator) -> int:
    """ABM19 Algorithm 1 (A_SSPP) on the private sample with histogram (pos, neg) (``a_sspp``'s ``counts``:
    the same law as on the expanded sample). Returns h_priv, a row index of ``cls``."""
    N = cls.num_points
    points = np.concatenate([np.arange(N), np.arange(N)])
    labels = np.concatenate([np.ones(N, dtype=bool), np.zeros(N, dtype=bool)])
    counts = np.rint(np.concatenate([pos, neg])).astype(np.int64)
    return int(a_sspp(cls, points, labels, public_points, eps, rng, counts=counts).value)


class UnvPrivCl:
    """NB20 Algorithm 4 as an online object; ``accountant`` composes the two phases' spends."""

    def __init__(self, cls: FiniteClass, points, labels, params: UnvPrivClParams, rng: np.random.Generator):
        x = validate_indices(points, cls.num_points, "points")
        y = positive_labels(labels, x.size)
        self._setup(cls, params, rng, label_histogram(cls.num_points, x, y))
        self.first = AgPrivCl(cls, x, y, params.first, self._rng)

    @classmethod
    def after_step2(cls_, cls: FiniteClass, sub_points, sub_labels, histogram: tuple[np.ndarray, np.ndarray],
                    params: UnvPrivClParams, rng: np.random.Generator) -> "UnvPrivCl":
        """Exact-law entry (module docstring): S' for A_AgPrivCl and the histogram (pos, neg) of the S that
        contains it (n = its total) for A_SSPP."""
        self = cls_.__new__(cls_)
        self._setup(cls, params, rng, histogram)
        self.first = AgPrivCl.after_step2(cls, sub_points, sub_labels, self.n, params.first, self._rng)
        return self

    @classmethod
    def after_step2_counts(cls_, cls: FiniteClass, sub_counts, histogram: tuple[np.ndarray, np.ndarray],
                           params: UnvPrivClParams, rng: np.random.Generator) -> "UnvPrivCl":
        """As :meth:`after_step2` with S' given as its labelled histogram (``erm.labeled_counts`` layout)."""
        self = cls_.__new__(cls_)
        self._setup(cls, params, rng, histogram)
        self.first = AgPrivCl.after_step2_counts(cls, sub_counts, self.n, params.first, self._rng)
        return self

    @classmethod
    def from_counts(cls_, cls: FiniteClass, counts, params: UnvPrivClParams, rng: np.random.Generator) -> "UnvPrivCl":
        """Algorithm 4 on S given as its labelled histogram (count-based A_AgPrivCl from step 2, A_SSPP on the
        same histogram)."""
        c = labeled_counts(cls, counts)
        self = cls_.__new__(cls_)
        self._setup(cls, params, rng, (c[:, 1], c[:, 0]))
        self.first = AgPrivCl.from_counts(cls, c, params.first, self._rng)
        return self

    def _setup(self, cls, params, rng, histogram) -> None:
        if not isinstance(cls, FiniteClass):
            raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
        if not isinstance(params, UnvPrivClParams):
            raise ValueError(f"params must be a UnvPrivClParams, got {type(params).__name__}")
        pos, neg = (np.asarray(h, dtype=np.float64) for h in histogram)
        if pos.shape != (cls.num_points,) or neg.shape != (cls.num_points,) or min(pos.min(), neg.min()) < 0:
            raise ValueError(f"histogram must be two non-negative arrays of length {cls.num_points}")
        self.cls, self.params, self._rng = cls, params, _check_rng(rng)
        self._pos, self._neg = pos, neg
        self.n = int(round(float(pos.sum() + neg.sum())))
        self.public: list[int] = []
        self.h_priv: int | None = None
        self.asked = 0
        self.accountant = Accountant()

    @property
    def guarantee(self) -> Guarantee:
        """The spends so far: A_AgPrivCl's (from the start), plus A_SSPP's once h_priv exists."""
        acct = Accountant()
        for label, g in self.first.accountant.entries:
            acct.spend(label, g)
        for label, g in self.accountant.entries:
            acct.spend(label, g)
        return acct.total()

    @property
    def halted_at(self):
        return self.first.halted_at

    def answer(self, x) -> tuple[bool, bool]:
        """One query, online: (label, unstable). Phase 1 for the first m' queries, then h_priv(x)."""
        p = self.params
        if self.asked >= p.num_queries:
            raise ValueError(f"query {self.asked + 1} out of range: A_UnvPrivCl was set up for m={p.num_queries}")
        xi = validate_index(x, self.cls.num_points, "x")
        self.asked += 1
        if self.asked <= p.first_phase_queries:
            out = self.first.answer(xi)
            self.public.append(xi)
            if self.asked == p.m_o:                                        # steps 3-5
                self.h_priv = sspp_from_histogram(self.cls, self._pos, self._neg, np.array(self.public),
                                                  p.sspp_eps, self._rng)
                self.accountant.spend("A_SSPP (ABM19 Alg 1) at eps/2", PureDP(p.sspp_eps))
            return out
        return bool(self.cls.matrix[self.h_priv, xi]), False             # steps 6-7


def a_unvprivcl(cls: FiniteClass, points, labels, queries, params: UnvPrivClParams,
                rng: np.random.Generator) -> Release:
    """NB20 Algorithm 4 (A_UnvPrivCl): ``Release((QueryAnswers, h_priv or None), composed guarantee)``."""
    algo = UnvPrivCl(cls, points, labels, params, rng)
    answers: QueryAnswers = answer_online(algo, queries)
    return Release((answers, algo.h_priv), algo.guarantee)
