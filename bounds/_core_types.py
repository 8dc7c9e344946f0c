"""The shape of a result: :class:`Result`, :class:`Quantity`, :class:`Implicit`, :class:`Infimum`, the relations
and departures between results, and :func:`call`, which calls a formula with the arguments it names.
Re-exported by :mod:`bounds.core` (the import path to use), whose engine turns them into numbers."""

from __future__ import annotations

import functools
import inspect
import math
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import numpy as np

from .errors import DomainError
from .ops import MPMATH, NUMPY
from .params import PARAMS, Interval, Param

#: values beyond this are recomputed in mpmath (log space) instead of trusted in float64
FLOAT_LIMIT = 1e300
#: orders of growth a paper may state
ORDERS = ("O", "Otilde", "Omega", "Omegatilde", "Theta", "exact")
KINDS = ("upper bound", "lower bound", "lemma", "claim", "fact", "remark", "baseline",
         "parameter setting", "proposition", "theorem")


@dataclass(frozen=True)
class Implicit:
    """The least integer ``x >= lower`` with ``g(x) <= 0``.

    ``g(o, <var>, <args>)`` must be non-increasing in the unknown from ``lower`` on (declare a
    ``lower`` past any initial rise, e.g. the point where Sauer's bound starts to apply); the
    solver brackets the root by doubling and bisects on the integers, vectorised over sweeps.
    ``text`` states the inequality as the paper writes it.
    """

    var: str
    g: Callable[..., Any]
    text: str
    lower: Callable[..., Any] | None = None


@dataclass(frozen=True)
class Infimum:
    """``inf`` of ``h(o, <var>, <args>)`` over ``<var>`` in ``[lower, upper]``, computed numerically.

    For quantities with no closed form that a paper writes as an infimum (e.g. LVSUW21 Theorem 4.5:
    the zCDP-to-DP conversion, an infimum over the Renyi order). ``h`` must be unimodal
    (quasi-convex) in the unknown on the bracket ``[lower(o, <args>), upper(o, <args>)]``
    (``0 < lower <= upper``); the minimum is found by golden-section search in ``log(<var>)``,
    vectorised over sweeps (numpy), in mpmath beyond float range, and shown by ``show`` as the
    symbolic infimum. ``text`` states the infimum as the paper writes it.
    """

    var: str
    h: Callable[..., Any]
    text: str
    lower: Callable[..., Any]
    upper: Callable[..., Any]

    def argmin_np(self, env: dict) -> np.ndarray:
        """The minimiser, vectorised: golden section on ``log(<var>)`` (one new evaluation per
        step) until the bracket is below 1e-10 in log(<var>); near a smooth minimum the value is
        then exact to rounding (its error is quadratic in the bracket width)."""
        a = np.log(np.asarray(call(self.lower, NUMPY, env), dtype=float))
        b = np.log(np.asarray(call(self.upper, NUMPY, env), dtype=float))
        a, b = (x.astype(float).copy() for x in np.broadcast_arrays(a, b))

        def f(u):
            return np.asarray(call(self.h, NUMPY, env, {self.var: np.exp(u)}), dtype=float)

        c, d = b - _INVPHI * (b - a), a + _INVPHI * (b - a)
        fc, fd = f(c), f(d)
        # every bracket shrinks by 1/phi per step: the number of steps is known in advance
        width = float(np.max(b - a, initial=0.0))
        tol = 1e-10 * max(1.0, float(np.max(np.abs(a), initial=0.0)))
        steps = 0 if not (width > tol) else min(300, math.ceil(math.log(tol / width) /
                                                               math.log(_INVPHI)))
        for _ in range(steps):
            left = fc <= fd  # unimodal: the minimum lies in [a, d], else in [c, b]
            a, b = np.where(left, a, c), np.where(left, d, b)
            c, d = b - _INVPHI * (b - a), a + _INVPHI * (b - a)  # one of them is the old d / c
            new = f(np.where(left, c, d))
            fc, fd = np.where(left, new, fd), np.where(left, fc, new)
        return np.exp((a + b) / 2)

    def argmin_mp(self, env: dict):
        """The minimiser at one point in mpmath (golden section on ``log(<var>)``)."""
        import mpmath

        a = mpmath.log(call(self.lower, MPMATH, env))
        b = mpmath.log(call(self.upper, MPMATH, env))
        invphi = (mpmath.sqrt(5) - 1) / 2
        while b - a > mpmath.mpf(10) ** -30 * max(1, abs(a)):
            c, d = b - invphi * (b - a), a + invphi * (b - a)
            if (call(self.h, MPMATH, env, {self.var: mpmath.exp(c)})
                    <= call(self.h, MPMATH, env, {self.var: mpmath.exp(d)})):
                b = d
            else:
                a = c
        return mpmath.exp((a + b) / 2)


_INVPHI = (math.sqrt(5) - 1) / 2


@dataclass(frozen=True)
class Quantity:
    name: str                      # private_samples, public_samples, error, epsilon, ...
    symbol: str                    # how later formulas of the same result refer to it (n, m, ...)
    description: str
    asymptotic: Callable[..., Any] | None = None
    order: str = "O"               # the paper's O / Omega / Theta / Otilde / Omegatilde
    constants: tuple[str, ...] = ()  # hidden constants of the asymptotic form (named symbols)
    explicit: Callable[..., Any] | Implicit | None = None
    derivation: str = ""           # which lemma and inequality gave the explicit form
    integer: bool = False          # sample sizes: the ceiling is the value
    monotone: Mapping[str, int] = field(default_factory=dict)  # arg -> +1 / -1 (tests)
    dominates_asymptotic: bool = False  # explicit >= asymptotic with constants 1 (tests)
    scaling: tuple[tuple[str, str], ...] = ()  # (arg, "0"|"inf"): explicit/asymptotic -> const
    intermediate: bool = False     # a step of the derivation, shown but not a headline number
    tiny: bool = False             # positive but may underflow float64 (a negligible probability):
    #                                where it does, the point is recomputed in mpmath (finite log10)

    def __post_init__(self):
        if self.order not in ORDERS:
            raise ValueError(f"order {self.order!r} not in {ORDERS}")
        if self.asymptotic is None and self.explicit is None:
            raise ValueError(f"quantity {self.name} has neither an asymptotic nor an explicit form")

    @property
    def has_explicit(self) -> bool:
        return self.explicit is not None


@dataclass(frozen=True)
class Departure:
    """Where a result departs from a printed constant: ``quantity`` (the value used) beside
    ``reference`` (the printed value, or another instantiation such as a fixed split), with the
    ratio quantity/reference shown by ``compute`` (text and JSON) and the report. ``label`` says what
    the ratio measures (e.g. "corrected / printed", "fixed split / optimised: slack removed")."""

    quantity: str
    reference: str
    label: str = "corrected / printed"


@dataclass(frozen=True)
class Relation:
    """A relation between parameters that a result's source states (BCMNUW20 Fact 4: p < 2^(d+1)).

    ``holds(o, <paper letters>)`` returns True (or a boolean array) where the relation holds;
    :func:`check_params` rejects points where it does not, naming the parameters and ``text``."""

    text: str
    holds: Callable[..., Any]


@dataclass(frozen=True)
class Result:
    id: str                        # paper:kind+number, e.g. "bcmnuw20:thm10"
    paper: str                     # "BCMNUW20"
    label: str                     # "Theorem 10"
    kind: str                      # see KINDS
    statement: str                 # in words
    source: str                    # seed file(s) and section
    params: tuple[str, ...]        # catalogue keys of the parameters it needs
    quantities: tuple[Quantity, ...]
    domain: Mapping[str, Interval] = field(default_factory=dict)  # narrowings of the catalogue
    constants: Mapping[str, str] = field(default_factory=dict)    # hidden constant -> meaning
    notes: tuple[str, ...] = ()    # short remarks; shown by show and compute
    errata: tuple[str, ...] = ()   # ids of the bounds.errata records it relies on (erratum or checked)
    defaults: Mapping[str, Any] = field(default_factory=dict)     # optional params' defaults
    departures: tuple[Departure, ...] = ()  # printed vs corrected values shown side by side
    # values (parameter keys and quantity names -> numbers) -> [(outside?, text)]: where the theorem
    # does not cover the point (outside) or the algorithm switches regime (informational)
    regime: Callable[..., Any] | None = None
    relations: tuple[Relation, ...] = ()  # cross-parameter conditions the source states
    # the items of bounds/papers_index.toml this result is ("B13"; two where two papers list it): the index's
    # result of an item is read from here, never kept in the index
    index_items: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"{self.id}: kind {self.kind!r} not in {KINDS}")
        if not (isinstance(self.index_items, tuple) and all(
                isinstance(i, str) and re.fullmatch(r"[BALN][1-9][0-9]*", i) for i in self.index_items)):
            raise ValueError(f"{self.id}: index_items={self.index_items!r} must be a tuple of papers_index.toml ids "
                             "such as 'B13'")
        names = [q.name for q in self.quantities]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.id}: duplicate quantity names")
        for dep in self.departures:
            for qn in (dep.quantity, dep.reference):
                if qn not in names:
                    raise ValueError(f"{self.id}: departure names unknown quantity {qn!r}")
        args = {self.param(k).arg for k in self.params}
        for q in self.quantities:
            if q.symbol in args:
                raise ValueError(f"{self.id}: quantity symbol {q.symbol!r} shadows a parameter")

    @property
    def short_id(self) -> str:
        return self.id.split(":", 1)[1]

    def param(self, key: str) -> Param:
        try:
            base = PARAMS[key]
        except KeyError:
            raise ValueError(f"{self.id}: unknown parameter {key!r}; add it to bounds.params") from None
        return base.with_domain(self.domain[key]) if key in self.domain else base

    def quantity(self, name: str) -> Quantity:
        for q in self.quantities:
            if q.name == name:
                return q
        raise DomainError(f"{self.short_id} has no quantity {name!r}; it has: "
                          + ", ".join(q.name for q in self.quantities))

    @property
    def explicit_status(self) -> str:
        heads = [q for q in self.quantities if not q.intermediate]
        n = sum(q.has_explicit for q in heads)
        return "yes" if n == len(heads) else ("no" if n == 0 else "partial")


# ---------------------------------------------------------------------------------------------
# calling formulas


@functools.lru_cache(maxsize=4096)
def _arg_names(fn: Callable) -> tuple[str, ...]:
    """The argument names of a formula after its ops namespace (cached: the engine asks once per formula call,
    and a streamed sweep calls each formula once per block)."""
    names = tuple(inspect.signature(fn).parameters)
    return names[1:]  # drop the ops namespace


def call(fn: Callable, o, env: Mapping[str, Any], extra: Mapping[str, Any] | None = None):
    """Call ``fn(o, ...)`` with the arguments its signature names, taken from ``env``."""
    kwargs = {}
    for name in _arg_names(fn):
        if extra and name in extra:
            kwargs[name] = extra[name]
        elif name in env:
            kwargs[name] = env[name]
        else:
            raise KeyError(f"formula {fn.__qualname__} needs {name!r}, which is not available")
    return fn(o, **kwargs)
