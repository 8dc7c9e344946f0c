"""The runner and the store: records independent of workers and backend; kill-and-resume loses and double-counts
nothing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from simulations import runner, store

REPO = Path(__file__).resolve().parents[2]


def _records(path) -> dict:
    return store.RunDir.open(path).read_records()


def test_trial_rng_is_the_ith_spawned_child():
    """trial_rng(root, i) draws what SeedSequence(root).spawn(n)[i] draws (so the seeding is the documented one)."""
    children = np.random.SeedSequence(12345).spawn(5)
    for i, child in enumerate(children):
        assert np.array_equal(runner.trial_rng(12345, i).random(4), np.random.default_rng(child).random(4))


def test_records_identical_for_one_two_workers_and_dask(tmp_path):
    """Same seed: serial, 2-process pool and a Dask LocalCluster give identical records (catches seeding by worker or
    order)."""
    distributed = pytest.importorskip("distributed")
    a = runner.run("laplace_tail", 300, tmp_path / "serial", seed=2024, workers=1, progress=False)
    b = runner.run("laplace_tail", 300, tmp_path / "pool", seed=2024, workers=2, chunk_size=7, progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        c = runner.run("laplace_tail", 300, tmp_path / "dask", seed=2024, scheduler=cluster.scheduler_address,
                       chunk_size=11, progress=False)
    ra, rb, rc = _records(a.path), _records(b.path), _records(c.path)
    assert list(ra) == list(range(300))
    assert ra == rb == rc
    assert a.summary == b.summary == c.summary
    other = runner.run("laplace_tail", 300, tmp_path / "other", seed=2025, workers=1, progress=False)
    assert _records(other.path) != ra
    manifest = json.loads((Path(c.path) / store.MANIFEST).read_text())
    assert manifest["sessions"][0]["backend"] == "dask" and manifest["status"] == "complete"


def test_run_records_manifest_fields(tmp_path):
    """The manifest records experiment, parameters, root seed, trials, code version and timing."""
    r = runner.run("laplace_tail", 20, tmp_path / "run", seed=5, workers=1, overrides={"k": "3"}, progress=False)
    m = json.loads((Path(r.path) / store.MANIFEST).read_text())
    # laplace_tail checks the Laplace mechanism, no paper result
    assert m["experiment"] == "laplace_tail" and m["result_ids"] == []
    assert m["params"]["k"] == 3 and m["root_seed"] == 5 and m["trials"] == 20
    assert m["code_version"] and m["created_at"] and m["finished_at"]
    assert m["sessions"][0]["elapsed_seconds"] >= 0 and m["sessions"][0]["trials_run"] == 20
    assert (Path(r.path) / store.SUMMARY).is_file()


def test_existing_nonempty_out_is_refused(tmp_path):
    """A non-empty --out directory is an error, and its contents are left untouched."""
    out = tmp_path / "busy"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(ValueError, match="already exists"):
        runner.run("laplace_tail", 5, out, seed=1, workers=1)
    assert sorted(p.name for p in out.iterdir()) == ["keep.txt"]


def test_bad_parameter_leaves_nothing_behind(tmp_path):
    """Parameters are validated before the run directory is created."""
    with pytest.raises(ValueError, match="beta"):
        runner.run("laplace_tail", 5, tmp_path / "x", seed=1, workers=1, overrides={"beta": "1.5"})
    assert not (tmp_path / "x").exists()


def test_torn_last_line_is_ignored_and_repaired(tmp_path):
    """A torn last line (a write cut by a kill) is not read as a record, and resume cuts it before appending."""
    r = runner.run("laplace_tail", 40, tmp_path / "run", seed=9, workers=1, progress=False)
    full = _records(r.path)
    path = Path(r.path) / store.RECORDS
    lines = path.read_text().splitlines(keepends=True)
    kept = [ln for ln in lines if json.loads(ln)["index"] not in (3, 17, 39)]
    torn = next(ln for ln in lines if json.loads(ln)["index"] == 17)[:25]
    path.write_text("".join(kept) + torn)
    rd = store.RunDir.open(r.path)
    assert set(rd.read_records()) == set(range(40)) - {3, 17, 39}
    runner.resume(r.path, workers=1, progress=False)
    assert _records(r.path) == full
    assert all(ln.endswith("\n") and json.loads(ln) for ln in path.read_text().splitlines(keepends=True))


def test_corrupt_middle_line_is_an_error(tmp_path):
    """Only the last line may be torn; a corrupt line in the middle means a damaged file and is reported."""
    r = runner.run("laplace_tail", 5, tmp_path / "run", seed=9, workers=1, progress=False)
    path = Path(r.path) / store.RECORDS
    lines = path.read_text().splitlines(keepends=True)
    path.write_text(lines[0] + "{garbage\n" + "".join(lines[1:]))
    with pytest.raises(ValueError, match="line 2 is corrupt"):
        store.RunDir.open(r.path).read_records()


def test_duplicate_indices_are_counted_once(tmp_path):
    """A record appended twice (e.g. a chunk re-run) is counted once: the summary equals the clean run's."""
    r = runner.run("laplace_tail", 30, tmp_path / "run", seed=4, workers=1, progress=False)
    path = Path(r.path) / store.RECORDS
    text = path.read_text()
    path.write_text(text + text.splitlines(keepends=True)[0] * 3)
    info = runner.status(r.path)
    assert info["completed"] == 30 and info["missing"] == 0


def _wait_for_lines(path: Path, n: int, proc, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        if proc.poll() is not None:
            raise AssertionError(f"run finished before it could be killed (rc={proc.returncode})")
        time.sleep(0.02)
    raise AssertionError("no records appeared")


@pytest.mark.parametrize("workers", [1, 2])
def test_killed_run_resumed_equals_uninterrupted_run(tmp_path, toy_module, workers):
    """SIGKILL a run mid-way, resume it: its records and summary equal an uninterrupted run's exactly
    (catches lost trials, double-counted trials, and reseeding on resume)."""
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "simulations", "run", toy_module, "--trials", "600", "--seed", "77",
           "--workers", str(workers), "--chunk-size", "5", "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=REPO, env=os.environ.copy(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        _wait_for_lines(out / store.RECORDS, 60, proc)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    partial = store.RunDir.open(out).read_records()
    assert 60 <= len(partial) < 600
    with open(out / store.RECORDS, "a") as fh:  # simulate a write torn by the kill
        fh.write('{"index": 399, "rec')
    rc = subprocess.run([sys.executable, "-m", "simulations", "resume", str(out), "--workers", str(workers),
                         "--experiment", toy_module],  # outside the registry: the user names the module
                        cwd=REPO, env=os.environ.copy(), capture_output=True, text=True)
    assert rc.returncode == 0, rc.stderr
    straight = runner.run(toy_module, 600, tmp_path / "straight", seed=77, workers=2, progress=False)
    assert _records(out) == _records(straight.path)
    assert json.loads((out / store.SUMMARY).read_text()) == straight.summary
    manifest = json.loads((out / store.MANIFEST).read_text())
    assert manifest["status"] == "complete" and len(manifest["sessions"]) == 2
    assert manifest["sessions"][1]["trials_run"] == 600 - len(partial)


def test_records_file_cut_at_any_byte_reads_exactly_the_whole_lines(tmp_path):
    """Crash safety at any moment: records.jsonl cut at every byte offset reads as exactly the records whose line
    (with its newline) lies before the cut, and after repair_tail the file ends on a newline (catches a reader
    that accepts a half-written last line or rejects the file)."""
    r = runner.run("laplace_tail", 4, tmp_path / "run", seed=8, workers=1, progress=False)
    path = Path(r.path) / store.RECORDS
    data = path.read_bytes()
    ends = [i + 1 for i, b in enumerate(data) if b == ord("\n")]
    full = store.RunDir.open(r.path).read_records()
    order = [json.loads(line)["index"] for line in data.decode().splitlines()]
    for cut in range(len(data) + 1):
        path.write_bytes(data[:cut])
        rd = store.RunDir.open(r.path)
        whole = sum(1 for e in ends if e <= cut)
        assert rd.read_records() == {i: full[i] for i in sorted(order[:whole])}
        if cut % 17:  # repair_tail fsyncs (slow): check it on a spread of cuts
            continue
        rd.repair_tail()
        assert path.read_bytes() == data[:max([e for e in ends if e <= cut], default=0)]


def test_evaluate_in_memory_equals_stored_run(tmp_path):
    """runner.evaluate (no run directory, 2 workers) returns the records and summary runner.run stores for the same
    seed."""
    stored = runner.run("laplace_tail", 60, tmp_path / "run", seed=21, workers=1, overrides={"k": 2}, progress=False)
    records, summary = runner.evaluate("laplace_tail", 60, seed=21, overrides={"k": 2}, workers=2, chunk_size=8)
    assert records == list(_records(stored.path).values()) and summary == stored.summary


def test_failing_trial_marks_the_run_interrupted_and_keeps_finished_trials(tmp_path, toy_module):
    """A trial that raises stops the run with its error, the manifest says 'interrupted' with the error, and the
    chunks finished before it stay on disk (exactly the trials before the first failing one, serially)."""
    overrides = {"sleep": 0.0, "fail_below": 0.02}
    first_bad = next(i for i in range(10_000) if runner.trial_rng(1, i).random(3)[1] < 0.02)
    with pytest.raises(ValueError, match="on purpose"):
        runner.run(toy_module, first_bad + 50, tmp_path / "run", seed=1, workers=1, chunk_size=1, progress=False,
                   overrides=overrides)
    m = json.loads((tmp_path / "run" / store.MANIFEST).read_text())
    assert m["status"] == "interrupted" and "on purpose" in m["sessions"][0]["interrupted"]
    assert list(_records(tmp_path / "run")) == list(range(first_bad))
