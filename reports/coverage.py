"""BCMNUW20/ABM19/LVSUW21/NB20, every numbered result answered from a results directory: the rows of
:mod:`bounds.coverage` (what decides each result) joined with the saved runs, audits and proof-check verdicts.
``python -m reports coverage --results DIR`` prints it and the report's first section shows it.

One rule picks the run that answers a result (:data:`RULE`): among the complete runs that validate it (its
manifest's ``result_ids``, or an experiment declared for it), negative controls apart, a verdict at the result's
own sizes before a below-bound measurement, then the latest by the time its manifest records as finished
(never by directory name). Its verdict, whether it is informative (every opponent in the same trials fails where
the algorithm is judged: the summary's ``informative``, computed by the experiment from its records) and which
opponents also reach the guarantee are read from that run's summary; the command is the one that repeats the run,
written back from its manifest (experiment, trials, seed and every parameter).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone

RULE = ("The run that answers a result: among the complete runs that validate it (negative controls apart), a "
        "verdict at the result's own sizes (holds, violated, inconclusive) comes before a below-bound measurement; "
        "among equals the latest by the finishing time its manifest records (not its directory's name).")
_VERDICTS = ("holds", "violated", "inconclusive")
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


@dataclass
class Answer:
    """One numbered result: what decides it (``row``, from :mod:`bounds.coverage`) and, from the results, the run
    that answers it and the audits and proof checks of it."""

    row: object                     # bounds.coverage.Row
    run: object = None              # reports.results.Run that answers, or None
    candidates: int = 0             # complete runs that validate it
    verdict: str = ""               # the answering run's verdict ("" with no run)
    informative: str = ""           # yes / no / k of n cases / not stated
    opponents: str = ""             # which opponents also reach it, or that all fail
    command: str = ""
    audit_words: dict = field(default_factory=dict)   # {target: its audit's outcome in a word}
    proof_counts: dict = field(default_factory=dict)  # {proof-check status: how many}
    notes: list[str] = field(default_factory=list)

    @property
    def audit(self) -> str:
        """The audit verdicts of its algorithm's targets, as printed."""
        return "; ".join(f"{t}: {w}" for t, w in self.audit_words.items())

    @property
    def proofs(self) -> str:
        """The proof-check statuses, counted, as printed."""
        return "; ".join(f"{k} {n}" for k, n in self.proof_counts.items())

    def to_dict(self, root=None) -> dict:
        out = self.row.to_dict()
        out.update({"verdict": self.verdict or None, "informative": self.informative or None,
                    "opponents": self.opponents or None, "run": _rel(self.run.path, root) if self.run else None,
                    "command": self.command or None, "runs_considered": self.candidates,
                    "audit": self.audit or None, "proof_checks_status": self.proofs or None})
        return out


def _rel(path, root) -> str:
    """A run's path relative to the results directory (no path of this machine in what is printed)."""
    try:
        return str(path.relative_to(root)) if root is not None else path.name
    except ValueError:
        return path.name


def finished_at(run) -> datetime:
    """The time the run's manifest records it finished (else created); the epoch where absent or unreadable."""
    for key in ("finished_at", "created_at"):
        text = run.manifest.get(key)
        if isinstance(text, str):
            try:
                t = datetime.fromisoformat(text)
            except ValueError:
                continue
            return t if t.tzinfo else t.replace(tzinfo=timezone.utc)
    return _EPOCH


def is_control(summary: dict) -> bool:
    neg = summary.get("negative_control")
    return neg is True or (summary.get("variant") not in (None, "none") and bool(neg))


def pick(runs) -> object:
    """The run that answers (:data:`RULE`) among complete, non-control runs; None if there is none."""
    done = [r for r in runs if r.complete and not is_control(r.summary)]
    if not done:
        return None
    return max(done, key=lambda r: (r.summary.get("verdict") in _VERDICTS, finished_at(r)))


def informative(summary: dict) -> str:
    """``yes``, ``no``, ``k of n cases`` or ``not stated``, from the summary's ``informative``."""
    info = summary.get("informative")
    if isinstance(info, bool):
        return "yes" if info else "no"
    if isinstance(info, dict) and info:
        yes = sum(v is True for v in info.values())
        return "yes" if yes == len(info) else "no" if yes == 0 else f"{yes} of {len(info)} cases"
    return "not stated"


def opponents(summary: dict) -> str:
    """The opponents (trivial baselines run on the same draws) that reach the guarantee somewhere, by name, or
    that every one fails; "" where the run has none."""
    from reports.claims import dicts

    names, reach = set(), set()
    for _, node in dicts(summary):
        base = node.get("baselines")
        if isinstance(base, dict):
            for k, b in base.items():
                if isinstance(b, dict) and "status" in b:
                    names.add(k)
                    if b["status"] == "succeeds":
                        reach.add(k)
    if not names:
        return ""
    if reach:
        return "reached by " + ", ".join(sorted(reach))
    return "all fail (" + ", ".join(sorted(names)) + ")"


def _param_text(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(_param_text(x) for x in v)
    return str(v)


def command(run, root=None) -> str:
    """The command that repeats the run, from its manifest (every recorded parameter)."""
    m = run.manifest
    parts = ["python -m simulations run", str(m.get("experiment", "?")), f"--trials {m.get('trials', '?')}"]
    if m.get("root_seed") is not None:
        parts.append(f"--seed {m['root_seed']}")
    parts.append(f"--out {_rel(run.path, root)}")
    for k, v in sorted((m.get("params") or {}).items()):
        parts.append(f"--param {k}={_param_text(v)}")
    return " ".join(parts)


def _audits(targets, audits) -> dict[str, str]:
    """{target: passes / violated (a real target), caught / missed (a broken twin)} of its newest saved audit."""
    out = {}
    for t in targets:
        saved = [a for a in audits if a.get("target") == t]
        if saved:
            a = saved[-1]
            expect = a.get("expect_private", True)
            caught = bool(a.get("_violated"))
            out[t] = ("violated" if caught else "passes") if expect else ("caught" if caught else "missed")
    return out


def _proofs(row, checks: dict) -> dict[str, int]:
    """The saved proof-check statuses of a result, counted. A check whose status is the one it records as expected
    is counted under that status, a ``fails`` of that kind as ``fails as recorded (erratum)`` (a check that found a
    slip of the paper and holds the corrected claim elsewhere); a status other than the expected one says so
    (``holds, expected fails``), so that a reader never takes an erratum for a broken proof or misses a change."""
    counts: dict[str, int] = {}
    for cid in row.proof_checks:
        v = checks.get(cid)
        if not isinstance(v, dict):
            status = "not saved"
        else:
            status = str((v.get("verdict") or {}).get("status", "?"))
            expected = v.get("expected")
            if isinstance(expected, str) and expected and expected != status:
                status = f"{status}{_OFF_RECORD}{expected}"
            elif status == "fails":
                status = "fails as recorded (erratum)"
        counts[status] = counts.get(status, 0) + 1
    return dict(sorted(counts.items()))


#: how a status other than the one a check records is labelled ("holds, expected fails")
_OFF_RECORD = ", expected "


def first_screen_verdict(a: "Answer") -> str:
    """The first screen's verdict cell, one short line: the answering run's verdict; for a result decided by proof
    checks, ``proved`` (every saved check proved), ``checks as recorded`` (each at the status it records, an
    erratum's ``fails`` included) or ``checks: N off record``; for one decided by a privacy audit, ``audit passes``
    or ``audit: violated`` / ``audit: missed`` (a broken twin not caught); else "-". The statuses themselves are in
    the per-paper tables' audit and proof-check columns."""
    from bounds.coverage import DECIDERS

    if a.verdict:
        return a.verdict
    if a.row.decides == DECIDERS[3] and a.proof_counts:
        off = sum(n for status, n in a.proof_counts.items() if _OFF_RECORD in status)
        if off:
            return f"checks: {off} off record"
        return "proved" if all(s.startswith("proved") for s in a.proof_counts) else "checks as recorded"
    if a.row.decides == DECIDERS[2] and a.audit_words:
        bad = sorted(set(a.audit_words.values()) & {"violated", "missed"})
        return f"audit: {', '.join(bad)}" if bad else "audit passes"
    return "-"


def answers(results=None, saved_checks=None) -> list[Answer]:
    """Every numbered result's answer; with no results, only what decides each."""
    from bounds import coverage

    runs = results.runs if results is not None else []
    audits = results.audits if results is not None else []
    root = results.root if results is not None else None
    if saved_checks is None and results is not None:
        from reports.sections.proof_checks import all_saved

        saved_checks = all_saved(results.root)[0]
    checks = {str(v.get("id")): v for v in saved_checks or ()}
    out = []
    for row in coverage.rows():
        rid = row.cited
        mine = [r for r in runs if (rid and rid in (r.manifest.get("result_ids") or ()))
                or (not r.manifest.get("result_ids") and r.experiment in row.experiments)]
        a = Answer(row, candidates=sum(r.complete and not is_control(r.summary) for r in mine))
        run = pick(mine)
        if run is not None:
            a.run, a.verdict = run, str(run.summary.get("verdict", "?"))
            a.informative, a.opponents = informative(run.summary), opponents(run.summary)
            a.command = command(run, root)
        if results is not None:
            a.audit_words = _audits(row.audit_targets, audits)
            a.proof_counts = _proofs(row, checks) if checks else {}
        out.append(a)
    return out


HEADER = ("item", "result", "decided by", "verdict", "informative", "opponents", "run", "audit", "proof checks")


def table_rows(items: list[Answer], root=None) -> list[list[str]]:
    """The rows of the first-screen table and of ``python -m reports coverage``."""
    out = []
    for a in items:
        r = a.row
        label = f"{r.item.id} {r.item.item}"
        out.append([label, (r.item.result.split(":", 1)[-1] if r.item.result else "-"), r.decides,
                    first_screen_verdict(a), a.informative or "-", a.opponents or "-",
                    (_rel(a.run.path, root) + (f" (1 of {a.candidates})" if a.candidates > 1 else ""))
                    if a.run else "-", a.audit or "-", a.proofs or "-"])
    return out


def cmd(ns) -> int:
    """``python -m reports coverage --results DIR [--json | --csv]``: one row per numbered result with the saved
    run, audits and proof checks below DIR that answer it, and the rule that picks the run."""
    from bounds import cli_common as cli, coverage
    from reports import results as rr

    res = rr.load(ns.results)
    found = answers(res)
    table = table_rows(found, res.root)
    text = None
    if not (ns.json or ns.csv):
        text = (cli.table([[coverage.short(c) if k == 0 else c for k, c in enumerate(t)] for t in table],
                          list(HEADER)) + coverage.footer([a.row for a in found]) + "\n" + RULE)
    cli.emit(ns, table, list(HEADER), text=text,
             json_obj={"rule": RULE, "rows": [a.to_dict(res.root) for a in found],
                       "problems": [str(p) for p in res.problems]})
    return 0
