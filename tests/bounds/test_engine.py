"""The engine: log-space fallback beyond floating point, numpy and mpmath paths agreeing, the
implicit solver returning the least integer, and parse_value / parse_range.

Breaks caught: inf or nan leaking out of a huge computation (p = 2^(d+1), alpha = 1e-9), the
mpmath path drifting from the numpy one (a formula written with a float-only function), a solver
that returns a non-least or non-solution integer, a range parser that accepts garbage.
"""
from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import mpmath
import numpy as np
import pytest

import bounds
from bounds.api import parse_range, parse_value
from bounds.core import Implicit, Quantity, Result, _eval_mp_point, _solve_np, call, evaluate
from bounds.errors import DomainError
from bounds.ops import NUMPY
from bounds.registry import all_results

_spec = importlib.util.spec_from_file_location(
    "bounds_test_properties", Path(__file__).with_name("test_properties.py"))
_props = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_props)
example_point = _props.example_point

RESULTS = all_results()
# d = 2001 so that p = 2^2001 < 2^(d+1) (BCMNUW20 Fact 4; thm10 rejects impossible pairs)
HUGE = dict(alpha=1e-9, beta=0.05, epsilon=0.5, delta=1e-6, vc=2001, dual_vc=2**2001)


# --- log-space fallback ---------------------------------------------------------------------------
@pytest.mark.parametrize("rid,params", [
    ("thm10", HUGE),
    ("remark10", {k: v for k, v in HUGE.items() if k != "dual_vc"}),
    ("fact4", {"vc": 2000}),
    ("claim3", {"num_hypotheses": 10**1000, "dual_vc": 2**2001}),
])
def test_beyond_float_gives_finite_log10(rid, params):
    c = bounds.compute(rid, **params)
    for name, q in c.quantities.items():
        assert math.isfinite(q.log10), (rid, name)
        assert not math.isnan(q.value), (rid, name)
        assert q.exact is None or q.exact > 0
    d = c.to_dict()
    assert "nan" not in str(d).lower()


def test_thm10_huge_point_values_match_hand_logs():
    """At d = 2001, p = 2^2001, alpha = 1e-9: log|X~| = p (1 + log|H~| - log p) carried in log space."""
    c = bounds.compute("thm10", **HUGE)
    log_h = c["log_cover_size"]
    m = c["public_samples"]
    assert log_h == pytest.approx(2001 * math.log(math.e * m / 2001), rel=1e-9)
    mpmath.mp.dps = 30
    p = mpmath.mpf(2) ** 2001
    log_x = p * (1 + mpmath.mpf(log_h) - mpmath.log(p))
    assert c.quantities["log_domain_size"].log10 == pytest.approx(float(mpmath.log10(log_x)),
                                                                   rel=1e-9)
    assert 300 < c.quantities["private_samples"].log10 < 400


def test_sweep_mixing_float_and_huge_points():
    """A sweep where some points leave float range: those are recomputed, the rest untouched."""
    _, _, evs = bounds.api.sweep_arrays("thm10", alpha=[0.1, 1e-9], beta=0.05, epsilon=0.5,
                                        delta=1e-6, vc=2001, dual_vc=[8, 2**2001])
    n = evs["private_samples"]
    assert np.all(np.isfinite(n.log10)) and not np.any(np.isnan(n.value))
    small = bounds.compute("thm10", alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, vc=2001,
                           dual_vc=8)
    assert n.value.ravel()[0] == small["private_samples"]


# --- numpy and mpmath agree -----------------------------------------------------------------------
@pytest.mark.parametrize("result", RESULTS, ids=[r.id for r in RESULTS])
def test_numpy_and_mpmath_paths_agree(result):
    point = example_point(result)
    np_vals = evaluate(result, point)
    args = {result.param(k).arg: v for k, v in {**result.defaults, **point}.items()}
    known = {c for q in result.quantities for c in q.constants}
    mp_vals = _eval_mp_point(result, args, "explicit", {}, known)
    for name, ev in np_vals.items():
        a, b = float(ev.value), float(mp_vals[name])
        assert b == pytest.approx(a, rel=1e-9, abs=1e-12), (result.id, name, a, b)


# --- implicit solver ------------------------------------------------------------------------------
IMPLICIT = [(r, q) for r in RESULTS for q in r.quantities if isinstance(q.explicit, Implicit)]


@pytest.mark.parametrize("result,quantity", IMPLICIT, ids=[f"{r.id}-{q.name}" for r, q in IMPLICIT])
def test_implicit_solution_is_the_least_integer(result, quantity):
    """g(x) <= 0 and (x is the solver's start or g(x - 1) > 0), at three points per result."""
    rng = np.random.default_rng(1)
    points = [example_point(result)]
    while len(points) < 3:
        cand = {k: _props.random_value(result, k, rng) for k in result.params}
        try:
            evaluate(result, cand)
            points.append(cand)
        except DomainError:
            continue
    for point in points:
        evs = evaluate(result, point)
        env = {result.param(k).arg: float(v) for k, v in {**result.defaults, **point}.items()}
        for q in result.quantities:
            for c in q.constants:
                env[c] = 1.0
            env[q.symbol] = float(evs[q.name].value)
            if q is quantity:
                break
        imp = quantity.explicit
        x = env[quantity.symbol]
        g = lambda v: float(call(imp.g, NUMPY, env, {imp.var: v}))
        start = max(math.ceil(float(call(imp.lower, NUMPY, env))) if imp.lower else 1, 1)
        # the solver evaluated g on arrays, this on scalars: numpy's vectorised and scalar exp/log
        # may differ in the last ulps, so a root exactly at the boundary can read +1e-14 here
        # (log-space tails whose terms are up to ~1e2: 1e-12 is ~50 ulps of them, far below any
        # real violation, which would be of order the terms)
        assert g(x) <= 1e-12, (result.id, point, x)
        # beyond 2^53 an integer step is below float resolution: the solver's bracket is
        # max(1, 4e-16 x) wide there, and g > 0 at its lower end
        assert x == start or g(x - max(1.0, 4e-16 * x)) > 0, (result.id, point, x)


def _toy(g, lower=None):
    return Result(
        id="test:toy", paper="test", label="toy", kind="lemma", statement="toy", source="test",
        params=("num_hypotheses",),
        quantities=(Quantity(name="x", symbol="x", description="least x", order="exact",
                             explicit=Implicit("x", g, "g(x) <= 0", lower), integer=True),))


def test_solver_least_integer_vectorised():
    """g(x) = K + 0.5 - x: the least integer is K + 1, for a whole array of K at once."""
    r = _toy(lambda o, x, num_hypotheses: num_hypotheses + 0.5 - x)
    ks = np.array([1, 2, 3, 10, 1000, 12345678, 2**40])
    ev = evaluate(r, {"num_hypotheses": ks})["x"]
    assert ev.value.tolist() == (ks + 1).tolist()


def test_solver_respects_the_lower_end():
    r = _toy(lambda o, x, num_hypotheses: -1.0 + 0 * x, lambda o, num_hypotheses: num_hypotheses * 2.5)
    assert float(evaluate(r, {"num_hypotheses": 4})["x"].value) == 10


def test_solver_root_beyond_float_goes_to_mpmath():
    """g(x) = K - log x: x = ceil(e^K); K = 1000 is far beyond float range."""
    r = _toy(lambda o, x, num_hypotheses: num_hypotheses - o.log(x))
    ev = evaluate(r, {"num_hypotheses": 1000})["x"]
    assert float(ev.log10) == pytest.approx(1000 / math.log(10), rel=1e-12)
    ev = evaluate(r, {"num_hypotheses": 30})["x"]
    assert float(ev.value) == math.ceil(math.exp(30)) or abs(float(ev.value) - math.exp(30)) <= 1 + 1e-15 * math.exp(30)


def test_solve_np_directly_on_log_tail():
    from bounds.papers.bcmnuw20 import lemma11_public_samples_g, lemma11_public_samples_lower

    env = {"alpha": np.array([0.1, 0.01]), "beta": np.array([0.05, 0.05]), "d": np.array([3.0, 3.0])}
    imp = Implicit("m", lemma11_public_samples_g, "", lemma11_public_samples_lower)
    m = _solve_np(imp, env)
    for i in range(2):
        e = {k: v[i] for k, v in env.items()}
        assert lemma11_public_samples_g(NUMPY, m[i], **e) <= 0 < lemma11_public_samples_g(NUMPY, m[i] - 1, **e)


# --- parse_value / parse_range --------------------------------------------------------------------
@pytest.mark.parametrize("text,expected", [
    ("0.1", 0.1), ("20", 20), ("1e-9", 1e-9), ("2^64", 2**64), ("2**10", 1024), (" 7 ", 7),
    ("-3", -3), ("2^2001", 2**2001), ("1.5^2", 2.25)])
def test_parse_value(text, expected):
    v = parse_value(text, "--x")
    assert v == expected and type(v) is type(expected)


@pytest.mark.parametrize("text", ["abc", "", "1e999", "nan", "inf", "2^^3", "10^9999999"])
def test_parse_value_rejects(text):
    with pytest.raises(DomainError, match="--x"):
        parse_value(text, "--x")


def test_parse_range_forms():
    assert parse_range("0.1:0.5:5") == pytest.approx([0.1, 0.2, 0.3, 0.4, 0.5])
    assert parse_range("1:100:3:log") == pytest.approx([1, 10, 100])
    assert parse_range("1:5:5") == [1, 2, 3, 4, 5] and all(isinstance(x, int) for x in parse_range("1:5:5"))
    assert parse_range("1,2,3") == [1, 2, 3]
    assert parse_range("0.25") == [0.25]
    assert parse_range("2^10,2^20") == [1024, 2**20]


@pytest.mark.parametrize("text", ["0.1:0.5", "0.1:0.5:x", "0.1:0.5:0", "0:1:3:log", "1:2:3:4",
                                  "1:2:3:cubic", "a,b"])
def test_parse_range_rejects(text):
    with pytest.raises(DomainError, match="--alpha"):
        parse_range(text, "--alpha")
