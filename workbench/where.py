"""Where every result lives outside ``bounds``, generated from the registries themselves and written to
``bounds/where.json``, which ``python -m bounds show ID`` reads (as ``bounds/forms.json`` and docs/ERRATA.md are
generated; tests/bounds/test_where.py holds the file equal to a fresh collection)::

    python -m workbench.where            # print it
    python -m workbench.where --write    # rewrite bounds/where.json

Kinds: the algorithms that realise a result (a module's ``REALISES``), the experiments that validate it (their
declaration's ``results``), the proof checks of its steps (``Check(result=...)``), the audit targets of its
algorithms (``AuditTarget(results=...)``), and the report sections that name it, one of its experiments or one of
its audit targets among their code's string constants (read from the imported modules' code objects). Beside them,
per experiment: the report section that answers for its runs (its declared ``section``) and its default
parameters, which the report reads from here instead of importing the experiments.
"""
from __future__ import annotations

import importlib
import json
import pkgutil
import types

KINDS = ("algorithm", "experiment", "proof checks", "audit targets", "report section")


def _add(out: dict, kind: str, rid: str, what: str) -> None:
    entries = out[kind].setdefault(rid, [])
    if what not in entries:
        entries.append(what)


def _algorithms(out: dict) -> None:
    import algorithms

    for info in pkgutil.walk_packages(algorithms.__path__, "algorithms."):
        if info.name.rsplit(".", 1)[-1].startswith("_kernels"):
            continue
        module = importlib.import_module(info.name)
        for rid in getattr(module, "REALISES", ()):
            _add(out, "algorithm", rid, module.__file__.split("/algorithms/", 1)[1].join(("algorithms/", "")))


def _strings(obj, seen=None) -> set[str]:
    """Every string constant of a module's code: its globals' strings (in tuples and dicts too), and the constants
    of every function and class defined in it (nested code objects included)."""
    seen = set() if seen is None else seen
    out: set[str] = set()
    if id(obj) in seen:
        return out
    seen.add(id(obj))
    if isinstance(obj, str):
        out.add(obj)
    elif isinstance(obj, (tuple, list, frozenset, set)):
        for x in obj:
            out |= _strings(x, seen)
    elif isinstance(obj, dict):
        for k, v in obj.items():
            out |= _strings(k, seen) | _strings(v, seen)
    elif isinstance(obj, types.CodeType):
        out |= _strings(obj.co_consts, seen)
    elif isinstance(obj, types.FunctionType):
        out |= _strings(obj.__code__, seen)
    elif isinstance(obj, type):
        for v in vars(obj).values():
            if isinstance(v, (types.FunctionType, staticmethod, classmethod, property)):
                out |= _strings(getattr(v, "__func__", getattr(v, "fget", v)), seen)
    return out


def collect() -> dict:
    """``{"where": {kind: {result id: [where, ...]}}, "experiments": {name: [result ids]}, "sections": {report
    section key: [experiment names]}, "unsectioned": {name: why}, "defaults": {name: default parameters}}`` from the
    imported registries (module docstring)."""
    import reports.sections
    from bounds.registry import all_results
    from proofs_checks import core
    from simulations import audit, experiments

    out: dict[str, dict[str, list[str]]] = {k: {} for k in KINDS}
    _algorithms(out)
    names, targets = {}, {}
    for row in experiments.catalogue():
        for rid in row["result_ids"]:
            names.setdefault(rid, []).append(row["name"])
            _add(out, "experiment", rid, row["name"])
    for c in core.all_checks():
        _add(out, "proof checks", f"{c.id.split(':')[0]}:{c.result}", c.id)
    for name, t in sorted(audit.targets().items()):
        for rid in t.results:
            targets.setdefault(rid, []).append(name)
            _add(out, "audit targets", rid, name)
    ids = [r.id for r in all_results()]
    for info in sorted(pkgutil.iter_modules(reports.sections.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"reports.sections.{info.name}")
        strings = set()
        for v in vars(module).values():
            if getattr(v, "__module__", None) == module.__name__ or isinstance(v, (str, tuple, dict)):
                strings |= _strings(v)
        for rid in ids:
            if rid in strings or strings & set(names.get(rid, ())) or strings & set(targets.get(rid, ())):
                _add(out, "report section", rid, f"reports/sections/{info.name}.py")
    sections: dict[str, list[str]] = {}
    unsectioned, defaults = {}, {}
    for row in experiments.catalogue():
        e = experiments.get(row["name"])
        if isinstance(e.section, str):
            sections.setdefault(e.section, []).append(e.name)
        else:
            unsectioned[e.name] = e.section.why
        defaults[e.name] = experiments.params_to_dict(e.params())
    return {"where": {k: {rid: sorted(v) for rid, v in sorted(d.items())} for k, d in out.items()},
            "experiments": {row["name"]: list(row["result_ids"]) for row in experiments.catalogue()},
            "sections": sections, "unsectioned": unsectioned, "defaults": defaults}


def render() -> str:
    """bounds/where.json's text."""
    return json.dumps(collect(), indent=1, sort_keys=True) + "\n"


def main(argv=None) -> int:
    from bounds.cli_common import generated_file
    from bounds.where import WHERE_JSON

    return generated_file(argv, "workbench.where", WHERE_JSON, render)


if __name__ == "__main__":
    raise SystemExit(main())
