"""A run is its records: ``status``, ``resume`` and the report recompute the verdict from the records every time,
and the integrity checks cannot be switched off by editing a file (simulations.store, simulations._records).

Every test goes through a command line (``simulations.__main__.main``, ``reports.__main__.main`` or a child
process) on a small complete run that a test then spoils. Each was checked to fail on the code before these
checks existed (the stored summary trusted, the digest optional, no type check, no link count, a records file
read line by line without a cap on a line's length).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from reports.__main__ import main as reports_main
from simulations import _records, _store_files, runner, store
from simulations.__main__ import main

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("clean") / "run"
    runner.run("laplace_tail", 40, out, seed=3, workers=1, progress=False, overrides={"k": 2})
    return out


def _copy(clean: Path, where: Path) -> Path:
    run = where / "run"
    shutil.copytree(clean, run)
    return run


def _edit_line(run: Path, edit) -> None:
    path = run / store.RECORDS
    lines = path.read_text().splitlines(keepends=True)
    lines[0] = edit(lines[0])
    path.write_text("".join(lines))


def _flip(line: str) -> str:
    return line.replace('"success":true', '"success":false') if '"success":true' in line else \
        line.replace('"success":false', '"success":true')


#: (name, edit of one record line, what the one line on stderr names)
EDITS = [
    ("success flipped", _flip, "the records give"),
    ("type changed", lambda ln: re.sub(r'"success":(true|false)', '"success":"yes"', ln), "wrong type for its key"),
    ("digest removed", lambda ln: re.sub(r'"digest":"[0-9a-f]+",', "", ln), "lacks the run's digest"),
    ("non-finite number", lambda ln: re.sub(r'"max_abs_error":[0-9.e-]+', '"max_abs_error":1e999', ln), "not finite"),
    ("key twice", lambda ln: ln.replace('"success":', '"success":true,"success":', 1), "appears twice"),
]


@pytest.mark.parametrize("name,edit,needle", EDITS, ids=[e[0] for e in EDITS])
def test_an_edited_record_makes_status_and_resume_exit_2_with_the_reason(clean_run, tmp_path, capsys, name, edit,
                                                                          needle):
    """One record of a complete run edited: ``status`` and ``resume`` exit 2 naming why (the old code printed the
    stored verdict and exited 0 for the flipped success and the changed type)."""
    run = _copy(clean_run, tmp_path)
    _edit_line(run, edit)
    assert main(["status", str(run)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "corrupt" in err[0] and needle in err[0], err
    before = (run / store.RECORDS).read_bytes()
    assert main(["resume", str(run), "--workers", "1"]) == 2
    assert needle in capsys.readouterr().err
    assert (run / store.RECORDS).read_bytes() == before


def test_a_stored_summary_that_disagrees_with_its_records_is_corrupt(clean_run, tmp_path, capsys):
    """summary.json edited to another verdict: status exits 2 (the old code printed the edited verdict)."""
    run = _copy(clean_run, tmp_path)
    s = json.loads((run / store.SUMMARY).read_text())
    s["tail_detail"]["status"] = "violated"
    (run / store.SUMMARY).write_text(json.dumps(s))
    assert main(["status", str(run)]) == 2
    assert "tail_detail.status" in capsys.readouterr().err


def test_a_manifest_without_its_digest_is_corrupt(clean_run, tmp_path, capsys):
    """Deleting (or nulling) the manifest's digest does not switch the check off."""
    for value in (None, "delete"):
        run = tmp_path / f"run-{value}"
        shutil.copytree(clean_run, run)
        m = json.loads((run / store.MANIFEST).read_text())
        if value == "delete":
            del m["digest"]
        else:
            m["digest"] = None
        (run / store.MANIFEST).write_text(json.dumps(m))
        assert main(["status", str(run)]) == 2
        assert "lacks its digest" in capsys.readouterr().err


def test_the_report_shows_each_edited_run_as_corrupt_with_no_verdict(clean_run, tmp_path, capsys):
    """The report built over the edited runs (through its command line): each is corrupt, none has a verdict."""
    results = tmp_path / "results"
    for name, edit, _ in EDITS[:3]:
        run = results / name.replace(" ", "_")
        shutil.copytree(clean_run, run)
        _edit_line(run, edit)
    shutil.copytree(clean_run, results / "untouched")
    assert reports_main(["build", "--results", str(results), "--out", str(tmp_path / "report")]) == 0
    warnings = capsys.readouterr().err
    for name, _, needle in EDITS[:3]:
        assert any(name.replace(" ", "_") in w and "corrupt" in w and needle in w for w in warnings.splitlines())
    html = (tmp_path / "report" / "report.html").read_text()
    for name, _, _ in EDITS[:3]:
        row = next(r for r in html.split("<tr>") if f"{name.replace(' ', '_')}<" in r)
        assert "corrupt" in row and "none (corrupt)" in row
    row = next(r for r in html.split("<tr>") if "untouched<" in r)
    assert "floor check" in row


def test_a_hard_linked_records_file_is_refused(clean_run, tmp_path, capsys):
    """records.jsonl hard-linked to a file outside: status and resume refuse, the outside file is unchanged
    (the old resume truncated its torn last line and appended to it)."""
    run = _copy(clean_run, tmp_path)
    lines = (run / store.RECORDS).read_text().splitlines(keepends=True)
    (run / store.RECORDS).write_text("".join(lines[:30]) + lines[30][:20])  # unfinished, with a torn tail
    (run / store.SUMMARY).unlink()
    outside = tmp_path / "outside.jsonl"
    os.link(run / store.RECORDS, outside)
    before = outside.read_bytes()
    assert main(["status", str(run)]) == 2
    assert "hard links" in capsys.readouterr().err
    assert main(["resume", str(run), "--workers", "1"]) == 2
    assert "hard links" in capsys.readouterr().err
    assert outside.read_bytes() == before


def _peak_rss_mb(args: list[str]) -> tuple[int, float, str]:
    """(exit status, peak RSS in MB, stderr) of ``python -m simulations ARGS``, measured by a small parent
    process with resource.getrusage(RUSAGE_CHILDREN) (measured from pytest itself, a child's ru_maxrss would
    start at pytest's own size: Linux carries the forking process's high-water mark into the child)."""
    code = ("import resource, subprocess, sys\n"
            f"r = subprocess.run([sys.executable, '-m', 'simulations', *{args!r}])\n"
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    rc, kb = out.stdout.strip().splitlines()[-1].split()
    return int(rc), int(kb) / 1024, out.stderr


def test_a_sparse_1000_mb_records_file_is_refused_before_100_mb_of_memory(clean_run, tmp_path):
    """A 1000 MB sparse records file (one endless line of zeros, under the 1 GiB cap on the file): status exits 2
    with a peak RSS under 100 MB (the old code read the whole line: 2.4 GB)."""
    run = _copy(clean_run, tmp_path)
    os.truncate(run / store.RECORDS, 1000 * 2**20)
    rc, mb, err = _peak_rss_mb(["status", str(run)])
    assert rc == 2 and "longer than" in err, err
    assert mb < 100, f"peak RSS {mb:.0f} MB"


def test_the_report_reads_the_sparse_records_file_with_bounded_memory(clean_run, tmp_path):
    """The report's reader on the same sparse file: the run is corrupt, and reading it allocates under 100 MB
    (tracemalloc in a child; the old reader allocated the whole 1000 MB line)."""
    run = _copy(clean_run, tmp_path / "results")
    os.truncate(run / store.RECORDS, 1000 * 2**20)
    code = ("import sys, tracemalloc\nfrom reports import results\ntracemalloc.start()\n"
            "res = results.load(sys.argv[1])\n"
            "print(tracemalloc.get_traced_memory()[1], [r.state for r in res.runs])\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path / "results")], capture_output=True, text=True,
                         env=env, timeout=300)
    peak, states = out.stdout.split(" ", 1)
    assert states.strip() == "['corrupt']", out.stderr
    assert int(peak) < 100 * 2**20, f"{int(peak) / 2**20:.0f} MB"


def test_a_growing_records_file_is_read_only_up_to_its_cap(clean_run, tmp_path, monkeypatch):
    """The cap is on the bytes read, not on st_size: a file that grows past the cap while it is read is refused
    (the old reader checked st_size once, then read whatever came)."""
    run = _copy(clean_run, tmp_path)
    size = (run / store.RECORDS).stat().st_size
    monkeypatch.setattr(_store_files, "MAX_RECORDS_BYTES", size + 100)  # the limit scan_records reads
    real = store.open_regular

    def grows(path, **kw):  # the file grows right after it was opened and its size checked
        fh = real(path, **kw)
        if Path(path).name == store.RECORDS:
            with open(path, "ab") as more:
                more.write((run / store.RECORDS).read_bytes()[:size])
        return fh

    monkeypatch.setattr(store, "open_regular", grows)
    with pytest.raises(store.StoreError, match="above the limit"):
        store.RunDir.open(run).scan_records(40)


def test_control_characters_read_from_files_are_escaped(clean_run, tmp_path, capsys):
    """code_version and a lock's host holding terminal escape sequences are printed escaped by status and resume."""
    run = _copy(clean_run, tmp_path)
    m = json.loads((run / store.MANIFEST).read_text())
    m["code_version"] = "v1\x1b[2J\x1b]0;owned\x07"
    (run / store.MANIFEST).write_text(json.dumps(m))
    assert main(["status", str(run)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[2J" in out
    (run / store.LOCK).write_text(json.dumps({"pid": os.getpid(), "host": "h\x1b[31mred", "started_at": "x"}))
    assert main(["status", str(run)]) == 0  # another host: cannot tell whether it lives, so "running"
    out = capsys.readouterr().out
    assert "\x1b" not in out and "h\\x1b[31mred" in out
    assert main(["resume", str(run), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "h\\x1b[31mred" in err


def test_an_older_run_directory_is_refused_with_the_upgrade_command_and_upgrades(clean_run, tmp_path, capsys):
    """A format-1 directory: one line naming ``upgrade``; after it, status judges the run as before."""
    run = _copy(clean_run, tmp_path)
    m = json.loads((run / store.MANIFEST).read_text())
    (run / store.MANIFEST).write_text(json.dumps({**m, "format": "simulations-run/1"}))
    assert main(["status", str(run)]) == 2
    assert f"python -m simulations upgrade {run}" in capsys.readouterr().err
    assert main(["upgrade", str(run)]) == 0
    assert main(["status", str(run)]) == 0
    # a format-1 directory whose records lack the digest cannot be upgraded: nothing is written
    run2 = tmp_path / "old2"
    shutil.copytree(clean_run, run2)
    (run2 / store.MANIFEST).write_text(json.dumps({**m, "format": "simulations-run/1"}))
    _edit_line(run2, lambda ln: re.sub(r'"digest":"[0-9a-f]+",', "", ln))
    before = (run2 / store.MANIFEST).read_bytes()
    assert main(["upgrade", str(run2)]) == 2
    assert "cannot upgrade" in capsys.readouterr().err
    assert (run2 / store.MANIFEST).read_bytes() == before


def test_a_live_run_shows_its_time_so_far_and_no_resume_advice(clean_run, tmp_path, capsys):
    """A stage computing for 30 minutes (its open session started 30 min ago, its lock held by a live process):
    status says about 30 minutes so far, not "0.00s of running", and the report does not suggest resume."""
    import datetime as dt
    import socket

    from reports import results

    run = _copy(clean_run, tmp_path / "results")
    lines = (run / store.RECORDS).read_text().splitlines(keepends=True)
    (run / store.RECORDS).write_text("".join(lines[:20]))
    (run / store.SUMMARY).unlink()
    m = json.loads((run / store.MANIFEST).read_text())
    started = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=30)).isoformat()
    m["sessions"].append({"started_at": started, "finished_at": None, "elapsed_seconds": None})
    m["status"] = "running"
    (run / store.MANIFEST).write_text(json.dumps(m))
    holder = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        (run / store.LOCK).write_text(json.dumps({"pid": holder.pid, "host": socket.gethostname(),
                                                  "started_at": started, "proc_start": None}))
        assert main(["status", str(run)]) == 0
        out = capsys.readouterr().out
        assert re.search(r"30\.\d min so far \(running now\)", out), out
        assert "0.00s" not in out and "status: running" in out
        res = results.load(tmp_path / "results")
        (r,) = res.runs
        assert r.state == "running" and "so far" in r.elapsed
        text = results.unfinished_text(r)
        assert "resume" not in text and "running" in text
    finally:
        holder.kill()
        holder.wait()


# ---------------------------------------------------------------- the record schema itself


@dataclass(frozen=True)
class _Inner:
    a: float
    ok: bool


@dataclass(frozen=True)
class _Outcome:
    n: int
    success: bool
    errors: list[float]
    note: str | None
    inner: _Inner


def test_record_schema_from_a_dataclass_and_strict_parsing():
    """schema_from_dataclass maps annotations to JSON types (bool is not int); strict_loads refuses what the
    writer never writes."""
    schema = _records.schema_from_dataclass(_Outcome)
    good = {"n": 3, "success": True, "errors": [0.1], "note": None, "inner": {"a": 1, "ok": False}}
    assert _records.check_record(good, schema) == []
    bad = {**good, "n": True, "success": 1, "inner": {"a": "x", "ok": True}, "extra": 0}
    problems = _records.check_record(bad, schema)
    assert len(problems) == 4 and any("n is boolean" in p for p in problems)
    for raw in ('{"a": 1e999}', '{"a": -1e400}', '{"a": 1, "a": 1}', '{"a": NaN}', '{"a": Infinity}'):
        with pytest.raises(_records.RecordError):
            _records.strict_loads(raw)


def test_record_schema_is_read_from_a_typed_outcome_when_declared():
    """record_schema: the experiment's declared outcome when there is one, else None (judged by consistency)."""
    from types import SimpleNamespace

    assert _records.record_schema(SimpleNamespace(EXPERIMENT=SimpleNamespace(outcome=_Inner))) == \
        {"a": "number", "ok": "boolean"}
    assert _records.record_schema(SimpleNamespace()) is None
