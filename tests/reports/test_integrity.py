"""Result files are untrusted: the report re-judges every saved audit from its saved numbers and flags run
directories whose records disagree (reports.integrity), built from small real files then tampered with."""

from __future__ import annotations

import json

import pytest

from reports import builder, integrity, results
from reports.html import render as render_html
from reports.sections import audits as audits_section
from simulations import _store_files, runner
from simulations.__main__ import main as sim_cli


@pytest.fixture(scope="module")
def saved_audit(tmp_path_factory):
    root = tmp_path_factory.mktemp("audits")
    assert sim_cli(["audit", "laplace", "--samples", "400", "--seed", "3", "--out", str(root)]) == 0
    return json.loads((root / "audit-laplace.json").read_text())


def test_a_genuine_audit_rechecks_clean(saved_audit):
    violated, problems = integrity.recheck_audit(saved_audit)
    assert violated is saved_audit["violated"] is False and problems == []


def test_a_forged_audit_is_a_problem_not_a_pass(saved_audit, tmp_path):
    """eps_lb 5 > declared 1 saved with "violated": false must show as a failure and a listed problem.
    Catches a report that reads the saved flag (the old outcome() took a["violated"] as given)."""
    forged = {**saved_audit, "eps_lower_bound": 5.0, "declared_eps": 1.0, "violated": False}
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "audit-laplace.json").write_text(json.dumps(forged))
    res = results.load(tmp_path / "r")
    [a] = res.audits
    assert a["_violated"] is True and audits_section.outcome(a) == "fails"
    assert any("violated=false but its numbers give violated=true" in p for p in res.problems)
    ctx = builder.Context(res, tmp_path)
    html = render_html(audits_section.build(ctx), {"title": "t", "results": "r", "runs": 0, "audits": 1,
                                                   "problems": res.problems})
    assert ">passes<" not in html and ">fails<" in html and "differs from" in html


def test_an_audit_is_judged_at_its_targets_registered_declaration(saved_audit, tmp_path, capsys):
    """declared_eps edited 1 -> 50 (and the target flipped to "broken") in a saved audit of a target whose eps_lb
    exceeds 1: the report judges it at the registered eps 1, so it fails, lists both edits, and shows eps 1.
    Catches judging the file's own declaration (the edited audit then passed)."""
    from reports.__main__ import main as reports_main

    leaky = {**saved_audit, "eps_lower_bound": 5.0, "violated": True}
    leaky.pop("false_positives")  # judged from the saved bound alone (no counts to recompute it from)
    edited = {**leaky, "declared_eps": 50.0, "violated": False, "expect_private": False}
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "audit-laplace.json").write_text(json.dumps(edited))
    res = results.load(tmp_path / "r")
    [a] = res.audits
    assert a["_violated"] is True and a["declared_eps"] == 1.0 and a["expect_private"] is True
    assert audits_section.outcome(a) == "fails"
    assert any("declared_eps = 50.0 where target laplace declares 1" in p for p in res.problems)
    assert any("expect_private = False" in p for p in res.problems)
    assert reports_main(["build", "--results", str(tmp_path / "r"), "--out", str(tmp_path / "rep")]) == 0
    assert "declared_eps = 50.0 where target laplace declares 1" in capsys.readouterr().err


def test_a_saved_audit_is_read_as_untrusted_input(saved_audit, tmp_path, monkeypatch):
    """A link to an audit, a file over the store's JSON limit and one holding NaN are listed problems, never read
    as audits. Catches reading them with an unbounded ``read_text`` that follows links (as the report once did)."""

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "audit-laplace.json").write_text(json.dumps(saved_audit))
    root = tmp_path / "r"
    root.mkdir()
    (root / "audit-linked.json").symlink_to(outside / "audit-laplace.json")
    (root / "audit-big.json").write_text(json.dumps({**saved_audit, "pad": "x" * 4096}))
    (root / "audit-nan.json").write_text(json.dumps(saved_audit).replace('"seed": 3', '"seed": NaN'))
    monkeypatch.setattr(_store_files, "MAX_JSON_BYTES", 4000)  # the limit open_regular reads
    res = results.load(root)
    assert res.audits == []
    assert sorted(p.split(":")[0].rsplit("/", 1)[1] for p in res.problems) == [
        "audit-big.json", "audit-linked.json", "audit-nan.json"]


def test_an_audit_whose_counts_were_edited_is_caught(saved_audit):
    edited = {**saved_audit, "false_negatives": 0, "false_positives": 0}
    violated, problems = integrity.recheck_audit(edited)
    assert violated is True and any("recomputed from its counts" in p for p in problems)


def test_an_audit_missing_its_numbers_is_not_judged(saved_audit):
    bad = {k: v for k, v in saved_audit.items() if k != "eps_lower_bound"}
    assert integrity.recheck_audit(bad)[0] is None and audits_section.outcome(bad) == "fails"


@pytest.fixture
def run_dir(tmp_path):
    path = tmp_path / "results" / "run"
    runner.run("laplace_tail", 4, path, seed=1, workers=1, progress=False)
    return path


def test_a_run_whose_records_disagree_is_flagged_and_gives_no_verdict(run_dir):
    """A conflicting duplicate placed before the original, and a NaN record: the store keeps the first line
    and reads NaN, so both runs looked complete. Catches a report that shows them as ordinary runs."""
    assert integrity.run_problems(run_dir) == []
    rec = run_dir / "records.jsonl"
    lines = rec.read_text().splitlines(keepends=True)
    row = json.loads(lines[0])
    changed = json.dumps({**row, "record": {**row["record"], "forged": 1}}) + "\n"
    rec.write_text(changed + "".join(lines))
    res = results.load(run_dir.parent)
    [run] = res.runs
    assert run.state == "corrupt" and not run.complete
    assert any("recorded twice with different results" in p for p in res.problems)
    rec.write_text(lines[0].replace("}}", ', "x": NaN}}', 1) + "".join(lines[1:]))
    assert any("NaN" in p for p in integrity.run_problems(run_dir))


def test_records_that_are_a_link_are_not_read(run_dir, tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    rec = run_dir / "records.jsonl"
    rec.unlink()
    rec.symlink_to(victim)
    assert any("symbolic link" in p for p in integrity.run_problems(run_dir))
    assert victim.read_text() == "keep me\n"
