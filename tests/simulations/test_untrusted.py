"""Run directories are untrusted input: crafted directories get one line and exit 2 (or a flagged problem), no
code they name is imported, nothing is written through a link, nothing outside the directory changes, and
pool workers die with their parent.

Each family is a table of bad inputs (a crafted directory is a function that spoils a clean run directory),
so a new command or a new crafted case joins by adding a row.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simulations import _store_files, runner, store
from simulations.__main__ import main

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory) -> Path:
    """One small complete run of a registered experiment, copied by each test."""
    out = tmp_path_factory.mktemp("clean") / "run"
    runner.run("laplace_tail", 12, out, seed=5, workers=1, progress=False, overrides={"k": 2})
    return out


def _tree(root: Path) -> dict:
    """Every path below ``root`` (links not followed) with a digest of its bytes (regular files) or its kind."""
    out = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            st = os.lstat(p)
            if os.path.islink(p):
                out[str(p)] = ("link", os.readlink(p))
            elif p.is_file() and not p.is_fifo():
                out[str(p)] = ("file", hashlib.sha256(p.read_bytes()).hexdigest(), st.st_mode)
            else:
                out[str(p)] = ("other", st.st_mode & 0o170000)
    return out


# --- crafted directories: (name, spoil(run_dir, outside_dir), needle in the one line) -----------------


def _planted_module(run: Path, outside: Path):
    """A package beside the run directory (on sys.path through the current directory) named by the manifest."""
    pkg = outside / "planted_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "evil.py").write_text(f"open({str(outside / 'PWNED')!r}, 'w').write('ran')\n")
    m = json.loads((run / store.MANIFEST).read_text())
    m["module"], m["experiment"] = "planted_pkg.evil", "evil"
    (run / store.MANIFEST).write_text(json.dumps(m))


def _planted_module_under_a_real_name(run: Path, outside: Path):
    """The manifest keeps a registered name but points its module path at the planted package."""
    _planted_module(run, outside)
    m = json.loads((run / store.MANIFEST).read_text())
    m["experiment"] = "laplace_tail"
    (run / store.MANIFEST).write_text(json.dumps(m))


def _symlinked_records(run: Path, outside: Path):
    (outside / "victim.txt").write_text("precious line one\nprecious torn")
    (run / store.RECORDS).unlink()
    (run / store.RECORDS).symlink_to(outside / "victim.txt")


def _records_to_dev_zero(run: Path, outside: Path):
    (run / store.RECORDS).unlink()
    (run / store.RECORDS).symlink_to("/dev/zero")


def _lock_to_dev_zero(run: Path, outside: Path):
    (run / store.LOCK).symlink_to("/dev/zero")


def _records_fifo(run: Path, outside: Path):
    (run / store.RECORDS).unlink()
    os.mkfifo(run / store.RECORDS)


def _manifest_fifo(run: Path, outside: Path):
    (run / store.MANIFEST).unlink()
    os.mkfifo(run / store.MANIFEST)


def _edit_manifest(**changes):
    def spoil(run: Path, outside: Path):
        m = json.loads((run / store.MANIFEST).read_text())
        for k, v in changes.items():
            if k == "params":
                m["params"].update(v)
            else:
                m[k] = v
        (run / store.MANIFEST).write_text(json.dumps(m))
    return spoil


def _conflicting_duplicate_first(run: Path, outside: Path):
    lines = (run / store.RECORDS).read_text().splitlines(keepends=True)
    row = json.loads(lines[3])
    row["record"] = {**row["record"], "forged": True}
    (run / store.RECORDS).write_text(json.dumps(row) + "\n" + "".join(lines))


def _nan_record(run: Path, outside: Path):
    lines = (run / store.RECORDS).read_text().splitlines(keepends=True)
    lines[2] = lines[2].replace('"record":{', '"record":{"x":NaN,', 1)
    (run / store.RECORDS).write_text("".join(lines))


def _foreign_record(run: Path, outside: Path):
    """A record of another run (another digest) appended for a missing index."""
    lines = (run / store.RECORDS).read_text().splitlines(keepends=True)
    row = json.loads(lines[0])
    (run / store.RECORDS).write_text("".join(lines[1:]) + json.dumps({**row, "digest": "0" * 16}) + "\n")
    (run / store.SUMMARY).unlink()


def _record_missing_keys(run: Path, outside: Path):
    """A well-formed line of this run (its digest) whose record lacks the keys the experiment writes."""
    digest = json.loads((run / store.MANIFEST).read_text())["digest"]
    lines = (run / store.RECORDS).read_text().splitlines(keepends=True)
    (run / store.RECORDS).write_text("".join(lines[1:]) + json.dumps({"index": 0, "record": {}, "digest": digest})
                                     + "\n")
    (run / store.SUMMARY).unlink()


def _write(text):
    def spoil(run: Path, outside: Path):
        (run / store.MANIFEST).write_text(text)
    return spoil


CRAFTED = [
    ("planted module", _planted_module, "not in the registry|edited"),
    ("symlinked records", _symlinked_records, "symbolic link"),
    ("records -> /dev/zero", _records_to_dev_zero, "symbolic link"),
    ("lock -> /dev/zero", _lock_to_dev_zero, "symbolic link"),
    ("records FIFO", _records_fifo, "not a regular file"),
    ("manifest FIFO", _manifest_fifo, "not a regular file"),
    ("edited params", _edit_manifest(params={"k": 3}), "edited"),
    ("edited seed", _edit_manifest(root_seed=6), "edited"),
    ("conflicting duplicate first", _conflicting_duplicate_first, "conflicting duplicate"),
    ("NaN record", _nan_record, "NaN"),
    ("record of another run", _foreign_record, "digest"),
    ("record missing its keys", _record_missing_keys, "shape|wrong type"),
    ("trials -5", _edit_manifest(trials=-5), "trials"),
    ("trials 10^15", _edit_manifest(trials=10**15), "--max-trials"),
    ("manifest a list", _write("[1, 2]"), "JSON object"),
    ("manifest without trials", lambda r, o: _write(json.dumps(
        {k: v for k, v in json.loads((r / store.MANIFEST).read_text()).items() if k != "trials"}))(r, o), "trials"),
    ("manifest 200k deep", _write("[" * 200_000 + "]" * 200_000), "nested too deeply"),
    ("manifest with NaN seed", _write('{"format": "simulations-run/1", "root_seed": NaN}'), "NaN"),
]


@pytest.mark.parametrize("command", ["status", "resume"])
@pytest.mark.parametrize("name,spoil,needle", CRAFTED, ids=[c[0] for c in CRAFTED])
def test_crafted_run_directory_is_one_line_exit_2_and_changes_nothing_outside(
        tmp_path, clean_run, capsys, monkeypatch, command, name, spoil, needle):
    """Catches: importing the manifest's module (PWNED appears), writing through a link (the victim changes),
    reading /dev/zero or a FIFO (hangs; pytest's timeout-free run would stall), mixing parameter sets or
    seeds, a forged duplicate winning, NaN accepted, and tracebacks on malformed manifests."""
    outside = tmp_path / "outside"
    outside.mkdir()
    run = tmp_path / "run"
    shutil.copytree(clean_run, run)
    spoil(run, outside)
    monkeypatch.chdir(outside)  # the planted package is importable from the current directory
    monkeypatch.syspath_prepend(str(outside))
    before = _tree(outside)
    assert main([command, str(run), "--workers", "1"] if command == "resume" else [command, str(run)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and any(n in err[0] for n in needle.split("|")), err
    assert _tree(outside) == before and not (outside / "PWNED").exists()
    assert "planted_pkg" not in sys.modules
    if name not in ("manifest a list", "record missing its keys"):  # the report can show each of the others
        assert store.integrity_problems(run)


def test_planted_module_under_a_registered_name_is_never_imported(tmp_path, clean_run, monkeypatch):
    """The manifest's module path is ignored: the experiment comes from the registry by name."""
    outside = tmp_path / "outside"
    outside.mkdir()
    run = tmp_path / "run"
    shutil.copytree(clean_run, run)
    _planted_module_under_a_real_name(run, outside)
    monkeypatch.chdir(outside)
    monkeypatch.syspath_prepend(str(outside))
    assert runner.status(run)["status"] == "complete"
    (run / store.SUMMARY).unlink()
    lines = (run / store.RECORDS).read_text().splitlines(keepends=True)
    (run / store.RECORDS).write_text("".join(lines[:5]))
    assert runner.resume(run, workers=1, progress=False).completed == 12
    assert not (outside / "PWNED").exists() and "planted_pkg" not in sys.modules


def test_clean_directory_has_no_integrity_problem_and_files_follow_the_umask(clean_run):
    """integrity_problems is empty for a clean run; result files are readable by others under umask 022
    (catches mkstemp's owner-only mode leaking into results)."""
    assert store.integrity_problems(clean_run) == []
    old = os.umask(0o022)
    try:
        for name in (store.MANIFEST, store.SUMMARY):
            assert (clean_run / name).stat().st_mode & 0o777 == 0o644, name
    finally:
        os.umask(old)


def test_records_above_the_size_limit_are_refused_unread(tmp_path, clean_run, monkeypatch, capsys):
    run = tmp_path / "run"
    shutil.copytree(clean_run, run)
    monkeypatch.setattr(_store_files, "MAX_RECORDS_BYTES", 100)  # the limit open_regular reads
    assert main(["status", str(run)]) == 2
    err = capsys.readouterr().err
    assert "SIMULATIONS_MAX_RECORDS_MB" in err and len(err.strip().splitlines()) == 1


def _children(pid: int) -> list[int]:
    kids = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            pass
    return kids


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_pool_workers_die_within_5_s_of_a_kill_9_of_the_main_process(tmp_path, toy_module):
    """kill -9 of the main process only (not its group): its pool workers exit within 5 s (they lived on
    for minutes before PR_SET_PDEATHSIG and the parent watch)."""
    cmd = [sys.executable, "-m", "simulations", "run", toy_module, "--trials", "4000", "--seed", "1",
           "--workers", "2", "--chunk-size", "5", "--out", str(tmp_path / "run"), "--param", "sleep=0.05"]
    proc = subprocess.Popen(cmd, cwd=REPO, env=os.environ.copy(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.1)
            workers = [k for k in _children(proc.pid) if _alive(k)]
        assert len(workers) >= 2, "the pool did not start"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and any(_alive(w) for w in workers):
            time.sleep(0.1)
        alive = [w for w in workers if _alive(w)]
        assert not alive, f"workers {alive} outlived their parent by 5 s"
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def test_lost_dask_scheduler_is_one_line_and_the_run_resumes_to_the_same_records(tmp_path):
    """The scheduler killed mid-run: one line on stderr (it was 65 lines of Dask tracebacks), exit 2, and
    `resume` completes the run with exactly the records of an uninterrupted one."""
    dask = Path(sys.executable).with_name("dask")
    env = {**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    sched_file = tmp_path / "scheduler.json"
    procs = [subprocess.Popen([str(dask), "scheduler", "--port", "0", "--no-dashboard", "--scheduler-file",
                               str(sched_file)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              start_new_session=True)]
    out = tmp_path / "run"
    try:
        deadline = time.monotonic() + 60
        while not sched_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        procs.append(subprocess.Popen([str(dask), "worker", "--scheduler-file", str(sched_file), "--nworkers", "1",
                                       "--nthreads", "1", "--no-dashboard"], env=env, stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL, start_new_session=True))
        run = subprocess.Popen([sys.executable, "-m", "simulations", "run", "laplace_tail", "--trials", "20000",
                                "--seed", "4", "--chunk-size", "20", "--out", str(out), "--scheduler", str(sched_file)],
                               cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and run.poll() is None:
            if (out / store.RECORDS).exists() and (out / store.RECORDS).stat().st_size > 20_000:
                break
            time.sleep(0.1)
        assert run.poll() is None, ("the run ended before the scheduler could be killed", run.communicate())
        os.killpg(procs[0].pid, signal.SIGKILL)
        _, err = run.communicate(timeout=120)
    finally:
        for p in procs:
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
    lines = err.strip().splitlines()
    assert run.returncode == 2 and len(lines) == 1, err[-2000:]
    assert "lost the Dask scheduler" in lines[0] and "resume" in lines[0]
    assert runner.status(out)["status"] in ("interrupted", "stale")
    assert main(["resume", str(out), "--workers", "1"]) == 0
    straight = runner.run("laplace_tail", 20000, tmp_path / "straight", seed=4, workers=1, progress=False)
    assert store.RunDir(out).read_records() == store.RunDir(straight.path).read_records()


def test_a_run_whose_first_trial_fails_is_one_line_and_leaves_nothing(tmp_path, toy_module, capsys):
    """A trial raising on its parameters (as m_scale=1e300 did with an OverflowError) is one line and exit 2,
    and a new run with no finished trial leaves no directory behind (there is nothing to resume)."""
    out = tmp_path / "run"
    assert main(["run", toy_module, "--trials", "5", "--workers", "1", "--out", str(out),
                 "--param", "fail_below=1.0", "--param", "sleep=0"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "a trial of slow_toy failed" in err[0] and "on purpose" in err[0]
    assert not out.exists()
