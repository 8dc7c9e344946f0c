"""ABM19 Remark 1 ("this reduction holds for both pure and approximate private/semi-private learners", "even when the
public sample is labeled"): an (eps, delta)-DP semi-private learner that reads a labelled public sample, the A that
Lemma 4.4's approximate half is run on. Report-noisy-min with Gaussian noise (Dwork & Roth 2014 Theorem A.1 with
Balle & Wang 2018 Theorem 8's exact calibration):

    A(S_priv, S_pub) = argmin_h  errors(h; S_priv) + N(0, sigma^2) + errors(h; S_pub),

one independent Gaussian per hypothesis. Replacing one private example moves each of the |H| error counts by at most
1, so the count vector has L2 sensitivity sqrt(|H|) and the noisy vector is (eps, delta)-DP at the least such sigma;
adding the public counts (fixed when S_pub is) and taking the argmin are post-processing. The public sample's labels
are read exactly: it is public.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..classes.finite import FiniteClass
from ..privacy import Release
from ..privacy.accounting import ApproxDP
from ..privacy.mechanisms import GaussianMechanism
from ..validate import check_rng
from .erm import error_counts

__all__ = ["GaussianNoisyERM"]


@dataclass(frozen=True)
class GaussianNoisyERM:
    """The semi-private learner callable B of ABM19 Algorithm 2 wraps:
    ``GaussianNoisyERM(cls, eps, delta)(private_points, private_labels, public_points, public_labels, rng)``
    returns ``Release(row index of cls, ApproxDP(eps, delta))``."""

    cls: FiniteClass
    eps: float
    delta: float

    def __post_init__(self) -> None:
        if not isinstance(self.cls, FiniteClass):
            raise ValueError(f"cls must be a FiniteClass, got {type(self.cls).__name__}")
        if not (isinstance(self.eps, (int, float)) and math.isfinite(self.eps) and self.eps > 0):
            raise ValueError(f"eps={self.eps!r} out of range: allowed finite numbers > 0")
        if not (isinstance(self.delta, (int, float)) and 0 < self.delta < 1):
            raise ValueError(f"delta={self.delta!r} out of range: allowed (0, 1)")

    @property
    def sigma(self) -> float:
        """The least (eps, delta)-DP Gaussian sigma at L2 sensitivity sqrt(|H|) (Balle-Wang Theorem 8)."""
        return GaussianMechanism.analytic(math.sqrt(self.cls.num_hypotheses), self.eps, self.delta).sigma

    @property
    def guarantee(self) -> ApproxDP:
        return ApproxDP(self.eps, self.delta)

    def __call__(self, private_points, private_labels, public_points, public_labels,
                 rng: np.random.Generator) -> Release:
        rng = check_rng(rng)
        return Release(int(self.sample(private_points, private_labels, public_points, public_labels, rng, 1)[0]),
                       self.guarantee)

    def sample(self, private_points, private_labels, public_points, public_labels, rng: np.random.Generator,
               size: int) -> np.ndarray:
        """``size`` independent outputs of the learner on the same samples (row indices of cls, int64), the noise
        drawn as one (size, |H|) block: ``size`` calls' law at one call's cost of counting (audits draw many). One
        draw uses the generator exactly as a call does."""
        rng = check_rng(rng)
        if isinstance(size, bool) or not isinstance(size, (int, np.integer)) or size < 1:
            raise ValueError(f"size={size!r} must be an integer >= 1")
        counts = error_counts(self.cls, private_points, private_labels)
        noisy = counts + rng.normal(0.0, self.sigma, size=(int(size),) + counts.shape)
        if np.asarray(public_points).size:
            noisy = noisy + error_counts(self.cls, public_points, public_labels)
        return np.argmin(noisy, axis=1).astype(np.int64)
