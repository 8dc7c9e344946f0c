"""The checks by declaration: ``checks.json`` beside this module lists every registered check (id, paper, result,
method, claim, source, and the module that registers it), so ``python -m proofs_checks --list`` answers without
importing a paper's module (nor numpy), and running one paper's checks imports only the modules that declare them.

Generated from the registry (``python -m proofs_checks.declared --write``); a test holds the file equal to the
registry, so a check added without regenerating it is noticed.
"""
from __future__ import annotations

import json
import sys
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


def generate() -> list[dict]:
    """The declarations as the registry has them (imports every paper module)."""
    from .core import all_checks, module_of

    return [{"id": c.id, "paper": c.paper, "result": c.result, "method": c.method, "claim": c.claim,
             "source": c.source, "module": module_of(c.id)} for c in all_checks()]


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    text = json.dumps(generate(), indent=1, ensure_ascii=False) + "\n"
    if argv == ["--write"]:
        FILE.write_text(text, encoding="utf-8")
        return 0
    if argv:
        sys.stderr.write("usage: python -m proofs_checks.declared [--write]\n")
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
