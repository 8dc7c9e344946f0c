"""BS16 Prop 1.6 (the Gaussian mechanism under zCDP) with post-processing: audit targets for
:func:`algorithms.query_release.public_fit.public_fit`, the public-support fit, which declares ``ZCDP(rho)``: every
workload marginal measured once with N(0, sigma^2) per cell, sigma = sqrt(W / rho) / n (replace-one L2 sensitivity
sqrt(2 W) / n), then weights on the distinct public rows fitted to the measurements (post-processing). The release is
(measurements y, fitted weights p); the audited statistic is the vector (y, log p), its rows also the transcript of
the "divergence" objective.

Set-up. Two binary attributes A and B, one workload {A} (W = 1), public rows all four (A, B) pairs, n = 4 private
rows, rho = 1 (sigma = 1/4). Pair: D0 = {(0,0), (0,1), (1,0), (1,1)}, D1 replaces (0,0) by (1,1): the A-marginal
moves from (1/2, 1/2) to (1/4, 3/4), L2 distance sqrt 2 / n, the sensitivity, and the unread attribute B moves too.
The measurement is a Gaussian vector: on a pair whose marginals differ by d its exact privacy loss is a Gaussian one
with mu = |d| / sigma, rho_pair = mu^2 / 2 (``pair_rho``), and every pair that changes A reaches the declared rho
exactly (mu^2 / 2 = (2 / n^2) / (2 W / (rho n^2)) = rho); a pair that changes B alone has loss 0. ``pair_loss`` is
that Gaussian's exact eps at the audited delta (BW18 Thm 8 inverted), and ``loss_neighbours`` draws random
pairs for the auditor's exact-loss search. The claim is audited at eps = 2, delta(2) = 0.245 of 1-zCDP (CKS20,
as the PMW^Pub targets), with the CKS curve, the Renyi rho and the divergence objectives; ``pair_llr`` (the exact
log-ratio of y under the law run; the weights are a function of y) adds the Neyman-Pearson events and the "loss"
objective.

The fit runs at its defaults (it stops at its dual's float floor, its duality gap on this support at most 1e-15).
Draws are batched (``release``: the measurements of a batch as one block, then one fit per draw), the same draws as
successive ``public_fit`` calls (a test holds them equal bit for bit).

* ``public_fit``: the real fit, its release (y, log p); must pass. Exact rho of its pair 1 = the declared rho (the
  exact-loss search over random pairs finds none larger: no pair can exceed it); in ``audit --all`` (seed 0) eps_lb
  0.70 at 2,000, 0.59 of the pair's exact eps 1.198 at delta(2).
* ``public_fit_add_remove_sensitivity`` (broken): the measurement calibrated to the add/remove sensitivity
  sqrt(W) / n (sigma / sqrt 2), the same ZCDP(rho) declared: exact rho 2 on the pair. Its measurements are audited
  (the fit is the real one, post-processing, and adds nothing to see; leaving it out makes a draw about 1,000x
  cheaper, so 20,000 per neighbour cost about a second): in ``audit --all`` (seed 0) every objective refutes it,
  the divergence objective's KL bound 1.55 > 1 with a learned witness.
* ``public_fit_private_prior`` (broken): the fit's prior is the public histogram plus the private rows on the
  support (a leak into a post-processing step). The fitted weights are p(x) ~ p0(x) exp(-lam_{A(x)}), so
  log p(a, 1) - log p(a, 0) = log p0(a, 1) - log p0(a, 0) whatever y: a constant that differs between the
  neighbours (the pair changes B as well as A): the outputs of D0 and D1 lie on disjoint lines (exact loss inf),
  which the learned score of the event objectives and the divergence objective's witness find. Its measurements
  alone pass (they are the real ones): the leak is seen only through the fitted weights. A warm start from private
  answers would not leak here (the fit's optimum is unique and certified), which is why the prior is the registered
  leak.
"""

from __future__ import annotations

import functools
import math

import numpy as np

from algorithms.privacy.accounting import gaussian_epsilon
from algorithms.privacy.mechanisms import GaussianMechanism
from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers
from algorithms.query_release.public_fit import fit_public_weights, gap_tolerance, measure_all_marginals, public_fit
from algorithms.query_release.workloads import CategoricalDomain, MarginalQueries
from simulations.audit import AuditCase, AuditTarget, with_ci_samples
from simulations.audit_targets.pmw_pub import zcdp_delta_at

DOMAIN = CategoricalDomain([2, 2])
WORKLOADS = [(0,)]
PUBLIC = np.array([[0, 0], [0, 1], [1, 0], [1, 1]])
PAIR = (np.array([[0, 0], [0, 1], [1, 0], [1, 1]]), np.array([[1, 1], [0, 1], [1, 0], [1, 1]]))
RHO = 1.0
AUDIT_EPS = 2.0
SQRT2 = math.sqrt(2.0)


@functools.lru_cache(maxsize=1)
def _queries():
    support, counts = distinct_rows(PUBLIC)
    return MarginalQueries(DOMAIN, WORKLOADS, support), support, counts


def answers(rows) -> np.ndarray:
    """The workload's marginal (fractions) of ``rows``."""
    return marginal_answers(DOMAIN, _queries()[0].workloads, np.asarray(rows, dtype=np.int64))


def sigma(sensitivity_factor: float = 1.0, n: int = 4) -> float:
    """The measurement's noise: sigma = sqrt(W / rho) / n for the real mechanism, times ``sensitivity_factor`` (the
    add/remove twin: 1 / sqrt 2)."""
    return sensitivity_factor * math.sqrt(len(WORKLOADS) / RHO) / n


def pair_rho(pair, sensitivity_factor: float = 1.0) -> float:
    """The exact zCDP rho of the measurement on ``pair``: |q(D0) - q(D1)|^2 / (2 sigma^2) (a Gaussian shift; the
    weights are a function of y)."""
    d = answers(pair[0]) - answers(pair[1])
    return float(d @ d) / (2.0 * sigma(sensitivity_factor, len(pair[0])) ** 2)


def pair_loss(pair, sensitivity_factor: float = 1.0) -> float:
    """The pair's exact eps at the audited delta: BW18 Thm 8 inverted for mu^2 / 2 = ``pair_rho``."""
    r = pair_rho(pair, sensitivity_factor)
    return 0.0 if r == 0 else gaussian_epsilon(zcdp_delta_at(RHO, AUDIT_EPS), rho=r)


def _log_ratio(pair, y, s: float) -> np.ndarray:
    """log dP_D1/dP_D0 of measurements y (rows) for N(q(D), s^2 I)."""
    a0, a1 = answers(pair[0]), answers(pair[1])
    y = np.asarray(y, dtype=float)
    return (np.sum((y - a0) ** 2, axis=1) - np.sum((y - a1) ** 2, axis=1)) / (2.0 * s * s)


def loss_neighbours(rng) -> tuple[np.ndarray, np.ndarray]:
    """Random private data (4 rows of the domain) and a neighbour with one row replaced by a random row."""
    d0 = np.stack([rng.integers(0, k, 4) for k in DOMAIN.sizes], axis=1)
    d1 = d0.copy()
    d1[int(rng.integers(0, 4))] = [rng.integers(0, k) for k in DOMAIN.sizes]
    return d0, d1


def release(rows, rng, size: int, sensitivity_factor: float = 1.0, private_prior: bool = False,
            fit: bool = True) -> np.ndarray:
    """``size`` releases of the public-support fit on ``rows`` as rows (y, log p): ``public_fit``'s steps with the
    measurements of the batch drawn as one block (the same draws, in the same order, as ``size`` calls of
    ``public_fit`` on one generator; tests/simulations/test_audit_public_fit.py holds them equal), each fitted by
    ``fit_public_weights``. Breaks: the measurement at ``sensitivity_factor`` times the L2 sensitivity sqrt(2 W) / n
    (sigma and the fit's mu alike); the fit's prior the public histogram plus the private rows on the support. With
    ``fit=False`` the measurements y alone (what the fit post-processes)."""
    queries, support, counts = _queries()
    n, w = rows.shape[0], len(WORKLOADS)
    true = np.tile(answers(rows), (int(size), 1))
    if sensitivity_factor == 1.0:
        y, s = measure_all_marginals(true, n, w, RHO, rng).value, math.sqrt(w / RHO) / n
    else:
        mech = GaussianMechanism.zcdp(sensitivity_factor * math.sqrt(2.0 * w) / n, RHO)
        y, s = mech.release(true, rng).value, mech.sigma
    if not fit:
        return y
    prior = counts.astype(float) + (_support_counts(rows) if private_prior else 0.0)
    mu = 1.0 / (PUBLIC.shape[0] * s * s)
    tol = gap_tolerance(s, mu)
    p = np.array([fit_public_weights(queries, prior / prior.sum(), yi, mu, tol=tol).p for yi in y])
    with np.errstate(divide="ignore"):
        return np.hstack([y, np.log(p)])


def _case(sensitivity_factor: float = 1.0, private_prior: bool = False, fit: bool = True):
    def make(eps: float, delta: float) -> AuditCase:
        declared = public_fit(PAIR[0], PUBLIC, DOMAIN, WORKLOADS, RHO, np.random.default_rng(0)).guarantee
        rho = float(declared.rho)

        def mechanism(rows, public, rng, size=None):
            out = release(rows, rng, size or 1, sensitivity_factor, private_prior, fit)
            return out if size is not None else out[0]

        n_y = _queries()[0].num_queries
        run_sigma = sigma(sensitivity_factor)
        if private_prior:   # the laws are mutually singular once the pair changes the private rows on the support
            loss, llr, neighbours = _prior_pair_loss, None, None
        else:
            loss = lambda pair: pair_loss(pair, sensitivity_factor)  # noqa: E731
            llr = lambda pair, out: -_log_ratio(pair, np.asarray(out)[:, :n_y], run_sigma)  # noqa: E731
            neighbours = loss_neighbours
        return AuditCase(mechanism, None, PAIR, PUBLIC, float(eps), zcdp_delta_at(rho, eps), batched=True,
                         profile=lambda e: zcdp_delta_at(rho, e), profile_name=f"CKS20 curve of {rho:g}-zCDP",
                         rho=rho, pair_loss=loss, loss_neighbours=neighbours, pair_llr=llr,
                         transcript=lambda out: out,
                         log_ratio=lambda t: _log_ratio(PAIR, np.asarray(t)[:, :n_y], sigma()))

    return make


def _support_counts(rows) -> np.ndarray:
    """The private rows' counts on the public support (what the private-prior twin reads)."""
    return np.array([np.count_nonzero(np.all(np.asarray(rows) == s, axis=1)) for s in _queries()[1]], dtype=float)


def _prior_pair_loss(pair) -> float:
    """The private-prior twin's exact loss: inf when the pair changes the private rows' counts on the support (the
    fitted weights' log-ratios within an A-cell then differ surely), else the measurement's."""
    return math.inf if np.any(_support_counts(pair[0]) != _support_counts(pair[1])) else pair_loss(pair)


SAMPLES = 2_000
SQRT2_SAMPLES = 20_000
PRIOR_SAMPLES = 400

TARGETS = (
    AuditTarget("public_fit", "BS16 Prop 1.6",
                "public-support fit: one Gaussian measurement of every marginal (rho=1), weights fitted on the public "
                "support; n=4, a pair at the full sensitivity (exact rho 1 = declared); its release (y, log p)",
                _case(), default_eps=AUDIT_EPS, default_samples=SAMPLES),
    AuditTarget("public_fit_add_remove_sensitivity", "BS16 Prop 1.6 (broken)",
                "public-support fit measured at the add/remove sensitivity sqrt(W)/n (sigma / sqrt 2, exact rho 2 on "
                "the pair), the same zCDP declared; its measurements", _case(sensitivity_factor=1 / SQRT2, fit=False),
                expect_private=False, default_eps=AUDIT_EPS, default_samples=SQRT2_SAMPLES),
    AuditTarget("public_fit_private_prior", "BS16 Prop 1.6 (broken)",
                "public-support fit whose prior adds the private rows on the support (a leak into the fit), the same "
                "zCDP declared", _case(private_prior=True), expect_private=False, default_eps=AUDIT_EPS,
                default_samples=PRIOR_SAMPLES),
)

#: the contract test's sample counts (tests/simulations/test_contract.py)
TARGETS = with_ci_samples(TARGETS, {"public_fit": 400, "public_fit_add_remove_sensitivity": SQRT2_SAMPLES,
                                    "public_fit_private_prior": PRIOR_SAMPLES})
