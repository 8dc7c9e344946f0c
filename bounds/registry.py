"""One registry of results: every result is declared once, in its paper's module, in paper order."""
from __future__ import annotations

from importlib import import_module

from .core import Result
from .errors import DomainError
from .references import PAPERS

#: paper modules in the order the list command shows them: the one list of papers (``references.PAPERS``),
#: then the trivial baselines
PAPER_MODULES = tuple(key.lower() for key in PAPERS) + ("baselines",)

class Registry:
    """Items declared once by key in a package's per-paper modules, which are imported on first use
    (in paper order; a paper module not written yet is skipped). The one registry helper of the
    workbench: ``bounds`` registers results with it, ``proofs_checks`` its checks."""

    def __init__(self, package: str, modules: tuple[str, ...], kind: str):
        self.package, self.modules, self.kind = package, modules, kind
        self.items: dict = {}
        self._loaded = False

    def add(self, key: str, item) -> None:
        if key in self.items:
            raise ValueError(f"{self.kind} {key} registered twice")
        self.items[key] = item

    def load(self) -> dict:
        """The items, after importing the paper modules once."""
        if not self._loaded:
            self._loaded = True
            for mod in self.modules:
                try:
                    import_module(f"{self.package}.{mod}")
                except ModuleNotFoundError as exc:  # a paper module not written yet
                    if exc.name != f"{self.package}.{mod}":
                        raise
        return self.items


RESULTS = Registry("bounds.papers", PAPER_MODULES, "result")
_RESULTS: dict[str, Result] = RESULTS.items


def register(*results: Result) -> None:
    """Called by a paper module for each of its results, in paper order."""
    for r in results:
        short = r.short_id
        clash = [o.id for o in _RESULTS.values() if o.short_id == short and o.id != r.id]
        if clash:
            raise ValueError(f"short id {short!r} of {r.id} clashes with {clash[0]}")
        RESULTS.add(r.id, r)


def _load() -> None:
    RESULTS.load()


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
    from .where import experiment_result  # an experiment's name (thm3_1) where it names one result

    named, rids = experiment_result(key)
    if named is not None and named in _RESULTS:
        return _RESULTS[named]
    hint = (f"; experiment {key} validates {', '.join(rids)}: name one of them" if rids else "")
    raise DomainError(f"unknown result id {result_id!r}{hint}; `python -m bounds list` shows the "
                      f"{len(_RESULTS)} known ones")
