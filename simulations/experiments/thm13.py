"""BCMNUW20 Theorems 13 and 14: the robust tracing attack (``algorithms.adversaries.tracing``) against real releases
of decision stumps S_p on {+-1}^p, over a grid of private n and public m, beside Theorem 13's boundary.

Sizes from ``bounds`` (never retyped): r = ``range_r`` and t = ``traced_t`` of ``bounds.compute("bcmnuw20:thm14",
alpha, dual_vc=p)`` and the attacker's Theorem-14 level f = ``failure_probability`` = 1/(r + t)^2. By default
(``form="explicit"``) r and t are the explicit constants ``bounds`` derives for this attack
(bounds/papers/bcmnuw20_explicit.py): rigorous, but t > 0 needs alpha below about 0.009 and the region can hold an
(alpha, alpha)-accurate release only from p ~ 10^13 on, so at every size a simulation reaches the explicit region is
empty and the run is a measurement (``below-bound``), never a verdict; the summary says so. (The tightened chain
beside it, ``range_r_tight``/``traced_t_tight``, has t > 0 up to alpha ~ 0.1 but first holds an accurate release at
p ~ 5e10: benchmarks/RESULTS.md, "thm13's explicit region".) ``form="asymptotic"``
draws the region at the hidden constants ``c_14r``, ``c_14t`` (C_14r sqrt(p)/alpha, C_14t/alpha^2; neither paper
pins them down, docs/ERRATA.md). Theorem 13's proof covers the cells with n <= r, m <= t/2 - 1, t < n + m <= r + t
and n >= 11 (the conclusion ln(n/4) > 1 needs n >= 11; erratum bcmnuw20-thm13-n11): the "region".

One trial, for every cell (n, m) of the grid: a fresh hard distribution D~ (biases ~ U[-bias_range, bias_range]),
x ~ D~^n (private), w ~ D~^m (public), the attacker's reference sample z and ``center_draws`` centring samples
(``tracing.Attacker``), ``null_draws`` fresh samples (the simulated null) and ``fresh_draws`` fresh non-members; then
every release of ``releases`` on the same draws:

* ``exact``: the mean of all n + m samples (no privacy; declared None);
* ``zero``: the data-independent release q = 0 (PureDP(0)), the trivial private release judged by the same code;
* ``laplace``: (n (xbar + Lap(2p/(n eps))) + m wbar)/(n + m): the private mean has L1 sensitivity 2p/n, PureDP(eps);
* ``gaussian``: the same with the analytic Gaussian (Balle-Wang) at L2 sensitivity 2 sqrt(p)/n, ApproxDP(eps, 1/(4n));
* ``gaussian_broken`` (the negative control): declares what ``gaussian`` declares but adds ``broken_noise`` times
  its noise: the attack must contradict its declaration;
* ``public_only``: wbar (``algorithms.query_release.baselines.public_only`` for p <= 14, the same mean otherwise),
  PureDP(0); needs m >= 1;
* ``pmw`` (BCMNUW20 Alg 1 on x alone) and ``pap`` (A_PAP, Alg 3; needs m >= 1) at (alpha, beta = alpha, eps,
  1/(4n)), on ``algorithms.classes.implicit.Stumps(p)``: the stumps given by how they label points, so any p
  (the cover from the public points' patterns, PMW's MW distribution kept as a product over coordinates; the
  same algorithm as on the dense 2p x 2^p class, tests/algorithms/test_implicit_classes.py).

Measured per release and cell: the error max_j |q_j - mu_j| and (alpha, alpha)-accuracy; the attacker's decisions
on one designated private sample, one public sample and one fresh sample per trial, with four thresholds:
``analytic_thm14`` (level f = 1/(r+t)^2), ``analytic``, ``null`` and ``sign-flip`` (level ``fpr``); trials are
independent, so the Clopper-Pearson intervals on TPR (private), TPR (public) and FPR are exact. Pooled counts over
all n private, m public and ``fresh_draws`` fresh samples are reported as point rates only (they share q within a
trial). Releases are clipped to [-1, 1] (post-processing). Normalised scores <y - z, v>/||v|| of ``roc_k`` designated
samples per group give the ROC curves.
Theorem 14's two events at level f: "#IN >= t/2 among the n + m samples" and the proof's counting step
"#IN >= m + 1" with the IN calls that land on private samples.

The implied epsilon lower bound (``simulations.audit.epsilon_lower_bound``): swapping a private sample for a fresh
one is a neighbouring data set, and the attacker's IN rate on that fresh sample is the FPR (same law), so a release
that is (eps, delta)-DP has TPR_private <= e^eps FPR + delta. With one-sided Clopper-Pearson bounds
(TPR lower, FPR upper; Bonferroni over the 2 x 4 bounds of a (release, cell)) eps_lb = log((TPR_lo - delta)/FPR_hi),
at the release's declared delta and at Theorem 13's delta = 1/(4n); "(1, 1/(4n))-DP contradicted" means
eps_lb(1/(4n)) > 1. These are measurements about the releases.

Verdicts (``summarise``). Theorem 13 predicts, at every cell of the region, that a release that IS (1, 1/(4n))-DP
is not (alpha, alpha)-accurate. For every release declared at least that private, claim "Pr[error > alpha] > alpha"
is judged by ``simulations.stats.verdict`` on the inaccurate trials against target alpha (Bonferroni over the
claims). Such a claim can only fail where an (alpha, alpha)-accurate release exists at all: a cell is
*informative* when some release of the run (private or not, e.g. the exact mean) is shown (alpha, alpha)-accurate
there (its accuracy record, a ``contract.baseline`` against target 1 - alpha, ``succeeds``), computed from the
records. Claims in region cells that are not informative are ``below-bound`` (the claim cannot fail there: q = 0
"holds" it as well as any release), so is every cell outside the region. The overall verdict combines the
correctly private releases' claims in informative region cells only. The negative control (``gaussian_broken``) is
judged apart: its claim "the attack's epsilon lower bound stays <= its declared epsilon" is a privacy claim that
holds at every (n, m), so it is judged on every cell of the grid and must come out ``violated`` (``inconclusive``
if the attack contradicts the declaration nowhere); its power is stated as the largest eps_lb reached and the cells
where the declaration is contradicted at ``broken_noise``. Its Theorem-13 claim is reported too. A correctly
private release whose declaration the attack contradicts would be a bug: ``privacy_floor_check`` reports it.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from algorithms.adversaries import tracing
from simulations import contract, stats
from simulations.experiments import Confidence, Controlled, param

RELEASES = ("exact", "zero", "laplace", "gaussian", "gaussian_broken", "public_only", "pmw", "pap")
PRIVATE_RELEASES = ("zero", "laplace", "gaussian", "public_only", "pmw", "pap")   # correctly private, declared
FORMS = ("explicit", "asymptotic")
NEGATIVE_CONTROL = "gaussian_broken"
METHODS = ("analytic_thm14", "analytic", "null", "sign-flip")
MAX_FINITE_P = 14

NEGATIVE_CONTROLS = {NEGATIVE_CONTROL: "declares what gaussian declares but adds broken_noise times its noise; the "
                                       "release runs in every trial that lists it, this variant makes it the verdict"}


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    p: int = param(2000, "dimension p of {+-1}^p (number of stumps)", within="[2, 20000]")
    alpha: float = param(0.2, "accuracy alpha ((alpha, alpha)-accuracy, Theorem 13)", within="(0, 1)")
    bias_range: float = param(0.4, "width gamma of the bias prior U[-gamma, gamma] of the hard distribution",
                              within="(0, 1]")
    n_grid: tuple = param((8, 16, 32, 64, 128, 256, 512), "comma-separated private sample sizes n", within="[1, inf)",
                          distinct=True)
    m_grid: tuple = param((0, 4, 11, 64), "comma-separated public sample sizes m", within="[0, inf)", distinct=True)
    releases: tuple = param(("exact", "zero", "laplace", "gaussian", "gaussian_broken", "public_only", "pmw", "pap"),
                            "comma-separated releases", choices=RELEASES, distinct=True)
    eps: float = param(1.0, "declared epsilon of the private releases (Theorem 13 uses 1)", within="(0, inf)")
    broken_noise: float = param(0.01, "factor on the Gaussian noise of the negative control gaussian_broken",
                                within="[0, 1)")
    fpr: float = param(0.05, "fixed false-positive level of the analytic, null and sign-flip thresholds",
                       within="(0, 0.5]")
    null_draws: int = param(199, "fresh samples of the simulated null per cell (at least ceil(1/fpr) - 1)",
                            within="[1, inf)")
    num_flips: int = param(199, "random sign flips of the randomization test (at least ceil(1/fpr) - 1)",
                           within="[1, inf)")
    fresh_draws: int = param(200, "fresh non-members scored per cell for the pooled FPR", within="[1, inf)")
    center_draws: int = param(100, "fresh samples whose mean centres the attacker's weights v = q - c (0: DSS+15's "
                              "<y - z, q>)", within="[0, inf)")
    roc_k: int = param(4, "designated samples per group per trial kept for the ROC curves", within="[1, inf)")
    form: str = param("explicit", "Theorem 14's r, t: explicit (derived for this attack) or asymptotic (at the "
                      "hidden constants c_14r, c_14t)", choices=FORMS)
    c_14r: float = param(1.0, "with form=asymptotic: Theorem 14's hidden constant C_14r in r = C_14r sqrt(p)/alpha",
                         within="(0, inf)")
    c_14t: float = param(1.0, "with form=asymptotic: Theorem 14's hidden constant C_14t in t = C_14t/alpha^2",
                         within="(0, inf)")

    def check(self):
        need = math.ceil(1 / self.fpr) - 1
        for name in ("null_draws", "num_flips"):
            v = getattr(self, name)
            if v < max(1, need):
                raise ValueError(f"{name}={v!r} must be an integer >= {max(1, need)} (ceil(1/fpr) - 1)")
        if self.variant in NEGATIVE_CONTROLS and self.variant not in self.releases:
            raise ValueError(f"variant={self.variant!r} needs the release {self.variant} in releases")


# ---------------------------------------------------------------- sizes from bounds


@functools.lru_cache(maxsize=64)
def theorem_sizes(alpha: float, p: int, c_14r: float = 1.0, c_14t: float = 1.0, form: str = "asymptotic") -> dict:
    """BCMNUW20 Theorem 14's r, t and level 1/(r+t)^2, and Theorem 13's n_min, m_min, from ``bounds``: the explicit
    constants derived for this attack (``form="explicit"``) or the hidden-constant form at C_14r, C_14t."""
    if form not in FORMS:
        raise ValueError(f"form={form!r} must be one of {', '.join(FORMS)}")
    kw = ({"form": "asymptotic", "constants": {"C_14r": c_14r, "C_14t": c_14t}} if form == "asymptotic" else {})
    out = {**contract.required_sizes("bcmnuw20:thm14", {"r": "range_r", "t": "traced_t",
                                                         "level_thm14": "failure_probability"},
                                     alpha=alpha, dual_vc=p, **kw)}
    if form == "asymptotic" or out["t"] > 0:  # the explicit n_min, m_min are defined only where t > 0
        out.update(contract.required_sizes("bcmnuw20:thm13", {"n_min": "private_samples",
                                                               "m_min": "public_samples"},
                                           alpha=alpha, dual_vc=p, **kw))
    out["form"] = form
    return out


def run_sizes(params) -> dict:
    """:func:`theorem_sizes` at a run's parameters."""
    return theorem_sizes(params.alpha, params.p, params.c_14r, params.c_14t, params.form)


def attack_level(sizes: dict, params) -> float:
    """The level of the ``analytic_thm14`` threshold: Theorem 14's f = 1/(r + t)^2, or ``fpr`` where f is not a
    usable level (the explicit form at alpha above ~0.009 has r + t < 2, f >= 1/4: no guarantee there)."""
    f = sizes["level_thm14"]
    return f if 0 < f < params.fpr else params.fpr


def in_region(n: int, m: int, sizes: dict) -> bool:
    """BCMNUW20 Theorem 13's proof covers n <= r, m <= t/2 - 1, t < n + m <= r + t, and n >= 11 (erratum)."""
    r, t = sizes["r"], sizes["t"]
    return n <= r and m <= t / 2 - 1 and t < n + m <= r + t and n >= 11


# ---------------------------------------------------------------- releases


def _combine(private_mean: np.ndarray, public: np.ndarray, n: int) -> np.ndarray:
    m = public.shape[0]
    if m == 0:
        return private_mean
    return (n * private_mean + public.sum(axis=0, dtype=np.float64)) / (n + m)


def _indices(data: np.ndarray) -> np.ndarray:
    """+-1 rows as indices of ``constructors.hypercube_points`` (x_i = -1 iff bit i is 1)."""
    bits = (1 - data.astype(np.int64)) // 2
    return bits @ (np.int64(1) << np.arange(data.shape[1], dtype=np.int64))


@functools.lru_cache(maxsize=4)
def _stumps(p: int):
    from algorithms.classes import constructors

    return constructors.decision_stumps(p)


def theorem_delta(n: int) -> float:
    """BCMNUW20 Theorem 13's delta = 1/(4n) (declared by the approximate-DP releases)."""
    return 1.0 / (4.0 * n)


def release(kind: str, private: np.ndarray, public: np.ndarray, params: Params, rng: np.random.Generator):
    """One release of the stumps' answers on (private, public): ``(answers (p,), guarantee or None)``, or None when
    the release needs public data and m = 0."""
    from algorithms.privacy.mechanisms import GaussianMechanism, LaplaceMechanism
    from algorithms.privacy import PureDP

    n, p, m = private.shape[0], private.shape[1], public.shape[0]
    xbar = private.mean(axis=0, dtype=np.float64)
    delta = theorem_delta(n)
    if kind == "exact":
        return _combine(xbar, public, n), None
    if kind == "zero":
        return np.zeros(p), PureDP(0.0)
    if kind == "laplace":
        noisy, g = LaplaceMechanism(2.0 * p / n, params.eps).release(xbar, rng)
        return _combine(noisy, public, n), g
    if kind in ("gaussian", NEGATIVE_CONTROL):
        mech = GaussianMechanism.analytic(2.0 * math.sqrt(p) / n, params.eps, delta)
        if kind == "gaussian":
            noisy, g = mech.release(xbar, rng)
        else:  # the broken variant: less noise than its declaration needs, the same declaration
            noisy, g = xbar + params.broken_noise * rng.normal(0.0, mech.sigma, size=p), mech.guarantee
        return _combine(noisy, public, n), g
    if kind == "public_only":
        if m == 0:
            return None
        if p <= MAX_FINITE_P:
            from algorithms.query_release.baselines import public_only

            return tuple(public_only(_indices(public), _stumps(p)))
        return public.mean(axis=0, dtype=np.float64), PureDP(0.0)
    if kind == "pmw":
        from algorithms.classes.implicit import Stumps
        from algorithms.query_release.pmw import pmw

        out, g = pmw(private, Stumps(p), params.alpha, params.alpha, params.eps, delta, rng)
        return out.answers, g
    if kind == "pap":
        if m == 0:
            return None
        from algorithms.classes.implicit import Stumps
        from algorithms.query_release.pap import a_pap

        out, g = a_pap(private, public, Stumps(p), params.alpha, params.alpha, params.eps, delta, rng)
        return out.answers, g
    raise ValueError(f"release {kind!r} unknown; allowed {', '.join(RELEASES)}")


def control_caught(summary: dict) -> bool:
    """Whether a control run was caught by what decides it: the attack's epsilon lower bound above the declared
    epsilon in some cell (``control_release.declaration_contradicted_in_cells``), not a claim's counts (the
    declaration's ``control_decided_by``, which the contract test checks)."""
    neg = summary.get("control_release")
    return isinstance(neg, dict) and neg["status"] == stats.VIOLATED and bool(neg["declaration_contradicted_in_cells"])


def at_least_theorem_private(g, n: int) -> bool:
    """Whether a declared guarantee implies (1, 1/(4n))-DP (PureDP eps <= 1, or ApproxDP eps <= 1, delta <= 1/(4n))."""
    from algorithms.privacy import ApproxDP, PureDP

    if isinstance(g, PureDP):
        return g.eps <= 1.0
    if isinstance(g, ApproxDP):
        return g.eps <= 1.0 and g.delta <= theorem_delta(n) * (1 + 1e-12)
    return False


def declared(g) -> dict | None:
    """A declared guarantee as JSON (None: no privacy claimed)."""
    if g is None:
        return None
    return {"kind": type(g).__name__, **{k: float(v) for k, v in vars(g).items()}}


# ---------------------------------------------------------------- one trial


def attack(q: np.ndarray, sizes: dict, params: Params, draws: dict, rng: np.random.Generator) -> dict:
    """The tracing attack with its four thresholds on one release's answers q (module docstring)."""
    x, w = draws["private"], draws["public"]
    m = w.shape[0]
    T = tracing.Attacker.build(q, draws["reference"], draws["center"] if params.center_draws else None)
    norm = T.norm
    s_priv = T.scores(x)
    s_pub = T.scores(w) if m else np.zeros(0)
    s_fresh = T.scores(draws["fresh"])
    taus = {"analytic_thm14": T.analytic_threshold(attack_level(sizes, params)),
            "analytic": T.analytic_threshold(params.fpr),
            "null": T.null_threshold(draws["null"], params.fpr)}
    i, j = draws["i_priv"], draws["i_pub"]
    designated = np.concatenate([x[i:i + 1], w[j:j + 1] if m else np.empty((0, x.shape[1]), np.int8),
                                 draws["fresh"][:1]])
    pv = T.sign_flip_pvalues(designated, params.num_flips, rng)
    s_des = {"private": float(s_priv[i]), "public": float(s_pub[j]) if m else None, "fresh": float(s_fresh[0])}
    decisions = {}
    for meth, tau in taus.items():
        d = {k: (None if v is None else bool(v > tau)) for k, v in s_des.items()}
        d.update({"pooled_in_private": int((s_priv > tau).sum()), "pooled_in_public": int((s_pub > tau).sum()),
                  "pooled_in_fresh": int((s_fresh > tau).sum()), "tau_over_norm": tau / norm if norm else None})
        decisions[meth] = d
    decisions["sign-flip"] = {"private": bool(pv[0] <= params.fpr),
                              "public": bool(pv[1] <= params.fpr) if m else None,
                              "fresh": bool(pv[-1] <= params.fpr)}
    a14 = decisions["analytic_thm14"]
    total_in = a14["pooled_in_private"] + a14["pooled_in_public"]
    k = params.roc_k
    scale = norm if norm > 0 else 1.0
    roc = {"private": (s_priv[:k] / scale).tolist(), "public": (s_pub[:k] / scale).tolist(),
           "fresh": (s_fresh[:k] / scale).tolist()}
    return {"decisions": decisions, "roc": roc, "in_private_thm14": a14["pooled_in_private"],
            "count_ge_half_t": bool(total_in >= sizes["t"] / 2), "count_ge_m_plus_1": bool(total_in >= m + 1)}


def run_cell(n: int, m: int, params: Params, sizes: dict, rng: np.random.Generator) -> dict:
    """Every release of ``params.releases`` and the attack on them, on one set of draws at (n, m)."""
    D = tracing.hard_distribution(params.p, params.bias_range, rng)
    draws = {"private": D.sample(n, rng), "public": D.sample(m, rng), "reference": D.sample(1, rng),
             "center": D.sample(params.center_draws, rng),
             "null": D.sample(params.null_draws, rng), "fresh": D.sample(params.fresh_draws, rng),
             "i_priv": int(rng.integers(n)), "i_pub": int(rng.integers(m)) if m else 0}
    out = {}
    for kind in params.releases:
        rel = release(kind, draws["private"], draws["public"], params, rng)
        if rel is None:
            continue
        q, g = rel
        q = np.clip(np.asarray(q, dtype=np.float64), -1.0, 1.0)  # post-processing: answers live in [-1, 1]
        err = float(np.max(np.abs(q - D.marginals)))
        out[kind] = {"error": err, "accurate": bool(err <= params.alpha), "declared": declared(g),
                     "theorem_private": at_least_theorem_private(g, n), **attack(q, sizes, params, draws, rng)}
    return out


def cell_key(n: int, m: int) -> str:
    return f"n={n},m={m}"


@dataclass(frozen=True)
class Decision:
    """One threshold's decisions on the designated private, public (None when m = 0) and fresh samples; for the
    score thresholds also the counts over the pooled samples above it."""
    private: bool
    public: bool | None
    fresh: bool
    pooled_in_private: int | None = None
    pooled_in_public: int | None = None
    pooled_in_fresh: int | None = None
    tau_over_norm: float | None = None


@dataclass(frozen=True)
class Guarantee:
    """A release's declared privacy (:func:`declared`): its class name and parameters."""
    kind: str
    eps: float
    delta: float | None = None


@dataclass(frozen=True)
class Roc:
    """The first ``roc_k`` scores of the private, public and fresh samples (scaled)."""
    private: tuple[float, ...]
    public: tuple[float, ...]
    fresh: tuple[float, ...]


@dataclass(frozen=True)
class Release:
    """One release in one cell: its error, accuracy, declared guarantee and the attack on it (``attack``)."""
    error: float
    accurate: bool
    declared: Guarantee | None
    theorem_private: bool
    decisions: dict[str, Decision]
    roc: Roc
    in_private_thm14: int
    count_ge_half_t: bool
    count_ge_m_plus_1: bool


@dataclass(frozen=True)
class Outcome:
    """One trial: per cell ``n=..,m=..`` (:func:`cell_key`), per release name."""
    cells: dict[str, dict[str, Release]]


def trial(params: Params, rng: np.random.Generator) -> dict:
    """Every cell of the (n, m) grid once, every release on the same draws (module docstring)."""
    sizes = run_sizes(params)
    cells = {cell_key(n, m): run_cell(n, m, params, sizes, rng) for n in params.n_grid for m in params.m_grid}
    return {"cells": cells}


# ---------------------------------------------------------------- summary


def _interval(k: int, T: int, confidence: float) -> dict:
    lo, hi = stats.clopper_pearson(k, T, confidence, "two-sided")
    return {"successes": int(k), "trials": int(T), "rate": k / T, "ci": [lo, hi]}


def epsilon_bound(tp: int, fp: int, T: int, delta: float, confidence: float) -> float:
    """eps_lb = log((TPR_lo - delta)/FPR_hi) (and the complementary direction), one-sided Clopper-Pearson bounds,
    each at 1 - (1 - confidence)/2 (``simulations.audit.epsilon_lower_bound``)."""
    from simulations.audit import epsilon_lower_bound

    level = 1 - (1 - confidence) / 2
    tpr_lo = stats.clopper_pearson(tp, T, level, "lower")[0]
    fpr_hi = stats.clopper_pearson(fp, T, level, "upper")[1]
    return float(epsilon_lower_bound(fpr_hi, 1.0 - tpr_lo, delta))


def _roc(rows: list[dict]) -> dict:
    pos = np.concatenate([r["roc"]["private"] for r in rows])
    neg = np.concatenate([r["roc"]["fresh"] for r in rows])
    _, fpr, tpr = tracing.roc_curve(pos, neg)
    keep = np.unique(np.linspace(0, fpr.size - 1, min(fpr.size, 101)).round().astype(int))
    return {"fpr": fpr[keep].tolist(), "tpr": tpr[keep].tolist(), "positives": int(pos.size),
            "negatives": int(neg.size)}


def summarise_cell(rows: list[dict], n: int, m: int, params: Params, sizes: dict, per_claim: float) -> dict:
    """One (release, cell): accuracy, TPR/FPR per threshold with intervals, epsilon lower bounds, counting step."""
    T = len(rows)
    conf = params.confidence
    bonf = 1 - (1 - conf) / len(METHODS)  # epsilon_bound splits each method's share over its 2 one-sided bounds
    g = rows[0]["declared"]
    g_delta = 0.0 if g is None else g.get("delta", 0.0)
    out = {"declared": g, "theorem_private": rows[0]["theorem_private"],
           "accuracy": _interval(sum(r["accurate"] for r in rows), T, conf),
           "error_mean": float(np.mean([r["error"] for r in rows])),
           "error_max": float(np.max([r["error"] for r in rows])), "methods": {}}
    best, best_thm = 0.0, 0.0
    for meth in METHODS:
        ds = [r["decisions"][meth] for r in rows]
        tp = sum(d["private"] for d in ds)
        fp = sum(d["fresh"] for d in ds)
        entry = {"tpr_private": _interval(tp, T, conf), "fpr": _interval(fp, T, conf)}
        if m:
            entry["tpr_public"] = _interval(sum(d["public"] for d in ds), T, conf)
        if "pooled_in_private" in ds[0]:
            entry["pooled"] = {"tpr_private": sum(d["pooled_in_private"] for d in ds) / (T * n),
                               "tpr_public": (sum(d["pooled_in_public"] for d in ds) / (T * m)) if m else None,
                               "fpr": sum(d["pooled_in_fresh"] for d in ds) / (T * params.fresh_draws),
                               "mean_in_private": sum(d["pooled_in_private"] for d in ds) / T,
                               "mean_in_public": sum(d["pooled_in_public"] for d in ds) / T}
        entry["eps_lb_declared_delta"] = epsilon_bound(tp, fp, T, g_delta, bonf) if g is not None else None
        entry["eps_lb_theorem_delta"] = epsilon_bound(tp, fp, T, theorem_delta(n), bonf)
        best = max(best, entry["eps_lb_declared_delta"] or 0.0)
        best_thm = max(best_thm, entry["eps_lb_theorem_delta"])
        out["methods"][meth] = entry
    out["eps_lb"] = best if g is not None else None
    out["eps_lb_theorem_delta"] = best_thm
    out["contradicts_theorem_privacy"] = bool(best_thm > 1.0)
    out["contradicts_declared"] = bool(g is not None and best > g["eps"])
    out["counting"] = {"count_ge_half_t": _interval(sum(r["count_ge_half_t"] for r in rows), T, conf),
                       "count_ge_m_plus_1": _interval(sum(r["count_ge_m_plus_1"] for r in rows), T, conf),
                       "target": 1 - sizes["level_thm14"]}
    out["roc"] = _roc(rows)
    # whether this release is (alpha, alpha)-accurate here: a baseline record, never a verdict
    out["accurate_record"] = contract.baseline(out["accuracy"]["successes"], T, 1 - params.alpha, conf)
    return out


def theorem_claim(v: dict, kind: str, n: int, m: int, judged: bool, params: Params, per_claim: float) -> dict:
    """Theorem 13's claim on one declared-(1, 1/(4n))-DP release at (n, m): Pr[error > alpha] > alpha, judged only
    where ``judged`` (in the region and informative), else ``below-bound``. The paper-covered private releases'
    claims are verdicts; q = 0's is a floor check (it can fail only through a bug); the broken control's is a plain
    record (kind ``negative control``, not a claim: it is expected to fail), also listed in ``negative_control``."""
    T = v["accuracy"]["trials"]
    inacc = T - v["accuracy"]["successes"]
    ck = contract.VERDICT if kind in PRIVATE_RELEASES and kind != "zero" else contract.FLOOR_CHECK
    c = contract.claim(inacc, T, params.alpha, params.confidence, per_claim_confidence=per_claim,
                       at_bound=judged, kind=ck,
                       label=f"Theorem 13 at n={n}, m={m}: {kind} is not (alpha, alpha)-accurate")
    if kind == NEGATIVE_CONTROL:  # the broken release's claim is expected to fail: reported, never a claim record
        return {"claim": c["label"], "verdict": c["verdict"], "text": c["verdict_text"], "inaccurate": inacc,
                "trials": T, "kind": "negative control"}
    return c


def _control_release(cells: dict, params: Params, T: int) -> dict | None:
    """The control release's record (None when it did not run): where the attack's epsilon lower bound
    contradicts its declaration (what decides a control run: :func:`control_caught`)."""
    neg = {key: c["releases"][NEGATIVE_CONTROL] for key, c in cells.items() if NEGATIVE_CONTROL in c["releases"]}
    if not neg:
        return None
    caught = sorted(key for key, v in neg.items() if v["contradicts_declared"])
    return {"release": NEGATIVE_CONTROL, "broken_noise": params.broken_noise,
            "claim": "the attack's epsilon lower bound stays <= the declared epsilon (1, at delta = 1/(4n))",
            "status": stats.VIOLATED if caught else stats.INCONCLUSIVE,
            "declaration_contradicted_in_cells": caught, "cells": len(neg),
            "power": {"broken_noise": params.broken_noise, "max_eps_lb": max(v["eps_lb"] for v in neg.values()),
                      "text": (f"at {params.broken_noise:g} x the Gaussian's noise the attack contradicts "
                               f"the declaration in {len(caught)} of {len(neg)} cells at {T} trials")},
            "theorem_claims": {key: v.get("theorem_claim") for key, v in neg.items()}}


def _verdict_text(sizes: dict, params: Params, T: int, k: int, n_inf: int, n_claims: int, region_keys: list,
                  negative: dict | None) -> str:
    """The verdict in words: the claims judged in the informative region cells, or why none is."""
    consts = (f"explicit r = {sizes['r']:.4g}, t = {sizes['t']:.4g}" if params.form == "explicit" else
              f"C_14r = {params.c_14r:g}, C_14t = {params.c_14t:g}: r = {sizes['r']:.4g}, t = {sizes['t']:.4g}")
    text = (f"Theorem 13 ({consts}) on {k} claims 'a (1, 1/(4n))-DP release is not "
            f"(alpha, alpha)-accurate' in {n_inf} informative region cells (some release accurate there), {T} "
            f"trials, {100 * params.confidence:g}% confidence (Bonferroni over {n_claims} claims)")
    if not region_keys:
        text = (f"no cell of the grid lies in Theorem 13's region ({consts}; n <= r, m <= t/2 - 1,"
                f" t < n + m, n >= 11): measurements only")
        if params.form == "explicit":
            text += (". At its explicit constants the region is empty at every size a simulation reaches (an "
                     "accurate release needs n + m ~ 2 ln(2p/alpha)/alpha^2, inside n + m <= r + t only from p ~ "
                     "1e13): no verdict is possible there; form=asymptotic draws it at the hidden constants")
    elif not k:
        text = (f"{len(region_keys)} region cells ({consts}), none informative: no release, "
                f"private or not, is (alpha, alpha)-accurate there, so the claim cannot fail (q = 0 meets it as well "
                f"as any release): measurements only")
    if params.variant in NEGATIVE_CONTROLS and negative is not None:
        text = f"{negative['claim']}: {negative['power']['text']} (must be violated); {text}"
    return text


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Per cell and release: the measurements and verdicts of the module docstring."""
    sizes = run_sizes(params)
    T = len(records)
    keys = [(n, m) for n in params.n_grid for m in params.m_grid]
    region_keys = [(n, m) for (n, m) in keys if in_region(n, m, sizes)]
    n_claims = max(1, len(region_keys) * len(params.releases))
    per_claim = 1 - (1 - params.confidence) / n_claims
    cells, informative = {}, {}
    for n, m in keys:
        key = cell_key(n, m)
        rel = {}
        for kind in params.releases:
            rows = [r["cells"][key][kind] for r in records if kind in r["cells"][key]]
            if rows:
                rel[kind] = summarise_cell(rows, n, m, params, sizes, per_claim)
        region = in_region(n, m, sizes)
        accurate = sorted(k for k, v in rel.items() if v["accurate_record"]["status"] == contract.SUCCEEDS)
        informative[key] = bool(region and accurate)  # computed from the records: some release is accurate here
        for kind, v in rel.items():
            if v["theorem_private"]:
                v["theorem_claim"] = theorem_claim(v, kind, n, m, informative[key], params, per_claim)
        private = {k: v["accurate_record"] for k, v in rel.items() if k in PRIVATE_RELEASES}
        best = max(private, key=lambda k: private[k]["rate"]) if private else None
        cells[key] = {"n": n, "m": m, "in_region": region, "informative": informative[key],
                      "accurate_releases": accurate, "releases": rel,
                      # the lower bound's strongest opponent: the declared-private release closest to accurate here
                      "strongest_opponent": None if best is None else {
                          "name": best, "status": private[best]["status"],
                          "failed": private[best]["status"] == contract.FAILS}}
    verdicts = [v["theorem_claim"] for c in cells.values() for k, v in c["releases"].items()
                if "theorem_claim" in v and v["theorem_claim"]["kind"] == contract.VERDICT]
    in_claims = [c["verdict"] for c in verdicts if c["verdict"] != stats.BELOW_BOUND]
    floor_bad = [f"{k} at {key}" for key, c in cells.items() for k, v in c["releases"].items()
                 if k in PRIVATE_RELEASES and v["contradicts_declared"]]
    negative = _control_release(cells, params, T)
    judged = in_claims
    if params.variant in NEGATIVE_CONTROLS and negative is not None:  # the run is judged by its control
        judged = [negative["status"]]
    text = _verdict_text(sizes, params, T, len(in_claims), sum(informative.values()), n_claims, region_keys,
                         negative)
    return contract.Judgement(claims=judged, text=text, regime=informative, measurements={
        "result_id": "bcmnuw20:thm13",
        "claim": ("Theorem 13: at n <= r, m <= t/2 - 1 (r, t of Theorem 14) an (alpha, alpha)-accurate release of S_p "
                  "is not (1, 1/(4n))-DP; Theorem 14: the attacker says IN on >= t/2 samples and OUT on a fresh one"),
        "bound_source": (f"bounds.compute('bcmnuw20:thm14', alpha={params.alpha}, dual_vc={params.p}"
                         + (f", form='asymptotic', constants={{'C_14r': {params.c_14r}, 'C_14t': {params.c_14t}}}"
                            if params.form == "asymptotic" else "")
                         + "): range_r, traced_t, failure_probability; bounds.compute('bcmnuw20:thm13', ...): "
                         "private_samples, public_samples"),
        "form": params.form,
        "sizes": sizes, "p": params.p, "alpha": params.alpha, "bias_range": params.bias_range,
        "signal_floor": tracing.signal_floor(params.alpha, params.bias_range),
        "eps": params.eps, "fpr": params.fpr, "trials": T, "confidence": params.confidence,
        "per_claim_confidence": per_claim, "methods": list(METHODS), "releases": list(params.releases),
        "n_grid": list(params.n_grid), "m_grid": list(params.m_grid),
        "cells": cells,
        "privacy_floor_check": {"status": stats.FLOOR_CHECK, "passed": not floor_bad, "failures": floor_bad},
        "attack_level_thm14": attack_level(sizes, params),
        "control_release": negative})


EXPERIMENT = contract.Experiment(
    name="thm13", results=("bcmnuw20:thm13", "bcmnuw20:thm14"),
    section="lower-bounds",
    description=("Robust tracing attack (BCMNUW20 Thm 14) on exact, Laplace, Gaussian, public-only, PMW and A_PAP "
                 "releases of decision stumps over a grid of (n, m), beside Theorem 13's region"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(40, {"p": 1000, "alpha": 0.2, "bias_range": 0.4, "n_grid": "32", "m_grid": "0",
                           "releases": "exact,laplace,gaussian,gaussian_broken", "null_draws": 19, "num_flips": 19,
                           "fresh_draws": 50, "center_draws": 50}),
    # a lower bound's regime flag: a cell is informative where some release (the exact mean) is shown (alpha,
    # alpha)-accurate; computed from the records, and the test that checks it against them
    opponents=contract.LowerBoundRegime("tests/simulations/test_thm13.py::"
                                        "test_informative_follows_from_the_records_and_the_claim_can_fail_there"),
    controls=NEGATIVE_CONTROLS, control_decided_by=control_caught,
)
