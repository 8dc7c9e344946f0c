"""Runs that survive faults with one clear line.

Write errors (a full disk, a read-only directory) are simulated by raising the OSError the
operating system would raise (the tests run as root, where permissions do not stop writes).
"""

from __future__ import annotations

import errno
import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from reports import results as report_results
from simulations import runner, store
from simulations.__main__ import main


def _one_line(capsys) -> str:
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    return err[0]


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_full_disk_mid_run_is_one_line_and_resume_completes_it(tmp_path, capsys, monkeypatch):
    """ENOSPC after some records: exit 2, one line naming records.jsonl and the cause, the finished
    trials kept, the lock released; after "freeing space" resume gives exactly the records of an
    uninterrupted run. Catches a raw traceback, a run left locked, or lost/duplicated trials."""
    out = tmp_path / "run"
    real_write = store.RecordAppender.write
    calls = {"n": 0}

    def full_after_three(self, lines):
        calls["n"] += 1
        if calls["n"] > 3:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(out / store.RECORDS))
        return real_write(self, lines)

    monkeypatch.setattr(store.RecordAppender, "write", full_after_three)
    rc = main(["run", "laplace_tail", "--trials", "40", "--seed", "5", "--workers", "1", "--chunk-size", "5",
               "--out", str(out)])
    line = _one_line(capsys)
    assert rc == 2 and "records.jsonl" in line and "No space left on device" in line and "resume" in line
    assert len(store.RunDir.open(out).read_records()) == 15
    assert not (out / store.LOCK).exists()
    assert runner.status(out)["status"] == "interrupted"
    monkeypatch.setattr(store.RecordAppender, "write", real_write)
    assert main(["resume", str(out), "--workers", "1"]) == 0
    straight = runner.run("laplace_tail", 40, tmp_path / "straight", seed=5, workers=1, progress=False)
    assert store.RunDir.open(out).read_records() == store.RunDir.open(straight.path).read_records()
    assert runner.status(out)["status"] == "complete"


def test_unwritable_out_is_refused_before_computing(tmp_path, capsys, monkeypatch):
    """A directory that cannot be created: one line naming it and the cause, exit 2, and no trial
    ran (catches computing first and failing at the first write)."""
    ran = []
    monkeypatch.setattr(runner, "execute", lambda *a, **k: ran.append(1) or iter(()))
    real_mkdir = Path.mkdir

    def read_only(self, *a, **k):
        if self.name == "ro":
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(self))
        return real_mkdir(self, *a, **k)

    monkeypatch.setattr(Path, "mkdir", read_only)
    rc = main(["run", "laplace_tail", "--trials", "10", "--workers", "1", "--out", str(tmp_path / "ro")])
    line = _one_line(capsys)
    assert rc == 2 and "ro" in line and "Read-only file system" in line and not ran


def test_trials_above_the_limit_are_refused_with_the_override_named(tmp_path, capsys):
    """--trials 10^12 is refused at once (it grew memory without writing a record); --max-trials
    raises the limit. Catches the limit being dropped."""
    assert main(["run", "laplace_tail", "--trials", "1000000000000", "--out", str(tmp_path / "x")]) == 2
    assert "--max-trials" in _one_line(capsys) and not (tmp_path / "x").exists()
    assert main(["run", "laplace_tail", "--trials", "3", "--max-trials", "2", "--out", str(tmp_path / "x")]) == 2
    _one_line(capsys)
    assert main(["run", "laplace_tail", "--trials", "3", "--max-trials", "3", "--workers", "1",
                 "--out", str(tmp_path / "x")]) == 0


@pytest.mark.parametrize("argv,needle", [
    (["run", "laplace_tail", "--trials", "5", "--out", ""], "--out is empty"),
    (["run", "laplace_tail", "--trials", "5", "--out", "   "], "--out is empty"),
    (["run", "", "--trials", "5", "--out", "X"], "experiment is empty"),
    (["status", ""], "empty"),
    (["resume", ""], "empty"),
    (["audit", "laplace", "--delta", "nan"], "finite"),
    (["audit", "laplace", "--eps", "inf"], "finite"),
    (["run", "laplace_tail", "--trials", "5", "--out", "X", "--scheduler", "garbage"], "scheduler"),
    (["run", "laplace_tail", "--trials", "5", "--out", "X", "--scheduler", "tcp://host:99999"], "scheduler"),
])
def test_impossible_options_are_one_line_exit_2_and_write_nothing(tmp_path, capsys, monkeypatch, argv, needle):
    """Empty ids and paths (they fell back to the current directory and wrote into it), nan/inf
    numbers, and a scheduler that is no address (it hung 20 s, then a library traceback)."""
    monkeypatch.chdir(tmp_path)
    argv = [str(tmp_path / "X") if a == "X" else a for a in argv]
    assert main(argv) == 2
    assert needle in _one_line(capsys)
    assert list(tmp_path.iterdir()) == []


def test_corrupt_and_out_of_range_records_are_shown_as_such(tmp_path):
    """status and the report's reader recount the records: a corrupt line or an index outside the
    run gives state 'corrupt' (never 'complete', never '41/40 done, -1 missing'), and resume refuses.
    Catches trusting manifest.json and summary.json."""
    r = runner.run("laplace_tail", 40, tmp_path / "runs" / "a", seed=3, workers=1, progress=False)
    path = Path(r.path) / store.RECORDS
    clean = path.read_text()
    digest = store.RunDir(r.path).digest()
    path.write_text(clean + json.dumps({"index": 40, "record": {"x": 1}, "digest": digest}) + "\n")
    info = runner.status(r.path)
    assert info["status"] == "corrupt" and info["completed"] == 40 and info["missing"] == 0
    assert "index 40 outside" in info["state_text"]
    with pytest.raises(ValueError, match="outside the run's range"):
        runner.resume(r.path, workers=1, progress=False)
    lines = clean.splitlines(keepends=True)
    path.write_text(lines[0] + "{garbage\n" + "".join(lines[1:]))
    assert runner.status(r.path)["status"] == "corrupt"
    loaded = report_results.load(tmp_path / "runs")
    (run,) = loaded.runs
    assert not run.complete and run.summary is None and run.state == "corrupt"
    assert any("corrupt" in p for p in loaded.problems)


def test_killed_run_is_stale_not_running_forever(tmp_path):
    """A run whose process died (manifest 'running', lock held by a dead pid) is 'stale'; resume takes
    the dead holder's lock over and completes it. Catches a kill -9'd run shown 'running' forever."""
    r = runner.run("laplace_tail", 20, tmp_path / "run", seed=2, workers=1, progress=False)
    path = Path(r.path) / store.RECORDS
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:7]))
    (Path(r.path) / store.SUMMARY).unlink()
    rd = store.RunDir.open(r.path)
    rd.update_manifest(status="running")
    (Path(r.path) / store.LOCK).write_text(json.dumps({"pid": _dead_pid(), "host": socket.gethostname(),
                                                       "started_at": store.now()}))
    info = runner.status(r.path)
    assert info["status"] == "stale" and info["completed"] == 7 and info["summary_partial"]
    assert runner.resume(r.path, workers=1, progress=False).completed == 20
    assert runner.status(r.path)["status"] == "complete" and not (Path(r.path) / store.LOCK).exists()


def test_second_resume_refuses_while_the_first_holds_the_lock(tmp_path, capsys):
    """Two resumes of one run at once both computed every trial (80 lines for 40 trials): the second
    now refuses, naming the holder's pid and host, and writes nothing."""
    r = runner.run("laplace_tail", 40, tmp_path / "run", seed=4, workers=1, progress=False)
    path = Path(r.path) / store.RECORDS
    path.write_text("".join(path.read_text().splitlines(keepends=True)[:10]))
    (Path(r.path) / store.SUMMARY).unlink()
    holder = store.RunDir.open(r.path)
    holder.acquire_lock()
    try:
        assert main(["resume", str(r.path), "--workers", "1"]) == 2
        line = _one_line(capsys)
        assert f"pid {os.getpid()}" in line and socket.gethostname() in line
        assert path.read_text().count("\n") == 10
        assert runner.status(r.path)["status"] == "running"
        with pytest.raises(ValueError, match="in use by"):
            store.RunDir.open(r.path).acquire_lock()
    finally:
        holder.release_lock()
    assert runner.resume(r.path, workers=1, progress=False).completed == 40
    assert path.read_text().count("\n") == 40


def test_lock_with_a_reused_pid_is_stale(tmp_path):
    """A lock naming a live pid whose process started at another time (pid reuse after a kill) is
    stale (Linux /proc start times)."""
    rd = store.RunDir(tmp_path)
    (tmp_path / store.LOCK).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                                   "proc_start": "-1"}))
    lock = rd.acquire_lock()
    assert lock.content["pid"] == os.getpid() and store.read_lock(tmp_path / store.LOCK)["proc_start"] != "-1"
    rd.release_lock()
    assert not (tmp_path / store.LOCK).exists()


def test_report_build_on_unwritable_or_full_disk_is_one_line(tmp_path, capsys, monkeypatch):
    """reports build: an --out that cannot be written is refused before rendering, and a full disk
    while writing gives one line naming the path and the cause, exit 2, and no report files (it gave
    five distinct tracebacks). Empty --results / --out are refused (they meant the current directory)."""
    from reports import builder
    from reports.__main__ import main as reports_main

    results = tmp_path / "results"
    results.mkdir()
    monkeypatch.chdir(tmp_path)
    assert reports_main(["build", "--results", "", "--out", "o"]) == 2
    assert "--results is empty" in _one_line(capsys)
    assert reports_main(["build", "--results", str(results), "--out", ""]) == 2
    assert "--out is empty" in _one_line(capsys)
    rendered = []
    monkeypatch.setattr(builder, "build_sections", lambda *a: rendered.append(1) or ([], []))
    real_mkstemp = tempfile.mkstemp

    def read_only(*a, dir=None, **k):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(dir))

    monkeypatch.setattr(tempfile, "mkstemp", read_only)
    assert reports_main(["build", "--results", str(results), "--out", str(tmp_path / "rep")]) == 2
    assert "Read-only file system" in _one_line(capsys) and not rendered
    monkeypatch.setattr(tempfile, "mkstemp", real_mkstemp)

    def full(*a, **k):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(tmp_path / "rep" / "report.pdf"))

    monkeypatch.setattr("reports.pdf.render", full)
    assert reports_main(["build", "--results", str(results), "--out", str(tmp_path / "rep")]) == 2
    line = _one_line(capsys)
    assert "report.pdf" in line and "No space left on device" in line
    assert sorted(p.name for p in (tmp_path / "rep").iterdir()) == []
