"""The run directory: where a Monte-Carlo run's parameters, records and summary live, written so nothing is lost.

Format (``FORMAT = "simulations-run/2"``)::

    RUN_DIR/
      manifest.json   {"format", "experiment" (name), "module" (import path), "result_ids", "params",
                       "root_seed", "digest", "trials", "code_version", "created_at", "status" ("running" |
                       "interrupted" | "complete"), "sessions": [{"started_at", "finished_at",
                       "elapsed_seconds", "backend", "workers", "scheduler", "code_version",
                       "trials_run", and "interrupted" (the error) if it stopped on one}],
                       "finished_at"}
                      written atomically (temporary file in RUN_DIR, fsync, os.replace).
      records.jsonl   one line per finished trial: {"digest", "index": i, "record": {...}}, appended in
                      the order trials finish (not index order); each batch is flushed and fsynced.
      summary.json    the experiment's summarise() of all records, written atomically when complete. Never
                      read back as a verdict: only compared with the summary recomputed from the records.

      lock.json       while a run or resume computes: {"pid", "host", "started_at", "proc_start"};
                      created exclusively (O_EXCL), removed when the process ends. A second run or
                      resume refuses while the holder lives; a lock whose holder is dead (same host,
                      no such process or a different process start time) is stale and taken over.

Format 1 (before the digest was mandatory) is refused with one line naming :func:`upgrade`
(``python -m simulations upgrade DIR``), which rewrites the manifest once every record is checked.

Integrity, which no edit of a file switches off: the manifest holds ``digest``, a hash of (experiment, params,
root_seed) (:func:`params_digest`), and every record line must carry it. A manifest without it, or whose params
or seed were edited after the run started, is corrupt; so is a record line without the manifest's digest (of
other params or another seed, or none), a repeated index whose record differs from the first (a conflicting
duplicate), NaN or infinity (also ``1e999``) or a key twice in one object (:mod:`simulations._records`), and a
record whose values have other types than the experiment's (:func:`record_problems`). :func:`integrity_problems`
lists what is wrong with a directory without raising (the report calls it); :meth:`RunDir.inspect` finds the
same problems, so ``status`` says ``corrupt`` and ``resume`` refuses.

A run is its records: :meth:`RunDir.inspect` recomputes the summary from them every time
(:func:`recompute_summary`, the one function that does) and a stored summary whose verdict fields differ from it
(:func:`summary_disagreement`) makes the run corrupt. ``status``, ``resume`` and the report show only the
recomputed summary.

Untrusted files (:mod:`simulations._store_files`): every file of a run directory is opened without following
symbolic links and refused unless it is a regular file (no FIFO, device or link); records.jsonl, and every file
written, must have one name (link count 1: no hard link to a file elsewhere); reads are capped on the bytes
actually read, never on ``st_size`` alone (``MAX_JSON_BYTES``, ``MAX_RECORDS_BYTES`` and a record line at most
``MAX_LINE_BYTES``, all in :mod:`simulations._store_files`, where a test lowers them; raise them with
``SIMULATIONS_MAX_JSON_MB``, ``SIMULATIONS_MAX_RECORDS_MB``, ``SIMULATIONS_MAX_LINE_MB``), so neither a sparse
file nor one growing while it is read costs more; appends and truncations go through a descriptor opened the same
way. :func:`walk` is the one walker of a results tree; :func:`printable` escapes control characters of anything
printed from a file.

Reading records: a last line without its newline or that does not parse (a write torn by a kill)
is ignored, any other bad line is an error, and a repeated index keeps its first record, so a
resumed run never double-counts. Before appending, a torn tail is cut off (truncate to the last
newline) so the next line starts clean.

A run directory is judged by its records, not by what the manifest claims: :meth:`RunDir.inspect`
recounts them, checks every index against ``trials``, and says ``complete``, ``running`` (a live
lock holder), ``stale`` (the manifest says running but nobody holds the lock: killed),
``interrupted``, or ``corrupt`` (a bad line, an index out of range, or a summary the records do
not support). Every write error becomes a :class:`StoreError` (a ValueError) naming the path and
the cause, so command lines print one line and exit 2.
"""

from __future__ import annotations

import hashlib
import os
import stat as _stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from simulations import _store_files as _files  # the limits: read there when used (tests lower them there)
from simulations._store_files import (  # noqa: F401  (re-exported: simulations.store is the import path)
    _LIMIT_ENV, StoreError, _json_default, _umask, check_single_link, check_writable, dumps, loads, now, open_regular,
    os_error, printable, read_capped, read_json, readable_mode, too_big, walk, write_json_atomic,
)
from simulations._audit_judge import recheck_audit, registered_declaration  # noqa: F401  (re-exported, as below)
from simulations._store_judge import (  # noqa: F401  (re-exported: simulations.store is the import path)
    VERDICT_FIELDS, duration_text, judge_records, recompute_summary, record_problems, resolve_experiment,
    running_seconds, summary_disagreement,
)

FORMAT = "simulations-run/2"
#: the format before the digest was mandatory: refused, with the command that upgrades it (:func:`upgrade`)
OLD_FORMATS = ("simulations-run/1",)
MANIFEST = "manifest.json"
RECORDS = "records.jsonl"
SUMMARY = "summary.json"
LOCK = "lock.json"
STATES = ("complete", "running", "stale", "interrupted", "corrupt")
#: default limit on the trials of one run (``max_trials`` / ``--max-trials`` raises it): the runner
#: holds the missing indices in memory and a run directory grows by one line per trial, so a typo
#: such as --trials 1000000000000 is refused up front instead of filling memory and disk
MAX_TRIALS = 1_000_000


def params_digest(experiment: str, params: dict, root_seed: int) -> str:
    """The integrity digest of a run: sha256 of the canonical JSON of (experiment, params, root_seed),
    first 16 hex digits. Recorded in the manifest and on every record line."""
    text = dumps({"experiment": experiment, "params": params, "root_seed": root_seed})
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def encode_record(index: int, record: dict, digest: str | None = None) -> str:
    """One records.jsonl line (with its newline) for trial ``index``, carrying the run's ``digest`` (the
    runner always gives one; without it, a line only :func:`simulations.runner.evaluate` reads)."""
    if not isinstance(record, dict):
        raise ValueError(f"trial {index} returned {type(record).__name__}, must return a dict")
    row = {"index": int(index), "record": record}
    if digest is not None:
        row["digest"] = digest
    try:
        return dumps(row) + "\n"
    except ValueError as exc:
        raise ValueError(f"record of trial {index}: {exc}") from None


def expected_digest(m: dict) -> str:
    """The digest every record line of the run with manifest ``m`` must carry: the manifest's, or (when it was
    removed, itself a problem: :meth:`RunDir.digest_problem`) the one its params and seed give."""
    d = m.get("digest")
    if isinstance(d, str):
        return d
    try:
        return params_digest(m.get("experiment"), m.get("params"), m.get("root_seed"))
    except ValueError:
        return "(none)"


def check_manifest(m: Any, path, max_trials: int | None = None) -> dict:
    """``m`` if it has the fields a run needs, of the right types and within limits; StoreError otherwise.
    ``max_trials`` (default: :data:`MAX_TRIALS`) bounds ``trials``."""
    if not isinstance(m, dict):
        raise StoreError(f"{path}: a manifest must be a JSON object, not {type(m).__name__}")
    if m.get("format") in OLD_FORMATS:
        raise StoreError(f"{path}: format {m.get('format')!r} (before every run had to carry its digest) is no "
                         f"longer read; upgrade it with `python -m simulations upgrade {Path(path).parent}`")
    if m.get("format") != FORMAT:
        raise StoreError(f"{path}: format {m.get('format')!r}, expected {FORMAT!r}")
    for key, kind in (("experiment", str), ("params", dict), ("root_seed", int), ("trials", int)):
        if key not in m:
            raise StoreError(f"{path}: the manifest lacks {key!r}")
        if not isinstance(m[key], kind) or isinstance(m[key], bool):
            raise StoreError(f"{path}: {key} is {type(m[key]).__name__}, must be {kind.__name__}")
    if m["root_seed"] < 0 or m["root_seed"] >= 2**128:
        raise StoreError(f"{path}: root_seed={m['root_seed']} outside [0, 2^128)")
    limit = MAX_TRIALS if max_trials is None else max_trials
    if not 1 <= m["trials"] <= limit:
        more = f"; if you mean it, pass --max-trials {m['trials']}" if m["trials"] > limit else ""
        raise StoreError(f"{path}: trials={m['trials']:,} outside [1, {limit:,}]{more}")
    sessions = m.get("sessions", [])
    if not isinstance(sessions, list) or not all(isinstance(x, dict) for x in sessions):
        raise StoreError(f"{path}: sessions must be a list of objects")
    ids = m.get("result_ids", [])
    if not isinstance(ids, list) or not all(isinstance(x, str) for x in ids):
        raise StoreError(f"{path}: result_ids must be a list of strings")
    return m


class RunDir:
    """A run directory (see the module docstring for the files and their format)."""

    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.lock: RunLock | None = None  # held by this process (set by create / acquire_lock)

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    @property
    def records_path(self) -> Path:
        return self.path / RECORDS

    @property
    def summary_path(self) -> Path:
        return self.path / SUMMARY

    @property
    def lock_path(self) -> Path:
        return self.path / LOCK

    # -------------------------------------------------------------- creation

    @classmethod
    def create(cls, path: str | os.PathLike, manifest: dict) -> "RunDir":
        """Create a new run directory with its manifest; ValueError if ``path`` exists and is not an empty directory."""
        if not str(path).strip():
            raise StoreError("--out is empty: give a new directory for the run")
        p = Path(path)
        if p.exists() and (not p.is_dir() or any(p.iterdir())):
            raise ValueError(f"--out {str(p)!r} already exists and is not an empty directory; choose a new one")
        created = not p.exists()
        try:
            p.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise os_error(exc, p) from None
        run = cls(p)
        lock = run.acquire_lock()  # a second `run` racing for the same empty directory stops here
        try:
            if any(e.name != LOCK for e in p.iterdir()):
                raise ValueError(f"--out {str(p)!r} already exists and is not an empty directory; choose a new one")
            if "digest" not in manifest:
                manifest = {**manifest, "digest": params_digest(manifest["experiment"], manifest["params"],
                                                                manifest["root_seed"])}
            write_json_atomic(run.manifest_path, {"format": FORMAT, **manifest})
            run.records_path.touch()
        except BaseException as exc:
            for f in (run.manifest_path, run.records_path):
                f.unlink(missing_ok=True)
            lock.release()
            if created:
                try:
                    p.rmdir()
                except OSError:
                    pass
            if isinstance(exc, OSError):
                raise os_error(exc, p) from None
            raise
        run.lock = lock
        return run

    @classmethod
    def open(cls, path: str | os.PathLike, max_trials: int | None = None) -> "RunDir":
        """An existing run directory; ValueError if it has no readable manifest of this format with the
        fields a run needs (:func:`check_manifest`; ``max_trials`` bounds its trials)."""
        if not str(path).strip():
            raise StoreError("the run directory is empty: give the directory of a run")
        run = cls(path)
        if not os.path.lexists(run.manifest_path):
            raise ValueError(f"run directory {str(path)!r} has no {MANIFEST}")
        run.check_files()
        check_manifest(run.manifest(), run.manifest_path, max_trials)
        return run

    def check_files(self) -> None:
        """StoreError unless each file of the run that exists is a regular file (no link, FIFO or device), and
        records.jsonl has no other name (a hard link: resume would append to a file elsewhere)."""
        for p in (self.manifest_path, self.records_path, self.summary_path, self.lock_path):
            try:
                st = os.lstat(p)
            except FileNotFoundError:
                continue
            mode = st.st_mode
            if _stat.S_ISLNK(mode):
                raise StoreError(f"{p} is a symbolic link; a run directory's files must be regular files")
            if not _stat.S_ISREG(mode):
                raise StoreError(f"{p} is not a regular file (a FIFO, device or directory); refusing the run directory")
            if p == self.records_path:
                check_single_link(st, p, write=False)

    # -------------------------------------------------------------- manifest

    def manifest(self) -> dict:
        return read_json(self.manifest_path)

    def digest(self) -> str:
        """The digest every record must carry: the manifest's (:func:`expected_digest`)."""
        return expected_digest(self.manifest())

    def digest_problem(self, m: dict | None = None) -> str | None:
        """A line saying the manifest lacks its digest or its params or seed no longer match it, or None."""
        m = self.manifest() if m is None else m
        if not isinstance(m.get("digest"), str):
            return (f"{self.manifest_path}: the manifest lacks its digest (every run has one; without it records of "
                    "other params or another seed could not be told apart)")
        try:
            now_ = params_digest(m.get("experiment"), m.get("params"), m.get("root_seed"))
        except ValueError:
            now_ = None
        if now_ != m.get("digest"):
            return (f"{self.manifest_path}: its params, experiment or root seed were edited after the run started "
                    "(they no longer match its digest); the records belong to the original ones")
        return None

    def update_manifest(self, **changes) -> dict:
        m = self.manifest()
        m.update(changes)
        write_json_atomic(self.manifest_path, m)
        return m

    # -------------------------------------------------------------- records

    def scan_records(self, trials: int | None = None, digest: str | None = None) -> "RecordScan":
        """Every line of records.jsonl judged: valid records, corrupt lines (NaN or infinity, a key twice in one
        object, a line longer than MAX_LINE_BYTES, a conflicting duplicate, a line without the run's digest or
        with another one than ``digest`` when given), indices outside [0, trials) (when ``trials`` is given),
        duplicates, a torn tail. Streams the file in lines of at most MAX_LINE_BYTES and counts the bytes it
        reads (a sparse or growing file is not trusted for its size); never raises on content (StoreError if
        the file is a link, has other names, is not a regular file, or holds more than MAX_RECORDS_BYTES)."""
        scan = RecordScan()
        if not os.path.lexists(self.records_path):
            return scan
        limit, got, longest = _files.MAX_RECORDS_BYTES, 0, _files.MAX_LINE_BYTES
        with open_regular(self.records_path, kind="records") as fh:
            number = 0
            while raw := fh.readline(longest + 1):
                number += 1
                got += len(raw)
                if got > limit:
                    raise StoreError(too_big(self.records_path, got, limit, "records"))
                if len(raw) > longest:  # one endless line (e.g. a sparse file): stop reading here
                    scan.corrupt.append((number, f"longer than {longest:,} bytes (raise the limit with "
                                                 "SIMULATIONS_MAX_LINE_MB if a trial really writes such records)"))
                    break
                if not raw.endswith(b"\n"):  # no newline after it: torn by a kill mid-write (even if it parses)
                    if raw.strip():
                        scan.torn_tail = True
                    break
                if not raw.strip():
                    continue
                try:
                    row = loads(raw)
                    if not isinstance(row, dict):
                        raise TypeError("a line must be a JSON object")
                    index, record = row["index"], row["record"]
                    if isinstance(index, bool) or not isinstance(index, int) or not isinstance(record, dict):
                        raise TypeError("index must be an integer and record an object")
                    if digest is not None and row.get("digest") != digest:
                        raise ValueError("it lacks the run's digest" if "digest" not in row else
                                         f"digest {row.get('digest')!r} is not the manifest's {digest!r} (a record "
                                         "of other params or another seed)")
                except (ValueError, KeyError, TypeError) as exc:
                    scan.corrupt.append((number, f"{type(exc).__name__}: {exc}"))
                    continue
                if index < 0 or (trials is not None and index >= trials):
                    scan.out_of_range.append((number, index))
                    continue
                if index in scan.records:
                    scan.duplicates += 1
                    if dumps(scan.records[index]) != dumps(record):  # true and 1 differ here
                        scan.corrupt.append((number, f"trial {index} recorded twice with different results "
                                                     "(a conflicting duplicate)"))
                    continue
                scan.records[index] = record
        scan.records = dict(sorted(scan.records.items()))
        return scan

    def read_records(self, trials: int | None = None, digest: str | None = None) -> dict[int, dict]:
        """Finished trials as {index: record}, sorted by index; a torn last line is ignored, identical
        duplicates keep the first; a corrupt line (see :meth:`scan_records`) or (with ``trials``) an index
        outside [0, trials) is a ValueError. ``digest`` defaults to the manifest's (:func:`expected_digest`)."""
        if digest is None and os.path.lexists(self.manifest_path):
            digest = self.digest()
        scan = self.scan_records(trials, digest)
        problem = scan.problem(self.records_path)
        if problem:
            raise StoreError(problem)
        return scan.records

    def repair_tail(self) -> int:
        """Cut a torn last line (bytes after the last newline); returns the number of bytes removed."""
        if not os.path.lexists(self.records_path):
            return 0
        with open_regular(self.records_path, kind="records", write=True) as fh:
            size = os.fstat(fh.fileno()).st_size
            if size == 0:
                return 0
            tail = min(size, 1 << 16)
            while True:
                fh.seek(size - tail)
                chunk = fh.read(tail)
                cut = chunk.rfind(b"\n")
                if cut >= 0 or tail == size:
                    break
                tail = min(size, tail * 2)
            keep = (size - tail + cut + 1) if cut >= 0 else 0
            if keep < size:
                fh.truncate(keep)
                fh.flush()
                os.fsync(fh.fileno())
            return size - keep

    def appender(self) -> "RecordAppender":
        """An appender for records.jsonl (after cutting a torn tail)."""
        self.repair_tail()
        return RecordAppender(self.records_path)

    def write_summary(self, summary: dict) -> None:
        write_json_atomic(self.summary_path, summary)

    def summary(self) -> dict | None:
        return read_json(self.summary_path) if os.path.lexists(self.summary_path) else None

    # -------------------------------------------------------------- lock and state

    def acquire_lock(self) -> "RunLock":
        """Take the run's lock (see the module docstring); StoreError naming the holder if it lives."""
        if self.lock is not None:
            return self.lock
        self.lock = RunLock.acquire(self.lock_path)
        return self.lock

    def release_lock(self) -> None:
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def inspect(self, experiment: str | None = None, *, judge: bool = True) -> "RunState":
        """The run judged by its records (module docstring): counts, problems, one state of STATES and, with
        ``judge``, the records' types checked (:func:`record_problems`) and the summary recomputed from them
        (:func:`recompute_summary`; partial when the run is not complete) and compared with a stored one. The
        experiment is looked up by the manifest's name (``experiment``: a module named by the user); when it
        cannot be, nothing is recomputed and ``note`` says why. A corrupt run has no summary."""
        m = self.manifest()
        trials = int(m.get("trials") or 0)
        scan = self.scan_records(trials, expected_digest(m))
        holder, alive = lock_state(self.lock_path)
        if self.lock is not None:  # held by this very process (e.g. status asked from inside a run)
            alive = True
        summary_present = os.path.lexists(self.summary_path)
        problems = [p for p in (self.digest_problem(m), scan.problem(self.records_path)) if p]
        complete = len(scan.records) == trials
        summary, note = None, None
        if judge and not problems:
            summary, note = judge_records(self, m, scan.records, experiment, complete and summary_present, problems)
        orphan = None  # resume may run the missing trials of such a run: its summary is then recomputed
        if summary_present and not complete:
            orphan = (f"{self.summary_path} exists but only {len(scan.records)} of {trials} trials "
                      "have records (the summary is not supported by the records)")
            problems.append(orphan)
        if problems:
            state, summary = "corrupt", None
        elif alive or (holder is not None and alive is None):
            state = "running"
        elif complete and summary_present:
            state = "complete"
        elif m.get("status") == "running":
            state = "stale"
        else:
            state = "interrupted"
        return RunState(state=state, manifest_status=m.get("status"), trials=trials,
                        completed=len(scan.records), missing=trials - len(scan.records),
                        problems=problems, holder=holder, holder_alive=alive, torn_tail=scan.torn_tail,
                        duplicates=scan.duplicates, summary_present=summary_present, summary=summary,
                        note=note, sessions=m.get("sessions", []), orphan_summary=orphan)


@dataclass
class RecordScan:
    """What :meth:`RunDir.scan_records` found in records.jsonl."""

    records: dict[int, dict] = field(default_factory=dict)
    corrupt: list[tuple[int, str]] = field(default_factory=list)      # (line number, why)
    out_of_range: list[tuple[int, int]] = field(default_factory=list)  # (line number, index)
    duplicates: int = 0
    torn_tail: bool = False

    def problem(self, path) -> str | None:
        """One line describing the corruption, or None."""
        parts = []
        if self.corrupt:
            line, why = self.corrupt[0]
            parts.append(f"line {line} is corrupt ({why})" + (f" and {len(self.corrupt) - 1} more lines"
                                                               if len(self.corrupt) > 1 else ""))
        if self.out_of_range:
            line, index = self.out_of_range[0]
            parts.append(f"line {line} has trial index {index} outside the run's range"
                         + (f" ({len(self.out_of_range)} such lines)" if len(self.out_of_range) > 1 else ""))
        return f"{path}: " + "; ".join(parts) if parts else None


@dataclass
class RunState:
    """A run directory judged by its records (:meth:`RunDir.inspect`)."""

    state: str                     # one of STATES
    manifest_status: str | None    # what the manifest claims
    trials: int
    completed: int                 # valid records with an index in [0, trials), duplicates once
    missing: int
    problems: list[str]
    holder: dict | None            # the lock's content, if a lock file exists
    holder_alive: bool | None      # None: held from another host (cannot tell)
    torn_tail: bool
    duplicates: int
    summary_present: bool
    summary: dict | None = None    # recomputed from the records (partial unless complete); None when corrupt
    note: str | None = None        # why no summary was recomputed (the experiment could not be looked up)
    sessions: list = field(default_factory=list)  # the manifest's sessions
    orphan_summary: str | None = None  # the problem "a summary but records missing" (resume recomputes it)

    @property
    def partial(self) -> bool:
        return self.summary is not None and self.state != "complete"

    def elapsed(self) -> tuple[float, str]:
        """(seconds computed, what they cover): a live run counts its open session up to now."""
        return running_seconds(self.sessions, self.state == "running")

    def elapsed_text(self) -> str:
        """The time the run has computed, for people ("30.0 min so far (running now)")."""
        seconds, what = self.elapsed()
        if not self.sessions:
            return "not started"
        return f"{duration_text(seconds)} {what}".strip()

    def describe(self) -> str:
        """One line for people: the state and why (text from the lock file escaped: :func:`printable`)."""
        h = self.holder or {}
        text = {"complete": "complete",
                "running": "running" + (f" (pid {printable(h.get('pid'))} on {printable(h.get('host'))}; wait for it "
                                        "to finish)" if self.holder else ""),
                "stale": "stale: the manifest says running but no process holds the run (killed?); "
                         "resume it",
                "interrupted": "interrupted; resume it",
                "corrupt": "corrupt: " + "; ".join(self.problems)}[self.state]
        return printable(text)


# ---------------------------------------------------------------- lock and appender (in _store_lock)
from simulations._store_lock import (  # noqa: E402,F401  (needs the helpers above; re-exported here)
    RecordAppender, RunLock, _proc_start, holder_alive, lock_state, read_lock,
)


def integrity_problems(path: str | os.PathLike, max_trials: int | None = None) -> list[str]:
    """What is wrong with the run directory ``path``, one line each; [] when nothing is. Never raises on
    content: an unreadable or malformed manifest, a link or FIFO where a file should be, a file above its
    size limit, a missing digest, params or seed edited after the run started, records of other params or
    another seed or without the digest, conflicting duplicates, NaN or infinity, a key twice, values of the wrong
    type, indices out of range, a stored summary the records do not support or give otherwise.
    The report calls it to flag a directory; ``status`` and ``resume`` refuse on the same problems."""
    try:
        run = RunDir.open(path, max_trials=max_trials)
        return list(run.inspect().problems)
    except (ValueError, OSError) as exc:
        return [" ".join(str(exc).split())]


def upgrade(path) -> str:
    """Rewrite the manifest of a run directory of an older format (``simulations-run/1``) as the current one,
    after checking what the new format requires: a manifest digest that matches its params and seed, and every
    record line carrying it. Under the run's lock; StoreError (nothing written) when it cannot be upgraded.
    Returns a line saying what was done."""
    run = RunDir(path)
    if not os.path.lexists(run.manifest_path):
        raise StoreError(f"run directory {str(path)!r} has no {MANIFEST}")
    run.check_files()
    m = run.manifest()
    if not isinstance(m, dict) or m.get("format") not in OLD_FORMATS:
        got = m.get("format") if isinstance(m, dict) else type(m).__name__
        raise StoreError(f"{run.manifest_path}: format {got!r} is not one that upgrade rewrites "
                         f"({', '.join(OLD_FORMATS)})")
    check_manifest({**m, "format": FORMAT}, run.manifest_path, max_trials=2**63)
    problem = run.digest_problem(m)
    if problem:
        raise StoreError(f"cannot upgrade: {problem}; run it again with python -m simulations run")
    run.acquire_lock()
    try:
        scan = run.scan_records(int(m["trials"]), m["digest"])
        bad = scan.problem(run.records_path)
        if bad:
            raise StoreError(f"cannot upgrade: {bad}; run it again with python -m simulations run")
        write_json_atomic(run.manifest_path, {**m, "format": FORMAT, "upgraded_from": m["format"]})
    finally:
        run.release_lock()
    return (f"upgraded {Path(path)} from {m['format']} to {FORMAT} ({len(scan.records)} records, each carrying "
            "the run's digest); its verdict is recomputed from them when shown")
