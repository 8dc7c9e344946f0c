"""The run directory's lock file (who holds it, whether that process is alive, taking and releasing it) and the
appender of records.jsonl: the write side of simulations.store, which re-exports every name here. Import them
from simulations.store; the file helpers both halves use (and the limits and clock tests patch) are in
simulations._store_files, below both."""

from __future__ import annotations

import json
import os
import socket
import stat as _stat
import time
from pathlib import Path
from typing import Iterable

from simulations import _store_files as _files
from simulations._store_files import StoreError, check_single_link, loads, open_regular, os_error, printable


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
        with open_regular(path, limit=1 << 16) as fh:  # StoreError for a link, FIFO, device or a huge file
            raw = fh.read()
    except FileNotFoundError:
        return None
    except StoreError:
        raise
    except OSError:
        return {}
    try:
        data = loads(raw)
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
            young = time.time() - Path(path).stat().st_mtime < _files.TORN_LOCK_AGE
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
        me = {"pid": os.getpid(), "host": socket.gethostname(), "started_at": _files.now(),
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
                who = (printable(f"pid {holder.get('pid')} on {holder.get('host')} since {holder.get('started_at')}")
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
    """Appends encoded lines to records.jsonl (opened without following a link, refused unless a regular file
    with one name); each :meth:`write` batch is flushed and fsynced before returning."""

    def __init__(self, path: Path):
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK
                     | getattr(os, "O_CLOEXEC", 0), 0o666)
        try:
            st = os.fstat(fd)
            if not _stat.S_ISREG(st.st_mode):
                raise StoreError(f"{path} is not a regular file; refusing to append to it")
            check_single_link(st, path, write=True)  # a hard link: the append would land in a file elsewhere
        except BaseException:
            os.close(fd)
            raise
        os.set_blocking(fd, True)
        self._fh = os.fdopen(fd, "ab")

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
