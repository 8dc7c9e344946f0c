"""Shared set-up of the ABM19 experiments (``thm3_1``, ``lemma4_4``, ``thm4_1``): the classes with
their VC dimensions, the labeled distributions, exact excess errors, and the claim/verdict record.

Classes (``algorithms.classes.constructors``) and the VC dimension d each is run with (checked
exactly on small instances in tests/simulations/test_abm19_experiments.py):

* ``thresholds``: N + 1 thresholds on the grid 0..N-1, d = 1 (infinite Littlestone dimension on R;
  Littlestone dimension floor(log2(N + 1)) on the grid);
* ``intervals``: N (N + 1)/2 + 1 intervals on 0..N-1, d = 2;
* ``halfspaces``: every halfspace labeling of the k x k integer grid in R^2, d = 3;
* ``stumps``: the p decision stumps on {+-1}^p (BCMNUW20 Def. 12), d = floor(log2 p).

Each case has a fixed target row of the class (near the middle of the class, see :func:`target_row`);
the labeled law is ``simulations.distributions.agnostic(marginal, target, noise)`` (label noise),
whose best hypothesis in H is the target with error ``noise``.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from simulations import distributions as dist
from simulations import stats
from simulations.contract import combine
from simulations.experiments.thm10 import make_distribution

__all__ = ["CLASSES", "LAWS", "check_case", "make_class", "target_row", "labeled_law", "excess_errors",
           "rate", "combine"]

CLASSES = ("thresholds", "intervals", "halfspaces", "stumps")
LAWS = {
    "thresholds": ("uniform", "zipf", "near_threshold", "point_mass_heavy"),
    "intervals": ("uniform", "zipf", "interval_endpoints", "near_threshold"),
    "halfspaces": ("uniform", "zipf", "point_mass_heavy"),
    "stumps": ("uniform", "zipf", "point_mass_heavy"),
}


def check_case(case: str) -> tuple[str, str]:
    kind, sep, law = str(case).partition(":")
    if not sep or kind not in CLASSES or law not in LAWS[kind]:
        allowed = "; ".join(f"{k}:{{{','.join(LAWS[k])}}}" for k in CLASSES)
        raise ValueError(f"cases entry {case!r} must be class:distribution, one of {allowed}")
    return kind, law


@functools.lru_cache(maxsize=16)
def make_class(kind: str, size: int):
    """(class, d) of a case; ``size`` is N (thresholds, intervals), the grid side k (halfspaces) or p (stumps)."""
    from algorithms.classes import constructors

    if kind == "thresholds":
        return constructors.thresholds(size), 1
    if kind == "intervals":
        return constructors.intervals(size), 2
    if kind == "halfspaces":
        grid = np.array([(i, j) for i in range(size) for j in range(size)], dtype=np.int64)
        return constructors.halfspaces(grid), 3
    return constructors.decision_stumps(size), int(math.floor(math.log2(size)))


def target_row(kind: str, cls) -> int:
    """The target hypothesis of a case: a row near the middle of the class (the threshold at N/2, the
    interval [N/4, 3N/4], the middle halfspace labeling, the first stump)."""
    if kind == "thresholds":
        return cls.num_points // 2
    if kind == "intervals":
        n = cls.num_points
        a, b = n // 4, (3 * n) // 4
        want = (np.arange(n) >= a) & (np.arange(n) <= b)
        return int(np.flatnonzero((cls.matrix == want).all(axis=1))[0])
    if kind == "halfspaces":
        return cls.num_hypotheses // 3
    return 0


@functools.lru_cache(maxsize=64)
def labeled_law(kind: str, law: str, size: int, noise: float) -> dist.LabeledDistribution:
    """The case's labeled distribution: marginal ``law`` over the class's points, target
    :func:`target_row`, labels flipped w.p. ``noise`` (realizable at noise 0)."""
    cls, _ = make_class(kind, size)
    marginal = make_distribution(kind, law, cls.num_points)
    target = cls.matrix[target_row(kind, cls)].astype(np.int64)
    return dist.agnostic(marginal, target, noise)


@functools.lru_cache(maxsize=64)
def _population(kind: str, law: str, size: int, noise: float) -> np.ndarray:
    from algorithms.learning.erm import population_errors

    cls, _ = make_class(kind, size)
    out = population_errors(cls, labeled_law(kind, law, size, noise).joint)
    out.flags.writeable = False
    return out


def excess_errors(kind: str, law: str, size: int, noise: float) -> np.ndarray:
    """err(h; D) - min_{h' in H} err(h'; D) for every row h of the class, exactly (read-only)."""
    e = _population(kind, law, size, noise)
    return e - e.min()


def constant_excess(kind: str, law: str, size: int, noise: float) -> float:
    """The data-free learner's excess error: the constant negative label's err(0; D) = Pr_D[y = +1], minus
    min_{h in H} err(h; D), exactly (the learning catalogue's ``constant_zero``)."""
    return float(labeled_law(kind, law, size, noise).joint[:, 1].sum() - _population(kind, law, size, noise).min())


def rate(successes: int, trials: int, confidence: float) -> dict:
    """A measured rate (no claim attached: baselines) with its two-sided Clopper-Pearson interval."""
    lo, hi = stats.clopper_pearson(successes, trials, confidence, "two-sided")
    return {"successes": int(successes), "trials": int(trials), "rate": successes / trials, "ci": [lo, hi],
            "ci_confidence": confidence}
