"""Writing result files so that a reader never sees half of one, shared by every layer above ``bounds`` (the run
store of simulations, the saved proof-check results of proofs_checks): check a directory is writable before
computing, write JSON through a temporary file in the same directory (fsync, then rename), and one line naming
the path and the cause when the system refuses. Standard library only; ``bounds`` imports no other package."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Callable


def os_error(exc: OSError, path=None, hint: str = "", error: type = ValueError) -> ValueError:
    """``exc`` as one line naming the path and the cause (e.g. "No space left on device"), as ``error``."""
    where = exc.filename if getattr(exc, "filename", None) else path
    cause = exc.strerror or type(exc).__name__
    return error(f"cannot write {where}: {cause}" + (f"; {hint}" if hint else ""))


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def readable_mode(path) -> None:
    """Give a file written through ``mkstemp`` (owner-only) the mode an ordinary ``open`` would: 0o666
    less the user's umask."""
    os.chmod(path, 0o666 & ~_umask())


def check_writable(directory: str | os.PathLike, what: str = "--out", error: type = ValueError) -> Path:
    """Create ``directory`` (with its parents) if missing and write, fsync and remove a probe file in
    it, before any computing; ``error`` naming the path and the cause otherwise."""
    d = Path(directory)
    if not str(directory).strip():
        raise error(f"{what} is empty: give a directory")
    if d.exists() and not d.is_dir():
        raise error(f"{what} {str(d)!r} exists and is not a directory")
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
        raise os_error(exc, d, error=error) from None
    return d


def write_json_atomic(path: Path, obj: Any, default: Callable | None = None) -> None:
    """Write ``obj`` as JSON to ``path`` atomically: temporary file in the same directory, fsync, os.replace,
    which replaces the name: a symbolic or hard link at ``path`` is replaced, never written through, so nothing
    outside the directory changes (``default``: json's hook for values it cannot encode; NaN and infinity refused)."""
    path = Path(path)
    text = json.dumps(obj, sort_keys=True, indent=2, allow_nan=False, default=default) + "\n"
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
