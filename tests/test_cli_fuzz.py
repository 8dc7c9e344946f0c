"""Seeded fuzz of the four command lines and of crafted run directories: every generated input is nonsense
(each line carries at least one value its command must refuse), so each must end with exit status 2 and
exactly one line on stderr: no traceback, no hang, no silent exit 0, nothing written where it was not asked,
nothing in the repository changed.

Generated from tables: a valid base command per command line, and for each of its slots the bad values it
must refuse. A new command joins by adding its base and its bad slots. Runs in-process (seconds, not minutes);
the seed is fixed so a failure reproduces. Catches any of the refusals being removed (try deleting the
empty-item check of ``bounds sweep`` or the --samples limit of ``simulations audit``: the test fails).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import shutil
import signal
import subprocess
from pathlib import Path

import pytest

from bounds.__main__ import main as bounds_main
from proofs_checks.__main__ import main as proofs_main
from reports.__main__ import main as reports_main
from simulations import runner, store
from simulations.__main__ import main as sim_main

REPO = Path(__file__).resolve().parents[1]
SEED = 20261125
COMMAND_LINES = 320
CRAFTED_DIRS = 80
HANG_SECONDS = 60


class _Hang(BaseException):
    """Raised by the alarm: passes through every `except Exception` of the code under test."""


def _bases(tmp: Path) -> list[tuple]:
    """(main, base argv, {slot: bad values}); a slot is a flag (its value is replaced), ``@N`` (positional N
    replaced) or ``+`` (extra arguments appended)."""
    out = str(tmp / "OUT")
    thm10 = ["--alpha", "0.1", "--beta", "0.05", "--epsilon", "0.5", "--delta", "1e-6", "--vc", "3", "--dual-vc", "8"]
    long_int = "9" * 5000
    return [
        (bounds_main, ["compute", "thm10", *thm10], {
            "--alpha": ["0", "1.5", "-1", "nan", "inf", "", "abc", "1e999", "0.1,,0.2", ",,,"],
            "--vc": ["0", "-3", "1.5", "2^99999", long_int, "x"],
            "--dual-vc": ["0", "100000", "2.5"],
            "--epsilon": ["0", "-1", "nan"],
            "--delta": ["1", "2", "-0.1"],
            "@1": ["nope", "", "thm999"],
            "+": [["--frobnicate"], ["--const", "novalue"], ["--form", "weird"], ["--json", "--csv"]]}),
        (bounds_main, ["compute", "thm10", "--alpha", "0.1", "--beta", "0.05", "--eps", "0.5", "--delta", "1e-6",
                       "--vc", "3", "--dual-vc", "8"], {
            "--eps": ["0", "-2", "x"],
            "+": [["--vc", "10", "--dual-vc", "2"], ["--vc", "1", "--dual-vc", "8"]]}),
        (bounds_main, ["sweep", "thm10", *thm10[:-2], "--dual-vc", "8"], {
            "--alpha": ["0.1,,0.2", ",,,", "0.01:0.5:0", "0.01:0.5:3000000", "0.01:0.5:5:cubic", "0.01:0.5:x",
                        "0:1:5:log", "0.01:0.5:" + long_int],
            "--max-points": ["0", "x", "-5"]}),
        (bounds_main, ["crossover", "thm7", "thm11", "--vary", "num-queries"], {
            "@2": ["thm7"], "--vary": ["nonsense"], "--low": ["abc"], "@1": ["nope"]}),
        (bounds_main, ["list"], {"+": [["--bogus"], ["--json", "--csv"], ["extra"]]}),
        (bounds_main, ["show", "thm10"], {"@1": ["nope", ""], "+": [["--bogus"]]}),
        (bounds_main, ["plot", "thm10", "uc", "--vary", "alpha", *thm10[2:], "--out", str(tmp / "OUT.png")], {
            "--out": ["", "fig.gif", str(REPO / "bounds" / "x.png"), str(tmp / "nodir" / "x.png"),
                      str(REPO / ".git" / "x.png")],
            "--vary": ["nonsense", "num-queries"], "--low": ["0", "-1", "x"], "--points": ["0", "1", "x", "99999999"],
            "@1": ["nope"], "+": [["--quantity", "nothing"], ["--alpha", "0.1"]]}),
        (bounds_main, ["coverage"], {"+": [["--results", str(tmp)], ["--json", "--csv"], ["--bogus"], ["extra"]]}),
        (sim_main, ["run", "laplace_tail", "--trials", "5", "--seed", "1", "--workers", "1", "--out", out], {
            "--trials": ["0", "-1", "1e9", "abc", "", "2000000", long_int],
            "--seed": ["-1", "x", "1.5"],
            "--workers": ["0", "-2", "400", "x"],
            "--out": ["", str(REPO / "bounds" / "x"), str(REPO / ".git" / "x"), str(REPO), str(tmp / ("a" * 300))],
            "@1": ["nope", "", "os.path"],
            "+": [["--param", "k=1e9"], ["--param", "m_scale=1e300"], ["--param", "beta=7"], ["--param", "nokey"],
                  ["--param", "k=abc"], ["--param", "eps=nan"], ["--param", "k=" + long_int], ["--chunk-size", "0"],
                  ["--scheduler", "garbage"], ["--scheduler", "tcp://host:99999"],
                  ["--scheduler", "tcp://127.0.0.1"]]}),
        (sim_main, ["audit", "laplace", "--samples", "200", "--seed", "1"], {
            "--samples": ["0", "1e9", "x", "100000000"],
            "--seed": ["-5"],
            "--confidence": ["0", "1", "1.5"],
            "@1": ["nope", ""],
            "+": [["--epsilon", "0"], ["--epsilon", "-1"], ["--epsilon", "800"], ["--eps", "nan"], ["--eps", "inf"],
                  ["--delta", "2"], ["--delta", "-1"], ["--delta", "0.5"], ["--out", ""], ["--out", str(REPO)],
                  ["--out", str(REPO / "simulations")], ["extra_target"]]}),
        (sim_main, ["audit", "--all", "laplace", "laplace_no_noise", "--samples", "200"], {
            "@3": ["laplace", "nope"], "+": [["--eps", "1"], ["--delta", "0.1"], ["--workers", "0"],
                                            ["--workers", "100000"], ["--workers", "x"]],
            "--samples": ["0", "999999999"]}),
        (sim_main, ["status", str(tmp / "missing")], {"@1": ["", str(tmp / "nothing")], "+": [["--bogus"]]}),
        (sim_main, ["resume", str(tmp / "missing"), "--workers", "1"], {"@1": [""], "--workers": ["0", "100000"]}),
        (sim_main, ["list", "laplace_tail"], {"@1": ["nope"], "+": [["--json", "--csv"], ["x", "y"]]}),
        (proofs_main, ["--list"], {"+": [["--paper", "nope"], ["--out", str(REPO / "bounds")], ["--out", ""],
                                         ["--bogus"], ["--errata", "--csv"], ["--json", "--csv"]]}),
        (reports_main, ["build", "--results", str(tmp), "--out", str(tmp / "report")], {
            "--out": ["", str(REPO / "docs"), str(REPO / ".git")], "--results": [""],
            "+": [["--bogus"], ["--title", ""]]}),
        (reports_main, ["coverage", "--results", str(tmp)], {
            "--results": ["", str(tmp / "nothing")], "+": [["--json", "--csv"], ["--bogus"], ["extra"]]}),
    ]


def _mutate(rng: random.Random, base: list, slots: dict) -> list[str]:
    argv = list(base)
    chosen = rng.sample(sorted(slots), k=min(len(slots), rng.choice([1, 1, 2])))
    for slot in chosen:
        bad = rng.choice(slots[slot])
        if slot == "+":
            argv += bad
        elif slot.startswith("@"):
            argv[int(slot[1:])] = bad
        elif slot in argv:
            argv[argv.index(slot) + 1] = bad
        else:
            argv += [slot, bad]
    return argv


def _short(argv) -> list[str]:
    return [a if len(a) <= 60 else a[:40] + f"...({len(a)} chars)" for a in argv]


def _call(main, argv) -> tuple[int | str, str, str]:
    out, err = io.StringIO(), io.StringIO()

    def alarm(signum, frame):
        raise _Hang()

    old = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(HANG_SECONDS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = main(argv)
    except _Hang:
        rc = "hang"
    except SystemExit as exc:
        rc = f"SystemExit({exc.code})"
    except BaseException as exc:  # an exception escaping main is a traceback on the command line
        rc = f"raised {type(exc).__name__}: {exc}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    return rc, out.getvalue(), err.getvalue()


def _git_status() -> str:
    return subprocess.run(["git", "status", "--porcelain", "--ignored"], cwd=REPO, capture_output=True,
                          text=True).stdout


def test_fuzzed_command_lines_each_one_line_exit_2(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rng = random.Random(SEED)
    bases = _bases(tmp_path)
    before = _git_status()
    failures = []
    counts = {"lines": 0}
    for _ in range(COMMAND_LINES):
        main, base, slots = bases[rng.randrange(len(bases))]
        argv = _mutate(rng, base, slots)
        rc, out, err = _call(main, argv)
        counts["lines"] += 1
        lines = err.strip().splitlines()
        if rc != 2 or len(lines) != 1 or "Traceback" in err:
            failures.append((main.__module__, _short(argv), rc, err[-300:]))
        for name in ("OUT", "report", "OUT.png"):
            if (tmp_path / name).exists():
                failures.append((main.__module__, _short(argv), f"left {name} behind"))
                shutil.rmtree(tmp_path / name)
    assert _git_status() == before, "the repository changed"
    assert not failures, f"{len(failures)} of {counts['lines']} fuzzed lines: {failures[:5]}"


# --- crafted run directories: detectable corruptions, combined at random --------------------------------


def _plain(p: Path) -> bool:
    """A regular file, not a link: the spoilers below never read a FIFO or write through a link."""
    return p.is_file() and not p.is_symlink()


def _edit_json(run: Path, fn) -> None:
    p = run / store.MANIFEST
    if not _plain(p):
        return
    try:
        m = json.loads(p.read_text())
        fn(m)
    except (ValueError, TypeError, KeyError, AttributeError, IndexError):
        return  # an earlier spoiler already broke it
    p.write_text(json.dumps(m))


def _spoil_manifest(field, value):
    def spoil(run: Path):
        _edit_json(run, lambda m: m.__setitem__(field, value))
    return spoil


def _spoil_param(run: Path):
    _edit_json(run, lambda m: m["params"].__setitem__("k", m["params"]["k"] + 1))


def _spoil_records(fn):
    def spoil(run: Path):
        p = run / store.RECORDS
        if not _plain(p):
            return
        lines = p.read_text().splitlines(keepends=True)
        try:
            p.write_text("".join(fn(lines)))
        except (ValueError, IndexError, KeyError, TypeError):
            return
    return spoil


def _conflict(lines):
    row = json.loads(lines[1])
    row["record"]["forged"] = 1
    return [json.dumps(row) + "\n"] + lines


def _nan(lines):
    return lines[:2] + [lines[2].replace('"record":{', '"record":{"z":Infinity,', 1)] + lines[3:]


def _keyless(run: Path):
    """A record of this run (its digest) without the keys the experiment writes, for a missing index."""
    p = run / store.MANIFEST
    if not _plain(p) or not _plain(run / store.RECORDS):
        return
    try:
        digest = json.loads(p.read_text())["digest"]
    except (ValueError, KeyError, TypeError):
        return
    lines = (run / store.RECORDS).read_text().splitlines(keepends=True)
    (run / store.RECORDS).write_text("".join(lines[1:]) + json.dumps({"index": 0, "record": {"x": 1},
                                                                      "digest": digest}) + "\n")
    if _plain(run / store.SUMMARY):
        (run / store.SUMMARY).unlink()


def _replace(name, make):
    """Put ``make(path)`` (a link, a FIFO) where the run's file ``name`` was."""
    def spoil(run: Path):
        p = run / name
        if os.path.lexists(p):
            p.unlink()
        make(p)
    return spoil


def _link(name, target):
    return _replace(name, lambda p: p.symlink_to(target))


def _fifo(name):
    return _replace(name, os.mkfifo)


def _raw_manifest(text):
    def spoil(run: Path):
        p = run / store.MANIFEST
        if os.path.lexists(p):
            p.unlink()
        p.write_text(text)
    return spoil


SPOILERS = [
    _spoil_param, _spoil_manifest("root_seed", 999), _spoil_manifest("root_seed", -1),
    _spoil_manifest("root_seed", "7"), _spoil_manifest("trials", -5), _spoil_manifest("trials", 10**15),
    _spoil_manifest("trials", "20"), _spoil_manifest("params", []), _spoil_manifest("experiment", "planted.module"),
    _spoil_manifest("experiment", None), _spoil_manifest("format", "other/1"), _spoil_manifest("sessions", {}),
    _spoil_manifest("sessions", [1]), _spoil_manifest("result_ids", 5),
    _spoil_records(_conflict), _spoil_records(_nan),
    _spoil_records(lambda ls: ls[:3] + ["{garbage\n"] + ls[3:]),
    _spoil_records(lambda ls: ls[:3] + ['{"index": 99999, "record": {}}\n'] + ls[3:]),
    _spoil_records(lambda ls: ls[:3] + ['[1, 2]\n'] + ls[3:]), _keyless,
    _link(store.RECORDS, "/dev/zero"), _link(store.LOCK, "/dev/zero"), _link(store.MANIFEST, "/etc/hostname"),
    _fifo(store.RECORDS), _fifo(store.LOCK), _fifo(store.SUMMARY),
    _raw_manifest("[1]"), _raw_manifest("{" * 100_000), _raw_manifest("null"), _raw_manifest('{"format": NaN}'),
]


@pytest.fixture(scope="module")
def clean_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("fuzzclean") / "run"
    runner.run("laplace_tail", 10, out, seed=9, workers=1, progress=False, overrides={"k": 2})
    return out


def test_fuzzed_run_directories_each_one_line_exit_2(tmp_path, clean_run):
    rng = random.Random(SEED + 1)
    failures = []
    for case in range(CRAFTED_DIRS):
        run = tmp_path / f"run{case}"
        shutil.copytree(clean_run, run)
        picked = rng.sample(range(len(SPOILERS)), k=rng.choice([1, 1, 2, 3]))
        for i in picked:
            SPOILERS[i](run)
        command = rng.choice(["status", "resume"])
        argv = [command, str(run)] + (["--workers", "1"] if command == "resume" else [])
        rc, out, err = _call(sim_main, argv)
        if rc != 2 or len(err.strip().splitlines()) != 1 or "Traceback" in err:
            failures.append((picked, command, rc, err[-300:]))
    assert not failures, f"{len(failures)} of {CRAFTED_DIRS} crafted directories: {failures[:5]}"
