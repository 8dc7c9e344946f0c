"""Writes ``checks.json`` (read by :mod:`proofs_checks.declared`) from the registry: ``python -m
proofs_checks.declare --write`` after adding or changing a check; without ``--write`` it prints the file's text. Kept
apart from the reader so that the reader imports nothing of the registry (no import cycle with ``core``)."""
from __future__ import annotations

import json
import sys

from .declared import FILE


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
        sys.stderr.write("usage: python -m proofs_checks.declare [--write]\n")
        return 2
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
