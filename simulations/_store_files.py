"""Files of a results tree read and written as untrusted: the file side of :mod:`simulations.store`, which
re-exports every name here (import them from there). The one low module of the store's file helpers: the store,
its lock half (:mod:`simulations._store_lock`) and its judging half (:mod:`simulations._store_judge`) import it,
and it imports none of them. The limits (:data:`MAX_JSON_BYTES`, :data:`MAX_RECORDS_BYTES`,
:data:`MAX_LINE_BYTES`), :data:`TORN_LOCK_AGE` and :func:`now` live here and are read from here when used, so
a test lowers or replaces them here. Writing (the atomic JSON writer, the writability probe, the file mode) is
:mod:`bounds.files`, shared with proofs_checks; this module calls it with :class:`StoreError`.

Source: the run-directory format of :mod:`simulations.store`. Rules, each enforced here once:

* Opened without following a symbolic link (``O_NOFOLLOW``) and refused unless a regular file (no FIFO,
  device or directory); written (appended, truncated) only when it has one name (link count 1), so nothing
  outside a run directory is changed through a hard link; ``records.jsonl`` is refused on reading too when
  it has other names.
* Read against a cap on the bytes actually read (:func:`read_capped`, a bounded loop): neither a sparse file
  (whose size costs no disk) nor a file growing while it is read is trusted for its ``st_size``.
* :func:`walk`: the one walker of a results tree. Never follows a symbolic link, never visits a directory twice
  (by ``(st_dev, st_ino)``: a bind mount or a loop), and says so in a note for each link to a directory or
  second visit it skips.
* :func:`printable`: control characters of text read from a file escaped before it is printed.
"""

from __future__ import annotations

import datetime as _dt
import errno
import json
import os
import re
import stat as _stat
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from bounds import files
from bounds.files import _umask, readable_mode  # noqa: F401  (re-exported: the store's files follow the umask)
from simulations._records import strict_loads

#: a lock file that cannot be parsed and is older than this (seconds) was torn by a kill: stale
TORN_LOCK_AGE = 10.0
#: JSON files (manifest, summary, lock, search) larger than this are refused unread
MAX_JSON_BYTES = int(float(os.environ.get("SIMULATIONS_MAX_JSON_MB", "64")) * 2**20)
#: records.jsonl larger than this is refused unread (about a million ordinary records)
MAX_RECORDS_BYTES = int(float(os.environ.get("SIMULATIONS_MAX_RECORDS_MB", "1024")) * 2**20)
#: one line of records.jsonl longer than this is corrupt (a record the writer would not write; raise it with
#: SIMULATIONS_MAX_LINE_MB): a file of one endless line (e.g. sparse) is refused after this many bytes
MAX_LINE_BYTES = int(float(os.environ.get("SIMULATIONS_MAX_LINE_MB", "8")) * 2**20)
_LIMIT_ENV = {"json": "SIMULATIONS_MAX_JSON_MB", "records": "SIMULATIONS_MAX_RECORDS_MB"}
#: the deepest directory below a results root that :func:`walk` enters
MAX_WALK_DEPTH = 32


class StoreError(ValueError):
    """A run directory cannot be written or read (one line: the path and the cause)."""


def os_error(exc: OSError, path=None, hint: str = "") -> StoreError:
    """``exc`` as one line naming the path and the cause (e.g. "No space left on device"): :func:`bounds.files.os_error`
    as a StoreError."""
    return files.os_error(exc, path, hint, error=StoreError)


def now() -> str:
    """UTC time stamp, ISO 8601."""
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="milliseconds")


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text) -> str:
    """``text`` with every control character (C0 but newline and tab, DEL, C1, bidirectional overrides)
    escaped as ``\\xNN`` / ``\\uNNNN``: what a terminal prints of a file's content is its characters, never an
    escape sequence that it obeys."""
    def esc(m):
        c = ord(m.group())
        return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"

    return _CONTROL.sub(esc, str(text))


def _limit(kind: str) -> int:
    return MAX_RECORDS_BYTES if kind == "records" else MAX_JSON_BYTES  # read when used: tests lower them here


def check_single_link(st, path, write: bool) -> None:
    """StoreError if the file of ``st`` has other names (a hard link): writing it would change them too."""
    if st.st_nlink > 1:
        raise StoreError(f"{path} has {st.st_nlink} hard links (other names elsewhere); refusing to "
                         f"{'write' if write else 'read'} it: copy it (cp, not ln or cp -l) to give the run "
                         "its own file")


def open_regular(path, *, limit: int | None = None, kind: str = "json", write: bool = False):
    """``path`` opened without following a symbolic link and without blocking, refused (StoreError) unless
    it is a regular file of at most ``limit`` bytes (MAX_JSON_BYTES / MAX_RECORDS_BYTES by ``kind``), with
    one name when written or when it is a records file. Binary file object, read-only, or read-write
    (``write``: positioned at the start, no truncation). Its size is checked here once; readers still cap
    the bytes they read (:func:`read_capped`), since a file may grow."""
    if limit is None:
        limit = _limit(kind)
    flags = (os.O_RDWR if write else os.O_RDONLY) | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise StoreError(f"{path} is a symbolic link; a run directory's files must be regular files") from None
        raise
    try:
        st = os.fstat(fd)
        if not _stat.S_ISREG(st.st_mode):
            raise StoreError(f"{path} is not a regular file (a FIFO, device or directory); refusing to "
                             f"{'write' if write else 'read'} it")
        if write or kind == "records":
            check_single_link(st, path, write)
        if not write and st.st_size > limit:
            raise StoreError(too_big(path, st.st_size, limit, kind))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb+" if write else "rb")
    except BaseException:
        os.close(fd)
        raise


def too_big(path, size, limit: int, kind: str) -> str:
    return (f"{path} is {size:,} bytes or more, above the limit of {limit:,} for this file; raise it with the "
            f"environment variable {_LIMIT_ENV[kind]} (in MB)")


def read_capped(fh, limit: int, path, kind: str = "json") -> bytes:
    """At most ``limit`` bytes of ``fh``, read in a bounded loop (never sized by ``st_size``); StoreError if
    there are more."""
    parts, got = [], 0
    while True:
        chunk = fh.read(min(1 << 20, limit + 1 - got))
        if not chunk:
            return b"".join(parts)
        parts.append(chunk)
        got += len(chunk)
        if got > limit:
            raise StoreError(too_big(path, got, limit, kind))


def loads(raw) -> Any:
    """JSON from untrusted bytes: NaN, infinity (also ``1e999``) and a key twice in one object refused,
    nesting too deep a ValueError (:func:`simulations._records.strict_loads`)."""
    return strict_loads(raw)


def read_json(path: Path, limit: int | None = None) -> Any:
    """A JSON file of a results tree, read as untrusted (:func:`open_regular`, :func:`read_capped`, :func:`loads`)."""
    limit = _limit("json") if limit is None else limit
    with open_regular(path, limit=limit) as fh:
        raw = read_capped(fh, limit, path)
    try:
        return loads(raw)
    except ValueError as exc:
        raise StoreError(f"{path}: not valid JSON ({exc})") from None


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


def write_json_atomic(path: Path, obj: Any) -> None:
    """Write ``obj`` as JSON to ``path`` atomically, numpy values converted: :func:`bounds.files.write_json_atomic`
    (temporary file in the same directory, fsync, os.replace, which replaces the name: a link at ``path`` is
    replaced, never written through)."""
    files.write_json_atomic(path, obj, default=_json_default)


def check_writable(directory: str | os.PathLike, what: str = "--out") -> Path:
    """Create ``directory`` (with its parents) if missing and write, fsync and remove a probe file in
    it, before any computing; StoreError naming the path and the cause otherwise
    (:func:`bounds.files.check_writable`)."""
    return files.check_writable(directory, what, error=StoreError)


def walk(root, notes: list | None = None, max_depth: int = MAX_WALK_DEPTH) -> Iterator[tuple[Path, list[Path]]]:
    """Every directory of the results tree ``root`` (itself first, then depth first in name order) with its
    entries sorted by name: ``(directory, [entry paths])``. Symbolic links are never followed (a link to a
    directory, e.g. ``loop -> .`` or a link to ``/``, is skipped with a note in ``notes``); a directory reached
    twice (same ``(st_dev, st_ino)``) is visited once; hidden directories (``.name``) are not entered."""
    notes = [] if notes is None else notes
    seen: set[tuple[int, int]] = set()
    stack = [(Path(root), 0)]
    while stack:
        d, depth = stack.pop()
        try:
            st = os.stat(d) if depth == 0 else os.lstat(d)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in seen:
            notes.append(f"{d}: the same directory as one already read (a loop or a second path to it); skipped")
            continue
        seen.add((st.st_dev, st.st_ino))
        try:
            with os.scandir(d) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        yield d, [Path(e.path) for e in entries]
        below = []
        for e in entries:
            try:
                if e.is_symlink():
                    if os.path.isdir(e.path):
                        notes.append(f"{e.path}: a symbolic link to a directory ({printable(os.readlink(e.path))}); "
                                     "not followed")
                    continue
                if e.is_dir(follow_symlinks=False) and not e.name.startswith("."):
                    below.append(Path(e.path))
            except OSError:
                continue
        if below and depth + 1 > max_depth:
            notes.append(f"{d}: deeper than {max_depth} directories below {root}; not read further")
            continue
        stack.extend((p, depth + 1) for p in reversed(below))
