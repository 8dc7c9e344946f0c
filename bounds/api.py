"""The Python API for notebooks: ``bounds.compute``, ``bounds.sweep``, ``bounds.compare``,
``bounds.crossover``, and the parsing of values and ranges the command line shares."""
from __future__ import annotations

import itertools
import math
import re
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

import numpy as np

from .core import Evaluated, Result, evaluate
from .errors import DomainError
from .params import PARAMS
from .registry import get

# ---------------------------------------------------------------------------------------------
# values and ranges

_POW = re.compile(r"^\s*([0-9.eE+-]+)\s*(?:\^|\*\*)\s*([0-9.eE+-]+)\s*$")


def parse_value(text: str, flag: str = "value"):
    """``0.1``, ``1e-9``, ``20``, ``2^64`` or ``2**64`` (powers of integers stay exact)."""
    s = str(text).strip()
    try:
        if re.fullmatch(r"[+-]?\d+", s):
            return int(s)
        m = _POW.match(s)
        if m:
            base, exp = m.groups()
            if re.fullmatch(r"\d+", base) and re.fullmatch(r"\d+", exp):
                if int(exp) * math.log2(max(int(base), 2)) > 1_000_000:
                    raise DomainError(f"{flag} = {s}: too large (more than 10^300000)")
                return int(base) ** int(exp)
            v = float(base) ** float(exp)
        else:
            v = float(s)
    except (ValueError, OverflowError):
        raise DomainError(f"{flag} = {s!r}: not a number (examples: 0.1, 1e-6, 2^20)") from None
    if not math.isfinite(v):
        raise DomainError(f"{flag} = {s!r}: not a finite number")
    return int(v) if v.is_integer() and abs(v) < 2**53 and "." not in s and "e" not in s.lower() else v


def parse_range(text: str, flag: str = "value") -> list:
    """``a:b:k`` (k points, linear), ``a:b:k:log`` (geometric), ``x,y,z`` or a single value."""
    s = str(text).strip()
    if "," in s:
        return [parse_value(t, flag) for t in s.split(",") if t.strip()]
    if ":" in s:
        parts = s.split(":")
        if len(parts) not in (3, 4) or (len(parts) == 4 and parts[3] not in ("log", "lin")):
            raise DomainError(f"{flag} = {s!r}: a range is start:stop:count or start:stop:count:log")
        a, b = parse_value(parts[0], flag), parse_value(parts[1], flag)
        try:
            k = int(parts[2])
        except ValueError:
            raise DomainError(f"{flag} = {s!r}: the count {parts[2]!r} is not an integer") from None
        if k < 1:
            raise DomainError(f"{flag} = {s!r}: the count must be at least 1")
        if len(parts) == 4 and parts[3] == "log":
            if a <= 0 or b <= 0:
                raise DomainError(f"{flag} = {s!r}: a log range needs positive end points")
            pts = np.geomspace(float(a), float(b), k)
        else:
            pts = np.linspace(float(a), float(b), k)
        both_int = isinstance(a, int) and isinstance(b, int)
        return [int(round(x)) if both_int and abs(x - round(x)) < 1e-9 else float(x) for x in pts]
    return [parse_value(s, flag)]


# ---------------------------------------------------------------------------------------------
# results of a computation


@dataclass
class QuantityValue:
    name: str
    symbol: str
    value: float               # inf when beyond floating point: see log10 and exact
    log10: float
    explicit: bool             # True when no hidden constant was left to the user
    form: str                  # "explicit" or "asymptotic"
    order: str
    integer: bool
    derivation: str
    description: str
    intermediate: bool
    exact: int | None = None   # the integer itself for integer quantities (any size)

    @property
    def significant_digits(self) -> int:
        """Digits of ``value`` that the float64 (or log10) arithmetic behind it carries: 15 for
        values computed in float64; fewer for values beyond float range, which are known through
        their log10 (a float whose absolute error grows with its size)."""
        if math.isfinite(self.value):
            return 15
        return max(1, min(15, int(-math.log10(2.303 * max(abs(self.log10), 1.0) * 2.3e-16))))

    def json_value(self):
        """The value as JSON carries it without false precision: an exact integer only while every
        digit is meaningful (< 10^15); beyond, a float with 15 digits; beyond float64's range, a string of
        ``significant_digits`` digits (:class:`BigNumber`)."""
        if self.exact is not None and abs(self.exact) < 10**15:
            return self.exact
        if math.isfinite(self.value):
            return float(f"{self.value:.15g}")
        return BigNumber(self.log10, self.significant_digits)

    def to_dict(self) -> dict:
        return {
            "value": self.json_value(),
            "significant_digits": self.significant_digits,
            "log10": round(self.log10, 12) if math.isfinite(self.log10) else None,
            "explicit": self.explicit,
            "form": self.form,
            "order": self.order,
            "symbol": self.symbol,
            "integer": self.integer,
            "intermediate": self.intermediate,
            "description": self.description,
            "derivation": self.derivation if self.explicit else "",
        }


@dataclass
class Computation:
    result: Result
    params: dict[str, Any]
    constants: dict[str, float]
    quantities: dict[str, QuantityValue]

    def __getitem__(self, name: str) -> float:
        q = self.quantities[name]
        return q.exact if q.exact is not None else q.value

    @property
    def explicit(self) -> bool:
        return all(q.explicit for q in self.quantities.values())

    @property
    def departures(self) -> list[dict]:
        """Printed vs corrected (the result's ``departures``): each value, its reference and the ratio."""
        out = []
        for dep in self.result.departures:
            q, r = self.quantities[dep.quantity], self.quantities[dep.reference]
            out.append({"label": dep.label, "quantity": dep.quantity, "reference": dep.reference,
                        "value": q.json_value(), "reference_value": r.json_value(),
                        "log10_ratio": round(q.log10 - r.log10, 6),
                        "ratio": float(f"{10 ** (q.log10 - r.log10):.4g}")
                        if abs(q.log10 - r.log10) < 300 else BigNumber(q.log10 - r.log10, 4)})
        return out

    def _regime_items(self) -> list[tuple[bool, str]]:
        if self.result.regime is None:
            return []
        values = {**{k: v for k, v in self.params.items()},
                  **{name: self[name] for name in self.quantities}}
        for k, v in self.result.defaults.items():
            values.setdefault(k, v)
        return [(bool(outside), text) for outside, text in self.result.regime(values)]

    @property
    def regime(self) -> list[str]:
        """Where the parameters leave the regime the result's theorem covers (its ``regime``): the
        values are still computed, but the theorem does not vouch for them there."""
        return [text for outside, text in self._regime_items() if outside]

    @property
    def regime_notes(self) -> list[str]:
        """Regime switches inside the theorem (e.g. NB20 Theorem 11 with m <= m_o runs one phase)."""
        return [text for outside, text in self._regime_items() if not outside]

    @property
    def caveats(self) -> list[str]:
        out = list(self.regime)
        for q in self.quantities.values():
            if not q.explicit:
                consts = self.result.quantity(q.name).constants
                cs = ", ".join(f"{c} = {self.constants.get(c, 1.0):g}" for c in consts)
                out.append(f"{q.name} is the {q.order} form with {cs or 'its hidden constants'}: "
                           "it holds up to that constant")
        return out

    def to_dict(self) -> dict:
        return {
            "result": self.result.id,
            "label": f"{self.result.paper} {self.result.label}",
            "kind": self.result.kind,
            "parameters": {k: _jsonable(v) for k, v in self.params.items()},
            "constants": self.constants,
            "quantities": {k: q.to_dict() for k, q in self.quantities.items()},
            "printed_vs_corrected": self.departures,
            "inside_regime": not self.regime,
            "regime": [{"outside": o, "text": t} for o, t in self._regime_items()],
            "notes": list(self.result.notes),
            "caveats": self.caveats,
            "source": self.result.source,
            "errata": self.errata,
            "sources": self.sources,
        }

    @property
    def errata(self) -> list[str]:
        """Ids of the errata records (bounds.errata) of this result: those it names, then those naming it."""
        from .errata import for_result

        r = self.result
        return list(dict.fromkeys(r.errata + tuple(e.id for e in for_result(r.short_id))))

    @property
    def sources(self) -> dict[str, dict]:
        """Where each value comes from: the paper and result, the step (the quantity's derivation, or the
        statement for a value the paper states), and for a corrected value (one compared with a printed
        or other reference, ``departures``) the errata ids the result relies on."""
        corrected = {d.quantity for d in self.result.departures}
        r = self.result
        return {name: {"paper": r.paper, "result": r.label, "step": q.derivation or "as stated",
                       "errata": self.errata if name in corrected else []}
                for name, q in self.quantities.items()}


class BigNumber:
    """A value beyond floating point, known by its log10; :func:`dumps` writes it as a JSON string
    (``"1.2345e+603"``): as a number literal it would read back as infinity."""

    def __init__(self, log10: float, digits: int = 5):
        self.log10 = float(log10)
        self.digits = max(1, int(digits))

    def literal(self) -> str:
        e = math.floor(self.log10)
        mant = 10 ** (self.log10 - e)
        places = self.digits - 1
        if round(mant, places) >= 10:  # rounding would print 10.000
            mant, e = mant / 10, e + 1
        return f"{mant:.{places}f}e+{e}"

    def __repr__(self) -> str:
        return f"BigNumber(10^{self.log10:.4f})"




def dumps(obj, **kw) -> str:
    """json.dumps that writes :class:`BigNumber` values (beyond float64) as strings ("1.2800e+610"): a JSON reader
would turn such a number literal into infinity. The quantity's ``log10`` beside it is a number."""
    import json

    def default(o):
        if isinstance(o, BigNumber):  # a string: as a JSON number it would read back as infinity
            return o.literal()
        raise TypeError(f"{type(o).__name__} is not JSON serializable")

    return json.dumps(obj, default=default, **kw)


def _jsonable(v):
    """Parameters as JSON: integers beyond 64 bits as a string (2^k, or mantissa and exponent)."""
    if isinstance(v, int) and abs(v) >= 2**63:
        if v > 0 and v & (v - 1) == 0:
            return f"2^{v.bit_length() - 1}"
        s = str(abs(v))
        return f"{'-' if v < 0 else ''}{s[0]}.{s[1:7]}e+{len(s) - 1}"
    return v


def compute(result_id: str, *, form: str = "explicit", constants: Mapping[str, float] | None = None,
            **params) -> Computation:
    """Concrete values of every quantity of a result at one parameter point.

    >>> compute("thm10", alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, vc=1, dual_vc=2)["public_samples"]
    3888
    """
    result = get(result_id)
    for k, v in params.items():
        if isinstance(v, (list, tuple, np.ndarray)):
            raise DomainError(f"{PARAMS[k].flag if k in PARAMS else k}: compute takes one value; "
                              "use sweep for ranges")
    evs = evaluate(result, params, form=form, constants=constants)
    qs = {}
    for name, ev in evs.items():
        value, log10 = float(ev.value), float(ev.log10)
        q = ev.quantity
        exact = None
        if q.integer:
            exact = int(value) if math.isfinite(value) else (
                int(_mp_big(log10)) if log10 < 4000 else None)
        qs[name] = QuantityValue(q.name, q.symbol, value, log10, ev.explicit, ev.form, q.order,
                                 q.integer, q.derivation, q.description, q.intermediate, exact)
    return Computation(result, dict(params), dict(constants or {}), qs)


def _mp_big(log10: float):
    import mpmath

    mpmath.mp.dps = max(40, int(log10) + 10)
    return mpmath.ceil(mpmath.power(10, mpmath.mpf(log10)))


def sweep_arrays(result_id: str, *, form: str = "explicit", constants=None,
                 **params) -> tuple[Result, dict[str, np.ndarray], dict[str, Evaluated]]:
    """Evaluate over the Cartesian grid of every list-valued parameter (vectorised)."""
    result, grid_keys, grids, n_points = _grid(result_id, params)
    cols = dict(zip(grid_keys, _mesh(grids))) if grid_keys else {}
    return _evaluate_at(result, cols, params, n_points, form, constants)


def sweep_chunks(result_id: str, *, chunk: int = 65_536, form: str = "explicit", constants=None,
                 levels: bool = False, **params):
    """``sweep_arrays`` in blocks of at most ``chunk`` grid points, in the same order: yields
    (result, columns, evaluated) per block, so that a writer streaming them holds one block at a time.

    With ``levels=True`` each parameter's column comes dictionary-encoded, as (its distinct values, the
    position of each point's value among them): a swept parameter's list and the grid index along its axis,
    a fixed one as one value at position 0. A writer then formats each distinct value once."""
    result, grid_keys, grids, n_points = _grid(result_id, params)
    axes = [np.asarray(g, dtype=object) if _has_big(g) else np.asarray(g) for g in grids]
    shape = tuple(len(g) for g in grids)
    for start in range(0, n_points, chunk):
        stop = min(n_points, start + chunk)
        idx = np.unravel_index(np.arange(start, stop), shape) if grid_keys else ()
        cols = {k: ax[i] for k, ax, i in zip(grid_keys, axes, idx)}
        result, values, evs = _evaluate_at(result, cols, params, stop - start, form, constants)
        if levels:
            codes = dict(zip(grid_keys, idx))
            values = {k: (axes[grid_keys.index(k)], codes[k]) if k in codes else
                      (np.asarray([params[k]], dtype=object if _has_big(params[k]) else None),
                       np.zeros(stop - start, dtype=np.intp)) for k in values}
        yield result, values, evs


def _grid(result_id: str, params: Mapping[str, Any]) -> tuple[Result, list[str], list[list], int]:
    result = get(result_id)
    grid_keys = [k for k, v in params.items() if isinstance(v, (list, tuple, np.ndarray))]
    grids = [list(params[k]) for k in grid_keys]
    if any(len(g) == 0 for g in grids):
        raise DomainError("a swept parameter has no values")
    n_points = math.prod(len(g) for g in grids) if grids else 1
    if n_points > 20_000_000:
        raise DomainError(f"sweep of {n_points} points: at most 20,000,000")
    return result, grid_keys, grids, n_points


def _evaluate_at(result: Result, cols: dict, params: Mapping[str, Any], n_points: int, form: str, constants):
    values = {k: (cols[k] if k in cols else v) for k, v in params.items()}
    evs = evaluate(result, values, form=form, constants=constants)
    return result, {k: np.broadcast_to(np.asarray(cols.get(k, params[k]), dtype=object if
                                                  _has_big(params[k]) else None), (n_points,))
                    for k in params}, evs


def _has_big(v) -> bool:
    vals = v if isinstance(v, (list, tuple)) else [v]
    return any(isinstance(x, int) and abs(x) > 2**62 for x in vals)


def _mesh(grids: Sequence[list]) -> list[np.ndarray]:
    if all(not _has_big(g) for g in grids):
        arrs = np.meshgrid(*[np.asarray(g) for g in grids], indexing="ij")
        return [a.ravel() for a in arrs]
    rows = list(itertools.product(*grids))
    return [np.array([r[i] for r in rows], dtype=object) for i in range(len(grids))]


def sweep(result_id: str, *, form: str = "explicit", constants=None, **params):
    """A pandas DataFrame: one row per grid point, the parameters then each quantity and its log10."""
    import pandas as pd

    result, cols, evs = sweep_arrays(result_id, form=form, constants=constants, **params)
    data = {k: np.asarray(v) for k, v in cols.items()}
    for name, ev in evs.items():
        data[name] = ev.value.ravel()
        data[f"{name}_log10"] = ev.log10.ravel()
    df = pd.DataFrame(data)
    df.attrs["result"] = result.id
    df.attrs["explicit"] = {name: ev.explicit for name, ev in evs.items()}
    return df


def compare(result_ids: Sequence[str], *, form: str = "explicit", constants=None, **params):
    """Several results at the same parameters: each takes the parameters it needs."""
    out = []
    for rid in result_ids:
        r = get(rid)
        mine = {k: v for k, v in params.items() if k in r.params}
        out.append(compute(rid, form=form, constants=_consts_for(r, constants), **mine))
    return out


def _consts_for(result: Result, constants) -> dict:
    if not constants:
        return {}
    known = {c for q in result.quantities for c in q.constants}
    return {c: v for c, v in constants.items() if c in known}


def crossover(first: str, second: str, *, vary: str, quantity: str | None = None,
              quantity2: str | None = None, low=None, high=None, form: str = "explicit",
              constants=None, points: int = 2000, **params) -> dict:
    """Where ``first``'s quantity overtakes ``second``'s as ``vary`` runs over [low, high].

    Scans a geometric grid of ``points`` values, then bisects each sign change of
    log(first) - log(second). Returns the grid and the crossing points.
    """
    r1, r2 = get(first), get(second)
    q1 = quantity or _common_quantity(r1, r2)
    q2 = quantity2 or q1
    r1.quantity(q1), r2.quantity(q2)
    if vary not in PARAMS:
        raise DomainError(f"--vary {vary}: unknown parameter")
    if vary not in r1.params and vary not in r2.params:
        raise DomainError(f"--vary {vary}: neither {r1.short_id} nor {r2.short_id} takes it")
    p = PARAMS[vary]
    lo = low if low is not None else (1e-6 if not p.domain.integer else 1)
    hi = high if high is not None else (1 - 1e-6 if p.domain.high == 1 else 1e12)
    if not (0 < lo < hi):
        raise DomainError(f"--vary {vary} over [{lo}, {hi}]: need 0 < low < high")
    grid = np.geomspace(lo, hi, points)
    if p.domain.integer:
        grid = np.unique(np.round(grid))

    def diff(xs):
        a = _values_at(r1, q1, vary, xs, params, form, constants)
        b = _values_at(r2, q2, vary, xs, params, form, constants)
        return a - b, a, b

    d, a, b = diff(grid)
    crossings = []
    for i in np.nonzero(np.sign(d[:-1]) * np.sign(d[1:]) < 0)[0]:
        x0, x1 = grid[i], grid[i + 1]
        s0 = np.sign(d[i])
        for _ in range(100):
            if p.domain.integer and x1 - x0 <= 1:
                break
            xm = math.sqrt(x0 * x1) if not p.domain.integer else math.floor((x0 + x1) / 2)
            dm = diff(np.array([xm]))[0][0]
            if np.sign(dm) == s0:
                x0 = xm
            else:
                x1 = xm
        _, at_a, at_b = diff(np.array([x1]))
        crossings.append({"at": float(x1), "before": "first" if s0 > 0 else "second",
                          "first_log10": float(at_a[0]), "second_log10": float(at_b[0])})
    return {"first": r1.id, "second": r2.id, "quantity": q1, "quantity2": q2, "vary": vary,
            "grid": grid, "first_log10": a, "second_log10": b, "crossings": crossings}


def _common_quantity(r1: Result, r2: Result) -> str:
    names2 = {q.name for q in r2.quantities}
    for q in r1.quantities:
        if q.name in names2 and not q.intermediate:
            return q.name
    raise DomainError(f"{r1.short_id} and {r2.short_id} bound no common quantity; "
                      "name them with --quantity and --quantity2")


def _values_at(r: Result, qname: str, vary: str, xs, params, form, constants) -> np.ndarray:
    mine = {k: v for k, v in params.items() if k in r.params}
    if vary in r.params:
        mine[vary] = np.asarray(xs, dtype=float)
    evs = evaluate(r, mine, form=form, constants=_consts_for(r, constants))
    return np.broadcast_to(evs[qname].log10, np.shape(xs)).astype(float)
