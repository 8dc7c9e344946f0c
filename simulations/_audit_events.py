"""The auditor's families of events (used by :mod:`simulations.audit`, which re-exports them): threshold events on
a scalar or one coordinate of the statistic, category events on discrete outputs, a learned (logistic) witness on
vector outputs, each chosen on the selection half of the draws at ``SELECTION_LEVEL``; ``select_test`` picks the
best event of every family for an objective. The families' definitions and what each can see are in
:mod:`simulations.audit`'s module docstring."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simulations._audit_bounds import _scores
from simulations._audit_divergence import fit_logistic
from simulations._audit_types import (
    DEFAULT_CONFIDENCE, MAX_CATEGORIES, MAX_COORDINATES, MIN_CATEGORY_COUNT, SELECTION_LEVEL, _GRID_LINEAR,
    _GRID_TAIL, SetTest, ThresholdTest, _row_keys)
from simulations._audit_values import MAX_VALUE_COORDINATES, value_search


def _candidate_thresholds(pooled_sorted: np.ndarray) -> np.ndarray:
    """Thresholds: every distinct value if few, else quantiles on a linear grid plus log-spaced grids in both tails."""
    values = np.unique(pooled_sorted)
    if values.size <= _GRID_LINEAR + 2 * _GRID_TAIL:
        return values
    n = pooled_sorted.size
    tail = np.geomspace(1.0 / n, 0.5, _GRID_TAIL)
    probs = np.unique(np.concatenate([np.linspace(0, 1, _GRID_LINEAR), tail, 1 - tail]))
    return np.unique(np.quantile(pooled_sorted, probs, method="inverted_cdf"))


def _threshold_search(s0, s1, delta, eps, objective, coordinate=None, profile=None, level=SELECTION_LEVEL):
    """The best threshold event on scalar samples (NaN allowed); returns (ThresholdTest, score)."""
    s0 = np.asarray(s0, dtype=float)
    s1 = np.asarray(s1, dtype=float)
    nan0, nan1 = np.isnan(s0), np.isnan(s1)
    f0, f1 = np.sort(s0[~nan0]), np.sort(s1[~nan1])
    k0, k1 = int(nan0.sum()), int(nan1.sum())
    n0, n1 = s0.size, s1.size
    thresholds = _candidate_thresholds(np.sort(np.concatenate([f0, f1])))
    if thresholds.size == 0:
        thresholds = np.array([0.0])
    best = (ThresholdTest(float(thresholds[0]), 1, True, coordinate), -np.inf)
    for direction in (1, -1):
        if direction == 1:  # guess D1 iff s > t
            fp = f0.size - np.searchsorted(f0, thresholds, side="right")
            tp = f1.size - np.searchsorted(f1, thresholds, side="right")
        else:  # guess D1 iff s < t
            fp = np.searchsorted(f0, thresholds, side="left")
            tp = np.searchsorted(f1, thresholds, side="left")
        for nan_high in ((True, False) if k0 + k1 else (True,)):
            nan_in = (direction > 0) == nan_high
            score = _scores(fp + k0 * nan_in, tp + k1 * nan_in, n0, n1, delta, eps, objective, level, profile=profile)
            j = int(np.argmax(score))
            if score[j] > best[1]:
                best = (ThresholdTest(float(thresholds[j]), direction, nan_high, coordinate), float(score[j]))
    return best


def _category_search(s0, s1, delta, eps, objective, profile=None, level=SELECTION_LEVEL):
    """The best "among the k most likely-under-D1 categories" event; None when there are too many categories.

    Values seen fewer than MIN_CATEGORY_COUNT times on the (pooled) selection half are merged into one "rare"
    category: the likelihood ratio of a value seen once is noise, and a union of such values would look
    best by chance and never recur on the evaluation half."""
    pooled = np.concatenate([s0, s1])
    if pooled.dtype.kind == "f" and np.unique(pooled, axis=0 if pooled.ndim > 1 else None).shape[0] > MAX_CATEGORIES:
        return None
    keys0, keys1 = _row_keys(s0), _row_keys(s1)
    cats: dict = {}
    for k in keys0 + keys1:
        cats[k] = cats.get(k, 0) + 1
        if len(cats) > MAX_CATEGORIES:
            return None
    frequent = [k for k, count in cats.items() if count >= MIN_CATEGORY_COUNT]
    index = {k: i for i, k in enumerate(frequent)}
    rare = len(frequent)
    c0 = np.bincount([index.get(k, rare) for k in keys0], minlength=rare + 1)
    c1 = np.bincount([index.get(k, rare) for k in keys1], minlength=rare + 1)
    order = np.argsort(-(c1 + 0.5) / (c0 + 0.5), kind="stable")  # empirical likelihood ratio, largest first
    score = _scores(np.cumsum(c0[order]), np.cumsum(c1[order]), len(keys0), len(keys1), delta, eps, objective,
                    level, profile=profile)
    j = int(np.argmax(score))
    chosen = [int(i) for i in order[: j + 1]]
    members = tuple(frequent[i] for i in chosen if i != rare)
    return SetTest(members, frozenset(frequent), rare in chosen), float(score[j])


def _as_outputs(x) -> np.ndarray:
    """Statistic values as an array: float for numbers (keeping NaN and +-inf), else as given."""
    a = np.asarray(x)
    if a.dtype.kind in "biuf":
        return a.astype(float)
    return a


def _features(a: np.ndarray) -> np.ndarray:
    """Features of vector outputs for the learned score: each coordinate (NaN as 0, +-inf clipped to +-1e300)
    and a NaN indicator per coordinate."""
    nan = np.isnan(a)
    return np.hstack([np.nan_to_num(a, nan=0.0, posinf=1e300, neginf=-1e300), nan.astype(float)])


@dataclass(frozen=True)
class LearnedTest:
    """Guess D1 iff the logistic-regression score w . (features - center) / scale crosses ``threshold``: the
    weights are fitted on the selection half (module docstring), the event is a threshold test on the score."""

    weights: tuple
    center: tuple
    scale: tuple
    inner: ThresholdTest

    def score(self, s: np.ndarray) -> np.ndarray:
        x = (_features(np.asarray(s, dtype=float)) - np.asarray(self.center)) / np.asarray(self.scale)
        return x @ np.asarray(self.weights)

    def guesses_d1(self, s: np.ndarray) -> np.ndarray:
        return self.inner.guesses_d1(self.score(s))

    def describe(self) -> str:
        return f"learned score (logistic regression on {len(self.weights)} features): {self.inner.describe()}"


def _learned_search(a0, a1, delta, eps, objective, profile, level=SELECTION_LEVEL):
    """Fit a logistic regression separating D1's outputs from D0's on (the selection half) a0, a1, then the best
    threshold event on its score, on the same half (the evaluation half is never seen)."""
    x = _features(np.vstack([a0, a1]))
    center = x.mean(axis=0)
    scale = x.std(axis=0)
    scale[~(scale > 0) | ~np.isfinite(scale)] = 1.0
    y = np.r_[np.zeros(len(a0)), np.ones(len(a1))]
    theta = fit_logistic((x - center) / scale, y)
    test = LearnedTest(tuple(theta[:-1].tolist()), tuple(center.tolist()), tuple(scale.tolist()),
                       ThresholdTest(0.0, 1))
    inner, score = _threshold_search(test.score(a0), test.score(a1), delta, eps, objective, profile=profile,
                                     level=level)
    return LearnedTest(test.weights, test.center, test.scale, inner), score


def select_test(s0, s1, delta: float = 0.0, eps: float = 0.0, objective: str = "eps", profile=None,
                level: float = SELECTION_LEVEL):
    """The event with the best selection score on (s0 from D0, s1 from D1), over the families of the module
    docstring."""
    a0, a1 = _as_outputs(s0), _as_outputs(s1)
    candidates = []
    if a0.ndim == 1 and a0.dtype.kind == "f":
        candidates.append(_threshold_search(a0, a1, delta, eps, objective, profile=profile, level=level))
        candidates += value_search(a0, a1, delta, eps, objective, profile, level=level)
    elif a0.ndim == 2 and a0.dtype.kind == "f":
        for j in range(min(a0.shape[1], MAX_COORDINATES)):
            candidates.append(_threshold_search(a0[:, j], a1[:, j], delta, eps, objective, coordinate=j,
                                                profile=profile, level=level))
            if j < MAX_VALUE_COORDINATES:
                candidates += value_search(a0, a1, delta, eps, objective, profile, coordinate=j, level=level)
        if a0.shape[1] > 1:
            candidates.append(_learned_search(a0, a1, delta, eps, objective, profile, level))
    cat = _category_search(a0, a1, delta, eps, objective, profile=profile, level=level)
    if cat is not None:
        candidates.append(cat)
    if not candidates:
        raise ValueError(f"statistic gives {a0.dtype} outputs of shape {a0.shape[1:]} with more than "
                         f"{MAX_CATEGORIES} distinct values: give a numeric statistic")
    return max(candidates, key=lambda c: c[1])


def best_threshold_test(s0: np.ndarray, s1: np.ndarray, delta: float = 0.0,
                        confidence: float = DEFAULT_CONFIDENCE) -> tuple[ThresholdTest, float]:
    """The threshold test on scalar (s0 from D0, s1 from D1) with the best selection score (the eps bound at
    ``SELECTION_LEVEL``, events with enough counts only); ``confidence`` is kept for callers and unused."""
    return _threshold_search(s0, s1, delta, 0.0, "eps")
