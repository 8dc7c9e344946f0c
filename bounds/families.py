"""Where public data pays, by the bounds: Theorem 10's private sample for A_PAP (BCMNUW20) beside the least
private sample of the strongest private-only release a referee brings (the ``baselines:*`` results), for the
classes whose query set and domain are both huge.

Each family maps its size s to (d, p, |H|, |X|) = (VC, dual VC, number of hypotheses, domain size), as stated
in its ``FAMILIES`` entry, and lists the private-only results that apply to it. :func:`public_pays` evaluates
them at one size; :func:`least_paying_size` searches the least size (in the family's size parameter) at which
Theorem 10's n falls below every private-only bound. An opponent whose |H| or |X| is beyond float64 (2^1023)
is out of the engine's range: it is reported as None (not evaluated) and the rest are compared.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from .errors import DomainError

__all__ = ["Family", "FAMILIES", "class_dimensions", "public_pays", "least_paying_size"]

_FLOAT_LOG2 = 1023.0


@dataclass(frozen=True)
class Family:
    """A class family: ``dims(s) -> (d, p, |H|, |X|)`` (Python integers) and the private-only results that apply."""

    name: str
    size: str              # what s is
    dims: Callable[[int], tuple]
    opponents: tuple       # result ids of the private-only releases that apply
    facts: str             # where the dimensions come from


FAMILIES = {f.name: f for f in (
    Family("thresholds", "L: the grid has 2^L points", lambda L: (1, 1, 2**L + 1, 2**L),
           ("baselines:tree_thresholds", "baselines:gaussian", "baselines:pmw"),
           "VC = dual VC = 1; |H| = 2^L + 1 (algorithms.classes.constructors.thresholds)"),
    Family("intervals", "L: the grid has 2^L points",
           lambda L: (2, 2, 2**L * (2**L + 1) // 2 + 1, 2**L),
           ("baselines:tree_intervals", "baselines:gaussian", "baselines:pmw"),
           "VC = 2, dual VC = 2 (an interval's dual is a threshold pair); |H| = N (N + 1)/2 + 1"),
    Family("stumps", "p: the domain is {+-1}^p", lambda p: (max(1, p.bit_length() - 1), p, p, 2**p),
           ("baselines:gaussian", "baselines:laplace", "baselines:pmw"),
           "BCMNUW20 Definition 12: VC = floor(log2 p), dual VC = p, |H| = p"),
    Family("conjunctions", "p: monotone conjunctions on {0,1}^p", lambda p: (p, p, 2**p, 2**p),
           ("baselines:gaussian", "baselines:pmw"),
           "VC = p; dual VC = p (the singletons are shattered by the points); |H| = |X| = 2^p"),
    Family("parities", "p: parities on {0,1}^p", lambda p: (p, p, 2**p, 2**p),
           ("baselines:gaussian", "baselines:pmw"),
           "VC = dual VC = p (the class is self-dual); |H| = |X| = 2^p"),
    Family("halfspaces_2d", "b: halfspaces on the grid {0..2^b-1}^2",
           lambda b: (3, 3, 2**(4 * b) - 2**(2 * b) + 2, 2**(2 * b)),
           ("baselines:gaussian", "baselines:pmw"),
           "VC = dual VC = 3 in the plane; |H| <= N^2 - N + 2 for N = |X| points (Cover 1965, the function "
           "counting theorem, attained in general position): an upper bound, so PMW's bound is overstated and a "
           "crossover found is a lower estimate of the true one"),
)}



def class_dimensions(kind: str, stump_dim: int) -> tuple[int, int]:
    """(d, p) = (VC, dual VC) of a class the experiments run, as its family states them: thresholds (1, 1) and
    intervals (2, 2) at every grid size (intervals from 3 points on), decision stumps on {+-1}^p (floor(log2 p), p)
    (BCMNUW20 Definition 12); the experiment's tests check them exactly on small instances."""
    return tuple(FAMILIES[kind].dims(stump_dim if kind == "stumps" else 2)[:2])

def _n(result: str, **params) -> float:
    from .api import compute

    return float(compute(result, **params)["private_samples"])


def public_pays(family: str, size: int, *, alpha: float, beta: float, epsilon: float, delta: float) -> dict:
    """Theorem 10's n and every applicable private-only n at one size of ``family``; ``pays`` is True where
    Theorem 10's n is below all of them. Opponents whose |H| or |X| leaves float range are reported as such."""
    if family not in FAMILIES:
        raise DomainError(f"family={family!r} unknown: allowed {', '.join(FAMILIES)}")
    fam = FAMILIES[family]
    d, p, H, X = fam.dims(int(size))
    log2_h, log2_x = math.log2(H), math.log2(X)
    common = {"alpha": alpha, "beta": beta, "epsilon": epsilon}
    out = {"family": family, "size": int(size), "d": d, "p": p, "log2_hypotheses": log2_h,
           "log2_domain": log2_x, "thm10": _n("bcmnuw20:thm10", **common, delta=delta, vc=d, dual_vc=p),
           "opponents": {}}
    H, X = (float(v) if math.log2(v) <= _FLOAT_LOG2 else None for v in (H, X))
    for rid in fam.opponents:
        needs = (log2_h,) if rid in ("baselines:gaussian", "baselines:laplace") else (
            (log2_x,) if rid.startswith("baselines:tree") else (log2_h, log2_x))
        if max(needs) > _FLOAT_LOG2:
            out["opponents"][rid] = None
            continue
        if rid.startswith("baselines:tree"):
            v = _n(rid, **common, delta=delta, domain_size=X)
        elif rid == "baselines:laplace":
            v = _n(rid, **common, num_hypotheses=H)
        elif rid == "baselines:gaussian":
            v = _n(rid, **common, delta=delta, num_hypotheses=H)
        else:
            v = _n(rid, alpha=alpha, beta=beta, epsilon=epsilon, delta=delta, num_hypotheses=H, domain_size=X)
        out["opponents"][rid] = v
    known = {k: v for k, v in out["opponents"].items() if v is not None}
    best = min(known, key=known.get) if known else None
    out["strongest"] = best
    out["strongest_n"] = known[best] if best else None
    out["ratio_thm10_over_strongest"] = out["thm10"] / known[best] if best else None
    out["pays"] = bool(best is not None and out["thm10"] < known[best])
    return out


def least_paying_size(family: str, *, low: int, high: int, alpha: float, beta: float, epsilon: float,
                      delta: float) -> dict:
    """The least size in [low, high] at which Theorem 10's n is below every private-only bound, by doubling
    from ``low`` then bisection (the ratio thm10/strongest is assumed to fall with the size once it has; the
    answer is checked at the size found and one below it). ``found`` False: none up to ``high`` (or up to the
    float range of |H| and |X|, ``limit``)."""
    fam = FAMILIES.get(family)
    if fam is None:
        raise DomainError(f"family={family!r} unknown: allowed {', '.join(FAMILIES)}")
    kw = {"alpha": alpha, "beta": beta, "epsilon": epsilon, "delta": delta}
    limit = high
    s, hit = low, None
    while s <= limit:
        if public_pays(family, s, **kw)["pays"]:
            hit = s
            break
        if s == limit:
            break
        s = min(limit, 2 * s)
    if hit is None:
        at = public_pays(family, limit, **kw)
        return {"family": family, "found": False, "searched": [low, limit], "limit": limit, "at_limit": at,
                "beyond_float": [k for k, v in at["opponents"].items() if v is None]}
    lo = max(low, hit // 2)
    while hit - lo > 1:
        mid = (lo + hit) // 2
        if public_pays(family, mid, **kw)["pays"]:
            hit = mid
        else:
            lo = mid
    return {"family": family, "found": True, "least_size": hit, "at": public_pays(family, hit, **kw),
            "below": public_pays(family, hit - 1, **kw) if hit > low else None}
