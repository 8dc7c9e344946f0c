"""BCMNUW20 Theorem 10 (with Lemma 11): A_PAP (Algorithm 3) is an (alpha, beta, eps, delta) PAP
query-release algorithm for H with the explicit n (private) and m (public) sample sizes of ``bounds``.

What one trial does, for every case "class:distribution" of ``Params.cases``:

1. the class H (thresholds on N points, intervals on N points, or decision stumps on {+-1}^p) and its
   VC dimension d and dual VC dimension p (:func:`class_dimensions`; checked exactly in the tests);
2. the sample sizes from ``bounds.compute("bcmnuw20:thm10", alpha, beta, epsilon, delta, vc=d,
   dual_vc=p)``: m_bound = ``public_samples`` (Lemma 11), n_bound = ``private_samples`` (Lemma 7,
   corrected constants, at alpha/2, beta/2). Never retyped. The run uses
   m = ceil(m_scale * m_bound) and n = min(ceil(n_scale * n_bound), n_max): ``n_max`` is the largest
   private sample this machine handles per trial; where n_bound exceeds it the record and the summary
   say so (``n_fraction_of_bound`` < 1) and the trial runs at n_max (never pretending it ran at n_bound);
3. w ~ D^m (public) and x ~ D^n (private), A_PAP(x, w, H, alpha, beta, eps, delta);
4. exactly, with D as a probability vector (``algorithms.evaluation``): the cover radius
   max_h Pr_D[h != Project_{H~,w}(h)] and whether H~ is an alpha/4-cover (Lemma 11: w.p. >= 1 - beta/2);
   Err_{D,H}(G) = max_h |G(h) - E_D h| and whether it is <= alpha (Theorem 10: w.p. >= 1 - beta);
   the privacy A_PAP declares it spent (PMW's, ``Release.guarantee``).

The private sample is drawn as its histogram (``rng.multinomial(n, D)``) and expanded to point indices:
A_PAP reads the private data only through PMW's normalised histogram (``pmw``: ``np.bincount``), so
this has exactly the law of n i.i.d. draws for A_PAP and costs O(N) random numbers instead of O(n).

Verdict rule (``summarise``): per case, ``simulations.stats.verdict`` on the accuracy event against
1 - beta and on the cover event against 1 - beta/2, each at confidence 1 - (1 - confidence)/(2k) for
k cases (Bonferroni over the 2k claims, so "violated" anywhere is a false alarm with probability at
most 1 - confidence). Overall: "violated" if any claim is violated, "holds" if every claim holds,
else "inconclusive". Two-sided Clopper-Pearson intervals at ``confidence`` are reported too.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from simulations import distributions as dist
from simulations import stats

NAME = "thm10"
RESULT_IDS = ("bcmnuw20:thm10", "bcmnuw20:lemma11")
DESCRIPTION = ("A_PAP (BCMNUW20 Alg 3): Err_D,H(G) <= alpha w.p. >= 1 - beta and H~ an alpha/4-cover w.p. "
               ">= 1 - beta/2 at Theorem 10's n and m")

CLASSES = ("thresholds", "intervals", "stumps")
DISTRIBUTIONS = {
    "thresholds": ("uniform", "zipf", "near_threshold", "point_mass_heavy"),
    "intervals": ("uniform", "zipf", "interval_endpoints", "near_threshold"),
    "stumps": ("uniform", "zipf", "point_mass_heavy"),
}
DEFAULT_CASES = ("thresholds:uniform", "thresholds:zipf", "thresholds:near_threshold",
                 "intervals:uniform", "intervals:interval_endpoints", "stumps:uniform", "stumps:zipf")

PARAM_HELP = {
    "cases": ("comma-separated class:distribution pairs: thresholds:{uniform,zipf,near_threshold,point_mass_heavy}, "
              "intervals:{uniform,zipf,interval_endpoints,near_threshold}, stumps:{uniform,zipf,point_mass_heavy}"),
    "num_points": "domain size N of thresholds (integer in [4, 8192])",
    "interval_points": "domain size N of intervals (integer in [4, 512]; N (N + 1)/2 + 1 hypotheses)",
    "stump_dim": "dimension p of the decision-stump domain {+-1}^p (integer in [2, 14])",
    "alpha": "accuracy alpha in (0, 1)",
    "beta": "failure probability beta in (0, 1)",
    "eps": "privacy eps in (0, 1) (Theorem 10's domain)",
    "delta": "privacy delta in (0, 1)",
    "n_scale": "factor on Theorem 10's private sample size n (> 0; < 1 searches below the bound)",
    "m_scale": "factor on Theorem 10's public sample size m (> 0)",
    "n_max": "largest private sample drawn per run (machine limit; integer >= 1)",
    "confidence": "confidence level of the verdicts, in (0, 1)",
}


def _check_unit(name: str, value) -> None:
    if not (isinstance(value, (int, float)) and 0 < value < 1):
        raise ValueError(f"{name}={value!r} must lie in (0, 1)")


def _check_case(case: str) -> tuple[str, str]:
    kind, sep, law = str(case).partition(":")
    if not sep or kind not in CLASSES or law not in DISTRIBUTIONS[kind]:
        allowed = "; ".join(f"{k}:{{{','.join(DISTRIBUTIONS[k])}}}" for k in CLASSES)
        raise ValueError(f"cases entry {case!r} must be class:distribution, one of {allowed}")
    return kind, law


@dataclass(frozen=True)
class Params:
    cases: tuple = DEFAULT_CASES
    num_points: int = 1024
    interval_points: int = 128
    stump_dim: int = 8
    alpha: float = 0.5
    beta: float = 0.1
    eps: float = 0.9
    delta: float = 1e-6
    n_scale: float = 1.0
    m_scale: float = 1.0
    n_max: int = 4_000_000
    confidence: float = 0.95

    def __post_init__(self):
        if not isinstance(self.cases, tuple) or not self.cases:
            raise ValueError(f"cases={self.cases!r} must be a non-empty tuple of class:distribution strings")
        for c in self.cases:
            _check_case(c)
        if len(set(self.cases)) != len(self.cases):
            raise ValueError(f"cases={self.cases!r} has a repeated entry")
        if not (isinstance(self.num_points, int) and 4 <= self.num_points <= 8192):
            raise ValueError(f"num_points={self.num_points!r} must be an integer in [4, 8192]")
        if not (isinstance(self.interval_points, int) and 4 <= self.interval_points <= 512):
            raise ValueError(f"interval_points={self.interval_points!r} must be an integer in [4, 512]")
        if not (isinstance(self.stump_dim, int) and 2 <= self.stump_dim <= 14):
            raise ValueError(f"stump_dim={self.stump_dim!r} must be an integer in [2, 14]")
        for name in ("alpha", "beta", "eps", "delta", "confidence"):
            _check_unit(name, getattr(self, name))
        for name in ("n_scale", "m_scale"):
            v = getattr(self, name)
            if not (isinstance(v, (int, float)) and 0 < v and math.isfinite(v)):
                raise ValueError(f"{name}={v!r} must be a finite number > 0")
        if not (isinstance(self.n_max, int) and self.n_max >= 1):
            raise ValueError(f"n_max={self.n_max!r} must be an integer >= 1")


# ---------------------------------------------------------------- classes, distributions, bounds


def class_dimensions(kind: str, num_points: int, stump_dim: int) -> tuple[int, int]:
    """(d, p) = (VC, dual VC) of a case's class, as its constructor documents them: thresholds (1, 1),
    intervals (2, 2) for N >= 3, decision stumps (floor(log2 p), p) (BCMNUW20 Def. 12). The exact
    computation (``algorithms.classes.combinatorics``) takes about a minute for intervals on 64 points
    already, so the tests check these values exactly on small instances of every class instead."""
    if kind == "thresholds":
        return 1, 1
    if kind == "intervals":
        return 2, 2
    return int(math.floor(math.log2(stump_dim))), stump_dim


@functools.lru_cache(maxsize=16)
def make_class(kind: str, num_points: int, stump_dim: int):
    """The class H of a case (``algorithms.classes.constructors``) with its (d, p) (:func:`class_dimensions`)."""
    from algorithms.classes import constructors

    if kind == "thresholds":
        cls = constructors.thresholds(num_points)
    elif kind == "intervals":
        cls = constructors.intervals(num_points)
    else:
        cls = constructors.decision_stumps(stump_dim)
    d, p = class_dimensions(kind, num_points, stump_dim)
    return cls, d, p


@functools.lru_cache(maxsize=64)
def make_distribution(kind: str, law: str, N: int) -> dist.Distribution:
    """The distribution D of a case over the class's N points (adversarial ones placed where the class is hardest)."""
    if law == "uniform":
        return dist.uniform(N)
    if law == "zipf":
        return dist.zipf(N, 1.0)
    if law == "point_mass_heavy":
        return dist.point_mass_heavy(N, N // 2, 0.5)
    if law == "near_threshold":  # 90% of the mass on the 2*width points around the cut at N/2
        return dist.near_threshold(N, N // 2, max(1, N // 64), 0.9)
    if law == "interval_endpoints":  # 90% of the mass on the endpoints of [N/4, 3N/4]
        return dist.interval_endpoints(N, N // 4, (3 * N) // 4, 0.9)
    raise ValueError(f"distribution {law!r} unknown")  # unreachable after Params validation


@functools.lru_cache(maxsize=256)
def theorem_sizes(alpha: float, beta: float, eps: float, delta: float, d: int, p: int) -> dict:
    """BCMNUW20 Theorem 10's explicit m and n at (alpha, beta, eps, delta, d, p), from ``bounds``.

    n is ``private_samples_fixed_split``: Lemma 7's corrected derivation at the 3:1 error split and fixed
    failure shares that algorithms.query_release.pmw runs (alpha_mw = alpha/8), i.e. the size the PMW run
    here is proven at; bounds' headline ``private_samples`` optimises those budgets (about half) and
    assumes PMW at alpha_mw = ``mw_accuracy``, which pmw does not take yet (issue 16)."""
    import bounds

    c = bounds.compute(RESULT_IDS[0], alpha=alpha, beta=beta, epsilon=eps, delta=delta, vc=d, dual_vc=p)
    return {"m_bound": int(c["public_samples"]), "n_bound": int(c["private_samples_fixed_split"]),
            "log_cover_size_bound": float(c["log_cover_size"]), "log_domain_size_bound": float(c["log_domain_size"])}


def case_setup(case: str, params: Params) -> dict:
    """Everything about one case that does not depend on the trial's randomness."""
    kind, law = _check_case(case)
    N = params.interval_points if kind == "intervals" else params.num_points
    cls, d, p = make_class(kind, N, params.stump_dim)
    D = make_distribution(kind, law, cls.num_points)
    sizes = theorem_sizes(params.alpha, params.beta, params.eps, params.delta, d, p)
    return {"case": case, "cls": cls, "D": D, "d": d, "p": p, **sizes}


def used_sizes(n_bound: int, m_bound: int, n_scale: float, m_scale: float, n_max: int) -> tuple[int, int]:
    """(n, m) actually drawn: the scaled bound, n capped at the machine limit n_max, both at least 1."""
    n = max(1, min(int(math.ceil(n_scale * n_bound)), n_max))
    m = max(1, int(math.ceil(m_scale * m_bound)))
    return n, m


# ---------------------------------------------------------------- one run of A_PAP


def private_sample(D: dist.Distribution, n: int, rng: np.random.Generator) -> np.ndarray:
    """n i.i.d. points of D as the sorted indices of their histogram (same law for A_PAP, see module docstring)."""
    counts = rng.multinomial(n, D.probs)
    return np.repeat(np.arange(D.N, dtype=np.int64), counts)


def run_pap(cls, D: dist.Distribution, n: int, m: int, alpha: float, beta: float, eps: float, delta: float,
            rng: np.random.Generator) -> dict:
    """One run of A_PAP at (n, m) under D, evaluated exactly: cover radius, Err_{D,H}(G), spent privacy."""
    from algorithms.evaluation import cover_radius, true_error
    from algorithms.privacy.accounting import ApproxDP
    from algorithms.query_release.pap import a_pap

    public = D.sample(m, rng)
    private = private_sample(D, n, rng)
    release = a_pap(private, public, cls, alpha, beta, eps, delta, rng)
    out = release.value
    radius = cover_radius(out.cover, D.probs)
    error = true_error(cls, D.probs, out.answers)
    g = release.guarantee
    return {
        "n": int(n), "m": int(m),
        "cover_radius": radius, "cover_ok": bool(radius <= alpha / 4),
        "error": error, "accurate": bool(error <= alpha),
        "spent_eps": float(g.eps), "spent_delta": float(g.delta) if isinstance(g, ApproxDP) else 0.0,
        "cover_size": out.cover.size, "reduced_domain_size": int(out.reduced_class.num_points),
        "pmw_updates": out.pmw.num_updates, "pmw_halted": bool(out.pmw.halted),
    }


def trial(params: Params, rng: np.random.Generator) -> dict:
    """Every case once at (n, m) = the scaled Theorem 10 sizes; ``success`` = every case accurate."""
    cases = {}
    for case in params.cases:
        s = case_setup(case, params)
        n, m = used_sizes(s["n_bound"], s["m_bound"], params.n_scale, params.m_scale, params.n_max)
        cases[case] = run_pap(s["cls"], s["D"], n, m, params.alpha, params.beta, params.eps, params.delta, rng)
    return {"cases": cases, "success": all(c["accurate"] for c in cases.values())}


# ---------------------------------------------------------------- the verdict


def _claim(successes: int, trials: int, target: float, confidence: float, per_claim: float) -> dict:
    v = stats.verdict(successes, trials, target, per_claim)
    lo, hi = stats.clopper_pearson(successes, trials, confidence, "two-sided")
    return {"successes": successes, "trials": trials, "rate": successes / trials, "target": target,
            "ci": [lo, hi], "ci_confidence": confidence, "verdict": v.status, "verdict_text": str(v),
            "verdict_confidence": per_claim, "lower": v.lower}


def combine(statuses: list[str]) -> str:
    """Overall verdict of several claims: violated if any is, holds if all do, else inconclusive."""
    if any(s == "violated" for s in statuses):
        return "violated"
    return "holds" if statuses and all(s == "holds" for s in statuses) else "inconclusive"


def summarise(records: list[dict], params: Params) -> dict:
    """Per case: cover and accuracy rates with Clopper-Pearson intervals and verdicts (module docstring)."""
    if not records:
        raise ValueError("records must hold at least one trial")
    T = len(records)
    per_claim = 1 - (1 - params.confidence) / (2 * len(params.cases))
    cases = {}
    for case in params.cases:
        s = case_setup(case, params)
        rows = [r["cases"][case] for r in records]
        n, m = rows[0]["n"], rows[0]["m"]
        radii = np.array([r["cover_radius"] for r in rows])
        errors = np.array([r["error"] for r in rows])
        cases[case] = {
            "class": s["cls"].name, "distribution": s["D"].name, "num_points": s["cls"].num_points,
            "num_hypotheses": s["cls"].num_hypotheses, "d": s["d"], "p": s["p"],
            "m_bound": s["m_bound"], "n_bound": s["n_bound"], "m_used": m, "n_used": n,
            "n_fraction_of_bound": n / s["n_bound"], "m_fraction_of_bound": m / s["m_bound"],
            "n_capped": n < math.ceil(params.n_scale * s["n_bound"]),
            "cover": _claim(sum(r["cover_ok"] for r in rows), T, 1 - params.beta / 2, params.confidence, per_claim),
            "accuracy": _claim(sum(r["accurate"] for r in rows), T, 1 - params.beta, params.confidence, per_claim),
            "cover_radius": {"mean": float(radii.mean()), "max": float(radii.max()), "limit": params.alpha / 4},
            "error": {"mean": float(errors.mean()), "max": float(errors.max()), "limit": params.alpha},
            "spent_eps_max": max(r["spent_eps"] for r in rows),
            "spent_delta_max": max(r["spent_delta"] for r in rows),
            "privacy_as_requested": all(r["spent_eps"] <= params.eps and r["spent_delta"] <= params.delta
                                        for r in rows),
        }
    statuses = [c[k]["verdict"] for c in cases.values() for k in ("cover", "accuracy")]
    overall = combine(statuses)
    capped = [k for k, c in cases.items() if c["n_capped"]]
    text = (f"{overall}: Theorem 10 accuracy (target 1 - beta = {1 - params.beta:g}) and Lemma 11 cover "
            f"(target 1 - beta/2 = {1 - params.beta / 2:g}) over {len(cases)} cases, {T} trials each, "
            f"{100 * params.confidence:g}% confidence (Bonferroni over {2 * len(cases)} claims)")
    if capped:
        text += (f"; n capped at n_max = {params.n_max} in {len(capped)} case(s) "
                 f"(smallest fraction of the bound used: {min(cases[k]['n_fraction_of_bound'] for k in capped):.3g})")
    return {
        "result_id": RESULT_IDS[0],
        "claim": ("Err_{D,H}(G) <= alpha w.p. >= 1 - beta (Theorem 10); H~ is an alpha/4-cover w.p. >= 1 - beta/2 "
                  "(Lemma 11)"),
        "bound_source": (f"bounds.compute('{RESULT_IDS[0]}', alpha={params.alpha}, beta={params.beta}, "
                         f"epsilon={params.eps}, delta={params.delta}, vc=d, dual_vc=p): public_samples, private_samples_fixed_split"),
        "alpha": params.alpha, "beta": params.beta, "eps": params.eps, "delta": params.delta,
        "n_scale": params.n_scale, "m_scale": params.m_scale, "n_max": params.n_max,
        "trials": T, "confidence": params.confidence, "per_claim_confidence": per_claim,
        "cases": cases,
        "verdict": overall,
        "verdict_text": text,
    }
