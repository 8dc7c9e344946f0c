"""DWWZK18 with exact losses on LVSUW21 Algorithm 1 (PMW^Pub): the ``pmw_pub`` and ``pmw_pub_selection`` cases'
exact-loss searches (``loss_neighbours`` ranked by ``pair_loss``, eps at the audited delta(2)) find the largest
exact loss of an exhaustive enumeration of small neighbouring pairs, and their lines state the worst pair."""

from __future__ import annotations

import itertools
import math

import numpy as np

from simulations import audit
from simulations._audit_pairs import exact_loss_search
from simulations.audit_targets import pmw_pub as pub
from simulations.audit_targets import pmw_pub_selection as sel


def _case(module):
    target = module.TARGETS[0]     # the real target, at its defaults
    return target.make(float(target.default_eps), float(target.default_delta))


def _cells(cells):
    return np.array([[c // 2, c % 2] for c in cells], dtype=np.int64)


def _selection_pairs(max_n):
    """Every neighbouring pair (up to order and row order) of 1..``max_n`` records on the 2 x 2 domain."""
    for n in range(1, max_n + 1):
        for cells in itertools.combinations_with_replacement(range(4), n):
            for a, b in itertools.permutations(range(4), 2):
                if a in cells:
                    moved = list(cells)
                    moved[moved.index(a)] = b
                    yield _cells(cells), _cells(moved)


def test_selection_search_finds_the_enumerated_worst_pair():
    """``pmw_pub_selection``: the search (seed 0, 64 random pairs of 1..8 records) reaches the largest exact loss of
    every neighbouring pair of 1..3 records (180 pairs, about 1.5 s CPU; an enumeration of 1..8 records, 3,960
    pairs, measured once, has the same maximum 0.7929, at 2 and at 6 records, and the audited pair 0.7889 is the
    worst of 8 records), and that loss is above the audited pair's. Broken once: a search that keeps the case's own
    pair (``random=0``) stays at 0.7889 and fails the first assertion."""
    case = _case(sel)
    worst = max(case.pair_loss(p) for p in _selection_pairs(3))
    found = exact_loss_search(case, np.random.default_rng(0))
    assert math.isclose(found.loss, worst, rel_tol=1e-9)
    assert found.loss > found.given_loss + 3e-3
    assert found.given_loss == sel.pair_eps(case.delta)    # the audited pair's loss, unchanged


def test_pmw_pub_every_pair_ties_with_the_audited_pair():
    """``pmw_pub``: on one binary attribute the selection is uniform under every data set, so every neighbouring
    pair's transcript differs by one Gaussian measurement with mu = 1 and every pair of 1..8 records (all 36) has
    the audited pair's loss to rounding (18 of them from the clipped law's exact inversion ``law_eps``, where the
    clip may bind, the rest from the closed form); the search's worst is that maximum, and ``law_eps`` agrees with
    the closed form on the audited pair. Broken once: ``hockey`` without the clip's atoms gives losses from 0.006 to
    0.47 and fails the first assertion (a search keeping the given pair is not caught here: that pair is already
    a worst pair)."""
    case = _case(pub)
    pairs = [(np.array([[1]] * k + [[0]] * (n - k)), np.array([[1]] * (k + 1) + [[0]] * (n - k - 1)))
             for n in range(1, 9) for k in range(n)]
    losses = [case.pair_loss(p) for p in pairs]
    found = exact_loss_search(case, np.random.default_rng(0))
    assert max(losses) - min(losses) < 1e-12
    assert math.isclose(found.loss, max(losses), rel_tol=1e-12) and found.loss >= found.given_loss
    delta = pub.zcdp_delta_at(pub.EPS_TILDE ** 2 / 2, pub.AUDIT_EPS)
    assert math.isclose(pub.law_eps(*(pub.transcript_law(d) for d in pub.PAIR), delta), found.given_loss,
                        rel_tol=1e-9)


def test_lines_print_the_worst_pair():
    """Both real lines (seed 0, 1,000 samples) print the exact-loss search's worst pair; the selection line's is not
    the audited pair."""
    for name in ("pmw_pub", "pmw_pub_selection"):
        result = audit.run_target(name, samples=1_000, seed=0)
        assert "worst pair: exact-loss search over 65" in str(result), str(result)
    assert "(the case's own pair: 0.7889)" in str(result) and "worst exact loss 0.7929" in str(result)
