"""ABM19 Algorithm 1 (A_SSPP): the semi-supervised semi-private agnostic learner of Theorem 3.1.

Steps, exactly as printed:

1-2. T~ = the distinct points of the unlabeled public sample T_pub; Pi_H(T~) = the patterns of H on T~;
3-5. H~_Tpub = one hypothesis of H per pattern (here: the least row index having it,
     :func:`algorithms.classes.build_cover`);
6.   the exponential mechanism over H~_Tpub with score q(S_priv, h) = -err_hat(h; S_priv), whose
     sensitivity is 1/n_priv (one changed example moves err_hat by at most 1/n_priv):
     Pr[h] proportional to exp(eps q(S, h) / (2/n_priv)) = exp(-eps n_priv err_hat(h; S) / 2);
7.   return h_priv.

Lemma 3.2: for every fixed T_pub the algorithm is eps-DP in S_priv (H~ depends on T_pub only);
the output is ``Release(hypothesis, PureDP(eps))`` with ``hypothesis`` a row index of H.

The semi-private learner interface used by the reduction B (ABM19 Algorithm 2,
:mod:`algorithms.adversaries.public_reduction`) is a callable
``learner(private_points, private_labels, public_points, public_labels, rng) -> Release``;
:class:`ASSPP` is A_SSPP in that shape (it ignores the public labels: semi-supervised).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..classes.cover import Cover, build_cover
from ..classes.finite import FiniteClass, validate_indices
from ..privacy.accounting import PureDP, Release
from ..privacy.mechanisms import ExponentialMechanism
from .erm import _errors_from_point_weights, as_labeled_sample

REALISES = ("abm19:thm3.1",)  # the results this module's algorithm realises (bounds show lists it)

__all__ = ["SSPPLaw", "ASSPP", "sspp_cover", "sspp_scores", "a_sspp", "a_sspp_law", "a_sspp_sample"]


def sspp_cover(cls: FiniteClass, public_points) -> Cover:
    """ABM19 Algorithm 1, steps 1-5: H~_Tpub, one hypothesis of H per pattern on the distinct public points."""
    if not isinstance(cls, FiniteClass):
        raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
    return build_cover(cls, validate_indices(public_points, cls.num_points, "public_points"))


def _private_sample(cover: Cover, private_points, private_labels, counts):
    """S_priv validated; with ``counts`` it is the multiset holding example i counts[i] times."""
    s = as_labeled_sample(private_points, private_labels, counts, num_points=cover.cls.num_points)
    if counts is not None:
        w = s.weights
        if np.any(w != np.round(w)) or w.sum() < 1:
            raise ValueError("counts must be non-negative integers (multiplicities) with a total >= 1")
    return s


def sspp_scores(cover: Cover, private_points, private_labels, *, counts=None) -> np.ndarray:
    """ABM19 Algorithm 1, step 6: the score q(S_priv, h) = -err_hat(h; S_priv) of every member of H~
    (in the order of ``cover.members``); sensitivity 1/n_priv.

    ``counts`` (optional): integer multiplicities, S_priv given as a histogram (example i appears
    counts[i] times; n_priv = counts.sum()); the same sample as the expanded list, at O(#distinct) cost.
    """
    if not isinstance(cover, Cover):
        raise ValueError(f"cover must be a Cover (algorithms.classes.build_cover), got {type(cover).__name__}")
    s = _private_sample(cover, private_points, private_labels, counts)
    errors = _errors_from_point_weights(cover.matrix(), *s.point_weights())
    return -errors / s.total_weight


def _mechanism(eps: float, n_priv: int) -> ExponentialMechanism:
    """ABM19 Algorithm 1, step 6: the exponential mechanism at eps with sensitivity 1/n_priv."""
    return ExponentialMechanism(eps=eps, sensitivity=1.0 / n_priv)


@dataclass(frozen=True, eq=False)
class SSPPLaw:
    """ABM19 Algorithm 1: the exact output law of A_SSPP for fixed (S_priv, T_pub).

    cover : H~_Tpub (steps 1-5).
    scores : -err_hat(h; S_priv) of each member (step 6).
    probabilities : Pr[h_priv = cover.members[j]] for each member j (the exponential mechanism's law).
    """

    cover: Cover
    scores: np.ndarray
    probabilities: np.ndarray

    @property
    def members(self) -> np.ndarray:
        """Row indices in H of the members of H~, in the order of ``probabilities``."""
        return self.cover.members

    def hypothesis_probabilities(self) -> np.ndarray:
        """Pr[h_priv = h] for every row h of H (zero outside H~)."""
        out = np.zeros(self.cover.cls.num_hypotheses)
        out[self.cover.members] = self.probabilities
        return out


def _n_priv(private_points, counts) -> int:
    return int(np.asarray(private_points).size if counts is None else round(float(np.sum(counts))))


def a_sspp_law(cls: FiniteClass, private_points, private_labels, public_points, eps: float, *,
               counts=None) -> SSPPLaw:
    """ABM19 Algorithm 1: the exact law of h_priv over H~_Tpub (for tests and the privacy auditor);
    ``counts`` as in :func:`sspp_scores`."""
    cover = sspp_cover(cls, public_points)
    scores = sspp_scores(cover, private_points, private_labels, counts=counts)
    probs = _mechanism(eps, _n_priv(private_points, counts)).probabilities(scores)
    return SSPPLaw(cover=cover, scores=scores, probabilities=probs)


def a_sspp(cls: FiniteClass, private_points, private_labels, public_points, eps: float,
           rng: np.random.Generator, *, counts=None) -> Release:
    """ABM19 Algorithm 1 (A_SSPP): ``Release(h_priv, PureDP(eps))``, h_priv a row index of ``cls``.

    private_points, private_labels : S_priv (n_priv >= 1 labeled examples; labels in {0,1},
        {-1,+1} or bool, 1 / +1 / True positive as in :mod:`algorithms.learning.erm`).
    public_points : T_pub, unlabeled public point indices (repetitions allowed, at least one).
    eps : the privacy parameter (> 0); Lemma 3.2: eps-DP in S_priv for every T_pub.
    counts : optional integer multiplicities (S_priv as a histogram, n_priv = counts.sum()), see
        :func:`sspp_scores`; the output law is that of the expanded sample.
    """
    cover = sspp_cover(cls, public_points)
    scores = sspp_scores(cover, private_points, private_labels, counts=counts)
    j = _mechanism(eps, _n_priv(private_points, counts)).release(scores, rng).value
    return Release(int(cover.members[j]), PureDP(eps))


def a_sspp_sample(cls: FiniteClass, private_points, private_labels, public_points, eps: float,
                  rng: np.random.Generator, size: int, *, counts=None) -> np.ndarray:
    """ABM19 Algorithm 1: ``size`` independent runs of A_SSPP on the same (S_priv, T_pub), as an int array of
    row indices of ``cls`` (draws from the output law for tests and the privacy auditor, not a release:
    each draw spends eps). Steps 1-5 and the scores are deterministic, so they are computed once."""
    cover = sspp_cover(cls, public_points)
    scores = sspp_scores(cover, private_points, private_labels, counts=counts)
    return cover.members[_mechanism(eps, _n_priv(private_points, counts)).sample(scores, rng, size)]


@dataclass(frozen=True)
class ASSPP:
    """ABM19 Algorithm 1 as a semi-private learner callable (the interface B of Algorithm 2 wraps):
    ``ASSPP(cls, eps)(private_points, private_labels, public_points, public_labels, rng)``.

    The public labels are ignored (A_SSPP is semi-supervised: Definition 2.4).
    """

    cls: FiniteClass
    eps: float

    def __post_init__(self) -> None:
        if not isinstance(self.cls, FiniteClass):
            raise ValueError(f"cls must be a FiniteClass, got {type(self.cls).__name__}")
        PureDP(self.eps)  # validates eps >= 0 finite
        if not self.eps > 0:
            raise ValueError(f"eps={self.eps!r} out of range: allowed (0, inf)")

    @property
    def guarantee(self) -> PureDP:
        return PureDP(self.eps)

    def __call__(self, private_points, private_labels, public_points, public_labels,
                 rng: np.random.Generator) -> Release:
        return a_sspp(self.cls, private_points, private_labels, public_points, self.eps, rng)
