"""Connecting to a Dask scheduler for the runner's ``dask`` backend: the address is checked and probed before
anything waits, and a failed connection is one line. Re-exported by :mod:`simulations.runner`, the import path
to use."""

from __future__ import annotations

import re
import sys
from pathlib import Path

#: what a Dask scheduler address looks like: [protocol://]host[:port] (or a scheduler JSON file)
_SCHEDULER_RE = re.compile(r"^((tcp|tls|inproc|ucx|ws|wss)://)?(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+)(:\d{1,5})?/?$")


def check_scheduler_address(scheduler: str) -> str:
    """``scheduler`` if it looks like a Dask scheduler address (tcp://host:port, host:port, or an
    existing scheduler JSON file); ValueError otherwise, before anything connects or waits."""
    text = str(scheduler).strip()
    if text.endswith(".json") and Path(text).is_file():
        return text
    m = _SCHEDULER_RE.match(text)
    if not text or m is None or (m.group(4) and not 0 < int(m.group(4)[1:]) < 65536):
        raise ValueError(f"--scheduler {scheduler!r} is not a Dask scheduler address "
                         "(expected tcp://host:port, host:port or a scheduler JSON file)")
    if m.group(4) is None and m.group(2) not in ("inproc", "ucx"):
        raise ValueError(f"--scheduler {scheduler!r} has no port (expected tcp://host:port or host:port)")
    return text


def _probe(address: str, timeout: float) -> None:
    """Fail fast, in one line, when nothing listens at a tcp address (distributed would wait, then print
    a traceback from its half-built Client's finaliser)."""
    import socket

    m = _SCHEDULER_RE.match(address)
    if m is None or m.group(2) not in (None, "tcp") or m.group(4) is None:
        return
    host = m.group(3).strip("[]")
    try:
        socket.create_connection((host, int(m.group(4)[1:])), timeout=timeout).close()
    except OSError as exc:
        raise ValueError(f"--scheduler {address!r}: cannot connect ({exc.strerror or type(exc).__name__}); is a "
                         "Dask scheduler running there?") from None


def connect(scheduler, timeout: float = 10.0):
    """A ``distributed.Client`` for a scheduler address (dask imported only here); ValueError if it cannot connect."""
    if isinstance(scheduler, str):
        scheduler = check_scheduler_address(scheduler)
        _probe(scheduler, timeout)
    try:
        from distributed import Client
    except ImportError as exc:  # pragma: no cover - dask is in the dev and cluster extras
        raise ValueError(
            f"--scheduler needs dask distributed (pip install 'pubpriv-workbench[cluster]'): {exc}") from None
    is_file = isinstance(scheduler, str) and scheduler.endswith(".json")
    try:
        if is_file:  # a scheduler file (dask scheduler --scheduler-file) is not an address
            return Client(scheduler_file=scheduler, timeout=timeout, set_as_default=False)
        return Client(scheduler, timeout=timeout, set_as_default=False)
    except Exception as exc:  # distributed raises OSError, TimeoutError, ValueError and its own errors
        error = ValueError(f"--scheduler {scheduler!r}: cannot connect "
                           f"({type(exc).__name__}: {' '.join(str(exc).split())[:200]})")
    _quiet_finalisers()  # outside the except block: the traceback no longer holds the half-built Client
    raise error


def _quiet_finalisers() -> None:
    """Collect a half-built Client now, its finaliser's complaint silenced (it is the error just reported)."""
    import gc

    hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: None
    try:
        gc.collect()
    finally:
        sys.unraisablehook = hook
