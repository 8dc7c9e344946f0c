"""Privacy guarantees print one way everywhere (algorithms.privacy.accounting.format_guarantee): eps before
delta, no tuple commas, the saved JSON form printing as the value it stands for."""

import pytest

from algorithms.privacy.accounting import ApproxDP, PureDP, ZCDP, format_guarantee


def test_values_and_their_saved_form_print_the_same():
    """Catches the report's old ``ApproxDP(0.001953, 1.0)`` (sorted keys: delta before eps) and ``PureDP(1.0,)``."""
    assert str(ApproxDP(1.0, 1e-6)) == format_guarantee(ApproxDP(1.0, 1e-6)) == "(1, 1e-06)-DP"
    assert str(PureDP(1.0)) == "1-DP" and str(ZCDP(0.5)) == "0.5-zCDP"
    saved = {"delta": 0.001953, "eps": 1.0, "kind": "ApproxDP"}  # the order a summary's sorted keys give
    assert format_guarantee(saved) == "(1, 0.001953)-DP"
    assert format_guarantee({"kind": "PureDP", "eps": 1.0}) == "1-DP"
    assert format_guarantee(None) == "none declared"


@pytest.mark.parametrize("bad", [{"kind": "Renyi", "eps": 1}, {"kind": "ApproxDP", "eps": 1, "delta": 2.0},
                                 {"kind": "PureDP", "rho": 1}, (1.0, 0.5)])
def test_anything_else_is_refused(bad):
    with pytest.raises(ValueError):
        format_guarantee(bad)
