"""Errata and checked claims of the four papers, as data: one :class:`Erratum` record per erratum or per statement
checked and found correct, kept once, in one TOML file per paper (``bounds/errata/<paper>.toml``).

Results in ``bounds.papers`` name the records they rely on by id (``Result.errata``), docstrings cite the id,
``python -m proofs_checks`` reads the records from here, and ``docs/ERRATA.md`` is generated from them by
:mod:`bounds.errata.page` (``python -m bounds.errata --write``; a test holds the file equal to it).

A file holds ``paper = "KEY"``, then one ``[[erratum]]`` table per record with the fields of :class:`Erratum`
(all but ``paper``, which the file gives), and any ``[facts.NAME]`` tables (``result`` and ``at``: the numbers a
field cites as ``[[fact:NAME.QUANTITY]]``, computed by ``bounds`` when the page is generated, never copied).
The files are read as untrusted input: only strings, lists of strings and numbers are taken from them, nothing in
them names code, and a malformed file is refused with one :class:`ErrataFileError` naming the file and the record.
"""
from __future__ import annotations

import functools
import re
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path

from ..references import PAPERS

#: what a record says about the paper: a false step, a statement true only on part of its domain,
#: a difference between the paper's versions, a typo without effect, a remark on an O-statement,
#: or nothing wrong (a "checked and correct" record)
SEVERITIES = ("error", "gap", "version", "typo", "remark", "none")
STATUSES = ("erratum", "checked")
DIRECTORY = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Erratum:
    """One erratum (``status="erratum"``) or one statement checked and found correct (``"checked"``)."""

    id: str                       # "<paper key>-<result>-<what>", e.g. "nb20-claim10-tail"
    paper: str                    # BCMNUW20, ABM19, LVSUW21, NB20
    title: str                    # one line: the result and what is wrong (or that it holds)
    results: tuple[str, ...]      # short ids of the bounds results it concerns ("thm13", ...)
    location: str = ""            # where in the paper (result, proof step, equation)
    printed: str = ""             # what the paper prints
    corrected: str = ""           # what is right
    encoded: str = ""             # what bounds / algorithms encode because of it
    verified: str = ""            # how it was decided: the argument, the tests, the checks' method
    checks: tuple[str, ...] = ()  # python -m proofs_checks ids that decide it
    severity: str = "none"        # see SEVERITIES
    status: str = "erratum"       # see STATUSES
    details: str = ""             # further measurements and readings (markdown)

    def __post_init__(self):
        if self.severity not in SEVERITIES:
            raise ValueError(f"erratum {self.id}: severity {self.severity!r} not in {SEVERITIES}")
        if self.status not in STATUSES:
            raise ValueError(f"erratum {self.id}: status {self.status!r} not in {STATUSES}")
        if (self.status == "checked") != (self.severity == "none"):
            raise ValueError(f"erratum {self.id}: a checked record has severity 'none', an erratum another")
        if not self.id.startswith(self.paper.lower() + "-"):
            raise ValueError(f"erratum {self.id}: the id starts with the paper key {self.paper.lower()}-")
        if not (self.verified or self.checks):
            raise ValueError(f"erratum {self.id}: say how it was decided (verified or checks)")


@dataclass(frozen=True)
class Fact:
    """A number a record cites: the quantities of ``compute(result, **at)``, asked of ``bounds`` on use."""

    name: str
    result: str                   # a bounds result id, e.g. "bcmnuw20:lemma7"
    at: tuple[tuple[str, float], ...]


class ErrataFileError(ValueError):
    """A record file that cannot be read as records: the message names the file and the record."""


_TEXT = tuple(f.name for f in fields(Erratum) if f.type == "str" and f.name != "paper")
_LISTS = ("results", "checks")
_REQUIRED = ("id", "title", "results")
#: ``[[fact:NAME.QUANTITY]]``, ``[[fact:NAME.Q1/Q2]]`` (a ratio), either with ``:SPEC`` (a format spec)
FACT_PATTERN = re.compile(r"\[\[fact:([a-z0-9_]+)\.([a-z0-9_]+)(?:/([a-z0-9_]+))?(?::([-+ #0-9,._a-zA-Z%]*))?\]\]")


def _record(where: str, paper: str, table) -> Erratum:
    if not isinstance(table, dict):
        raise ErrataFileError(f"{where}: an [[erratum]] entry is not a table")
    rid = table.get("id")
    where = f"{where}: record {rid!r}" if isinstance(rid, str) else f"{where}: a record without an id"
    unknown = set(table) - set(_TEXT) - set(_LISTS)
    if unknown:
        raise ErrataFileError(f"{where}: unknown fields {sorted(unknown)} (the fields are {_TEXT + _LISTS})")
    missing = [k for k in _REQUIRED if not table.get(k)]
    if missing:
        raise ErrataFileError(f"{where}: missing {missing}")
    for k in _TEXT:
        if not isinstance(table.get(k, ""), str):
            raise ErrataFileError(f"{where}: {k} is not a string")
    for k in _LISTS:
        v = table.get(k, [])
        if not (isinstance(v, list) and all(isinstance(x, str) and x for x in v)):
            raise ErrataFileError(f"{where}: {k} is not a list of strings")
    try:
        return Erratum(paper=paper, **{k: tuple(v) if k in _LISTS else v for k, v in table.items()})
    except ValueError as exc:
        raise ErrataFileError(f"{where}: {exc}") from None


def _fact(where: str, name: str, table) -> Fact:
    where = f"{where}: fact {name!r}"
    if not re.fullmatch(r"[a-z0-9_]+", name) or not isinstance(table, dict) or set(table) != {"result", "at"}:
        raise ErrataFileError(f"{where}: a fact is a table [facts.NAME] (lower-case NAME) of `result` and `at`")
    at = table["at"]
    if not (isinstance(table["result"], str) and isinstance(at, dict) and all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in at.values())):
        raise ErrataFileError(f"{where}: `result` is a result id and `at` a table of numbers")
    return Fact(name, table["result"], tuple(at.items()))


def load_file(path: Path) -> tuple[tuple[Erratum, ...], tuple[Fact, ...]]:
    """The records and facts of one paper's file, validated (:class:`ErrataFileError` on the first fault)."""
    where = f"bounds/errata/{path.name}"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ErrataFileError(f"{where}: not a readable TOML file: {exc}") from None
    paper = data.get("paper")
    if paper not in PAPERS or paper.lower() != path.stem:
        raise ErrataFileError(f"{where}: `paper` must be the paper key the file is named after "
                              f"({path.stem.upper()!r}), not {paper!r}")
    unknown = set(data) - {"paper", "erratum", "facts"}
    if unknown:
        raise ErrataFileError(f"{where}: unknown top-level keys {sorted(unknown)} (paper, erratum, facts)")
    entries, facts = data.get("erratum", []), data.get("facts", {})
    if not isinstance(entries, list) or not isinstance(facts, dict):
        raise ErrataFileError(f"{where}: records are [[erratum]] tables, facts [facts.NAME] tables")
    return tuple(_record(where, paper, t) for t in entries), tuple(_fact(where, n, t) for n, t in facts.items())


@dataclass(frozen=True)
class Store:
    records: tuple[Erratum, ...]  # papers in the order ``bounds list`` shows them, each file's in its order
    facts: dict[str, Fact]
    by_id: dict[str, Erratum]


def load(directory: Path | None = None) -> Store:
    """Every paper's file in ``directory`` (default :data:`DIRECTORY`), checked together: ids unique, every cited
    fact declared."""
    directory = DIRECTORY if directory is None else directory
    names = {p.name for p in directory.glob("*.toml")}
    stray = names - {f"{k.lower()}.toml" for k in PAPERS}
    if stray:
        raise ErrataFileError(f"bounds/errata: {sorted(stray)} are not named after a paper ({list(PAPERS)})")
    records, facts = [], {}
    for key in PAPERS:
        path = directory / f"{key.lower()}.toml"
        if path.name in names:
            rs, fs = load_file(path)
            records += rs
            for f in fs:
                if f.name in facts:
                    raise ErrataFileError(f"bounds/errata/{path.name}: fact {f.name!r} is declared twice")
                facts[f.name] = f
    seen = set()
    for e in records:
        if e.id in seen:
            raise ErrataFileError(f"bounds/errata/{e.paper.lower()}.toml: record {e.id!r}: two records share the id")
        seen.add(e.id)
        for k in _TEXT:
            for m in FACT_PATTERN.finditer(getattr(e, k)):
                if m.group(1) not in facts:
                    raise ErrataFileError(f"bounds/errata/{e.paper.lower()}.toml: record {e.id!r}: {k} cites "
                                          f"the undeclared fact {m.group(1)!r}")
    return Store(tuple(records), facts, {e.id: e for e in records})


@functools.cache
def store() -> Store:
    """The records of ``bounds/errata/*.toml``, read once, on first use."""
    return load()


def __getattr__(name: str):
    """``ERRATA`` (every record) and ``FACTS``, read on first use, so that a malformed file is one error where
    the records are asked for, not at import."""
    if name == "ERRATA":
        return store().records
    if name == "FACTS":
        return store().facts
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def get(erratum_id: str) -> Erratum:
    try:
        return store().by_id[erratum_id]
    except KeyError:
        raise ValueError(f"erratum id={erratum_id!r} is unknown") from None


def for_result(short_id: str) -> list[Erratum]:
    """The records that concern one result (by its short id)."""
    return [e for e in store().records if short_id in e.results]
