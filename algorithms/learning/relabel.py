"""NB20 Algorithm 2 (A_Relabel, the relabelling of Beimel-Nissim-Stemmer 2015): from agnostic to realizable.

Steps, exactly as printed:

1-3. H~ = one hypothesis of H per dichotomy of H on S'_u = (x_1, ..., x_n') (the unlabeled version
     of S'); here the least row index having it (:func:`algorithms.classes.build_cover`);
4.   h^ selected from H~ by the exponential mechanism with privacy eps~ = 1 (``EPS_TILDE``) and score
     q(S', h) = -err^(h; S') (sensitivity 1/n');
5-6. S'' = S'_u relabelled by h^: the output.

Steps 1-4 are A_SSPP (ABM19 Algorithm 1) with the public sample T_pub = S'_u and eps = eps~:
:func:`algorithms.learning.sspp.a_sspp` does them, so the exponential mechanism is written once.

Privacy: A_Relabel's output contains the points of S' and is not differentially private by itself.
NB20 Lemma 5 (BNS15 Lemma 4.1): if A is (1, delta)-DP then A o A_Relabel is (4, 4 e delta)-DP (Lemma 8
uses it at (eps* + 3, 4 e delta) for eps* <= 1). The composed guarantee is therefore declared by the
algorithm that consumes S'' (:mod:`algorithms.learning.agprivcl`), via :func:`lemma5_guarantee`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..classes.finite import FiniteClass, validate_indices
from ..privacy.accounting import ApproxDP, Guarantee, PureDP
from .erm import labeled_counts, positive_labels
from .sspp import a_sspp, a_sspp_law

REALISES = ("nb20:alg3",)  # the results this module's algorithm realises (bounds show lists it)

__all__ = ["EPS_TILDE", "Relabeled", "RelabeledCounts", "a_relabel", "a_relabel_counts", "relabel_probabilities",
           "lemma5_guarantee"]

EPS_TILDE = 1.0  # NB20 Algorithm 2 step 4: the exponential mechanism's privacy parameter eps~ = 1


@dataclass(frozen=True, eq=False)
class Relabeled:
    """NB20 Algorithm 2's output S'': the points of S' (in order) and their labels h^(x_i) (bool, True = 1),
    with ``hypothesis`` = h^ (a row index of the class)."""

    points: np.ndarray
    labels: np.ndarray
    hypothesis: int


def _check(cls, points, labels) -> tuple[np.ndarray, np.ndarray]:
    if not isinstance(cls, FiniteClass):
        raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
    x = validate_indices(points, cls.num_points, "points")
    return x, positive_labels(labels, x.size)


def relabel_probabilities(cls: FiniteClass, points, labels) -> np.ndarray:
    """NB20 Algorithm 2, step 4: the exact law of h^ over the rows of H (zero outside H~)."""
    x, y = _check(cls, points, labels)
    return a_sspp_law(cls, x, y, x, EPS_TILDE).hypothesis_probabilities()


def a_relabel(cls: FiniteClass, points, labels, rng: np.random.Generator) -> Relabeled:
    """NB20 Algorithm 2 (A_Relabel): S'' = S'_u labelled by h^ ~ EM_{eps~=1}(-err^(.; S')) over H~_{S'_u}.

    points, labels : S' (n' >= 1 labeled examples; labels in {0,1}, {-1,+1} or bool).
    """
    x, y = _check(cls, points, labels)
    h = a_sspp(cls, x, y, x, EPS_TILDE, rng).value
    return Relabeled(points=x, labels=cls.matrix[h, x].copy(), hypothesis=int(h))


@dataclass(frozen=True, eq=False)
class RelabeledCounts:
    """NB20 Algorithm 2's output S'' as a labelled histogram: ``counts[x, y]`` (every example at x carries
    the label h^(x)), with ``hypothesis`` = h^."""

    counts: np.ndarray
    hypothesis: int

    @property
    def size(self) -> int:
        return int(self.counts.sum())


def a_relabel_counts(cls: FiniteClass, counts, rng: np.random.Generator) -> RelabeledCounts:
    """NB20 Algorithm 2 on S' given as its labelled histogram (``erm.labeled_counts`` layout): the same law of
    (h^, S'' as a multiset) as :func:`a_relabel` on any S' with that histogram, because H~ depends on S'_u
    only through its distinct points and the exponential mechanism's scores only through the error counts
    (``a_sspp``'s ``counts``)."""
    if not isinstance(cls, FiniteClass):
        raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
    c = labeled_counts(cls, counts)
    support = np.flatnonzero(c.sum(axis=1))
    points = np.concatenate([support, support])
    labels = np.concatenate([np.ones(support.size, dtype=bool), np.zeros(support.size, dtype=bool)])
    weights = np.concatenate([c[support, 1], c[support, 0]])
    h = int(a_sspp(cls, points, labels, support, EPS_TILDE, rng, counts=weights).value)
    at = c.sum(axis=1)
    out = np.zeros_like(c)
    lab = cls.matrix[h].astype(np.int64)
    out[np.arange(cls.num_points), lab] = at
    return RelabeledCounts(counts=out, hypothesis=h)


def lemma5_guarantee(inner: Guarantee) -> ApproxDP:
    """NB20 Lemma 5 (BNS15 Lemma 4.1): A (eps*, delta)-DP with eps* <= 1 run on A_Relabel's output is
    (eps* + 3, 4 e delta)-DP in A_Relabel's input (the form Lemma 8 uses; bounds nb20:alg3 total_epsilon)."""
    if isinstance(inner, PureDP):
        eps, delta = inner.eps, 0.0
    elif isinstance(inner, ApproxDP):
        eps, delta = inner.eps, inner.delta
    else:
        raise ValueError(f"inner={inner!r} must be PureDP or ApproxDP")
    if eps > 1.0 + 1e-12:
        raise ValueError(f"inner eps={eps!r} out of range: Lemma 5 needs eps <= 1")
    return ApproxDP(eps + 3.0, 4.0 * math.e * delta)
