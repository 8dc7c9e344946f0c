"""Proofs through restatements (``Inequality.proved_as``, proofs_checks.certify): the prover proves a claim through
claims whose conjunction implies it (a change of variables, a max split into its terms, an identity the restatement
relies on). Each restatement must be able to fail: the same restatement of a wrong claim is not proved, a false
identity among the parts leaves the claim undecided, and a counterexample to a (possibly stronger) restatement is
never reported as a counterexample to the claim."""
from __future__ import annotations

import pytest

from proofs_checks import certify
from proofs_checks.core import Identity, Inequality, Var, get


def _one(o, x):
    return 1 + 0 * x


def _claim(parts) -> Inequality:
    return Inequality("x/2 <= 1 on [0, 2]", lambda o, x: x / 2, _one, (Var("x", 0.0, 2.0, log=False),),
                      proved_as=parts)


def test_restated_claim_is_proved_through_its_parts_only():
    good = Inequality("x/4 <= 1 on [0, 4]", lambda o, x: x / 4, _one, (Var("x", 0.0, 4.0, log=False),))
    out = certify.prove(_claim((good,)))
    assert out.kind == certify.PROVED and out.evidence()["restated_as"] == ["x/4 <= 1 on [0, 4]"]
    stronger_false = Inequality("x/2 <= 1 on [0, 3]", lambda o, x: x / 2, _one, (Var("x", 0.0, 3.0, log=False),))
    out = certify.prove(_claim((good, stronger_false)))
    assert out.kind == certify.UNDECIDED  # a counterexample of the stronger part is none of the claim's
    assert "restatement 2 of 2" in out.reason and "counterexample" in out.reason


def test_a_false_identity_among_the_parts_leaves_the_claim_undecided():
    false = Identity("x = 2x", lambda o, x: x, lambda o, x: 2 * x, (Var("x", 1.0, 2.0),))
    true = Identity("2x/2 = x", lambda o, x: 2 * x / 2, lambda o, x: x, (Var("x", 1.0, 2.0),))
    assert certify.prove(_claim((true,))).kind == certify.PROVED
    assert certify.prove(_claim((true, false))).kind == certify.UNDECIDED


def test_restatement_covers_only_the_region_it_was_built_for():
    """A claim with a region is restated on that region: asked on the whole box, the prover ignores the restatement."""
    part = Inequality("x/2 <= 1 on [0, 2]", lambda o, x: x / 2, _one, (Var("x", 0.0, 2.0, log=False),))
    claim = Inequality("x/2 <= 1", lambda o, x: x / 2, _one, (Var("x", 0.0, 3.0, log=False),),
                       region=lambda o, x: x <= 2, proved_as=(part,))
    assert certify.prove(claim, claim.region).kind == certify.PROVED
    assert certify.prove(claim, None).kind == certify.COUNTEREXAMPLE


def _restated_twin(check_id: str) -> Inequality:
    """The check's restatement applied to its perturbed twin (a constant changed): it must not be proved."""
    from proofs_checks._nb20_claims import amplification_claim
    from proofs_checks.abm19 import lemma33_big_o_claim, o_form
    from proofs_checks.nb20 import thm11_factor_claim

    if check_id == "nb20:thm11.factor":
        return thm11_factor_claim(4.0, get(check_id).stated.region, "", "constant 4", restated=True)
    if check_id == "abm19:lemma3.3.big-o":
        return lemma33_big_o_claim(8.0, o_form, "constant 8", restated=True)
    return amplification_claim(50, "rate eps/50", restated=True)  # 56 >= e^4 - 1 = 53.6 > 50


@pytest.mark.parametrize("check_id", ["nb20:thm11.factor", "abm19:lemma3.3.big-o", "nb20:lemma8.amplification"])
def test_restatement_of_a_perturbed_claim_is_not_proved(check_id):
    twin = _restated_twin(check_id)
    out = certify.prove(twin, twin.region, boxes=4000, seconds=5)
    assert out.kind == certify.UNDECIDED and "restatement" in out.reason, out.reason


def test_restated_parts_with_a_side_flipped_get_counterexamples():
    """Theorem 13's neighbour step and Prop 4.3's third event: each part decides something."""
    from proofs_checks._bcmnuw20_thm13 import neighbour_parts
    from proofs_checks.lvsuw21 import third_event_path

    from proofs_checks.lvsuw21_thm44 import hoeffding_parts

    for p in (*neighbour_parts(), third_event_path(), hoeffding_parts(1 / 8)[3]):
        flipped = Inequality(p.text, p.rhs, p.lhs, p.domain, tight=p.tight)
        assert certify.prove(flipped, boxes=4000, seconds=5).kind == certify.COUNTEREXAMPLE, p.text


def test_hoeffding_restatement_decides_each_step():
    """Hoeffding's lemma through Taylor's theorem: the restatement of the lam^2/16 twin is not proved (its f'' part,
    (t - 1/2)^2 - 1/8 >= 0, gets a counterexample), and the lam^2/8 curvature identity is false for the twin's gap
    (sympy does not reduce it to 0), so a restatement that reused it would leave the twin undecided, not proved."""
    from proofs_checks.lvsuw21_thm44 import HOEFF, _hoeffding_gap_diff, _hoeffding_t, hoeffding_lhs, hoeffding_parts
    from proofs_checks.lvsuw21_thm44 import hoeffding_rhs

    twin = Inequality("... <= lam p + lam^2/16", hoeffding_lhs, hoeffding_rhs(1 / 16), HOEFF,
                      proved_as=hoeffding_parts(1 / 16))
    out = certify.prove(twin, boxes=4000, seconds=5)
    assert out.kind == certify.UNDECIDED and "restatement 4 of 4" in out.reason, out.reason
    wrong = Identity("f''(lam) = (t - 1/2)^2 for the lam^2/16 gap",
                     lambda o, lam, p: _hoeffding_gap_diff(o, lam, p, 1 / 16, 2),
                     lambda o, lam, p: (_hoeffding_t(o, lam, p) - 0.5) ** 2, HOEFF)
    square = hoeffding_parts(1 / 8)[3]
    lying = Inequality("... <= lam p + lam^2/16", hoeffding_lhs, hoeffding_rhs(1 / 16), HOEFF,
                       proved_as=(*hoeffding_parts(1 / 16)[:2], wrong, square))
    out = certify.prove(lying, boxes=4000, seconds=5)
    assert out.kind == certify.UNDECIDED and "restatement 3 of 4" in out.reason, out.reason


def test_lemma9_sizes_restatement_needs_the_max_factor():
    """Lemma 9's n'/k ratio through min(1, x) max(1, x) = x: the same restatement of the twin whose n' lacks the
    max(1, sqrt(m) alpha^{3/2}) factor is not proved (its ratio is not the restated form: sympy leaves a difference),
    and max(1, x) min(1, x) = 2x is no identity even with max and min rewritten as cases."""
    from bounds.papers.nb20 import lemma9_n_prime_printed
    from proofs_checks._nb20_claims import sizes_claim

    twin = sizes_claim(lambda o, alpha, beta, delta, d, num_queries: lemma9_n_prime_printed(
        o, alpha, beta, delta, d, num_queries) / o.max(1, o.sqrt(num_queries) * alpha ** o.frac(3, 2)), "twin",
        restated=True)
    out = certify.prove(twin, boxes=4000, seconds=5)
    assert out.kind == certify.UNDECIDED and "restatement 1 of 3" in out.reason, out.reason
    wrong = Identity("max(1, x) min(1, x) = 2x", lambda o, x: o.max(1, x) * o.min(1, x), lambda o, x: 2 * x,
                     (Var("x", 1e-8, 1e5),))
    assert certify.prove(_claim((wrong,))).kind == certify.UNDECIDED
