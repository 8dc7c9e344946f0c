"""GGHRW14 Algorithm 1 (DualQuery): the exact best response (enumeration and MILP agree), the exact law of
a round's draw against the declared per-draw guarantee, and the accountant's composition."""

import math

import numpy as np
import pytest

from algorithms.query_release.dualquery import (_Cells, best_response, dualquery, dualquery_epsilon,
                                                dualquery_guarantee, max_rounds)
from algorithms.query_release.pmw_pub import marginal_answers
from algorithms.query_release.workloads import CategoricalDomain, all_k_way


def test_milp_best_response_is_exact():
    """Catches a wrong MILP constraint sign (e.g. negative-weight cells bounded like positive ones): the
    MILP's optimum must equal enumeration's on random signed weights."""
    rng = np.random.default_rng(3)
    d = CategoricalDomain([3, 4, 2, 5])
    w = all_k_way(d, 2)
    cells = _Cells(d, w)
    for _ in range(20):
        wt = rng.integers(-3, 4, size=cells.m).astype(float) * (rng.random(cells.m) < 0.2)
        a, b = best_response(d, w, wt, "enumerate"), best_response(d, w, wt, "milp")
        assert wt[cells.of_rows(a[None])].sum() == pytest.approx(wt[cells.of_rows(b[None])].sum())


def _round2_law(data, x1, eta, d, w):
    """Q_2 over Q' computed from scratch (not by the module's loop)."""
    a = marginal_answers(d, w, data)
    qx = np.zeros(a.size)
    qx[_Cells(d, w).of_rows(np.array([x1]))[0]] = 1.0
    u = np.concatenate([a - qx, qx - a])
    p = np.exp(eta * u)
    return p / p.sum()


@pytest.mark.parametrize("eta", [0.5, 2.0])
def test_round_two_law_within_declared_per_draw_bound(eta):
    """The exact law of a round-2 draw on neighbours differs by at most the declared 2 eta / n in log-ratio
    (a per-draw bound of eta / n, the factor 2 dropped, is exceeded: the check can fail)."""
    d = CategoricalDomain([2, 3])
    w = all_k_way(d, 1)
    D0 = np.array([[0, 0], [1, 2], [0, 1]])
    worst = 0.0
    for change in ([1, 1], [0, 2], [1, 0]):
        D1 = D0.copy()
        D1[0] = change
        for x1 in d.all_rows():
            p0, p1 = _round2_law(D0, x1, eta, d, w), _round2_law(D1, x1, eta, d, w)
            worst = max(worst, float(np.max(np.abs(np.log(p0 / p1)))))
    n = D0.shape[0]
    assert worst <= 2 * eta / n + 1e-12
    assert worst > eta / n


def test_sampler_matches_round_two_law():
    """The loop's round-2 draws follow Q_2 (Clopper-Pearson-free check: a chi-square at 1e-4 level on 4,000
    runs); catches an update of the wrong sign (exp(+eta (q(x) - q(D))))."""
    from scipy import stats

    d = CategoricalDomain([2])
    w = [(0,)]
    D = np.array([[0], [0], [1]])
    rng = np.random.default_rng(7)
    runs = [dualquery(D, d, w, 1.5, 1, 2, rng).value for _ in range(4000)]
    first = np.array([r.rows[0, 0] for r in runs])
    second = np.array([r.sampled[1, 0] for r in runs])
    for x1 in (0, 1):
        obs = np.bincount(second[first == x1], minlength=4)
        exp = _round2_law(D, np.array([x1]), 1.5, d, w) * obs.sum()
        assert stats.chisquare(obs, exp).pvalue > 1e-4


def test_accountant_and_theorem():
    """Basic composition of the s (T - 1) draws is eta s T (T - 1) / n; the theorem is advanced composition
    at eps_0 = 2 eta (T - 1) / n; the guarantee takes the smaller; max_rounds is the largest T within eps."""
    d = CategoricalDomain([2, 2])
    D = np.array([[0, 1], [1, 1], [0, 0], [1, 0]])
    r = dualquery(D, d, all_k_way(d, 2), 0.3, 3, 5, np.random.default_rng(0))
    assert r.guarantee.eps == pytest.approx(0.3 * 3 * 5 * 4 / 4)
    assert r.value.answers.shape == (4,) and r.value.answers.sum() == pytest.approx(1.0)
    eps0 = 2 * 1.0 * 59 / 40000
    k = 50 * 59
    assert dualquery_epsilon(1.0, 50, 60, 40000, 1e-9) == pytest.approx(
        eps0 * math.sqrt(2 * k * math.log(1e9)) + k * eps0 * math.expm1(eps0))
    T = max_rounds(1.0, 1e-9, 1.0, 50, 40000)
    assert dualquery_guarantee(1.0, 50, T, 40000, 1e-9).eps <= 1.0 < dualquery_guarantee(1.0, 50, T + 1, 40000,
                                                                                           1e-9).eps

