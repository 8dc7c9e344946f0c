"""BCMNUW20 Algorithm 3 (A_PAP) and Theorem 10: public-data-assisted private query release.

Steps, exactly as Algorithm 3:
  1. T = the distinct points of the public sample w; Pi_H(T) = the patterns of H on T;
     H~ = one hypothesis of H per pattern (``algorithms.classes.build_cover``: the first one);
  2. X_H~ = the representative domain of H~ (Definition 2), computed from H~ alone;
  3. s = X_H~(x): every private point replaced by its representative;
  4. G~ = PMW(s, H~, alpha/2, beta/2, eps, delta) over the domain X_H~ (``pmw``);
  5. G(h) = G~(Project_{H~,w}(h)), Project_{H~,w}(h) being the member of H~ that agrees with h
     on every public point.

Privacy (proof of Theorem 10): the public data enter only through H~, X_H~ and Project, never a
privacy budget; the private data enter only through PMW's input s, and neighbouring x, x' give
s, s' differing in at most one element. The returned guarantee is PMW's, unchanged.
Accuracy (Theorem 10): with m as in Lemma 11, H~ is an alpha/4-cover w.p. >= 1 - beta/2;
with n as in Lemma 7 at (alpha/2, beta/2) (``pmw_sample_size``), Err_{D,H}(G) <= alpha
w.p. >= 1 - beta.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..classes.cover import Cover, RepresentativeDomain, build_cover
from ..classes.finite import FiniteClass, as_counts, validate_indices
from ..classes.implicit import CoordinateCounts, ImplicitCover, Stumps, build_implicit_cover
from ..privacy import NumericSparse, Release
from ..validate import check_rng as _check_rng
from ..validate import check_unit_open as _check_unit_open
from .pmw import PMWResult, pmw

REALISES = ("bcmnuw20:thm10",)  # the results this module's algorithm realises (bounds show lists it)

__all__ = ["PAPResult", "a_pap", "pap_answer_function"]


@dataclass(frozen=True, eq=False)
class PAPResult:
    """BCMNUW20 Algorithm 3's output.

    answers: (|H|,) G(h) in [-1, 1] for every hypothesis of H (G~ read through Project).
    cover: the public cover H~ (``members``, ``member_of`` = Project_{H~,w}); an ``ImplicitCover`` for
        ``Stumps``.
    domain: the representative domain X_H~ of H~; for ``Stumps``, the coordinates I of H~'s members
        (X_H~ = {+-1}^I, the representative map x -> x_I).
    reduced_class: H~ on X_H~, the query class PMW ran on (rows = cover members; ``Stumps(|I|)`` for stumps).
    pmw: PMW's result on (s, H~); ``pmw.answers`` is G~ over the cover members.
    """

    answers: np.ndarray
    cover: Cover | ImplicitCover
    domain: RepresentativeDomain | np.ndarray
    reduced_class: FiniteClass | Stumps
    pmw: PMWResult

    def __call__(self, hypotheses):
        """G(h) for hypothesis indices of H (an int gives a float)."""
        return pap_answer_function(self.cover, self.pmw.answers)(hypotheses)

    def answer_labels(self, labels) -> np.ndarray:
        """G(h) for hypotheses given as boolean label rows (over the domain or the public points)."""
        if not isinstance(self.cover, Cover):
            raise ValueError("answer_labels needs a dense class's cover (label rows over its domain); for Stumps "
                             "give hypotheses by index")
        return self.pmw.answers[self.cover.project_labels(labels)]


def pap_answer_function(cover: Cover, g_tilde):
    """BCMNUW20 Algorithm 3, function G(w, H~, G~, .): h -> G~(Project_{H~,w}(h)), for indices of H."""
    g = np.asarray(g_tilde, dtype=np.float64)
    if g.shape != (cover.size,):
        raise ValueError(f"g_tilde must have one answer per cover member, length {cover.size}, got shape {g.shape}")

    def G(hypotheses):
        scalar = np.ndim(hypotheses) == 0
        h = validate_indices(hypotheses, cover.cls.num_hypotheses, "hypotheses")
        out = g[cover.member_of[h]]
        return float(out[0]) if scalar else out

    return G


def a_pap(private, public, cls: FiniteClass, alpha: float, beta: float, eps: float, delta: float,
          rng: np.random.Generator, *, order=None, mw_accuracy: float | None = None,
          sparse: type = NumericSparse) -> Release:
    """BCMNUW20 Algorithm 3 (A_PAP): returns ``Release(PAPResult, guarantee of PMW)``.

    private: the private data set x as point indices into the class's domain (n >= 1), or as its
        histogram (``algorithms.classes.PointCounts``; A_PAP reads x only through X_H~(x)'s counts).
    public: the public data set w as point indices (m >= 1; repetitions allowed).
    cls: the class H (hypotheses x points, True = +1), or ``Stumps(p)`` (decision stumps on {+-1}^p at any p,
        never materialised; ``private`` and ``public`` are then (n, p) and (m, p) arrays of +-1 points (``private``
        also as :class:`~algorithms.classes.implicit.CoordinateCounts`, the same bits):
        the cover comes from the public points' patterns, X_H~ = {+-1}^I for the members' coordinates I,
        and PMW keeps its MW distribution as a product; the same bits as the dense class where it fits).
    alpha, beta in (0, 1); eps > 0; delta in [0, 1); rng: numpy Generator.
    order: optional order of the cover members (indices 0..|H~|-1) for PMW's pass.
    mw_accuracy: PMW's MW accuracy at (alpha/2, beta/2) (``pmw``'s tight split, e.g. bounds' thm10
    ``mw_accuracy``); None: PMW's fixed split.
    sparse: the NumericSparse class PMW runs (``pmw``'s hook; default ``algorithms.privacy.NumericSparse``, the
    papers' algorithm). The privacy audit passes a subclass with cut-off 1 (``simulations/audit_targets/pap.py``),
    where one round carries the whole eps; the declared guarantee is then that object's, as for PMW.
    """
    rng = _check_rng(rng)
    alpha = _check_unit_open("alpha", alpha)
    beta = _check_unit_open("beta", beta)
    if isinstance(cls, Stumps):
        if isinstance(private, CoordinateCounts):
            if private.dim != cls.p:
                raise ValueError(f"private counts cover {private.dim} coordinates, the class has p={cls.p}")
        else:
            private = cls.validate_points(private, "private")
        cover = build_implicit_cover(cls, public)                 # step 1 (public only)
        coords = cls.coordinate_of(cover.members)                 # step 2: X_H~ = {+-1}^coords
        reduced = Stumps(int(coords.size))
        s = private.restrict(coords) if isinstance(private, CoordinateCounts) else private[:, coords]
        g_tilde, guarantee = pmw(s, reduced, alpha / 2.0, beta / 2.0, eps, delta, rng,
                                 order=order, mw_accuracy=mw_accuracy, sparse=sparse)  # steps 3-4: s = x_coords
        return Release(PAPResult(answers=g_tilde.answers[cover.member_of], cover=cover, domain=coords,
                                 reduced_class=reduced, pmw=g_tilde), guarantee)
    if not isinstance(cls, FiniteClass):
        raise ValueError(f"cls must be a FiniteClass or Stumps, got {type(cls).__name__}")
    x = as_counts(private, cls.num_points, "private")
    w = validate_indices(public, cls.num_points, "public")
    cover = build_cover(cls, w)                                   # steps 1 (public only)
    domain = cover.representative_domain()                        # step 2 (public only)
    reduced = FiniteClass(cover.reduced_matrix(), name=f"reduced({cls.name})", copy=False)
    s = domain.map_counts(x)                                      # step 3
    g_tilde, guarantee = pmw(s, reduced, alpha / 2.0, beta / 2.0, eps, delta, rng, order=order,
                             mw_accuracy=mw_accuracy, sparse=sparse)  # step 4
    answers = g_tilde.answers[cover.member_of]                    # step 5 for every h in H
    return Release(PAPResult(answers=answers, cover=cover, domain=domain, reduced_class=reduced,
                             pmw=g_tilde), guarantee)
