"""Command-line edges a newcomer trips over: no option taken by its prefix in any of the four command lines,
experiment names accepted where they name one result, the value at a crossover, what a baseline id is, and values
beyond float64 in JSON as strings (a number literal would read back as infinity)."""

from __future__ import annotations

import json
import math

import pytest

from bounds import api
from bounds.__main__ import main as bounds_main
from proofs_checks.__main__ import main as proofs_main
from reports.__main__ import main as reports_main
from simulations.__main__ import main as sim_main

POINT = ["--alpha", "0.1", "--beta", "0.05", "--epsilon", "0.5", "--delta", "1e-6", "--vc", "3", "--dual-vc", "8"]


@pytest.mark.parametrize("main,argv", [
    (sim_main, ["run", "laplace_tail", "--trial", "2", "--out", "OUT"]),   # --trials by prefix
    (sim_main, ["run", "laplace_tail", "--trials", "2", "--see", "1", "--out", "OUT"]),
    (bounds_main, ["compute", "thm10", "--alph", "0.1", *POINT[2:]]),
    (bounds_main, ["sweep", "thm10", "--max-point", "5", *POINT]),
    (proofs_main, ["--lis"]),
    (reports_main, ["build", "--res", "runs", "--out", "OUT"]),
])
def test_no_option_is_taken_by_its_prefix(main, argv, tmp_path, monkeypatch, capsys):
    """Catches argparse's default prefix matching: `run thm10 --trial 2` started a real run of 2 trials."""
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and not (tmp_path / "OUT").exists()


def test_an_experiment_name_is_accepted_where_it_names_one_result(capsys):
    """`show thm3_1` is ABM19 Theorem 3.1 (the experiment thm3_1 validates thm3.1 and lemma3.3; its name says which);
    `show nb20_lemmas` names two results and says so."""
    assert bounds_main(["show", "thm3_1"]) == 0
    assert "abm19:thm3.1" in capsys.readouterr().out
    assert bounds_main(["show", "nb20_lemmas"]) == 2
    err = capsys.readouterr().err
    assert "nb20:lemma6" in err and "nb20:claim10" in err


def test_crossover_says_the_value_at_the_crossing(capsys):
    """NB20 Theorems 7 and 11 cross at 8,302 queries (docs/ERRATA.md); the line gives n there, equal to both results'
    n at that point (computed independently)."""
    point = ["--alpha", "0.1", "--beta", "0.05", "--epsilon", "0.5", "--delta", "1e-6", "--vc", "1"]
    assert bounds_main(["crossover", "thm7", "thm11", "--vary", "num-queries", *point]) == 0
    out = capsys.readouterr().out
    n = api.compute("thm7", alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, vc=1, num_queries=8302)["private_samples"]
    assert f"crossover at num_queries = 8302, where private_samples = {n:,.0f}" in out


def test_compare_says_what_each_id_is(capsys):
    assert bounds_main(["compare", "thm10", "uc", *POINT]) == 0
    out = capsys.readouterr().out
    assert "uc: baseline Uniform convergence (no privacy) (Without privacy" in out


def test_json_writes_a_value_beyond_float64_as_a_string_never_a_literal_read_as_infinity():
    """Catches `1.28e+610` written as a JSON number (json.loads gives inf)."""
    text = api.dumps({"value": api.BigNumber(610.1072, 3), "log10": 610.1072})
    back = json.loads(text)
    assert back["value"] == "1.28e+610" and back["log10"] == 610.1072
    assert not any(isinstance(v, float) and math.isinf(v) for v in back.values())
