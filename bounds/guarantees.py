"""A privacy guarantee as the workbench prints it, from its saved form: ``(1, 1e-06)-DP`` for (eps, delta)-DP (eps
first, as in LVSUW21 Definition 2.6), ``1-DP`` for pure DP, ``0.5-zCDP`` for zCDP.

Source: the printed form of :func:`algorithms.privacy.accounting.format_guarantee`, here for the saved mapping
(``{"kind": "ApproxDP", "eps": 1.0, "delta": 1e-06}``, as the experiments' summaries write it) so that the report
prints a run's guarantee without importing ``algorithms``; ``tests/bounds/test_guarantees.py`` holds the two equal.
"""
from __future__ import annotations

import math
from typing import Any

#: each saved kind's fields and the range of each: "eps"/"rho" in [0, inf), "delta" in [0, 1)
KINDS = {"PureDP": ("eps",), "ApproxDP": ("eps", "delta"), "ZCDP": ("rho",)}


def _num(kind: str, name: str, value: Any) -> str:
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{kind} {name}={value!r} must be a real number") from None
    if not (0.0 <= x < (1.0 if name == "delta" else math.inf)):
        raise ValueError(f"{kind} {name}={value!r} out of range: allowed {'[0, 1)' if name == 'delta' else '[0, inf)'}")
    return f"{x:.4g}"


def format_guarantee(g: dict | None) -> str:
    """The printed form of a saved guarantee (a mapping with ``kind`` and that kind's fields); ``None`` prints as
    ``none declared``. ValueError for anything else."""
    if g is None:
        return "none declared"
    fields = KINDS.get(g.get("kind")) if isinstance(g, dict) else None
    if fields is None:
        raise ValueError(f"guarantee={g!r} must name kind PureDP, ApproxDP or ZCDP")
    if set(g) - {"kind"} != set(fields):
        raise ValueError(f"guarantee={g!r}: a {g['kind']} has the fields {', '.join(fields)}")
    v = [_num(g["kind"], f, g[f]) for f in fields]
    return {"PureDP": "{}-DP", "ApproxDP": "({}, {})-DP", "ZCDP": "{}-zCDP"}[g["kind"]].format(*v)


def approx_dp(eps: float, delta: float) -> str:
    """``(eps, delta)-DP`` as printed (:func:`format_guarantee` of an ApproxDP)."""
    return format_guarantee({"kind": "ApproxDP", "eps": eps, "delta": delta})
