"""The opponents of the papers' algorithms: for every thing a theorem offers (public data, private data, privacy),
the strongest release a referee would bring without it, each with its declared guarantee.

A validation is informative only where every opponent that needs nothing the theorem offers fails on the same
draws (docs/DESIGN.md, the validation contract). :data:`CATALOGUE` lists them, each with what it does without
(``lacks``), how it is private (``guarantee``: the ``algorithms.privacy.accounting`` kind it returns, or "none")
and its sample-size bound in ``bounds`` (``bound``, or None where the sampling error alone bounds it):

* private-only: :func:`~.answer_vector.gaussian_answers` (analytic (eps, delta) or zCDP),
  :func:`~.answer_vector.laplace_answers` (pure), the binary tree :class:`~.tree.TreeMechanism` for thresholds and
  intervals on grids up to 2^64 (implicit), and PMW over the whole domain (``algorithms.query_release.pmw``);
* public-only: :func:`~.public.public_empirical` and the minimax-shrunk :func:`~.public.public_shrunk`;
  data-free: :func:`~.public.constant_release`;
* non-private: :func:`~.nonprivate.exact_private` and :func:`~.nonprivate.exact_pooled`;
* learning: the generic private learner :func:`~.learning.exponential_learner` (no public data), non-private ERM
  on the private sample and ERM on the public sample alone (``algorithms.learning.erm``).
"""
from __future__ import annotations

from dataclasses import dataclass

from .answer_vector import answer_sensitivities, gaussian_answers, laplace_answers, workload_sensitivities
from .learning import exponential_learner, histogram_error_counts
from .nonprivate import exact_pooled, exact_private
from .public import constant_release, public_empirical, public_shrunk, shrink_factor
from .tree import GridData, TreeMechanism

__all__ = ["Opponent", "CATALOGUE", "opponent", "answer_sensitivities", "workload_sensitivities", "gaussian_answers",
           "laplace_answers",
           "exact_private", "exact_pooled", "public_empirical", "public_shrunk", "shrink_factor",
           "constant_release", "GridData", "TreeMechanism", "exponential_learner", "histogram_error_counts"]

#: what a theorem about private release with public data offers its algorithm
OFFERS = ("public data", "private data", "privacy")


@dataclass(frozen=True)
class Opponent:
    """One release of the catalogue: ``lacks`` the offers it does without, ``guarantee`` the accounting kind it
    declares ("PureDP", "ApproxDP", "ZCDP", or "none" for no privacy), ``bound`` its result id in ``bounds``."""

    name: str
    description: str
    lacks: tuple
    guarantee: str
    bound: str | None
    classes: str = "any finite class"

    def __post_init__(self):
        if not self.lacks or any(x not in OFFERS for x in self.lacks):
            raise ValueError(f"lacks={self.lacks!r} must name some of {OFFERS}")


CATALOGUE = (
    Opponent("gaussian", "Gaussian mechanism on the whole answer vector (L2 sensitivity 2 sqrt(k)/n, analytic "
             "(eps, delta) calibration)", ("public data",), "ApproxDP", "baselines:gaussian"),
    Opponent("laplace", "Laplace mechanism on every answer (L1 sensitivity 2k/n)", ("public data",), "PureDP",
             "baselines:laplace"),
    Opponent("tree", "binary-tree (CDF) mechanism, Gaussian node noise, grids up to 2^64 points",
             ("public data",), "ApproxDP", "baselines:tree_thresholds", "thresholds and intervals"),
    Opponent("pmw_full_domain", "PMW (BCMNUW20 Algorithm 1) over the whole domain", ("public data",), "ApproxDP",
             "baselines:pmw", "finite classes on an enumerable domain"),
    Opponent("public_empirical", "the public sample's empirical answers", ("private data", "privacy"), "PureDP",
             "baselines:uc"),
    Opponent("public_shrunk", "the public answers shrunk toward 0 by sqrt(m)/(sqrt(m) + 1) (minimax)",
             ("private data", "privacy"), "PureDP", None),
    Opponent("constant_zero", "G(h) = 0, the middle of [-1, 1]", ("private data", "public data", "privacy"),
             "PureDP", None),
    Opponent("exact_private", "the private sample's exact answers (no privacy)", ("privacy", "public data"),
             "none", "baselines:uc"),
    Opponent("exact_pooled", "the private and public samples' exact answers pooled (no privacy)", ("privacy",),
             "none", "baselines:uc"),
    Opponent("em_learner", "the exponential mechanism over H, score minus the error count (KLNRS08)",
             ("public data",), "PureDP", "baselines:em_learner", "learning a finite class"),
    Opponent("erm_private", "ERM on the private sample (no privacy)", ("privacy", "public data"), "none", None,
             "learning a finite class"),
    Opponent("erm_public", "ERM on the public sample alone", ("private data", "privacy"), "PureDP", None,
             "learning a finite class"),
)


def opponent(name: str) -> Opponent:
    """The catalogue's entry ``name`` (ValueError listing the names otherwise)."""
    for o in CATALOGUE:
        if o.name == name:
            return o
    raise ValueError(f"opponent {name!r} unknown: allowed {', '.join(o.name for o in CATALOGUE)}")
