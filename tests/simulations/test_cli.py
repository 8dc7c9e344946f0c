"""python -m simulations: list, run, status, resume, audit, and bad input (one line on stderr, exit status 2)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from simulations.__main__ import main

REPO = Path(__file__).resolve().parents[2]


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "simulations", *map(str, args)], cwd=REPO, capture_output=True,
                          text=True, timeout=120)


def test_list_shows_experiments_results_and_targets(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "laplace_tail" in out and "lvsuw21:lemma4.2" in out and "laplace_half_scale" in out


def test_list_shows_the_opponents_with_what_they_lack_and_their_bounds(capsys):
    """Every entry of algorithms.opponents.CATALOGUE is listed with its guarantee kind and bound."""
    from algorithms.opponents import CATALOGUE

    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    for o in CATALOGUE:
        row = next(line for line in lines if line.split()[:1] == [o.name] and "without" in line)
        assert o.guarantee in row and (o.bound or "sampling error only") in row


def test_list_experiment_shows_parameters_and_defaults(capsys):
    assert main(["list", "laplace_tail"]) == 0
    out = capsys.readouterr().out
    assert "lvsuw21:lemma4.2" in out and "beta" in out and "0.05" in out and "failure probability" in out
    assert main(["list", "no_such_experiment"]) == 2


def test_run_status_resume_round_trip(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["run", "laplace_tail", "--trials", "50", "--seed", "3", "--workers", "1", "--out", str(out),
                 "--param", "k=2"]) == 0
    assert "50/50 trials" in capsys.readouterr().out
    assert main(["status", str(out), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert info["completed"] == 50 and info["params"]["k"] == 2 and info["summary"]["verdict"]
    assert main(["resume", str(out), "--workers", "1"]) == 0  # nothing missing: a no-op that re-summarises
    assert "50/50" in capsys.readouterr().out


def test_audit_command_json(capsys):
    assert main(["audit", "laplace_no_noise", "--samples", "2000", "--seed", "1", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["violated"] and result["target"] == "laplace_no_noise"


@pytest.mark.parametrize("args,needle", [
    (["run", "laplace_tail", "--trials", "0", "--out", "X"], "trials"),
    (["run", "laplace_tail", "--trials", "5", "--seed", "-3", "--out", "X"], "seed"),
    (["run", "laplace_tail", "--trials", "5", "--out", "X", "--param", "beta=7"], "beta"),
    (["run", "laplace_tail", "--trials", "5", "--out", "X", "--param", "nokey"], "key=value"),
    (["run", "no_such", "--trials", "5", "--out", "X"], "unknown"),
    (["run", "laplace_tail", "--trials", "5", "--out", "X", "--workers", "2", "--scheduler", "tcp://x:1"], "not both"),
    (["resume", "X"], "manifest"),
    (["status", "X"], "manifest"),
    (["audit", "no_such_target"], "unknown"),
    (["audit", "laplace", "--eps", "-1"], "eps"),
    (["audit", "laplace", "--samples", "abc"], "samples"),
    (["frobnicate"], "invalid choice"),
])
def test_bad_input_one_line_exit_2_nothing_written(tmp_path, capsys, args, needle):
    """Each bad invocation: exit status 2, exactly one line on stderr naming the problem, no directory written."""
    args = [str(tmp_path / "out") if a == "X" else a for a in args]
    assert main(args) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0]
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args", [["run", "laplace_tail", "--trials", "0", "--out", "X"],
                                  ["run", "laplace_tail", "--trials", "5", "--out", "X", "--param", "beta=7"]])
def test_bad_input_in_a_real_process_exits_2_without_traceback(tmp_path, args):
    """The same through `python -m simulations` (an argparse error and a ValueError): the process's exit status is 2."""
    args = [str(tmp_path / "out") if a == "X" else a for a in args]
    r = _cli(*args)
    assert r.returncode == 2 and "Traceback" not in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_existing_out_directory_is_not_overwritten(tmp_path):
    out = tmp_path / "busy"
    out.mkdir()
    (out / "precious").write_text("keep")
    r = _cli("run", "laplace_tail", "--trials", "5", "--out", out)
    assert r.returncode == 2 and "already exists" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert (out / "precious").read_text() == "keep" and len(list(out.iterdir())) == 1
