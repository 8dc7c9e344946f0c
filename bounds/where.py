"""Where a result lives outside ``bounds`` (``python -m bounds show ID`` ends with it): the algorithms that
realise it, the experiments that validate it, the proof checks of its steps, the audit targets of its
algorithms, the report sections and the errata.

Read from ``bounds/where.json``, which ``python -m workbench.where --write`` generates by importing the registries
(a command above every layer; ``bounds`` imports no other package of the project and reads no source text), as
``bounds/forms.json`` is generated; tests/bounds/test_where.py holds the file equal to a fresh collection, so a
declaration added without regenerating it fails a test rather than going missing from ``show``.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

WHERE_JSON = Path(__file__).with_name("where.json")
KINDS = ("algorithm", "experiment", "proof checks", "audit targets", "report section")


@functools.lru_cache(maxsize=1)
def _data() -> dict:
    try:
        data = json.loads(WHERE_JSON.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {"where": {k: {} for k in KINDS}, "experiments": {}}
    return data if isinstance(data, dict) else {"where": {k: {} for k in KINDS}, "experiments": {}}


def declared(only: str | None = None) -> dict[str, dict[str, list[str]]]:
    """``{kind: {result id: [where, ...]}}`` for kind in algorithm, experiment, proof checks, audit targets,
    report section (bounds/where.json; ``only``: a result id whose entries the caller wants, kept for callers that
    name one)."""
    where = _data().get("where", {})
    return {k: {rid: list(v) for rid, v in where.get(k, {}).items()} for k in KINDS}


def experiments() -> dict[str, list[str]]:
    """``{experiment name: its results}`` (bounds/where.json)."""
    return {name: list(rids) for name, rids in _data().get("experiments", {}).items()}


def sections() -> dict[str, list[str]]:
    """``{report section key: the experiments whose runs it answers for}``, each experiment's declared
    ``section`` (bounds/where.json)."""
    return {key: list(names) for key, names in _data().get("sections", {}).items()}


def unsectioned() -> dict[str, str]:
    """``{experiment name: why no report section answers for it}`` (bounds/where.json)."""
    return dict(_data().get("unsectioned", {}))


def defaults(name: str) -> dict:
    """An experiment's default parameters as JSON values (bounds/where.json; ``{}`` for an unknown name)."""
    return dict(_data().get("defaults", {}).get(name, {}))


def experiment_result(name: str) -> tuple[str | None, list[str]]:
    """The result an experiment's name stands for, where it names one: the experiment's only result, or the one of
    its results whose short id is the name with '_' read as '.' (``thm3_1`` -> ``abm19:thm3.1``). Returns (that
    result id or None, the experiment's results)."""
    rids = experiments().get(name.strip().lower(), [])
    if len(rids) == 1:
        return rids[0], rids
    dotted = name.strip().lower().replace("_", ".")
    same = [r for r in rids if r.split(":", 1)[-1] == dotted]
    return (same[0] if len(same) == 1 else None), rids


def errata(result) -> list[str]:
    """The errata records (bounds.errata) that concern the result: those it names and those naming it."""
    from .errata import ERRATA

    return [f"{e.title} [{e.id}]" for e in ERRATA
            if e.id in result.errata or result.short_id in e.results]


def locate(result) -> list[tuple[str, list[str]]]:
    """(what, where) pairs for ``show``; an empty list where nothing is found."""
    if not WHERE_JSON.is_file():
        return [("sources", ["not in this installation (bounds/where.json is missing)"])]
    rid, paper = result.id, result.id.split(":")[0]
    found = declared(rid)
    return [
        ("algorithm", found["algorithm"].get(rid, [])),
        ("experiment", [f"simulations/experiments/{n}.py  (python -m simulations list {n}; "
                        f"python -m simulations run {n} --trials N --out DIR)"
                        for n in found["experiment"].get(rid, [])]),
        ("proof checks", [f"{c}  (python -m proofs_checks --paper {paper})"
                          for c in found["proof checks"].get(rid, [])]),
        ("audit targets", [f"{t}  (python -m simulations audit {t})" for t in found["audit targets"].get(rid, [])]),
        ("report section", found["report section"].get(rid, [])),
        ("errata", [f"docs/ERRATA.md: {h}" for h in errata(result)]),
    ]


def render(result) -> list[str]:
    """The lines ``show`` ends with."""
    lines = ["", "where it lives:"]
    for what, where in locate(result):
        if not where:
            lines.append(f"  {what + ':':<16} none yet")
        for k, w in enumerate(where):
            lines.append(f"  {(what + ':') if k == 0 else '':<16} {w}")
    return lines
