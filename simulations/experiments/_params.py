"""Experiment parameters declared once: each ``Params`` field says its default, its help text and its
allowed values in one :func:`param` call; :func:`validate` (run by :class:`Declared`'s ``__post_init__``),
:func:`param_help` (the command line's help) and ``make_params``'s coercion all read that declaration.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class P(Declared):
...     n: int = param(10, "sample size", within="[1, inf)")
...     alpha: float = param(0.1, "accuracy", within="(0, 1)")
>>> P(n=0)
Traceback (most recent call last):
ValueError: n=0 must be an integer in [1, inf)
>>> param_help(P)["alpha"]
'accuracy; a number in (0, 1)'
"""

from __future__ import annotations

import dataclasses
import math
import sys
from fractions import Fraction
from typing import Any, Callable

from simulations import contract

__all__ = ["param", "variant_param", "Declared", "Confidence", "Controlled", "validate", "param_help",
           "field_spec", "controls_of"]

_KEY = "simulations.param"


@dataclasses.dataclass(frozen=True)
class Spec:
    """What one field allows: its help, an interval (for numbers, or every entry of a tuple), choices
    (for strings, or every entry of a tuple), the entry type of a tuple, distinct entries, non-empty,
    and a per-value check (a callable raising ValueError) for what an interval cannot say."""
    help: str
    within: str | None = None
    choices: tuple | None = None
    item: type | None = None
    distinct: bool = False
    nonempty: bool = True
    each: Callable[[Any], Any] | None = None
    variant: bool = False


def _endpoint(text: str) -> float:
    text = text.strip()
    if text in ("inf", "+inf"):
        return math.inf
    if text == "-inf":
        return -math.inf
    return float(Fraction(text))


def _interval(within: str) -> tuple[float, float, bool, bool]:
    """``"(0, 1/100]"`` -> (0.0, 0.01, low open, high open)."""
    w = within.strip()
    if w[0] not in "([" or w[-1] not in ")]" or w.count(",") != 1:
        raise ValueError(f"interval {within!r} must look like (a, b], [a, inf), ...")
    lo, hi = w[1:-1].split(",")
    return _endpoint(lo), _endpoint(hi), w[0] == "(", w[-1] == ")"


def param(default: Any, help: str, *, within: str | None = None, choices=None, item: type | None = None,
          distinct: bool = False, nonempty: bool | None = None, each: Callable[[Any], Any] | None = None):
    """A ``Params`` field: ``default``, ``help`` (words, no range) and what it allows: ``within`` an
    interval in the usual notation (``"(0, 1)"``, ``"[1, inf)"``; an open ``inf`` end also means finite),
    ``choices`` (allowed strings), for tuples ``item`` (entry type, default: the default's first entry's),
    ``distinct`` and ``nonempty`` (default: whether the default is), and ``each`` a check of one value
    (one entry of a tuple) that raises ValueError. The type is the default's."""
    if within is not None:
        _interval(within)
    spec = Spec(help=help, within=within, choices=tuple(choices) if choices is not None else None, item=item,
                distinct=distinct, nonempty=bool(default) if nonempty is None else nonempty, each=each)
    return dataclasses.field(default=default, metadata={_KEY: spec})


def variant_param(help: str = "the paper's algorithm (none) or one of the declared negative controls"):
    """The ``variant`` field of the negative-control convention (``simulations.contract``): ``"none"`` or
    a key of the experiment's declared ``controls`` (or ``probes``); an old spelling listed in its ``aliases``
    is accepted and replaced by its new name."""
    return dataclasses.field(default=contract.NO_VARIANT, metadata={_KEY: Spec(help=help, variant=True)})


def field_spec(f: dataclasses.Field) -> Spec | None:
    return f.metadata.get(_KEY)


def controls_of(cls_or_module) -> tuple[dict, dict, dict]:
    """(controls, probes, aliases) of the ``EXPERIMENT`` declared in an experiment module or in the module a Params
    class is defined in (empty dicts where it declares none, or before its EXPERIMENT is built)."""
    module = cls_or_module if not isinstance(cls_or_module, type) else sys.modules.get(cls_or_module.__module__)
    exp = getattr(module, "EXPERIMENT", None)
    return tuple(dict(getattr(exp, n, {}) or {}) for n in ("controls", "probes", "aliases"))


def _kind(value_type: type) -> str:
    return {bool: "true or false", int: "an integer", float: "a number", str: "a string"}.get(value_type, "a value")


def _describe(spec: Spec, value_type: type) -> str:
    """The allowed values in words, e.g. ``a non-empty tuple of distinct integers in [4, 4096]``."""
    if value_type is tuple:
        item = spec.item or float
        one = _describe(dataclasses.replace(spec, item=None), item)
        one = one.replace("an integer", "integers").replace("a number", "numbers").replace("a string", "strings")
        one = one.replace("one of", "each one of")
        return (f"a {'non-empty ' if spec.nonempty else ''}tuple of {'distinct ' if spec.distinct else ''}"
                f"{one}")
    if spec.choices is not None:
        return "one of " + ", ".join(map(str, spec.choices))
    return _kind(value_type) + (f" in {spec.within}" if spec.within else "")


def _ok(value: Any, value_type: type, spec: Spec) -> bool:
    if value_type is bool:
        return isinstance(value, bool)
    if value_type is int and (isinstance(value, bool) or not isinstance(value, int)):
        return False
    if value_type is float and (isinstance(value, bool) or not isinstance(value, (int, float))):
        return False
    if value_type is str and not isinstance(value, str):
        return False
    if spec.choices is not None and value not in spec.choices:
        return False
    if spec.within is not None:
        lo, hi, lo_open, hi_open = _interval(spec.within)
        if isinstance(value, float) and math.isnan(value):
            return False
        if value < lo or value > hi or (lo_open and value == lo) or (hi_open and value == hi):
            return False
    return True


def _item_type(f: dataclasses.Field, spec: Spec) -> type:
    if spec.item is not None:
        return spec.item
    d = f.default
    return type(d[0]) if isinstance(d, tuple) and d else str


def validate(params) -> None:
    """ValueError naming the field, its value and what it allows, for the first declared field whose value
    its :func:`param` declaration does not allow (fields declared without :func:`param` are not checked).
    A ``variant`` given by an old spelling is replaced by its new name."""
    for f in dataclasses.fields(params):
        spec = field_spec(f)
        if spec is None:
            continue
        value = getattr(params, f.name)
        if spec.variant:
            controls, probes, aliases = controls_of(type(params))
            value = aliases.get(value, value)
            contract.check_variant(value, {**controls, **probes})
            object.__setattr__(params, f.name, value)
            continue
        value_type = type(f.default)
        if value_type is tuple:
            item = _item_type(f, spec)
            ok = isinstance(value, tuple) and (bool(value) or not spec.nonempty) and all(
                _ok(v, item, spec) for v in value) and (not spec.distinct or len(set(value)) == len(value))
            described = _describe(dataclasses.replace(spec, item=item), tuple)
        else:
            ok = _ok(value, value_type, spec)
            described = _describe(spec, value_type)
        if not ok:
            raise ValueError(f"{f.name}={value!r} must be {described}")
        if spec.each is not None:
            for v in (value if value_type is tuple else (value,)):
                spec.each(v)


def param_help(params_cls) -> dict[str, str]:
    """``{field: help; allowed values}`` for the command line, from the declarations."""
    out = {}
    for f in dataclasses.fields(params_cls):
        spec = field_spec(f)
        if spec is None:
            continue
        if spec.variant:
            controls, probes, _ = controls_of(params_cls)
            out[f.name] = f"{spec.help}; one of {', '.join((contract.NO_VARIANT, *controls, *probes))}"
            continue
        t = type(f.default)
        described = _describe(dataclasses.replace(spec, item=_item_type(f, spec)) if t is tuple else spec, t)
        out[f.name] = f"{spec.help}; {described}"
    return out


@dataclasses.dataclass(frozen=True)
class Declared:
    """Base of every experiment's ``Params``: validates the :func:`param` declarations, then the
    cross-field rules of :meth:`check` (override it; raise ValueError naming the fields)."""

    def __post_init__(self):
        validate(self)
        self.check()

    def check(self) -> None:
        """Rules between fields that no single declaration can state (e.g. ``k <= num_attributes``)."""


@dataclasses.dataclass(frozen=True)
class Confidence(Declared):
    """The shared ``confidence`` field: the level of the verdicts and of the intervals."""
    confidence: float = param(0.95, "confidence level of the verdicts and intervals", within="(0, 1)")


@dataclasses.dataclass(frozen=True)
class Controlled(Declared):
    """The shared ``variant`` field of the negative-control convention (``"none"`` = the paper's algorithm)."""
    variant: str = variant_param()
