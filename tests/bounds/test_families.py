"""bounds.families: Theorem 10's n beside the strongest private-only bound per class family, and the least size
where it falls below."""
from __future__ import annotations

import math

import pytest

import bounds
from bounds.errors import DomainError
from bounds.families import FAMILIES, least_paying_size, public_pays

KW = {"alpha": 0.3, "beta": 0.1, "epsilon": 0.9, "delta": 1e-6}


def test_public_pays_reads_each_bound_from_its_result():
    """Every number is the registered result's value at the family's (d, p, |H|, |X|): thresholds on 2^20 points."""
    out = public_pays("thresholds", 20, **KW)
    assert out["thm10"] == float(bounds.compute("thm10", **KW, vc=1, dual_vc=1)["private_samples"])
    tree = float(bounds.compute("tree_thresholds", **KW, domain_size=2**20)["private_samples"])
    assert out["opponents"]["baselines:tree_thresholds"] == tree
    assert out["strongest_n"] == min(out["opponents"].values())
    assert out["pays"] == (out["thm10"] < out["strongest_n"])


def test_least_paying_size_is_least():
    """The search's answer pays and the size below it does not (halfspaces on a 2^b x 2^b grid)."""
    r = least_paying_size("halfspaces_2d", low=2, high=255, **KW)
    assert r["found"] and r["at"]["pays"] and not r["below"]["pays"]


def test_an_opponent_beyond_float_is_left_out_not_guessed():
    """Stumps at p = 2000: PMW's |X| = 2^2000 is beyond float64, so it is None; the Gaussian is still compared."""
    out = public_pays("stumps", 2000, **KW)
    assert out["opponents"]["baselines:pmw"] is None
    assert out["strongest"] == "baselines:gaussian"
    assert out["d"] == math.floor(math.log2(2000)) and out["p"] == 2000


def test_unknown_family_is_refused():
    with pytest.raises(DomainError):
        public_pays("circles", 3, **KW)
    assert set(FAMILIES) >= {"thresholds", "intervals", "stumps", "conjunctions", "parities", "halfspaces_2d"}
