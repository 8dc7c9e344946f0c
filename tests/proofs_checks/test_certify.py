"""The interval branch-and-bound (proofs_checks.certify) and the rigorous namespace (bounds.ops.INTERVAL): a true
inequality is proved, a false one gets a counterexample point, a formula that leaves interval arithmetic is
refused instead of trusted, and the verdicts say which of proved / holds (sampled) they are."""
from __future__ import annotations

import math

import numpy as np
import pytest

from bounds.ops import INTERVAL, Interval, Undecided, precision
from proofs_checks import certify
from proofs_checks.core import FAILS, PROVED, PROVED_PART, SAMPLED, Inequality, Var, check_inequality


def test_interval_arithmetic_encloses_and_refuses():
    x = Interval(1, 2)
    assert INTERVAL.log(x).lo == 0 and INTERVAL.log(x).hi >= math.log(2)
    assert (x < 3) is True and (x > 3) is False
    with pytest.raises(Undecided):
        _ = x < 1.5  # the box does not decide it
    with pytest.raises(TypeError):
        np.maximum(x, x)  # numpy's ufuncs are refused: they would compare with an undecided result
    with pytest.raises(TypeError):
        float(x)
    third = INTERVAL.frac(1, 3)
    assert third.lo < 1 / 3 < third.hi or third.lo <= 1 / 3 <= third.hi


def _log1p(rhs_factor: float) -> Inequality:
    return Inequality("log(1 + x) <= c x", lambda o, x: o.log1p(x), lambda o, x: rhs_factor * x,
                      (Var("x", 1e-3, 10.0),))


def test_true_inequality_is_proved_with_boxes_and_margin():
    out = certify.prove(_log1p(1.0))
    assert out.kind == certify.PROVED and out.boxes > 1 and out.margin >= 0


def test_false_inequality_gets_a_counterexample_point():
    """The broken twin: log(1 + x) <= x/2 fails for small x; the prover returns a point where it certainly fails."""
    out = certify.prove(_log1p(0.5))
    assert out.kind == certify.COUNTEREXAMPLE
    x = out.box["x"]
    assert math.log1p(x) > 0.5 * x


def test_integer_variables_and_tight_claims():
    """ABM19 Claim 4.6's 1 - (1 - 1/(100 n))^n <= 0.01 is tight at n = 1 (0.01 is slightly above 1/100 as a float)."""
    claim = Inequality("tv", lambda o, n: 1 - (1 - 1 / (100 * n)) ** n, lambda o, n: 0.01 + 0 * n,
                       (Var("n", 1, 1000, integer=True),))
    assert certify.prove(claim).kind == certify.PROVED
    broken = Inequality("tv", lambda o, n: 1 - (1 - 1 / (100 * n)) ** n, lambda o, n: 0.0099 + 0 * n,
                        (Var("n", 1, 1000, integer=True),))
    assert certify.prove(broken).kind == certify.COUNTEREXAMPLE


def test_numpy_only_formula_is_not_interval_evaluable():
    claim = Inequality("np", lambda o, x: np.maximum(x, 0), lambda o, x: x + 1, (Var("x", 1.0, 2.0),))
    assert certify.prove(claim).kind == certify.NOT_INTERVAL


def test_verdicts_name_proved_and_sampled():
    v = check_inequality(_log1p(1.0))
    assert v.status == PROVED and v.method == "interval branch-and-bound" and "boxes" in v.summary
    numpy_only = Inequality("np", lambda o, x: np.log1p(x), lambda o, x: x, (Var("x", 1e-3, 10.0),))
    v = check_inequality(numpy_only)
    assert v.status == SAMPLED and "not proved" in v.summary
    assert check_inequality(_log1p(0.5)).status == FAILS
    part = Inequality("log(1 + x) <= x/2 on x >= 3", lambda o, x: o.log1p(x), lambda o, x: 0.5 * x,
                      (Var("x", 1e-3, 10.0),), region=lambda o, x: x >= 3, region_text="x >= 3")
    v = check_inequality(part)
    assert v.status == PROVED_PART and v.evidence["counterexample_certified"] is True


def test_arb_end_points_round_outward():
    """The end points are exact arb numbers and every operation rounds outward: 1/3 and log 2 lie strictly inside
    their enclosures (the exact rational 1/3 is compared exactly), x^p's enclosure is the hull of its corners, and a
    quotient by an interval reaching 0, a log of one, or a non-integer power of one reaching below 0 is Undecided."""
    from fractions import Fraction

    def exact(e) -> Fraction:
        m, x = e.man_exp()
        return Fraction(int(m)) * Fraction(2) ** int(x)

    third = Interval(1) / 3
    assert exact(third.lo) < Fraction(1, 3) < exact(third.hi)
    with precision(53):
        third = Interval(1) / 3
    assert exact(third.lo) < Fraction(1, 3) < exact(third.hi) and exact(third.hi) - exact(third.lo) < Fraction(1, 2**52)
    two = INTERVAL.exp(INTERVAL.log(Interval(2)))  # log 2 is irrational: its enclosure has width, and so has exp's
    assert exact(two.lo) < 2 < exact(two.hi)
    p = Interval(0.25, 4) ** Interval(0.5, 2)
    assert float(p.lo) <= 0.0625 and float(p.hi) >= 16
    for bad in (lambda: Interval(1) / Interval(-1, 1), lambda: INTERVAL.log(Interval(0, 1)),
                lambda: Interval(-1, 1) ** 0.5):
        with pytest.raises(Undecided):
            bad()
    assert (Interval(-2, 3) ** 2).lo == 0 and (Interval(-2, 3) ** 2).hi == 9  # an even power has no negative part


def _slack(rhs_extra: float) -> Inequality:
    """alpha (1 - u alpha) + u alpha <= 2 alpha - alpha^2 + extra: gap alpha (1 - alpha)(1 - u) + extra, 0 on u = 1."""
    return Inequality("slack", lambda o, alpha, u: alpha * (1 - u * alpha) + u * alpha,
                      lambda o, alpha, u: 2 * alpha - alpha**2 + rhs_extra * alpha,
                      (Var("alpha", 1e-3, 0.9), Var("u", 0.0, 1.0, log=False)), tight=True)


def test_tight_face_is_settled_by_sympy_and_a_false_one_is_not():
    """A claim tight on a whole face (u = 1, where the gap is 0 identically) is proved: the gap is monotone in u, the
    face u = 1 remains, and sympy simplifies the gap there to 0. The broken twin (the rhs lowered by alpha/100) is
    monotone the same way but its face is not an identity: it gets a counterexample, not a proof."""
    out = certify.prove(_slack(0.0))
    assert out.kind == certify.PROVED and out.zero_faces >= 1 and out.margin == 0
    broken = certify.prove(_slack(-0.01))
    assert broken.kind == certify.COUNTEREXAMPLE and broken.zero_faces == 0
