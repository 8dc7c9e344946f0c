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


def lazy_exports(package: str, exports: dict[str, str]):
    """``(__getattr__, __dir__)`` for a package that exports ``{name: submodule}`` without importing the
    submodules at its own import (PEP 562): ``from algorithms.learning import a_sspp`` imports ``sspp`` then.
    A name equal to a submodule's is refused, so no export hides a module."""
    clash = sorted(set(exports) & set(exports.values()))
    if clash:
        raise ValueError(f"{package}: exports {clash} would hide the submodules of the same name")

    def __getattr__(name: str):
        if name in exports:
            return getattr(importlib.import_module(f"{package}.{exports[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted(set(exports) | set(exports.values()))

    return __getattr__, __dir__
