"""The checks by declaration: ``checks.json`` beside this module lists every registered check (id, paper, result,
method, claim, source, and the module that registers it), so ``python -m proofs_checks --list`` answers without
importing a paper's module (nor numpy), and running one paper's checks imports only the modules that declare them.

Generated from the registry by :mod:`proofs_checks.declare` (``python -m proofs_checks.declare --write``); a test
holds the file equal to the
registry, so a check added without regenerating it is noticed.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

FILE = Path(__file__).with_name("checks.json")
FIELDS = ("id", "paper", "result", "method", "claim", "source", "module")


@lru_cache(maxsize=1)
def declarations() -> tuple[dict, ...]:
    """Every declared check, in paper order (the file ships with the package: not user input)."""
    rows = json.loads(FILE.read_text(encoding="utf-8"))
    return tuple({k: str(r[k]) for k in FIELDS} for r in rows)


def modules(paper: str | None = None) -> list[str]:
    """The modules declaring the checks (of one paper, by its label, e.g. ``NB20``), in declaration order."""
    out: list[str] = []
    for r in declarations():
        if (paper is None or r["paper"] == paper) and r["module"] not in out:
            out.append(r["module"])
    return out
