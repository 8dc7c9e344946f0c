"""The conventions every command line shares (bounds.cli_common): help for every option, --version, one
spelling per parameter with the old ones as aliases, --json / --csv on tables, the refusals of inputs that
used to exit 0, results readable under the user's umask, and list commands that import only what they print.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bounds.__main__ import build_parser as bounds_parser
from bounds.__main__ import main as bounds_main
from proofs_checks.__main__ import _parser as proofs_parser
from proofs_checks.__main__ import main as proofs_main
from reports.__main__ import build_parser as reports_parser
from reports.__main__ import main as reports_main
from simulations.__main__ import build_parser as sim_parser
from simulations.__main__ import main as sim_main

REPO = Path(__file__).resolve().parents[1]
README = ["--alpha", "0.1", "--beta", "0.05", "--epsilon", "0.5", "--delta", "1e-6", "--vc", "3", "--dual-vc", "8"]
MAINS = {"bounds": bounds_main, "simulations": sim_main, "proofs_checks": proofs_main, "reports": reports_main}


def _parsers():
    for name, build in (("bounds", bounds_parser), ("simulations", sim_parser), ("proofs_checks", proofs_parser),
                        ("reports", reports_parser)):
        stack = [(name, build())]
        while stack:
            label, p = stack.pop()
            yield label, p
            for action in p._actions:
                if isinstance(action, argparse._SubParsersAction):
                    stack += [(f"{label} {cmd}", sub) for cmd, sub in action.choices.items()]


def test_every_option_of_every_command_has_help():
    missing = [f"{label} {action.option_strings or action.dest}" for label, p in _parsers() for action in p._actions
               if not isinstance(action, argparse._SubParsersAction) and not (action.help or "").strip()]
    assert not missing, missing


@pytest.mark.parametrize("name", sorted(MAINS))
def test_version_on_every_command_line(name, capsys):
    assert MAINS[name](["--version"]) == 0
    assert "pubpriv-workbench" in capsys.readouterr().out


def _one_line_2(capsys, rc, *needles):
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and "Traceback" not in err[0], err
    for n in needles:
        assert n in err[0], (n, err[0])


@pytest.mark.parametrize("argv,needles", [
    (["compute", "thm10", *README[:-4], "--vc", "10", "--dual-vc", "2"], ["no class has them", "2^"]),
    (["compute", "thm10", *README[:-4], "--vc", "1", "--dual-vc", "8"], ["no class has them"]),
    (["sweep", "thm10", *README[2:], "--alpha", "0.1,,0.2"], ["empty item"]),
    (["sweep", "thm10", *README[2:], "--alpha", ",,,"], ["empty item"]),
    (["crossover", "thm10", "thm10", "--vary", "vc"], ["against itself"]),
    (["compute", "thm10", *README[:-4], "--vc", "2^99999", "--dual-vc", "8"], ["--max-digits"]),
    (["sweep", "thm10", *README[2:], "--alpha", "0.01:0.5:3000000"], ["--max-points"]),
])
def test_bounds_inputs_that_used_to_exit_0_or_hang(capsys, argv, needles):
    """Catches: an impossible (VC, dual VC) pair computed (Assouad: p < 2^(d+1) and d < 2^(p+1)), an empty list
    item dropped, a self-crossover reported as 'larger throughout', a 30,000-digit integer, a 3e6-point sweep."""
    _one_line_2(capsys, bounds_main(argv), *needles)


def test_possible_dimension_pairs_are_not_refused(capsys):
    """The README's pair and the extremes Assouad allows (p = 2^(d+1) - 1) still compute."""
    assert bounds_main(["compute", "thm10", *README]) == 0
    assert bounds_main(["compute", "thm10", *README[:-4], "--vc", "2", "--dual-vc", "7"]) == 0
    capsys.readouterr()


@pytest.mark.parametrize("argv,needles", [
    (["audit", "laplace", "--delta", "0.5"], ["pure", "--delta"]),
    (["audit", "laplace", "--out", ""], ["empty"]),
    (["audit", "--all", "laplace", "laplace"], ["more than once"]),
    (["audit", "laplace", "--samples", "1000000000"], ["--max-samples"]),
    (["audit", "laplace", "--eps", "800"], ["epsilon"]),
    (["audit", "laplace", "--out", str(REPO / "simulations")], ["repository"]),
    (["audit", "laplace", "--out", str(REPO / ".git" / "x")], [".git"]),
    (["run", "laplace_tail", "--trials", "5", "--workers", "400", "--out", "X"], ["--max-workers"]),
    (["run", "laplace_tail", "--trials", "5", "--out", "X", "--param", "k=1e9"], ["--max-param-magnitude"]),
    (["run", "laplace_tail", "--trials", "5", "--out", "X", "--param", "k=" + "9" * 5000], ["digits"]),
    (["run", "laplace_tail", "--trials", "5", "--out", "LONG"], ["255 bytes"]),
    (["run", "laplace_tail", "--trials", "5", "--out", str(REPO)], ["repository"]),
])
def test_simulations_inputs_that_used_to_exit_0_or_crash(tmp_path, capsys, argv, needles):
    """Catches: --delta silently ignored by a pure-DP target, --out '' writing into the current directory, a
    target counted twice in the family, unbounded samples / workers / experiment sizes, a 300-character name
    reaching the file system, results written into the sources."""
    argv = [str(tmp_path / "X") if a == "X" else str(tmp_path / ("a" * 300)) if a == "LONG" else a for a in argv]
    _one_line_2(capsys, sim_main(argv), *needles)
    assert list(tmp_path.iterdir()) == []


def test_eps_is_an_alias_of_epsilon_in_both_command_lines(capsys):
    assert bounds_main(["compute", "thm10", *README, "--json"]) == 0
    canonical = capsys.readouterr().out
    alias = [("--eps" if a == "--epsilon" else a) for a in README]
    assert bounds_main(["compute", "thm10", *alias, "--json"]) == 0
    assert capsys.readouterr().out == canonical
    runs = []
    for flag in ("--epsilon", "--eps"):
        assert sim_main(["audit", "laplace", flag, "2", "--samples", "2000", "--json"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1] and runs[0]["declared_eps"] == 2


def test_tables_print_as_json_and_csv(capsys):
    assert bounds_main(["list", "--csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0][:2] == ["id", "paper"] and any(r[0] == "thm10" for r in rows)
    assert bounds_main(["compute", "thm10", *README, "--csv"]) == 0
    rows = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert rows[0][0] == "quantity" and any(r[0] == "private_samples" for r in rows)
    assert bounds_main(["sweep", "thm10", *README[2:], "--alpha", "0.1,0.2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert len(d["rows"]) == 2 and "alpha" in d["columns"]
    assert bounds_main(["compare", "thm10", "uc", *README, "--csv"]) == 0
    assert list(csv.reader(io.StringIO(capsys.readouterr().out)))[0][0] == "result"
    assert sim_main(["list", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["kind"] for r in rows} == {"experiment", "audit target", "opponent"}
    assert sim_main(["list", "laplace_tail", "--csv"]) == 0
    assert list(csv.reader(io.StringIO(capsys.readouterr().out)))[0] == ["parameter", "default", "meaning"]
    assert sim_main(["audit", "--all", "laplace", "laplace_no_noise", "--samples", "2000", "--csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["target"] for r in rows] == ["laplace", "laplace_no_noise"]
    assert [r["violated"] for r in rows] == ["False", "True"] and all(r["as_expected"] == "True" for r in rows)


def test_saved_audit_is_readable_under_the_umask(tmp_path, capsys):
    """mkstemp makes owner-only files; a saved result gets 0o666 less the umask like any other file."""
    old = os.umask(0o022)
    try:
        assert sim_main(["audit", "laplace", "--samples", "2000", "--out", str(tmp_path / "a")]) == 0
    finally:
        os.umask(old)
    capsys.readouterr()
    assert (tmp_path / "a" / "audit-laplace.json").stat().st_mode & 0o777 == 0o644


def _modules_after(package: str, *argv: str) -> list[str]:
    """The modules ``python -m PACKAGE ARGV`` has imported when it exits (run in a fresh process; exit 0)."""
    code = ("import runpy, sys, io, contextlib, json\n"
            f"sys.argv = {[package, *argv]!r}\n"
            "buf = io.StringIO()\n"
            "try:\n"
            "    with contextlib.redirect_stdout(buf):\n"
            f"        runpy.run_module({package!r}, run_name='__main__')\n"
            "except SystemExit as e:\n"
            "    assert e.code in (0, None), e.code\n"
            "print(json.dumps(sorted(sys.modules)))\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")})
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def _heavy(modules: list[str], *prefixes: str) -> list[str]:
    return [m for m in modules if any(m == p or m.startswith(p + ".") for p in prefixes)]


def test_simulations_list_lists_targets_without_importing_them_or_scipy_stats():
    """`python -m simulations list` in a fresh process: scipy.stats (a second of CPU) is not imported, and the
    lazy listing of audit targets equals the imported registry (catches the two drifting apart)."""
    assert _heavy(_modules_after("simulations", "list"), "scipy.stats", "scipy.optimize") == []
    from simulations import audit
    from simulations.__main__ import _target_rows

    lazy = _target_rows()
    assert lazy == _target_rows(lazy=False)
    assert {r[1] for r in lazy} <= set(audit.targets())  # the registry may also hold targets tests register


def test_show_and_list_commands_import_only_what_they_print():
    """In fresh processes: `bounds show` prints sympy's renderings from bounds/forms.json (sympy is not imported;
    tests/bounds/test_show_forms.py holds the file equal to a fresh rendering), `proofs_checks --list` registers
    the checks without importing scipy or the query-release algorithms they run, `simulations list NAME` prints the
    declared defaults without running Params' checks (which compute bounds). Catches an import moved back to
    module or registration level."""
    assert _heavy(_modules_after("bounds", "show", "thm10"), "sympy", "mpmath", "scipy") == []
    assert _heavy(_modules_after("proofs_checks", "--list"), "scipy", "sympy", "algorithms.query_release") == []
    assert _heavy(_modules_after("simulations", "list", "thm10"), "scipy", "bounds.registry",
                  "algorithms.classes") == []
