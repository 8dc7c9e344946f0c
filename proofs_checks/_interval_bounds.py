"""A result of :mod:`bounds` evaluated on intervals (:data:`bounds.ops.INTERVAL`): the enclosure of one of its
quantities over a box of parameters, for the certified checks (:mod:`proofs_checks.certify`).

Explicit and asymptotic forms (hidden constants 1, as :func:`bounds.core.evaluate`) are evaluated as written.
A least-solution quantity (:class:`bounds.core.Implicit`: the least integer x >= lower with g(x) <= 0) is
enclosed by two integer searches: x* <= x_hi where g(x_hi) <= 0 on the whole box, and x* >= x_lo where
g(x_lo - 1) > 0 on the whole box. The second uses what :class:`~bounds.core.Implicit` requires of every g
(non-increasing in x from ``lower`` on), which its own tests check. An infimum has no enclosure here (the
checks that need one stay sampled).
"""
from __future__ import annotations

from bounds.ops import INTERVAL, Dual, Interval, Undecided
from bounds._interval import _value, unknown_slope


def quantity(result_id: str, name: str, values: dict) -> Interval:
    """The enclosure of quantity ``name`` of ``result_id`` over the box ``values`` (parameter key -> Interval or
    number), its chain of earlier quantities evaluated on the same box."""
    import bounds
    from bounds.core import Implicit, Infimum, call

    res = bounds.get(result_id)
    vals = {**res.defaults, **values}
    env: dict = {res.param(k).arg: (v if isinstance(v, Dual) else Interval(v)) for k, v in vals.items()}
    like = next((v for v in env.values() if isinstance(v, Dual)), None)
    for q in res.quantities:
        for c in q.constants:
            env.setdefault(c, Interval(1))
    for q in res.quantities:
        if q.explicit is None:
            v = call(q.asymptotic, INTERVAL, env)
        elif isinstance(q.explicit, Implicit):
            v = _least(q.explicit, {k: _value(x) for k, x in env.items()})
            if like is not None:  # enclosed by searches, not differentiated: its slope is unknown
                v = unknown_slope(v, like)
        elif isinstance(q.explicit, Infimum):  # noqa: SIM114
            raise TypeError(f"{res.short_id} {q.name} is an infimum (no interval enclosure here)")
        else:
            v = call(q.explicit, INTERVAL, env)
        if q.integer and not isinstance(q.explicit, Implicit):
            v = INTERVAL.ceil(v)
        env[q.symbol] = v
        if q.name == name:
            return v
    raise KeyError(f"{res.short_id} has no quantity {name!r}")


def _least(imp, env: dict) -> Interval:
    from bounds.core import call

    lower = INTERVAL.max(INTERVAL.ceil(call(imp.lower, INTERVAL, env)) if imp.lower is not None else 1, 1)

    def g(x: int) -> Interval:
        return call(imp.g, INTERVAL, env, {imp.var: Interval(x)})

    def all_le0(x):
        return g(x).hi <= 0

    def all_gt0(x):
        return g(x).lo > 0

    start_hi, start_lo = int(lower.hi.unique_fmpz()), int(lower.lo.unique_fmpz())
    hi = _first(all_le0, start_hi)
    # x* >= x_lo: the largest x with g(x) > 0 on the whole box, plus one (x* >= lower anyway)
    if not all_gt0(start_lo):
        lo = start_lo
    else:
        lo = _first(lambda x: not all_gt0(x), start_lo)
    return Interval(lo, hi)


def _first(pred, start: int, limit: int = 10**60) -> int:
    """The least integer x >= start with pred(x), pred monotone (false then true): doubling, then bisection."""
    if pred(start):
        return start
    a, b = start, max(2 * start, start + 1)
    while not pred(b):
        a, b = b, 2 * b
        if b > limit:
            raise Undecided("no solution of a least-solution quantity below 10^60 on this box")
    while b - a > 1:
        c = (a + b) // 2
        if pred(c):
            b = c
        else:
            a = c
    return b
