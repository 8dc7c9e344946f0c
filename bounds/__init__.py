"""Sample-complexity results of BCMNUW20, ABM19, LVSUW21 and NB20 as mathematics.

Pure mathematics: this package imports no other package of the workbench.

>>> import bounds
>>> c = bounds.compute("thm10", alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, vc=3, dual_vc=8)
>>> c["public_samples"], c["private_samples"]
(10126, 4277206748)
>>> s = bounds.sweep("thm10", alpha=[0.05, 0.1], beta=0.05, epsilon=0.5, delta=1e-6, vc=3, dual_vc=8)
>>> list(s["public_samples"])
[21717.0, 10126.0]
"""
from .api import compare, compute, crossover, sweep
from .errors import DomainError
from .registry import all_results, get

__all__ = ["compute", "sweep", "compare", "crossover", "get", "all_results", "DomainError"]
