"""The typed declaration of an experiment (docs/DESIGN.md, "Adding an experiment"): one frozen
:class:`Experiment` per module, ``EXPERIMENT = Experiment(...)``, validated when the module is imported, and the
type of one trial's record (``outcome``, a frozen dataclass) that tests, the contract and the store read instead of
guessing record keys. Re-exported by :mod:`simulations.contract`, which builds the common part of every summary
from it (:func:`simulations.contract.summarise_run`).
"""
from __future__ import annotations

import dataclasses
import re
import sys
import types
import typing
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

#: a result id as bounds registers it: ``paper:kind+number`` (``bcmnuw20:thm10``, ``abm19:lemma3.3``), or a
#: baseline's ``baselines:name`` (a bound the papers cite or compare against: ``baselines:em_learner``)
RESULT_ID = re.compile(r"^([a-z]+\d+:[a-z]+\d+(\.\d+)?|baselines:[a-z][a-z0-9_]*)$")
#: the JSON types a record field may have (besides nested outcome dataclasses, tuples and ``dict[str, T]``)
SCALARS = (bool, int, float, str)
_OPPONENT = "opponent"
#: what an opponent's field holds (:func:`opponent_field`)
ROLES = ("success", "error", "outcome")


@dataclass(frozen=True)
class CiRun:
    """The small run the contract test makes of the paper's algorithm and of each negative control:
    ``trials`` trials at the parameter overrides ``params`` (field name -> value, as on the command line)."""

    trials: int
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class NoOpponents:
    """An experiment that judges no trivial algorithm, and ``why``: its summaries say ``informative: false``
    with this reason (a verdict not set beside trivial algorithms cannot be shown to discriminate)."""

    why: str


@dataclass(frozen=True)
class Unsectioned:
    """An experiment no report section answers for, and ``why`` (a floor check that validates no paper result)."""

    why: str


#: a report section's key (``thm10``, ``abm19-thm3-1``): what ``Experiment.section`` names
SECTION_KEY = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


@dataclass(frozen=True)
class LowerBoundRegime:
    """A lower bound's ``informative``: a regime flag the experiment computes from other records (where the
    theorem's class or privacy regime is shown to apply), and ``tested_by``, the test
    (``tests/...py::test_name``) that checks the flag against the records."""

    tested_by: str


@dataclass(frozen=True)
class Opponent:
    """A trivial (or opponent) release run in the same trials on the same draws, whose outcomes decide
    ``informative``: ``name`` as the summary's opponents and the outcome's fields
    (:func:`opponent_field`) name it, ``what`` it does in words."""

    name: str
    what: str = ""


def opponent_field(name: str, role: str, default: Any = dataclasses.MISSING):
    """A field of an ``outcome`` dataclass that holds the outcome of the opponent ``name``: ``role`` is
    ``"success"`` (a bool: it met the target in this trial), ``"error"`` (a float: its error, the smaller the
    better) or ``"outcome"`` (a nested outcome dataclass: its bool fields are success flags, its float fields
    errors). The contract test edits exactly these fields (every opponent made to fail, then each alone to
    succeed) and requires ``informative`` to follow."""
    if role not in ROLES:
        raise ValueError(f"role={role!r} must be one of {', '.join(ROLES)}")
    return field(default=default, metadata={_OPPONENT: (name, role)})


def opponent_of(f: dataclasses.Field) -> tuple[str, str] | None:
    """(opponent name, role) of an outcome field declared with :func:`opponent_field`, else None."""
    return f.metadata.get(_OPPONENT)


@dataclass(frozen=True)
class Experiment:
    """One experiment, declared once (module ``EXPERIMENT``); see :mod:`simulations.experiments`.

    ``name`` (the module's name), ``results`` (``paper:kind+number`` ids; ``()`` for a floor check of no paper
    result), ``description`` (one sentence), ``params`` (the frozen ``Params`` dataclass), ``trial(params, rng)``
    (returns an ``outcome`` instance or a dict of its JSON form), ``summarise(records, params)`` (the judgement:
    :class:`simulations.contract.Judgement`), ``outcome`` (the frozen dataclass of one trial's record),
    ``controls`` (negative controls: variant -> what is broken), ``ci`` (:class:`CiRun`), ``opponents`` (a tuple
    of :class:`Opponent` or names, a mapping name -> what, :class:`NoOpponents` or :class:`LowerBoundRegime`),
    ``section`` (the key of the report section that answers for its runs, e.g. ``"thm10"``, or
    :class:`Unsectioned` with why; written into bounds/where.json for the report), and optionally ``probes``
    (broken variants the bound's slack absorbs: measurements, not controls),
    ``aliases`` (old variant spellings -> new), ``renamed_params`` (old field -> (new field, {old value: new})),
    ``control_decided_by(summary) -> bool`` (what carries a control's violation when no claim does) and
    ``next_stage(params, summary) -> Params | None`` (a staged search, :mod:`simulations.stages`) with
    ``max_stage(params) -> int`` (the index of its last possible stage, for progress lines)."""

    name: str
    results: tuple
    description: str
    params: type
    trial: Callable
    summarise: Callable
    outcome: type
    ci: CiRun
    opponents: Any
    section: Any = None
    controls: Mapping[str, str] = field(default_factory=dict)
    probes: Mapping[str, str] = field(default_factory=dict)
    aliases: Mapping[str, str] = field(default_factory=dict)
    renamed_params: Mapping[str, tuple] = field(default_factory=dict)
    control_decided_by: Callable | None = None
    next_stage: Callable | None = None
    max_stage: Callable | None = None
    #: the import path of the module that declares it (where workers import it from); set by construction
    module: str = field(default="", compare=False)

    def __post_init__(self):
        if not self.module:  # the module whose top level runs ``EXPERIMENT = Experiment(...)``
            object.__setattr__(self, "module", sys._getframe(2).f_globals.get("__name__", "?"))
        module = self.module

        def bad(what: str, why: str):
            raise ValueError(f"experiment {module}: Experiment.{what} {why} (see simulations.experiments)")

        if not (isinstance(self.name, str) and self.name.isidentifier()):
            bad("name", f"={self.name!r} must be an identifier (the module's name)")
        if not (isinstance(self.results, tuple) and all(isinstance(r, str) and RESULT_ID.match(r)
                                                        for r in self.results)):
            bad("results", f"={self.results!r} must be a tuple of result ids 'paper:kind+number' "
                                 "or 'baselines:name'")
        if not (isinstance(self.description, str) and self.description.strip()):
            bad("description", "must be a non-empty sentence")
        if not (isinstance(self.params, type) and dataclasses.is_dataclass(self.params)
                and self.params.__dataclass_params__.frozen):
            bad("params", "must be a frozen dataclass")
        fields = {f.name: f for f in dataclasses.fields(self.params)}
        for f in fields.values():
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                bad("params", f"field {f.name} needs a default")
        for what in ("trial", "summarise"):
            if not callable(getattr(self, what)):
                bad(what, "must be callable")
        for what in ("control_decided_by", "next_stage", "max_stage"):
            if getattr(self, what) is not None and not callable(getattr(self, what)):
                bad(what, "must be callable or None")
        try:
            check_outcome_type(self.outcome)
        except ValueError as exc:
            bad("outcome", str(exc))
        if not (isinstance(self.ci, CiRun) and isinstance(self.ci.trials, int) and self.ci.trials >= 1):
            bad("ci", "must be CiRun(trials >= 1, params)")
        unknown = sorted(set(self.ci.params) - set(fields) - set(self.renamed_params))
        if unknown:
            bad("ci", f"overrides unknown parameters {', '.join(unknown)}")
        for what in ("controls", "probes", "aliases"):
            m = getattr(self, what)
            if not (isinstance(m, Mapping) and all(isinstance(k, str) and isinstance(v, str) for k, v in m.items())):
                bad(what, "must map str to str")
            object.__setattr__(self, what, types.MappingProxyType(dict(m)))
        if (self.controls or self.probes) and "variant" not in fields:
            bad("controls", "need a Params.variant field (Controlled)")
        object.__setattr__(self, "opponents", self._opponents(bad))
        if isinstance(self.section, Unsectioned):
            if not (isinstance(self.section.why, str) and self.section.why.strip()):
                bad("section", "Unsectioned(why) needs the reason in words")
        elif not (isinstance(self.section, str) and SECTION_KEY.fullmatch(self.section)):
            bad("section", f"={self.section!r} must be the key of the report section that answers for its runs "
                           "(e.g. 'thm10'), or Unsectioned(why)")
        if isinstance(self.opponents, tuple):
            declared = {name for name, _ in outcome_opponent_fields(self.outcome)}
            missing = sorted({o.name for o in self.opponents} - declared)
            if missing:
                bad("opponents", f"{', '.join(missing)} have no opponent_field in the outcome {self.outcome.__name__}")

    def _opponents(self, bad):
        o = self.opponents
        if isinstance(o, NoOpponents):
            if not (isinstance(o.why, str) and o.why.strip()):
                bad("opponents", "NoOpponents(why) needs the reason in words")
            return o
        if isinstance(o, LowerBoundRegime):
            path, sep, test = o.tested_by.partition("::")
            if not (sep and path.startswith("tests/") and path.endswith(".py") and test.isidentifier()):
                bad("opponents", f"LowerBoundRegime(tested_by={o.tested_by!r}) must name 'tests/...py::test_name'")
            return o
        if isinstance(o, Mapping):
            o = tuple(Opponent(k, v) for k, v in o.items())
        if isinstance(o, tuple) and o:
            out = tuple(Opponent(x) if isinstance(x, str) else x for x in o)
            if all(isinstance(x, Opponent) and x.name.isidentifier() for x in out) and \
                    len({x.name for x in out}) == len(out):
                return out
        bad("opponents", f"={self.opponents!r} must be a non-empty tuple of distinct opponent names, "
                         "NoOpponents(why) or LowerBoundRegime(tested_by)")

    @property
    def opponent_names(self) -> tuple[str, ...]:
        """The names of the declared opponents (``()`` for NoOpponents and LowerBoundRegime)."""
        return tuple(o.name for o in self.opponents) if isinstance(self.opponents, tuple) else ()


# ---------------------------------------------------------------- the record's type


def _hints(cls: type) -> dict:
    return typing.get_type_hints(cls)


def _describe_type(tp) -> str:
    return getattr(tp, "__name__", None) or str(tp).replace("typing.", "")


def _check_type(tp, where: str) -> None:
    if tp in SCALARS or tp is tuple or tp is type(None):
        return
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        check_outcome_type(tp)
        return
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is tuple:
        for a in args:
            if a is not Ellipsis:
                _check_type(a, where)
        return
    if origin is dict and len(args) == 2 and args[0] is str:
        _check_type(args[1], where)
        return
    if origin in (typing.Union, types.UnionType):
        for a in args:
            _check_type(a, where)
        return
    raise ValueError(f"{where} has type {_describe_type(tp)}: a record field is bool, int, float, str, a tuple, "
                     "dict[str, T], an outcome dataclass, or T | None")


def check_outcome_type(cls) -> None:
    """ValueError unless ``cls`` is a frozen dataclass whose fields have JSON types (see :data:`SCALARS`)."""
    if not (isinstance(cls, type) and dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen):
        raise ValueError(f"{cls!r} must be a frozen dataclass (one trial's record)")
    hints = _hints(cls)
    for name, tp in hints.items():
        _check_type(tp, f"{cls.__name__}.{name}")
    for f in dataclasses.fields(cls):
        mark = opponent_of(f)
        want = {"success": bool, "error": float}.get(mark[1]) if mark else None
        inner = [a for a in (hints[f.name], *typing.get_args(hints[f.name])) if a is not type(None)]
        if mark and (want not in inner if want else not _dataclasses_in(hints[f.name])):
            raise ValueError(f"{cls.__name__}.{f.name}: an opponent's {mark[1]} field has type "
                             f"{_describe_type(hints[f.name])}")


def record_fields(experiment_or_type) -> dict:
    """``{record key: type}`` of one trial's record (``experiment.outcome``): bool, int, float, str, tuple (or
    ``tuple[T, ...]``), ``dict[str, T]`` (keys chosen by the parameters, e.g. case names), an outcome dataclass
    (a nested record; call again on it), or ``T | None``."""
    cls = experiment_or_type.outcome if isinstance(experiment_or_type, Experiment) else experiment_or_type
    return dict(_hints(cls))


def outcome_opponent_fields(cls, path: str = "") -> list[tuple[str, str]]:
    """(opponent name, record path) of every :func:`opponent_field` in the outcome type, nested included."""
    out = []
    for f in dataclasses.fields(cls):
        tp = _hints(cls)[f.name]
        mark = opponent_of(f)
        if mark:
            out.append((mark[0], f"{path}{f.name}"))
        for inner in _dataclasses_in(tp):
            out.extend(outcome_opponent_fields(inner, f"{path}{f.name}."))
    return out


def _dataclasses_in(tp) -> list[type]:
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return [tp]
    return [x for a in typing.get_args(tp) if a is not Ellipsis for x in _dataclasses_in(a)]


def _matches(value, tp) -> str | None:
    """None if the JSON ``value`` has type ``tp``, else what is wrong."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        errors = [_matches(value, a) for a in args]
        return None if any(e is None for e in errors) else errors[0]
    if tp is type(None):
        return None if value is None else f"{value!r} is not null"
    if tp is bool:
        return None if isinstance(value, bool) else f"{value!r} is not a bool"
    if tp is int:
        return None if isinstance(value, int) and not isinstance(value, bool) else f"{value!r} is not an int"
    if tp is float:
        return None if isinstance(value, (int, float)) and not isinstance(value, bool) else f"{value!r} is not a number"
    if tp is str:
        return None if isinstance(value, str) else f"{value!r} is not a string"
    if tp is tuple or origin is tuple:
        if not isinstance(value, (list, tuple)):
            return f"{type(value).__name__} is not a list"
        if origin is tuple and args:
            items = args[:1] * len(value) if len(args) == 2 and args[1] is Ellipsis else args
            if len(items) != len(value):
                return f"a list of {len(value)} entries, not {len(items)}"
            for i, (v, t) in enumerate(zip(value, items)):
                if (e := _matches(v, t)) is not None:
                    return f"[{i}]: {e}"
        return None
    if origin is dict:
        if not isinstance(value, dict):
            return f"{type(value).__name__} is not an object"
        for k, v in value.items():
            if (e := _matches(v, args[1])) is not None:
                return f"[{k!r}]: {e}"
        return None
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return record_errors(tp, value)
    return f"unknown type {tp!r}"


def record_errors(outcome: type, record) -> str | None:
    """None if ``record`` (a JSON object read back) has exactly the keys and types of ``outcome``, else the first
    thing wrong, with its key path."""
    if not isinstance(record, dict):
        return f"{type(record).__name__} is not an object"
    hints = _hints(outcome)
    extra = sorted(set(record) - set(hints))  # a field of type T | None may be absent (not written at these params)
    missing = sorted(k for k in set(hints) - set(record) if _matches(None, hints[k]) is not None)
    if extra or missing:
        return f"{outcome.__name__}: keys {extra} not declared, {missing} missing"
    for k, tp in hints.items():
        if k in record and (e := _matches(record[k], tp)) is not None:
            return f"{k}: {e}" if not e.startswith(("[", outcome.__name__)) else f"{k}{e}" if e[0] == "[" else e
    return None


def as_record(outcome) -> dict:
    """The JSON form of a trial's outcome: a dataclass instance becomes its dict (tuples stay lists in JSON)."""
    if dataclasses.is_dataclass(outcome) and not isinstance(outcome, type):
        return dataclasses.asdict(outcome)
    return outcome
