"""The printable claim list (reports.claims) that `python -m simulations run` and `status` print and the
report's plots name their rows by: each claim once, by its label, with its status, counts and kind."""

from __future__ import annotations

from reports.claims import claim_lines, claim_rows
from simulations import contract, stats
from simulations.__main__ import main as sim_cli


def test_claims_are_named_by_label_listed_once_with_their_kind():
    c = contract.claim(29, 30, 0.9, 0.95)
    summary = {"cases": {"a": {**c, "label": "A_PAP error <= alpha, skewed stumps"}},
               "verdict_detail": dict(c, status=c["verdict"]),  # the overall verdict restated: shown once
               "premise": {**contract.claim(5, 30, 0.9, 0.95), "kind": "premise"},
               "floor": {"status": stats.FLOOR_CHECK, "passed": False},
               "claims_checked": [{"figure": "1", "claim": "PMW^Pub beats MWEM", "status": "undecided (too few runs)"}]}
    rows = claim_rows(summary)
    assert [r["name"] for r in rows] == ["A_PAP error <= alpha, skewed stumps", "premise", "floor",
                                         "Figure 1: PMW^Pub beats MWEM"]
    lines = claim_lines(summary)
    assert lines[0] == "claims:"
    assert lines[1] == f"  [{c['verdict']}] A_PAP error <= alpha, skewed stumps: 29/30 vs target 0.9"
    assert lines[2].endswith("(premise)") and "[FAILED (a bug)] floor" in lines[3]
    assert "[undecided (too few runs)] Figure 1: PMW^Pub beats MWEM" in lines[4]
    assert claim_lines(None) == [] and claim_lines({"verdict": "holds"}) == []


def test_run_and_status_print_the_claim_list(tmp_path, capsys):
    out = tmp_path / "run"
    assert sim_cli(["run", "laplace_tail", "--trials", "3", "--workers", "1", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "claims:\n  [" in printed
    assert sim_cli(["status", str(out)]) == 0
    assert "claims:\n  [" in capsys.readouterr().out


def test_an_unfinished_stage_is_resumed_through_its_search(tmp_path):
    """A stage directory of a staged search is finished by resuming the search (the stage alone would not run
    the later stages); a plain run by resuming itself; a corrupt run gets no advice to resume. Catches the
    report advising `resume .../stage-1`."""
    from reports.results import Run, unfinished_text
    from simulations import stages

    search = tmp_path / "search"
    (search / "stage-1").mkdir(parents=True)
    (search / stages.SEARCH).write_text("{}")
    text = unfinished_text(Run(search / "stage-1", {}, None, "interrupted", "interrupted; resume it"))
    assert text.endswith(f"`python -m simulations resume {search}`.") and "stage-1`" not in text
    plain = tmp_path / "run"
    plain.mkdir()
    assert unfinished_text(Run(plain, {}, None, "stale", "stale")).endswith(f"resume {plain}`.")
    assert "resume" not in unfinished_text(Run(plain, {}, None, "corrupt", "corrupt: line 3 is corrupt"))
