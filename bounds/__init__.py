"""Sample-complexity results of BCMNUW20, ABM19, LVSUW21 and NB20 as mathematics.

Pure mathematics: this package imports no other package of the workbench.

>>> import bounds
>>> c = bounds.compute("thm10", alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, vc=3, dual_vc=8)
>>> c["public_samples"], c["private_samples"]
(10126, 2171649578)
>>> s = bounds.sweep("thm10", alpha=[0.05, 0.1], beta=0.05, epsilon=0.5, delta=1e-6, vc=3, dual_vc=8)
>>> list(s["public_samples"])
[21717.0, 10126.0]
"""
from .errors import DomainError

__all__ = ["compute", "sweep", "compare", "crossover", "get", "all_results", "DomainError"]
_LAZY = {"compute": "api", "sweep": "api", "compare": "api", "crossover": "api", "get": "registry",
         "all_results": "registry"}


def __getattr__(name):
    """The API is imported on first use, so ``import bounds.cli_common`` (every command line's start-up)
    does not load the formulas' numerics."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
