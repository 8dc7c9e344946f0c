"""The basic DP mechanisms, each a frozen value that declares its guarantee.

Every mechanism here is a frozen dataclass with

* ``guarantee``: the privacy it spends per run, a ``PureDP`` / ``ApproxDP`` / ``ZCDP`` value;
* ``release(..., rng) -> Release(value, guarantee)``: one run on the private answers;
* ``sample(..., rng, size)``: ``size`` independent runs at once (for tests and the privacy
  auditor: draws from the output distribution, not a release; each draw spends ``guarantee``).

Vector inputs are one run: a Laplace mechanism on a vector of answers of joint L1 sensitivity
``sensitivity`` spends eps once. Randomness always comes from the ``rng`` argument.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from algorithms._lazy import lazy_module

from .accounting import (
    ApproxDP,
    Guarantee,
    PureDP,
    Release,
    ZCDP,
    _check_delta,
    bounded_range_to_zcdp,
    _check_positive_finite,
    gaussian_delta,
    gaussian_epsilon,
    gaussian_sigma_analytic,
    pure_to_zcdp,
)
from ..validate import check_rng as _check_rng
from ..validate import check_size as _check_size
from ..validate import check_values as _check_values

special = lazy_module("scipy.special")  # imported on first use

__all__ = [
    "LaplaceMechanism",
    "GaussianMechanism",
    "ExponentialMechanism",
    "PermuteAndFlip",
    "laplace_mechanism",
    "gaussian_mechanism",
    "exponential_mechanism",
    "exponential_probabilities",
    "permute_and_flip",
    "permute_and_flip_probabilities",
]


def _check_scores(scores: Any) -> np.ndarray:
    s = _check_values("scores", scores)
    if s.ndim != 1 or s.size == 0:
        raise ValueError(f"scores has shape {s.shape}: allowed a non-empty 1-d array")
    return s


def _as_output(x: np.ndarray) -> Any:
    return float(x) if x.ndim == 0 else x


# --------------------------------------------------------------------------- Laplace

@dataclass(frozen=True)
class LaplaceMechanism:
    """Dwork-Roth (2014) Definition 3.3 / Theorem 3.6: answers + Lap(Delta_1 / eps) is eps-DP.

    ``sensitivity`` is the L1 sensitivity of the whole answer vector released in one run.
    """

    sensitivity: float
    eps: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "sensitivity", _check_positive_finite("sensitivity", self.sensitivity))
        object.__setattr__(self, "eps", _check_positive_finite("eps", self.eps))

    @property
    def scale(self) -> float:
        """The Laplace scale b = Delta_1 / eps (standard deviation sqrt(2) b)."""
        return self.sensitivity / self.eps

    @property
    def guarantee(self) -> PureDP:
        return PureDP(self.eps)

    def release(self, values: Any, rng: np.random.Generator) -> Release:
        x = _check_values("values", values)
        noisy = x + _check_rng(rng).laplace(0.0, self.scale, size=x.shape)
        return Release(_as_output(noisy), self.guarantee)

    def sample(self, values: Any, rng: np.random.Generator, size: int) -> np.ndarray:
        x = _check_values("values", values)
        n = _check_size(size)
        return x + _check_rng(rng).laplace(0.0, self.scale, size=(n,) + x.shape)


def laplace_mechanism(values: Any, *, sensitivity: float, eps: float, rng: np.random.Generator) -> Release:
    """Dwork-Roth (2014) Theorem 3.6: one run of ``LaplaceMechanism(sensitivity, eps)``."""
    return LaplaceMechanism(sensitivity, eps).release(values, rng)


# --------------------------------------------------------------------------- Gaussian

@dataclass(frozen=True)
class GaussianMechanism:
    """The Gaussian mechanism: answers + N(0, sigma^2 I), for a query of L2 sensitivity Delta_2.

    Build it with one of the calibrations, each of which declares the guarantee it was made for:

    * ``GaussianMechanism.classic(sensitivity, eps, delta)``: Dwork-Roth (2014) Theorem A.1,
      sigma = Delta sqrt(2 ln(1.25/delta)) / eps, (eps, delta)-DP for eps in (0, 1);
    * ``GaussianMechanism.zcdp(sensitivity, rho)``: Bun-Steinke (2016) Proposition 1.6,
      sigma = Delta / sqrt(2 rho), rho-zCDP (LVSUW21 Alg. 1 uses sigma = 1/(n eps_0), rho = eps_0^2/2);
    * ``GaussianMechanism.analytic(sensitivity, eps, delta)``: Balle-Wang (2018) Theorem 8,
      the least sigma that is (eps, delta)-DP, any eps > 0.

    ``GaussianMechanism(sensitivity, sigma)`` directly declares ZCDP(Delta^2 / (2 sigma^2)),
    which is exact for the Gaussian; a ``guarantee`` given explicitly is checked against sigma
    (ValueError if it does not follow). Whatever the calibration, ``rho``, ``delta(eps)`` and
    ``epsilon(delta)`` give the mechanism's exact zCDP parameter and exact privacy curve.
    """

    sensitivity: float
    sigma: float
    guarantee: Guarantee = field(default=None)  # type: ignore[assignment]

    def __post_init__(self) -> None:
        object.__setattr__(self, "sensitivity", _check_positive_finite("sensitivity", self.sensitivity))
        object.__setattr__(self, "sigma", _check_positive_finite("sigma", self.sigma))
        if self.guarantee is None:
            object.__setattr__(self, "guarantee", ZCDP(self.rho))
        elif not isinstance(self.guarantee, (ApproxDP, ZCDP)):
            raise ValueError(f"guarantee={self.guarantee!r} must be an ApproxDP or ZCDP value "
                             "(a Gaussian mechanism is never pure DP)")
        elif not self._holds(self.guarantee):
            raise ValueError(f"guarantee={self.guarantee!r} does not hold for sigma={self.sigma!r}, "
                             f"sensitivity={self.sensitivity!r}: allowed rho >= {self.rho!r}, or delta >= "
                             "the exact delta(eps) of Balle-Wang Thm 8")

    def _holds(self, g: Guarantee) -> bool:
        """Whether the declared guarantee follows from sigma (exact rho; exact delta(eps), up to root-finding slack)."""
        if isinstance(g, ZCDP):
            return g.rho >= self.rho * (1.0 - 1e-12)
        return self.delta(g.eps) <= g.delta * (1.0 + 1e-6)

    @property
    def noise_sigma(self) -> float:
        """The standard deviation of the noise added (sigma)."""
        return self.sigma

    @classmethod
    def classic(cls, sensitivity: float, eps: float, delta: float) -> "GaussianMechanism":
        """Dwork-Roth (2014) Theorem A.1: sigma = Delta sqrt(2 ln(1.25/delta)) / eps, for eps in (0, 1)."""
        sensitivity = _check_positive_finite("sensitivity", sensitivity)
        eps = _check_positive_finite("eps", eps)
        if eps >= 1.0:
            raise ValueError(f"eps={eps!r} out of range for the classic Gaussian: allowed (0, 1) "
                             "(use GaussianMechanism.analytic for eps >= 1)")
        delta = _check_delta("delta", delta, allow_zero=False)
        sigma = sensitivity * math.sqrt(2.0 * math.log(1.25 / delta)) / eps
        return cls(sensitivity, sigma, ApproxDP(eps, delta))

    @classmethod
    def zcdp(cls, sensitivity: float, rho: float) -> "GaussianMechanism":
        """Bun-Steinke (2016) Proposition 1.6: sigma = Delta / sqrt(2 rho) is rho-zCDP."""
        sensitivity = _check_positive_finite("sensitivity", sensitivity)
        rho = _check_positive_finite("rho", rho)
        return cls(sensitivity, sensitivity / math.sqrt(2.0 * rho), ZCDP(rho))

    @classmethod
    def analytic(cls, sensitivity: float, eps: float, delta: float) -> "GaussianMechanism":
        """Balle-Wang (2018) Theorem 8: the least sigma with delta(eps) <= delta."""
        sigma = gaussian_sigma_analytic(sensitivity, eps, delta)
        return cls(sensitivity, sigma, ApproxDP(eps, delta))

    @property
    def rho(self) -> float:
        """Bun-Steinke (2016) Proposition 1.6: the exact zCDP parameter Delta^2 / (2 sigma^2)."""
        return self.sensitivity**2 / (2.0 * self.sigma**2)

    def delta(self, eps: float) -> float:
        """Balle-Wang (2018) Theorem 8: the exact delta at eps."""
        return gaussian_delta(eps, sensitivity=self.sensitivity, sigma=self.sigma)

    def epsilon(self, delta: float) -> float:
        """Balle-Wang (2018) Theorem 8 inverted: the exact eps at delta."""
        return gaussian_epsilon(delta, sensitivity=self.sensitivity, sigma=self.sigma)

    def release(self, values: Any, rng: np.random.Generator) -> Release:
        x = _check_values("values", values)
        noisy = x + _check_rng(rng).normal(0.0, self.noise_sigma, size=x.shape)
        return Release(_as_output(noisy), self.guarantee)

    def sample(self, values: Any, rng: np.random.Generator, size: int) -> np.ndarray:
        x = _check_values("values", values)
        n = _check_size(size)
        return x + _check_rng(rng).normal(0.0, self.noise_sigma, size=(n,) + x.shape)


def gaussian_mechanism(values: Any, *, sensitivity: float, rng: np.random.Generator,
                       rho: float | None = None, eps: float | None = None, delta: float | None = None,
                       calibration: str = "analytic") -> Release:
    """One run of a Gaussian mechanism: give ``rho`` (Bun-Steinke Prop. 1.6) or ``eps`` and ``delta``
    with ``calibration`` "analytic" (Balle-Wang 2018 Thm 8) or "classic" (Dwork-Roth Thm A.1)."""
    if rho is not None:
        if eps is not None or delta is not None:
            raise ValueError("give either rho, or eps and delta, not both")
        mech = GaussianMechanism.zcdp(sensitivity, rho)
    else:
        if eps is None or delta is None:
            raise ValueError("give either rho, or eps and delta")
        if calibration == "analytic":
            mech = GaussianMechanism.analytic(sensitivity, eps, delta)
        elif calibration == "classic":
            mech = GaussianMechanism.classic(sensitivity, eps, delta)
        else:
            raise ValueError(f"calibration={calibration!r} out of range: allowed 'analytic', 'classic'")
    return mech.release(values, rng)


# --------------------------------------------------------------------------- exponential mechanism

def _em_log_weights(scores: np.ndarray, eps: float, sensitivity: float, monotone: bool) -> np.ndarray:
    factor = eps / sensitivity if monotone else eps / (2.0 * sensitivity)
    return factor * scores


def exponential_probabilities(scores: Any, *, eps: float, sensitivity: float, monotone: bool = False) -> np.ndarray:
    """McSherry-Talwar (2007); Dwork-Roth (2014) Definition 3.4: Pr[r] proportional to exp(eps u(r) / (2 Delta_u)).

    With ``monotone=True`` (every neighbour moves all scores in the same direction),
    Pr[r] proportional to exp(eps u(r) / Delta_u) is still eps-DP (the standard monotone-score
    refinement of the McSherry-Talwar 2007 analysis: the normaliser moves the same way as u(r)).
    Computed as a softmax in log space (exact up to rounding).
    """
    s = _check_scores(scores)
    eps = _check_positive_finite("eps", eps)
    sensitivity = _check_positive_finite("sensitivity", sensitivity)
    return special.softmax(_em_log_weights(s, eps, sensitivity, monotone))


@dataclass(frozen=True)
class ExponentialMechanism:
    """McSherry-Talwar (2007); Dwork-Roth (2014) Theorem 3.10: eps-DP selection of an index by score.

    Sampled with the Gumbel-max trick: argmax_r (eps u(r) / (2 Delta) + G_r), G_r iid Gumbel(0, 1),
    has exactly the exponential mechanism's law.
    """

    eps: float
    sensitivity: float
    monotone: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", _check_positive_finite("eps", self.eps))
        object.__setattr__(self, "sensitivity", _check_positive_finite("sensitivity", self.sensitivity))
        if not isinstance(self.monotone, bool):
            raise ValueError(f"monotone={self.monotone!r} must be a bool")

    @property
    def guarantee(self) -> PureDP:
        return PureDP(self.eps)

    @property
    def zcdp_guarantee(self) -> ZCDP:
        """Cesar-Rogers (2021): eps-bounded range, hence (eps^2 / 8)-zCDP (``bounded_range_to_zcdp``;
        both the plain and the monotone weights are eps-bounded-range)."""
        return bounded_range_to_zcdp(self.eps)

    def probabilities(self, scores: Any) -> np.ndarray:
        return exponential_probabilities(scores, eps=self.eps, sensitivity=self.sensitivity,
                                         monotone=self.monotone)

    def _draw(self, scores: Any, rng: np.random.Generator, n: int) -> np.ndarray:
        s = _check_scores(scores)
        w = _em_log_weights(s, self.eps, self.sensitivity, self.monotone)
        g = _check_rng(rng).gumbel(size=(n, s.size))
        return np.argmax(w + g, axis=1)

    def release(self, scores: Any, rng: np.random.Generator) -> Release:
        return Release(int(self._draw(scores, rng, 1)[0]), self.guarantee)

    def sample(self, scores: Any, rng: np.random.Generator, size: int) -> np.ndarray:
        return self._draw(scores, rng, _check_size(size))


def exponential_mechanism(scores: Any, *, eps: float, sensitivity: float, rng: np.random.Generator,
                          monotone: bool = False) -> Release:
    """Dwork-Roth (2014) Theorem 3.10: one run of ``ExponentialMechanism(eps, sensitivity, monotone)``."""
    return ExponentialMechanism(eps, sensitivity, monotone).release(scores, rng)


# --------------------------------------------------------------------------- permute-and-flip

def permute_and_flip_probabilities(scores: Any, *, eps: float, sensitivity: float) -> np.ndarray:
    """McKenna-Sheldon (2020) Algorithm 1, its law computed exactly.

    With p_r = exp(eps (u(r) - u*) / (2 Delta)), candidate r is returned iff it flips heads and
    every candidate before it in the random order flips tails. Giving each candidate an
    independent uniform arrival time, the others precede r independently with probability t
    given r's time t, so Pr[r] = p_r * integral_0^1 prod_{s != r} (1 - p_s t) dt: the integral
    of a polynomial of degree k-1, computed exactly by Gauss-Legendre quadrature with
    floor(k/2) + 1 nodes (exact to degree 2 floor(k/2) + 1 >= k - 1).
    """
    s = _check_scores(scores)
    eps = _check_positive_finite("eps", eps)
    sensitivity = _check_positive_finite("sensitivity", sensitivity)
    k = s.size
    p = np.exp(eps * (s - s.max()) / (2.0 * sensitivity))
    nodes, weights = special.roots_legendre(k // 2 + 1)
    t = (nodes + 1.0) / 2.0            # nodes on (0, 1), strictly inside
    w = weights / 2.0
    log1m = np.log1p(-np.outer(p, t))  # (k, nodes): log(1 - p_s t_j)
    log_prod_others = log1m.sum(axis=0)[None, :] - log1m
    probs = p * (np.exp(log_prod_others) @ w)
    return probs


@dataclass(frozen=True)
class PermuteAndFlip:
    """McKenna-Sheldon (2020) Algorithm 1 (permute-and-flip): eps-DP selection, never worse than the
    exponential mechanism in expected score (their Theorem 2). LVSUW21 Algorithm 1 selects with it.

    ``release``/``sample`` run the algorithm as written: a uniformly random order, a coin with
    heads probability p_r = exp(eps (u(r) - u*) / (2 Delta)) per candidate in that order, the
    first heads is returned (the best candidate has p = 1, so one always is).
    """

    eps: float
    sensitivity: float

    def __post_init__(self) -> None:
        object.__setattr__(self, "eps", _check_positive_finite("eps", self.eps))
        object.__setattr__(self, "sensitivity", _check_positive_finite("sensitivity", self.sensitivity))

    @property
    def guarantee(self) -> PureDP:
        return PureDP(self.eps)

    @property
    def zcdp_guarantee(self) -> ZCDP:
        """Bun-Steinke Prop. 1.4: eps^2 / 2-zCDP. Permute-and-flip is not eps-bounded-range, and the
        eps^2 / 8 of the exponential mechanism does not hold for it (``bounded_range_to_zcdp``)."""
        return pure_to_zcdp(self.guarantee)

    def probabilities(self, scores: Any) -> np.ndarray:
        return permute_and_flip_probabilities(scores, eps=self.eps, sensitivity=self.sensitivity)

    def _draw(self, scores: Any, rng: np.random.Generator, n: int) -> np.ndarray:
        s = _check_scores(scores)
        rng = _check_rng(rng)
        k = s.size
        p = np.exp(self.eps * (s - s.max()) / (2.0 * self.sensitivity))
        order = rng.permuted(np.broadcast_to(np.arange(k), (n, k)), axis=1)
        heads = rng.random((n, k)) < p[order]
        first = np.argmax(heads, axis=1)  # the best candidate has p = 1, so every row has a heads
        return order[np.arange(n), first]

    def release(self, scores: Any, rng: np.random.Generator) -> Release:
        return Release(int(self._draw(scores, rng, 1)[0]), self.guarantee)

    def sample(self, scores: Any, rng: np.random.Generator, size: int) -> np.ndarray:
        return self._draw(scores, rng, _check_size(size))


def permute_and_flip(scores: Any, *, eps: float, sensitivity: float, rng: np.random.Generator) -> Release:
    """McKenna-Sheldon (2020) Algorithm 1: one run of ``PermuteAndFlip(eps, sensitivity)``."""
    return PermuteAndFlip(eps, sensitivity).release(scores, rng)
