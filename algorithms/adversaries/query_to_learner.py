"""BCMNUW20 Lemma 17 (general version of Beimel, Nissim, Stemmer 2013, Thm 5.5): a PAP query-release algorithm gives a
PAP learner with the same public sample.

The reduction, in the form the workbench runs. Labelled examples (x, y) live in Z = X x {+-1}; for a class H on X
the labelled class is H^+- = {g_h(x, y) = h(x) y : h in H}, a finite class on the 2N points of Z (column x is
(x, +1), column N + x is (x, -1); ``labelled_class``). For any distribution D on Z,
    err_D(h) = Pr[h(x) != y] = (1 - E_D[g_h]) / 2.
The learner runs the query-release algorithm on the labelled private and public samples (the public sample is
passed on unchanged, so m' = m) and outputs the h whose released answer is largest (least released error; ties
to the least index). If the release is accurate, Err_{D,H^+-}(G) = max_h |G(g_h) - E_D[g_h]| <= a, then for every h
    err_D(h_hat) <= (1 - G(g_h_hat))/2 + a/2 <= (1 - G(g_h))/2 + a/2 <= err_D(h) + a,
so the learner's excess error is at most a (deterministically, given the release's error: ``excess_bound``), with
the same beta, and the same (eps, delta) since the output is a post-processing of the release
(``Release.guarantee`` is passed on). Because BCMNUW20's Definition 8 measures accuracy on D itself (not on the
sample), no generalisation step is needed and n' = n, within the O(n log(1/(alpha beta))/(alpha^2 beta)) of
Lemma 17 as printed (that size comes from BNS13's sanitizers, accurate on the sample only).

What differs from the printed lemma: the release is run on H^+- rather than on H. For thresholds on a line,
H^+- is the class of signed thresholds on the 2N points of Z (VC dimension 1 like H; infinite Littlestone dimension
in the limit, as Theorem 15 needs); A_PAP and PMW take any finite class, so this is the form that runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from ..classes.finite import FiniteClass, validate_indices
from ..evaluation import true_answers, validate_distribution
from ..privacy import Release

REALISES = ("bcmnuw20:lemma17",)  # the results this module's algorithm realises (bounds show lists it)

__all__ = ["labelled_class", "labelled_points", "labelled_distribution", "LearnerOutput", "learner_from_release",
           "population_errors", "excess_bound"]


def labelled_class(cls: FiniteClass) -> FiniteClass:
    """H^+- on Z = X x {+-1}: row h, column x is h(x) == +1 (g_h(x, +1) = h(x)); column N + x is h(x) == -1."""
    if not isinstance(cls, FiniteClass):
        raise ValueError(f"cls must be a FiniteClass, got {type(cls).__name__}")
    m = np.ascontiguousarray(np.hstack([cls.matrix, ~cls.matrix]))
    return FiniteClass(m, name=f"labelled({cls.name})", copy=False)


def labelled_points(points, labels, num_points: int) -> np.ndarray:
    """Indices into Z of the labelled examples (x_i, y_i): x_i for y_i = +1, N + x_i for y_i = -1."""
    x = validate_indices(points, num_points, "points")
    y = np.asarray(labels)
    if y.shape != x.shape or not np.all((y == 1) | (y == -1)):
        raise ValueError(f"labels must be +-1 with the shape of points {x.shape}, got shape {y.shape}")
    return x + num_points * (y == -1)


def labelled_distribution(D_x, labels_plus_prob) -> np.ndarray:
    """The law on Z (length 2N) with marginal D_x and Pr[y = +1 | x] = labels_plus_prob[x]."""
    D = np.asarray(D_x, dtype=np.float64)
    eta = np.asarray(labels_plus_prob, dtype=np.float64)
    if eta.shape != D.shape or np.any((eta < 0) | (eta > 1)):
        raise ValueError(f"labels_plus_prob must lie in [0, 1] with the shape of D_x {D.shape}, got shape {eta.shape}")
    out = np.concatenate([D * eta, D * (1.0 - eta)])
    return validate_distribution(out, 2 * D.size, "labelled distribution")


def population_errors(cls: FiniteClass, D_z) -> np.ndarray:
    """err_D(h) = (1 - E_D[g_h]) / 2 for every h of H, D_z a law on Z (``labelled_distribution``)."""
    return (1.0 - true_answers(labelled_class(cls), D_z)) / 2.0


def excess_bound(release_error: float) -> float:
    """BCMNUW20 Lemma 17 (this reduction): the learner's excess error is at most the release's error on H^+-."""
    return float(release_error)


@dataclass(frozen=True, eq=False)
class LearnerOutput:
    """The learner's hypothesis (index into H) and the released answers on H^+- it was chosen from."""

    hypothesis: int
    released_errors: np.ndarray
    release: object


def learner_from_release(release_fn: Callable[..., Release]) -> Callable[..., Release]:
    """BCMNUW20 Lemma 17: from ``release_fn(private, public, cls, rng, **kw) -> Release`` (whose value has
    per-hypothesis
    ``answers``, or is the answer vector) to ``learner(private_x, private_y, public_x, public_y, cls, rng, **kw) ->
    Release(LearnerOutput, the release's guarantee)``. Points are indices into cls's domain, labels +-1."""

    def learner(private_x, private_y, public_x, public_y, cls: FiniteClass, rng: np.random.Generator,
                **kw) -> Release:
        lab = labelled_class(cls)
        s = labelled_points(private_x, private_y, cls.num_points)
        w = labelled_points(public_x, public_y, cls.num_points)
        value, guarantee = release_fn(s, w, lab, rng, **kw)
        answers = np.asarray(getattr(value, "answers", value), dtype=np.float64)
        if answers.shape != (cls.num_hypotheses,):
            raise ValueError(f"the release must answer every hypothesis of H^+- ({cls.num_hypotheses}), "
                             f"got shape {answers.shape}")
        errors = (1.0 - answers) / 2.0
        return Release(LearnerOutput(int(np.argmin(errors)), errors, value), guarantee)

    return learner
