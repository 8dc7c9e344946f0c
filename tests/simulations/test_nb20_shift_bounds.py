"""NB20 end-to-end A_SubSamp and A_AgPrivCl audit targets: the bounds on the answer's shift over every neighbouring
pair (simulations/audit_targets/_nb20_bounds.py) held to exact arithmetic, to the exact laws of _nb20_laws.py and to
the mechanisms' own draws (fixed seeds, Clopper-Pearson at 99.9% with Bonferroni over the cells)."""

import numpy as np
import pytest
from scipy import stats

from algorithms.classes import constructors
from algorithms.learning.agprivcl import AgPrivCl
from algorithms.learning.subsamp import SubSamp, subsample_hypotheses
from simulations.audit_targets import _nb20_bounds as bounds
from simulations.audit_targets import _nb20_laws as laws
from simulations.audit_targets import nb20

ALPHA = 1e-3
_CLS3 = constructors.thresholds(3)


def _subsamp_params():
    return nb20.subsamp_params(0.99, 0.03, nb20.AG_BETA, 1, 1.0)


def _votes(side, k: int) -> int:
    """V of the per-example path (consecutive blocks of 3) on an ordered one-point S."""
    x, y = side
    return int(nb20._CLS1.matrix[subsample_hypotheses(nb20._CLS1, x, y, k), 0].sum())


def test_subsamp_bound_is_attained_by_an_ordered_pair_and_covers_every_count_pair():
    """A_SubSamp (k = 3093): the bound max_v |a(v+1) - a(v)| = 0.01267 (at margins 111 vs 109, about the stability
    threshold w = 110.4: 1602 vs 1601 votes, or mirrored 1492 vs 1491) is exactly the shift of the ordered pair on
    the per-example path (one label moves one vote), is at least every jump of the count path's exact table (all
    9,279 pairs of the one point), and is below the declared delta 0.02575; were the bottom flag released too, its
    bound 0.02534 would still be below. Catches a bound read off the randomly split count path (the break tried:
    0.0044, which the ordered pair's shift 0.01267 exceeds)."""
    params = _subsamp_params()
    bound = bounds.subsamp_shift_bound(params)
    a = laws.subsamp_answer_given_votes(params)
    pair = bounds.subsamp_ordered_pair(params.k, bound.at + 1)
    v0, v1 = (_votes(side, params.k) for side in pair)
    assert (v0, v1) == (bound.at + 1, bound.at) and {abs(2 * v - params.k) for v in (v0, v1)} == {109, 111}
    assert abs(a[v0] - a[v1]) <= bound.value and abs(a[v0] - a[v1]) == pytest.approx(bound.value, rel=1e-12)
    assert bound.value == pytest.approx(0.012668, abs=1e-6)
    assert np.max(np.abs(np.diff(laws.subsamp_answer_table(params)))) <= bound.value < params.guarantee().delta
    assert bounds.subsamp_flag_shift_bound(params) == pytest.approx(0.025337, abs=1e-6)
    assert bounds.subsamp_flag_shift_bound(params) < params.guarantee().delta
    assert laws.eps_at_delta(laws.binary(a[v0]), laws.binary(a[v1]), params.guarantee().delta) == 0.0


@pytest.mark.slow
def test_subsamp_answer_given_votes_matches_the_per_example_draws():
    """a(v) (``subsamp_answer_given_votes``) inside Clopper-Pearson intervals of 3,000 runs of A_SubSamp's
    per-example path (consecutive split, 0.1 ms a run) on ordered one-point S with 1,560, 1,601, 1,602 and 1,650 votes
    (a = 0.51, 0.741, 0.754, 1.0). Catches a stable probability read at half the margin (the break tried: a = 0.539
    at 1,601 votes, outside its interval)."""
    params = _subsamp_params()
    a = laws.subsamp_answer_given_votes(params)
    cases = (1560, 1601, 1602, 1650)
    rng = np.random.default_rng(7)
    for v in cases:
        x, y = bounds.subsamp_ordered_pair(params.k, v)[0]
        assert _votes((x, y), params.k) == v
        ones = sum(bool(SubSamp(nb20._CLS1, x, y, params, rng).answer(0)[0]) for _ in range(3_000))
        level = ALPHA / len(cases)
        lo = stats.beta.ppf(level / 2, ones, 3_000 - ones + 1) if ones > 0 else 0.0
        hi = stats.beta.ppf(1 - level / 2, ones + 1, 3_000 - ones) if ones < 3_000 else 1.0
        assert lo <= a[v] <= hi, (v, ones, a[v])


def test_agprivcl_one_point_bound_covers_the_exact_steps_and_is_tight():
    """A_AgPrivCl (k = 105,762, n = 5,982,497): the bound q s(k) max_P Pr[J = mode] = 4.378e-5 over every count P
    of the one point is at least every exact step |Pr[1 | P + 1] - Pr[1 | P]| near balance (the exact law
    ``agprivcl_answer_probability``, whose steps peak there at 4.376e-5) and within 0.1% of their largest, below the
    declared delta 0.00287. Catches a bound that reads S' as drawn with replacement (the break tried: J binomial,
    bound 4.34e-5, below the exact step)."""
    params, n = nb20._agprivcl_setup(0.99, 0.03)
    bound = bounds.agprivcl_one_point_shift_bound(params, n)
    p = [laws.agprivcl_answer_probability(params, n, P) for P in range(n // 2 - 40, n // 2 + 41)]
    steps = np.abs(np.diff(p))
    assert steps.max() <= bound.value <= 1.001 * steps.max()
    assert bound.value == pytest.approx(4.3784e-5, rel=1e-4)
    assert bound.value < nb20.lemma8_chain(params, n)[-1][1].delta
    assert "tail 5.3e-22" in bound.formula  # the counts beyond P0 add nothing a double can hold


def test_agprivcl_three_point_search_worst_pair_recomputes_below_delta():
    """The three-point search's recorded worst pair (``THREE_POINT_WORST``: a label flip at h^'s tie, E[n'_1] = 6400)
    recomputes to its recorded shift 1.732e-4 = 0.06 of delta, with every other move from the same S smaller and what
    the exact sums leave out below 1e-12. Catches a recorded shift that the law does not give (the break tried: the tie
    read at J's mean instead of averaged over J, which makes this flip move the answer by 0.0043, above delta)."""
    params, n = nb20._agprivcl_setup(0.99, 0.03)
    counts, move = bounds.THREE_POINT_WORST
    worst = bounds.three_point_shift(params, n, counts, move)
    assert worst.shift == pytest.approx(bounds.THREE_POINT_WORST_SHIFT, rel=1e-3) and worst.left_out < 1e-12
    assert worst.shift < 0.1 * nb20.lemma8_chain(params, n)[-1][1].delta
    for name, _ in bounds.THREE_POINT_MOVES:
        assert name == move or bounds.three_point_shift(params, n, counts, name).shift < worst.shift


@pytest.mark.slow
def test_agprivcl_three_point_law_matches_its_draws():
    """``three_point_answer_probability`` inside Clopper-Pearson intervals of 800 runs of A_AgPrivCl's count path (16
    ms a run) on thresholds(N=3) at the worst pair's S (Pr[1] = 0.510) and with its tie one standard deviation of J
    off centre (Pb - 2263: the tie's average over J decides, Pr[1] = 0.175). Catches a law that reads the tie at J's
    mean instead of averaging over J (the break tried: Pr[1] = 0.022 off centre, against 128 answers 1 in 800)."""
    params, n = nb20._agprivcl_setup(0.99, 0.03)
    (a_count, b_count, b_pos), _ = bounds.THREE_POINT_WORST
    rng = np.random.default_rng(11)
    sides = ((a_count, b_count, b_pos), (a_count, b_count, b_pos - 2263))
    for a, b, pb in sides:
        counts = np.array([[0, a], [b - pb, pb], [n - a - b, 0]])
        ones = sum(bool(AgPrivCl.from_counts(_CLS3, counts, params, rng).answer(0)[0]) for _ in range(800))
        p, _ = bounds.three_point_answer_probability(params, n, a, b, pb)
        level = ALPHA / len(sides)
        assert stats.beta.ppf(level / 2, ones, 800 - ones + 1) <= p <= stats.beta.ppf(1 - level / 2, ones + 1,
                                                                                        800 - ones), (pb, ones, p)
