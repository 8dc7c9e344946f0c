"""bounds.guarantees prints a saved guarantee exactly as algorithms.privacy.accounting.format_guarantee prints the
value, and refuses what the value would refuse. Broken once: ``.4g`` -> ``.3g`` in bounds (the equality fails at
eps = 0.12345)."""
from __future__ import annotations

import pytest

from algorithms.privacy.accounting import ZCDP, ApproxDP, PureDP, format_guarantee as value_text
from bounds.guarantees import approx_dp, format_guarantee

VALUES = [PureDP(0), PureDP(1), PureDP(0.12345), ApproxDP(1, 1e-6), ApproxDP(0.5, 0), ApproxDP(2.25, 0.999),
          ZCDP(0.5), ZCDP(1e-7), ApproxDP(123456.0, 1e-12)]


@pytest.mark.parametrize("g", VALUES, ids=str)
def test_the_saved_form_prints_as_the_value_does(g):
    saved = {"kind": type(g).__name__, **{k: getattr(g, k) for k in g.__dataclass_fields__}}
    assert format_guarantee(saved) == value_text(saved) == value_text(g)
    if isinstance(g, ApproxDP):
        assert approx_dp(g.eps, g.delta) == value_text(g)


@pytest.mark.parametrize("bad", [{"kind": "ApproxDP", "eps": 1}, {"kind": "RenyiDP", "eps": 1}, {"eps": 1},
                                 {"kind": "ApproxDP", "eps": 1, "delta": 1.0}, {"kind": "PureDP", "eps": -1},
                                 {"kind": "PureDP", "eps": float("inf")}, {"kind": "ZCDP", "rho": "x"},
                                 {"kind": "PureDP", "eps": float("nan")}, "1-DP"])
def test_what_the_value_refuses_is_refused(bad):
    with pytest.raises(ValueError):
        value_text(bad)
    with pytest.raises(ValueError):
        format_guarantee(bad)


def test_none_is_none_declared():
    assert format_guarantee(None) == value_text(None) == "none declared"
