"""python -m proofs_checks: table, JSON, --strict, --errata, bad arguments (one line, exit 2)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from proofs_checks import run_all, run_all_json
from proofs_checks.core import STATUSES
from proofs_checks.__main__ import main


def test_bad_paper_is_one_line_and_exit_2(capsys):
    assert main(["--paper", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nope" in err and "bcmnuw20" in err


def test_unknown_flag_exits_2_in_a_real_process():
    p = subprocess.run([sys.executable, "-m", "proofs_checks", "--bogus"], capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and "Traceback" not in p.stderr


def test_list_does_not_run(capsys):
    assert main(["--list", "--paper", "abm19"]) == 0
    out = capsys.readouterr().out
    assert "abm19:lemma4.4.chernoff" in out and "bcmnuw20" not in out


def test_table_and_strict_on_one_paper(capsys):
    """LVSUW21 has one failing step (the omega typo): exit 0 normally, 1 with --strict."""
    assert main(["--paper", "lvsuw21"]) == 0
    out = capsys.readouterr().out
    assert "lvsuw21:prop4.3.omega" in out and "fails" in out and "checks:" in out
    assert main(["--paper", "lvsuw21", "--strict"]) == 1


def test_json_is_the_run_all_json_form(capsys):
    assert main(["--paper", "lvsuw21", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {d["id"] for d in data} == {r.check.id for r in run_all("lvsuw21")}
    assert all(d["verdict"]["status"] in STATUSES for d in data)


def test_errata_report_lists_docs_entries_and_check_errata(capsys):
    assert main(["--errata", "--paper", "lvsuw21"]) == 0
    out = capsys.readouterr().out
    assert "lvsuw21-prop4.3-omega" in out and "checked and correct" in out


def test_run_all_json_rejects_a_bad_paper():
    with pytest.raises(ValueError, match="paper"):
        run_all_json("xyz")


def test_a_crashing_check_is_exit_3_not_a_verdict(monkeypatch, capsys):
    """A check that raises is reported as a crash of the tool (exit 3), never as a finding about the paper."""
    import proofs_checks.__main__ as cli
    from proofs_checks.core import Check, Inequality, Var, run_check

    def boom(o, x):
        raise RuntimeError("broken formula")

    bad = Check(id="test:crash", paper="LVSUW21", result="x", claim="crash", source="test", method="numeric grid + "
                                                                                                   "hypothesis",
                stated=Inequality("crash", boom, boom, (Var("x", 1, 2),)))
    monkeypatch.setattr(cli, "run_all", lambda paper=None: [run_check(bad)])
    assert cli.main([]) == 3
    err = capsys.readouterr().err
    assert "test:crash crashed" in err and err.count("\n") == 1


def test_report_data_is_json_and_consistent():
    from proofs_checks import report_data

    data = json.loads(json.dumps(report_data("lvsuw21")))
    assert sum(data["counts"].values()) == len(data["checks"])
    from bounds.errata import ERRATA

    assert {e["id"] for e in data["errata"]} == {e.id for e in ERRATA if e.paper == "LVSUW21"}
    assert all(e["paper"] == "LVSUW21" for e in data["entries"])


def test_out_saves_the_verdicts_the_report_reads(tmp_path, capsys):
    """--out DIR writes DIR/proofs_checks.json (checks named by paper key, never by the texts'
    hashed file names), which `reports` reads instead of running the checks; an --out that is a
    file is refused before any check runs."""
    import re

    from reports.sections.proof_checks import all_saved

    assert main(["--paper", "lvsuw21", "--out", str(tmp_path / "res")]) == 0
    saved = tmp_path / "res" / "proofs_checks.json"
    data = json.loads(saved.read_text())
    assert data and all(d["paper"] == "LVSUW21" for d in data)
    assert not re.search(r"\d{3}_[0-9a-f]{16}", saved.read_text())
    verdicts, files, problems = all_saved(tmp_path / "res")
    assert len(verdicts) == len(data) and files == [str(saved)] and not problems
    capsys.readouterr()
    (tmp_path / "afile").write_text("x")
    assert main(["--paper", "lvsuw21", "--out", str(tmp_path / "afile")]) == 2
    assert "not a directory" in capsys.readouterr().err
