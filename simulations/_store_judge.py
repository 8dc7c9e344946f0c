"""A run judged by its records: the experiment a run directory names looked up, the one recomputation of a run's
summary, the records' types, a stored summary compared with the recomputed one, and the time a run has been
running. The judging side of :mod:`simulations.store`, which re-exports every name here (import them from there);
it imports the store's file helpers (:mod:`simulations._store_files`), never the store itself.

Source: the run-directory format of :mod:`simulations.store` ("a run is its records": a verdict is recomputed
from the records every time it is shown, never read back from ``summary.json``).
"""

from __future__ import annotations

import datetime as _dt
import json
import math

from simulations import experiments
from simulations._records import consistency_problems
from simulations._store_files import StoreError, _json_default, printable

#: the fields of a summary (at any depth) that carry its verdicts: a stored summary whose values of these differ
#: from the recomputed summary's is corrupt (other fields, e.g. a float's last digit, may change with the code)
VERDICT_FIELDS = ("verdict", "status", "successes", "trials", "passed", "final")


def resolve_experiment(manifest: dict, experiment: str | None = None):
    """The experiment module of a run directory, looked up by the manifest's ``experiment`` name in the
    registry (never by a module path the directory names). ``experiment``: a module the user names for a
    run outside the registry (``--experiment``); its NAME must equal the manifest's. ValueError otherwise."""
    name = manifest.get("experiment")
    if experiment is not None:
        module = experiments.get(experiment)
    elif isinstance(name, str) and name in experiments.names():
        module = experiments.get(name)
    else:
        raise ValueError(f"experiment {name!r} of this run directory is not in the registry; if you trust the "
                         "code it was run with, name its module with --experiment MODULE")
    if module.name != name:
        raise ValueError(f"the run directory is of experiment {name!r}, not {module.name!r}")
    return module


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


def judge_records(run, m: dict, records: dict, experiment, compare: bool, problems: list) -> tuple:
    """(summary recomputed from ``records`` or None, note) for :meth:`simulations.store.RunDir.inspect` of ``run``
    with manifest ``m``: the experiment looked up (:func:`resolve_experiment`; when it cannot be, nothing is
    recomputed and the note says why), the records' types judged, the summary recomputed and, with ``compare``,
    the stored one compared with it. Problems found are appended to ``problems``."""
    try:
        module = resolve_experiment(m, experiment)
    except ValueError as exc:
        module, note = None, f"not judged: {exc}"
    else:
        note = None
    problems.extend(record_problems(run.records_path, module, records))
    if problems or module is None or not records:
        return None, note
    try:
        params = experiments.params_from_dict(module, m["params"])
        summary = recompute_summary(module, list(records.values()), params, run.records_path)
    except ValueError as exc:
        problems.append(" ".join(str(exc).split()))
        return None, note
    if compare:
        try:
            stored = run.summary()
        except (ValueError, OSError) as exc:
            problems.append(f"{run.summary_path}: unreadable ({exc})")
            return None, note
        diff = summary_disagreement(stored, summary)
        if diff:
            problems.append(f"{run.summary_path}: {diff}; the stored summary is not the one its records give")
            return None, note
    return summary, note


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
