"""BCMNUW20 Theorem 10, looseness: the least private n and public m at which A_PAP's guarantee
Err_{D,H}(G) <= alpha w.p. >= 1 - beta holds empirically, and the ratio of the explicit bound to it.

Design (a fixed grid, so every trial is independent and the runner's seeding and resume apply):
for each alpha of ``Params.alphas`` and each case of ``Params.cases`` (as in :mod:`thm10`), with
m_bound, n_bound = Theorem 10's explicit sizes from ``bounds`` (:func:`thm10.theorem_sizes`):

* n-search: m = m_bound fixed; n runs over the grid n_k = ceil(n_bound / factor^k), k = 0, 1, ...,
  while n_k >= ``n_min``; grid points above the machine limit ``n_max`` are not run (recorded as
  infeasible, never pretended);
* m-search: n = min(n_bound, n_max) fixed; m runs over m_k = ceil(m_bound / factor^k) while m_k >= 1.

One trial runs A_PAP once at every grid point (fresh public and private samples each) and records
whether Err <= alpha (and, for the m-search, whether H~ is an alpha/4-cover).

Confidence rule (``summarise``): a grid size *holds empirically* when ``simulations.stats.verdict``
on its successes out of the trials says "holds" for the target 1 - beta at ``confidence`` (one-sided
Clopper-Pearson lower bound >= 1 - beta); the least size is the smallest grid size from which every
larger run grid size holds. Monotonicity in n and m is assumed, not tested (the grid shows it). When
even the smallest grid size holds, the least size is at most that (the ratio is then a lower bound,
``censored``). When no size holds, nothing is claimed. A point-estimate variant (success rate
>= 1 - beta) is reported alongside. Ratio = bound / least size; for n, also the bound over the largest
size run when the bound was infeasible.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulations import stats
from simulations.experiments import thm10

NAME = "thm10_looseness"
RESULT_IDS = ("bcmnuw20:thm10",)
DESCRIPTION = "Theorem 10 looseness: least n and m at which A_PAP meets Err <= alpha w.p. >= 1 - beta, vs the bound"

PARAM_HELP = {
    **{k: v for k, v in thm10.PARAM_HELP.items() if k not in ("alpha", "n_scale", "m_scale")},
    "alphas": "comma-separated accuracies alpha in (0, 1)",
    "factor": "grid ratio between successive sample sizes (> 1)",
    "n_min": "smallest private sample size of the n grid (integer >= 1)",
}


@dataclass(frozen=True)
class Params:
    cases: tuple = ("thresholds:near_threshold", "intervals:interval_endpoints")
    alphas: tuple = (0.9, 0.7, 0.5)
    num_points: int = 1024
    interval_points: int = 128
    stump_dim: int = 8
    beta: float = 0.1
    eps: float = 0.9
    delta: float = 1e-6
    factor: float = 2.0
    n_min: int = 1000
    n_max: int = 4_000_000
    confidence: float = 0.95

    def __post_init__(self):
        if not isinstance(self.alphas, tuple) or not self.alphas:
            raise ValueError(f"alphas={self.alphas!r} must be a non-empty tuple of numbers in (0, 1)")
        for a in self.alphas:
            if not (isinstance(a, (int, float)) and 0 < a < 1):
                raise ValueError(f"alphas entry {a!r} must lie in (0, 1)")
        if not (isinstance(self.factor, (int, float)) and 1 < self.factor <= 100):
            raise ValueError(f"factor={self.factor!r} must lie in (1, 100]")
        if not (isinstance(self.n_min, int) and self.n_min >= 1):
            raise ValueError(f"n_min={self.n_min!r} must be an integer >= 1")
        # the shared fields are validated by thm10.Params
        self.base(self.alphas[0])

    def base(self, alpha: float) -> thm10.Params:
        """The thm10 parameters at one alpha (scales 1)."""
        return thm10.Params(cases=self.cases, num_points=self.num_points, interval_points=self.interval_points,
                            stump_dim=self.stump_dim, alpha=float(alpha), beta=self.beta, eps=self.eps,
                            delta=self.delta, n_max=self.n_max, confidence=self.confidence)


def grid(bound: int, factor: float, lowest: int) -> list[int]:
    """ceil(bound / factor^k) for k = 0, 1, ... while >= lowest (distinct, decreasing); [bound] if bound < lowest."""
    out, k = [], 0
    while True:
        v = int(math.ceil(bound / factor**k))
        if v < lowest or (out and v >= out[-1]):  # below the floor, or stuck at 1
            break
        out.append(v)
        k += 1
    return out or [int(bound)]


def plan(params: Params, alpha: float, case: str) -> dict:
    """The n grid (with feasibility), the m grid and the fixed sizes of one (alpha, case)."""
    s = thm10.case_setup(case, params.base(alpha))
    n_grid = grid(s["n_bound"], params.factor, params.n_min)
    return {"setup": s, "n_grid": n_grid, "n_feasible": [n <= params.n_max for n in n_grid],
            "m_fixed": s["m_bound"], "m_grid": grid(s["m_bound"], params.factor, 1),
            "n_fixed": min(s["n_bound"], params.n_max)}


def _key(alpha: float, case: str) -> str:
    return f"alpha={alpha:g}|{case}"


def trial(params: Params, rng: np.random.Generator) -> dict:
    """A_PAP once at every feasible grid point of every (alpha, case): accuracy (and cover) indicators."""
    out = {}
    for alpha in params.alphas:
        for case in params.cases:
            pl = plan(params, alpha, case)
            s = pl["setup"]
            args = (alpha, params.beta, params.eps, params.delta)
            n_acc = [thm10.run_pap(s["cls"], s["D"], n, pl["m_fixed"], *args, rng)["accurate"] if ok else None
                     for n, ok in zip(pl["n_grid"], pl["n_feasible"])]
            m_runs = [thm10.run_pap(s["cls"], s["D"], pl["n_fixed"], m, *args, rng) for m in pl["m_grid"]]
            out[_key(alpha, case)] = {"n_accurate": n_acc, "m_accurate": [r["accurate"] for r in m_runs],
                                      "m_cover_ok": [r["cover_ok"] for r in m_runs]}
    return {"points": out}


def least_holding(sizes: list[int], successes: list[int | None], trials: int, target: float,
                  confidence: float) -> dict:
    """The least grid size from which every larger run size holds (module docstring's rule)."""
    status = [None if k is None else stats.verdict(k, trials, target, confidence).status for k in successes]
    point = [None if k is None else (k / trials >= target) for k in successes]

    def least(ok: list) -> tuple[int | None, bool]:
        best = None
        for size, o in zip(sizes, ok):  # sizes decrease
            if o is None:
                continue
            if not o:
                break
            best = size
        run = [sz for sz, o in zip(sizes, ok) if o is not None]
        return best, (best is not None and best == min(run))

    lo, censored = least([None if s is None else s == "holds" for s in status])
    lo_point, censored_point = least(point)
    return {"least": lo, "censored": censored, "least_point_estimate": lo_point,
            "censored_point_estimate": censored_point, "statuses": status}


def summarise(records: list[dict], params: Params) -> dict:
    """Per (alpha, case): success counts on the grids, the least holding n and m, the bound / least ratios."""
    if not records:
        raise ValueError("records must hold at least one trial")
    T = len(records)
    target = 1 - params.beta
    rows = []
    for alpha in params.alphas:
        for case in params.cases:
            pl = plan(params, alpha, case)
            s = pl["setup"]
            pts = [r["points"][_key(alpha, case)] for r in records]
            n_succ = [None if not ok else int(sum(p["n_accurate"][i] for p in pts))
                      for i, ok in enumerate(pl["n_feasible"])]
            m_succ = [int(sum(p["m_accurate"][i] for p in pts)) for i in range(len(pl["m_grid"]))]
            c_succ = [int(sum(p["m_cover_ok"][i] for p in pts)) for i in range(len(pl["m_grid"]))]
            n_l = least_holding(pl["n_grid"], n_succ, T, target, params.confidence)
            m_l = least_holding(pl["m_grid"], m_succ, T, target, params.confidence)
            c_l = least_holding(pl["m_grid"], c_succ, T, 1 - params.beta / 2, params.confidence)
            largest_run_n = max((n for n, ok in zip(pl["n_grid"], pl["n_feasible"]) if ok), default=None)
            rows.append({
                "alpha": alpha, "case": case, "class": s["cls"].name, "distribution": s["D"].name,
                "d": s["d"], "p": s["p"], "n_bound": s["n_bound"], "m_bound": s["m_bound"],
                "n_grid": pl["n_grid"], "n_successes": n_succ, "n_statuses": n_l["statuses"],
                "m_fixed_for_n_search": pl["m_fixed"], "n_fixed_for_m_search": pl["n_fixed"],
                "n_bound_feasible": bool(pl["n_feasible"][0]), "largest_n_run": largest_run_n,
                "m_grid": pl["m_grid"], "m_successes": m_succ, "m_statuses": m_l["statuses"],
                "m_cover_successes": c_succ,
                "least_n": n_l["least"], "least_n_censored": n_l["censored"],
                "least_n_point_estimate": n_l["least_point_estimate"],
                "least_m": m_l["least"], "least_m_censored": m_l["censored"],
                "least_m_point_estimate": m_l["least_point_estimate"],
                "least_m_cover": c_l["least"],
                "n_ratio": None if n_l["least"] is None else s["n_bound"] / n_l["least"],
                "m_ratio": None if m_l["least"] is None else s["m_bound"] / m_l["least"],
                "n_ratio_is_lower_bound": n_l["censored"], "m_ratio_is_lower_bound": m_l["censored"],
            })
    statuses = ["holds" if r["least_n"] is not None and r["least_m"] is not None else "inconclusive" for r in rows]
    overall = "holds" if all(s == "holds" for s in statuses) else "inconclusive"
    found = [r for r in rows if r["n_ratio"] is not None]
    text = (f"{overall}: least holding sizes found for {len(found)}/{len(rows)} (alpha, case) pairs with {T} "
            f"trials per grid point (rule: one-sided {100 * params.confidence:g}% Clopper-Pearson lower bound "
            f">= 1 - beta = {target:g})")
    if found:
        text += (f"; bound / least n from {min(r['n_ratio'] for r in found):.3g} to "
                 f"{max(r['n_ratio'] for r in found):.3g}")
    return {
        "result_id": RESULT_IDS[0],
        "claim": "least n, m with Err_{D,H}(G) <= alpha w.p. >= 1 - beta, against Theorem 10's explicit n, m",
        "bound_source": ("bounds.compute('bcmnuw20:thm10', alpha, beta, epsilon, delta, vc=d, dual_vc=p): "
                         "public_samples, private_samples_fixed_split"),
        "rule": ("a grid size holds when simulations.stats.verdict(successes, trials, 1 - beta, confidence) is "
                 "'holds'; least size = smallest grid size from which every larger run size holds"),
        "beta": params.beta, "eps": params.eps, "delta": params.delta, "factor": params.factor,
        "n_max": params.n_max, "trials": T, "confidence": params.confidence,
        "rows": rows,
        "verdict": overall,
        "verdict_text": text,
    }
