"""``bounds show``'s "where it lives" (bounds/where.py, read from the sources without importing them) agrees with
the registries imported: experiments, proof checks, audit targets and the algorithms' ``REALISES``. Breaking
once: a ``REALISES`` naming an unknown result, or an experiment whose RESULT_IDS are not literal, fails here."""

from __future__ import annotations

import importlib
import pkgutil

import algorithms
import bounds
from bounds import where


def _by_result(pairs) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for rid, what in pairs:
        out.setdefault(rid, set()).add(what)
    return out


def _scanned(kind: str) -> dict[str, set[str]]:
    return {rid: set(v) for rid, v in where.declared()[kind].items()}


def test_experiments_agree_with_the_registry():
    from simulations import experiments

    rows = experiments.catalogue()
    assert _scanned("experiment") == _by_result((rid, r["name"]) for r in rows for rid in r["result_ids"])


def test_proof_checks_agree_with_the_registry():
    from proofs_checks import core

    assert _scanned("proof checks") == _by_result((f"{c.id.split(':')[0]}:{c.result}", c.id)
                                                  for c in core.all_checks())


def test_audit_targets_agree_with_the_registry():
    from simulations import audit

    pairs = [(rid, t.name) for t in audit.targets().values() for rid in t.results]
    assert all(bounds.get(rid).id == rid for rid, _ in pairs), pairs
    assert _scanned("audit targets") == _by_result(pairs)


def test_algorithms_declare_what_they_realise_and_it_exists():
    pairs = []
    for info in pkgutil.walk_packages(algorithms.__path__, "algorithms."):
        if info.name.rsplit(".", 1)[-1].startswith("_kernels"):
            continue
        module = importlib.import_module(info.name)
        for rid in getattr(module, "REALISES", ()):
            assert bounds.get(rid).id == rid, (info.name, rid)
            pairs.append((rid, module.__file__.split("/algorithms/", 1)[1].join(("algorithms/", ""))))
    assert _scanned("algorithm") == _by_result(pairs)


def test_show_lists_every_kind_where_it_exists():
    text = "\n".join(where.render(bounds.get("bcmnuw20:thm10")))
    for needle in ("algorithms/query_release/pap.py", "simulations/experiments/thm10.py", "bcmnuw20:thm10.",
                   "pap_private_cover", "reports/sections/thm10.py"):
        assert needle in text, needle


def test_the_scan_for_one_result_equals_the_full_scan():
    """``show`` scans for its one result (files whose text cannot concern it are not parsed): for every result its
    entries equal the full scan's. Catches a prefilter that drops a file declaring the result (e.g. one keyed on
    the wrong part of the id) and a statement parse that misreads a multi-line REALISES / RESULT_IDS."""
    from bounds.registry import all_results

    full = where.declared()
    for r in all_results():
        one = where.declared(r.id)
        for kind in full:
            assert one[kind].get(r.id) == full[kind].get(r.id), (r.id, kind)
