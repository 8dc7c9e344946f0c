"""One module per validated result, and the registry that finds them. This docstring is the reference for
writing one; ``thm4_1`` is a short example, ``thm10`` a full one.

An experiment is a module ``simulations/experiments/<name>.py`` (found by listing the package: no
registration; a module elsewhere runs by its dotted path, ``python -m simulations run mypkg.mod``). It defines:

``NAME``, ``RESULT_IDS``, ``DESCRIPTION``
    The module's name, the ``paper:kind+number`` ids it validates (``("bcmnuw20:thm10",)``; ``()`` for a floor
    check of no paper result) and one sentence for ``python -m simulations list``. Literals (read without import).
``Params``
    A frozen dataclass deriving from :class:`Declared` (or a shared group: :class:`Confidence` adds
    ``confidence``, :class:`Controlled` adds ``variant``; groups of one family, e.g. ``thm10.Setting``, derive
    from them). Every field is declared once with :func:`param`, which gives its default, its help in words and
    what it allows; validation, ``--help`` (``PARAM_HELP`` is derived) and ``make_params``' coercion all read it::

        alpha: float = param(0.1, "accuracy alpha", within="(0, 1)")
        cases: tuple = param(("thresholds:uniform",), "class:distribution pairs", distinct=True, each=check_case)

    Rules between fields go in ``check(self)`` (raise ValueError naming the fields). Values are JSON values:
    int, float, bool, str or tuples of them.
``NEGATIVE_CONTROLS = {variant: what is broken}``
    With ``Params(Controlled, ...)``: ``variant="none"`` is the paper's algorithm, each key a deliberately
    broken variant that must come out ``violated`` at the result's own sizes. Summaries carry ``variant`` and
    ``negative_control``. Old spellings: ``VARIANT_ALIASES = {old: new}``; renamed fields:
    ``RENAMED_PARAMS = {old field: (new field, {old value: new value})}``. Broken variants the bound's slack
    absorbs are ``PROBES`` (runnable measurements, not controls).
``CI_RUN = {"trials": T, "params": {...}}``
    The small run the contract test (tests/simulations/test_contract.py) makes of the paper's algorithm and of
    each control: adding a module is testing it. A control that cannot be violated at a CI size is listed in
    that test's ``KNOWN_FAILURES`` with the reason, never dropped.
``trial(params, rng) -> dict``
    One independent trial, all randomness from ``rng`` (trial i gets ``default_rng(SeedSequence(root_seed,
    spawn_key=(i,)))``): a dict of JSON values (numpy converted; NaN and inf refused).
``summarise(records, params) -> dict``
    The verdict rule, with at least ``verdict`` (``simulations.stats.STATUSES``) and ``verdict_text``.

The validation contract (``simulations.contract``; docs/DESIGN.md):

* Sizes come from ``bounds`` through ``contract.required_sizes(result_id, {key: quantity}, **params)``, never
  retyped; ``contract.at_bound(used, required)`` decides whether a run may give a verdict; below any size the
  status is ``below-bound``.
* Claims are ``contract.claim(successes, trials, target, confidence, per_claim_confidence=..., at_bound=...,
  kind=..., label=...)``: ``kind`` is ``verdict`` (the default; the only kind in the report's Holm family),
  ``premise``, ``floor check`` or ``algorithm-free``; ``label`` the claim in words, unique in the summary.
  ``contract.combine`` folds statuses into the run's.
* Baselines (public-only, private-only, non-private) run in the same trials on the same draws and are
  summarised with ``contract.baseline``; ``informative`` is computed from them (``contract.informative``). Every
  module declares ``TRIVIAL_ALGORITHMS`` (the baselines that count), ``INFORMATIVE_TESTED_BY`` (a lower bound's
  regime flag and its test) or ``NO_TRIVIAL_ALGORITHMS`` (why none; ``contract.no_trivial_algorithms`` in the
  summary), and every summary states ``informative`` (the contract test checks it against the records).

Optionally ``next_stage(params, summary) -> Params | None`` makes the experiment an adaptive search run as
stages of fixed-grid runs (``simulations.stages``; ``thm10_looseness`` is the example).

Registry API: :func:`names`, :func:`get` (name, short/full result id if unique, or dotted module path),
:func:`catalogue`, :func:`controls`, :func:`make_params` (defaults + overrides, coerced), :func:`params_to_dict` /
:func:`params_from_dict`, :func:`param_help`.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import pkgutil
from types import ModuleType
from typing import Any, Mapping

from simulations.experiments._params import (Confidence, Controlled, Declared, field_spec, param, param_help,
                                             variant_param)

__all__ = ["names", "get", "catalogue", "check_module", "make_params", "params_to_dict", "params_from_dict",
           "parse_overrides", "module_path", "param", "variant_param", "param_help", "Declared", "Confidence",
           "Controlled", "controls", "REQUIRED"]

REQUIRED = ("NAME", "RESULT_IDS", "DESCRIPTION", "Params", "trial", "summarise")


def names() -> list[str]:
    """Names of the experiment modules of this package (found by listing it, not by importing)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def check_module(module: ModuleType) -> ModuleType:
    """Raise ValueError unless ``module`` has the experiment shape described in this package's docstring."""
    missing = [a for a in REQUIRED if not hasattr(module, a)]
    if missing:
        raise ValueError(f"experiment module {module.__name__!r} lacks {', '.join(missing)} (see "
                         f"simulations.experiments)")
    if not (dataclasses.is_dataclass(module.Params) and isinstance(module.Params, type)):
        raise ValueError(f"experiment module {module.__name__!r}: Params must be a dataclass")
    if not isinstance(module.RESULT_IDS, tuple) or not all(isinstance(r, str) for r in module.RESULT_IDS):
        raise ValueError(f"experiment module {module.__name__!r}: RESULT_IDS must be a tuple of str")
    for f in dataclasses.fields(module.Params):
        if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise ValueError(f"experiment module {module.__name__!r}: Params.{f.name} needs a default")
    negative = getattr(module, "NEGATIVE_CONTROLS", {})
    if negative and "variant" not in {f.name for f in dataclasses.fields(module.Params)}:
        raise ValueError(f"experiment module {module.__name__!r}: NEGATIVE_CONTROLS needs a Params.variant field")
    if not hasattr(module, "PARAM_HELP"):  # the command line's help, read from the declarations
        module.PARAM_HELP = param_help(module.Params)
    return module


def controls(module: ModuleType) -> dict[str, str]:
    """The module's negative controls ``{variant: what is broken}`` (empty if it declares none)."""
    return dict(getattr(module, "NEGATIVE_CONTROLS", {}) or {})


def _import(path: str) -> ModuleType:
    try:
        module = importlib.import_module(path)
    except ImportError as exc:
        raise ValueError(f"experiment {path!r} cannot be imported: {type(exc).__name__}: {exc}") from exc
    return check_module(module)


def _is_module_path(name: str) -> bool:
    return "." in name and all(part.isidentifier() for part in name.split("."))


def _importable(path: str) -> bool:
    try:
        return importlib.util.find_spec(path) is not None
    except (ImportError, ValueError):
        return False


def _literal_metadata(name: str) -> dict | None:
    """NAME, RESULT_IDS and DESCRIPTION of an experiment read from its source (only those statements are parsed;
    no import), or None if one of them is not a literal there."""
    from pathlib import Path

    from bounds.where import literal_assignments

    found = literal_assignments(Path(__file__).resolve().parent / f"{name}.py", "NAME", "RESULT_IDS", "DESCRIPTION")
    return found if len(found) == 3 else None


def catalogue(lazy: bool = False) -> list[dict]:
    """Every experiment of this package: name, result ids, description, or the error that stops it
    importing. ``lazy=True`` reads literal metadata from the sources without importing the modules
    (fast: for listing names); an experiment that declares them otherwise is imported."""
    rows = []
    for name in names():
        meta = _literal_metadata(name) if lazy else None
        if meta is not None:
            rows.append({"name": meta["NAME"], "module": f"{__name__}.{name}",
                         "result_ids": list(meta["RESULT_IDS"]), "description": meta["DESCRIPTION"],
                         "error": None})
            continue
        try:
            m = _import(f"{__name__}.{name}")
            rows.append({"name": m.NAME, "module": m.__name__, "result_ids": list(m.RESULT_IDS),
                         "description": m.DESCRIPTION, "error": None})
        except ValueError as exc:  # cannot be imported (a missing dependency) or not an experiment: shown as its row
            rows.append({"name": name, "module": f"{__name__}.{name}", "result_ids": [],
                         "description": "", "error": f"{type(exc).__name__}: {exc}"})
    return rows


def _matches(result_id: str, query: str) -> bool:
    q = query.lower()
    return result_id.lower() == q or result_id.lower().split(":", 1)[-1] == q


def get(name: str) -> ModuleType:
    """The experiment module for ``name``: a module name of this package, a result id it validates
    (``thm10`` or ``bcmnuw20:thm10``, if exactly one module validates it), or a dotted import path."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"experiment={name!r} must be a non-empty string")
    if name in names():
        return _import(f"{__name__}.{name}")
    if _is_module_path(name) and _importable(name):
        return _import(name)
    hits = [row for row in catalogue() if row["error"] is None and any(_matches(r, name) for r in row["result_ids"])]
    if len(hits) == 1:
        return _import(hits[0]["module"])
    if len(hits) > 1:
        raise ValueError(f"experiment={name!r} is validated by several experiments: "
                         f"{', '.join(h['name'] for h in hits)}")
    raise ValueError(f"experiment={name!r} is unknown; known: {', '.join(names()) or 'none'}")


def module_path(module: ModuleType) -> str:
    """The import path recorded in a run's manifest (workers import the experiment by it)."""
    return module.__name__


# ---------------------------------------------------------------- parameters


def _coerce(value: Any, default: Any, key: str, item: type | None = None) -> Any:
    """Turn ``value`` (a string from the command line, or a JSON value) into the type of ``default``
    (a tuple's entries into ``item``, else into the type of the default's first entry)."""
    try:
        if isinstance(default, bool):
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in ("1", "true", "yes", "on"):
                return True
            if text in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if isinstance(default, int):
            if isinstance(value, float) and not value.is_integer():
                raise ValueError
            return int(value) if not isinstance(value, str) else int(value.strip())
        if isinstance(default, float):
            return float(value)
        if isinstance(default, str):
            return str(value)
        if isinstance(default, tuple):
            items = [s for s in value.split(",") if s.strip()] if isinstance(value, str) else list(value)
            proto = item() if item is not None else default[0] if default else ""
            return tuple(_coerce(v, proto, key) for v in items)
    except (TypeError, ValueError):
        raise ValueError(f"parameter {key}={value!r} must be of type {type(default).__name__}") from None
    return value


def make_params(module: ModuleType, overrides: Mapping[str, Any] | None = None):
    """``module.Params`` with its defaults replaced by ``overrides`` (coerced to the field types; validated by
    Params)."""
    overrides = dict(overrides or {})
    for old, (new, values) in getattr(module, "RENAMED_PARAMS", {}).items():  # earlier spellings still read
        if old in overrides and new not in overrides:
            overrides[new] = values[_coerce(overrides.pop(old), next(iter(values)), old)]
        overrides.pop(old, None)
    fields = {f.name: f for f in dataclasses.fields(module.Params)}
    unknown = sorted(set(overrides) - set(fields))
    if unknown:
        raise ValueError(f"parameter {unknown[0]!r} is unknown for experiment {module.NAME!r}; "
                         f"allowed: {', '.join(fields)}")
    defaults = module.Params()
    values = {k: _coerce(v, getattr(defaults, k), k, getattr(field_spec(fields[k]), "item", None))
              for k, v in overrides.items()}
    return dataclasses.replace(defaults, **values)


def params_to_dict(params) -> dict:
    """The parameters as a JSON dict (tuples become lists)."""
    return {f.name: (list(v) if isinstance(v := getattr(params, f.name), tuple) else v)
            for f in dataclasses.fields(params)}


def default_params(module: ModuleType) -> dict:
    """``params_to_dict(module.Params())`` read from the field declarations, without constructing ``Params``:
    construction runs the experiment's checks, which for some compute the bounds' sample sizes (importing
    ``bounds`` and the algorithms), more than listing the defaults needs. A test holds the two equal for every
    experiment."""
    out = {}
    for f in dataclasses.fields(module.Params):
        v = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def params_from_dict(module: ModuleType, values: Mapping[str, Any]):
    """Inverse of :func:`params_to_dict` (used by ``resume`` and by the workers)."""
    return make_params(module, values)


def parse_overrides(pairs) -> dict[str, str]:
    """``["k=v", ...]`` from the command line into a dict; ValueError on a pair without '='."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--param {pair!r} must have the form key=value")
        out[key.strip()] = value
    return out
