"""ABM19 audit targets (simulations/audit_targets/abm19.py): A_SSPP and B pass, their broken variants are caught."""

from __future__ import annotations

import math


from simulations import audit


def test_targets_are_discovered():
    names = set(audit.targets())
    assert {"a_sspp", "a_sspp_wrong_sensitivity", "reduction_b", "reduction_b_reuses_point"} <= names


def test_a_sspp_passes_and_is_nearly_tight():
    """A_SSPP on the one-label pair: eps_lb <= eps = 1, and above 0.4 (the exact loss of the better test
    is log(0.5 / (1/(1+e))) = 0.62): catches an audit with no power, e.g. a statistic ignoring the output."""
    r = audit.run_target("a_sspp", samples=40_000, seed=1)
    assert not r.violated and 0.4 < r.eps_lower_bound <= 1.0


def test_a_sspp_wrong_sensitivity_is_caught():
    """Scores -n err_hat declared with sensitivity 1/n lose 4 eps on this pair: eps_lb > eps."""
    r = audit.run_target("a_sspp_wrong_sensitivity", samples=40_000, seed=2)
    assert r.violated and r.eps_lower_bound > 2.0


def test_reduction_b_passes_and_the_point_reusing_b_is_caught():
    """300 outputs per neighbour: B (each private point used at most once) stays <= eps; B reusing z~_1 at
    every real position flips A's output and is caught (eps_lb > eps)."""
    ok = audit.run_target("reduction_b", samples=300, seed=3)
    bad = audit.run_target("reduction_b_reuses_point", samples=300, seed=3)
    assert not ok.violated and ok.eps_lower_bound <= 1.0
    assert bad.violated and math.isfinite(bad.eps_lower_bound)
