"""The fields bounds/papers_index.toml gives the numbered results: every `decided_by` entry names a proof check, an
audit target or an experiment that exists (and can come out negative: a check with a perturbed twin, an audit target
with a broken variant in its module, an experiment with a control), and every `undecidable` statement says why and
what evidence is given."""
from __future__ import annotations

import tomllib
from pathlib import Path

from proofs_checks.core import get

INDEX = Path(__file__).resolve().parents[2] / "bounds" / "papers_index.toml"
ITEMS = tomllib.loads(INDEX.read_text(encoding="utf-8"))["item"]


def test_deciders_exist_and_can_fail():
    from simulations import experiments
    from simulations._audit_registry import targets

    names = targets()
    exps = set(experiments.names())
    for item in ITEMS:
        for entry in item.get("decided_by", []):
            kind, _, name = entry.partition(":")
            assert item["class"] == "numbered result", item["id"]
            if kind == "check":
                assert get(name).perturbed, entry
            elif kind == "audit":
                assert name in names, entry
                assert any(n.startswith(name + "_") for n in names), f"{entry}: no broken variant beside it"
            elif kind == "experiment":
                assert name in exps, entry
            else:
                raise AssertionError(f"{item['id']}: decided_by entry {entry!r}: kind check, audit or experiment")


def test_undecidable_statements_are_for_numbered_results_and_say_why():
    found = [i for i in ITEMS if "undecidable" in i]
    assert found
    for item in found:
        assert item["class"] == "numbered result" and "decided_by" not in item, item["id"]
        text = item["undecidable"]
        assert "no finite run" in text and ("evidence" in text.lower()), item["id"]
