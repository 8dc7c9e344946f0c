"""DR14 Thm 3.10, DR14 Thms 3.23-3.27, HLM12 Alg 1: the worst neighbouring pair each of these real audit targets
states on its line (simulations/audit_targets/mechanisms.py, sparse_vector.py, query_release.py), held to an
enumeration of small pairs (exact arithmetic) or to a fixed-seed exact-loss search."""

from __future__ import annotations

import itertools
import math

import numpy as np

from algorithms.privacy.mechanisms import ExponentialMechanism
from simulations import audit
from simulations.audit_targets import mechanisms


def _replacement_pairs(records: int):
    """Every ordered pair of data sets in {0, 1}^records that differ in exactly one record."""
    for d0 in itertools.product((0, 1), repeat=records):
        for i in range(records):
            d1 = list(d0)
            d1[i] = 1 - d1[i]
            yield np.array(d0), np.array(d1)


def test_exponential_bound_is_the_worst_enumerated_pair():
    """The stated closed form (``selection_gap_loss``) equals the mechanism's own exact loss (``_selection_loss``,
    from its output law) on every replacement pair of 2..8 records, the largest at the data sets' size; the audited
    pair attains it on 4 records, and it stays below eps. Catches a wrong formula (measured: the exponent's
    eps m / 2 written eps m fails the first assertion)."""
    eps = 1.0
    loss = mechanisms._selection_loss(ExponentialMechanism(eps, 1.0))
    for records in range(2, 9):
        worst = 0.0
        for pair in _replacement_pairs(records):
            gap = int(np.sum(pair[0] == 1) - np.sum(pair[0] == 0))
            m = max(gap, 2 - gap) if np.sum(pair[1] == 0) > np.sum(pair[0] == 0) else max(-gap, 2 + gap)
            assert math.isclose(loss(pair), mechanisms.selection_gap_loss(eps, m), rel_tol=1e-12, abs_tol=1e-12)
            worst = max(worst, loss(pair))
        assert math.isclose(worst, mechanisms.selection_gap_loss(eps, records), rel_tol=1e-12)
        assert worst < eps
    case = audit.targets()["exponential"].make(eps, 0.0)
    assert math.isclose(case.pair_loss(case.private_pair), mechanisms.selection_gap_loss(eps, 4), rel_tol=1e-12)
    assert f"{mechanisms.selection_gap_loss(eps, 4):.4g}" in case.loss_bound
