"""Audit targets of PMW (BCMNUW20 Alg 1) and PMW^Pub (LVSUW21 Alg 1): correct runs pass, broken ones are caught."""

from __future__ import annotations

import numpy as np
import pytest

from algorithms.query_release.pmw import pmw
from simulations import audit
from simulations.audit_targets import pmw as pmw_targets


def test_pmw_target_statistic_reads_the_update_from_the_release():
    """BCMNUW20 Alg 1 at c = 1: G~(h) == 0 exactly iff PMW made no update (the statistic's second coordinate),
    and NumericSparse runs at c = 1 (catches a hook that leaves PMW's own cut-off, or a synthetic answer
    that is not exactly 0)."""
    rng = np.random.default_rng(3)
    for data in pmw_targets.PAIR:
        for _ in range(200):
            r = pmw(data, pmw_targets.CLASS, pmw_targets.ALPHA, pmw_targets.BETA, pmw_targets.PMW_EPS, 0.0, rng,
                    sparse=pmw_targets.CutOff1).value
            assert r.num_tops <= 1
            assert pmw_targets._statistic(r.answers)[0, 1] == float(r.num_updates == 1)


@pytest.mark.parametrize("name", ["pmw_no_answer_noise", "pmw_eps_10x"])
def test_broken_pmw_is_caught_in_a_small_run(name):
    """Each broken PMW is caught at 4,000 samples, fixed seed (catches a pair or statistic that cannot see
    an update: with the statistic G~(h) alone on the shift pair of the old attempt both gave eps_lb 0)."""
    result = audit.run_target(name, samples=4_000, seed=5)
    assert result.violated, str(result)


def test_correct_pmw_passes_in_a_small_run():
    """The correct PMW (c = 1) passes on the same pair (false alarm <= 5%; fixed seed)."""
    result = audit.run_target("pmw", samples=4_000, seed=5)
    assert not result.violated, str(result)
