"""Typed trial records (the run store's reader of untrusted record lines): strict JSON parsing and record schemas.

Source: the run-directory format of :mod:`simulations.store` ("a run is its records"). A record read back from
``records.jsonl`` is judged before any summary is computed from it:

* :func:`strict_loads` parses JSON refusing NaN / Infinity spelled out, numbers that overflow to infinity
  (``1e999``) and an object holding the same key twice (``object_pairs_hook``): the writer never writes any of them.
* A schema maps each key of a record to its JSON type (:data:`TYPES`: ``boolean``, ``integer``, ``number``,
  ``string``, ``null``, ``array``, ``object``), or to a nested schema (a dict) for an object whose keys are
  known, or to a tuple of types (any of them). ``bool`` is not ``integer``; an ``integer`` is also a
  ``number``. :func:`schema_from_dataclass` builds one from a frozen dataclass of the trial's outcome;
  :func:`check_record` lists what in one record disagrees with a schema.
* Without a declared schema, :func:`consistency_problems` judges the run's records against each other: a key
  whose JSON type differs from the type the run's other records give it (ints and floats count as one type,
  ``null`` goes with any), and a claim-success key (:func:`is_success_key`) holding anything but ``true`` or
  ``false``, are corrupt.
"""

from __future__ import annotations

import dataclasses
from collections import abc
import json
import math
import types
import typing
from collections import Counter
from typing import Any

TYPES = ("boolean", "integer", "number", "string", "null", "array", "object")


class RecordError(ValueError):
    """A record line that the writer could not have written (one line: what is wrong)."""


def _pairs(pairs):
    out = {}
    for k, v in pairs:
        if k in out:
            raise RecordError(f"key {k!r} appears twice in one object")
        out[k] = v
    return out


def _float(text: str) -> float:
    x = float(text)
    if not math.isfinite(x):
        raise RecordError(f"number {text[:40]} is not finite (the writer refuses NaN and infinity)")
    return x


def _constant(name: str):
    raise RecordError(f"{name} is not allowed (the writer refuses NaN and infinity)")


def strict_loads(raw) -> Any:
    """JSON from untrusted bytes or text: non-finite numbers and duplicate keys refused (RecordError), nesting
    too deep a RecordError."""
    try:
        return json.loads(raw, parse_constant=_constant, parse_float=_float, object_pairs_hook=_pairs)
    except RecursionError:
        raise RecordError("JSON nested too deeply") from None


_JSON_TYPES = ((type(None), "null"), (bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"),
               (list, "array"), (dict, "object"))  # bool before int: a bool is never an integer here


def json_type(value) -> str:
    """The JSON type name of a parsed value (bool is ``boolean``, never ``integer``)."""
    for py, name in _JSON_TYPES:
        if isinstance(value, py):
            return name
    raise RecordError(f"{type(value).__name__} is not a JSON value")


_PY = {bool: "boolean", int: "integer", float: "number", str: "string", type(None): "null", list: "array",
       tuple: "array", dict: "object"}


def _schema_of_type(tp):
    origin = typing.get_origin(tp)
    if dataclasses.is_dataclass(tp):
        return schema_from_dataclass(tp)
    if origin in (typing.Union, types.UnionType):
        parts = []
        for arg in typing.get_args(tp):
            s = _schema_of_type(arg)
            parts.extend(s if isinstance(s, tuple) else [s])
        return tuple(p for p in parts if isinstance(p, str)) or "object"
    if origin is typing.Literal:
        return tuple(sorted({_PY[type(a)] for a in typing.get_args(tp)}))
    base = origin or tp
    if base is typing.Any:
        return TYPES
    for py, name in _PY.items():
        if base is py:
            return name
    if isinstance(base, type) and issubclass(base, abc.Mapping):
        return "object"
    if isinstance(base, type) and issubclass(base, abc.Sequence) and not issubclass(base, str):
        return "array"
    raise TypeError(f"no JSON type for the annotation {tp!r}")


def schema_from_dataclass(cls) -> dict:
    """The record schema of a (frozen) dataclass describing a trial's outcome: each field's annotation as a JSON
    type (bool, int, float, str, list / tuple, dict, ``X | None``, a nested dataclass as a nested schema)."""
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"{cls!r} is not a dataclass")
    hints = typing.get_type_hints(cls)
    return {f.name: _schema_of_type(hints[f.name]) for f in dataclasses.fields(cls)}


def _accepts(expected, got: str) -> bool:
    allowed = expected if isinstance(expected, tuple) else (expected,)
    return got in allowed or (got == "integer" and "number" in allowed)


def check_record(record: dict, schema: dict, path: str = "") -> list[str]:
    """What in ``record`` disagrees with ``schema``: a missing key, an unknown key, a value of another type."""
    out = []
    for key, expected in schema.items():
        where = f"{path}.{key}" if path else key
        if key not in record:
            out.append(f"{where} is missing")
            continue
        value = record[key]
        if isinstance(expected, dict):
            if not isinstance(value, dict):
                out.append(f"{where} is {json_type(value)}, must be object")
            else:
                out.extend(check_record(value, expected, where))
        elif not _accepts(expected, json_type(value)):
            want = " or ".join(expected) if isinstance(expected, tuple) else expected
            out.append(f"{where} is {json_type(value)}, must be {want}")
    out.extend(f"{path + '.' if path else ''}{k} is not a field of the record" for k in record if k not in schema)
    return out


def is_success_key(key: str) -> bool:
    """Whether a record key states a claim's success (``success``, ``success_B``, ``A_success``, ``accurate``):
    such a key must hold true or false (or a list of them). Names alone decide it, so only these: ``*_ok`` keys,
    for one, hold counts in some experiments; the typed outcome, once declared, decides every key."""
    k = key.lower()
    return k in ("success", "accurate") or k.startswith("success_") or k.endswith("_success")


def _leaves(node, path: str, out: dict) -> None:
    """path -> JSON type of every value below ``node`` (list elements share the path ``name[]``)."""
    if isinstance(node, dict):
        for k, v in node.items():
            _leaves(v, f"{path}.{k}" if path else str(k), out)
    elif isinstance(node, list):
        for v in node:
            _leaves(v, path + "[]", out)
    if not isinstance(node, dict):
        t = json_type(node)
        t = "number" if t == "integer" else t
        out.setdefault(path, set()).add(t)


def consistency_problems(records: dict[int, dict]) -> list[str]:
    """Records of one run judged against each other (module docstring): lines naming the trial and the key. Two
    passes (the second only when some key has two types), holding one record's leaves at a time."""
    kinds: dict[str, Counter] = {}
    problems = []
    for index, record in records.items():
        leaves: dict = {}
        _leaves(record, "", leaves)
        for p, ts in leaves.items():
            kinds.setdefault(p, Counter()).update(ts)
            odd = ts - {"boolean", "array"}  # a list of successes: its elements are checked as ``name[]``
            if is_success_key(p.rsplit(".", 1)[-1].removesuffix("[]")) and odd:
                problems.append(f"trial {index}: {p} holds {'/'.join(sorted(odd))}, a claim's success must be "
                                "true or false")
    usual = {}
    for p, c in kinds.items():
        typed = [(n, t) for t, n in c.items() if t != "null"]
        if len({t for _, t in typed}) > 1:
            usual[p] = max(typed)[1]  # the type most of the run's records give this key
    for index, record in records.items() if usual else ():
        leaves = {}
        _leaves(record, "", leaves)
        for p, want in usual.items():
            odd = leaves.get(p, set()) - {want, "null"}
            if odd:
                problems.append(f"trial {index}: {p} holds {'/'.join(sorted(odd))} where the run's other records "
                                f"hold {want}")
    return problems


def record_schema(experiment) -> dict | None:
    """The record schema of an experiment from its declared typed outcome (``experiment.outcome``, a frozen
    dataclass; ``module.EXPERIMENT.outcome`` for a module), else None. The run store judges records against
    the outcome with ``contract.record_errors`` (:func:`simulations.store.record_problems`); this schema is its
    JSON-type view, for readers outside the contract."""
    outcome = getattr(experiment, "outcome", None) or getattr(getattr(experiment, "EXPERIMENT", None), "outcome", None)
    return schema_from_dataclass(outcome) if outcome is not None and dataclasses.is_dataclass(outcome) else None
