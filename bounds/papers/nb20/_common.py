"""NB20: what every result module of the paper shares (paper key, source, its parameters)."""
from __future__ import annotations

import math

from ...params import Interval, Param, add_param
from ...references import source
from ...core import Result

PAPER = "NB20"
SOURCE = source("NB20")  # key, title and venue (bounds.references), never the text's file name

add_param(Param("cutoff", "T", "T", Interval(1.0, math.inf, False, True),
                "cut-off on unstable queries of A_SubSamp (NB20 Alg 5's T, >= 1)"))
add_param(Param("approx_error", "gamma", r"\gamma", Interval(0.0, 1.0, False, True),
                "approximation error of the class, min_h err(h; D) (NB20's gamma)"))

_UNIT = Interval(0.0, 1.0)  # NB20 states eps, delta, alpha, beta in (0, 1)

_DECLARED: dict[str, Result] = {}


def _declare(*results: Result) -> None:
    """Collect results where their formulas are defined; they are registered in paper order below."""
    for r in results:
        _DECLARED[r.id] = r

