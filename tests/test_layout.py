"""The house's rules, held by a test (docs/DESIGN.md, "Data flow as imported"): no module over 600 lines, no import
cycle between modules, no import against the layer order, no line over the configured length.

The import graph is built from the sources with ``ast`` (every ``import`` and ``from ... import``, at any depth, a
function-level import included: importing on use hides a cycle from Python, not from the design). Layers, lowest
first: ``bounds`` imports nothing of the project; ``algorithms`` only itself; ``simulations`` and ``proofs_checks``
import ``bounds`` and ``algorithms``; ``reports`` imports ``bounds``, and of ``simulations`` only the verdict
vocabulary (``stats``, ``contract``, ``claims``) and the run store (``store``, ``stages``); ``workbench``, the
commands above every layer (writing bounds/where.json), imports them all and nothing imports it.

No cycle and no upward import is allowed (the finders' own tests show they find one). Broken by once: the store's
lock half importing ``simulations.store`` back (before ``simulations._store_io``) fails ``test_no_import_cycles``;
``simulations.__main__`` importing ``reports.claims`` fails ``test_imports_follow_the_layers``.
"""
from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bounds", "algorithms", "simulations", "proofs_checks", "reports", "workbench")
MAX_LINES = 600
LAYERS = {"bounds": {"bounds"}, "algorithms": {"algorithms"},
          "simulations": {"simulations", "bounds", "algorithms"},
          "proofs_checks": {"proofs_checks", "bounds", "algorithms"},
          "reports": {"reports", "bounds"},
          "workbench": {"workbench", "bounds", "algorithms", "simulations", "proofs_checks", "reports"}}
#: what of a higher layer a module may import (the verdict vocabulary and the run store, for the report)
ALLOWED_ABOVE = {"reports": {"simulations.stats", "simulations.contract", "simulations.claims", "simulations.store",
                             "simulations.stages"}}



def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for p in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(p.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            out[".".join(parts)] = p
    return out


def _graph() -> dict[str, set[str]]:
    """module -> the project modules it imports (a name imported from a package counts as its submodule when
    there is one, else as the package)."""
    mods = _modules()

    def resolve(name: str) -> str | None:
        while name and name not in mods:
            name = name.rpartition(".")[0]
        return name or None

    edges = {}
    for m, p in mods.items():
        package = m if p.name == "__init__.py" else m.rpartition(".")[0]
        out = set()
        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(n, ast.Import):
                out.update(r for a in n.names if (r := resolve(a.name)))
            elif isinstance(n, ast.ImportFrom):
                base = package.split(".")[:len(package.split(".")) - (n.level - 1)] if n.level else []
                module = ".".join(base + ([n.module] if n.module else []))
                for a in n.names:
                    r = f"{module}.{a.name}" if f"{module}.{a.name}" in mods else resolve(module)
                    if r:
                        out.add(r)
        out.discard(m)
        edges[m] = out
    return edges


def _cycles(edges: dict[str, set[str]]) -> set[frozenset]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index, low, on, stack, found, counter = {}, {}, set(), [], set(), [0]
    for root in edges:
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    found.add(frozenset(comp))
    return found


def test_no_module_over_600_lines():
    long = {m: n for m, p in _modules().items() if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, f"split these modules (at most {MAX_LINES} lines): {long}"


def test_no_import_cycles():
    assert _cycles(_graph()) == set(), "import cycles"


def test_the_cycle_finder_finds_a_cycle():
    """The check above can fail: two modules importing each other are one cycle; a chain is none."""
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == {frozenset({"a", "b"})}
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": set()}) == set()


def _upward(edges: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The imports (module, imported) against the layer order."""
    return {(m, w) for m, out in edges.items() for w in out
            if w.split(".")[0] not in LAYERS[m.split(".")[0]] and w not in ALLOWED_ABOVE.get(m.split(".")[0], ())}


def test_imports_follow_the_layers():
    assert _upward(_graph()) == set(), "imports against the layer order (docs/DESIGN.md)"


def test_the_layer_check_finds_an_upward_import():
    """The check above can fail: bounds importing algorithms, or reports importing an experiment, is upward; reports
    importing the run store or bounds is not."""
    edges = {"bounds.api": {"algorithms.mw"}, "reports.a": {"simulations.experiments.thm10", "simulations.store",
                                                           "bounds.api"}}
    assert _upward(edges) == {("bounds.api", "algorithms.mw"), ("reports.a", "simulations.experiments.thm10")}


def test_no_line_over_the_configured_length():
    """No line over ruff's configured length in the files ruff checks (generated files, JSON, TOML and Markdown are
    outside its globs)."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["ruff"]
    limit = config["line-length"]
    counts = {}
    for pattern in config["include"]:
        for p in sorted(ROOT.glob(pattern)):
            n = sum(len(line) > limit for line in p.read_text(encoding="utf-8").splitlines())
            if n:
                counts[str(p.relative_to(ROOT))] = n
    assert counts == {}, f"lines over {limit} characters: {counts}"


def _long_summarise(limit: int = 60) -> dict[str, int]:
    out = {}
    for p in sorted((ROOT / "simulations" / "experiments").glob("*.py")):
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("summarise"):
                if node.end_lineno - node.lineno + 1 > limit:
                    out[f"{p.stem}.{node.name}"] = node.end_lineno - node.lineno + 1
    return out


def test_no_summarise_over_60_lines():
    """An experiment's summarise returns only its judgement (contract.summarise_run builds the rest), so it stays
    short: one case's part goes in a helper. Caught the three that grew past 60 when opponents were wired in."""
    assert _long_summarise() == {}, "split these summarise functions (at most 60 lines)"
    assert _long_summarise(limit=40), "the check sees summarise functions at all"
