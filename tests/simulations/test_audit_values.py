"""Mironov 2012 / JUO20: the auditor's event families that read which values occur (simulations._audit_values):
atoms inside a continuous law, outputs one neighbour cannot produce, rounding on one side."""

from __future__ import annotations

import numpy as np

from simulations import audit
from simulations._audit_values import AtomSetTest, BinSetTest, GridTest, value_search


def _laplace(data, rng, n):
    return data + rng.laplace(0.0, 1.0, n)


def point_mass(data, public, rng, size=None):
    """Laplace(1) on a counting query, except that with probability 1e-3 it releases the exact count."""
    n = size or 1
    out = np.where(rng.random(n) < 1e-3, float(data), _laplace(data, rng, n))
    return out if size else out[0]


def band_hole(data, public, rng, size=None):
    """Laplace(1), but on the count 1 an output within 0.05 of 0.5 is pushed 0.05 further out (no atom): D1 never
    releases a value in (0.45, 0.55), D0 does with probability ~0.03."""
    n = size or 1
    out = _laplace(data, rng, n)
    if data == 1:
        out = np.where(np.abs(out - 0.5) < 0.05, out + np.where(out < 0.5, -0.05, 0.05), out)
    return out if size else out[0]


def rounded_on_one_side(data, public, rng, size=None):
    """Laplace(1), rounded to 2 decimals on the count 1 only."""
    n = size or 1
    out = _laplace(data, rng, n)
    out = np.round(out, 2) if data == 1 else out
    return out if size else out[0]


def _case(mech):
    return audit.AuditCase(mech, None, (0.0, 1.0), None, 1.0, 0.0, batched=True)


def test_a_point_mass_inside_a_continuous_law_is_an_atom_event():
    """Caught at 200,000 samples by the atom family (eps_lb > 1). Broken by once: without the value families
    (``value_search`` returning nothing) the same audit passes (eps_lb 0.98: the threshold events)."""
    r = audit.audit(_case(point_mass), 200_000, np.random.default_rng(1))
    assert r.violated and r.test.startswith("atoms:")


def test_outputs_one_neighbour_cannot_produce_are_a_support_event():
    """A band one neighbour never reaches is caught by the support bins at 20,000 samples; rounding on one side by
    a grid or atom event. Broken by once: with 64 bins in place of min(1024, n/50) the band is split across bins
    and the audit passes (eps_lb 0.99)."""
    r = audit.audit(_case(band_hole), 20_000, np.random.default_rng(1))
    assert r.violated and r.test.startswith("support bins:")
    r = audit.audit(_case(rounded_on_one_side), 20_000, np.random.default_rng(1))
    assert r.violated and r.test.split(":")[0] in ("grid", "atoms")


def test_no_value_event_on_a_plain_laplace():
    """The real Laplace passes with the value families in the event set (their events are chosen on the selection
    half and bounded on the other, like the thresholds), in 5 of 5 seeds."""
    for seed in range(5):
        def plain(data, public, rng, size=None):
            out = _laplace(data, rng, size or 1)
            return out if size else out[0]
        assert not audit.audit(_case(plain), 20_000, np.random.default_rng(seed)).violated


def test_value_events_evaluate_as_described():
    x = np.array([0.0, 0.0, 0.5, 1.25, np.nan])
    assert AtomSetTest((0.0, 1.25), (1.25,), False).guesses_d1(x).tolist() == [False, False, False, True, False]
    assert AtomSetTest((0.0, 1.25), (), True).guesses_d1(x).tolist() == [False, False, True, False, True]
    assert BinSetTest((0.25, 1.0), (1,)).guesses_d1(x).tolist() == [False, False, True, False, False]
    assert GridTest(1, True).guesses_d1(x).tolist() == [True, True, True, False, False]
    rng = np.random.default_rng(0)
    found = value_search(rng.normal(size=3000), rng.normal(size=3000), 0.0, 1.0, "eps")
    assert {type(t) for t, _ in found} == {BinSetTest, GridTest} or {type(t) for t, _ in found} == {BinSetTest}
