"""A run judged by its records: the one recomputation of a run's summary, the records' types, a stored summary
compared with the recomputed one, the time a run has been running, and the upgrade of older run directories.
The judging side of :mod:`simulations.store`, which re-exports every name here (import them from there).

Source: the run-directory format of :mod:`simulations.store` ("a run is its records": a verdict is recomputed
from the records every time it is shown, never read back from ``summary.json``).
"""

from __future__ import annotations

import datetime as _dt
import json
import math
import os
from pathlib import Path

from simulations._records import consistency_problems
from simulations._store_files import StoreError, _json_default, printable, write_json_atomic

#: the fields of a summary (at any depth) that carry its verdicts: a stored summary whose values of these differ
#: from the recomputed summary's is corrupt (other fields, e.g. a float's last digit, may change with the code)
VERDICT_FIELDS = ("verdict", "status", "successes", "trials", "passed", "final")


def recompute_summary(experiment, records: list[dict], params, where=None) -> dict:
    """THE one place a run's summary is computed from its records (run, resume, status, the report and
    ``runner.evaluate`` all call it): ``contract.summarise_run(experiment, records, params)``, in the form
    summary.json holds it. A record without the keys or types the experiment writes (a hand-edited or foreign
    line) is a StoreError naming ``where``, not a KeyError."""
    from simulations import contract

    try:
        summary = contract.summarise_run(experiment, records, params)
        # as summary.json holds it (lists, not tuples; numpy converted; keys sorted), so every reader sees one form
        return json.loads(json.dumps(summary, sort_keys=True, default=_json_default))
    except (KeyError, TypeError, IndexError, AttributeError, ValueError) as exc:
        raise StoreError(f"{where or 'the records'}: the records do not have the shape experiment "
                         f"{getattr(experiment, 'name', '?')} writes ({type(exc).__name__}: "
                         f"{' '.join(str(exc).split())[:200]})") from None


def record_problems(path, experiment, records: dict[int, dict]) -> list[str]:
    """The records' types judged (one line, or none): each against the experiment's declared outcome
    (``contract.record_errors(experiment.outcome, record)``) when it declares one, else against each other
    (:func:`simulations._records.consistency_problems`); a claim's success flag must be true or false either way."""
    from simulations import contract

    outcome = getattr(experiment, "outcome", None)
    found = consistency_problems(records) if outcome is None else []
    if outcome is not None:
        found = [f"trial {i}: {e}" for i, r in records.items() if (e := contract.record_errors(outcome, r))]
    if not found:
        return []
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    return [f"{path}: {found[0]}{more}; a value of the wrong type for its key (edited?)"]


def _verdict_view(node, path: str = "", out: list | None = None) -> list:
    out = [] if out is None else out
    if isinstance(node, dict):
        for k in sorted(node):
            v, where = node[k], f"{path}.{k}" if path else str(k)
            if k in VERDICT_FIELDS and not isinstance(v, (dict, list)):
                out.append((where, v))
            else:
                _verdict_view(v, where, out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _verdict_view(v, f"{path}[{i}]", out)
    return out


def summary_disagreement(stored, recomputed: dict) -> str | None:
    """None when the stored summary states the verdicts the records give (:data:`VERDICT_FIELDS`, every depth);
    else one line naming the first field that differs."""
    if not isinstance(stored, dict):
        return f"holds {type(stored).__name__}, not a summary"
    a, b = dict(_verdict_view(stored)), dict(_verdict_view(recomputed))
    for key in sorted(set(a) | set(b)):
        if key not in a or key not in b or a[key] != b[key] or type(a[key]) is not type(b[key]):
            said = printable(repr(a.get(key, "(nothing)")))[:60]
            return f"says {key} = {said} where the records give {printable(repr(b.get(key, '(nothing)')))[:60]}"
    return None


def _seconds(value) -> float | None:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0
    return float(value) if ok else None


def _started(session: dict) -> _dt.datetime | None:
    try:
        t = _dt.datetime.fromisoformat(str(session.get("started_at")))
    except ValueError:
        return None
    return t if t.tzinfo else t.replace(tzinfo=_dt.timezone.utc)


def running_seconds(sessions, live: bool) -> tuple[float, str]:
    """(seconds the run has computed, what that covers): finished sessions' ``elapsed_seconds``, plus, for a
    live run, the time since its open session started; an open session of a run nobody runs (killed) has no
    known length, which the second part says."""
    total, open_sessions = 0.0, 0
    for s in sessions if isinstance(sessions, list) else []:
        if not isinstance(s, dict):
            continue
        done = _seconds(s.get("elapsed_seconds"))
        if done is not None:
            total += done
        elif s.get("finished_at") is None:
            open_sessions += 1
            start = _started(s)
            if live and start is not None:
                total += max(0.0, (_dt.datetime.now(_dt.timezone.utc) - start).total_seconds())
    if open_sessions and live:
        return total, "so far (running now)"
    if open_sessions:
        return total, f"in finished sessions ({open_sessions} session(s) ended without recording their time)"
    return total, ""


def duration_text(seconds: float) -> str:
    """``seconds`` for people: 0.42 s, 95.0 s, 30.0 min, 2.5 h."""
    if seconds < 60:
        return f"{seconds:.2f} s"
    if seconds < 3600:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def upgrade(path) -> str:
    """Rewrite the manifest of a run directory of an older format (``simulations-run/1``) as the current one,
    after checking what the new format requires: a manifest digest that matches its params and seed, and every
    record line carrying it. Under the run's lock; StoreError (nothing written) when it cannot be upgraded.
    Returns a line saying what was done."""
    from simulations import store

    run = store.RunDir(path)
    if not os.path.lexists(run.manifest_path):
        raise StoreError(f"run directory {str(path)!r} has no {store.MANIFEST}")
    run.check_files()
    m = run.manifest()
    if not isinstance(m, dict) or m.get("format") not in store.OLD_FORMATS:
        got = m.get("format") if isinstance(m, dict) else type(m).__name__
        raise StoreError(f"{run.manifest_path}: format {got!r} is not one that upgrade rewrites "
                         f"({', '.join(store.OLD_FORMATS)})")
    store.check_manifest({**m, "format": store.FORMAT}, run.manifest_path, max_trials=2**63)
    problem = run.digest_problem(m)
    if problem:
        raise StoreError(f"cannot upgrade: {problem}; run it again with python -m simulations run")
    run.acquire_lock()
    try:
        scan = run.scan_records(int(m["trials"]), m["digest"])
        bad = scan.problem(run.records_path)
        if bad:
            raise StoreError(f"cannot upgrade: {bad}; run it again with python -m simulations run")
        write_json_atomic(run.manifest_path, {**m, "format": store.FORMAT, "upgraded_from": m["format"]})
    finally:
        run.release_lock()
    return (f"upgraded {Path(path)} from {m['format']} to {store.FORMAT} ({len(scan.records)} records, each carrying "
            "the run's digest); its verdict is recomputed from them when shown")
