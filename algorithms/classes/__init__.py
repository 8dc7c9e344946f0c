"""Finite hypothesis classes as boolean matrices (hypotheses x points) and their combinatorics.

BCMNUW20 Section 2 and Algorithm 3: classes, constructors, VC / dual VC / Littlestone
dimension, growth function, projections Pi_H(T), the public cover H~ (Lemma 11), the
representative domain X_H~ (Definition 2) and Project_{H~,w}.
"""

from .finite import FiniteClass, PointCounts, as_counts, validate_indices
from .constructors import (
    boolean_cube,
    conjunctions,
    decision_stumps,
    explicit,
    halfspaces,
    hypercube_points,
    intervals,
    marginals,
    point_functions,
    random_class,
    thresholds,
)
from .combinatorics import (
    Dimension,
    dual_vc_dimension,
    growth_function,
    is_mistake_tree,
    littlestone_dimension,
    shatters,
    vc_dimension,
)
from .cover import (
    Cover,
    Projection,
    RepresentativeDomain,
    build_cover,
    projection,
    representative_domain,
)

__all__ = [
    "FiniteClass", "PointCounts", "as_counts", "validate_indices",
    "boolean_cube", "conjunctions", "decision_stumps", "explicit", "halfspaces",
    "hypercube_points", "intervals", "marginals", "point_functions", "random_class", "thresholds",
    "Dimension", "dual_vc_dimension", "growth_function", "is_mistake_tree", "littlestone_dimension",
    "shatters", "vc_dimension",
    "Cover", "Projection", "RepresentativeDomain", "build_cover", "projection", "representative_domain",
]
