"""The adaptive public-support fit (``algorithms.query_release.public_fit_adaptive``, AIM's select-measure-refit
loop with the public-support MAP fit as its estimator): the rho it declares against the noise it adds and the law
of its selection, and its refit against a direct fit. Each test names the break it catches."""

import math

import numpy as np
import pytest
from scipy import stats, special

from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers, public_only
from algorithms.query_release.public_fit import gap_tolerance
from algorithms.query_release.public_fit_adaptive import adaptive_public_fit
from algorithms.query_release.workloads import CategoricalDomain, MarginalQueries

DOM = CategoricalDomain((3, 4, 2, 5))
WL = ((0, 1), (1, 2), (2, 3), (0, 3))


def _data(n=500, m=60, seed=7):
    rng = np.random.default_rng(seed)
    priv = DOM.rows(rng.integers(0, DOM.size, size=n))
    pub = DOM.rows(rng.integers(0, DOM.size, size=m))
    return priv, pub


def test_declared_rho_and_the_noise_it_buys():
    """Accounting: the release declares ZCDP(rho) (the composition of its T selections at sqrt(8 rho_sel), i.e.
    rho_sel-zCDP each, its T measurements and, with ``first``, the measure-all step), and each round's noise has
    the standard deviation 1 / (n sqrt(rho_meas)) of the Gaussian at replace-one L2 sensitivity sqrt(2)/n, checked
    by the sample variance of all noise of 40 seeded runs (N = 2,400 draws) against a 99.99% chi-square interval
    (|s^2/sigma^2 - 1| <= 4 sqrt(2/N)). Catches rounds that do not divide the budget (noise sqrt(T) too small),
    add/remove sensitivity 1/n (sqrt 2 too small: ratio 0.5; checked once: the test fails with that break) and
    a ``first`` share not subtracted from the rounds'."""
    priv, pub = _data()
    true = marginal_answers(DOM, WL, priv)
    q = MarginalQueries(DOM, WL, pub)
    rho, T, alpha = 0.4, 3, 0.2
    for first in (0.0, 0.5):
        z = []
        for s in range(40):
            rel = adaptive_public_fit(priv, pub, DOM, WL, rho, np.random.default_rng(s), rounds=T, alpha=alpha,
                                      first=first)
            assert rel.guarantee.rho == pytest.approx(rho, rel=1e-12)
            v = rel.value
            for w, y in zip(v.selected, v.measurements):
                z.append(y - true[q.offsets[w]:q.offsets[w + 1]])
        rho_meas = (1 - alpha) * (1 - first) * rho / T
        sigma = 1.0 / (priv.shape[0] * math.sqrt(rho_meas))
        assert v.sigma == pytest.approx(sigma, rel=1e-12)
        z = np.concatenate(z)
        ratio = float(np.mean(z**2)) / sigma**2
        assert abs(ratio - 1) <= 4 * math.sqrt(2 / z.size), (first, ratio, z.size)


def test_first_selection_has_the_exponential_mechanisms_law():
    """The first round's choice, over 600 seeds, against the exponential mechanism's exact law computed here from
    the definition: Pr[w] proportional to exp(eps score_w / (2 Delta)), eps = sqrt(8 rho_sel) (bounded range:
    rho_sel-zCDP), Delta = 2/n (replace-one moves a marginal's L1 error by 2/n), score_w = L1 error of the public
    histogram's marginal minus sqrt(2/pi) sigma |cells_w|; chi-square goodness of fit at level 1e-4. Catches the
    pure-DP conversion eps = sqrt(2 rho_sel) (a flatter law), sensitivity 1/n (a sharper one) and a missing or
    sign-flipped penalty."""
    priv, pub = _data(n=400, m=80, seed=2)
    rho, T, alpha = 0.05, 1, 0.3
    true = marginal_answers(DOM, WL, priv)
    q = MarginalQueries(DOM, WL, pub)
    err = np.add.reduceat(np.abs(true - public_only(pub, DOM, WL)), q.offsets[:-1])
    rho_sel, rho_meas = alpha * rho / T, (1 - alpha) * rho / T
    sigma = 1.0 / (priv.shape[0] * math.sqrt(rho_meas))
    score = err - math.sqrt(2 / math.pi) * sigma * q.cells_per_workload
    law = special.softmax(math.sqrt(8 * rho_sel) * score / (2 * 2.0 / priv.shape[0]))
    assert law.max() < 0.9 and law.min() > 0.02                     # a law the test can tell from its breaks
    seeds = 600
    first = [adaptive_public_fit(priv, pub, DOM, WL, rho, np.random.default_rng(s), rounds=T, alpha=alpha).value
             .selected[0] for s in range(seeds)]
    counts = np.bincount(first, minlength=len(WL))
    assert stats.chisquare(counts, law * seeds).pvalue > 1e-4, (counts, law * seeds)


def test_refit_is_the_map_fit_of_the_measurements():
    """After the last round the weights are the MAP fit of every measurement so far: F(p) = KL(p || p^) + sum_c
    (k_c / (2 m sigma^2)) ((A p)_c - y_c)^2 over the measured workloads' cells, y_c the mean of the k_c measurements
    of cell c, minimised here independently (SLSQP on the dense matrix). Ours is within its gap g of it, and
    since F is mu0 = 1/(m sigma^2)-strongly convex along A (every k_c >= 1) the two answer vectors are within
    sqrt(2 g / mu0) + sqrt(2 (F(direct) - F(ours) + g) / mu0) in L2, g our gap. Catches a refit that forgets
    earlier rounds or weights a repeated measurement once."""
    from scipy.optimize import minimize

    priv, pub = _data()
    rel = adaptive_public_fit(priv, pub, DOM, WL, 0.4, np.random.default_rng(1), rounds=6)
    v = rel.value
    support, counts = distinct_rows(pub)
    p0 = counts / counts.sum()
    measured = sorted(set(v.selected.tolist()))
    times = np.bincount(v.selected, minlength=len(WL))
    assert times.max() >= 2                                     # a repeated measurement is exercised
    sums = {w: sum(y for u, y in zip(v.selected, v.measurements) if u == w) for w in measured}
    q = MarginalQueries(DOM, [WL[w] for w in measured], support)
    A = q.query_matrix().toarray()
    y = np.concatenate([sums[w] / times[w] for w in measured])
    mu0 = 1.0 / (pub.shape[0] * v.sigma**2)
    k = np.concatenate([np.full(len(sums[w]), times[w]) for w in measured])

    def F(p):
        p = np.clip(p, 1e-300, None)
        r = A @ p - y
        return float(np.sum(p * np.log(p / p0)) + mu0 / 2 * np.sum(k * r * r))

    direct = minimize(F, p0, method="SLSQP", bounds=[(0, 1)] * p0.size,
                      constraints=[{"type": "eq", "fun": lambda p: p.sum() - 1}],
                      options=dict(ftol=1e-15, maxiter=1000))
    ours, g = F(v.synthetic), v.fit.gap
    assert g <= gap_tolerance(v.sigma, mu0) and ours <= direct.fun + g + 1e-12
    assert ours == pytest.approx(v.fit.objective)
    bound = math.sqrt(2 * g / mu0) + math.sqrt(2 * max(direct.fun - ours + g, 0.0) / mu0)
    assert np.linalg.norm(A @ (v.synthetic - direct.x)) <= bound + 1e-9


def test_bad_input_is_refused():
    """One clear ValueError each: rounds < 1, alpha outside (0, 1), first outside [0, 1), rho not positive."""
    priv, pub = _data()
    for kw in [dict(rounds=0), dict(alpha=0.0), dict(alpha=1.0), dict(first=1.0), dict(first=-0.1)]:
        with pytest.raises(ValueError):
            adaptive_public_fit(priv, pub, DOM, WL, 0.4, np.random.default_rng(0), **kw)
    with pytest.raises(ValueError):
        adaptive_public_fit(priv, pub, DOM, WL, 0.0, np.random.default_rng(0))
