"""Generic properties of every registered result (all papers, also ones added later).

For each quantity: (1) monotone in each parameter the way ``monotone`` declares, on random points
of the result's domain; (2) explicit >= asymptotic with every hidden constant 1 where
``dominates_asymptotic`` says so; (3) for each declared ``scaling`` (arg, limit), the ratio
explicit/asymptotic converges as arg goes to its limit: along arg = x0 * 10^(-+2^k) the increments
of log10(ratio) shrink geometrically (a ratio that drifts like a power or a logarithm of the arg
keeps a constant or growing increment on this doubly exponential grid and fails).

Breaks caught: a sign flipped in a formula or a monotone declaration, a constant dropped from an
explicit form (falls below the asymptotic form), a missing factor (ratio drifts with the arg).
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bounds.core import evaluate
from bounds.errors import DomainError
from bounds.registry import all_results

RESULTS = all_results()
IDS = [r.id for r in RESULTS]

#: values a reader would try first; used when inside the result's (possibly narrowed) domain
PREFERRED = {"alpha": 0.1, "beta": 0.05, "epsilon": 0.5, "delta": 1e-6, "vc": 3, "dual_vc": 8,
             "littlestone": 4, "num_queries": 100, "private_samples": 1000,
             "public_samples": 200, "renyi_2": 0.5, "renyi_inf": 1.0, "num_hypotheses": 64,
             "domain_size": 1024}


def _int_low(iv) -> int:
    lo = math.ceil(iv.low) if math.isfinite(iv.low) else 1
    return lo + 1 if (iv.low_open and lo == iv.low) else lo


def _int_high(iv) -> float:
    if not math.isfinite(iv.high):
        return math.inf
    hi = math.floor(iv.high)
    return hi - 1 if (iv.high_open and hi == iv.high) else hi


def base_value(result, key):
    """A typical value of parameter ``key`` inside ``result``'s domain."""
    p = result.param(key)
    iv = p.domain
    pref = PREFERRED.get(key)
    if pref is not None and iv.contains(pref):
        return pref
    if iv.integer:
        lo, hi = _int_low(iv), _int_high(iv)
        return int(min(max(lo, 4), hi))
    if math.isfinite(iv.low) and math.isfinite(iv.high):
        return iv.low + 0.1 * (iv.high - iv.low)
    if math.isfinite(iv.low):
        return iv.low + 1.0
    if math.isfinite(iv.high):
        return iv.high - 1.0
    return 1.0


def random_value(result, key, rng: np.random.Generator):
    """A random value of ``key`` in ``result``'s domain, log-uniform around the typical one."""
    iv = result.param(key).domain
    b = base_value(result, key)
    if iv.integer:
        lo, hi = _int_low(iv), _int_high(iv)
        top = min(hi, max(lo, abs(b)) * 1000)
        if top <= lo:
            return int(lo)
        return int(min(top, max(lo, round(math.exp(rng.uniform(math.log(max(lo, 1)),
                                                                  math.log(max(top, 2))))))))
    if math.isfinite(iv.low) and math.isfinite(iv.high):
        width = iv.high - iv.low
        lo, hi = iv.low + width * 1e-4, iv.high - width * 1e-3
        if iv.low >= 0 and rng.random() < 0.5:  # log-uniform towards the low end
            return float(math.exp(rng.uniform(math.log(max(lo, 1e-300)), math.log(hi))))
        return float(rng.uniform(lo, hi))
    x = b * 10 ** rng.uniform(-2, 2) if b > 0 else b + rng.uniform(0, 100)
    return float(x) if iv.contains(x) else b


def values_at(result, point, form="explicit"):
    return {name: ev for name, ev in evaluate(result, point, form=form).items()}


def example_point(result):
    """The typical point, or (if cross-parameter constraints reject it) the first of 200 random
    points the result accepts."""
    point = {k: base_value(result, k) for k in result.params}
    try:
        evaluate(result, point)
        return point
    except DomainError:
        pass
    rng = np.random.default_rng(0)
    for _ in range(200):
        point = {k: random_value(result, k, rng) for k in result.params}
        try:
            evaluate(result, point)
            return point
        except DomainError:
            continue
    raise AssertionError(f"{result.id}: no valid parameter point found for the generic tests")


def key_of(result, arg):
    for k in result.params:
        if result.param(k).arg == arg:
            return k
    raise AssertionError(f"{result.id}: monotone/scaling names {arg!r}, which is not one of its "
                         "parameters' arguments")


def test_every_result_has_a_valid_example_point():
    """Each result evaluates somewhere in its domain (otherwise the generic tests would be vacuous)."""
    for r in RESULTS:
        out = evaluate(r, example_point(r))
        for name, ev in out.items():
            assert np.all(np.isfinite(ev.log10)) or np.all(ev.log10 == -math.inf), (r.id, name)


def test_declarations_name_parameters():
    """monotone and scaling keys are parameter arguments; dominance needs both forms.

    (A scaling declared on a quantity with one form only is vacuous, ratio 1; the scaling test
    below covers the quantities that have both.)"""
    for r in RESULTS:
        for q in r.quantities:
            for arg in q.monotone:
                key_of(r, arg)
            for arg, limit in q.scaling:
                key_of(r, arg)
                assert limit in ("0", "inf"), (r.id, q.name, limit)
            if q.dominates_asymptotic:
                assert q.explicit is not None and q.asymptotic is not None, (r.id, q.name)


def _ordered(v1, l1, v2, l2, direction) -> bool:
    """direction * (q(x2) - q(x1)) >= 0 up to rounding, x2 > x1."""
    if math.isfinite(v1) and math.isfinite(v2):
        tol = 1e-9 * max(abs(v1), abs(v2)) + 1e-300
        return direction * (v2 - v1) >= -tol
    return direction * (l2 - l1) >= -1e-9


MONO = [(r.id, q.name) for r in RESULTS for q in r.quantities if q.monotone]


@pytest.mark.parametrize("rid,qname", MONO, ids=[f"{a}-{b}" for a, b in MONO])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_monotone_as_declared(rid, qname, seed):
    """Catches a sign flipped in a formula or in a declaration (q moves the wrong way)."""
    r = next(x for x in RESULTS if x.id == rid)
    q = r.quantity(qname)
    rng = np.random.default_rng(seed)
    point = {k: random_value(r, k, rng) for k in r.params}
    try:
        evaluate(r, point)
    except DomainError:
        assume(False)
    checked = 0
    for arg, direction in q.monotone.items():
        key = key_of(r, arg)
        a, b = point[key], random_value(r, key, rng)
        if a == b:
            continue
        x1, x2 = (a, b) if a < b else (b, a)
        try:
            e1 = evaluate(r, {**point, key: x1})[qname]
            e2 = evaluate(r, {**point, key: x2})[qname]
        except DomainError:
            continue
        v1, v2 = float(e1.value), float(e2.value)
        l1, l2 = float(e1.log10), float(e2.log10)
        assert _ordered(v1, l1, v2, l2, direction), (
            f"{rid} {qname} should {'increase' if direction > 0 else 'decrease'} in {arg}: "
            f"{arg}={x1!r} -> {v1!r} (log10 {l1}), {arg}={x2!r} -> {v2!r} (log10 {l2}) at {point}")
        checked += 1
    assume(checked > 0)


DOM = [(r.id, q.name) for r in RESULTS for q in r.quantities if q.dominates_asymptotic]


@pytest.mark.parametrize("rid,qname", DOM, ids=[f"{a}-{b}" for a, b in DOM])
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_explicit_not_below_asymptotic_with_constants_one(rid, qname, seed):
    """Catches an explicit form that lost a constant or a term its derivation implies."""
    r = next(x for x in RESULTS if x.id == rid)
    rng = np.random.default_rng(seed)
    point = {k: random_value(r, k, rng) for k in r.params}
    try:
        ex = evaluate(r, point, form="explicit")[qname]
        asym = evaluate(r, point, form="asymptotic")[qname]
    except DomainError:
        assume(False)
    assert float(ex.log10) >= float(asym.log10) - 1e-9, (rid, qname, point, float(ex.log10),
                                                           float(asym.log10))


SCALE = [(r.id, q.name, arg, limit) for r in RESULTS for q in r.quantities
         for arg, limit in q.scaling if q.explicit is not None and q.asymptotic is not None]

#: x_k = x0 * 10^(-+2^k), k = 0..K
K_STEPS = 8


def log_ratios(r, qname, key, limit, point):
    base = point[key]
    iv = r.param(key).domain
    out = []
    for k in range(K_STEPS + 1):
        factor = 10 ** (2 ** k)
        if limit == "0":
            x = base / factor
        else:
            x = base * factor
            if iv.integer:
                x = int(base) * 10 ** (2 ** k)
        if not iv.contains(x):
            break
        p = {**point, key: x}
        ex = evaluate(r, p, form="explicit")[qname]
        asym = evaluate(r, p, form="asymptotic")[qname]
        out.append(float(ex.log10) - float(asym.log10))
    return out


def converging(inc) -> bool:
    """The last increment of log10(ratio) is small and shrinks geometrically (or is ~0).

    On the grid x_k = x0 10^(-+2^k): a ratio ~ log(1/x) has increments log10 2 = 0.30 (fails the
    size test), ~ log log(1/x) increments ~ 0.43/k shrinking by k/(k+1) > 0.8 (fails the ratio
    test), a power of x growing increments; corrections ~ 1/log x shrink by 1/2 per step."""
    last, prev = inc[-1], inc[-2]
    return bool(last < 0.1 and (last <= 0.8 * prev or last < 1e-3))


@pytest.mark.parametrize("rid,qname,arg,limit", SCALE, ids=[f"{a}-{b}-{c}-{d}" for a, b, c, d in SCALE])
def test_declared_scaling_ratio_converges(rid, qname, arg, limit):
    """Catches a wrong power or a missing log factor: log10(explicit/asymptotic) must settle."""
    r = next(x for x in RESULTS if x.id == rid)
    key = key_of(r, arg)
    point = example_point(r)
    rs = log_ratios(r, qname, key, limit, point)
    assert len(rs) >= 5, f"{rid} {qname}: {arg} -> {limit} leaves the domain after {len(rs)} steps"
    assert all(math.isfinite(x) for x in rs), rs
    inc = np.abs(np.diff(rs))
    assert converging(inc), (
        f"{rid} {qname} as {arg} -> {limit}: log10 ratios {rs} (increments {inc}) do not settle")


def test_scaling_check_rejects_a_drifting_ratio():
    """The convergence criterion rejects ratios ~ log(1/x), log log(1/x), x^-1/2 and accepts
    (2 log(1/x) + 3)/(log(1/x) + 1) and a constant (sanity of the test itself)."""
    def incs(ratio):
        xs = [0.1 / 10 ** (2 ** k) for k in range(K_STEPS + 1)]
        return np.abs(np.diff([math.log10(ratio(x)) for x in xs]))

    for ratio in (lambda x: math.log(1 / x), lambda x: math.log(math.log(1 / x)),
                  lambda x: x ** -0.5):
        assert not converging(incs(ratio))
    assert converging(incs(lambda x: (2 * math.log(1 / x) + 3) / (math.log(1 / x) + 1)))
    assert converging(incs(lambda x: 5.0))
