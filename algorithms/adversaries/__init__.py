"""Adversaries of the lower bounds: robust tracing attack, public-data reduction B, query release to learning.

What users call is exported here, imported on first use (the modules stay reachable by name).
"""
from .._lazy import lazy_exports

_EXPORTS = {
    "Attacker": "tracing", "hard_distribution": "tracing", "signal_floor": "tracing", "roc_curve": "tracing",
    "reduction_b": "public_reduction", "input_size": "public_reduction", "priv_samp": "public_reduction",
    "exact_runout_probability": "public_reduction",
    "learner_from_release": "query_to_learner", "labelled_class": "query_to_learner",
    "labelled_distribution": "query_to_learner",
}
__all__ = sorted(_EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
