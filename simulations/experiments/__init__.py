"""One module per validated result, and the registry that finds them. This docstring is the reference for
writing one; ``lemma4_2`` is a short example, ``thm10`` a full one, tests/examples/worked_example/laplace_release.py
the complete worked example of docs/DESIGN.md (docs/ADDING_A_RESULT.md lists every file a new result touches).

An experiment is a module ``simulations/experiments/<name>.py`` (found by listing the package: no
registration; a module elsewhere runs by its dotted path, ``python -m simulations run mypkg.mod``). It declares
itself once, at its end, validated when it is imported (a mistake is one ValueError naming the module and the
field)::

    EXPERIMENT = contract.Experiment(
        name="thm9", results=("<paper>:thm9",),              # literals: read without importing (bounds show)
        description="Algorithm 9: error <= alpha w.p. >= 1 - beta at Theorem 9's n",
        params=Params, trial=trial, summarise=summarise, outcome=Outcome,
        ci=contract.CiRun(20, {"alpha": 0.3}),               # the contract test's small run
        opponents=("public_only",),                          # or NoOpponents(why) / LowerBoundRegime(tested_by)
        section="nb20-thm7",                                 # the report section that answers for its runs
        controls={"half_noise": "the noise at half its declared scale"},
    )

``name``, ``results``, ``description``
    The module's name, the ``paper:kind+number`` ids it validates (``()`` for a floor check of no paper result)
    and one sentence for ``python -m simulations list``; written as literals.
``params``
    A frozen dataclass deriving from :class:`Declared` (or a shared group: :class:`Confidence` adds
    ``confidence``, :class:`Controlled` adds ``variant``). Every field is declared once with :func:`param`, which
    gives its default, its help in words and what it allows; validation, ``--help`` and ``make_params``'
    coercion all read it::

        alpha: float = param(0.1, "accuracy alpha", within="(0, 1)")
        cases: tuple = param(("thresholds:uniform",), "class:distribution pairs", distinct=True, each=check_case)

    Rules between fields go in ``check(self)`` (raise ValueError naming the fields). Values are JSON values.
``outcome`` and ``trial(params, rng)``
    ``outcome`` is a frozen dataclass: one trial's record, its fields the record's keys with their JSON types
    (bool, int, float, str, ``tuple[T, ...]``, ``dict[str, T]`` for keys chosen by the parameters, a nested
    outcome dataclass, ``T | None`` for a field that may be null or absent). The fields holding an opponent's
    outcome are ``contract.opponent_field(name, "success" | "error" | "outcome")``. ``trial`` runs one
    independent trial, all randomness from ``rng`` (trial i gets ``default_rng(SeedSequence(root_seed,
    spawn_key=(i,)))``), and returns an ``outcome`` instance or its JSON dict; the contract test checks every
    record against the type (``contract.record_errors``; ``contract.record_fields`` gives key -> type).
``summarise(records, params) -> contract.Judgement``
    The judgement only: ``claims`` (the :func:`contract.claim` records or statuses that decide the verdict),
    ``text`` (what the verdict says, in words, without its status), ``opponents`` (the declared opponents'
    :func:`contract.baseline` records, ``{name: record}`` or ``{group: {name: record}}``), ``regime`` (a lower
    bound's flag), ``measurements`` (everything else shown), ``floor_check``. ``contract.summarise_run`` builds
    the summary from it: ``verdict`` (the claims combined), ``verdict_text``, ``informative``, ``variant``,
    ``negative_control``, ``result_ids`` and the ``params`` echo. Every consumer calls ``summarise_run``.
``ci``, ``controls``
    ``contract.CiRun(trials, {param: value})``: the small run the contract test (tests/simulations/test_contract.py)
    makes of the paper's algorithm and of each control. ``controls = {variant: what is broken}`` (with
    ``Params(Controlled, ...)``; ``variant="none"`` is the paper's algorithm): each must come out ``violated`` at
    the result's own sizes. A control that cannot be violated at a CI size is listed in that test's
    ``KNOWN_FAILURES`` with the reason, never dropped. Optional: ``probes`` (broken variants the bound's slack
    absorbs: measurements), ``aliases`` (old variant spellings), ``renamed_params``, ``control_decided_by(summary)``
    (what carries a control's violation when no claim does: thm13's attack).
``opponents``
    The trivial releases run in the same trials on the same draws whose outcomes decide ``informative`` (names, or
    ``{name: what}``); ``contract.NoOpponents(why)`` when none is judged; ``contract.LowerBoundRegime(tested_by)``
    for a lower bound's regime flag (``Judgement.regime``) and the test that checks it against the records.
``section``
    The key of the report section that answers for the runs (``"thm10"``, ``"abm19-thm3-1"``, ``"lvsuw21"``, ...:
    the section leads with their one-line answers), or ``contract.Unsectioned(why)``. Written into
    bounds/where.json (``sections``) by ``python -m workbench.where --write``; the report reads it from there.

The validation contract (``simulations.contract``; docs/DESIGN.md):

* Sizes come from ``bounds`` through ``contract.required_sizes(result_id, {key: quantity}, **params)``, never
  retyped; ``contract.at_bound(used, required)`` decides whether a run may give a verdict; below any size the
  status is ``below-bound``.
* Claims are ``contract.claim(successes, trials, target, confidence, per_claim_confidence=..., at_bound=...,
  kind=..., label=...)``: ``kind`` is ``verdict`` (the default; the only kind in the report's Holm family),
  ``premise``, ``floor check`` or ``algorithm-free``; ``label`` the claim in words, unique in the summary.

Optionally ``next_stage(params, summary) -> Params | None`` (with ``max_stage(params)``) in the declaration makes
the experiment an adaptive search run as stages of fixed-grid runs (``simulations.stages``; ``thm10_looseness``).

Registry API: :func:`names`, :func:`get` (the :class:`Experiment` of a name, a short/full result id if unique, or
a dotted module path), :func:`catalogue`, :func:`controls`, :func:`make_params` (defaults + overrides, coerced),
:func:`params_to_dict` / :func:`params_from_dict`, :func:`param_help`.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path
from types import ModuleType
from typing import Any, Mapping

from simulations._experiment import Experiment
from simulations.experiments._params import (Confidence, Controlled, Declared, field_spec, param, param_help,
                                             variant_param)

__all__ = ["names", "get", "catalogue", "check_experiment", "make_params", "params_to_dict", "params_from_dict",
           "parse_overrides", "module_path", "param", "variant_param", "param_help", "Declared", "Confidence",
           "Controlled", "controls", "Experiment", "default_params"]


def names() -> list[str]:
    """Names of the experiment modules of this package (found by listing it, not by importing)."""
    return sorted(m.name for m in pkgutil.iter_modules(__path__) if not m.name.startswith("_"))


def check_experiment(module: ModuleType) -> Experiment:
    """The module's ``EXPERIMENT`` (validated when it was built); ValueError naming the module if it has none."""
    exp = getattr(module, "EXPERIMENT", None)
    if not isinstance(exp, Experiment):
        raise ValueError(f"experiment module {module.__name__!r} declares no EXPERIMENT = Experiment(...) (see "
                         f"simulations.experiments)")
    if exp.module != module.__name__:
        raise ValueError(f"experiment module {module.__name__!r}: EXPERIMENT's trial is defined in {exp.module}")
    return exp


def controls(experiment: Experiment) -> dict[str, str]:
    """The experiment's negative controls ``{variant: what is broken}`` (empty if it declares none)."""
    return dict(experiment.controls)


def _import(path: str) -> Experiment:
    try:
        module = importlib.import_module(path)
    except ImportError as exc:
        raise ValueError(f"experiment {path!r} cannot be imported: {type(exc).__name__}: {exc}") from exc
    return check_experiment(module)


def _is_module_path(name: str) -> bool:
    return "." in name and all(part.isidentifier() for part in name.split("."))


def _importable(path: str) -> bool:
    try:
        return importlib.util.find_spec(path) is not None
    except (ImportError, ValueError):
        return False


def declaration_keywords(path: Path, name: str, *keywords: str) -> dict:
    """``{keyword: value}`` for each of ``keywords`` passed as a literal in the top-level declaration ``name =
    Call(...)`` of the source ``path`` (``EXPERIMENT = Experiment(name="thm10", results=(...), ...)``); only that
    statement is parsed, from its first line to the first line after which it parses (what listing reads without
    importing the modules)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return {}
    m = re.search(rf"^{re.escape(name)}\s*(?::[^=\n]*)?=", text, re.M)
    if not m:
        return {}
    lines = text[m.start():].splitlines()
    for end in range(1, min(len(lines), 400) + 1):
        try:
            node = ast.parse("\n".join(lines[:end])).body[0]
        except SyntaxError:
            continue
        call = getattr(node, "value", None)
        if not isinstance(call, ast.Call):
            return {}
        out = {}
        for k in call.keywords:
            if k.arg in keywords:
                try:
                    out[k.arg] = ast.literal_eval(k.value)
                except (ValueError, TypeError, SyntaxError):
                    pass
        return out
    return {}


def _literal_metadata(name: str) -> dict | None:
    """name, results and description of an experiment read from its ``EXPERIMENT = Experiment(...)`` statement
    (only that statement is parsed; no import), or None if one of them is not a literal there."""
    found = declaration_keywords(Path(__file__).resolve().parent / f"{name}.py", "EXPERIMENT",
                                 "name", "results", "description")
    return found if len(found) == 3 else None


def catalogue(lazy: bool = False) -> list[dict]:
    """Every experiment of this package: name, result ids, description, or the error that stops it
    importing. ``lazy=True`` reads literal metadata from the sources without importing the modules
    (fast: for listing names); an experiment that declares them otherwise is imported."""
    rows = []
    for name in names():
        meta = _literal_metadata(name) if lazy else None
        if meta is not None:
            rows.append({"name": meta["name"], "module": f"{__name__}.{name}",
                         "result_ids": list(meta["results"]), "description": meta["description"],
                         "error": None})
            continue
        try:
            e = _import(f"{__name__}.{name}")
            rows.append({"name": e.name, "module": e.module, "result_ids": list(e.results),
                         "description": e.description, "error": None})
        except ValueError as exc:  # cannot be imported (a missing dependency) or not an experiment: shown as its row
            rows.append({"name": name, "module": f"{__name__}.{name}", "result_ids": [],
                         "description": "", "error": f"{type(exc).__name__}: {exc}"})
    return rows


def _matches(result_id: str, query: str) -> bool:
    q = query.lower()
    return result_id.lower() == q or result_id.lower().split(":", 1)[-1] == q


def get(name: str) -> Experiment:
    """The experiment declared for ``name``: a module name of this package, a result id it validates
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


def module_path(experiment: Experiment) -> str:
    """The import path recorded in a run's manifest (workers import the experiment by it)."""
    return experiment.module


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


def make_params(experiment: Experiment, overrides: Mapping[str, Any] | None = None):
    """``experiment.params`` with its defaults replaced by ``overrides`` (coerced to the field types; validated by
    Params)."""
    overrides = dict(overrides or {})
    for old, (new, values) in experiment.renamed_params.items():  # earlier spellings still read
        if old in overrides and new not in overrides:
            overrides[new] = values[_coerce(overrides.pop(old), next(iter(values)), old)]
        overrides.pop(old, None)
    fields = {f.name: f for f in dataclasses.fields(experiment.params)}
    unknown = sorted(set(overrides) - set(fields))
    if unknown:
        raise ValueError(f"parameter {unknown[0]!r} is unknown for experiment {experiment.name!r}; "
                         f"allowed: {', '.join(fields)}")
    defaults = experiment.params()
    values = {k: _coerce(v, getattr(defaults, k), k, getattr(field_spec(fields[k]), "item", None))
              for k, v in overrides.items()}
    return dataclasses.replace(defaults, **values)


def params_to_dict(params) -> dict:
    """The parameters as a JSON dict (tuples become lists)."""
    return {f.name: (list(v) if isinstance(v := getattr(params, f.name), tuple) else v)
            for f in dataclasses.fields(params)}


def default_params(experiment: Experiment) -> dict:
    """``params_to_dict(experiment.params())`` read from the field declarations, without constructing ``Params``:
    construction runs the experiment's checks, which for some compute the bounds' sample sizes (importing
    ``bounds`` and the algorithms), more than listing the defaults needs. A test holds the two equal for every
    experiment."""
    out = {}
    for f in dataclasses.fields(experiment.params):
        v = f.default if f.default is not dataclasses.MISSING else f.default_factory()
        out[f.name] = list(v) if isinstance(v, tuple) else v
    return out


def params_from_dict(experiment: Experiment, values: Mapping[str, Any]):
    """Inverse of :func:`params_to_dict` (used by ``resume`` and by the workers)."""
    return make_params(experiment, values)


def parse_overrides(pairs) -> dict[str, str]:
    """``["k=v", ...]`` from the command line into a dict; ValueError on a pair without '='."""
    out: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--param {pair!r} must have the form key=value")
        out[key.strip()] = value
    return out
