"""The first screen and ``python -m bounds coverage``: every numbered result of the four papers, what decides it,
and the one run that answers it (reports.coverage.RULE), on a results tree written by the real engine."""

from __future__ import annotations

import csv
import io
import json

import pytest

from bounds import coverage
from bounds.__main__ import main as bounds_main
from reports.__main__ import main as reports_main
from reports import coverage as rc, results as rr
from simulations import runner

SMALL = {"cases": "thresholds:near_threshold", "num_points": 64, "alpha": 0.5}


def _finished(path, when: str) -> None:
    """Set the finishing time a run's manifest records (not part of its digest)."""
    m = json.loads((path / "manifest.json").read_text())
    m["finished_at"] = when
    (path / "manifest.json").write_text(json.dumps(m))


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """Three runs of thm10: two at Theorem 10's own sizes and one below them (m_scale), named so that the last
    by name is the oldest full-size run and the newest by time is the below-bound one."""
    root = tmp_path_factory.mktemp("runs")
    runner.run("thm10", 3, root / "a_full_new", seed=1, workers=1, progress=False, overrides=SMALL)
    runner.run("thm10", 3, root / "m_below", seed=2, workers=1, progress=False, overrides={**SMALL, "m_scale": 0.03})
    runner.run("thm10", 3, root / "z_full_old", seed=3, workers=1, progress=False, overrides=SMALL)
    _finished(root / "a_full_new", "2026-01-03T00:00:00+00:00")
    _finished(root / "m_below", "2026-01-05T00:00:00+00:00")
    _finished(root / "z_full_old", "2026-01-01T00:00:00+00:00")
    return root


def test_every_numbered_result_has_one_row():
    """46 numbered results in the papers' index, each once, in paper order; each decided by one kind of evidence."""
    rows = coverage.rows()
    assert len(rows) == 46 == len({r.item.id for r in rows})
    assert all(r.decides in coverage.DECIDERS for r in rows)
    by = {r.item.id: r for r in rows}
    assert by["B13"].decides == "verdict at its own sizes" and "thm10" in by["B13"].experiments
    assert by["A10"].decides == "privacy audit" and "a_sspp" in by["A10"].audit_targets  # unregistered lemma
    assert by["N17"].cited == ""  # "Thm 11 corollary" is not Theorem 11


def test_theorem_10_is_answered_by_its_newest_full_size_run_and_marked_not_informative(tree):
    """The rule: a verdict at the result's own sizes before a below-bound measurement, then the latest by recorded
    time. Catches the last-by-directory-name rule (would answer z_full_old) and a latest-first rule ignoring sizes
    (would answer m_below)."""
    found = {a.row.item.id: a for a in rc.answers(rr.load(tree))}
    thm10 = found["B13"]
    assert thm10.run.path.name == "a_full_new" and thm10.candidates == 3
    assert thm10.verdict in ("holds", "inconclusive", "violated")
    assert thm10.informative == "no" and "public_only" in thm10.opponents
    assert thm10.command.startswith("python -m simulations run thm10 --trials 3 --seed 1 --out a_full_new")
    assert found["B15"].run.path.name == "a_full_new"  # Lemma 11 is validated by the same runs
    assert found["B17"].run is None


def test_coverage_prints_46_rows_in_text_json_and_csv(tree, capsys):
    """``python -m bounds coverage`` (the registries alone) and ``python -m reports coverage --results`` (the saved
    runs that answer each result) print the same 46 rows; bounds no longer takes --results."""
    assert bounds_main(["coverage"]) == 0
    out = capsys.readouterr().out
    assert "46 numbered results of 104 items" in out
    assert bounds_main(["coverage", "--json"]) == 0
    assert len(json.loads(capsys.readouterr().out)["rows"]) == 46
    assert bounds_main(["coverage", "--results", str(tree)]) == 2
    capsys.readouterr()
    assert reports_main(["coverage", "--results", str(tree)]) == 0
    out = capsys.readouterr().out
    assert "46 numbered results of 104 items" in out and rc.RULE in out
    assert reports_main(["coverage", "--results", str(tree), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["rows"]) == 46 and data["rule"] == rc.RULE
    row = next(r for r in data["rows"] if r["item"] == "B13")
    assert row["run"] == "a_full_new" and row["informative"] == "no" and str(tree) not in json.dumps(data)
    assert reports_main(["coverage", "--results", str(tree), "--csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0] == list(rc.HEADER) and len(rows) == 47


def test_coverage_of_a_missing_directory_is_one_line_exit_2(tmp_path, capsys):
    assert reports_main(["coverage", "--results", str(tmp_path / "nope")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "does not exist" in err


def test_a_result_decided_by_proof_checks_shows_their_statuses_and_an_erratum_is_not_a_failure(tree):
    """The first screen's verdict cell of a result decided by proof checks is their saved statuses; a ``fails``
    the check records as expected (an erratum found) reads as such, and a status other than the expected one says
    so. Catches a "-" verdict for proof-checked results and a bare "fails 1" that reads as a broken proof."""
    row = next(r for r in coverage.rows() if r.item.id == "N17")
    assert row.decides == "proof check" and row.proof_checks
    first = row.proof_checks[0]
    saved = [{"id": first, "expected": "fails", "verdict": {"status": "fails"}}]
    a = next(a for a in rc.answers(rr.load(tree), saved_checks=saved) if a.row.item.id == "N17")
    assert a.proofs.startswith("fails as recorded (erratum) 1") and "fails 1" not in a.proofs
    assert rc.first_screen_verdict(a) == "checks as recorded"
    saved = [{"id": first, "expected": "proved", "verdict": {"status": "holds (sampled)"}}]
    a = next(a for a in rc.answers(rr.load(tree), saved_checks=saved) if a.row.item.id == "N17")
    assert "holds (sampled), expected proved 1" in a.proofs
    assert rc.table_rows([a])[0][3] == rc.first_screen_verdict(a) == "checks: 1 off record"
    saved = [{"id": first, "expected": "proved", "verdict": {"status": "proved"}}]
    a = next(a for a in rc.answers(rr.load(tree), saved_checks=saved) if a.row.item.id == "N17")
    assert rc.first_screen_verdict(a) == "proved"
