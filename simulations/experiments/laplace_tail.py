"""DR14 Thm 3.8 (Dwork & Roth 2014, accuracy of the Laplace mechanism): Pr[max_i |Z_i| >= (Delta/eps) ln(k/beta)] <= beta.

The Laplace mechanism answers k queries of l1-sensitivity Delta by adding independent Lap(b) noise,
b = Delta/eps, to each; the theorem bounds the largest of the k errors. The PMW / MWEM / A_PAP
accuracy analyses (BCMNUW20 Lemma 7, LVSUW21 Sec. 3) and NB20 Alg. 5's noisy threshold use exactly
this tail. The failure probability is exactly 1 - (1 - beta/k)^k (|Lap(b)| is Exp(1/b), so
Pr[|Z| >= b ln(k/beta)] = beta/k), just below beta: the bound is nearly tight, and for k = 1 it is an
equality, so the verdict against 1 - beta is usually "inconclusive" for a correct mechanism. The
summary therefore also checks the exact law with a two-sided Clopper-Pearson interval; a mechanism
with the wrong noise scale fails that check (and, with scale too small, the verdict says "violated").
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from algorithms.privacy.mechanisms import LaplaceMechanism
from simulations import stats

NAME = "laplace_tail"
RESULT_IDS = ("dr14:thm3.8",)
DESCRIPTION = "Laplace mechanism accuracy: max error of k noisy answers exceeds (Delta/eps) ln(k/beta) with probability <= beta"
PARAM_HELP = {
    "eps": "privacy parameter eps > 0",
    "sensitivity": "l1-sensitivity Delta > 0 of the k queries",
    "k": "number of answers (integer >= 1)",
    "beta": "failure probability in (0, 1)",
    "confidence": "confidence level of the verdict, in (0, 1)",
}


@dataclass(frozen=True)
class Params:
    eps: float = 1.0
    sensitivity: float = 1.0
    k: int = 10
    beta: float = 0.05
    confidence: float = 0.95

    def __post_init__(self):
        if not (self.eps > 0 and math.isfinite(self.eps)):
            raise ValueError(f"eps={self.eps!r} must be a finite number > 0")
        if not (self.sensitivity > 0 and math.isfinite(self.sensitivity)):
            raise ValueError(f"sensitivity={self.sensitivity!r} must be a finite number > 0")
        if not (isinstance(self.k, int) and self.k >= 1):
            raise ValueError(f"k={self.k!r} must be an integer >= 1")
        if not (0 < self.beta < 1):
            raise ValueError(f"beta={self.beta!r} must lie in (0, 1)")
        if not (0 < self.confidence < 1):
            raise ValueError(f"confidence={self.confidence!r} must lie in (0, 1)")

    @property
    def scale(self) -> float:
        """b = Delta / eps (DR14 Def. 3.3)."""
        return self.sensitivity / self.eps

    @property
    def error_bound(self) -> float:
        """DR14 Thm 3.8: (Delta/eps) ln(k/beta)."""
        return self.scale * math.log(self.k / self.beta)

    @property
    def exact_failure(self) -> float:
        """Exact Pr[max_i |Z_i| >= b ln(k/beta)] = 1 - (1 - beta/k)^k (independent Exp(1/b) magnitudes)."""
        return -math.expm1(self.k * math.log1p(-self.beta / self.k))


def trial(params: Params, rng: np.random.Generator) -> dict:
    """One run of the project's Laplace mechanism on k zero answers: the largest absolute error, and whether it is below the bound."""
    mechanism = LaplaceMechanism(params.sensitivity, params.eps)
    z = np.atleast_1d(mechanism.release(np.zeros(params.k), rng).value)
    worst = float(np.max(np.abs(z)))
    return {"max_abs_error": worst, "success": bool(worst < params.error_bound)}


def summarise(records: list[dict], params: Params) -> dict:
    """Verdict on Pr[success] >= 1 - beta (simulations.stats rule) and a two-sided check of the exact law."""
    n = len(records)
    if n == 0:
        raise ValueError("records must hold at least one trial")
    successes = sum(1 for r in records if r["success"])
    v = stats.verdict(successes, n, 1 - params.beta, params.confidence)
    failures = n - successes
    lo, hi = stats.clopper_pearson(failures, n, params.confidence, "two-sided")
    exact_inside = lo <= params.exact_failure <= hi
    return {
        "result_id": RESULT_IDS[0],
        "claim": "Pr[max_i |Z_i| >= (Delta/eps) ln(k/beta)] <= beta",
        "error_bound": params.error_bound,
        "target_success": 1 - params.beta,
        "verdict": v.status,
        "verdict_text": str(v),
        "verdict_detail": v.as_dict(),
        "failure_rate": failures / n,
        "failure_rate_ci": [lo, hi],
        "exact_failure": params.exact_failure,
        "exact_law_consistent": bool(exact_inside),
    }
