"""ABM19 Remark 1 (the approximate half), DR14 Thm A.1 with BW18 Thm 8: audit targets for
:class:`algorithms.learning.noisy_erm.GaussianNoisyERM`, report-noisy-min with Gaussian noise, which declares
``ApproxDP(eps, delta)``: argmin_h errors(h; S_priv) + N(0, sigma^2) + errors(h; S_pub), sigma the analytic
(eps, delta) one at L2 sensitivity sqrt(|H|).

Set-up. H = thresholds(1): two hypotheses on one point (h_0 labels it 0, h_1 labels it 1), so errors(h_0) = #labels
1 and errors(h_1) = #labels 0, over the private and the public sample. With two hypotheses the output is the sign of
the count gap g = errors(h_1) - errors(h_0) plus N(0, 2 sigma^2): Pr[h_0] = Phi(g / (sigma sqrt 2)) (``law``).
Replacing one private label moves g by 2, so the gap moves by mu = 2 / (sigma sqrt 2) = sqrt 2 / sigma noise
units, exactly the mu the calibration assumed (L2 sensitivity sqrt 2): the output is a threshold event of the
declared Gaussian's sufficient statistic, and the pair whose gap puts that threshold where the Gaussian's curve
has its delta at eps (about 3.9 noise units out) reaches the declared (eps, delta) up to the integer grid of g.
No pair of any class can exceed it (post-processing of the Gaussian vector), so two hypotheses are a worst case.

The pairs. A private sample of ``N_PRIV`` labels at the point, the public sample ``PUBLIC_LABELS`` (its gap 0);
a pair changes one private label from 1 to 0 (g moves from gap to gap + 2). ``pair_loss`` is the exact eps of a
pair at the declared delta (binary output: the largest log((P(o) - delta) / Q(o)) over outputs and directions);
``worst_gap`` scans every reachable gap for the largest, and ``loss_neighbours`` draws random label vectors and a
changed label for the auditor's exact-loss search (the line states the worst pair it finds). The worst pair's loss
(0.994 of the declared eps) sits on an output of probability 9e-5 under D0, which events hardly see (expected eps_lb
0 at this budget, 0.095 at 10^6 samples), so each target audits the pair whose expected eps_lb at its default
samples is largest (``testable_gap``: exact rates, Clopper-Pearson at the per-target level of ``audit --all``),
the worst pair's exact loss printed beside it. ``pair_llr`` (the exact log-ratio of the two outputs under the law
run) adds the "loss" objective (a point claim, delta > 0).

* ``noisy_erm``: the learner (its batched ``sample``); must pass. Its pair (gap -18): exact eps 0.702, expected
  eps_lb 0.54 at 400,000.
* ``noisy_erm_half_sigma`` (broken): sigma halved, the same (eps, delta) declared: exact eps at delta 2.15 on its
  worst pair; on its own testable pair (gap -12, exact eps 1.73) the event objectives alone catch it (expected eps_lb
  1.28 at 400,000; the "loss" objective's delta_lb is about 170x the declared delta).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np
from scipy import stats as sst

from algorithms.classes import constructors
from algorithms.learning.noisy_erm import GaussianNoisyERM
from simulations.audit import AuditCase, AuditTarget, with_ci_samples

EPS, DELTA = 1.0, 1e-5
N_PRIV = 40                              # private labels: gaps -40..40 reachable by the private sample alone
PUBLIC_LABELS = np.array([0, 1])         # a labelled public sample whose own gap is 0
SAMPLES = 400_000
HALF_SIGMA = 0.5
AUDIT_TARGETS = 80                       # the per-target level assumed for ``testable_gap`` (about audit --all's)
AUDIT_OBJECTIVES = 3                     # eps, delta, loss


@dataclass(frozen=True)
class _ScaledSigma(GaussianNoisyERM):
    """The broken twin: GaussianNoisyERM with its noise at ``factor`` times the calibrated sigma, the same
    ApproxDP(eps, delta) declared."""

    factor: float = 1.0

    @property
    def sigma(self) -> float:
        return GaussianNoisyERM.sigma.fget(self) * self.factor


def _learner(factor: float) -> GaussianNoisyERM:
    cls = constructors.thresholds(1)
    return GaussianNoisyERM(cls, EPS, DELTA) if factor == 1.0 else _ScaledSigma(cls, EPS, DELTA, factor)


@functools.lru_cache(maxsize=4)
def _sigma(factor: float) -> float:
    return _learner(factor).sigma


def gap(labels) -> int:
    """errors(h_1) - errors(h_0) over the private labels and the public sample: #0s - #1s."""
    y = np.r_[np.asarray(labels, dtype=np.int64), PUBLIC_LABELS]
    return int(np.count_nonzero(y == 0) - np.count_nonzero(y == 1))


def law(g: int, factor: float = 1.0) -> float:
    """Pr[output h_0] at count gap g: h_0 wins iff z_0 - z_1 < g, z_0 - z_1 ~ N(0, 2 sigma^2)."""
    return float(sst.norm.cdf(g / (_sigma(factor) * math.sqrt(2.0))))


def _binary_eps(p: float, q: float, delta: float) -> float:
    """The exact eps at ``delta`` of two laws on {h_0, h_1} with Pr[h_0] = p and q, both directions."""
    best = 0.0
    for a, b in ((p, q), (q, p), (1 - p, 1 - q), (1 - q, 1 - p)):
        if a - delta > 0:
            best = max(best, math.inf if b <= 0 else math.log((a - delta) / b))
    return best


def pair_loss(pair, factor: float = 1.0) -> float:
    """The exact privacy loss of a pair of private label vectors: the least eps at which the two output laws are
    (eps, DELTA)-indistinguishable (``_binary_eps``)."""
    return _binary_eps(law(gap(pair[0]), factor), law(gap(pair[1]), factor), DELTA)


def pair_llr(pair, outputs, factor: float = 1.0) -> np.ndarray:
    """The exact log Pr_D0[o] / Pr_D1[o] of outputs o in {0, 1} under the law run."""
    p, q = law(gap(pair[0]), factor), law(gap(pair[1]), factor)
    o = np.asarray(outputs)
    return np.where(o == 0, math.log(p) - math.log(q), math.log1p(-p) - math.log1p(-q))


def pair_at(g: int):
    """The pair whose D0 has gap ``g`` and whose D1 turns one private label 1 into 0 (gap g + 2)."""
    zeros = (N_PRIV + g) // 2            # gap = 2 zeros - N_PRIV (the public gap is 0)
    if (N_PRIV + g) % 2 or not 0 <= zeros <= N_PRIV - 1:
        raise ValueError(f"gap {g} is not reachable with {N_PRIV} private labels and one label 1 to change")
    d0 = np.r_[np.ones(N_PRIV - zeros, dtype=np.int64), np.zeros(zeros, dtype=np.int64)]
    d1 = d0.copy()
    d1[0] = 0
    return d0, d1


def reachable_gaps() -> range:
    return range(-N_PRIV, N_PRIV - 1, 2)


def worst_gap(factor: float = 1.0) -> tuple[int, float]:
    """(gap, exact loss) of the pair of largest ``pair_loss`` over every reachable gap."""
    return max(((g, pair_loss(pair_at(g), factor)) for g in reachable_gaps()), key=lambda t: t[1])


def expected_eps_lb(g: int, factor: float, samples: int, targets: int = AUDIT_TARGETS) -> float:
    """The eps objective's bound on the pair at gap ``g`` with both rates at their expectation on the evaluation half
    (samples / 2) and Clopper-Pearson at the level ``audit --all`` gives each rate over ``targets`` targets and
    ``AUDIT_OBJECTIVES`` objectives (event {output = h_0}: FPR Pr_D0[h_0], FNR Pr_D1[h_1])."""
    m = samples // 2
    level = 1 - 0.05 / targets / AUDIT_OBJECTIVES / 2
    p, q = law(g, factor), law(g + 2, factor)
    fpr = float(sst.beta.ppf(level, p * m + 1, m - p * m))
    fnr = float(sst.beta.ppf(level, (1 - q) * m + 1, m - (1 - q) * m))
    return max(0.0, math.log(max(1e-300, 1 - DELTA - fnr) / fpr))


def testable_gap(factor: float = 1.0, samples: int = SAMPLES) -> int:
    """The reachable gap whose pair has the largest ``expected_eps_lb`` at ``samples``."""
    return max(reachable_gaps(), key=lambda g: (expected_eps_lb(g, factor, samples), -abs(g)))


def loss_neighbours(rng) -> tuple[np.ndarray, np.ndarray]:
    """A random private sample (labels i.i.d. with a random rate, so that every gap is drawn) and its neighbour with
    one label 1 turned 0 (a label 0 turned 1 is the same pair read backwards)."""
    d0 = (rng.random(N_PRIV) < rng.random()).astype(np.int64)
    d0[0] = 1
    d1 = d0.copy()
    d1[0] = 0
    return d0, d1


def _case(factor: float):
    def make(eps: float, delta: float) -> AuditCase:
        learner = _learner(factor)
        points = np.zeros(N_PRIV, dtype=np.int64)
        public_points = np.zeros(PUBLIC_LABELS.size, dtype=np.int64)

        def mechanism(labels, public, rng, size=None):
            out = learner.sample(points, labels, public_points, PUBLIC_LABELS, rng, size or 1)
            return out if size is not None else int(out[0])

        return AuditCase(mechanism, lambda out: np.asarray(out, dtype=float), pair_at(testable_gap(factor)),
                         PUBLIC_LABELS, float(learner.guarantee.eps), float(learner.guarantee.delta), batched=True,
                         pair_loss=lambda pair: pair_loss(pair, factor), loss_neighbours=loss_neighbours,
                         pair_llr=lambda pair, out: pair_llr(pair, out, factor))

    return make


TARGETS = (
    AuditTarget("noisy_erm", "ABM19 Remark 1", "Gaussian report-noisy-min learner (ApproxDP(1, 1e-5)), two "
                "hypotheses, one private label changed; pair of largest expected eps_lb, worst pair's exact loss "
                "beside it", _case(1.0), default_eps=EPS, default_delta=DELTA, default_samples=SAMPLES,
                results=("abm19:remark1",)),
    AuditTarget("noisy_erm_half_sigma", "ABM19 Remark 1 (broken)",
                "Gaussian report-noisy-min with sigma halved, the same (eps, delta) declared", _case(HALF_SIGMA),
                expect_private=False, default_eps=EPS, default_delta=DELTA, default_samples=SAMPLES,
                results=("abm19:remark1",)),
)

#: the contract test's sample counts (tests/simulations/test_contract.py)
TARGETS = with_ci_samples(TARGETS, {"noisy_erm": 10_000, "noisy_erm_half_sigma": 10_000})
