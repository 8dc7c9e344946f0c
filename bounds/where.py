"""Where a result lives outside ``bounds`` (``python -m bounds show ID`` ends with it): the algorithms that
realise it, the experiments that validate it, the proof checks of its steps, the audit targets of its
algorithms, the report sections and the errata.

Built from the registries' own declarations, read from the checkout's sources with ``ast`` (nothing is
imported or run, so ``bounds`` still imports no other package of the project and ``show`` starts fast):

* algorithms: a module of ``algorithms/`` declares ``REALISES = ("bcmnuw20:thm10", ...)``;
* experiments: ``name`` and ``results`` of ``EXPERIMENT = Experiment(...)`` in ``simulations/experiments/*.py``;
* proof checks: every ``Check(id=..., result=...)`` in ``proofs_checks/<paper>.py``;
* audit targets: every ``AuditTarget(name, ..., results=(...))`` in ``simulations/audit_targets/*.py`` (the
  results whose algorithm it audits, as data);
* report sections: a module of ``reports/sections`` that names the result id, or an experiment or audit target
  of the result, as a string literal.

The registries are the truth: tests/bounds/test_where.py imports them and requires this scan to agree, so a
declaration the scan cannot read (say a target built in a loop that names its results) fails a test rather
than going missing from ``show``. In an installed copy without the sources ``show`` says so.

Parsing every source costs about half a second, so the scan is kept small: top-level assignments are read by
parsing only their own statement, and ``show`` scans for one result (``declared(rid)``), parsing only the files
whose text names it (a file that does not contain the text cannot declare it); the same test holds that scan
equal to the full one for every result.
"""
from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

def _rel(path: Path) -> str:
    return str(path.relative_to(ROOT))


@functools.lru_cache(maxsize=None)
def _tree(path: Path):
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, UnicodeDecodeError):
        return None


@functools.lru_cache(maxsize=None)
def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ""


def literal_assignments(path: Path, *names: str) -> dict:
    """``{name: value}`` for each of ``names`` assigned a literal at the top level of the source ``path`` (its
    first ``name = ...`` or ``name: T = ...`` at column 0); a name absent or not assigned a literal is left out.
    Only those statements are parsed, each from its first line to the first line after which it parses, so
    reading a few constants of a large module costs microseconds (what listing commands read without importing)."""
    text, out = _text(Path(path)), {}
    for name in names:
        m = re.search(rf"^{re.escape(name)}\s*(?::[^=\n]*)?=", text, re.M)
        lines = text[m.start():].splitlines() if m else []
        for end in range(1, min(len(lines), 200) + 1):
            try:
                node = ast.parse("\n".join(lines[:end])).body[0]
            except SyntaxError:
                continue
            try:
                if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                    out[name] = ast.literal_eval(node.value)
            except ValueError:
                pass
            break
    return out


def declaration_keywords(path: Path, name: str, *keywords: str) -> dict:
    """``{keyword: value}`` for each of ``keywords`` passed as a literal in the top-level declaration ``name =
    Call(...)`` of the source ``path`` (``EXPERIMENT = Experiment(name="thm10", results=(...), ...)``); only that
    statement is parsed, as :func:`literal_assignments` does."""
    text = _text(Path(path))
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
                value = _literal(k.value)
                if value is not None:
                    out[k.arg] = value
        return out
    return {}


def _assigned(path: Path, name: str):
    """The literal value of the top-level assignment ``name = ...`` in ``path`` (None if absent)."""
    return literal_assignments(path, name).get(name)


def _calls(path: Path, func: str):
    """Every call ``func(...)`` in ``path`` (at any depth)."""
    tree = _tree(path)
    if tree is None:
        return []
    return [n for n in ast.walk(tree) if isinstance(n, ast.Call)
            and (getattr(n.func, "id", None) == func or getattr(n.func, "attr", None) == func)]


def _literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError):
        return None


def experiments() -> dict[str, list[str]]:
    """``{experiment name: its results}`` read from the ``EXPERIMENT`` declarations of ``simulations/experiments/*.py``
    ({} in an installed copy without the sources)."""
    out = {}
    for p in sorted((ROOT / "simulations" / "experiments").glob("[!_]*.py")):
        found = declaration_keywords(p, "EXPERIMENT", "name", "results")
        if isinstance(found.get("name"), str):
            out[found["name"]] = [r for r in found.get("results") or () if isinstance(r, str)]
    return out


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


@functools.lru_cache(maxsize=None)
def declared(only: str | None = None) -> dict[str, dict[str, list[str]]]:
    """``{kind: {result id: [where, ...]}}`` for kind in algorithm, experiment, proof checks, audit targets,
    report section (read from the sources; see the module docstring). With ``only`` (a result id) the entries
    of that result are exact, and files that cannot concern it are not parsed (their text does not contain its
    local id, a citation of it, or it, its experiments' or its audit targets' names between quotes), so entries
    of other results may be missing."""

    def may(p: Path, *needles: str) -> bool:
        return only is None or any(n in _text(p) for n in needles)

    local = only.split(":", 1)[-1] if only else ""
    out: dict[str, dict[str, list[str]]] = {k: {} for k in ("algorithm", "experiment", "proof checks",
                                                             "audit targets", "report section")}

    def add(kind, rid, what):
        out[kind].setdefault(rid, [])
        if what not in out[kind][rid]:
            out[kind][rid].append(what)

    for p in sorted((ROOT / "algorithms").rglob("*.py")):
        for rid in _assigned(p, "REALISES") or ():
            add("algorithm", rid, _rel(p))
    names = {}
    for p in sorted((ROOT / "simulations" / "experiments").glob("[!_]*.py")):
        kw = declaration_keywords(p, "EXPERIMENT", "name", "results")
        name = kw.get("name")
        for rid in kw.get("results") or ():
            names.setdefault(rid, []).append(name)
            add("experiment", rid, name)
    for p in sorted((ROOT / "proofs_checks").glob("[!_]*.py")):
        if not may(p, local):
            continue
        for call in _calls(p, "Check"):
            kw = {k.arg: _literal(k.value) for k in call.keywords if k.arg in ("id", "result", "paper")}
            if isinstance(kw.get("id"), str) and isinstance(kw.get("result"), str):
                paper = kw["id"].split(":", 1)[0] if ":" in kw["id"] else p.stem
                add("proof checks", f"{paper}:{kw['result']}", kw["id"])
    from .registry import all_results

    all_ids = [r.id for r in all_results()]
    targets = {}
    for p in sorted((ROOT / "simulations" / "audit_targets").glob("[!_]*.py")):
        if not may(p, only or ""):
            continue
        for call in _calls(p, "AuditTarget"):
            name = _literal(call.args[0]) if call.args else None
            results = next((_literal(k.value) for k in call.keywords if k.arg == "results"), None) or ()
            if isinstance(name, str):
                for rid in results:
                    targets.setdefault(rid, []).append(name)
                    add("audit targets", rid, name)
    for p in sorted((ROOT / "reports" / "sections").glob("[!_]*.py")):
        quoted = [q + w + q for w in (only or "", *names.get(only, ()), *targets.get(only, ())) for q in "\"'"]
        if not may(p, *quoted):  # a string constant naming the result is in the text between quotes
            continue
        tree = _tree(p)
        strings = _constant_strings(tree) if tree is not None else set()
        for rid in all_ids:
            if rid in strings or strings & set(names.get(rid, ())) or strings & set(targets.get(rid, ())):
                add("report section", rid, _rel(p))
    return out


def _constant_strings(tree) -> set[str]:
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def errata(result) -> list[str]:
    """The errata records (bounds.errata) that concern the result: those it names and those naming it."""
    from .errata import ERRATA

    return [f"{e.title} [{e.id}]" for e in ERRATA
            if e.id in result.errata or result.short_id in e.results]


def locate(result) -> list[tuple[str, list[str]]]:
    """(what, where) pairs for ``show``; an empty list where nothing is found."""
    if not (ROOT / "simulations").is_dir():
        return [("sources", ["not in this installation (run show from a checkout to see where the result lives)"])]
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
