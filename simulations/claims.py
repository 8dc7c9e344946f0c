"""Every claim a run summary states, as rows and as printable lines: the one list shown by the report's plots,
by ``python -m simulations run`` and by ``python -m simulations status`` (here, below the report, so that the
command line does not import the report; ``reports.claims`` is the report's name for it).

A claim is a :func:`simulations.contract.claim` record (``successes``, ``trials``, ``target``, a status; named
by its ``label``, else by its path in the summary; ``kind`` verdict / premise / floor check / algorithm-free,
absent = verdict), a floor-check record (status ``floor check`` with ``passed``), or an entry of a figure
reproduction's ``claims_checked`` list (the paper's claim in words with its status). A ``verdict_detail`` that
restates another claim of the same summary is shown once.
"""

from __future__ import annotations

from simulations import contract, stats


def _restated(path: str, c: dict, found: list) -> bool:
    if path.rsplit(".", 1)[-1] != "verdict_detail":
        return False
    key = (c.get("successes"), c.get("trials"), c.get("target"))
    return any(q is not c and (q.get("successes"), q.get("trials"), q.get("target")) == key for _, q in found)


def dicts(node, path: str = ""):
    """Every dict nested anywhere in a summary (itself included), with its path (``a.b[2].c``)."""
    stack = [(path, node)]
    while stack:
        where, cur = stack.pop()
        if isinstance(cur, dict):
            yield where, cur
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in reversed(list(cur.items())))
        elif isinstance(cur, list):
            stack.extend((f"{where}[{i}]", v) for i, v in reversed(list(enumerate(cur))))


def _floor_checks(summary) -> list[tuple[str, dict]]:
    return [(p, d) for p, d in dicts(summary) if p and d.get("status") == stats.FLOOR_CHECK]


def claim_rows(summary: dict) -> list[dict]:
    """Every claim of ``summary`` once: ``name`` (label, else path), ``path``, ``kind``, ``status``, the
    ``record`` itself and, for binomial claims, ``k``, ``n``, ``target``."""
    if not isinstance(summary, dict):
        return []
    rows, names = [], set()
    found = contract.find_claims(summary)
    for path, c in found:
        if _restated(path, c, found):
            continue
        name = str(c.get("label") or path)
        if name in names:
            continue
        names.add(name)
        rows.append({"name": name, "path": path, "kind": c.get("kind") or "verdict",
                     "status": c.get("verdict", c.get("status")), "k": c.get("successes"), "n": c.get("trials"),
                     "target": c.get("target"), "record": c})
    for path, c in _floor_checks(summary):
        passed = c.get("passed")
        name = str(c.get("label") or path)
        if name not in names:
            names.add(name)
            rows.append({"name": name, "path": path, "kind": "floor check", "record": c,
                         "status": "passed" if passed else "FAILED (a bug)" if passed is False else "floor check"})
    for i, c in enumerate(summary.get("claims_checked") or []):
        if isinstance(c, dict) and "claim" in c:
            fig = f"Figure {c['figure']}: " if c.get("figure") else ""
            rows.append({"name": f"{fig}{c['claim']}", "path": f"claims_checked[{i}]", "kind": "reproduction",
                         "status": c.get("status", "?"), "record": c})
    return rows


def claim_lines(summary: dict | None) -> list[str]:
    """The printable claim list of a run summary (empty when there is none): one line per claim, its status
    first, then its name, its count against its target and its kind when it is no verdict."""
    if not summary:
        return []
    lines = []
    for r in claim_rows(summary):
        counts = (f": {r['k']}/{r['n']} vs target {r['target']:g}" if isinstance(r.get("n"), int)
                  and isinstance(r.get("target"), (int, float)) else "")
        kind = "" if r["kind"] == "verdict" else f" ({r['kind']})"
        lines.append(f"  [{r['status']}] {r['name']}{counts}{kind}")
    return ["claims:"] + lines if lines else []
