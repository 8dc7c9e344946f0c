"""The run directory: where a Monte-Carlo run's parameters, records and summary live, written so nothing is lost.

Format (``FORMAT = "simulations-run/1"``)::

    RUN_DIR/
      manifest.json   {"format", "experiment" (name), "module" (import path), "result_ids", "params",
                       "root_seed", "trials", "code_version", "created_at", "status" ("running" |
                       "interrupted" | "complete"), "sessions": [{"started_at", "finished_at",
                       "elapsed_seconds", "backend", "workers", "scheduler", "code_version",
                       "trials_run", and "interrupted" (the error) if it stopped on one}],
                       "finished_at"}
                      written atomically (temporary file in RUN_DIR, fsync, os.replace).
      records.jsonl   one line per finished trial: {"index": i, "record": {...}}, appended in the
                      order trials finish (not index order); each batch is flushed and fsynced.
      summary.json    the experiment's summarise() of all records, written atomically when complete.

      lock.json       while a run or resume computes: {"pid", "host", "started_at", "proc_start"};
                      created exclusively (O_EXCL), removed when the process ends. A second run or
                      resume refuses while the holder lives; a lock whose holder is dead (same host,
                      no such process or a different process start time) is stale and taken over.

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

import datetime as _dt
import json
import os
import socket
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

import numpy as np

FORMAT = "simulations-run/1"
MANIFEST = "manifest.json"
RECORDS = "records.jsonl"
SUMMARY = "summary.json"
LOCK = "lock.json"
#: a lock file that cannot be parsed and is older than this (seconds) was torn by a kill: stale
TORN_LOCK_AGE = 10.0
STATES = ("complete", "running", "stale", "interrupted", "corrupt")


class StoreError(ValueError):
    """A run directory cannot be written or read (one line: the path and the cause)."""


def os_error(exc: OSError, path=None, hint: str = "") -> StoreError:
    """``exc`` as one line naming the path and the cause (e.g. "No space left on device")."""
    where = exc.filename if getattr(exc, "filename", None) else path
    cause = exc.strerror or type(exc).__name__
    return StoreError(f"cannot write {where}: {cause}" + (f"; {hint}" if hint else ""))


def check_writable(directory: str | os.PathLike, what: str = "--out") -> Path:
    """Create ``directory`` (with its parents) if missing and write, fsync and remove a probe file in
    it, before any computing; StoreError naming the path and the cause otherwise."""
    d = Path(directory)
    if not str(directory).strip():
        raise StoreError(f"{what} is empty: give a directory")
    if d.exists() and not d.is_dir():
        raise StoreError(f"{what} {str(d)!r} exists and is not a directory")
    try:
        d.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=d, prefix=".write-probe-")
        try:
            os.write(fd, b"probe\n")
            os.fsync(fd)
        finally:
            os.close(fd)
            os.unlink(probe)
    except OSError as exc:
        raise os_error(exc, d) from None
    return d


def now() -> str:
    """UTC time stamp, ISO 8601."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


def _json_default(obj: Any):
    if isinstance(obj, np.bool_):
        return bool(obj)
    if isinstance(obj, np.integer):
        return int(obj)
    if isinstance(obj, np.floating):
        return float(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, tuple):
        return list(obj)
    raise TypeError(f"object of type {type(obj).__name__} is not JSON-serialisable")


def dumps(obj: Any) -> str:
    """Canonical one-line JSON (sorted keys, numpy converted, NaN/inf refused with ValueError)."""
    try:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=False, default=_json_default)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"value is not JSON-serialisable: {exc}") from None


def encode_record(index: int, record: dict) -> str:
    """One records.jsonl line (with its newline) for trial ``index``."""
    if not isinstance(record, dict):
        raise ValueError(f"trial {index} returned {type(record).__name__}, must return a dict")
    try:
        return dumps({"index": int(index), "record": record}) + "\n"
    except ValueError as exc:
        raise ValueError(f"record of trial {index}: {exc}") from None


def write_json_atomic(path: Path, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` atomically: temporary file in the same directory, fsync, os.replace."""
    path = Path(path)
    text = json.dumps(obj, sort_keys=True, indent=2, allow_nan=False, default=_json_default) + "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def read_json(path: Path) -> Any:
    with open(path) as fh:
        return json.load(fh)


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
    def open(cls, path: str | os.PathLike) -> "RunDir":
        """An existing run directory; ValueError if it has no readable manifest of this format."""
        if not str(path).strip():
            raise StoreError("the run directory is empty: give the directory of a run")
        run = cls(path)
        if not run.manifest_path.is_file():
            raise ValueError(f"run directory {str(path)!r} has no {MANIFEST}")
        try:
            m = run.manifest()
        except json.JSONDecodeError as exc:
            raise ValueError(f"{run.manifest_path}: not valid JSON ({exc})") from None
        if m.get("format") != FORMAT:
            raise ValueError(f"{run.manifest_path}: format {m.get('format')!r}, expected {FORMAT!r}")
        return run

    # -------------------------------------------------------------- manifest

    def manifest(self) -> dict:
        return read_json(self.manifest_path)

    def update_manifest(self, **changes) -> dict:
        m = self.manifest()
        m.update(changes)
        write_json_atomic(self.manifest_path, m)
        return m

    # -------------------------------------------------------------- records

    def scan_records(self, trials: int | None = None) -> "RecordScan":
        """Every line of records.jsonl judged: valid records, corrupt lines, indices outside
        [0, trials) (when ``trials`` is given), duplicates, a torn tail. Never raises on content."""
        scan = RecordScan()
        if not self.records_path.exists():
            return scan
        lines = self.records_path.read_bytes().split(b"\n")
        last = len(lines) - 1
        for number, raw in enumerate(lines):
            if not raw.strip():
                continue
            if number == last:  # no newline after it: torn by a kill mid-write (even if it parses)
                scan.torn_tail = True
                break
            try:
                row = json.loads(raw)
                index, record = row["index"], row["record"]
                if isinstance(index, bool) or not isinstance(index, int) or not isinstance(record, dict):
                    raise TypeError("index must be an integer and record an object")
            except (ValueError, KeyError, TypeError) as exc:
                scan.corrupt.append((number + 1, f"{type(exc).__name__}: {exc}"))
                continue
            if index < 0 or (trials is not None and index >= trials):
                scan.out_of_range.append((number + 1, index))
                continue
            if index in scan.records:
                scan.duplicates += 1
                continue
            scan.records[index] = record
        scan.records = dict(sorted(scan.records.items()))
        return scan

    def read_records(self, trials: int | None = None) -> dict[int, dict]:
        """Finished trials as {index: record}, sorted by index; a torn last line is ignored, duplicates
        keep the first; a corrupt line or (with ``trials``) an index outside [0, trials) is a ValueError."""
        scan = self.scan_records(trials)
        problem = scan.problem(self.records_path)
        if problem:
            raise StoreError(problem)
        return scan.records

    def repair_tail(self) -> int:
        """Cut a torn last line (bytes after the last newline); returns the number of bytes removed."""
        if not self.records_path.exists():
            return 0
        size = self.records_path.stat().st_size
        if size == 0:
            return 0
        with open(self.records_path, "rb+") as fh:
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
        return read_json(self.summary_path) if self.summary_path.exists() else None

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

    def inspect(self) -> "RunState":
        """The run judged by its records (module docstring): counts, problems and one state of STATES."""
        m = self.manifest()
        trials = int(m.get("trials") or 0)
        scan = self.scan_records(trials)
        holder, alive = lock_state(self.lock_path)
        if self.lock is not None:  # held by this very process (e.g. status asked from inside a run)
            alive = True
        summary_present = self.summary_path.exists()
        problems = []
        p = scan.problem(self.records_path)
        if p:
            problems.append(p)
        complete = len(scan.records) == trials
        if summary_present and not complete:
            problems.append(f"{self.summary_path} exists but only {len(scan.records)} of {trials} trials "
                            "have records (the summary is not supported by the records)")
        if problems:
            state = "corrupt"
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
                        duplicates=scan.duplicates, summary_present=summary_present)


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

    def describe(self) -> str:
        """One line for people: the state and why."""
        text = {"complete": "complete",
                "running": "running" + (f" (pid {self.holder.get('pid')} on {self.holder.get('host')})"
                                        if self.holder else ""),
                "stale": "stale: the manifest says running but no process holds the run (killed?); "
                         "resume it",
                "interrupted": "interrupted; resume it",
                "corrupt": "corrupt: " + "; ".join(self.problems)}[self.state]
        return text


# ---------------------------------------------------------------- lock


def _proc_start(pid: int) -> str | None:
    """The start time of process ``pid`` (Linux /proc, clock ticks since boot), to tell a reused pid apart."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            data = fh.read().decode(errors="replace")
        return data.rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return None


def read_lock(path: Path) -> dict | None:
    """The lock file's content; {} if it exists but cannot be parsed (torn); None if there is none."""
    try:
        raw = Path(path).read_text()
    except FileNotFoundError:
        return None
    except OSError:
        return {}
    try:
        data = json.loads(raw)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def lock_state(path: Path) -> tuple[dict | None, bool | None]:
    """(holder, alive) of a lock file: holder None if there is no lock; alive True / False, or None
    when it cannot be told (held from another host, or a torn lock file younger than TORN_LOCK_AGE)."""
    holder = read_lock(path)
    if holder is None:
        return None, False
    if holder == {}:
        try:
            young = time.time() - Path(path).stat().st_mtime < TORN_LOCK_AGE
        except FileNotFoundError:
            return None, False
        return holder, (None if young else False)
    return holder, holder_alive(holder)


def holder_alive(holder: dict) -> bool | None:
    """True if the lock's holder runs, False if it is gone, None if it holds from another host."""
    if holder.get("host") != socket.gethostname():
        return None
    pid = holder.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass  # exists, someone else's
    start = holder.get("proc_start")
    return not (start is not None and _proc_start(pid) not in (None, start))


class RunLock:
    """The lock file of a run directory, held by this process (see the module docstring)."""

    def __init__(self, path: Path, content: dict):
        self.path = path
        self.content = content

    @classmethod
    def acquire(cls, path: Path) -> "RunLock":
        path = Path(path)
        me = {"pid": os.getpid(), "host": socket.gethostname(), "started_at": now(),
              "proc_start": _proc_start(os.getpid())}
        for _ in range(3):
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            except FileExistsError:
                holder, alive = lock_state(path)
                if holder is None:
                    continue  # released meanwhile: try again
                if alive is False:
                    # stale: move it aside under a unique name (of two racers only one moves it), and
                    # put it back if what was moved is not the lock judged stale (a racer's fresh one)
                    aside = path.with_name(f".{path.name}.stale-{os.getpid()}")
                    try:
                        os.replace(path, aside)
                        if read_lock(aside) != holder:
                            os.replace(aside, path)
                        else:
                            os.unlink(aside)
                    except FileNotFoundError:
                        pass
                    except OSError as exc:
                        raise os_error(exc, path) from None
                    continue
                who = (f"pid {holder.get('pid')} on {holder.get('host')} since {holder.get('started_at')}"
                       if holder else "a process whose lock file is being written")
                raise StoreError(f"run directory {str(path.parent)!r} is in use by {who}; wait for it to "
                                 f"finish (if that process is gone, delete {path})")
            except OSError as exc:
                raise os_error(exc, path) from None
            try:
                with os.fdopen(fd, "w") as fh:
                    fh.write(json.dumps(me) + "\n")
                    fh.flush()
                    os.fsync(fh.fileno())
            except OSError as exc:
                Path(path).unlink(missing_ok=True)
                raise os_error(exc, path) from None
            return cls(path, me)
        raise StoreError(f"could not take the lock {path}: it changed hands repeatedly; try again")

    def release(self) -> None:
        """Remove the lock file if it is still ours."""
        if read_lock(self.path) == self.content:
            try:
                self.path.unlink()
            except FileNotFoundError:
                pass


class RecordAppender:
    """Appends encoded lines to records.jsonl; each :meth:`write` batch is flushed and fsynced before returning."""

    def __init__(self, path: Path):
        self._fh = open(path, "ab")

    def write(self, lines: Iterable[str]) -> None:
        payload = "".join(lines).encode()
        if payload:
            self._fh.write(payload)
            self._fh.flush()
            os.fsync(self._fh.fileno())

    def close(self) -> None:
        self._fh.close()

    def __enter__(self) -> "RecordAppender":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
