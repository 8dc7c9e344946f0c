"""The results tree is read by one link-free walker (simulations.store.walk): a symbolic-link loop or a link to /
is skipped with a note, no directory is read twice, and the report's Holm family is the same as without them.
Through the report's command line. Catches the old walker, which followed links to depth 6 (a ``loop -> .``
beside one thm10 run made 7 copies of it, and of its verdicts in the Holm family) and aborted on a link to /.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest

from reports import results
from reports.__main__ import main as reports_main
from reports.sections import lvsuw21, overview
from simulations import runner, store


@pytest.fixture(scope="module")
def thm10_run(tmp_path_factory):
    """One small real thm10 run (2 verdict claims: A_PAP accuracy and the Lemma 11 cover)."""
    out = tmp_path_factory.mktemp("clean") / "thm10"
    runner.run("thm10", 4, out, seed=1, workers=1, progress=False,
               overrides={"cases": "thresholds:zipf", "num_points": 64, "alpha": 0.5})
    return out


def _family_text(res) -> str:
    return overview.holm_section(res.runs)[0].text


def test_a_loop_and_a_link_to_root_are_skipped_and_the_holm_family_is_unchanged(thm10_run, tmp_path, capsys):
    plain = tmp_path / "plain"
    shutil.copytree(thm10_run, plain / "thm10")
    before = results.load(plain)
    assert len(before.runs) == 1 and "over all 2 verdicts of 1 run(s)" in _family_text(before)

    linked = tmp_path / "linked"
    shutil.copytree(plain, linked)
    os.symlink(".", linked / "loop")
    os.symlink("/", linked / "root")
    os.symlink("..", linked / "thm10" / "up")
    after = results.load(linked)
    assert [r.path.name for r in after.runs] == ["thm10"]
    assert _family_text(after) == _family_text(before)
    notes = [p for p in after.problems if "not followed" in p]
    assert len(notes) == 3 and any("root" in p for p in notes) and any("loop" in p for p in notes)

    assert reports_main(["build", "--results", str(linked), "--out", str(tmp_path / "report")]) == 0
    warnings = capsys.readouterr().err
    assert warnings.count("symbolic link to a directory") == 3
    html = (tmp_path / "report" / "report.html").read_text()
    assert re.search(r"Holm step-down over all 2 verdicts of 1 run\(s\)", html)


def test_the_walker_alone_reads_each_directory_once(tmp_path):
    """The walker alone: every real directory once, in name order; a link back to an ancestor noted and not
    followed. (Its (st_dev, st_ino) guard is for a second path without a link, a bind mount, which a test cannot
    make unprivileged.)"""
    (tmp_path / "a" / "b").mkdir(parents=True)
    notes: list[str] = []
    seen = [d for d, _ in store.walk(tmp_path, notes)]
    assert seen == [tmp_path, tmp_path / "a", tmp_path / "a" / "b"] and notes == []
    os.symlink(tmp_path / "a", tmp_path / "a" / "b" / "again")
    seen = [d for d, _ in store.walk(tmp_path, notes)]
    assert seen == [tmp_path, tmp_path / "a", tmp_path / "a" / "b"] and len(notes) == 1


def test_the_table1_reader_uses_the_same_walker(tmp_path):
    """LVSUW21's Table 1 reader finds a saved table below a real directory, never through a link to one."""
    real = tmp_path / "bench"
    real.mkdir()
    (real / "bench-table1.json").write_text("{}")
    os.symlink(real, tmp_path / "linked")
    found = list(lvsuw21._table1_files(tmp_path, []))
    assert found == [real / "bench-table1.json"]
