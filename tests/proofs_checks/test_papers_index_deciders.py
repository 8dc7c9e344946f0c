"""The fields bounds/papers_index.toml gives the numbered results: every `decided_by` entry names a proof check, an
audit target or an experiment that exists (and can come out negative: a check with a perturbed twin, an audit target
with a broken variant in its module, an experiment with a control), and every `undecidable` statement says why and
what evidence is given."""
from __future__ import annotations

from bounds.coverage import NUMBERED, items
from proofs_checks.core import get

ITEMS = items()  # read as bounds.coverage reads it, so what is tested is what coverage counts


def test_deciders_exist_and_can_fail():
    from simulations import experiments
    from simulations._audit_registry import targets

    names = targets()
    exps = set(experiments.names())
    for item in ITEMS:
        for entry in item.decided_by:
            kind, _, name = entry.partition(":")
            assert item.klass == NUMBERED, item.id
            if kind == "check":
                assert get(name).perturbed, entry
            elif kind == "audit":
                assert name in names, entry
                assert any(n.startswith(name + "_") for n in names), f"{entry}: no broken variant beside it"
            elif kind == "experiment":
                assert name in exps, entry
            else:
                raise AssertionError(f"{item.id}: decided_by entry {entry!r}: kind check, audit or experiment")


def test_undecidable_statements_are_for_numbered_results_and_say_why():
    found = [i for i in ITEMS if i.undecidable]
    assert found
    for item in found:
        assert item.klass == NUMBERED and not item.decided_by, item.id
        text = item.undecidable
        assert "no finite run" in text and ("evidence" in text.lower()), item.id


def test_coverage_counts_what_the_index_names():
    """A result the registries cannot see is decided by what its `decided_by` names: coverage lists each entry and
    does not call the result undecided. Catches a coverage that reads the index but drops the field."""
    from bounds import coverage

    rows = {r.item.id: r for r in coverage.rows()}
    named = [i for i in ITEMS if i.decided_by]
    assert named
    for item in named:
        row = rows[item.id]
        listed = {"check": row.proof_checks, "audit": row.audit_targets, "experiment": row.experiments}
        for entry in item.decided_by:
            kind, _, name = entry.partition(":")
            assert name in listed[kind], (item.id, entry)
        assert row.decides not in ("nothing yet", "nothing can"), (item.id, row.decides)
