"""LVSUW21 PMW^Pub (Algorithm 1, Theorem 4.5), marginal workloads and the incremental MW engine,
best mixture error (Definition 4.1, Lemma 4.2). Each test names the claim and the break it catches."""

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import dp_accounting
from dp_accounting.rdp import RdpAccountant

from algorithms.privacy.accounting import gaussian_epsilon
from algorithms.query_release.mixture import best_mixture_error, release_best_mixture_error
from algorithms.query_release.mw import IncrementalMWDistribution, MWDistribution
from algorithms.query_release.pmw_pub import (distinct_rows, eps_tilde_for, marginal_answers, max_error,
                                              mwem_marginals, pmw_pub, pmw_pub_epsilon, public_only)
from algorithms.query_release.mwem import select_index
from algorithms.privacy import exponential_probabilities, permute_and_flip_probabilities
from scipy import stats as sps
from algorithms.query_release.workloads import (CategoricalDomain, DomainMarginalQueries, MarginalQueries, all_k_way,
                                               random_k_way)


def _instance(seed, sizes=(2, 3, 2, 4, 2), k=2, n=300, support=25):
    rng = np.random.default_rng(seed)
    dom = CategoricalDomain(sizes)
    wl = all_k_way(dom, k)
    rows = dom.rows(rng.choice(dom.size, size=support, replace=False))
    return rng, dom, wl, rows


# ------------------------------------------------------------------ workloads

@pytest.mark.parametrize("seed", range(4))
def test_workload_answers_equal_dense_matrix_answers(seed):
    """The bincount answers, members, values and incremental deltas equal the dense
    query x support matrix's. Catches a wrong cell stride/offset or a misgrouped member block."""
    rng, dom, _, rows = _instance(seed)
    wl = random_k_way(dom, 3, 6, rng) + ((1,), (0, 4))
    q = MarginalQueries(dom, wl, rows)
    M = q.dense_matrix().astype(float)
    # independent dense construction: query (w, c) is 1 where the row's W-cell equals c
    for w, attrs in enumerate(q.workloads):
        for c in range(q.cells_per_workload[w]):
            coords = np.unravel_index(c, [dom.sizes[a] for a in attrs[::-1]])[::-1]
            want = np.all(rows[:, list(attrs)] == np.array(coords), axis=1)
            np.testing.assert_array_equal(M[q.offsets[w] + c], want)
    p = rng.dirichlet(np.ones(q.support_size))
    np.testing.assert_allclose(q.answer(p), M @ p, atol=1e-14)
    np.testing.assert_allclose(q.workload_answers(p, 2), (M @ p)[q.offsets[2]:q.offsets[3]], atol=1e-14)
    for i in rng.choice(q.num_queries, size=10, replace=False):
        np.testing.assert_array_equal(np.sort(q.members(i)), np.flatnonzero(M[i]))
        np.testing.assert_array_equal(q.values(i), M[i])
        pts = q.members(i)
        np.testing.assert_allclose(q.delta_answers(p, i), M[:, pts] @ p[pts], atol=1e-14)
    # every workload's answers sum to 1 (a point is in exactly one cell per workload)
    np.testing.assert_allclose(np.add.reduceat(q.answer(p), q.offsets[:-1]), 1.0)


@pytest.mark.parametrize("seed", range(3))
def test_domain_marginals_equal_the_bincount_representation(seed):
    """The two-block matrix representation of full-domain marginals gives the same query ids,
    answers, members and incremental deltas as the bincount over every domain row. Catches a
    wrong block split, cell order or aggregation matrix."""
    rng = np.random.default_rng(seed)
    dom = CategoricalDomain([2, 3, 2, 2, 3, 2])
    wl = random_k_way(dom, 3, 8, rng) + ((0,), (2, 5))
    fast, ref = DomainMarginalQueries(dom, wl), MarginalQueries(dom, wl, dom.all_rows())
    p = rng.dirichlet(np.ones(dom.size))
    assert fast.num_queries == ref.num_queries
    np.testing.assert_allclose(fast.answer(p), ref.answer(p), atol=1e-13)
    for i in range(0, ref.num_queries, 3):
        np.testing.assert_array_equal(np.sort(fast.members(i)), np.sort(ref.members(i)))
        np.testing.assert_allclose(fast.delta_answers(p, i), ref.delta_answers(p, i), atol=1e-13)
    q1, q2 = p.copy(), p.copy()
    fast.scale_members(q1, 4, 1.7)
    ref.scale_members(q2, 4, 1.7)
    np.testing.assert_allclose(q1, q2)


@pytest.mark.parametrize("selection", ["permute_and_flip", "exponential"])
def test_select_index_has_the_mechanisms_exact_law(selection):
    """The MW loop's one-draw sampler (report-noisy-max with exponential noise = permute-and-flip,
    Ding et al. 2021; Gumbel-max = exponential mechanism) has the exact law of the privacy module
    (chi-square goodness of fit, 20000 draws, level 0.001). Catches Exp(1) noise at the wrong
    scale or a missing factor 2 in eps/(2 Delta)."""
    rng = np.random.default_rng(9)
    scores = np.array([0.0, 0.5, 1.0, 1.2, 2.0])
    law = (permute_and_flip_probabilities if selection == "permute_and_flip" else exponential_probabilities)(
        scores, eps=1.0, sensitivity=0.5)
    draws = np.array([select_index(scores, 1.0, 0.5, selection, rng) for _ in range(20000)])
    assert sps.chisquare(np.bincount(draws, minlength=5), 20000 * law).pvalue > 1e-3


def test_workloads_bad_input_names_the_argument():
    dom = CategoricalDomain([2, 3])
    with pytest.raises(ValueError, match="workload"):
        MarginalQueries(dom, [(0, 5)], dom.all_rows())
    with pytest.raises(ValueError, match="support_rows"):
        MarginalQueries(dom, [(0,)], np.array([[0, 3]]))
    with pytest.raises(ValueError, match="sizes"):
        CategoricalDomain([2, 0])


def test_incremental_distribution_equals_log_space_engine():
    """The incremental answer refresh (q(p') = (q(p) + (e^s - 1) q(p 1_R)) / Z) gives the same
    distribution and answers as the log-space MWDistribution after the same updates (resync off to
    test the recursion itself). Catches a wrong Z or a missing rescale of the answers."""
    rng, dom, wl, rows = _instance(7)
    q = MarginalQueries(dom, wl, rows)
    counts = rng.integers(1, 5, size=q.support_size).astype(float)
    inc = IncrementalMWDistribution.from_histogram(q, counts, resync_every=10**9)
    ref = MWDistribution.from_histogram(counts)
    for _ in range(200):
        i = int(rng.integers(q.num_queries))
        s = float(rng.uniform(-0.5, 0.5))
        inc.update_query(q, i, s)
        ref.update_query(q, i, s)
    np.testing.assert_allclose(inc.probabilities(), ref.probabilities(), rtol=1e-10, atol=1e-15)
    np.testing.assert_allclose(inc.answer(q), q.answer(ref.probabilities()), atol=1e-12)


# ------------------------------------------------------------------ PMW^Pub

def test_pmw_pub_recovers_private_answers_when_public_support_is_private_support():
    """LVSUW21 Thm 4.4 with f = 0: public support = the private data's support (public histogram
    uniform on it, far from the private one) and eps~ = 1e4 (noise negligible). MWEM's bound with
    exact measurements (HLM12 Thm 2.2: max error of the average <= 2 sqrt(log|S|/T)) must hold;
    at T = 2000 that bound is below half the public-only error, so passing means real recovery.
    Catches a sign error in the update, a wrong selection score, or averaging the wrong iterates."""
    rng, dom, wl, support = _instance(3, support=30)
    weights = rng.dirichlet(np.full(30, 0.3))
    priv = support[rng.choice(30, size=3000, p=weights)]
    pub = support                                    # every private row once: same support, flat histogram
    true = marginal_answers(dom, wl, priv)
    T = 2000
    res, g = pmw_pub(priv, pub, dom, wl, 1e4, T, rng)
    bound = 2 * math.sqrt(math.log(len(distinct_rows(pub)[0])) / T)
    assert bound <= 0.5 * max_error(public_only(pub, dom, wl), true)
    assert max_error(res.answers, true) <= bound
    assert g.rho == pytest.approx(1e4**2 / 2)


@settings(max_examples=25, deadline=None)
@given(T=st.integers(1, 60), eps_tilde=st.floats(0.01, 20.0))
def test_pmw_pub_zcdp_total_is_eps_tilde_squared_over_two_for_any_T(T, eps_tilde):
    """LVSUW21 Thm 4.5: 2T mechanisms of eps_0^2/2 each, eps_0 = eps~/sqrt(2T): total eps~^2/2
    whatever T. Catches eps_0 = eps~/sqrt(T) or a mechanism left out of the accountant."""
    rng, dom, wl, rows = _instance(0, support=10)
    _, g = pmw_pub(rows[np.arange(50) % 10], rows, dom, wl, eps_tilde, T, rng)
    assert g.rho == pytest.approx(eps_tilde**2 / 2, rel=1e-12)
    _, g2 = mwem_marginals(rows, dom, wl, eps_tilde, T, rng, replay=True)
    assert g2.rho == pytest.approx(eps_tilde**2 / 2, rel=1e-12)


def _dp_accounting_epsilon(rho, delta):
    orders = np.concatenate([np.linspace(1.001, 2.0, 2001), np.linspace(2.0, 60.0, 20001),
                             np.geomspace(60.0, 1e5, 2001)])
    acc = RdpAccountant(orders=orders)
    acc.compose(dp_accounting.ZCDpEvent(rho))
    return acc.get_epsilon(delta)


@pytest.mark.parametrize("eps_tilde", [0.05, 0.2, 1.0, 3.0])
@pytest.mark.parametrize("delta", [1e-9, 1e-5])
def test_pmw_pub_conversion_matches_dp_accounting_and_never_beats_the_gaussian_curve(eps_tilde, delta):
    """LVSUW21 Thm 4.5's infimum = dp_accounting's CKS conversion on a dense grid of orders (ours,
    the exact infimum, is never above it and within 1e-4 relative) and never below the exact
    Gaussian curve (Balle-Wang) of a rho-zCDP Gaussian, which no valid conversion can undercut;
    and below the closed bound. Catches using the closed bound or a wrong objective term."""
    rho = eps_tilde**2 / 2
    ours = pmw_pub_epsilon(eps_tilde, delta)
    theirs = _dp_accounting_epsilon(rho, delta)
    assert ours <= theirs + 1e-12
    assert ours == pytest.approx(theirs, rel=1e-4)
    assert ours >= gaussian_epsilon(delta, rho=rho)
    assert ours < rho + 2 * math.sqrt(rho * math.log(1 / delta))
    assert pmw_pub_epsilon(eps_tilde_for(ours, delta), delta) == pytest.approx(ours, rel=1e-9)


def test_pmw_pub_bad_input_names_the_argument():
    rng, dom, wl, rows = _instance(0, support=5)
    with pytest.raises(ValueError, match="T="):
        pmw_pub(rows, rows, dom, wl, 1.0, 0, rng)
    with pytest.raises(ValueError, match="eps_tilde"):
        pmw_pub(rows, rows, dom, wl, -1.0, 3, rng)
    with pytest.raises(ValueError, match="public_rows"):
        pmw_pub(rows, rows[:, :2], dom, wl, 1.0, 3, rng)


# ------------------------------------------------------------------ best mixture error

def _brute_force_two_points(a, Q):
    """min over lambda in [0,1] of max_q |a_q - (lambda Q0 + (1-lambda) Q1)|: piecewise linear, so
    the minimum is at 0, 1, or where two of the lines +-(a_q - Q1_q - lambda (Q0_q - Q1_q)) cross."""
    c0, c1 = a - Q[:, 1], -(Q[:, 0] - Q[:, 1])     # a_q - mu(q) = c0 + lambda c1
    lines = np.concatenate([np.stack([c0, c1], 1), np.stack([-c0, -c1], 1)])
    cands = [0.0, 1.0]
    for (u0, u1), (v0, v1) in itertools.combinations(lines, 2):
        if u1 != v1:
            lam = (v0 - u0) / (u1 - v1)
            if 0 <= lam <= 1:
                cands.append(lam)
    return min(np.max(np.abs(c0 + lam * c1)) for lam in cands)


@pytest.mark.parametrize("seed", range(5))
def test_best_mixture_lp_equals_brute_force_on_tiny_supports(seed):
    """LVSUW21 Def 4.1 by HiGHS equals (i) an exact enumeration of breakpoints on 2-point supports
    and (ii) a simplex grid on 3-point supports up to the grid's Lipschitz slack (the objective is
    1/2-Lipschitz in l1 for [0,1] queries; grid step h in each coordinate moves mu by <= 2h in l1).
    Catches a wrong constraint sign or a missing sum-to-one constraint."""
    rng = np.random.default_rng(seed)
    Q2 = rng.random((6, 2))
    a = rng.random(6)
    assert best_mixture_error(a, Q2).error == pytest.approx(_brute_force_two_points(a, Q2), abs=1e-8)
    Q3 = rng.random((7, 3))
    a3 = rng.random(7)
    h = 1 / 400
    grid = [(i * h, j * h) for i in range(401) for j in range(401 - i)]
    mus = np.array([(x, y, max(0.0, 1 - x - y)) for x, y in grid])
    brute = np.min(np.max(np.abs(a3[None, :] - mus @ Q3.T), axis=1))
    lp = best_mixture_error(a3, Q3).error
    assert brute - h - 1e-9 <= lp <= brute + 1e-9


@pytest.mark.parametrize("seed", range(3))
def test_best_mixture_error_is_zero_when_private_support_is_inside_public(seed):
    """LVSUW21 Def 4.1: mu = the private histogram is feasible, so f = 0 (to solver tolerance)."""
    rng, dom, wl, rows = _instance(seed, support=40)
    priv = rows[rng.integers(0, 20, size=500)]           # support inside the first 20 of the 40 public rows
    q = MarginalQueries(dom, wl, rows)
    fit = best_mixture_error(marginal_answers(dom, wl, priv), q)
    assert fit.error <= 1e-9
    assert fit.mu.sum() == pytest.approx(1.0) and fit.mu.min() >= 0


def test_best_mixture_error_is_one_over_n_sensitive_on_neighbouring_datasets():
    """LVSUW21 Lemma 4.2, checked empirically: replacing one private row moves f by <= 1/n (solver
    tolerance 1e-9) in every one of 60 random neighbour pairs, and by more than 1/(4n) in some
    (so the check has teeth: a 1/(4n) claim would be refuted)."""
    rng = np.random.default_rng(11)
    dom = CategoricalDomain([3, 3, 2, 2])
    wl = all_k_way(dom, 2)
    n = 30
    worst = 0.0
    for _ in range(60):
        pub = dom.rows(rng.choice(dom.size, size=8, replace=False))
        q = MarginalQueries(dom, wl, pub)
        priv = dom.rows(rng.integers(0, dom.size, size=n))
        nb = priv.copy()
        nb[rng.integers(n)] = dom.rows(rng.integers(0, dom.size, size=1))[0]
        f1 = best_mixture_error(marginal_answers(dom, wl, priv), q).error
        f2 = best_mixture_error(marginal_answers(dom, wl, nb), q).error
        assert abs(f1 - f2) <= 1 / n + 1e-9
        worst = max(worst, abs(f1 - f2))
    assert worst > 1 / (4 * n)


def test_release_best_mixture_error_has_laplace_scale_one_over_n_eps():
    """Lemma 4.2's release: noise Lap(1/(n eps)); mean absolute deviation = 1/(n eps) within a
    99.9% normal band over 4000 draws. Catches scale 2/(n eps) or 1/n."""
    rng = np.random.default_rng(5)
    n, eps = 1000, 0.5
    draws = np.array([release_best_mixture_error(0.3, n, eps, rng).value for _ in range(4000)])
    b = 1 / (n * eps)
    assert abs(np.mean(np.abs(draws - 0.3)) - b) <= 3.3 * b / math.sqrt(4000)
    with pytest.raises(ValueError, match="n="):
        release_best_mixture_error(0.3, 0, eps, rng)


def test_replay_on_a_tiny_public_support_keeps_a_distribution_above_the_floor():
    """LVSUW21 Sec 5.3 replay where a query covers the whole public support and the private answer
    is far below 1, so its (no-op) update has Z = e^s < 1 again and again: the output still sums to
    1 and its max error is never below the best mixture error of the support (Def 4.1: any
    mixture on the support is >= f). Catches an incremental normaliser that lets rounding errors
    grow by 1/Z per update (it produced outputs summing to 0.37, with errors below f)."""
    rng = np.random.default_rng(0)
    dom = CategoricalDomain([2, 2, 2, 2])
    wl = all_k_way(dom, 2)
    support = np.array([[0, 0, a, b] for a in (0, 1) for b in (0, 1)])
    priv = np.column_stack([rng.integers(0, 2, (2000, 2)) | (rng.random((2000, 1)) < 0.8),
                            rng.integers(0, 2, (2000, 2))])
    true = marginal_answers(dom, wl, priv)
    f = best_mixture_error(true, MarginalQueries(dom, wl, support)).error
    for et in (0.5, 3.0):
        res = pmw_pub(priv, support[[0, 1, 2, 3, 3]], dom, wl, et, 80, rng, replay=True).value
        assert res.synthetic.sum() == pytest.approx(1.0, abs=1e-9)
        assert max_error(res.answers, true) >= f - 1e-9


# ------------------------------------------------------------------ practical variants (issues 14, 19)

from algorithms.privacy import ZCDP as _ZCDP, PureDP as _PureDP  # noqa: E402
from algorithms.query_release.mwem import mwem_from_answers, mwem_zcdp_from_answers  # noqa: E402


def _variant_setup(seed=0, n=2000):
    rng, dom, wl, rows = _instance(seed, sizes=(2, 2, 2, 3), k=2, support=24)
    priv = dom.rows(rng.integers(0, dom.size, n))
    q = MarginalQueries(dom, wl, dom.all_rows())
    return rng, dom, wl, q, priv, marginal_answers(dom, wl, priv)


@pytest.mark.parametrize("variant", [
    dict(),
    dict(selection="exponential", selection_accounting="bounded_range"),
    dict(measure_unit="marginal"),
    dict(measure_unit="marginal", selection="exponential", selection_accounting="bounded_range", output="last",
         replay_threshold=True, replay_limit=3, fit_passes=5),
])
@pytest.mark.parametrize("T", [1, 9])
def test_every_variant_spends_the_same_total_and_declares_each_round(variant, T):
    """Issues 14/19: every variant composes to eps~^2/2 in T rounds of two equal spends of eps_0^2/2;
    bounded-range selection at 2 eps_0 is declared (2 eps_0)^2/8 = eps_0^2/2, not (2 eps_0)^2/2
    (catches a variant that spends 4x the budget on selection or drops the accounting)."""
    rng, dom, wl, q, priv, true = _variant_setup()
    et = 0.8
    res, g = mwem_zcdp_from_answers(true, priv.shape[0], q, et, T, rng, **variant)
    assert isinstance(g, _ZCDP) and g.rho == pytest.approx(et**2 / 2, rel=1e-12)
    res_p, gp = mwem_from_answers(true, priv.shape[0], q, 0.8, T, rng,
                                  **{k: v for k,
                                     v in variant.items() if k not in ("selection_accounting", "selection")})
    assert isinstance(gp, _PureDP) and gp.eps == pytest.approx(0.8, rel=1e-12)
    if variant.get("measure_unit") == "marginal":
        assert np.all(res.selected < q.num_workloads)
        for w, qs in zip(res.selected,
                         np.split(res.measured_queries, np.cumsum(q.cells_per_workload[res.selected])[:-1])):
            assert np.array_equal(qs, np.arange(q.offsets[w], q.offsets[w + 1]))
    if variant.get("output") == "last":
        assert np.array_equal(res.synthetic, res.final)


def test_variants_bad_input_names_the_argument():
    """Bounded-range accounting of permute-and-flip (not bounded-range), a whole-marginal round on a
    plain matrix, an unknown output and a negative replay limit are refused by name."""
    rng, dom, wl, q, priv, true = _variant_setup()
    n = priv.shape[0]
    with pytest.raises(ValueError, match="selection_accounting"):
        mwem_zcdp_from_answers(true, n, q, 1.0, 2, rng, selection_accounting="bounded_range")
    with pytest.raises(ValueError, match="measure_unit"):
        mwem_zcdp_from_answers(true, n, q.dense_matrix(), 1.0, 2, rng, measure_unit="marginal")
    with pytest.raises(ValueError, match="output"):
        mwem_zcdp_from_answers(true, n, q, 1.0, 2, rng, output="best")
    with pytest.raises(ValueError, match="replay_limit"):
        mwem_zcdp_from_answers(true, n, q, 1.0, 2, rng, replay_threshold=True, replay_limit=-1)
    with pytest.raises(ValueError, match="fit_passes"):
        mwem_from_answers(true, n, q, 1.0, 2, rng, fit_passes=-2)


def test_bounded_range_selection_runs_the_exponential_mechanism_at_twice_eps_0():
    """At the same rho the bounded-range option selects with eps = 2 eps_0, i.e. round 1
    picks q with probability ~ exp(2 eps_0 |q(A_0) - q(D)| / (2/n)). Chi-square at 0.01 over 3000
    runs on 3 queries. Catches eps_0 kept (the paper's sharpness) or 4 eps_0."""
    M = np.array([[1, 0, 0, 0], [1, 1, 0, 0], [1, 1, 1, 0]], dtype=bool)
    true, n, T, et = np.array([0.9, 0.5, 0.75]), 40, 1, 0.4
    eps0 = et / math.sqrt(2 * T)
    scores = np.abs(M.mean(axis=1) - true)     # A_0 uniform
    expected = exponential_probabilities(scores, eps=2 * eps0, sensitivity=1.0 / n)
    rng = np.random.default_rng(7)
    picks = np.array([mwem_zcdp_from_answers(true, n, M, et, T, rng, selection="exponential",
                                             selection_accounting="bounded_range").value.selected[0]
                      for _ in range(3000)])
    counts = np.bincount(picks, minlength=3)
    assert sps.chisquare(counts, expected * counts.sum()).pvalue > 0.01
    wrong = exponential_probabilities(scores, eps=eps0, sensitivity=1.0 / n)
    assert sps.chisquare(counts, wrong * counts.sum()).pvalue < 0.01


def test_whole_marginal_measurement_has_gaussian_noise_of_l2_sensitivity_sqrt2_over_n():
    """Whole-marginal rounds measure a marginal's cells with N(0, sigma^2), sigma = sqrt(2)/(n eps_0)
    (L2 sensitivity of a marginal under replacing one record). The pooled standardised residuals'
    variance must lie in the chi-square 1e-4 interval (1,600 residuals; +-12%): catches sigma from
    sensitivity 1/n (variance x 1/2) or 2/n (x 2)."""
    rng, dom, wl, q, priv, true = _variant_setup(n=400)
    T, et = 1, 3.0
    sigma = math.sqrt(2.0) / (priv.shape[0] * et / math.sqrt(2 * T))
    res, meas = [], []
    while sum(r.size for r in res) < 1600:
        out = mwem_zcdp_from_answers(true, priv.shape[0], q, et, T, rng, measure_unit="marginal").value
        res.append((out.measurements - true[out.measured_queries]) / sigma)
        meas.append(out.measurements)
    z = np.concatenate(res)[:1600]
    m = np.concatenate(meas)
    assert np.all((m > 0) & (m < 1))            # no clipping happened, so the residuals are the noise
    lo, hi = sps.chi2.ppf([5e-5, 1 - 5e-5], z.size) / z.size
    assert lo < np.mean(z**2) < hi


def test_replay_limit_bounds_the_updates_per_round_and_unlimited_grows_quadratically():
    """Replay's cost. With replay_limit=K a round applies at most K + (its own cells)
    updates, so T rounds cost <= T (K + 1); the paper's unbounded replay on the same run grows like
    T^2 on a workload whose errors stay comparable. Counted on the engine (num_updates). Catches a
    limit that is ignored."""
    rng, dom, wl, q, priv, true = _variant_setup(n=5000)
    T, K = 60, 4

    class Counting(MarginalQueries):
        calls = 0

        def scale_members(self, p, i, factor):
            Counting.calls += 1
            return super().scale_members(p, i, factor)

    cq = Counting(dom, wl, dom.all_rows())
    init = IncrementalMWDistribution.uniform(cq)
    counts = {}
    for limit in (K, None):
        Counting.calls = 0
        mwem_zcdp_from_answers(true, priv.shape[0], cq, 5.0, T, np.random.default_rng(3), initial=init,
                               replay_threshold=True, replay_limit=limit)
        counts[limit] = Counting.calls
    assert counts[K] <= T * (K + 1)
    assert counts[None] > 3 * counts[K]


def test_fit_passes_and_last_iterate_fit_the_measurements_better_than_one_update():
    """Post-processing variants: after fit_passes the largest residual max_i |q_i(A_T) - a_i| over the
    measured queries is below the plain last iterate's (same seed, same measurements). Catches a
    fit loop that does not update or diverges."""
    rng, dom, wl, q, priv, true = _variant_setup(n=5000)
    kw = dict(measure_unit="marginal", output="last")
    a = mwem_zcdp_from_answers(true, priv.shape[0], q, 2.0, 12, np.random.default_rng(5), **kw).value
    b = mwem_zcdp_from_answers(true, priv.shape[0], q, 2.0, 12, np.random.default_rng(5), fit_passes=20, **kw).value
    assert np.array_equal(a.measurements, b.measurements)
    ra = np.max(np.abs(a.answers[a.measured_queries] - a.measurements))
    rb = np.max(np.abs(b.answers[b.measured_queries] - b.measurements))
    assert rb < 0.5 * ra


@pytest.mark.parametrize("seed", range(3))
def test_whole_workload_update_equals_its_cells_updates_on_both_engines_and_representations(seed):
    """``update_workload`` (one bincount and one rescaling) equals the MW updates of the workload's
    cells one by one with the pre-round answers (the cells are disjoint), on the log-space and the
    incremental distributions, for support-row and whole-domain marginals; DomainMarginalQueries'
    ``workload_cells`` decode like MarginalQueries' on the domain's rows. Catches a wrong cell
    stride (misassigned points) or a step with the wrong sign or halving."""
    rng, dom, wl, rows = _instance(seed)
    qs = MarginalQueries(dom, wl, dom.all_rows())
    qd = DomainMarginalQueries(dom, wl)
    p0 = rng.random(dom.size) + 0.1
    for w in range(len(wl)):
        assert np.array_equal(qd.workload_cells(w), qs.workload_cells(w))
    for q in (qs, qd):
        w = int(rng.integers(len(wl)))
        a = rng.random(int(q.cells_per_workload[w]))
        for make in (lambda: IncrementalMWDistribution(q, p0), lambda: MWDistribution(np.log(p0))):
            one, cells = make(), make()
            before = cells.answer(q)
            one.update_workload(q, w, a)
            for c in range(a.size):
                j = int(q.offsets[w]) + c
                cells.update_query(q, j, (a[c] - before[j]) / 2.0)
            assert np.allclose(one.probabilities(), cells.probabilities(), rtol=1e-10, atol=1e-15)
            assert np.allclose(one.answer(q), q.answer(np.asarray(cells.probabilities())), atol=1e-12)


# ------------------------------------------------------------------ pure-DP budget split, no reselection, adjacency

@pytest.mark.parametrize("options, scale_times_n", [
    (dict(), 2.0 / 0.5),                                               # HLM12: eps/(2T) on a 2/n marginal
    (dict(select_share=0.25), 2.0 / 0.75),                             # three quarters on measurement
    (dict(select_share=0.25, adjacency="add_remove"), 1.0 / (0.75 * 0.95)),   # 1/n~ after 5% on n~
])
def test_pure_measurement_noise_has_the_scale_its_budget_split_and_adjacency_give(options, scale_times_n):
    """HLM12 Algorithm 1 with the budget split ``select_share`` and ``adjacency``: each whole-marginal
    measurement is q(D) + Lap(b) per cell with b = Delta / ((1 - share) eps / T), Delta = 2/n under
    replace-one and 1/n~ under add/remove (n~ = n + Lap(1/(0.05 eps)), released as ``n_released``; the
    target is then the count over n~, q(D) n / n~). T = 1, no fit; over 500 runs the mean |a - target|
    / b must be within 5 standard errors of 1 (E|Lap(b)| = b, sd b). Catches the split ignored (b = 4/n),
    the add/remove sensitivity left at 2/n, the count's share not taken from the rounds' budget, or the
    targets left at q(D)."""
    rng, dom, wl, q, priv, true = _variant_setup()
    n = priv.shape[0]
    dev = []
    for s in range(500):
        res, g = mwem_from_answers(true, n, q, 1.0, 1, np.random.default_rng(s), measure_unit="marginal",
                                   **options)
        m = n if res.n_released is None else res.n_released
        assert (res.n_released is None) == ("adjacency" not in options)
        dev.append(np.abs(res.measurements - true[res.measured_queries] * n / m) / (scale_times_n / m))
        assert isinstance(g, _PureDP) and g.eps == pytest.approx(1.0, rel=1e-12)
    dev = np.concatenate(dev)
    assert abs(dev.mean() - 1.0) <= 5 / math.sqrt(dev.size)


def test_exclude_selected_measures_every_unit_once_and_needs_t_at_most_the_units():
    """``exclude_selected``: with T = the number of workloads every workload is selected exactly once
    (catches a reselection), in pure and zCDP-free use; T beyond it is refused by name."""
    rng, dom, wl, q, priv, true = _variant_setup()
    n, W = priv.shape[0], q.num_workloads
    res, g = mwem_from_answers(true, n, q, 1.0, W, rng, measure_unit="marginal", exclude_selected=True,
                               select_share=0.25, adjacency="add_remove", output="last", fit_passes=3)
    assert sorted(res.selected.tolist()) == list(range(W))
    assert isinstance(g, _PureDP) and g.eps == pytest.approx(1.0, rel=1e-12)
    with pytest.raises(ValueError, match="exclude_selected"):
        mwem_from_answers(true, n, q, 1.0, W + 1, rng, measure_unit="marginal", exclude_selected=True)
    for bad in (dict(select_share=1.0), dict(select_share=0.0), dict(adjacency="bounded"),
                dict(count_share=1.5, adjacency="add_remove")):
        with pytest.raises(ValueError, match=next(iter(bad))):
            mwem_from_answers(true, n, q, 1.0, 2, rng, **bad)
