"""Where a result lives outside ``bounds`` (``python -m bounds show ID`` ends with it): the algorithm
that realises it, the experiment that validates it, the proof checks of its steps, the report section,
the errata.

``bounds`` imports no other package of the project, so this reads the checkout's source files as text
(ast and regular expressions, nothing is imported or run): a new experiment, check or section is found
by the same rules without a table to keep in step. In an installed copy without the sources it says so.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _assigned(path: Path, name: str):
    """The literal value of the top-level assignment ``name = ...`` in ``path`` (None if absent)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            try:
                return ast.literal_eval(node.value)
            except ValueError:
                return None
    return None


def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


def experiments(result_id: str) -> list[str]:
    """Experiment modules whose RESULT_IDS name the result, as run commands."""
    out = []
    for path in sorted((ROOT / "simulations" / "experiments").glob("*.py")):
        ids = _assigned(path, "RESULT_IDS")
        name = _assigned(path, "NAME")
        if ids and result_id in ids and name:
            out.append(f"{_rel(path)}  (python -m simulations list {name}; "
                       f"python -m simulations run {name} --trials N --out DIR)")
    return out


def proof_checks(result_id: str) -> list[str]:
    """Ids of the proof checks declared with ``result="<short id>"`` in proofs_checks/<paper>.py."""
    paper, short = result_id.split(":", 1)
    path = ROOT / "proofs_checks" / f"{paper}.py"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError:
        return []
    ids = re.findall(r'id="([^"]+)",\s*paper=[^,]+,\s*result="' + re.escape(short) + '"', text)
    return ids


def report_sections(result_id: str) -> list[str]:
    """Report section plugins that name the result (its full id in their source)."""
    return [_rel(p) for p in sorted((ROOT / "reports" / "sections").glob("*.py"))
            if f'"{result_id}"' in p.read_text(encoding="utf-8")]


def algorithms(paper: str, label: str, result_id: str) -> list[str]:
    """Algorithm modules that name the result: its id anywhere, or a module docstring whose first
    line starts with the paper's key and names the label ("BCMNUW20 Algorithm 3 (A_PAP) and Theorem 10")."""
    label_re = re.compile(rf"\b{re.escape(label)}(?![\d.])")
    out = []
    for p in sorted((ROOT / "algorithms").rglob("*.py")):
        if p.name == "__init__.py":
            continue
        text = p.read_text(encoding="utf-8")
        try:
            doc = ast.get_docstring(ast.parse(text)) or ""
        except SyntaxError:
            doc = ""
        head = doc.split("\n\n", 1)[0]
        if result_id in text or (head.startswith(paper) and label_re.search(head)):
            out.append(_rel(p))
    return out


def errata(result) -> list[str]:
    """The errata records (bounds.errata) that concern the result: those it names and those naming it."""
    from .errata import ERRATA

    return [f"{e.title} [{e.id}]" for e in ERRATA
            if e.id in result.errata or result.short_id in e.results]


def locate(result) -> list[tuple[str, list[str]]]:
    """(what, where) pairs for ``show``; an empty list where nothing is found."""
    if not (ROOT / "simulations").is_dir():
        return [("sources", ["not in this installation (run show from a checkout to see where the result lives)"])]
    rid = result.id
    return [
        ("algorithm", algorithms(result.paper, result.label, rid)),
        ("experiment", experiments(rid)),
        ("proof checks", [f"{c}  (python -m proofs_checks --paper {rid.split(':')[0]})"
                          for c in proof_checks(rid)]),
        ("report section", report_sections(rid)),
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
