"""Modules imported on first use (so that every `list` / `--help` starts in under a second).

``special = lazy_module("scipy.special")`` at the top of a module costs nothing; the first
``special.logsumexp(...)`` imports scipy.special. Command lines that only list names never pay
for scipy (about a second to import)."""
from __future__ import annotations

import importlib
from types import ModuleType


class _LazyModule:
    __slots__ = ("_name", "_module")

    def __init__(self, name: str):
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attr):
        if self._module is None:
            self._module = importlib.import_module(self._name)
        return getattr(self._module, attr)

    def __repr__(self) -> str:
        return f"<lazy module {self._name}{' (imported)' if self._module is not None else ''}>"


def lazy_module(name: str):
    """A stand-in for ``import name`` that imports the module on its first attribute access."""
    return _LazyModule(name)
