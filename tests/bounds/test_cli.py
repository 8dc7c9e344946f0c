"""The command line ``python -m bounds``: every subcommand, the ``--json`` shape, and every bad
input (one line on stderr naming the parameter, exit status 2, no traceback).

Runs in-process through ``bounds.__main__.main(argv)``; two subprocess runs check the whole
process (the README's first command and one bad input).

Breaks caught: a subcommand that crashes or prints nothing, JSON values that are not numbers,
a traceback or a multi-line error, exit status 1 instead of 2, an error that does not name the
offending parameter.
"""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest

from bounds.__main__ import main
import bounds
from bounds.errors import DomainError

README_ARGS = ["--alpha", "0.1", "--beta", "0.05", "--epsilon", "0.5", "--delta", "1e-6",
               "--vc", "3", "--dual-vc", "8"]


def run(capsys, *argv):
    rc = main(list(argv))
    out, err = capsys.readouterr()
    return rc, out, err


def assert_bad(capsys, argv, *must_contain):
    rc, out, err = run(capsys, *argv)
    assert rc == 2, (argv, rc, out, err)
    assert out == "", argv
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1, err
    assert lines[0].startswith("error:"), err
    assert "Traceback" not in err
    for text in must_contain:
        assert text in lines[0], (text, lines[0])


# --- subcommands ----------------------------------------------------------------------------------
def test_list(capsys):
    rc, out, _ = run(capsys, "list")
    assert rc == 0
    for rid in ("claim3", "fact4", "lemma7", "thm10", "remark10", "lemma11", "thm13", "thm14",
                "thm15", "lemma17", "uc", "pmw"):
        assert f"\n{rid} " in out or out.startswith(f"{rid} ")


def test_list_json(capsys):
    rc, out, _ = run(capsys, "list", "--json")
    rows = json.loads(out)
    assert rc == 0 and {"id", "paper", "kind", "quantities", "explicit"} <= set(rows[0])
    ids = {r["id"] for r in rows}
    assert {"thm10", "uc", "pmw"} <= ids


def test_show(capsys):
    rc, out, _ = run(capsys, "show", "thm10")
    assert rc == 0
    for text in ("statement:", "domain:", "asymptotic:", "explicit:", "(LaTeX)", "derivation:",
                 "source:", "erratum bcmnuw20-lemma7-constants", "least integer m"):
        assert text in out, text
    rc, out, _ = run(capsys, "show", "bcmnuw20:thm14", "--no-latex")
    assert rc == 0 and "LaTeX" not in out and "C_14r" in out


def test_compute_table(capsys):
    rc, out, _ = run(capsys, "compute", "thm10", *README_ARGS)
    assert rc == 0  # concise: the result's quantities and the printed-vs-corrected table
    assert "10,126" in out and "8,455,347,274" in out and "(step)" not in out and "--steps" in out
    rc, out, _ = run(capsys, "compute", "thm10", *README_ARGS, "--steps")
    assert rc == 0 and "(step)" in out and "note:" in out


def test_compute_json_shape(capsys):
    rc, out, _ = run(capsys, "compute", "thm10", *README_ARGS, "--json")
    d = json.loads(out)
    assert rc == 0 and d["result"] == "bcmnuw20:thm10"
    assert set(d["quantities"]) == {
        "public_samples", "log_cover_size", "log_domain_size", "pmw_alpha", "pmw_beta",
        "mw_error_share", "mw_accuracy", "uniform_convergence_accuracy", "update_cutoff",
        "private_samples", "failure_comparisons", "failure_thresholds", "failure_answers",
        "failure_uniform", "tolerance_comparisons", "tolerance_thresholds", "tolerance_answers",
        "private_samples_previous", "private_samples_fixed_split", "private_samples_as_printed"}
    for name, q in d["quantities"].items():
        assert isinstance(q["value"], (int, float)) and not isinstance(q["value"], bool), name
        assert isinstance(q["log10"], float) or (q["value"] == 0 and q["log10"] is None), name
        assert q["explicit"] is True, name
        assert q["significant_digits"] == 15, name
    assert d["quantities"]["public_samples"]["value"] == 10_126
    deps = {x["label"]: x for x in d["printed_vs_corrected"]}
    printed = deps["n: corrected (tight) / printed constants"]
    assert printed["reference_value"] == 417_675_167
    assert printed["ratio"] == pytest.approx(printed["value"] / 417_675_167, rel=1e-3)
    assert d["inside_regime"] is True


def test_compute_json_carries_no_false_precision(capsys):
    """Integers beyond 10^15 are not written with more digits than float64 carries:
    nb20:thm7's n (~3e15) is a number literal with 15 significant digits, not a 16-digit int."""
    rc, out, _ = run(capsys, "compute", "thm7", "--alpha", "0.01", "--beta", "0.05", "--epsilon",
                     "0.5", "--delta", "1e-6", "--vc", "10", "--num-queries", "1e5", "--json")
    d = json.loads(out)
    q = d["quantities"]["private_samples"]
    assert rc == 0 and q["value"] > 1e15 and isinstance(q["value"], float)
    assert q["significant_digits"] == 15


def test_compute_json_non_explicit_says_so(capsys):
    rc, out, _ = run(capsys, "compute", "thm14", "--alpha", "0.1", "--dual-vc", "100",
                     "--const", "C_14r=2", "--form", "asymptotic", "--json")
    d = json.loads(out)
    assert rc == 0 and d["constants"] == {"C_14r": 2.0}
    # the asymptotic form was asked for: its headline quantities carry the hidden constants
    assert all(d["quantities"][k]["explicit"] is False for k in ("range_r", "traced_t", "failure_probability"))
    assert d["quantities"]["range_r"]["value"] == pytest.approx(200.0)
    assert any("C_14r = 2" in c for c in d["caveats"])


def test_compute_huge_prints_powers_of_ten(capsys):
    rc, out, _ = run(capsys, "compute", "thm10", "--alpha", "1e-9", "--beta", "0.05",
                     "--epsilon", "0.5", "--delta", "1e-6", "--vc", "2001", "--dual-vc", "2^2001")
    assert rc == 0 and "10^" in out
    body = out.split("formulas:")[0].split("quantity")[1].split("\n  ")[0]
    assert "inf" not in body and "nan" not in body


def test_sweep_table_and_csv(capsys):
    rc, out, _ = run(capsys, "sweep", "thm10", "--alpha", "0.05,0.1", *README_ARGS[2:])
    assert rc == 0 and "10,126" in out
    rc, out, _ = run(capsys, "sweep", "thm10", "--alpha", "0.05:0.1:3", *README_ARGS[2:], "--csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert rc == 0 and len(rows) == 3
    assert {"alpha", "public_samples", "private_samples_log10"} <= set(rows[0])
    assert int(float(rows[-1]["public_samples"])) == 10_126


def test_compare_with_ratios(capsys):
    rc, out, _ = run(capsys, "compare", "thm10", "uc", *README_ARGS)
    assert rc == 0 and "ratio to thm10" in out
    uc_line = [ln for ln in out.splitlines() if ln.startswith("uc ")][0]
    assert uc_line.split()[-1] == f"{132_992 / 10_126:.4g}"
    rc, out, _ = run(capsys, "compare", "thm10", "uc", *README_ARGS, "--json")
    assert rc == 0 and [c["result"] for c in json.loads(out)] == ["bcmnuw20:thm10", "baselines:uc"]


def test_crossover(capsys):
    """Theorem 13's t/2 = 1/(2 alpha^2) against Theorem 15's 1/alpha: they cross at alpha = 1/2."""
    rc, out, _ = run(capsys, "crossover", "thm13", "thm15", "--vary", "alpha", "--dual-vc", "8",
                     "--form", "asymptotic")
    assert rc == 0 and "crossover at alpha = 0.5" in out
    rc, out, _ = run(capsys, "crossover", "thm13", "thm15", "--vary", "alpha", "--dual-vc", "8",
                     "--form", "asymptotic", "--json")
    d = json.loads(out)
    assert d["quantity"] == "public_samples" and d["crossings"][0]["at"] == pytest.approx(0.5, rel=1e-6)
    rc, out, _ = run(capsys, "crossover", "thm10", "uc", "--vary", "alpha", *README_ARGS[2:])
    assert rc == 0 and "no crossover" in out


# --- bad input -----------------------------------------------------------------------------------------
def with_(flag, value):
    args = list(README_ARGS)
    i = args.index(flag)
    args[i + 1] = value
    return ["compute", "thm10", *args]


@pytest.mark.parametrize("flag,value", [("--alpha", "1.5"), ("--alpha", "0"), ("--alpha", "1"),
                                        ("--alpha", "-0.1")])
def test_alpha_outside_open_unit_interval(capsys, flag, value):
    assert_bad(capsys, with_(flag, value), "--alpha", value, "0 < alpha < 1")


@pytest.mark.parametrize("value", ["0", "-1", "-0.5"])
def test_epsilon_not_positive(capsys, value):
    assert_bad(capsys, with_("--epsilon", value), "--epsilon", value, "0 < epsilon < 1")


@pytest.mark.parametrize("value", ["1", "1.5", "-0.1"])
def test_delta_outside(capsys, value):
    assert_bad(capsys, with_("--delta", value), "--delta", value)


@pytest.mark.parametrize("flag,value", [("--vc", "0"), ("--vc", "2.5"), ("--vc", "-3"),
                                        ("--dual-vc", "0"), ("--dual-vc", "1.5")])
def test_dimension_not_a_positive_integer(capsys, flag, value):
    assert_bad(capsys, with_(flag, value), flag, "an integer >= 1")


def test_unknown_id(capsys):
    assert_bad(capsys, ["compute", "thm99", *README_ARGS], "thm99", "unknown result id")
    assert_bad(capsys, ["show", "nope"], "nope")


@pytest.mark.parametrize("text", ["0.1:0.5", "0.1:0.5:x", "0:1:3:log", "a,b"])
def test_malformed_range(capsys, text):
    assert_bad(capsys, ["sweep", "thm10", "--alpha", text, *README_ARGS[2:]], "--alpha")


def test_not_a_number(capsys):
    assert_bad(capsys, with_("--alpha", "abc"), "--alpha", "abc")


def test_missing_parameter_named(capsys):
    args = README_ARGS[:-2]  # no --dual-vc
    assert_bad(capsys, ["compute", "thm10", *args], "--dual-vc", "missing")


def test_parameter_the_result_does_not_take(capsys):
    assert_bad(capsys, ["compute", "uc", "--alpha", "0.1", "--beta", "0.1", "--vc", "2",
                        "--dual-vc", "4"], "--dual-vc")


def test_unknown_constant_and_bad_usage(capsys):
    assert_bad(capsys, ["compute", "thm14", "--alpha", "0.1", "--dual-vc", "8", "--const",
                        "C_99=2"], "C_99")
    assert_bad(capsys, ["compute"])
    assert_bad(capsys, ["frobnicate"])


# --- whole process --------------------------------------------------------------------------------
def test_readme_command_as_a_process():
    p = subprocess.run([sys.executable, "-m", "bounds", "compute", "thm10", *README_ARGS],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "public_samples" in p.stdout and "10,126" in p.stdout and p.stderr == ""


def test_bad_input_as_a_process():
    p = subprocess.run([sys.executable, "-m", "bounds", "compute", "thm10", *with_("--alpha", "2")[2:]],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stdout == ""
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
    assert "--alpha" in p.stderr


def test_json_value_beyond_float_is_a_string_beside_its_log10(capsys):
    """Values beyond float are carried in log space; --json writes `value` as a string (a number literal such as
    1.28e+607 reads back as infinity) and `log10` as a number. Catches the number literal."""
    import json as _json
    import math as _math

    from bounds.__main__ import main as _main

    rc = _main(["compute", "thm10", "--alpha", "1e-9", "--beta", "0.05", "--epsilon", "0.5",
                "--delta", "1e-6", "--vc", "2001", "--dual-vc", "2^2001", "--json"])
    assert rc == 0
    q = _json.loads(capsys.readouterr().out)["quantities"]["log_domain_size"]
    assert isinstance(q["value"], str) and q["log10"] > 600
    mantissa, exponent = q["value"].split("e+")
    assert abs(_math.log10(float(mantissa)) + int(exponent) - q["log10"]) < 1e-3
    assert abs(q["log10"] - 607.107) < 0.01


@pytest.mark.parametrize("argv,needle", [
    (["compute", "thm10", "--alpha", "0.1", "--beta", "0.05", "--epsilon", "0.5", "--delta", "1e-6",
      "--vc", "3", "--dual-vc", "16"], "Assouad"),
    (["compute", "prop4.3", "--alpha", "0.1", "--beta", "0.05", "--num-queries", "10",
      "--renyi-2", "2", "--renyi-inf", "1"], "D_2 <= D_inf"),
])
def test_impossible_parameter_pairs_are_one_line_and_status_2(capsys, argv, needle):
    """A (VC, dual VC) pair that breaks Fact 4 (p < 2^(d+1)) and D_2 > D_inf describe no
    class / no pair of distributions; they are refused, naming both parameters and the relation.
    Catches the relations being dropped (the commands printed numbers and exited 0)."""
    rc, out, err = run(capsys, *argv)
    assert rc == 2 and needle in err and len(err.strip().splitlines()) == 1 and out == ""


def test_assouad_boundary_is_exact():
    """p = 2^(d+1) - 1 is allowed, p = 2^(d+1) is not (also beyond float range, in mpmath)."""
    base = dict(alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6)
    for d in (3, 2001):
        bounds.compute("thm10", vc=d, dual_vc=2 ** (d + 1) - 1, **base)
        with pytest.raises(DomainError, match="Fact 4"):
            bounds.compute("thm10", vc=d, dual_vc=2 ** (d + 1), **base)


def test_show_ends_with_where_the_result_lives(capsys):
    """From a result id a reader reaches its algorithm, experiment, proof checks, report
    section and errata, and the papers are named by key and title, never by the texts' file names.
    Catches a result whose experiment or check is renamed without show following."""
    import re

    rc, out, _ = run(capsys, "show", "thm10")
    assert rc == 0
    tail = out.split("where it lives:")[1]
    for needle in ("algorithms/query_release/pap.py", "simulations/experiments/thm10.py",
                   "bcmnuw20:thm10.cover-size", "reports/sections/thm10.py", "docs/ERRATA.md: Theorem 10"):
        assert needle in tail, needle
    assert "Private Query Release Assisted by Public Data" in out
    assert not re.search(r"\d{3}_[0-9a-f]{16}", out)
    rc, out, _ = run(capsys, "show", "prop4.3")
    assert "algorithms/query_release/mixture.py" in out.split("where it lives:")[1]
