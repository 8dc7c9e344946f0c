"""Proof checks and errata: the saved verdicts of :mod:`proofs_checks` (machine checks of the papers'
proof steps) and the errata headings of ``docs/ERRATA.md``.

``reports`` only reads: the verdicts come from ``proofs_checks.json`` files anywhere below the results
directory, written by ``python -m proofs_checks [--paper KEY] --out DIR``. Papers with no saved
verdict are named, with the command that saves them; nothing is run here.
"""

from __future__ import annotations

import re
from pathlib import Path

from reports.model import Badge, Heading, Paragraph, Section, Table

ORDER = 90
SAVED = "proofs_checks.json"
ERRATA = Path(__file__).resolve().parents[2] / "docs" / "ERRATA.md"


PAPER_KEYS = ("BCMNUW20", "ABM19", "LVSUW21", "NB20")  # proofs_checks.core.PAPERS (not imported: reports only read)


def all_saved(root: Path) -> tuple[list[dict], list[str], list[str]]:
    """Every saved verdict below ``root`` (a check saved twice counts once, the newest file wins),
    the files read, and the problems (unreadable files)."""
    by_id: dict[str, dict] = {}
    files, problems = [], []
    from simulations import store  # the results tree's one walker: no link followed, no directory read twice

    found = [e for _, entries in store.walk(root, []) for e in entries if e.name == SAVED and not e.is_dir()]
    paths = sorted(found, key=lambda p: p.lstat().st_mtime)
    for path in paths:
        try:
            data = store.read_json(path)  # untrusted: no link, a regular file, bounded
        except (OSError, ValueError) as exc:
            problems.append(f"{path}: unreadable ({exc})")
            continue
        if not isinstance(data, list):
            problems.append(f"{path}: not a list of check results")
            continue
        files.append(str(path))
        for v in data:
            if isinstance(v, dict):
                by_id[str(v.get("id"))] = v
    return list(by_id.values()), files, problems


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


NOT_CHECKABLE = "not machine-checkable"  # proofs_checks.core.NOT_CHECKABLE


def _status(v: dict) -> str:
    return (v.get("verdict") or {}).get("status", NOT_CHECKABLE)


def _not_here(v: dict) -> bool:
    """A check that could not run here (its inputs, e.g. the paper texts, are absent; or it raised): not a
    finding about the paper, so never a changed verdict. Shown as "not checkable here" with its reason."""
    return _status(v) == NOT_CHECKABLE and v.get("expected") not in (None, NOT_CHECKABLE)


def build(ctx) -> list[Section]:
    s = Section("proof-checks", "Proof checks and errata")
    verdicts, files, problems = all_saved(ctx.results.root)
    for p in problems:
        s.add(Badge("info", p))
    papers = {str(v.get("paper", "")).upper() for v in verdicts}
    missing = [k for k in PAPER_KEYS if k not in papers]
    if missing:
        s.add(Badge("info", "No saved proof-check verdicts for " + ", ".join(missing) + ": save them with "
                    + "; ".join(f"python -m proofs_checks --paper {k.lower()} --out {ctx.results.root.name}"
                                for k in missing) + " (reports never runs the checks)."))
    if verdicts:
        origin = ", ".join(files)
        not_here = [v for v in verdicts if _not_here(v)]
        unexpected = [v["id"] for v in verdicts
                      if v.get("expected") and _status(v) != v.get("expected") and not _not_here(v)]
        counts = {}
        for v in verdicts:
            counts[_status(v)] = counts.get(_status(v), 0) + 1
        summary = ", ".join(f"{k}: {n}" for k, n in sorted(counts.items()))
        judged = len(verdicts) - len(not_here)
        if unexpected:
            s.add(Badge("violated", f"{len(unexpected)} check(s) changed verdict from the recorded expectation: "
                                    f"{', '.join(unexpected)}"))
        else:
            s.add(Badge("info", f"{judged} of {len(verdicts)} checks judged, each as recorded (verdicts {summary}); "
                                f"read from {origin}."))
        for v in not_here:
            why = (v.get("verdict") or {}).get("summary") or "its inputs are absent"
            why = why.removeprefix("not checkable here: ")
            s.add(Badge(NOT_CHECKABLE, f"{v.get('id')}: not checkable here ({why}); expected {v.get('expected')} "
                                       "where its inputs are present. Not a finding about the paper."))
        s.add(Paragraph("'fails' on a stated claim is the paper's claim refuted (an erratum); the corrected claim "
                        "is checked by proofs_checks' own tests. The checks of each paper, in its order:"))
        for key in PAPER_KEYS:
            mine = [v for v in verdicts if str(v.get("paper", "")).upper() == key]
            if not mine:
                continue
            by = {}
            for v in mine:
                by[_status(v)] = by.get(_status(v), 0) + 1
            s.add(Heading(f"{key}: {len(mine)} checks ({', '.join(f'{k} {n}' for k, n in sorted(by.items()))})", 4),
                  Table(("check", "claim", "method", "verdict", "expected", "summary", "errata"),
                        tuple((v.get("id"), v.get("claim"), v.get("method"),
                               "not checkable here" if _not_here(v) else _status(v),
                               v.get("expected"), (v.get("verdict") or {}).get("summary"),
                               ", ".join(v.get("errata", []))) for v in mine), collapsed=len(mine) > 8))
    heads = errata_headings()
    s.add(Heading("Errata recorded in docs/ERRATA.md"))
    if heads:
        s.add(Table(("paper", "erratum"), tuple(heads)))
    else:
        s.add(Paragraph("docs/ERRATA.md not found."))
    return [s]
