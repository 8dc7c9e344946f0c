"""Files of a results tree read and written as untrusted: the file side of :mod:`simulations.store`, which
re-exports every name here (import them from there).

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

import errno
import json
import os
import re
import stat as _stat
import tempfile
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from simulations._records import strict_loads

_LIMIT_ENV = {"json": "SIMULATIONS_MAX_JSON_MB", "records": "SIMULATIONS_MAX_RECORDS_MB"}
#: the deepest directory below a results root that :func:`walk` enters
MAX_WALK_DEPTH = 32


class StoreError(ValueError):
    """A run directory cannot be written or read (one line: the path and the cause)."""


def os_error(exc: OSError, path=None, hint: str = "") -> StoreError:
    """``exc`` as one line naming the path and the cause (e.g. "No space left on device")."""
    where = exc.filename if getattr(exc, "filename", None) else path
    cause = exc.strerror or type(exc).__name__
    return StoreError(f"cannot write {where}: {cause}" + (f"; {hint}" if hint else ""))


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def printable(text) -> str:
    """``text`` with every control character (C0 but newline and tab, DEL, C1, bidirectional overrides)
    escaped as ``\\xNN`` / ``\\uNNNN``: what a terminal prints of a file's content is its characters, never an
    escape sequence that it obeys."""
    def esc(m):
        c = ord(m.group())
        return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"

    return _CONTROL.sub(esc, str(text))


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def readable_mode(path) -> None:
    """Give a file written through ``mkstemp`` (owner-only) the mode an ordinary ``open`` would: 0o666
    less the user's umask."""
    os.chmod(path, 0o666 & ~_umask())


def _limit(kind: str) -> int:
    from simulations import store  # the limits live there (and tests lower them there)

    return store.MAX_RECORDS_BYTES if kind == "records" else store.MAX_JSON_BYTES


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
    """Write ``obj`` as JSON to ``path`` atomically: temporary file in the same directory, fsync, os.replace
    (which replaces the name: a link at ``path`` is replaced, never written through)."""
    path = Path(path)
    text = json.dumps(obj, sort_keys=True, indent=2, allow_nan=False, default=_json_default) + "\n"
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        readable_mode(tmp)  # mkstemp makes owner-only files; results are read by others
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


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
