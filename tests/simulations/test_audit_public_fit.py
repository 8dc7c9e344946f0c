"""BS16 Prop 1.6 with post-processing (the public-support fit's audit targets): the exact losses are the laws the
mechanisms draw from, the batched draws are ``public_fit``'s own, and the leak into the fit is seen only through what
the pair and the statistic expose."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest
from algorithms.query_release.public_fit import public_fit
from simulations import audit
from simulations.audit_targets import public_fit as pf


def test_public_fit_batch_is_public_fit_draw_for_draw():
    """The audited real path (one block of measurements, one fit per draw) equals successive ``public_fit`` calls on
    one generator, bit for bit (catches a batch drawn in another order, a wrong sigma, or a fit with another mu)."""
    rows = pf.PAIR[1]
    batch = pf.release(rows, np.random.default_rng(3), 6)
    rng = np.random.default_rng(3)
    calls = []
    for _ in range(6):
        r = public_fit(rows, pf.PUBLIC, pf.DOMAIN, pf.WORKLOADS, pf.RHO, rng).value
        calls.append(np.r_[r.measurements, np.log(r.synthetic)])
    assert np.array_equal(batch, np.array(calls))


def test_public_fit_pair_losses_are_the_gaussian_shift():
    """The pair changes A (full sensitivity): exact rho = the declared rho (the twin measured at sqrt(W)/n: 2 rho); a
    pair that changes B alone has loss 0; and the mean of the exact log-ratio on D0's measurements is the KL, rho
    (catches a pair_llr with the declared sigma instead of the law run's, or a sign error)."""
    assert pf.pair_rho(pf.PAIR) == pytest.approx(pf.RHO)
    assert pf.pair_rho(pf.PAIR, 1 / math.sqrt(2)) == pytest.approx(2 * pf.RHO)
    b_only = (pf.PAIR[0], np.array([[0, 1], [0, 1], [1, 0], [1, 1]]))
    assert pf.pair_rho(b_only) == 0 and pf.pair_loss(b_only) == 0
    for factor in (1.0, 1 / math.sqrt(2)):
        case = pf._case(sensitivity_factor=factor, fit=False)(pf.AUDIT_EPS, 0.0)
        y = case.mechanism(pf.PAIR[0], pf.PUBLIC, np.random.default_rng(1), size=20_000)
        llr = case.pair_llr(pf.PAIR, y)
        kl = pf.pair_rho(pf.PAIR, factor)
        assert abs(llr.mean() - kl) < 4 * llr.std() / math.sqrt(llr.size), (factor, llr.mean(), kl)


def test_private_prior_leak_is_seen_through_the_fitted_weights_only():
    """The leak twin at 400 samples (seed 2, 95%) is caught when the release's fitted weights are audited, and passes
    when only its measurements are (the leak lives in the fit: the pair and the statistic must expose it); the real
    target passes on the same budget (catches a twin whose prior ignores the private rows, which would pass both)."""
    leak = pf._case(private_prior=True)(pf.AUDIT_EPS, 0.0)
    assert audit.audit(leak, 400, np.random.default_rng(2)).violated
    y_only = replace(leak, mechanism=lambda d, p, rng, size=None: leak.mechanism(d, p, rng, size)[:, :2],
                     transcript=None)
    assert not audit.audit(y_only, 400, np.random.default_rng(2)).violated
    real = pf._case()(pf.AUDIT_EPS, 0.0)
    assert not audit.audit(real, 400, np.random.default_rng(2)).violated
