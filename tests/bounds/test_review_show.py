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
