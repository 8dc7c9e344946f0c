"""Small fixes from the statement-level reading, each pinned by a test that fails on the old behaviour.

Breaks caught (each checked once by reverting the fix): the Theorem 11 factor check without the
statement's max(1, .); the Lemma 8 erratum saying the step is false everywhere above delta = 0.0366;
``show thm11`` saying the printed m_o fails only from d >= 10; the ``lemma4.4`` domain accepting
n_priv = 1-3; ``--num-queries`` described as NB20's m only; NB20's Definition 1 not recorded."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import poisson

import bounds
from bounds.errata import get
from bounds.ops import NUMPY
from bounds.show import render_show


def test_thm11_factor_check_keeps_the_max_with_one():
    """A point where sqrt(m_o) alpha^{3/2} < 1 has factor 1 on both sides: not a counterexample."""
    from proofs_checks import get as check
    from proofs_checks.core import run_check
    from proofs_checks.nb20 import thm11_factor_claim

    claim = thm11_factor_claim(8.0, None, "", "")
    assert float(claim.lhs(NUMPY, alpha=0.01, beta=0.5, d=1)) == 1.0
    v = run_check(check("nb20:thm11.factor")).verdict
    assert v.counterexample["lhs"] > 1.0


def test_lemma8_erratum_places_the_failures_on_intervals():
    """In the Poisson(1) limit, P[r > log(2/delta)] <= delta/2 fails just above 2 e^{-4} and holds again
    from about 0.0380 on: the record says so (the old text said 'false above 0.0366')."""
    d = np.linspace(0.0367, 0.0995, 20000)
    ok = poisson.sf(np.floor(np.log(2 / d)), 1) <= d / 2
    first_ok = d[np.argmax(ok)]
    assert not ok[0] and ok[-1] and 0.0379 < first_ok < 0.0381
    text = get("nb20-lemma8-r-tail").corrected
    assert "(0.0366, 0.0380]" in text and "false above" not in text


def test_thm11_printed_m_o_fails_already_at_d_1():
    c = bounds.compute("thm11", alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, vc=1, num_queries=10**7)
    assert c["public_samples_printed"] < c["cover_samples"]
    assert "d >= 10" not in render_show(bounds.get("thm11"), latex=False)


def test_lemma4_4_refuses_fewer_than_four_private_samples():
    for n in (1, 2, 3):
        with pytest.raises(bounds.DomainError, match="private-samples"):
            bounds.compute("lemma4.4", alpha=0.001, private_samples=n, public_samples=1)
    assert bounds.compute("lemma4.4", alpha=0.001, private_samples=4, public_samples=1)["private_samples_B"] == 4


@pytest.mark.parametrize("rid", ["prop4.3", "thm4.4"])
def test_num_queries_is_described_as_the_query_set_size_for_lvsuw21(rid):
    line = next(x for x in render_show(bounds.get(rid), latex=False).splitlines() if "--num-queries" in x)
    assert "|Q|" in line


def test_nb20_definition_of_privacy_is_recorded():
    e = get("nb20-definition1-dp")
    assert e.status == "erratum" and "Definition 1" in e.location


def test_lemma9_step_2_holds_at_the_encoded_min_queries():
    """Lemma 9 step (2): X = 1(h^ wrong) - 1(h_ERM wrong) has mean <= alpha/4 (Lemma 6) and is non-zero w.p.
    <= alpha/2 + 2 gamma; Bernstein at deviation alpha/4 must be <= beta/4 at min_queries over a grid, which
    closes the caveat the notes used to carry (old notes: 'Not encoded: step (2) ... has the same gap')."""
    from bounds.papers.nb20 import lemma9_min_queries_bernstein

    a = np.geomspace(1e-4, 0.5, 40)[:, None, None]
    b = np.geomspace(1e-12, 0.5, 40)[None, :, None]
    g = np.concatenate([[0.0], np.geomspace(1e-4, 0.5, 30)])[None, None, :]
    m = np.ceil(lemma9_min_queries_bernstein(NUMPY, a, b, g))
    t, var = a / 4, np.minimum(a / 2 + 2 * g, 1.0) - (a / 4) ** 2
    assert np.all(np.exp(-m * t**2 / (2 * var + (2 / 3) * (1 + a / 4) * t)) <= b / 4)
    # a tenth of the queries is not enough somewhere: the check can fail
    assert not np.all(np.exp(-(m / 10) * t**2 / (2 * var + (2 / 3) * (1 + a / 4) * t)) <= b / 4)
    notes = " ".join(bounds.get("lemma9").notes)
    assert "Not encoded: step (2)" not in notes and "holds at min_queries" in notes
