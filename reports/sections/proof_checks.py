"""Proof checks and errata: the verdicts of :mod:`proofs_checks` (machine checks of the papers' proof steps)
and the errata headings of ``docs/ERRATA.md``.

Verdicts are read, in this order, from a saved file ``proofs_checks.json`` anywhere below the results
directory (a JSON list of check results, as ``proofs_checks`` ``run_all_json()`` returns), else from the
package's API (``run_all_json`` or ``run_all`` at package level or in ``proofs_checks.core``; running every
check takes about 40 s). If neither exists the section says so plainly.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path

from reports.model import Badge, Heading, Paragraph, Section, Table

ORDER = 90
SAVED = "proofs_checks.json"
ERRATA = Path(__file__).resolve().parents[2] / "docs" / "ERRATA.md"


def saved_verdicts(root: Path) -> tuple[list[dict] | None, str | None]:
    for path in sorted(Path(root).rglob(SAVED)):
        try:
            data = json.loads(path.read_text())
        except (OSError, json.JSONDecodeError) as exc:
            return None, f"{path}: unreadable ({exc})"
        if isinstance(data, list):
            return data, str(path)
    return None, None


def api_verdicts() -> tuple[list[dict] | None, str]:
    """The verdicts from the package API, or (None, why not)."""
    for module in ("proofs_checks", "proofs_checks.core"):
        try:
            mod = importlib.import_module(module)
        except Exception as exc:
            return None, f"proofs_checks cannot be imported ({type(exc).__name__}: {exc})"
        if hasattr(mod, "run_all_json"):
            return list(mod.run_all_json()), f"{module}.run_all_json()"
        if hasattr(mod, "run_all"):
            return [r.to_dict() if hasattr(r, "to_dict") else dict(r) for r in mod.run_all()], f"{module}.run_all()"
    return None, "the package proofs_checks exposes no run_all_json() or run_all() yet"


def errata_headings(path: Path = ERRATA) -> list[tuple[str, str]]:
    """(paper section, erratum heading) pairs of docs/ERRATA.md ('##' papers, '###' entries)."""
    if not path.is_file():
        return []
    paper, out = "", []
    for line in path.read_text(encoding="utf-8").splitlines():
        if m := re.match(r"^##\s+(.*)", line):
            if not line.startswith("###"):
                paper = m.group(1).split("(")[0].strip()
        if m := re.match(r"^###\s+(.*)", line):
            out.append((paper, m.group(1).strip()))
    return out


def _status(v: dict) -> str:
    return (v.get("verdict") or {}).get("status", "not machine-checkable")


def build(ctx) -> list[Section]:
    s = Section("proof-checks", "Proof checks and errata")
    verdicts, origin = saved_verdicts(ctx.results.root)
    if verdicts is None:
        verdicts, origin = api_verdicts()
    if verdicts is None:
        s.add(Badge("info", f"No proof-check verdicts available: {origin}."),
              Paragraph("When proofs_checks exposes run_all_json() (or a proofs_checks.json is saved below the "
                        "results directory), this section lists every check and its verdict."))
    elif not verdicts:
        s.add(Badge("info", f"proofs_checks returned no check ({origin})."))
    else:
        unexpected = [v["id"] for v in verdicts if v.get("expected") and _status(v) != v.get("expected")]
        counts = {}
        for v in verdicts:
            counts[_status(v)] = counts.get(_status(v), 0) + 1
        summary = ", ".join(f"{k}: {n}" for k, n in sorted(counts.items()))
        if unexpected:
            s.add(Badge("violated", f"{len(unexpected)} check(s) changed verdict from the recorded expectation: "
                                    f"{', '.join(unexpected)}"))
        else:
            s.add(Badge("info", f"{len(verdicts)} checks from {origin}; verdicts {summary}; all as recorded."))
        s.add(Paragraph("'fails' on a stated claim is the paper's claim refuted (an erratum); the corrected claim "
                        "is checked by proofs_checks' own tests."),
              Table(("check", "result", "claim", "method", "verdict", "expected", "summary", "errata"),
                    tuple((v.get("id"), v.get("result"), v.get("claim"), v.get("method"), _status(v),
                           v.get("expected"), (v.get("verdict") or {}).get("summary"), ", ".join(v.get("errata", [])))
                          for v in verdicts)))
    heads = errata_headings()
    s.add(Heading("Errata recorded in docs/ERRATA.md"))
    if heads:
        s.add(Table(("paper", "erratum"), tuple(heads)))
    else:
        s.add(Paragraph("docs/ERRATA.md not found."))
    return [s]
