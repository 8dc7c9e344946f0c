"""Neyman-Pearson 1933 (the likelihood-ratio test is most powerful) and Balle-Wang 2018 Thm 5 / Dong-Roth-Su 2019
(the privacy profile as a mean of the privacy-loss variable): what the auditor does with a target's exact
privacy-loss variable. Used by :func:`simulations.audit.audit`; re-exported by :mod:`simulations.audit`.

A case may give ``pair_llr(pair, outputs)``: the exact L(o) = log dP_D0/dP_D1 (o) of statistic values o under the
law of the mechanism it audits, on the pair ``pair`` (its own model of the law it runs: the same law that gives
``pair_loss``). Two uses.

Likelihood-ratio events. The events {L < t} (guess D1) are, by Neyman-Pearson, the most powerful tests of the pair
at every level, so every event objective ("eps", "delta", "profile", "renyi") also searches the threshold events of
L on its selection half (:class:`RatioTest`) and keeps them when they score best there. A choice made on the
selection half, bounded on the evaluation half like any other event: the guarantee does not depend on L being
right (a wrong L only picks a weaker event).

The "loss" objective (a point claim (eps, delta > 0)). For laws P, Q with L = log dP/dQ,

    delta_{P||Q}(eps) = sup_S P(S) - e^eps Q(S) = E_P[(1 - e^(eps - L))_+]          (BW18 Thm 5)

a mean of a variable X in [0, 1] under P alone. Each X_i is rounded to a Bernoulli B_i = 1{U_i < X_i} (U_i
uniform, independent: E B_i = E X_i), and the one-sided Clopper-Pearson lower bound on the mean of the B_i at
level 1 - miss/2 bounds delta_{P||Q}(eps) from below; the same on D1's samples with -L bounds delta_{Q||P}(eps);
the objective's delta_lb is the larger (each direction at miss/2: the objective holds at its share). All samples
of both halves are used (nothing is selected). It needs about ln(1/miss)/delta' samples to see a true delta'
(a count of a few events), where an event test needs e^eps Q(S) estimated to delta' (a Gaussian with 10x its
declared delta at (1, 1e-5): about 1.4 10^7 per neighbour). Its validity rests on L: the bound holds when L is the
exact log-ratio of the laws sampled (the target's model of its mechanism; the line says so); a wrong L makes it
bound nothing, which is why it is a separate objective with its own share and its own line, never the only one.

Power (``minimal_detectable_loss_delta``): the least true delta' the objective flags with probability
``DETECTION_POWER`` at m samples, the count B ~ Binomial(m, delta') (one direction), exact binomial quantiles.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from simulations import stats
from simulations._audit_types import DETECTION_POWER, ThresholdTest


@dataclass(frozen=True)
class RatioTest:
    """Guess D1 iff the exact log-likelihood ratio L = log dP_D0/dP_D1 of the output crosses ``inner``'s threshold
    (the pair's Neyman-Pearson events); applied to L's values, not to the outputs."""

    inner: ThresholdTest

    def guesses_d1(self, llr: np.ndarray) -> np.ndarray:
        return self.inner.guesses_d1(llr)

    def describe(self) -> str:
        return ("likelihood-ratio event (the target's exact log P_D0/P_D1 of the output, L): "
                + self.inner.describe().replace(" s ", " L "))


def _lower_mean(x: np.ndarray, miss: float, rng: np.random.Generator) -> tuple[float, int]:
    """(Clopper-Pearson lower bound at 1 - miss on E X, the Bernoulli count) for X in [0, 1], by rounding each X_i
    to B_i = 1{U_i < X_i} (module docstring)."""
    b = int(np.count_nonzero(rng.random(x.size) < x))
    return float(stats.clopper_pearson(b, x.size, 1.0 - miss, "lower")[0]), b


def loss_delta_bound(counts, samples: int, share: float) -> float:
    """The objective's delta_lb from its saved Bernoulli counts (one per direction) of ``samples`` each: the larger
    Clopper-Pearson lower bound at 1 - (1 - share)/2 (how a saved audit is re-judged from its numbers)."""
    level = 1.0 - (1.0 - share) / 2.0
    return max(float(stats.clopper_pearson(int(k), int(samples), level, "lower")[0]) for k in counts)


def hockey_variable(llr, eps: float) -> np.ndarray:
    """(1 - e^(eps - L))_+ of the loss values L (NaN: 0; +inf: 1)."""
    llr = np.nan_to_num(np.asarray(llr, dtype=float), nan=-np.inf)
    with np.errstate(over="ignore"):
        return np.clip(1.0 - np.exp(eps - llr), 0.0, 1.0)


@dataclass(frozen=True)
class LossResult:
    """The "loss" objective: delta_lb at the declared eps from the loss variable, each direction's count."""

    delta_lb: float
    direction: str
    counts: tuple
    means: tuple
    samples: int
    confidence: float
    minimal_detectable: float

    def describe(self, eps: float, delta: float) -> str:
        rel = ">" if self.delta_lb > delta else "<="
        return (f"loss objective ({100 * self.confidence:.4g}%): delta_lb at eps {eps:g} = {self.delta_lb:.3g} "
                f"{rel} declared delta {delta:g} ({self.direction}; E[(1 - e^(eps - L))_+] from the target's exact "
                f"privacy-loss variable L on {self.samples} outputs per neighbour, Bernoulli-rounded, Clopper-Pearson;"
                f" sample means {self.means[0]:.3g} / {self.means[1]:.3g}, counts {self.counts[0]} / "
                f"{self.counts[1]}; valid when L is the exact log-ratio of the laws sampled); minimal detectable "
                f"delta {self.minimal_detectable:.3g}")


def loss_objective(l0, l1, eps: float, delta: float, share: float, rng: np.random.Generator) -> LossResult:
    """The "loss" objective (module docstring) on the loss values ``l0`` = L on D0's outputs and ``l1`` = L on D1's
    (L = log dP_D0/dP_D1), at ``share``; ``rng`` draws the rounding."""
    miss = (1.0 - share) / 2.0
    x0, x1 = hockey_variable(l0, eps), hockey_variable(-np.asarray(l1, dtype=float), eps)
    (b0, k0), (b1, k1) = _lower_mean(x0, miss, rng), _lower_mean(x1, miss, rng)
    best = max((b0, "D0 || D1"), (b1, "D1 || D0"))
    m = int(min(x0.size, x1.size))
    return LossResult(best[0], best[1], (k0, k1), (float(x0.mean()), float(x1.mean())), m, float(share),
                      minimal_detectable_loss_delta(m, float(delta), float(share)))


@functools.lru_cache(maxsize=64)
def minimal_detectable_loss_delta(m: int, delta: float, share: float, power: float = DETECTION_POWER) -> float:
    """The least delta' whose Binomial(m, delta') count has Clopper-Pearson lower bound (at 1 - (1 - share)/2)
    above ``delta`` with probability >= ``power`` (bisection in log delta'; inf if delta' = 1/2 is not seen)."""
    from scipy import stats as sst

    level = 1.0 - (1.0 - share) / 2.0

    def seen(d):
        k = int(sst.binom.ppf(1.0 - power, m, d))
        return stats.clopper_pearson(k, m, level, "lower")[0] > delta

    lo, hi = max(delta, 1e-300), 0.5
    if not seen(hi):
        return math.inf
    for _ in range(50):
        mid = math.sqrt(lo * hi)
        lo, hi = (lo, mid) if seen(mid) else (mid, hi)
    return hi
