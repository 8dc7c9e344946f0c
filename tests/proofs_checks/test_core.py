"""The checkers on claims whose truth is known: each verdict kind is reachable and right."""
from __future__ import annotations

import json

import numpy as np
import pytest

from proofs_checks.core import (FAILS, HOLDS, NOT_CHECKABLE, PROVED, PROVED_PART, SAMPLED, Case, Exhaustive, Identity,
                                Inequality,
                                MonteCarlo, Var, Verdict, check, check_inequality, clopper_pearson)

X = (Var("x", 1e-3, 10.0),)


def test_true_inequality_holds():
    assert check(Inequality("x <= x + 1", lambda o, x: x, lambda o, x: x + 1, X)).status == PROVED


def test_false_inequality_fails_with_smallest_counterexample():
    v = check(Inequality("x^2 <= x", lambda o, x: x**2, lambda o, x: x, X))
    assert v.status == FAILS and v.counterexample["x"] > 1


def test_region_gives_holds_on_part():
    v = check(Inequality("x^2 <= x", lambda o, x: x**2, lambda o, x: x, X, region=lambda o, x: x <= 1,
                         region_text="x <= 1"))
    assert v.status == PROVED_PART and v.region == "x <= 1" and v.counterexample["x"] > 1


def test_wrong_region_fails():
    v = check(Inequality("x^2 <= x", lambda o, x: x**2, lambda o, x: x, X, region=lambda o, x: x <= 2,
                         region_text="x <= 2"))
    assert v.status == FAILS


def test_hypothesis_finds_a_counterexample_between_grid_points():
    """A violation on a sliver no grid point hits is found by the hypothesis search."""
    spike = lambda o, x: np.where(np.abs(x - 2.5) < 0.3, 1.0, 0.0)
    v = check(Inequality("spike <= 0", spike, lambda o, x: 0 * x, (Var("x", 0.0, 10.0, log=False, points=7),)))
    assert v.status == FAILS and abs(v.counterexample["x"] - 2.5) < 0.3
    assert "hypothesis" in v.summary


def test_identity_symbolic_and_numeric():
    assert check(
        Identity("(x+1)^2 = x^2 + 2x + 1", lambda o, x: (x + 1) ** 2, lambda o, x: x**2 + 2 * x + 1,
                 X)).method == "symbolic"
    v = check(Identity("(x+1)^2 = x^2 + 1", lambda o, x: (x + 1) ** 2, lambda o, x: x**2 + 1, X))
    assert v.status == FAILS


def test_exhaustive_reports_the_smallest_failing_case():
    claim = Exhaustive("n^2 < 50", lambda: (Case(f"n={n}", {"n": n}, size=n) for n in range(20, 0, -1)),
                       lambda c: (c.data["n"] ** 2 < 50, {}))
    v = check(claim)
    assert v.status == FAILS and v.counterexample["n"] == 8


def test_monte_carlo_verdicts():
    """A fair coin: 'P[heads] <= 0.6' holds, 'P[heads] <= 0.4' fails, 'P[heads] <= 0.5' is inconclusive."""
    coin = lambda rng, n: int(rng.binomial(n, 0.5))
    assert check(MonteCarlo("<= 0.6", coin, 0.6, 20_000, seed=1)).status == HOLDS
    assert check(MonteCarlo("<= 0.4", coin, 0.4, 20_000, seed=1)).status == FAILS
    assert check(MonteCarlo("<= 0.5", coin, 0.5, 20_000, seed=1)).status == NOT_CHECKABLE


def test_clopper_pearson_matches_the_exact_binomial_edges():
    lo, hi = clopper_pearson(0, 100, 0.05)
    assert lo == 0 and hi == pytest.approx(1 - 0.025 ** (1 / 100), rel=1e-9)


def test_reason_string_is_not_machine_checkable():
    v = check("no finite procedure")
    assert v.status == NOT_CHECKABLE and v.summary == "no finite procedure"


def test_verdict_rejects_unknown_status_and_serialises():
    with pytest.raises(ValueError, match="status"):
        Verdict("maybe", "", "none")
    v = Verdict(FAILS, "s", "exhaustive", counterexample={"x": np.float64(np.inf), "n": np.int64(3)})
    assert json.loads(json.dumps(v.to_dict()))["counterexample"] == {"x": "inf", "n": 3}


def test_symbolic_sign_proof_and_fallback():
    """sympy proves (x+1)^2 >= 2x for x > 0; it cannot prove the false x^2 >= 2x, which the grid then refutes."""
    v = check(Inequality("(x+1)^2 >= 2x", lambda o, x: (x + 1) ** 2, lambda o, x: 2 * x, X, rel=">=", symbolic=True))
    assert v.status == HOLDS and v.method == "symbolic"
    w = check(Inequality("x^2 >= 2x", lambda o, x: x**2, lambda o, x: 2 * x, X, rel=">=", symbolic=True))
    assert w.status == FAILS and w.counterexample["x"] < 2


def test_hypothesis_search_has_no_deadline():
    """A claim whose single evaluation takes 250 ms (a loaded machine) still gets a verdict.

    Catches the search running under hypothesis' default 200 ms deadline (it raised
    DeadlineExceeded, and the check was reported as crashed)."""
    import time

    def slow(o, x):
        if np.size(x) == 1:
            time.sleep(0.25)
        return x

    from hypothesis import settings

    before = settings.default
    settings.load_profile("default")  # what `python -m proofs_checks` runs under, not the tests' profile
    try:
        v = check_inequality(Inequality("x <= x + 1 (slow)", slow, lambda o, x: x + 1, X), examples=3)
    finally:
        settings.register_profile("_restore", before)
        settings.load_profile("_restore")
    assert v.outcome == HOLDS


def test_hypothesis_is_a_runtime_dependency():
    """proofs_checks searches with hypothesis at run time, so the distribution must install it
    (not only the [dev] extra). Catches it being moved back to the test extra."""
    import re
    import tomllib
    from pathlib import Path

    meta = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())["project"]
    names = [re.split(r"[<>=\[ ;]", d, maxsplit=1)[0].lower() for d in meta["dependencies"]]
    assert "hypothesis" in names


@pytest.mark.parametrize("margin", [1e-6, 1e-4])
def test_checker_tolerance_is_float_noise_not_a_slack(margin):
    """The checker's tolerance (rtol 1e-9, relative) only absorbs float rounding: a claim off by a
    relative margin of 1e-6 or 1e-4 (both far below 1e-3, far above rounding) must be reported failing,
    for <=, >= and identities; a claim off by 1e-13 relative (rounding) must hold. Catches the
    tolerance loosened to 1e-3 relative (in Inequality, Identity or _relation_ok's slack)."""
    f = 1.0 + margin
    assert check(Inequality("f x <= x", lambda o, x: f * x, lambda o, x: x, X)).status == FAILS
    assert check(Inequality("x >= f x", lambda o, x: x, lambda o, x: f * x, X, rel=">=")).status == FAILS
    assert check(Identity("f x = x", lambda o, x: f * x, lambda o, x: x, X)).status == FAILS
    g = 1.0 + 1e-13
    # rounding is not a finding, and not a proof either: the interval prover sees the exact violation
    assert check(Inequality("g x <= x", lambda o, x: g * x, lambda o, x: x, X)).status == SAMPLED
    assert check(Inequality("x >= g x", lambda o, x: x, lambda o, x: g * x, X, rel=">=")).status == SAMPLED
    assert check(Identity("g x = x", lambda o, x: g * x, lambda o, x: x, X)).status == SAMPLED
