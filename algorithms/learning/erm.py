"""ABM19 Section 2 (empirical error err_hat(h; S)) and NB20's B_PAC: exact empirical risk
minimisation over a finite class, as matrix operations.

A labeled sample is ``(points, labels, weights)``: point indices into the class's domain
{0..N-1}, labels in {0, 1} or {-1, +1} (or bool; 1 / +1 / True is the positive label, the one a
``True`` entry of the class matrix predicts), and optional non-negative weights (default 1 per
example). The per-hypothesis error counts are one matrix-vector product: with

    pos[x] = total weight of the examples (x, +1),   neg[x] = total weight of the examples (x, -1),

a hypothesis h errs on (x, +1) iff h(x) = -1 and on (x, -1) iff h(x) = +1, so

    count(h) = sum_x [h(x) = +1] neg[x] + [h(x) = -1] pos[x] = sum_x pos[x] + M_h . (neg - pos),

M the boolean class matrix restricted to the distinct sample points (chunked over hypotheses
by :func:`algorithms.evaluation.positive_mass`). The same identity with the exact law of a
labeled distribution in place of (pos, neg) gives every hypothesis's population error
(:func:`population_errors`).

Tie rule of :func:`erm`: among the hypotheses of least (weighted) error count, the one of least
row index in the class. Counts are summed in float64, exact for integer weights up to 2^53.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..classes.finite import FiniteClass, validate_indices
from ..evaluation import positive_mass

__all__ = [
    "ERMResult",
    "LabeledSample",
    "as_labeled_sample",
    "positive_labels",
    "error_counts",
    "empirical_errors",
    "population_errors",
    "erm",
    "labeled_counts",
]


def _as_class(cls) -> FiniteClass:
    if not isinstance(cls, FiniteClass):
        raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
    return cls


def positive_labels(labels, size: int, argname: str = "labels") -> np.ndarray:
    """Labels as a bool vector (True = the positive label 1 / +1 / True); ValueError naming ``argname``
    unless the values are all bool, all in {0, 1} or all in {-1, +1}, one per example."""
    y = np.asarray(labels)
    if y.ndim == 0:
        y = y.reshape(1)
    if y.ndim != 1 or y.shape[0] != size:
        raise ValueError(f"{argname} must hold one label per example ({size}), got shape {np.shape(labels)}")
    if y.dtype == np.bool_:
        return y.copy()
    if y.size and not (np.isin(y, (0, 1)).all() or np.isin(y, (-1, 1)).all()):
        bad = y[~np.isin(y, (-1, 0, 1))]
        shown = bad.flat[0] if bad.size else "a mix of 0 and -1"
        raise ValueError(f"{argname} contains {shown!r}: allowed all in {{0, 1}} or all in {{-1, +1}} (or bool)")
    return y == 1


def _check_weights(weights, size: int) -> np.ndarray:
    if weights is None:
        return np.ones(size, dtype=np.float64)
    try:
        w = np.asarray(weights, dtype=np.float64)
    except (TypeError, ValueError):
        raise ValueError(f"weights={weights!r} must be an array of non-negative reals") from None
    if w.ndim != 1 or w.shape[0] != size:
        raise ValueError(f"weights must hold one weight per example ({size}), got shape {np.shape(weights)}")
    if not np.all(np.isfinite(w)) or (w.size and w.min() < 0):
        raise ValueError("weights must be finite and >= 0: allowed range [0, inf)")
    return w


def labeled_counts(cls: FiniteClass, counts, argname: str = "counts") -> np.ndarray:
    """A sample given as its labelled histogram over the 2N cells of the domain: ``counts[x, y]`` examples
    (x, y), y = 0 in column 0 and y = 1 in column 1 (the layout of a ``LabeledDistribution``'s joint).
    Validated as an int64 (N, 2) array of non-negative integers with a total >= 1; ValueError otherwise."""
    c = np.asarray(counts)
    if c.shape != (cls.num_points, 2):
        raise ValueError(f"{argname} must have shape (num_points={cls.num_points}, 2), got {c.shape}")
    if c.dtype.kind not in "iuf" or not np.all(np.isfinite(c)) or np.any(c < 0) or np.any(c != np.round(c)):
        raise ValueError(f"{argname} must hold non-negative integer counts")
    c = c.astype(np.int64)
    if c.sum() < 1:
        raise ValueError(f"{argname} must hold at least one example")
    return c


@dataclass(frozen=True, eq=False)
class LabeledSample:
    """A validated labeled sample over the domain {0..N-1}: ``points`` (intp), ``positive`` (bool:
    label is 1 / +1), ``weights`` (float64 >= 0, ones by default)."""

    points: np.ndarray
    positive: np.ndarray
    weights: np.ndarray

    @property
    def size(self) -> int:
        return int(self.points.size)

    @property
    def total_weight(self) -> float:
        return float(self.weights.sum())

    def point_weights(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(support, pos, neg)``: the distinct sample points (ascending) and the total weight of
        the positive and negative examples at each of them."""
        support, inv = np.unique(self.points, return_inverse=True)
        pos = np.bincount(inv, weights=self.weights * self.positive, minlength=support.size)
        neg = np.bincount(inv, weights=self.weights * ~self.positive, minlength=support.size)
        return support, pos, neg


def as_labeled_sample(points, labels, weights=None, *, num_points: int) -> LabeledSample:
    """Validate ``(points, labels, weights)`` against the domain {0..num_points-1} (see the module docstring)."""
    x = validate_indices(points, num_points, "points")
    return LabeledSample(points=x, positive=positive_labels(labels, x.size), weights=_check_weights(weights, x.size))


def _errors_from_point_weights(matrix: np.ndarray, support: np.ndarray, pos: np.ndarray,
                               neg: np.ndarray) -> np.ndarray:
    """sum_x pos[x] + M[:, support] . (neg - pos): the identity of the module docstring."""
    n_cols = matrix.shape[1]
    if support.size * 4 >= n_cols:  # dense: one product with the whole matrix, no column gather
        diff = np.zeros(n_cols)
        diff[support] = neg - pos
        return float(pos.sum()) + positive_mass(matrix, diff)
    return float(pos.sum()) + positive_mass(np.take(matrix, support, axis=1), neg - pos)


def error_counts(cls: FiniteClass, points, labels, weights=None) -> np.ndarray:
    """ABM19 Section 2: n * err_hat(h; S) for every h in H, as one matrix-vector product.

    Returns float64 (|H|,): the (weighted) number of examples of S = (points, labels) each row of
    the class mislabels. ``points`` must be non-empty.
    """
    cls = _as_class(cls)
    s = as_labeled_sample(points, labels, weights, num_points=cls.num_points)
    return _errors_from_point_weights(cls.matrix, *s.point_weights())


def empirical_errors(cls: FiniteClass, points, labels, weights=None) -> np.ndarray:
    """ABM19 Section 2: err_hat(h; S) = (1/n) sum_i 1(h(x_i) != y_i) for every h in H (weighted:
    divided by the total weight, which must be > 0)."""
    cls = _as_class(cls)
    s = as_labeled_sample(points, labels, weights, num_points=cls.num_points)
    total = s.total_weight
    if total <= 0:
        raise ValueError(f"weights sum to {total!r}: allowed a total weight > 0")
    return _errors_from_point_weights(cls.matrix, *s.point_weights()) / total


def population_errors(cls: FiniteClass, joint) -> np.ndarray:
    """ABM19 Section 2: err(h; D) = Pr_{(x,y)~D}[h(x) != y] for every h in H, exactly.

    ``joint`` is the (N, 2) law of D: ``joint[x, 0] = Pr[x, negative label]``,
    ``joint[x, 1] = Pr[x, positive label]`` (the layout of ``simulations.distributions.LabeledDistribution``).
    """
    cls = _as_class(cls)
    j = np.asarray(joint, dtype=np.float64)
    if j.shape != (cls.num_points, 2):
        raise ValueError(f"joint must have shape (num_points={cls.num_points}, 2), got {np.shape(joint)}")
    if not np.all(np.isfinite(j)) or j.min() < 0 or abs(float(j.sum()) - 1.0) > 1e-9:
        raise ValueError("joint must be a probability table: finite entries >= 0 summing to 1 (tolerance 1e-9)")
    out = _errors_from_point_weights(cls.matrix, np.arange(cls.num_points), j[:, 1], j[:, 0])
    return np.clip(out, 0.0, 1.0)


@dataclass(frozen=True)
class ERMResult:
    """NB20 B_PAC / ABM19 Section 2: the empirical risk minimiser over a finite class.

    hypothesis : row index in the class of the minimiser (least index among ties).
    error_count : its (weighted) number of mistakes on the sample.
    empirical_error : error_count / total weight (err_hat(h; S) when unweighted).
    num_minimisers : how many rows attain the least count (1 = no tie).
    """

    hypothesis: int
    error_count: float
    empirical_error: float
    num_minimisers: int


def erm(cls: FiniteClass, points, labels, weights=None) -> ERMResult:
    """NB20 B_PAC (non-private PAC learner) / ABM19 Section 2: argmin_{h in H} err_hat(h; S), exactly.

    Ties: the least row index among the minimisers (``numpy.argmin``); ``num_minimisers`` says
    how many there were. The total weight must be > 0.
    """
    cls = _as_class(cls)
    s = as_labeled_sample(points, labels, weights, num_points=cls.num_points)
    total = s.total_weight
    if total <= 0:
        raise ValueError(f"weights sum to {total!r}: allowed a total weight > 0")
    counts = _errors_from_point_weights(cls.matrix, *s.point_weights())
    best = int(np.argmin(counts))
    c = float(counts[best])
    return ERMResult(hypothesis=best, error_count=c, empirical_error=c / total,
                     num_minimisers=int(np.count_nonzero(counts == c)))
