"""Kasiviswanathan-Lee-Nissim-Raskhodnikova-Smith (2008) Theorem 3.4, agnostic form (the generic private learner):
the exponential mechanism over a finite class with score minus the empirical error count, the learning opponent
that needs no public data; beside it, non-private ERM on the private sample and on the public sample alone
(``algorithms.learning.erm``).

The sample is a labelled histogram: ``pos[x]``, ``neg[x]`` = the numbers of examples (x, +1), (x, -1). Replacing
one example moves every hypothesis's error count by at most 1, so the exponential mechanism with sensitivity 1 is
eps-DP (Dwork-Roth Theorem 3.10) and, by Dwork-Roth Theorem 3.11, its hypothesis's empirical error is within
2 (ln|H| + t)/(eps n) of the least w.p. >= 1 - e^-t. Its sample-size bound is ``baselines:em_learner``.
"""
from __future__ import annotations

import numpy as np

from ..classes.finite import FiniteClass
from ..learning.erm import error_counts
from ..privacy import Release
from ..privacy.mechanisms import ExponentialMechanism
from ..validate import check_rng

REALISES = ("baselines:em_learner",)

__all__ = ["histogram_error_counts", "exponential_learner"]


def histogram_error_counts(cls: FiniteClass, pos, neg) -> np.ndarray:
    """Every hypothesis's error count on the labelled histogram (pos, neg) (``erm.error_counts``' identity)."""
    pos = np.asarray(pos, dtype=float)
    neg = np.asarray(neg, dtype=float)
    N = cls.num_points
    if pos.shape != (N,) or neg.shape != (N,) or pos.min() < 0 or neg.min() < 0:
        raise ValueError(f"pos and neg must be non-negative count vectors of length {N}")
    pts = np.concatenate([np.arange(N), np.arange(N)])
    labels = np.repeat([True, False], N)
    return error_counts(cls, pts, labels, np.concatenate([pos, neg]))


def exponential_learner(cls: FiniteClass, pos, neg, eps: float, rng: np.random.Generator) -> Release:
    """KLNRS08 / Dwork-Roth Theorem 3.10: one hypothesis index drawn with probability proportional to
    exp(-eps * errors(h) / 2); PureDP(eps)."""
    if not isinstance(cls, FiniteClass):
        raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
    counts = histogram_error_counts(cls, pos, neg)
    return ExponentialMechanism(eps, 1.0).release(-counts, check_rng(rng))
