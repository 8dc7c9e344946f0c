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


def test_sparse_vector_lines_rank_neighbouring_pairs_by_exact_loss():
    """The sparse-vector targets that must pass rank random answer-vector pairs by exact loss (fixed seed): every
    ranked pair is a neighbouring one (K answers, each moved by at most 1), the worst found is at least the audited
    pair's and at most the declared eps (DR14 Thm 3.25), and the line states it. Catches a ``random_answers`` whose
    moves reach 2 (``rng.integers(-2, 3, K)``; measured: the neighbouring assertion fails)."""
    from simulations._audit_pairs import exact_loss_search
    from simulations.audit_targets import sparse_vector as sv

    for name in ("above_threshold", "sparse", "numeric_sparse", "sparse_no_redraw", "numeric_sparse_no_redraw"):
        assert audit.targets()[name].make(1.0, 0.0).loss_neighbours is sv.random_answers, name
    case = audit.targets()["sparse"].make(1.0, 0.0)
    rng = np.random.default_rng(3)
    for _ in range(20):
        a0, a1 = case.loss_neighbours(rng)
        assert a0.shape == a1.shape == (sv.K,) and np.max(np.abs(a1 - a0)) <= 1.0
    found = exact_loss_search(case, np.random.default_rng(0), random=16)
    assert found.tried == 17 and case.pair_loss(case.private_pair) <= found.loss <= case.eps
    assert math.isclose(found.loss, case.pair_loss(found.pair), rel_tol=1e-9)
    line = str(audit.audit(audit.targets()["above_threshold"].make(1.0, 0.0), 500, np.random.default_rng(0)))
    assert "worst pair: exact-loss search over 65 neighbouring pairs" in line


def test_mwem_transcript_bound_holds_on_every_small_pair():
    """HLM12 Alg 1 on the transcript targets' workload: for every replacement pair of 1..4 records on {0, 1}, the two
    selection scores |q_i(A) - q_i(D)| are equal under both data sets for random distributions A (uniform
    selection, no loss) and each of the T measurements (Laplace at MWEM's own scale for sensitivity 1/n, budget
    eps/(2T)) has loss |q_1(D1) - q_1(D0)| / scale; their sum is the stated loss at every pair. Catches a
    ``transcript_pair_loss`` off by a factor (measured: eps/(4T) per round fails the first isclose)."""
    from algorithms.privacy import LaplaceMechanism
    from simulations.audit_targets import query_release as qr

    eps, rng = qr.MWEM_EPS, np.random.default_rng(0)
    for records in range(1, 5):
        scale = LaplaceMechanism(sensitivity=1.0 / records, eps=eps / (2 * qr.MWEM_T)).scale
        for pair in _replacement_pairs(records):
            q = [qr.MWEM_QUERIES @ np.bincount(d, minlength=2) / records for d in pair]
            for a in rng.random(4):
                for qd in q:
                    err = np.abs(np.array([a, 1 - a]) - qd)
                    assert math.isclose(err[0], err[1], abs_tol=1e-12)
            loss = qr.MWEM_T * abs(q[1][1] - q[0][1]) / scale
            assert math.isclose(loss, qr.transcript_pair_loss(eps, True), rel_tol=1e-12)
    case = audit.targets()["mwem_transcript"].make(eps, 0.0)
    assert f"= {qr.transcript_pair_loss(eps, True):g} (the audited pair's)" in case.loss_bound
    assert not audit.targets()["mwem_transcript_budget_not_split"].make(eps, 0.0).loss_bound


def _cells(counts):
    """A set on the 2-point domain from its counts of (0, False), (0, True), (1, False), (1, True)."""
    return np.repeat([0, 0, 1, 1], counts), np.repeat([False, True, False, True], counts)


def test_nb20_sspp_ranks_neighbouring_pairs_and_its_pair_is_the_worst():
    """NB20 Alg 4's A_SSPP phase: the ranked pairs are neighbouring (10 records each on {0, 1}, one replaced), and
    an enumeration of every 10-record pair (A_SSPP's law depends on the set's histogram only: every histogram and
    every one-record move) finds none above the audited pair's exact loss, which the search (fixed seed) keeps as
    its worst. Catches a ``sspp_neighbours`` that replaces two records (measured: the one-record assertion fails)."""
    from simulations._audit_pairs import exact_loss_search
    from simulations.audit_targets import nb20

    case = audit.targets()["nb20_unvprivcl_sspp"].make(0.99, 0.0)
    rng = np.random.default_rng(1)
    for _ in range(50):
        (x0, y0), (x1, y1) = case.loss_neighbours(rng)
        assert x0.size == x1.size == nb20.SSPP_RECORDS and set(x0) | set(x1) <= {0, 1}
        assert np.sum((x0 != x1) | (y0 != y1)) <= 1
    own = case.pair_loss(case.private_pair)
    worst = 0.0
    for a in range(nb20.SSPP_RECORDS + 1):
        for b in range(nb20.SSPP_RECORDS + 1 - a):
            for c in range(nb20.SSPP_RECORDS + 1 - a - b):
                cells = [a, b, c, nb20.SSPP_RECORDS - a - b - c]
                for i, j in itertools.permutations(range(4), 2):
                    if cells[i]:
                        moved = list(cells)
                        moved[i], moved[j] = moved[i] - 1, moved[j] + 1
                        worst = max(worst, case.pair_loss((_cells(cells), _cells(moved))))
    assert math.isclose(worst, own, rel_tol=1e-12) and own < case.eps
    found = exact_loss_search(case, np.random.default_rng(0))
    assert found.tried == 65 and math.isclose(found.loss, own, rel_tol=1e-12)
    assert audit.targets()["nb20_unvprivcl_double_spend"].make(0.99, 0.0).loss_neighbours is None
