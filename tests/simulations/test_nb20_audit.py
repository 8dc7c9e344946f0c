"""NB20 audit targets (simulations/audit_targets/nb20.py): the pairs are the ones the docstring claims, the
correct variants pass (also run by test_audit.py's REAL list) and the broken ones are caught."""

import pytest

from simulations import audit
from simulations.audit_targets import nb20


def test_the_neighbouring_private_sets_move_the_vote_margin_by_its_sensitivity_2():
    """One relabelled record flips one sub-sample's ERM at the query: margin 6 -> 4."""
    d0, d1 = nb20.subsamp_pair()
    assert (nb20.vote_margin(d0), nb20.vote_margin(d1)) == (6, 4)


@pytest.mark.parametrize("name", ["nb20_a_stab_margin_sensitivity_1", "nb20_unvprivcl_double_spend"])
def test_auditor_catches_the_broken_nb20_variants(name):
    """The margin read at sensitivity 1 (ratio e^{2 eps}) and A_SSPP at the full eps under the split
    declaration eps/2 (log ratio 0.80 > 0.495) both get eps_lb > declared eps (fixed seed, default samples).
    Catches an audit pair that does not move the margin by 2 or a double spend that is not spent."""
    result = audit.run_target(name, seed=11)
    assert result.violated, str(result)


def test_a_stab_audit_is_nearly_tight():
    """The pair is the hardest for A_stab (ratio e^eps on the release event): eps_lb > 0.75 eps at eps = 1.
    Catches a pair whose margins sit far from the threshold (then the audit would have no power)."""
    assert audit.run_target("nb20_a_stab", seed=5).eps_lower_bound > 0.75
