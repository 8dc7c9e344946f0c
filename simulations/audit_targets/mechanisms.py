"""DR14 Thm 3.6, BW18 Thm 8, DR14 Thm 3.10, MS20 Alg 1: audit targets for the basic mechanisms of
:mod:`algorithms.privacy.mechanisms`, their hardest neighbouring pairs, and deliberately broken variants.

Neighbouring datasets differ in one record (replacement, as in :mod:`algorithms.privacy.accounting`).

* Laplace and Gaussian: the counting query q(D) = sum of the bits of D (sensitivity 1) on
  D0 = (0, ..., 0) and D1 = (1, 0, ..., 0), whose answers differ by exactly the sensitivity: the
  worst case for an additive-noise mechanism. Statistic: the noisy answer itself (for Laplace,
  the threshold test in the tail attains the ratio e^eps exactly; for the Gaussian, the likelihood
  ratio is monotone in the answer, so threshold tests are the most powerful tests).
* Exponential mechanism (and permute-and-flip) with score u(D, r) = #{records of D equal to r},
  r in {0, 1}, sensitivity 1: a replacement moves one score up and the other down, the case where
  the factor 2 in exp(eps u / (2 Delta)) is needed. Pair D0 = (1, 1, 1, 1), D1 = (0, 1, 1, 1): output 0 is
  rare under D0, and Pr[0 | D1] / Pr[0 | D0] = e^(eps/2 * 2) * Z0/Z1 comes close to e^eps.
  Statistic: the selected index. Every pair's loss is stated on the line (``exponential_loss_bound``): with two
  candidates the loss of a pair depends only on the score gap, and the audited pair's gap is the largest 4 records
  allow, so it is the worst pair of that domain (and eps the supremum over every size).

The Gaussian cases also declare the exact curve of their calibration (BW18 Thm 8), so the auditor's profile
objective tests the whole curve: ``gaussian_delta_10x`` (sigma calibrated to 10 delta) and
``gaussian_sqrt2_sigma`` (sigma / sqrt 2) are caught through it (the point (eps, delta) alone is out of reach
at these sizes for the former).

Broken variants (``expect_private=False``) declare the same eps but: the noise scale halved
(Laplace scale Delta/(2 eps), Gaussian sigma/2); the noise removed (the exact answer, the argmax);
the exponential mechanism's factor 2 dropped (weights exp(eps u / Delta) on a non-monotone score).
The auditor must report eps_lb > eps for them.
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from algorithms.privacy.accounting import gaussian_delta, gaussian_epsilon
from algorithms.privacy.mechanisms import ExponentialMechanism, GaussianMechanism, LaplaceMechanism, PermuteAndFlip
from simulations.audit import AuditCase, AuditTarget, with_ci_samples

COUNT_SIZE = 10  # records in the counting-query datasets
DELTA_FACTOR = 10.0
GAUSSIAN_SAMPLES = 1_000_000
POINT_SAMPLES = 200_000  # the loss objective's count at 10x delta: about 20 of 200,000 (its bound then > 1e-5)


def _bits_pair() -> tuple[np.ndarray, np.ndarray]:
    d0 = np.zeros(COUNT_SIZE, dtype=np.int64)
    d1 = d0.copy()
    d1[0] = 1
    return d0, d1


def _identity(outputs):
    return np.asarray(outputs, dtype=float)


def _counting(sample_noisy):
    """A batched mechanism answering the counting query q(D) = sum(D) with ``sample_noisy(answer, rng, size)``."""

    def mechanism(private_data, public_data, rng, size=None):
        answer = float(np.sum(private_data))
        out = sample_noisy(answer, rng, 1 if size is None else size)
        return out[0] if size is None else out

    return mechanism


def _laplace_case(eps: float, delta: float, *, scale_factor: float = 1.0, noise: bool = True) -> AuditCase:
    mech = LaplaceMechanism(1.0, eps / scale_factor)  # scale = scale_factor * (1 / eps)
    if noise:
        sample = lambda a, rng, size: mech.sample(a, rng, size)  # noqa: E731
    else:
        sample = lambda a, rng, size: np.full(size, a)  # noqa: E731
    loss = (lambda pair: eps / scale_factor) if noise else (lambda pair: math.inf)
    return AuditCase(_counting(sample), _identity, _bits_pair(), None, eps, 0.0, batched=True, pair_loss=loss)


def _gaussian_case(eps: float, delta: float, *, sigma_factor: float = 1.0, noise: bool = True,
                   delta_factor: float = 1.0) -> AuditCase:
    """The analytic Gaussian calibrated to (eps, delta) declares (eps, delta) and the exact curve of its sigma
    (BW18 Thm 8, ``gaussian_delta``); the mechanism runs at ``sigma_factor`` times the sigma calibrated to
    (eps, ``delta_factor`` delta)."""
    declared_sigma = GaussianMechanism.analytic(1.0, eps, delta).sigma
    mech = GaussianMechanism(1.0, GaussianMechanism.analytic(1.0, eps, delta_factor * delta).sigma * sigma_factor)
    if noise:
        sample = lambda a, rng, size: mech.sample(a, rng, size)  # noqa: E731
    else:
        sample = lambda a, rng, size: np.full(size, a)  # noqa: E731
    def llr(pair, y):   # the privacy-loss variable log N(y; q(D0), sigma^2) / N(y; q(D1), sigma^2) of the law run
        a0, a1 = (float(np.sum(d)) for d in pair)
        return ((y - a1) ** 2 - (y - a0) ** 2) / (2.0 * mech.sigma ** 2)

    return AuditCase(_counting(sample), _identity, _bits_pair(), None, eps, delta, batched=True,
                     pair_llr=llr if noise else None,
                     profile=lambda e: gaussian_delta(e, sensitivity=1.0, sigma=declared_sigma),
                     pair_loss=(lambda pair: gaussian_epsilon(delta, sensitivity=1.0, sigma=mech.sigma)) if noise
                     else (lambda pair: math.inf),
                     profile_name=f"BW18 Thm 8 curve of sigma = {declared_sigma:.4g} (mu = {1 / declared_sigma:.4g})")


def _selection_pair(skewed: bool) -> tuple[np.ndarray, np.ndarray]:
    if skewed:
        return np.array([1, 1, 1, 1]), np.array([0, 1, 1, 1])
    return np.array([0, 1, 1]), np.array([0, 0, 1])  # the argmax flips


def _selection(select):
    """A batched mechanism selecting r in {0, 1} by the score u(D, r) = count of r in D with ``select(scores, rng,
    size)``."""

    def mechanism(private_data, public_data, rng, size=None):
        scores = np.bincount(np.asarray(private_data), minlength=2).astype(float)
        out = select(scores, rng, 1 if size is None else size)
        return out[0] if size is None else out

    return mechanism


def _selection_loss(mech):
    """The exact loss of a selection pair: max over outputs r of |log Pr[r | D0] / Pr[r | D1]| from the
    mechanism's own output law (``probabilities``) on the two score vectors."""

    def loss(pair):
        p0, p1 = (mech.probabilities(np.bincount(np.asarray(d), minlength=2).astype(float)) for d in pair)
        return float(np.max(np.abs(np.log(p0) - np.log(p1))))

    return loss


def selection_gap_loss(eps: float, m: int) -> float:
    """DR14 Thm 3.10, two candidates: the exact loss of a neighbouring pair whose score gap u_1 - u_0 moves between
    m and m - 2 (a replaced record moves one count up and the other down; m >= 2 the larger of |gap| over the two
    sides after the symmetry r <-> 1 - r). Pr[0 | gap g] = 1 / (1 + e^(eps g / 2)) and log(1 + e^(eps g / 2)) is
    convex with slope below eps/2, so the loss log((1 + e^(eps m / 2)) / (1 + e^(eps (m - 2) / 2))) grows with m
    and tends to eps (the other output's ratio is the smaller)."""
    return float(np.logaddexp(0.0, eps * m / 2.0) - np.logaddexp(0.0, eps * (m - 2) / 2.0))


def exponential_loss_bound(eps: float, records: int) -> str:
    """The line's statement on every neighbouring pair of ``records``-record data sets in {0, 1}
    (``selection_gap_loss``): the gap moves between m and m - 2 with m <= records, so the worst is m = records."""
    return (f"loss log((1 + e^(eps m/2)) / (1 + e^(eps (m-2)/2))) for a pair whose score gap moves between m and m-2,"
            f" increasing in m; {records}-record data sets have m <= {records}, so the worst pair's loss is "
            f"{selection_gap_loss(eps, records):.4g} (the audited pair's gap); below eps = {eps:g} at every size "
            f"(its supremum as m grows)")


def _exponential_case(eps: float, delta: float, *, monotone: bool = False) -> AuditCase:
    mech = ExponentialMechanism(eps, 1.0, monotone=monotone)
    pair = _selection_pair(True)
    return AuditCase(_selection(mech.sample), _identity, pair, None, eps, 0.0, batched=True,
                     pair_loss=_selection_loss(mech),
                     loss_bound="" if monotone else exponential_loss_bound(eps, len(pair[0])))


def _argmax_case(eps: float, delta: float) -> AuditCase:
    select = lambda scores, rng, size: np.full(size, int(np.argmax(scores)))  # noqa: E731
    return AuditCase(_selection(select), _identity, _selection_pair(False), None, eps, 0.0, batched=True)


def _permute_and_flip_case(eps: float, delta: float) -> AuditCase:
    mech = PermuteAndFlip(eps, 1.0)
    return AuditCase(_selection(mech.sample), _identity, _selection_pair(True), None, eps, 0.0, batched=True,
                     pair_loss=_selection_loss(mech))


TARGETS = (
    AuditTarget("laplace", "DR14 Thm 3.6", "Laplace mechanism, counting query, eps-DP",
                _laplace_case),
    AuditTarget("laplace_half_scale", "DR14 Thm 3.6 (broken)", "Laplace with scale Delta/(2 eps) declared eps-DP",
                lambda e, d: _laplace_case(e, d, scale_factor=0.5), expect_private=False),
    AuditTarget("laplace_no_noise", "DR14 Thm 3.6 (broken)", "exact counting query declared eps-DP",
                lambda e, d: _laplace_case(e, d, noise=False), expect_private=False),
    AuditTarget("gaussian", "BW18 Thm 8", "analytic Gaussian mechanism, counting query, (eps, delta)-DP",
                _gaussian_case, default_delta=1e-5, default_samples=1_000_000),
    AuditTarget("gaussian_half_sigma", "BW18 Thm 8 (broken)", "analytic Gaussian with sigma halved declared (eps, "
                "delta)-DP",
                lambda e, d: _gaussian_case(e, d, sigma_factor=0.5), expect_private=False, default_delta=1e-5,
                default_samples=1_000_000),
    AuditTarget("gaussian_delta_10x", "BW18 Thm 8 (broken)",
                "analytic Gaussian calibrated to (eps, 10 delta) declared (eps, delta) and that calibration's curve",
                lambda e, d: _gaussian_case(e, d, delta_factor=DELTA_FACTOR), expect_private=False, default_delta=1e-5,
                default_samples=GAUSSIAN_SAMPLES),
    AuditTarget("gaussian_sqrt2_sigma", "BW18 Thm 8 (broken)",
                "analytic Gaussian with sigma / sqrt 2 declared (eps, delta) and the calibrated curve",
                lambda e, d: _gaussian_case(e, d, sigma_factor=2 ** -0.5), expect_private=False, default_delta=1e-5,
                default_samples=GAUSSIAN_SAMPLES),
    AuditTarget("gaussian_delta_10x_point", "BW18 Thm 8 (broken)",
                "analytic Gaussian calibrated to (eps, 10 delta) declared the point (eps, delta) only (no curve); "
                "caught by the loss objective", lambda e, d: replace(_gaussian_case(e, d, delta_factor=DELTA_FACTOR),
                                                                    profile=None, profile_name=""),
                expect_private=False, default_delta=1e-5, default_samples=POINT_SAMPLES),
    AuditTarget("gaussian_no_noise", "BW18 Thm 8 (broken)", "exact counting query declared (eps, delta)-DP",
                lambda e, d: _gaussian_case(e, d, noise=False), expect_private=False, default_delta=1e-5),
    AuditTarget("exponential", "DR14 Thm 3.10", "exponential mechanism, count scores, eps-DP",
                _exponential_case),
    AuditTarget("exponential_no_factor_two", "DR14 Thm 3.10 (broken)",
                "exponential mechanism with weights exp(eps u / Delta) on a non-monotone score declared eps-DP",
                lambda e, d: _exponential_case(e, d, monotone=True), expect_private=False),
    AuditTarget("exponential_argmax", "DR14 Thm 3.10 (broken)", "argmax of the scores (noise removed) declared eps-DP",
                _argmax_case, expect_private=False),
    AuditTarget("permute_and_flip", "MS20 Alg 1", "permute-and-flip, count scores, eps-DP",
                _permute_and_flip_case),
)

#: the contract test's sample counts (tests/simulations/test_contract.py), the least of 1,000 / 3,000 /
#: 10,000 / 30,000 at which the outcome was as expected in a measured run (seed 5)
TARGETS = with_ci_samples(TARGETS, {
    "laplace": 3_000, "laplace_half_scale": 3_000, "laplace_no_noise": 1_000, "gaussian": 3_000,
    "gaussian_half_sigma": 30_000, "gaussian_no_noise": 1_000, "exponential": 3_000,
    "exponential_no_factor_two": 3_000, "exponential_argmax": 1_000, "permute_and_flip": 3_000,
    "gaussian_delta_10x": 200_000, "gaussian_sqrt2_sigma": 200_000, "gaussian_delta_10x_point": POINT_SAMPLES,
})
