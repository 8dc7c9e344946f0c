"""One registry of results: every result is declared once, in its paper's module, in paper order."""
from __future__ import annotations

from importlib import import_module

from .core import Result
from .errors import DomainError

#: paper modules in the order the list command shows them
PAPER_MODULES = ("bcmnuw20", "abm19", "lvsuw21", "nb20", "baselines")

_RESULTS: dict[str, Result] = {}
_loaded = False


def register(*results: Result) -> None:
    """Called by a paper module for each of its results, in paper order."""
    for r in results:
        if r.id in _RESULTS:
            raise ValueError(f"result {r.id} registered twice")
        short = r.short_id
        clash = [o.id for o in _RESULTS.values() if o.short_id == short]
        if clash:
            raise ValueError(f"short id {short!r} of {r.id} clashes with {clash[0]}")
        _RESULTS[r.id] = r


def _load() -> None:
    global _loaded
    if _loaded:
        return
    _loaded = True
    for mod in PAPER_MODULES:
        try:
            import_module(f"bounds.papers.{mod}")
        except ModuleNotFoundError as exc:  # a paper module not written yet
            if exc.name != f"bounds.papers.{mod}":
                raise


def all_results() -> list[Result]:
    _load()
    return list(_RESULTS.values())


def get(result_id: str) -> Result:
    """Look a result up by full id (``bcmnuw20:thm10``) or short id (``thm10``)."""
    _load()
    key = result_id.strip().lower()
    if key in _RESULTS:
        return _RESULTS[key]
    for r in _RESULTS.values():
        if r.short_id == key:
            return r
    raise DomainError(f"unknown result id {result_id!r}; `python -m bounds list` shows the "
                      f"{len(_RESULTS)} known ones")
