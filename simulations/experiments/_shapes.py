"""BCMNUW20 Theorem 10's shapes: power-law exponents of the least sizes ``thm10_looseness`` finds, against 1/alpha,
p or d, beside the bound's (a slope is a shape, not a constant)."""

from __future__ import annotations

import numpy as np


def _slope(xs, ys) -> float | None:
    pts = [(x, y) for x, y in zip(xs, ys) if x and y]
    if len({x for x, _ in pts}) < 2:
        return None
    return float(np.polyfit(np.log([x for x, _ in pts]), np.log([y for _, y in pts]), 1)[0])


def fitted_exponents(rows: list[dict]) -> dict:
    """Shapes in alpha: least-squares slopes of log(size) against log(1/alpha) over the alphas of one case,
    for the empirical least n and m (uncensored points only) and for the bound's n and m at the same alphas.
    None where fewer than two alphas have a value. A slope is a shape, not a constant: Theorem 10's n grows
    like 1/alpha^2 up to logs, its m like 1/alpha."""
    inv = [1 / r["alpha"] for r in rows]
    return {
        "alphas": [r["alpha"] for r in rows],
        "least_n": _slope(inv, [None if r["least_n_censored"] else r["least_n"] for r in rows]),
        "bound_n": _slope(inv, [r["n_bound"] for r in rows]),
        "least_m": _slope(inv, [None if r["least_m_censored"] else r["least_m"] for r in rows]),
        "bound_m": _slope(inv, [r["m_bound"] for r in rows]),
    }


def fitted_exponents_in(rows: list[dict], var: str) -> dict:
    """Shapes in ``var`` ("p" or "d"): slopes of log(size) against log(var) over the rows (distinct values of
    var), for the least n (U, uncensored), the interval's lower end L (> 0), the bound's n (as the
    runs use it) and bounds' corrected n (the same since Lemma 7's tight split); with Theorem 13's sqrt(p)/alpha
    for p. None where fewer than two distinct values have a number."""
    x = [r[var] for r in rows]
    out = {var: x, "keys": [r["key"] for r in rows],
           "least_n": _slope(x, [None if r["least_n_censored"] else r["least_n"] for r in rows]),
           "lower_n": _slope(x, [(r["n_interval"] or [0])[0] or None for r in rows]),
           "bound_n": _slope(x, [r["n_bound"] for r in rows]),
           "bound_n_optimised": _slope(x, [r["n_corrected"] for r in rows])}
    if var == "p":
        out["thm13_n"] = _slope(x, [r["thm13_n"] for r in rows])
    return out
