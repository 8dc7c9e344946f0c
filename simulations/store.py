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

Reading records: a last line without its newline or that does not parse (a write torn by a kill)
is ignored, any other bad line is an error, and a repeated index keeps its first record, so a
resumed run never double-counts. Before appending, a torn tail is cut off (truncate to the last
newline) so the next line starts clean.
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable

import numpy as np

FORMAT = "simulations-run/1"
MANIFEST = "manifest.json"
RECORDS = "records.jsonl"
SUMMARY = "summary.json"


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

    @property
    def manifest_path(self) -> Path:
        return self.path / MANIFEST

    @property
    def records_path(self) -> Path:
        return self.path / RECORDS

    @property
    def summary_path(self) -> Path:
        return self.path / SUMMARY

    # -------------------------------------------------------------- creation

    @classmethod
    def create(cls, path: str | os.PathLike, manifest: dict) -> "RunDir":
        """Create a new run directory with its manifest; ValueError if ``path`` exists and is not an empty directory."""
        p = Path(path)
        if p.exists() and (not p.is_dir() or any(p.iterdir())):
            raise ValueError(f"--out {str(p)!r} already exists and is not an empty directory; choose a new one")
        created = not p.exists()
        p.mkdir(parents=True, exist_ok=True)
        run = cls(p)
        try:
            write_json_atomic(run.manifest_path, {"format": FORMAT, **manifest})
            run.records_path.touch()
        except BaseException:
            for f in (run.manifest_path, run.records_path):
                f.unlink(missing_ok=True)
            if created:
                p.rmdir()
            raise
        return run

    @classmethod
    def open(cls, path: str | os.PathLike) -> "RunDir":
        """An existing run directory; ValueError if it has no readable manifest of this format."""
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

    def read_records(self) -> dict[int, dict]:
        """Finished trials as {index: record}, sorted by index; a torn last line is ignored, duplicates keep the first."""
        if not self.records_path.exists():
            return {}
        data = self.records_path.read_bytes()
        lines = data.split(b"\n")
        out: dict[int, dict] = {}
        last = len(lines) - 1
        for number, raw in enumerate(lines):
            if not raw.strip():
                continue
            try:
                row = json.loads(raw)
                index, record = int(row["index"]), row["record"]
            except (ValueError, KeyError, TypeError) as exc:
                if number == last:  # no newline after it: torn by a kill mid-write
                    break
                raise ValueError(f"{self.records_path}: line {number + 1} is corrupt ({exc})") from None
            if number == last:  # parsed but has no newline: treat as torn too (its write may be incomplete)
                break
            out.setdefault(index, record)
        return dict(sorted(out.items()))

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
