"""A proof check that cannot find its inputs is "not checkable here" in the report (as on the command line),
never a red `violated` badge: the BCMNUW20 version comparison run without the paper texts."""

from __future__ import annotations

import json

import proofs_checks.bcmnuw20 as bc
import proofs_checks.core as pc
from reports import builder, results
from reports.model import Badge, Table
from reports.sections import proof_checks


def _text_check():
    return next(c for c in pc.all_checks("bcmnuw20") if c.runner is bc.text_runner)


def test_missing_paper_texts_are_not_a_changed_verdict(tmp_path, monkeypatch):
    """Catches the report that opened every fresh clone's proof-check section with `violated` because the
    version comparison could not find the paper texts (its status differed from the expected one)."""
    monkeypatch.setattr(bc, "PAPERS_DIR", tmp_path / "no-papers")
    saved = pc.run_check(_text_check()).to_dict()
    assert saved["verdict"]["status"] == pc.NOT_CHECKABLE and saved["expected"] != pc.NOT_CHECKABLE
    assert saved["verdict"]["summary"].startswith("not checkable here: ") and "PUBPRIV_PAPERS" in saved["verdict"][
        "summary"]
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "proofs_checks.json").write_text(json.dumps([saved]))
    ctx = builder.Context(results.load(tmp_path / "r"), tmp_path)
    [s] = proof_checks.build(ctx)
    badges = [b for b in s.blocks if isinstance(b, Badge)]
    assert not any(b.status == "violated" for b in badges), [b.text for b in badges]
    assert any(b.status == pc.NOT_CHECKABLE and "not checkable here" in b.text and saved["id"] in b.text
               for b in badges)
    [table] = [b for b in s.blocks if isinstance(b, Table) and "check" in b.columns]
    assert table.rows[0][table.columns.index("verdict")] == "not checkable here"


def test_a_real_change_of_verdict_is_still_violated(tmp_path):
    """The other side: a check that ran and disagrees with its expectation stays red."""
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "proofs_checks.json").write_text(json.dumps([
        {"id": "x:y", "paper": "BCMNUW20", "expected": "holds", "verdict": {"status": "fails", "summary": "cx"}}]))
    ctx = builder.Context(results.load(tmp_path / "r"), tmp_path)
    [s] = proof_checks.build(ctx)
    assert any(b.status == "violated" and "x:y" in b.text for b in s.blocks if isinstance(b, Badge))
