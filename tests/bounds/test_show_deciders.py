"""``python -m bounds show ID`` names what decides each numbered result of the four papers: by the papers index's
item id (B24, A16: results with no registered formula included) and, for a registered result, by its result id."""
from __future__ import annotations

from bounds import coverage
from bounds.__main__ import main


def _show(capsys, ident):
    rc = main(["show", ident, "--no-latex"] if ":" in ident else ["show", ident])
    out, err = capsys.readouterr()
    return rc, out, err


def test_every_numbered_result_shown_by_its_item_id_names_its_decider(capsys):
    """Each of the 46 rows of ``bounds coverage``: its kind of evidence and every experiment, proof check and audit
    target by name. Catches a show that drops the index's decided_by (B24 and A16 have no registered result)."""
    for row in coverage.rows():
        rc, out, err = _show(capsys, row.item.id)
        assert rc == 0 and err == "", (row.item.id, err)
        assert f"decided by:\n  {row.decides}\n" in out + "\n", row.item.id
        for name in row.experiments + row.proof_checks + row.audit_targets:
            assert f": {name}\n" in out + "\n", (row.item.id, name)
        if row.decides == "nothing can":
            assert "why no finite run decides it" in out, row.item.id


def test_a_registered_result_shows_its_decider_too(capsys):
    rc, out, _ = _show(capsys, "baselines:em_learner")
    assert rc == 0 and "decided by (papers index A12" in out and "experiment: em_learner" in out


def test_an_unknown_item_id_is_one_line_exit_2(capsys):
    rc, out, err = _show(capsys, "B99")
    assert rc == 2 and out == "" and err.count("\n") == 1 and "not a numbered result" in err
