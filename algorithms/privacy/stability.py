"""NB20 Algorithm 6 (A_stab, Smith-Thakurta 2013): release f(S) only when it is stable, via distance to instability.

NB20 Appendix B.1, Algorithm 6. Input: dataset S, function f, distance to instability dist_f,
threshold Gamma, privacy parameter eps > 0.

    1: dist^ <- dist_f(S) + Lap(1/eps)
    2: if dist^ > Gamma, output f(S), else output bottom

Bottom is ``None`` here. Smith-Thakurta's threshold for an (eps, delta) guarantee is
Gamma = ln(1/delta)/eps (``stability_threshold``).

What dist_f must satisfy (Smith-Thakurta 2013, Section 3): (i) sensitivity 1:
|dist_f(S) - dist_f(S')| <= 1 for neighbours S, S'; (ii) it certifies stability: if
f(S) != f(S') for neighbours then dist_f(S) <= 0 and dist_f(S') <= 0 (the number of records
that must change before f changes is 0). The algorithm does not and cannot check these; they
are the caller's claim about dist_f.

Sensitivity other than 1 (``sensitivity=Delta``, default 1: behaviour unchanged). A distance that
moves by up to Delta between neighbours is tested as dist_f/Delta, a sensitivity-1 distance, at
the caller's eps and Gamma: dist_f(S) + Lap(Delta/eps) > Delta Gamma. The noise scale and the
threshold are both multiplied by Delta, and the declared guarantee is unchanged. This is the case
of NB20 Algorithm 5 (A_SubSamp), whose step 8 passes the vote margin M = largest count - second
largest count over k sub-samples: one record lies in one sub-sample, so it moves one vote and M
by up to 2 (erratum nb20-alg5-margin; proofs_checks nb20:alg5.margin). Called with the printed
sensitivity 1, the test on M is only (2 eps)-DP per call. ``sensitivity=2`` at the printed eps =
1/(2 lambda) and threshold w^ is the corrected algorithm of bounds nb20:alg5 (lambda doubled:
noise Lap(4 lambda) on M against 2 w^). Condition (ii) is also the caller's: M certifies
stability only above 2 (k even, a tie broken the other way flips the majority at M = 2), so pass
M - 2 for (ii) to hold as stated; with M itself the delta is Pr[Lap(1/eps) > Gamma - 1].

Guarantee, derived here: if f(S) = f(S') the output is a post-processing of the Laplace
mechanism on dist_f (eps-DP). If f(S) != f(S'), the only output of S that S' cannot produce,
f(S), has probability Pr[dist_f(S) + Lap(1/eps) > Gamma] <= Pr[Lap(1/eps) > Gamma], which is
(1/2) e^{-eps Gamma} for Gamma >= 0. So A_stab is (eps, Pr[Lap(1/eps) > Gamma])-DP, and with
Gamma = ln(1/delta)/eps it is (eps, delta/2)-DP, within the (eps, delta) Smith-Thakurta state.
With sensitivity Delta the same argument runs on dist_f/Delta (noise Lap(Delta/eps), threshold
Delta Gamma), so the guarantee is the same.
Built with ``for_delta`` the declared guarantee is the stated ApproxDP(eps, delta); built with
an explicit threshold it is ApproxDP(eps, Pr[Lap(1/eps) > Gamma]).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from .accounting import ApproxDP, Release, _check_delta, _check_positive_finite, _check_real, compose
from .mechanisms import _check_rng, _check_values

REALISES = ("nb20:alg5",)  # the results this module's algorithm realises (bounds show lists it)

__all__ = ["stability_threshold", "laplace_tail", "DistanceToInstability", "a_stab"]


def stability_threshold(eps: float, delta: float) -> float:
    """Smith-Thakurta (2013) / NB20 Algorithm 6: Gamma = ln(1/delta) / eps."""
    eps = _check_positive_finite("eps", eps)
    delta = _check_delta("delta", delta, allow_zero=False)
    return math.log(1.0 / delta) / eps


def laplace_tail(threshold: float, eps: float) -> float:
    """Pr[Lap(1/eps) > Gamma]: (1/2) e^{-eps Gamma} for Gamma >= 0, 1 - (1/2) e^{eps Gamma} below 0."""
    g = _check_real("threshold", threshold)
    eps = _check_positive_finite("eps", eps)
    if g >= 0.0:
        return 0.5 * math.exp(-eps * g)
    return 1.0 - 0.5 * math.exp(eps * g)


@dataclass(frozen=True)
class DistanceToInstability:
    """NB20 Algorithm 6 (A_stab) with its privacy parameter eps, threshold Gamma and the sensitivity
    Delta of the distance it will be given (default 1, Smith-Thakurta's assumption).

    ``threshold`` is Gamma in units of a sensitivity-1 distance: a distance of sensitivity Delta gets
    noise Lap(Delta/eps) and is compared with Delta Gamma (``effective_threshold``); the guarantee
    (eps, Pr[Lap(1/eps) > Gamma]) does not depend on Delta. ``release(f_value, dist, rng)`` is one
    run given f(S) and dist_f(S); ``release_many`` runs independent tests on many (f(S), dist_f(S))
    pairs at once and declares their basic composition (k eps, k delta).
    """

    eps: float
    threshold: float
    delta: float = field(default=None)  # type: ignore[assignment]
    sensitivity: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", _check_positive_finite("eps", self.eps))
        object.__setattr__(self, "threshold", _check_real("threshold", self.threshold))
        object.__setattr__(self, "sensitivity", _check_positive_finite("sensitivity", self.sensitivity))
        tail = laplace_tail(self.threshold, self.eps)
        if self.delta is None:
            object.__setattr__(self, "delta", tail)
        else:
            d = _check_delta("delta", self.delta)
            if tail > d:
                raise ValueError(
                    f"delta={d!r} out of range for threshold={self.threshold!r}, eps={self.eps!r}: "
                    f"allowed [{tail}, 1) (Pr[Lap(1/eps) > threshold])"
                )
            object.__setattr__(self, "delta", d)
        if self.delta >= 1.0:
            raise ValueError(f"threshold={self.threshold!r} gives delta >= 1: allowed thresholds with delta < 1")

    @classmethod
    def for_delta(cls, eps: float, delta: float, sensitivity: float = 1.0) -> "DistanceToInstability":
        """Smith-Thakurta (2013): Gamma = ln(1/delta)/eps (compared with Delta Gamma for a distance of
        sensitivity Delta), declared (eps, delta)-DP."""
        return cls(eps, stability_threshold(eps, delta), delta, sensitivity)

    @property
    def noise_scale(self) -> float:
        """Laplace scale of the noise on dist_f(S), Delta/eps (1/eps at the default Delta = 1)."""
        return self.sensitivity / self.eps

    @property
    def effective_threshold(self) -> float:
        """What dist_f(S) + noise is compared with: Delta Gamma (Gamma at the default Delta = 1)."""
        return self.sensitivity * self.threshold

    @property
    def guarantee(self) -> ApproxDP:
        return ApproxDP(self.eps, self.delta)

    def release(self, f_value: Any, dist: float, rng: np.random.Generator) -> Release:
        d = _check_real("dist", dist)
        noisy = d + _check_rng(rng).laplace(0.0, self.noise_scale)
        return Release(f_value if noisy > self.effective_threshold else None, self.guarantee)

    def sample_noisy(self, dist: float, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` independent noisy distances dist_f(S) + Lap(Delta/eps) (tests, auditing)."""
        from .mechanisms import _check_size

        d = _check_real("dist", dist)
        n = _check_size(size)
        return d + _check_rng(rng).laplace(0.0, self.noise_scale, size=n)

    def sample(self, dist: float, rng: np.random.Generator, size: int) -> np.ndarray:
        """``size`` independent runs on one dist_f(S) (tests, auditing): True where f(S) is released."""
        return self.sample_noisy(dist, rng, size) > self.effective_threshold

    def release_many(self, f_values: Any, dists: Any, rng: np.random.Generator) -> Release:
        """Release((stable mask, values: f where stable, 0 where bottom), k-fold basic composition)."""
        d = _check_values("dists", dists).ravel()
        vals = np.asarray(f_values)
        if vals.shape[:1] != d.shape:
            raise ValueError(f"f_values has shape {vals.shape}: allowed first axis of length {d.size} (as dists)")
        stable = d + _check_rng(rng).laplace(0.0, self.noise_scale, size=d.size) > self.effective_threshold
        out = np.where(stable.reshape((-1,) + (1,) * (vals.ndim - 1)), vals, np.zeros_like(vals))
        return Release((stable, out), compose(*([self.guarantee] * d.size)))


def a_stab(S: Any, f: Callable[[Any], Any], dist_f: Callable[[Any], float], threshold: float, eps: float,
           rng: np.random.Generator, sensitivity: float = 1.0) -> Release:
    """NB20 Algorithm 6 (A_stab), with the paper's inputs: dataset S, f, dist_f, threshold Gamma, eps.

    Assumes dist_f has sensitivity ``sensitivity`` (Delta, default 1 as in Smith-Thakurta and the
    paper): it adds Lap(Delta/eps) and compares with Delta Gamma. NB20 Algorithm 5's vote margin has
    sensitivity 2 (erratum nb20-alg5-margin): call with sensitivity=2 (see the module docstring).

    Returns Release(f(S) or None (bottom), ApproxDP(eps, Pr[Lap(1/eps) > Gamma])).
    """
    mech = DistanceToInstability(eps, threshold, sensitivity=sensitivity)
    return mech.release(f(S), dist_f(S), rng)
