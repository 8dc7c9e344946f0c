"""The Laplace mechanism's release-error tail (Dwork & Roth 2014, Thm 3.8, with a union bound over k releases):
|released - true| <= b log(k/beta) for all k releases at once with probability >= 1 - beta, b = Delta/eps.

What this checks, and what it does not: it is a check of the project's ``LaplaceMechanism`` at the scale
b = 1/(n eps) that LVSUW21 uses after Lemma 4.2 (1/n sensitivity of the best mixture error). It does *not*
validate Lemma 4.2, which states only that sensitivity (that is :mod:`lemma4_2`, on adversarial neighbour
pairs); and a correct mechanism meets the tail by mathematics, so only a bug (a wrong noise scale) can
fail it: its status is a ``floor check`` (``simulations.stats.FLOOR_CHECK``) and it lists no paper result
(``results=()``). The numbers (sensitivity, scale b, error bound) come from
``bounds.compute("lvsuw21:lemma4.2", private_samples=n, epsilon=eps, beta=beta/k)``; the noise from
:class:`algorithms.privacy.mechanisms.LaplaceMechanism`.

The failure probability is exactly 1 - (1 - beta/k)^k (|Lap(b)| is Exp(1/b), so
Pr[|Z| > b log(k/beta)] = beta/k): for k = 1 the bound is an equality, for k > 1 it is just below beta.
The summary compares the observed failure rate with that exact law (two-sided Clopper-Pearson) and the
success rate with 1 - beta (``stats.verdict``, reported as ``tail_rule``): the check fails
(``floor_check_failed``) when the exact law is rejected or the tail rule says "violated".

Negative controls (``variant``, :data:`NEGATIVE_CONTROLS`): the mechanism at eps/2 and eps/1.5 (noise 2x and
1.5x the declared scale); a control's status is ``violated`` when the check fails. Power
(``detectable_noise_factor``, exact Binomial): at the contract test's 200 trials (k = 3, beta = 0.2) the exact-law
check alone catches noise >= 1.21x with probability >= 0.9; at the defaults (k = 1, beta = 0.05) >= 1.36x.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from algorithms.privacy.mechanisms import LaplaceMechanism
from simulations import contract, stats
from simulations.experiments import Confidence, Controlled, param

SCALE_SOURCE = "lvsuw21:lemma4.2"
#: the negative controls: the noise scale multiplied by the factor after "_x"
NEGATIVE_CONTROLS = {"noise_x2": "the mechanism runs at eps/2 (noise twice the declared scale)",
                     "noise_x1.5": "the mechanism runs at eps/1.5 (noise 1.5 times the declared scale)"}
#: detection probability the stated smallest detectable noise factor is computed at
POWER = 0.9


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    n: int = param(1000, "private samples n (the released statistic is 1/n-sensitive)", within="[1, inf)")
    eps: float = param(1.0, "privacy parameter eps of each release", within="(0, inf)")
    k: int = param(1, "number of independent releases; 1 is Lemma 4.2 as stated", within="[1, inf)")
    beta: float = param(0.05, "failure probability", within="(0, 1)")
    @property
    def exact_failure(self) -> float:
        """Exact Pr[max_i |Z_i| > b log(k/beta)] = 1 - (1 - beta/k)^k (independent Exp(1/b) magnitudes)."""
        return -math.expm1(self.k * math.log1p(-self.beta / self.k))


@functools.lru_cache(maxsize=64)
def lemma_values(params: Params) -> dict:
    """The values bounds attaches to LVSUW21 Lemma 4.2 at (n, eps, beta/k), from ``bounds``: sensitivity 1/n, scale b,
    release error b log(k/beta)."""
    import bounds

    q = bounds.compute(SCALE_SOURCE, private_samples=params.n, epsilon=params.eps,
                       beta=params.beta / params.k).quantities
    return {name: float(q[name].value) for name in ("sensitivity", "laplace_scale", "release_error")}


@dataclass(frozen=True)
class Outcome:
    """One trial: the largest absolute error of the k releases, and whether it is within the bound."""
    max_abs_error: float
    success: bool


def trial(params: Params, rng: np.random.Generator) -> dict:
    """k releases of a 1/n-sensitive value with the project's Laplace mechanism: the largest absolute error, and
    whether it is within Lemma 4.2's bound at beta/k."""
    v = lemma_values(params)
    factor = float(params.variant.split("_x", 1)[1]) if params.variant in NEGATIVE_CONTROLS else 1.0
    mechanism = LaplaceMechanism(v["sensitivity"], params.eps / factor)
    z = np.atleast_1d(mechanism.release(np.zeros(params.k), rng).value)
    worst = float(np.max(np.abs(z)))
    return {"max_abs_error": worst, "success": bool(worst <= v["release_error"])}


def failure_at_factor(params: Params, factor: float) -> float:
    """Exact Pr[max_i |Z_i| > b log(k/beta)] when the noise is ``factor`` times b: 1 - (1 - (beta/k)^(1/factor))^k."""
    return -math.expm1(params.k * math.log1p(-((params.beta / params.k) ** (1.0 / factor))))


def detectable_noise_factor(params: Params, trials: int, power: float = POWER) -> float | None:
    """The smallest noise factor s (on a grid of 1.01 ... 4) whose failure rate the exact-law check rejects with
    probability >= ``power`` at ``trials`` trials (exact Binomial over every failure count): the break this check
    catches at that size. None if not even 4x is caught."""
    from scipy.stats import binom

    f = np.arange(trials + 1)
    lo, hi = stats.clopper_pearson(f, trials, params.confidence, "two-sided")
    rejected = (np.asarray(lo) > params.exact_failure) | (np.asarray(hi) < params.exact_failure)
    for s in np.round(np.arange(1.01, 4.0001, 0.01), 2):
        if float(binom.pmf(f, trials, failure_at_factor(params, s))[rejected].sum()) >= power:
            return float(s)
    return None


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Verdict on Pr[success] >= 1 - beta (simulations.stats rule) and a two-sided check of the exact law."""
    n = len(records)
    successes = sum(1 for r in records if r["success"])
    v = stats.verdict(successes, n, 1 - params.beta, params.confidence)
    failures = n - successes
    lo, hi = stats.clopper_pearson(failures, n, params.confidence, "two-sided")
    values = lemma_values(params)
    consistent = bool(lo <= params.exact_failure <= hi)
    failed = v.status == stats.VIOLATED or not consistent
    detectable = detectable_noise_factor(params, n)
    text = (f"{'FAILED (a bug in the mechanism)' if failed else 'passed'}"
            f" (the exact law 1 - (1 - beta/k)^k = {params.exact_failure:.4g} lies "
            f"{'inside' if consistent else 'outside'} the failure rate's interval [{lo:.4g}, {hi:.4g}]); "
            f"the tail rule on its own: {v}")
    # the check's outcome: violated when the tail rule or the exact law fails (a control must be caught)
    return contract.Judgement(claims=[stats.VIOLATED if failed else v.status], text=text, floor_check=True,
                              measurements={
        "result_id": None,
        "detectable_noise_factor": detectable,
        "power_statement": (f"at {n} trials the check catches noise >= {detectable}x the declared scale with "
                            f"probability >= {POWER:g}" if detectable else f"at {n} trials not even 4x noise is "
                            f"caught with probability >= {POWER:g}"),
        "claim": "Pr[max_i |Z_i| > b log(k/beta)] <= beta, b = 1/(n eps)",
        "bound_source": (f"bounds.compute('{SCALE_SOURCE}', private_samples={params.n}, epsilon={params.eps}, "
                         f"beta={params.beta}/{params.k}).release_error"),
        "laplace_scale": values["laplace_scale"],
        "error_bound": values["release_error"],
        "target_success": 1 - params.beta,
        "floor_check_failed": bool(failed),
        "tail_rule": v.status,
        "tail_detail": {**v.as_dict(), "kind": contract.FLOOR_CHECK,
                        "label": "max_i |Z_i| <= b log(k/beta) (tail rule)"},
        "failure_rate": failures / n,
        "failure_rate_ci": [lo, hi],
        "exact_failure": params.exact_failure,
        "exact_law_consistent": consistent,
    })


EXPERIMENT = contract.Experiment(
    name="laplace_tail", results=(),  # a check of the Laplace mechanism, not of a paper result (module docstring)
    section=contract.Unsectioned("a floor check of the Laplace mechanism that every algorithm's noise rests on; "
                                 "it validates no paper result and only a bug can fail it"),
    description=("floor check of the Laplace mechanism: max error of k releases exceeds b log(k/beta), b = 1/(n "
                 "eps), w.p. <= beta (scale from bounds' lvsuw21:lemma4.2; validates no paper result: Lemma 4.2 is "
                 "lemma4_2)"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome, ci=contract.CiRun(200, {"k": 3, "beta": 0.2}),
    opponents=contract.NoOpponents("a floor check of the Laplace mechanism's tail (no paper algorithm, no numbered "
                                   "result): there is no algorithm to set beside trivial ones"),
    controls=NEGATIVE_CONTROLS,
)
