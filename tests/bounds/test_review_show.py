"""Reviewer checks: `python -m bounds show` states the implicit forms the solver actually solves.

The catch: an Implicit value is the least integer x >= lower with g(x) <= 0, not the least
integer with g(x) <= 0. Below the lower end the tail bounds may hold spuriously (Sauer's bound
(2em/d)^{2d} is used outside 2m >= d), so a display without the lower end describes a different
number.
"""
from __future__ import annotations

import math

from bounds.core import Implicit, evaluate
from bounds.registry import get
from bounds.show import render_show


def _lemma11_tail(m, alpha, beta, d):
    """BCMNUW20 Lemma 11 by hand: log(2 (2em/d)^{2d} e^{-(alpha/4) m/4} / (beta/2))."""
    return math.log(2) + 2 * d * math.log(2 * math.e * m / d) - alpha * m / 16 - math.log(beta / 2)


def test_show_states_the_lower_end_of_implicit_forms():
    """Hand computation at d = 100, alpha = 0.1, beta = 0.05: the printed inequality alone holds
    at m = 1 (log 2 + 200 log(2e/100) - 0.1/16 - log 0.025 = -578.3 <= 0), yet the computed m is
    at least 32 d/alpha = 32000; so `show` must say 'm >= 32*d/alpha'. Catches a display that
    drops the solver's lower end."""
    alpha, beta, d = 0.1, 0.05, 100
    assert _lemma11_tail(1, alpha, beta, d) < -500
    res = get("lemma11")
    m = float(evaluate(res, {"alpha": alpha, "beta": beta, "vc": d})["public_samples"].value)
    assert m >= 32 * d / alpha and _lemma11_tail(m, alpha, beta, d) <= 0
    assert _lemma11_tail(m - 1, alpha, beta, d) > 0
    text = render_show(res)
    line = next(x for x in text.splitlines() if x.startswith("  explicit: m = "))
    assert "least integer m >= 32*d/alpha with" in line


def test_every_implicit_form_shows_its_lower_end():
    """Every registered Implicit with a declared lower end shows 'x >= ...' in plain text."""
    from bounds.registry import all_results

    for res in all_results():
        text = render_show(res, latex=False)
        for q in res.quantities:
            if isinstance(q.explicit, Implicit) and q.explicit.lower is not None:
                assert f"least integer {q.explicit.var} >= " in text, (res.id, q.name)


def test_cover_lower_end_claims_hold_only_from_d_over_2():
    """Hand computation: the docstrings once said 'no m below 8d/alpha (32d/alpha^2) solves g <= 0'.
    At d = 100, alpha = 0.1, beta = 0.05, m = 1: ABM19's tail log 2 + 200 (1 + log(2/100))
    - 0.1/4 - log 0.05 = -578.7 <= 0, and the uc tail log 4 + 100 (1 + log(2/100)) - 0.01/32
    - log 0.05 = -286.8 <= 0; so the claim holds only on [d/2, lower), where Sauer applies.
    Catches the overclaim coming back (and the '|E h - E h~| = 2 P[h != h~]' equality, false for
    h = (+1, -1), h~ = (-1, +1) on two equally likely points: 0 versus 2)."""
    from bounds.papers.baselines import uc_log_tail, uc_lower
    from bounds.papers.bcmnuw20 import LEMMA11_DERIVATION, lemma11_public_samples_g, \
        lemma11_public_samples_lower
    from bounds.ops import NUMPY

    abm = math.log(2) + 200 * (1 + math.log(2 / 100)) - 0.1 / 4 - math.log(0.05)
    uc = math.log(4) + 100 * (1 + math.log(2 / 100)) - 0.01 / 32 - math.log(0.05)
    assert abm < -578 and uc < -286
    assert math.isclose(float(lemma11_public_samples_g(NUMPY, 1.0, 0.1, 0.05, 100)), abm)
    assert math.isclose(float(uc_log_tail(NUMPY, 1.0, 0.1, 0.05, 100)), uc)
    for fn in (lemma11_public_samples_lower, uc_lower):
        assert "No m below" not in fn.__doc__ and "no smaller m" not in fn.__doc__
        assert "d/2" in fn.__doc__
    assert "|E h - E h~| = 2 P" not in LEMMA11_DERIVATION
