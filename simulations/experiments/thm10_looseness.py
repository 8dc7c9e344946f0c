"""BCMNUW20 Theorem 10, looseness: the least private n and public m at which A_PAP's guarantee
Err_{D,H}(G) <= alpha w.p. >= 1 - beta holds empirically, and the ratio of the explicit bound to it.

Design (a fixed grid, so every trial is independent and the runner's seeding and resume apply):
for each alpha of ``Params.alphas`` and each case of ``Params.cases`` (as in :mod:`thm10`), with
m_bound, n_bound = Theorem 10's explicit sizes from ``bounds`` (:func:`thm10.theorem_sizes`):

* n-search: m = m_bound fixed; n runs over n_bound itself and the grid n_k = ceil(top * n_bound / factor^k),
  k = 0, 1, ..., while n_k >= ``n_min``; grid points above the cap ``n_max`` (0 = none) or above
  ``thm10.MAX_PRIVATE_POINTS`` are not run (recorded as infeasible, never pretended);
* m-search: n = n_bound fixed (capped as above); m runs over m_k = ceil(m_bound / factor^k) while m_k >= 1.

Resolution: the default factor 2 brackets the least size within a factor 2. To reach 10%, bisect in two
runs: a coarse one, then ``factor=1.1`` with ``top`` = the coarse bracket's upper end / n_bound and
``n_min`` = its lower end (the bound itself is always run too, so the at-bound verdict is kept).

One trial runs A_PAP once at every grid point (fresh public and private samples each) and records
whether Err <= alpha (and, for the m-search, whether H~ is an alpha/4-cover).

Confidence rule (``summarise``): a grid size *holds empirically* when its one-sided Clopper-Pearson
lower bound on the success rate is >= 1 - beta at ``confidence``; it *fails empirically* when the
upper bound is < 1 - beta. The least size is the smallest grid size from which every larger run grid
size holds; its interval is (the largest smaller size that fails, least] (assuming the success rate
is monotone in n and m, which the grid shows but does not test). When even the smallest grid size
holds, the least size is at most that (the ratio is then a lower bound, ``censored``). When no size
holds, nothing is claimed. A point-estimate variant (success rate >= 1 - beta) is reported alongside.
Ratio = bound / least size. The empirical least n is set beside Theorem 10's n (Lemma 7 corrected, from
``bounds``) and beside Lemma 7's printed n at the same (alpha/2, beta/2, |H~|, |X~|)
(``bounds.compute("bcmnuw20:lemma7", ...)["private_samples_as_printed"]``).

Shapes (``shapes``): per case, the fitted exponents of the least n and m and of the bound's n and m in
1/alpha over ``alphas`` (:func:`fitted_exponents`). Not yet done: the same in p for decision stumps and
in d (the grid has one class size per run).

Statuses: only the bound's own sizes (n_bound with m_bound; m_bound with n_bound) get a verdict
(``holds`` / ``violated`` / ``inconclusive``, ``simulations.contract.claim``); every smaller grid size is
``below-bound``. The overall status combines the at-bound verdicts (``contract.combine``): the search
can report ``violated`` when A_PAP fails at Theorem 10's own sizes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from simulations import contract, stats
from simulations.experiments import thm10

NAME = "thm10_looseness"
RESULT_IDS = ("bcmnuw20:thm10",)
DESCRIPTION = "Theorem 10 looseness: least n and m at which A_PAP meets Err <= alpha w.p. >= 1 - beta, vs the bound"

PARAM_HELP = {
    **{k: v for k, v in thm10.PARAM_HELP.items() if k not in ("alpha", "n_scale", "m_scale")},
    "alphas": "comma-separated accuracies alpha in (0, 1)",
    "factor": "grid ratio between successive sample sizes (> 1; 1.1 for 10% resolution)",
    "n_min": "smallest private sample size of the n grid (integer >= 1)",
    "top": "the n grid starts at top * n_bound (in (0, 1]; the bound itself is always run)",
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
    n_max: int = 0
    confidence: float = 0.95
    top: float = 1.0

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
        if not (isinstance(self.top, (int, float)) and 0 < self.top <= 1):
            raise ValueError(f"top={self.top!r} must lie in (0, 1]")
        # the shared fields are validated by thm10.Params
        self.base(self.alphas[0])

    def base(self, alpha: float) -> thm10.Params:
        """The thm10 parameters at one alpha (scales 1)."""
        return thm10.Params(cases=self.cases, num_points=self.num_points, interval_points=self.interval_points,
                            stump_dim=self.stump_dim, alpha=float(alpha), beta=self.beta, eps=self.eps,
                            delta=self.delta, n_max=min(self.n_max or thm10.MAX_PRIVATE_POINTS,
                                                        thm10.MAX_PRIVATE_POINTS),
                            confidence=self.confidence, baselines=False)


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


def _feasible(n: int, n_max: int) -> bool:
    return n <= thm10.MAX_PRIVATE_POINTS and (not n_max or n <= n_max)


def plan(params: Params, alpha: float, case: str) -> dict:
    """The n grid (with feasibility), the m grid and the fixed sizes of one (alpha, case)."""
    s = thm10.case_setup(case, params.base(alpha))
    n_grid = grid(int(math.ceil(params.top * s["n_bound"])), params.factor, params.n_min)
    if n_grid[0] != s["n_bound"]:
        n_grid = [s["n_bound"]] + [n for n in n_grid if n < s["n_bound"]]
    cap = params.n_max or thm10.MAX_PRIVATE_POINTS
    return {"setup": s, "n_grid": n_grid, "n_feasible": [_feasible(n, params.n_max) for n in n_grid],
            "m_fixed": s["m_bound"], "m_grid": grid(s["m_bound"], params.factor, 1),
            "n_fixed": min(s["n_bound"], cap, thm10.MAX_PRIVATE_POINTS)}


def lemma7_sizes(alpha: float, beta: float, eps: float, delta: float, d: int, p: int) -> dict:
    """Theorem 10's n (Lemma 7 corrected, at alpha/2, beta/2) and Lemma 7's printed n at the same
    (alpha/2, beta/2, |H~|, |X~|), |H~| and |X~| the ceilings of bounds' Sauer and Claim 3 sizes."""
    import bounds

    c = bounds.compute("bcmnuw20:thm10", alpha=alpha, beta=beta, epsilon=eps, delta=delta, vc=d, dual_vc=p)
    H = int(math.ceil(math.exp(float(c["log_cover_size"]))))
    X = int(math.ceil(math.exp(float(c["log_domain_size"]))))
    l7 = bounds.compute("bcmnuw20:lemma7", alpha=alpha / 2, beta=beta / 2, epsilon=eps, delta=delta,
                        num_hypotheses=H, domain_size=X)
    return {"n_corrected": int(c["private_samples"]), "n_lemma7_corrected": int(l7["private_samples"]),
            "n_printed": int(l7["private_samples_as_printed"]), "cover_size": H, "domain_size": X}


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
    """The least grid size from which every larger run size holds, and its interval (module docstring)."""
    low = [None if k is None else stats.clopper_pearson(k, trials, confidence, "lower")[0] for k in successes]
    up = [None if k is None else stats.clopper_pearson(k, trials, confidence, "upper")[1] for k in successes]
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

    lo, censored = least([None if v is None else v >= target for v in low])
    lo_point, censored_point = least(point)
    fails_below = [sz for sz, u in zip(sizes, up) if u is not None and u < target and (lo is None or sz < lo)]
    return {"least": lo, "censored": censored, "least_point_estimate": lo_point,
            "censored_point_estimate": censored_point,
            "interval": None if lo is None else [max(fails_below) if fails_below else 0, lo],
            "holds_empirically": [None if v is None else v >= target for v in low],
            "fails_empirically": [None if u is None else u < target for u in up]}


def _statuses(sizes: list[int], successes: list[int | None], bound: int, trials: int, target: float,
              confidence: float, other_at_bound: bool = True) -> list[str | None]:
    """Per grid size: a verdict at the bound's size (with the other size at its bound), below-bound below it."""
    return [None if k is None else contract.claim(k, trials, target, confidence,
                                                   at_bound=other_at_bound and sz >= bound)["verdict"]
            for sz, k in zip(sizes, successes)]


def fitted_exponents(rows: list[dict]) -> dict:
    """Shapes in alpha: least-squares slopes of log(size) against log(1/alpha) over the alphas of one case,
    for the empirical least n and m (uncensored points only) and for the bound's n and m at the same alphas.
    None where fewer than two alphas have a value. A slope is a shape, not a constant: Theorem 10's n grows
    like 1/alpha^2 up to logs, its m like 1/alpha."""
    def slope(pairs):
        pts = [(a, v) for a, v in pairs if v]
        if len({a for a, _ in pts}) < 2:
            return None
        x = np.log([1 / a for a, _ in pts])
        return float(np.polyfit(x, np.log([v for _, v in pts]), 1)[0])

    return {
        "alphas": [r["alpha"] for r in rows],
        "least_n": slope((r["alpha"], None if r["least_n_censored"] else r["least_n"]) for r in rows),
        "bound_n": slope((r["alpha"], r["n_bound"]) for r in rows),
        "least_m": slope((r["alpha"], None if r["least_m_censored"] else r["least_m"]) for r in rows),
        "bound_m": slope((r["alpha"], r["m_bound"]) for r in rows),
    }


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
            n_st = _statuses(pl["n_grid"], n_succ, s["n_bound"], T, target, params.confidence)
            m_st = _statuses(pl["m_grid"], m_succ, s["m_bound"], T, target, params.confidence,
                             other_at_bound=pl["n_fixed"] >= s["n_bound"])
            l7 = lemma7_sizes(alpha, params.beta, params.eps, params.delta, s["d"], s["p"])
            claims = {}
            if n_succ[0] is not None:
                claims["n_search"] = contract.claim(n_succ[0], T, target, params.confidence)
            claims["m_search"] = contract.claim(m_succ[0], T, target, params.confidence,
                                                at_bound=pl["n_fixed"] >= s["n_bound"])
            at_bound_status = [c["verdict"] for c in claims.values()]
            rows.append({
                "alpha": alpha, "case": case, "class": s["cls"].name, "distribution": s["D"].name,
                "d": s["d"], "p": s["p"], "n_bound": s["n_bound"], "m_bound": s["m_bound"],
                "n_grid": pl["n_grid"], "n_successes": n_succ, "n_statuses": n_st,
                "m_fixed_for_n_search": pl["m_fixed"], "n_fixed_for_m_search": pl["n_fixed"],
                "n_bound_feasible": bool(pl["n_feasible"][0]), "largest_n_run": largest_run_n,
                "m_grid": pl["m_grid"], "m_successes": m_succ, "m_statuses": m_st,
                "status_at_bound": contract.combine(at_bound_status), "claims_at_bound": claims,
                "n_printed_lemma7": l7["n_printed"], "n_interval": n_l["interval"], "m_interval": m_l["interval"],
                "least_n_over_printed": None if n_l["least"] is None else n_l["least"] / l7["n_printed"],
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
    overall = contract.combine([r["status_at_bound"] for r in rows])
    shapes = {case: fitted_exponents([r for r in rows if r["case"] == case]) for case in params.cases}
    found = [r for r in rows if r["n_ratio"] is not None]
    text = (f"{overall} at Theorem 10's own sizes (n_bound with m_bound, m_bound with n_bound; "
            f"{100 * params.confidence:g}% per claim); least holding sizes found for {len(found)}/{len(rows)} "
            f"(alpha, case) pairs with {T} trials per grid point (rule: one-sided Clopper-Pearson lower bound "
            f">= 1 - beta = {target:g}; smaller grid sizes are below-bound measurements)")
    if found:
        text += (f"; bound / least n from {min(r['n_ratio'] for r in found):.3g} to "
                 f"{max(r['n_ratio'] for r in found):.3g}; least n / Lemma 7's printed n from "
                 f"{min(r['least_n_over_printed'] for r in found):.3g} to "
                 f"{max(r['least_n_over_printed'] for r in found):.3g}")
    return {
        "result_id": RESULT_IDS[0],
        "claim": "least n, m with Err_{D,H}(G) <= alpha w.p. >= 1 - beta, against Theorem 10's explicit n, m",
        "bound_source": ("bounds.compute('bcmnuw20:thm10', alpha, beta, epsilon, delta, vc=d, dual_vc=p): "
                         "public_samples, private_samples_fixed_split"),
        "rule": ("a grid size holds empirically when its one-sided Clopper-Pearson lower bound at confidence is "
                 ">= 1 - beta and fails when its upper bound is < 1 - beta; least size = smallest grid size from "
                 "which every larger run size holds; interval = (largest smaller size that fails, least]"),
        "beta": params.beta, "eps": params.eps, "delta": params.delta, "factor": params.factor,
        "n_max": params.n_max, "trials": T, "confidence": params.confidence,
        "rows": rows,
        "shapes": shapes,
        "verdict": overall,
        "verdict_text": text,
    }
