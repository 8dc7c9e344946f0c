"""The shape of a result and the engine that turns it into concrete numbers.

A :class:`Result` (one theorem, lemma, claim, ...) bounds one or more :class:`Quantity` values.
Each quantity carries the asymptotic form the paper states (hidden constants as named symbols)
and, where the proof pins the constants down, an explicit form: a closed formula, or an
:class:`Implicit` inequality whose least integer solution is the value. Formulas are plain
functions ``f(o, <args>)`` over the namespaces of :mod:`bounds.ops`, so the same code evaluates
vectorised in numpy, beyond floating point in mpmath, and symbolically in sympy.

Quantities are evaluated in declaration order; a later quantity may use an earlier one by its
symbol (Theorem 10's private sample size uses the public sample size ``m``).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Mapping

import numpy as np

from .errors import DomainError
from .ops import MPMATH, NUMPY, SYMPY
from .params import PARAMS

from ._core_types import (  # noqa: F401  (re-exported: bounds.core is the import path)
    FLOAT_LIMIT, Departure, Implicit, Infimum, Quantity, Relation, Result, _arg_names, call,
)


# ---------------------------------------------------------------------------------------------
# evaluation


@dataclass
class Evaluated:
    """The values of one quantity at one or many parameter points."""

    quantity: Quantity
    form: str                  # "explicit" or "asymptotic"
    value: np.ndarray          # float64; inf where beyond floating point (see log10)
    log10: np.ndarray          # always finite
    exact: list | None = None  # Python ints (arbitrary size) for integer quantities, per point

    @property
    def explicit(self) -> bool:
        return self.form == "explicit"


def _to_float_array(x) -> np.ndarray:
    try:
        return np.asarray(x, dtype=float)
    except OverflowError:
        obj = np.asarray(x, dtype=object)
        flat = [float(v) if abs(v) < 1e308 else math.inf for v in obj.ravel()]
        return np.array(flat, dtype=float).reshape(obj.shape)


def check_params(result: Result, values: Mapping[str, Any]) -> None:
    """Raise DomainError for unknown, missing or out-of-domain parameters."""
    unknown = [k for k in values if k not in result.params]
    if unknown:
        raise DomainError(f"{result.short_id} does not take " + ", ".join(
            PARAMS[k].flag if k in PARAMS else k for k in unknown)
            + "; it takes " + ", ".join(result.param(k).flag for k in result.params))
    for k, v in values.items():
        result.param(k).check(v, result.short_id)
    missing = [k for k in result.params if k not in values and k not in result.defaults]
    if missing:
        raise DomainError(f"{result.short_id} needs " + ", ".join(result.param(k).flag for k in missing)
                          + " (missing)")
    by_arg = {result.param(k).arg: k for k in result.params}
    for rel in result.relations:
        keys = [by_arg[a] for a in _arg_names(rel.holds)]
        if not all(k in values for k in keys):
            continue
        exact = [np.asarray(values[k], dtype=object) for k in keys]
        arrays = [_to_float_array(values[k]) for k in keys]
        with np.errstate(all="ignore"):
            ok = np.broadcast_to(np.asarray(rel.holds(NUMPY, *arrays), dtype=bool),
                                 np.broadcast_shapes(*(a.shape for a in arrays))).copy()
        beyond = ~np.all([np.isfinite(np.broadcast_to(a, ok.shape)) for a in arrays], axis=0)
        if beyond.any():  # values past float range: decide those points exactly, in mpmath
            import mpmath

            cols = [np.broadcast_to(e, ok.shape) for e in exact]
            for j in zip(*np.nonzero(beyond)) if ok.shape else [()]:
                # integers stay Python ints (exact), anything else becomes an mpmath number
                ok[j] = bool(call(rel.holds, MPMATH, {}, {
                    a: c[j] if isinstance(c[j], int) else mpmath.mpf(c[j])
                    for a, c in zip(_arg_names(rel.holds), cols)}))
        if not ok.all():
            j = np.unravel_index(int(np.argmin(ok)), ok.shape) if ok.shape else ()
            given = ", ".join(f"{result.param(k).flag} {np.broadcast_to(e, ok.shape)[j]}"
                              for k, e in zip(keys, exact))
            raise DomainError(f"{result.short_id}: {given} violate {rel.text}")


def evaluate(result: Result, values: Mapping[str, Any], *, form: str = "explicit",
             constants: Mapping[str, float] | None = None) -> dict[str, Evaluated]:
    """Evaluate every quantity of ``result`` at the (broadcast) parameter values.

    ``form="explicit"`` uses the explicit form where there is one and the asymptotic form with
    the hidden constants (default 1) elsewhere; ``form="asymptotic"`` always uses the latter.
    """
    if form not in ("explicit", "asymptotic"):
        raise DomainError(f"--form = {form}: allowed: explicit, asymptotic")
    constants = dict(constants or {})
    known = {c for q in result.quantities for c in q.constants}
    bad = [c for c in constants if c not in known]
    if bad:
        raise DomainError(f"--const {bad[0]}: {result.short_id} has no hidden constant of that name"
                          + (f"; it has: {', '.join(sorted(known))}" if known else "; it has none"))
    for c, v in constants.items():
        if not (isinstance(v, (int, float)) and v > 0 and math.isfinite(v)):
            raise DomainError(f"--const {c}={v}: a hidden constant must be a positive number")
    values = {**result.defaults, **values}
    check_params(result, values)

    exact_inputs = {result.param(k).arg: v for k, v in values.items()}
    arrays = {a: _to_float_array(v) for a, v in exact_inputs.items()}
    shape = np.broadcast_shapes(*(a.shape for a in arrays.values())) if arrays else ()
    env: dict[str, Any] = {a: np.broadcast_to(v, shape).astype(float) for a, v in arrays.items()}
    for c in known:
        env[c] = float(constants.get(c, 1.0))

    bad_pts = np.zeros(shape, dtype=bool)
    for a, v in env.items():
        if isinstance(v, np.ndarray):
            bad_pts |= ~np.isfinite(v) | (np.abs(v) > FLOAT_LIMIT)

    out: dict[str, Evaluated] = {}
    with np.errstate(all="ignore"):
        for q in result.quantities:
            use = _form_of(q, form)
            val = np.broadcast_to(np.asarray(_eval_np(q, use, env), dtype=float), shape).copy()
            bad_pts |= ~np.isfinite(val) | (np.abs(val) > FLOAT_LIMIT) | (val < 0) & q.integer
            if q.tiny:
                bad_pts |= val < 1e-300
            env[q.symbol] = val
            out[q.name] = Evaluated(q, use, val, np.full(shape, np.nan))

    # points that left float range: recompute the whole chain in mpmath
    for idx in zip(*np.nonzero(bad_pts)) if shape else ([()] if bad_pts else []):
        point = {}
        for a, v in exact_inputs.items():
            arr = np.asarray(v, dtype=object)
            point[a] = np.broadcast_to(arr, shape)[idx] if arr.shape else v
        mp_vals = _eval_mp_point(result, point, form, constants, known)
        for name, mv in mp_vals.items():
            ev = out[name]
            ev.value[idx] = float(mv) if abs(mv) < FLOAT_LIMIT else math.inf
            ev.log10[idx] = _mp_log10(mv, result, ev.quantity)

    for ev in out.values():
        todo = np.isnan(ev.log10)
        if np.any(ev.value[todo] <= 0) and ev.quantity.integer:
            raise DomainError(f"{result.short_id}: {ev.quantity.name} is not positive at these "
                              "parameters (the bound is vacuous or the parameters are outside "
                              "where the formula applies)")
        with np.errstate(divide="ignore", invalid="ignore"):
            ev.log10[todo] = np.log10(np.abs(ev.value[todo]))
        ev.log10[todo & (ev.value == 0)] = -math.inf
        if np.any(np.isnan(ev.value)) or np.any(np.isnan(ev.log10)):
            raise DomainError(f"{result.short_id}: {ev.quantity.name} is undefined at these "
                              "parameters (outside where the formula applies)")
    return out


def _form_of(q: Quantity, form: str) -> str:
    if form == "explicit" and q.explicit is not None:
        return "explicit"
    if q.asymptotic is None:
        return "explicit"
    return "asymptotic"


def _eval_np(q: Quantity, use: str, env: dict):
    if use == "asymptotic":
        v = call(q.asymptotic, NUMPY, env)
        return np.ceil(v) if q.integer else v
    if isinstance(q.explicit, Implicit):
        return _solve_np(q.explicit, env)
    if isinstance(q.explicit, Infimum):
        x = q.explicit.argmin_np(env)
        v = call(q.explicit.h, NUMPY, env, {q.explicit.var: x})
        return np.ceil(v) if q.integer else v
    v = call(q.explicit, NUMPY, env)
    return np.ceil(v) if q.integer else v


def _solve_np(imp: Implicit, env: dict) -> np.ndarray:
    """Vectorised least integer x >= lower with g(x) <= 0 (g non-increasing from lower on)."""
    shape = np.broadcast_shapes(*(np.shape(v) for v in env.values() if isinstance(v, np.ndarray)))
    if shape == ():  # one point (compute): solve it as a sweep of one
        one = {k: (v.reshape(1) if isinstance(v, np.ndarray) else v) for k, v in env.items()}
        return _solve_np(imp, one).reshape(())
    lower = (np.broadcast_to(call(imp.lower, NUMPY, env), shape) if imp.lower is not None
             else np.ones(shape))
    lo = np.maximum(np.ceil(lower), 1.0)

    def g(x, mask):
        sub = {k: (v[mask] if isinstance(v, np.ndarray) and v.shape == shape else v)
               for k, v in env.items()}
        return np.asarray(call(imp.g, NUMPY, sub, {imp.var: x}), dtype=float)

    ans = np.full(shape, np.nan)
    everything = np.ones(shape, dtype=bool)
    ok = g(lo[everything], everything) <= 0
    ans[ok] = lo[ok]
    # bracket: hi = lo * 2^k until g(hi) <= 0
    active = ~ok
    hi = lo.copy()
    low_bracket = lo.copy()  # g(low_bracket) > 0 on active points
    for _ in range(1100):
        if not active.any():
            break
        low_bracket[active] = hi[active]
        hi[active] = hi[active] * 2
        hi_fin = active & (hi <= FLOAT_LIMIT)
        done = np.zeros(shape, dtype=bool)
        done[hi_fin] = g(hi[hi_fin], hi_fin) <= 0
        active &= ~done & (hi <= FLOAT_LIMIT)
    found = ~ok & ~np.isnan(hi) & (hi <= FLOAT_LIMIT)
    if found.any():
        ans[found] = _refine_bracket(imp, env, shape, found, low_bracket[found], hi[found])
    return ans  # nan where the root is beyond float range: the mpmath pass takes over


def _refine_bracket(imp: Implicit, env: dict, shape, found, a, b) -> np.ndarray:
    """Shrink integer brackets g(a) > 0 >= g(b) to b - a <= max(1, 4e-16 b); return b.

    Illinois (modified false position) on integer iterates, with a bisection step (geometric
    while b > 4a) every third iteration so that the worst case stays logarithmic: for the
    smooth log-form tails of the papers about ten evaluations of g instead of ~50 bisections.
    """
    sub_env = {k: (v[found] if isinstance(v, np.ndarray) and v.shape == shape else v)
               for k, v in env.items()}

    def g(x, idx):
        sub = {k: (v[idx] if isinstance(v, np.ndarray) and v.shape == a.shape else v)
               for k, v in sub_env.items()}
        return np.asarray(call(imp.g, NUMPY, sub, {imp.var: x}), dtype=float)

    every = np.arange(a.size)
    ga, gb = g(a, every), g(b, every)
    side = np.zeros(a.shape, dtype=np.int8)  # +1: b moved last time, -1: a moved
    for it in range(3000):
        act = np.flatnonzero(b - a > np.maximum(1.0, b * 4e-16))
        if act.size == 0:
            break
        A, B, GA, GB = a[act], b[act], ga[act], gb[act]
        if it % 3 == 2:
            c = np.where(B > 4 * A, np.sqrt(A * B), (A + B) / 2)
        else:
            with np.errstate(all="ignore"):
                c = (A * GB - B * GA) / (GB - GA)
            c = np.where(np.isfinite(c), c, (A + B) / 2)
        lo_c = np.maximum(A + 1, np.nextafter(A, np.inf))
        hi_c = np.minimum(B - 1, np.nextafter(B, -np.inf))
        c = np.clip(np.floor(c), lo_c, np.maximum(lo_c, hi_c))
        gc = g(c, act)
        neg = gc <= 0
        # Illinois: an end point kept twice in a row has its g halved
        keep_a = neg & (side[act] == 1)
        keep_b = ~neg & (side[act] == -1)
        ga[act[keep_a]] *= 0.5
        gb[act[keep_b]] *= 0.5
        b[act[neg]], gb[act[neg]] = c[neg], gc[neg]
        a[act[~neg]], ga[act[~neg]] = c[~neg], gc[~neg]
        side[act] = np.where(neg, 1, -1)
    return b


def _eval_mp_point(result: Result, point: dict, form: str, constants: dict, known) -> dict:
    import mpmath

    mpmath.mp.dps = 40
    env: dict[str, Any] = {a: mpmath.mpf(v) if not isinstance(v, mpmath.mpf) else v
                           for a, v in point.items()}
    for c in known:
        env[c] = mpmath.mpf(constants.get(c, 1.0))
    out = {}
    for q in result.quantities:
        use = _form_of(q, form)
        if use == "asymptotic":
            v = call(q.asymptotic, MPMATH, env)
            v = mpmath.ceil(v) if q.integer else v
        elif isinstance(q.explicit, Implicit):
            v = _solve_mp(q.explicit, env)
        elif isinstance(q.explicit, Infimum):
            x = q.explicit.argmin_mp(env)
            v = call(q.explicit.h, MPMATH, env, {q.explicit.var: x})
            v = mpmath.ceil(v) if q.integer else v
        else:
            v = call(q.explicit, MPMATH, env)
            v = mpmath.ceil(v) if q.integer else v
        if not mpmath.isfinite(v) or (isinstance(v, mpmath.mpc)):
            raise DomainError(f"{result.short_id}: {q.name} is undefined at these parameters")
        env[q.symbol] = v
        out[q.name] = v
    return out


def _solve_mp(imp: Implicit, env: dict):
    import mpmath

    lo = mpmath.ceil(call(imp.lower, MPMATH, env)) if imp.lower is not None else mpmath.mpf(1)
    lo = max(lo, mpmath.mpf(1))

    def ok(x):
        return call(imp.g, MPMATH, env, {imp.var: x}) <= 0

    if ok(lo):
        return lo
    a, b = lo, lo * 2
    while not ok(b):
        a, b = b, b * 2
        if b > mpmath.mpf(10) ** 100000:
            raise DomainError(f"{imp.text}: no solution below 10^100000")
    # bisect in log space first, then on the integers
    while b - a > max(1, b * mpmath.mpf(10) ** -35):
        mid = mpmath.floor((a + b) / 2) if b < 10 ** 30 else mpmath.sqrt(a * b)
        if ok(mid):
            b = mid
        else:
            a = mid
    return mpmath.ceil(b)


def _mp_log10(v, result, q) -> float:
    import mpmath

    if v == 0:
        return -math.inf
    if v < 0 and q.integer:
        raise DomainError(f"{result.short_id}: {q.name} is not positive at these parameters")
    return float(mpmath.log10(abs(v)))


# ---------------------------------------------------------------------------------------------
# symbolic forms


def symbols_for(result: Result) -> dict[str, Any]:
    """sympy symbols for the parameters, hidden constants and quantities of ``result``."""
    import sympy as sp

    env: dict[str, Any] = {}
    for k in result.params:
        p = result.param(k)
        env[p.arg] = sp.Symbol(p.arg, positive=True, integer=p.domain.integer or None)
    for q in result.quantities:
        for c in q.constants:
            env[c] = sp.Symbol(c, positive=True)
        env[q.symbol] = sp.Symbol(q.symbol, positive=True)
    return env


def latex_names(result: Result) -> dict:
    """symbol -> LaTeX name, for ``sympy.latex(expr, symbol_names=...)``."""
    env = symbols_for(result)
    return {env[result.param(k).arg]: result.param(k).latex for k in result.params}


def symbolic(result: Result, quantity: Quantity, form: str):
    """The sympy expression of a quantity's form ('asymptotic' or 'explicit').

    An implicit explicit form is returned as the relation ``g(x) <= 0`` in the unknown; an
    :class:`Infimum` as the unevaluated infimum of its objective over its bracket.
    """
    import sympy as sp

    env = symbols_for(result)
    if form == "asymptotic":
        if quantity.asymptotic is None:
            return None
        return call(quantity.asymptotic, SYMPY, env)
    if quantity.explicit is None:
        return None
    if isinstance(quantity.explicit, Implicit):
        x = sp.Symbol(quantity.explicit.var, positive=True)
        return sp.Le(call(quantity.explicit.g, SYMPY, env, {quantity.explicit.var: x}), 0)
    if isinstance(quantity.explicit, Infimum):
        inf = quantity.explicit
        x = sp.Symbol(inf.var, positive=True)
        return _sympy_infimum()(call(inf.h, SYMPY, env, {inf.var: x}), x,
                                call(inf.lower, SYMPY, env), call(inf.upper, SYMPY, env))
    return call(quantity.explicit, SYMPY, env)


_INF_CLASS = None


def _sympy_infimum():
    """An unevaluated sympy ``inf_{lower <= x <= upper} expr`` (for show and LaTeX only)."""
    global _INF_CLASS
    if _INF_CLASS is None:
        import sympy as sp

        class Infimum(sp.Function):
            nargs = 4

            def _sympystr(self, printer):
                expr, x, lo, hi = self.args
                return (f"inf_{{{printer._print(lo)} <= {printer._print(x)} <= "
                        f"{printer._print(hi)}}} ({printer._print(expr)})")

            def _latex(self, printer):
                expr, x, lo, hi = self.args
                return (rf"\inf_{{{printer._print(lo)} \le {printer._print(x)} \le "
                        rf"{printer._print(hi)}}} \left({printer._print(expr)}\right)")

        _INF_CLASS = Infimum
    return _INF_CLASS
