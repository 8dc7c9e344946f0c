"""The run store's file helpers that both halves of the store use (simulations.store, and its lock and appender in
simulations._store_lock): the size limits, the one error type, opening a file as untrusted, parsing untrusted JSON,
time stamps. Kept apart so that the lock half imports them from here instead of from the store that imports it;
import them from simulations.store, which re-exports every name here."""
from __future__ import annotations

import datetime as _dt
import json
import os
import stat as _stat
from typing import Any

#: a lock file that cannot be parsed and is older than this (seconds) was torn by a kill: stale
TORN_LOCK_AGE = 10.0
#: JSON files (manifest, summary, lock, search) larger than this are refused unread
MAX_JSON_BYTES = int(float(os.environ.get("SIMULATIONS_MAX_JSON_MB", "64")) * 2**20)
#: records.jsonl larger than this is refused unread (about a million ordinary records)
MAX_RECORDS_BYTES = int(float(os.environ.get("SIMULATIONS_MAX_RECORDS_MB", "1024")) * 2**20)
_LIMIT_ENV = {"json": "SIMULATIONS_MAX_JSON_MB", "records": "SIMULATIONS_MAX_RECORDS_MB"}



class StoreError(ValueError):
    """A run directory cannot be written or read (one line: the path and the cause)."""


def os_error(exc: OSError, path=None, hint: str = "") -> StoreError:
    """``exc`` as one line naming the path and the cause (e.g. "No space left on device")."""
    where = exc.filename if getattr(exc, "filename", None) else path
    cause = exc.strerror or type(exc).__name__
    return StoreError(f"cannot write {where}: {cause}" + (f"; {hint}" if hint else ""))


def open_regular(path, *, limit: int | None = None, kind: str = "json", write: bool = False):
    """``path`` opened without following a symbolic link and without blocking, refused (StoreError) unless
    it is a regular file of at most ``limit`` bytes (MAX_JSON_BYTES / MAX_RECORDS_BYTES by ``kind``). Binary
    file object, read-only, or read-write (``write``: positioned at the start, no truncation)."""
    if limit is None:
        limit = MAX_RECORDS_BYTES if kind == "records" else MAX_JSON_BYTES
    flags = (os.O_RDWR if write else os.O_RDONLY) | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        import errno

        if exc.errno == errno.ELOOP:
            raise StoreError(f"{path} is a symbolic link; a run directory's files must be regular files") from None
        raise
    try:
        st = os.fstat(fd)
        if not _stat.S_ISREG(st.st_mode):
            raise StoreError(f"{path} is not a regular file (a FIFO, device or directory); refusing to "
                             f"{'write' if write else 'read'} it")
        if not write and st.st_size > limit:
            raise StoreError(f"{path} is {st.st_size:,} bytes, above the limit of {limit:,} for this file; "
                             f"raise it with the environment variable {_LIMIT_ENV[kind]} (in MB)")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb+" if write else "rb")
    except BaseException:
        os.close(fd)
        raise


def _refuse_constant(name):
    raise ValueError(f"{name} is not allowed (the writer refuses NaN and infinity)")


def loads(raw) -> Any:
    """JSON from untrusted bytes or text: NaN / Infinity refused, nesting too deep a ValueError."""
    try:
        return json.loads(raw, parse_constant=_refuse_constant)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


def now() -> str:
    """UTC time stamp, ISO 8601."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")
