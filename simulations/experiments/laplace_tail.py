"""LVSUW21 Lemma 4.2 (release error of the Laplace mechanism; with k releases, the union bound of DR14 Thm 3.8):
|released - true| <= b log(k/beta) for all k releases at once with probability >= 1 - beta.

LVSUW21 Lemma 4.2 releases a 1/n-sensitive statistic (the best mixture error) with Laplace noise of
scale b = 1/(n eps), and bounds its error by b log(1/beta) with probability >= 1 - beta. For k
independent releases the union bound over the k failure events, each at beta/k, gives
max_i |Z_i| <= b log(k/beta) (Dwork & Roth 2014, Thm 3.8). Every number (sensitivity, scale b, error
bound) comes from ``bounds.compute("lvsuw21:lemma4.2", private_samples=n, epsilon=eps, beta=beta/k)``;
the noise from :class:`algorithms.privacy.mechanisms.LaplaceMechanism`.

The failure probability is exactly 1 - (1 - beta/k)^k (|Lap(b)| is Exp(1/b), so
Pr[|Z| > b log(k/beta)] = beta/k): for k = 1 the lemma is an equality, for k > 1 it is just below
beta. A sampled verdict against 1 - beta is therefore "inconclusive" for a correct mechanism (no
finite number of trials can confirm a tight bound), so the summary also checks the exact law with a
two-sided Clopper-Pearson interval; a mechanism with the wrong noise scale fails that check (and,
with noise larger than declared, the verdict says "violated").
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from algorithms.privacy.mechanisms import LaplaceMechanism
from simulations import stats

NAME = "laplace_tail"
RESULT_IDS = ("lvsuw21:lemma4.2",)
DESCRIPTION = "Laplace release error: max error of k releases exceeds b log(k/beta), b = 1/(n eps), w.p. <= beta"
PARAM_HELP = {
    "n": "private samples n (the released statistic is 1/n-sensitive); integer >= 1",
    "eps": "privacy parameter eps > 0 of each release",
    "k": "number of independent releases (integer >= 1); 1 is Lemma 4.2 as stated",
    "beta": "failure probability in (0, 1)",
    "confidence": "confidence level of the verdict, in (0, 1)",
}


@dataclass(frozen=True)
class Params:
    n: int = 1000
    eps: float = 1.0
    k: int = 1
    beta: float = 0.05
    confidence: float = 0.95

    def __post_init__(self):
        if not (isinstance(self.n, int) and self.n >= 1):
            raise ValueError(f"n={self.n!r} must be an integer >= 1")
        if not (self.eps > 0 and math.isfinite(self.eps)):
            raise ValueError(f"eps={self.eps!r} must be a finite number > 0")
        if not (isinstance(self.k, int) and self.k >= 1):
            raise ValueError(f"k={self.k!r} must be an integer >= 1")
        if not (0 < self.beta < 1):
            raise ValueError(f"beta={self.beta!r} must lie in (0, 1)")
        if not (0 < self.confidence < 1):
            raise ValueError(f"confidence={self.confidence!r} must lie in (0, 1)")

    @property
    def exact_failure(self) -> float:
        """Exact Pr[max_i |Z_i| > b log(k/beta)] = 1 - (1 - beta/k)^k (independent Exp(1/b) magnitudes)."""
        return -math.expm1(self.k * math.log1p(-self.beta / self.k))


@functools.lru_cache(maxsize=64)
def lemma_values(params: Params) -> dict:
    """LVSUW21 Lemma 4.2 at (n, eps, beta/k), from ``bounds``: sensitivity 1/n, scale b, release error b log(k/beta)."""
    import bounds

    q = bounds.compute(RESULT_IDS[0], private_samples=params.n, epsilon=params.eps,
                       beta=params.beta / params.k).quantities
    return {name: float(q[name].value) for name in ("sensitivity", "laplace_scale", "release_error")}


def trial(params: Params, rng: np.random.Generator) -> dict:
    """k releases of a 1/n-sensitive value with the project's Laplace mechanism: the largest absolute error, and
    whether it is within Lemma 4.2's bound at beta/k."""
    v = lemma_values(params)
    mechanism = LaplaceMechanism(v["sensitivity"], params.eps)
    z = np.atleast_1d(mechanism.release(np.zeros(params.k), rng).value)
    worst = float(np.max(np.abs(z)))
    return {"max_abs_error": worst, "success": bool(worst <= v["release_error"])}


def summarise(records: list[dict], params: Params) -> dict:
    """Verdict on Pr[success] >= 1 - beta (simulations.stats rule) and a two-sided check of the exact law."""
    n = len(records)
    if n == 0:
        raise ValueError("records must hold at least one trial")
    successes = sum(1 for r in records if r["success"])
    v = stats.verdict(successes, n, 1 - params.beta, params.confidence)
    failures = n - successes
    lo, hi = stats.clopper_pearson(failures, n, params.confidence, "two-sided")
    values = lemma_values(params)
    return {
        "result_id": RESULT_IDS[0],
        "claim": "Pr[max_i |Z_i| > b log(k/beta)] <= beta, b = 1/(n eps)",
        "bound_source": (f"bounds.compute('{RESULT_IDS[0]}', private_samples={params.n}, epsilon={params.eps}, "
                         f"beta={params.beta}/{params.k}).release_error"),
        "laplace_scale": values["laplace_scale"],
        "error_bound": values["release_error"],
        "target_success": 1 - params.beta,
        "verdict": v.status,
        "verdict_text": str(v),
        "verdict_detail": v.as_dict(),
        "failure_rate": failures / n,
        "failure_rate_ci": [lo, hi],
        "exact_failure": params.exact_failure,
        "exact_law_consistent": bool(lo <= params.exact_failure <= hi),
    }
