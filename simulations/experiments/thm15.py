"""BCMNUW20 Theorem 15 (with Lemma 17): a PAP query-release algorithm for a class of infinite Littlestone dimension
needs m = Omega(1/alpha) public samples, however many private ones it has. Probed on thresholds over a fine grid
of N points (Littlestone dimension floor(log2(N + 1)), unbounded as N grows) with A_PAP (BCMNUW20 Alg 3).

Sizes from ``bounds``: the line m_min = ``public_samples`` of ``bounds.compute("bcmnuw20:thm15", form="asymptotic",
alpha, constants={"C_15": c_15})`` = C_15/alpha (C_15 is not pinned down in either version; the explicit form,
C_15 = 1/1600 via ABM19 Theorem 4.1, holds for alpha <= 1/100 and a release of the labelled class only:
docs/ERRATA.md); the private
sample n = min(n_scale * Theorem 10's n, n_max) (``simulations.experiments.thm10.theorem_sizes`` at d = p = 1, the
machine limit stated in the summary), far more private data than the public bottleneck needs.

One trial, for every value v of ``m_alpha_grid``: m = ceil(v/alpha) public samples, and the law of the trial
(``marginal``, :func:`hard_law`). By default (``abm19``) it is the law ABM19's lower bound (Lemma 4.4, the route of
Theorem 15's proof) runs a semi-private learner with m public samples on: the mixture p D + (1 - p) D_0 with p =
1/(100 m), D realizable (two adjacent grid points split by a threshold h* drawn per trial), D_0 uniform points with
uniform labels; its marginal hides D's points from m public samples (seen w.p. <= 1/100) while their mass p > 16 alpha
below the explicit line separates thresholds no public cover splits. ``uniform``: D_X uniform on the N grid points,
labels by h* (realizable). On the same draws:

1. query release: A_PAP(x, w, thresholds(N), alpha, beta, eps, delta); its exact error Err_{D_X,H}(G)
   (``algorithms.evaluation.true_error``) and whether it is <= alpha;
2. Lemma 17's learner (``algorithms.adversaries.query_to_learner``) built on A_PAP over the labelled class
   H^+-: its hypothesis's exact excess error err_D(h_hat) - min_h err_D(h), and the reduction's inequality
   excess <= Err_{D,H^+-}(G) (a floor check: only a bug can fail it);
3. the public-only baseline (the empirical means of w) on the same w: its error, for comparison;
4. the chain of Theorem 15's proof (``with_b``): ABM19's public-data reduction B (Lemma 4.4,
   ``algorithms.adversaries.public_reduction.reduction_b``) wrapped around the learner of step 2, with
   n_priv = n, n_pub = m and B's own private sample S~ of size ``input_size(n, m)`` drawn from the realizable D
   (under ``abm19``: the mixture's realizable part; B mixes it with D_0 itself): a learner
   that uses no public data at all. Its exact error err_D (realizable: its excess error) is what ABM19 Claim
   4.6 relates to the learner's excess error on the mixture D_(p) (times 1/p = 100 m); B's learner is
   fully private, and privately learning thresholds on an unbounded grid is impossible (ABM19 Thm 4.1 via
   ALMM19), which is the contradiction the proof draws below the line.

The regime (erratum bcmnuw20-thm15-regime). At its explicit constant (``form="explicit"``, the default: C_15 =
1/1600, m_min = floor(1/(1600 alpha)) + 1) the theorem is proven for alpha <= 1/100, beta <= 1/22, eps <= 0.1 and
delta <= 1/(100 n'^2 log n') with n' >= n (Lemma 17's sample; checked here at n, a necessary condition); at alpha >=
1/1600 its line is m < 1, so no public size lies below it. It is a statement about classes of infinite Littlestone
dimension: a finite grid stands in for one only where private learning alone cannot release it. So in the same
trials the private-only releases (PMW on the whole grid and the binary tree, no public data, same (eps, delta), on
the same private sample) run, judged by the same code (``private_only_accurate``, ``tree_accurate``, each a
``contract.baseline`` against 1 - beta): where one does not *fail*, the grid is a finite class private learning
handles, outside the theorem, and the cell is ``below-bound`` with the reason (``outside_regime``), never
``violated``. A lower bound's claim counts only where the non-private release is accurate: the exact answers of the
private and public points pooled (``nonprivate``) must *succeed* in the cell, else a failure there is sampling error
at this n, not privacy or the public bottleneck, and the cell is ``below-bound`` too. ``informative`` (per public
size) is computed from those records. ``form="asymptotic"`` draws the line at C_15/alpha (``c_15``) and applies only the
private-only gate (the privacy regime's constants are then unknown). A_PAP and the private-only release read the
private data as counts (``thm10.private_sample``: PointCounts), so they run at Theorem 10's own n up to 2^53;
Lemma 17's learner and B read single points and run at ``min(n, n_max)``.

Verdicts (``summarise``). Theorem 15 says that below the line (m < C_15/alpha) no algorithm is (alpha, beta)-accurate
on every distribution; on the distribution used here the claim "Pr[Err > alpha] > beta" is judged by
``simulations.stats.verdict`` (Bonferroni over the claims) at those m only; "violated" there would mean this D
is not hard for A_PAP at that m (not a contradiction of the theorem, which is a statement about the worst D).
At m >= C_15/alpha the theorem asserts nothing: ``below-bound`` (measurements). The negative control
(``variant="true_answers"``, :data:`NEGATIVE_CONTROLS`; in CI) replaces A_PAP's answers by the true answers E_D[h] (a
release that cheats by
reading D): it must come out ``violated`` below the line, in the regime (the contract test's CI run: 118 private
samples on 256 points, where private learning alone fails).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from simulations import distributions as dist
from simulations import contract, stats
from simulations.experiments import Confidence, Controlled, param

FORMS = ("explicit", "asymptotic")
#: the law of a trial (``hard_law``): ABM19's mixture (the distribution its lower bound is proven on) or D_X uniform
MARGINALS = ("abm19", "uniform")

NEGATIVE_CONTROLS = {"true_answers": "A_PAP's answers replaced by the true answers E_D[h] (a release that reads D)"}


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    num_points: int = param(4096, "grid size N of the thresholds", within="[16, 65536]")
    alpha: float = param(0.25, "accuracy alpha", within="(0, 1)")
    beta: float = param(0.1, "failure probability beta", within="(0, 1)")
    eps: float = param(0.9, "privacy eps (Theorem 10's domain, for its n)", within="(0, 1)")
    delta: float = param(1e-6, "privacy delta", within="(0, 1)")
    m_alpha_grid: tuple = param((0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0),
                                "comma-separated values of m * alpha; m = ceil(value / alpha)", within="(0, inf)")
    n_scale: float = param(1.0, "factor on Theorem 10's private n", within="(0, inf)")
    n_max: int = param(5_000_000, "largest private sample per run (machine limit)", within="[1, inf)")
    form: str = param("explicit", "Theorem 15's line: explicit (C_15 = 1/1600, its regime checked) or asymptotic "
                      "(at c_15)", choices=FORMS)
    c_15: float = param(1.0, "with form=asymptotic: Theorem 15's hidden constant C_15 in m_min = C_15/alpha",
                        within="(0, inf)")
    with_b: bool = param(True, "also run the chain of the proof: ABM19's reduction B around Lemma 17's learner")
    marginal: str = param("abm19", "the law D: abm19 = ABM19 Lemma 4.4's mixture p D + (1 - p) D_0, p = 1/(100 m) "
                          "(D on two adjacent points split by h*, D_0 uniform points with uniform labels); uniform = "
                          "D_X uniform, labels by h*", choices=MARGINALS)


@functools.lru_cache(maxsize=32)
def theorem_sizes(params: Params) -> dict:
    """Theorem 15's m_min = C_15/alpha and the private n (Theorem 10's, scaled and capped), from ``bounds``."""
    from simulations.experiments import thm10

    kw = {"form": "asymptotic", "constants": {"C_15": params.c_15}} if params.form == "asymptotic" else {}
    c = contract.required_sizes("bcmnuw20:thm15", {"m_min": "public_samples"}, alpha=params.alpha, **kw)
    s10 = thm10.theorem_sizes(params.alpha, params.beta, params.eps, params.delta, 1, 1)
    n_counts = max(1, min(int(math.ceil(params.n_scale * s10["n_bound"])), thm10.MAX_PRIVATE_POINTS))
    n = min(n_counts, params.n_max)
    return {**c, "n_bound_thm10": s10["n_bound"], "n_counts": n_counts, "n": n}


def privacy_regime(params: Params, n: int) -> list[str]:
    """The explicit form's side conditions that fail at these parameters (erratum bcmnuw20-thm15-regime), in words;
    empty when they all hold (or with form=asymptotic, whose constants are unknown)."""
    if params.form != "explicit":
        return []
    out = []
    if params.alpha > 0.01:
        out.append(f"alpha = {params.alpha:g} > 1/100")
    if params.beta > 1 / 22:
        out.append(f"beta = {params.beta:g} > 1/22")
    if params.eps > 0.1:
        out.append(f"eps = {params.eps:g} > 0.1")
    if n > 1 and params.delta > 1 / (100 * n**2 * math.log(n)):
        out.append(f"delta = {params.delta:g} > 1/(100 n^2 log n) at n = {n}")
    return out


def public_size(value: float, alpha: float) -> int:
    """m = ceil(value / alpha) for a grid value of m * alpha (at least 1)."""
    return max(1, int(math.ceil(value / alpha - 1e-9)))


@functools.lru_cache(maxsize=4)
def _thresholds(N: int):
    from algorithms.classes import constructors

    return constructors.thresholds(N)


def hard_law(params: Params, m: int, rng: np.random.Generator):
    """The law of one trial at public size m: (D_X, Pr[y = +1 | x], the realizable part D, its labels h*).

    ``uniform``: D_X uniform on the N grid points, labels h*(x) = +1 iff x < j*, j* uniform in [1, N).
    ``abm19`` (ABM19 Lemma 4.4, Claim 4.6: the law a semi-private learner with m public samples is run on): the mixture
    D_(p) = p D + (1 - p) D_0 with p = 1/(100 m); D_0 = uniform points with uniform labels (ABM19's dummy
    distribution, its x-law uniform as in ``public_reduction``), D = the realizable part, uniform on two adjacent
    points x*, x* + 1 (x* uniform in [0, N - 2]) labelled by h* with j* = x* + 1 (h*(x*) = +1, h*(x* + 1) = -1).
    The m public samples see D's points with probability <= 1 - (1 - p)^m <= 1/100, so a cover from them cannot
    split the thresholds between x* and x* + 1, whose answers differ by p + (1 - p)/N > 16 alpha below the explicit
    line m < 1/(1600 alpha); ABM19's lower bound itself (through ALMM18) is existential, this D is the workbench's
    instance of its mixture.
    """
    N = params.num_points
    if params.marginal == "uniform":
        j_star = int(rng.integers(1, N))          # h*(x) = +1 iff x < j*: hypothesis j* of thresholds(N)
        labels = np.where(np.arange(N) < j_star, 1, -1)
        D = dist.uniform(N)
        return D, (labels == 1).astype(float), D, labels
    x_star = int(rng.integers(0, N - 1))
    labels = np.where(np.arange(N) < x_star + 1, 1, -1)
    real = np.zeros(N)
    real[[x_star, x_star + 1]] = 0.5
    D_real = dist.Distribution(real, f"two points {x_star}, {x_star + 1}")
    p = 1.0 / (100 * m)
    D = dist.mixture([D_real, dist.uniform(N)], [p, 1 - p])
    eta = (p * real * (labels == 1) + (1 - p) * 0.5 / N) / D.probs
    return D, eta, D_real, labels


def _draw_labels(eta: np.ndarray, x: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """+-1 labels of the points x with Pr[+1] = eta[x]; no draw where the labels are deterministic (the uniform
    law's stream is unchanged)."""
    e = eta[x]
    if np.all((e == 0) | (e == 1)):
        return np.where(e == 1, 1, -1)
    return np.where(rng.random(x.size) < e, 1, -1)


def _tree_and_exact(H, D, counts, w, params: Params, rng: np.random.Generator) -> tuple[float, float]:
    """The two releases the verdict is read against besides PMW: the binary tree on the grid (private-only, the
    same (eps, delta); ``algorithms.opponents``), and the exact answers of the private and public points pooled
    (no privacy: where they fail, the cell measures sampling error at this n, not privacy or the public bottleneck)."""
    from algorithms import opponents as op
    from algorithms.evaluation import true_answers, true_error

    data = op.GridData.from_histogram(counts.counts)
    tree = op.TreeMechanism(data.levels, params.eps, params.delta)
    t = tree.thresholds(data, np.arange(H.num_points + 1), rng).value
    n = counts.n
    pooled = op.exact_pooled(true_answers(H, counts.counts / n), n,
                             true_answers(H, np.bincount(w, minlength=H.num_points) / w.size), w.size).value
    return true_error(H, D.probs, t), true_error(H, D.probs, np.clip(pooled, -1, 1))


def run_size(m: int, params: Params, n: int, rng: np.random.Generator, n_counts: int | None = None) -> dict:
    """One draw at public size m: A_PAP's release error, Lemma 17's learner's excess error, public-only's error."""
    from algorithms.adversaries import query_to_learner as q2l
    from algorithms.evaluation import true_answers, true_error
    from algorithms.query_release.baselines import public_only
    from algorithms.query_release.pap import a_pap
    from simulations.experiments.thm10 import private_sample

    H = _thresholds(params.num_points)
    D, eta, D_real, real_labels = hard_law(params, m, rng)
    w = D.sample(m, rng)
    x = private_sample(D, n, rng).indices()   # Lemma 17's learner reads single labelled points
    counts = private_sample(D, n_counts or n, rng)   # A_PAP and PMW read counts: Theorem 10's n fits
    args = (params.alpha, params.beta, params.eps, params.delta)

    from algorithms.query_release.pmw import pmw

    rel = a_pap(counts, w, H, *args, rng)
    answers = true_answers(H, D.probs) if params.variant == "true_answers" else rel.value.answers
    err = true_error(H, D.probs, answers)
    priv_err = true_error(H, D.probs, pmw(counts, H, *args, rng).value.answers)   # no public data
    tree_err, exact_err = _tree_and_exact(H, D, counts, w, params, rng)

    D_z = q2l.labelled_distribution(D.probs, eta)
    lab = q2l.labelled_class(H)

    def release_fn(s, w_z, cls, rng_):
        out = a_pap(s, w_z, cls, *args, rng_)
        if params.variant == "true_answers":
            return true_answers(cls, D_z), out.guarantee
        return out

    x_y, w_y = _draw_labels(eta, x, rng), _draw_labels(eta, w, rng)
    learned = q2l.learner_from_release(release_fn)(x, x_y, w, w_y, H, rng)
    errors = q2l.population_errors(H, D_z)
    excess = float(errors[learned.value.hypothesis] - errors.min())
    g_learn = np.asarray(getattr(learned.value.release, "answers", learned.value.release), dtype=np.float64)
    lab_err = true_error(lab, D_z, np.clip(g_learn, -1, 1))
    pub_err = true_error(H, D.probs, public_only(w, H).value)
    out = {"m": int(m), "error": err, "accurate": bool(err <= params.alpha),
           "learner_excess": excess, "learner_ok": bool(excess <= params.alpha),
           "labelled_release_error": lab_err,
           "reduction_holds": bool(excess <= q2l.excess_bound(lab_err) + 1e-12),
           "public_only_error": pub_err, "spent_eps": float(rel.guarantee.eps),
           "private_only_error": priv_err, "private_only_accurate": bool(priv_err <= params.alpha),
           "tree_error": tree_err, "tree_accurate": bool(tree_err <= params.alpha),
           "exact_pooled_error": exact_err, "exact_pooled_accurate": bool(exact_err <= params.alpha)}
    if params.with_b:   # B learns the realizable part D (ABM19 Claim 4.6): its S~ and its error are on D
        real_errors = errors if params.marginal == "uniform" else q2l.population_errors(
            H, q2l.labelled_distribution(D_real.probs, (real_labels == 1).astype(float)))
        out.update(chain_b(release_fn, H, D_real, real_labels, real_errors, m, n, rng))
    return out


def chain_b(release_fn, H, D, labels: np.ndarray, errors: np.ndarray, m: int, n: int,
            rng: np.random.Generator) -> dict:
    """Theorem 15's chain: ABM19's B (n_priv = n, n_pub = m) around Lemma 17's learner on ``release_fn``; B's private
    sample S~ of ABM19's size ``input_size(n, m)`` from D, labelled by h*. Returns B's exact error on D."""
    from algorithms.adversaries import public_reduction as pr
    from algorithms.adversaries import query_to_learner as q2l
    from algorithms.privacy import Release

    learner = q2l.learner_from_release(release_fn)

    def semi_private(px, py, wx, wy, rng_):  # B hands labels in {0, 1}; the learner takes +-1
        out, g = learner(px, 2 * np.asarray(py) - 1, wx, 2 * np.asarray(wy) - 1, H, rng_)
        return Release(out.hypothesis, g)

    n_tilde = pr.input_size(n, m)
    s_x = D.sample(n_tilde, rng)
    res = pr.reduction_b(semi_private, s_x, labels[s_x], n_priv=n, n_pub=m, num_points=H.num_points, rng=rng)
    b_err = float(errors[res.value.hypothesis] - errors.min())
    return {"b_error": b_err, "b_input_size": int(n_tilde), "b_ran_out": bool(res.value.ran_out),
            "b_p": float(res.value.p)}


@dataclass(frozen=True)
class Size:
    """One public size m (``run_size``); the ``b_`` fields only with ``with_b``."""
    m: int
    error: float
    accurate: bool
    learner_excess: float
    learner_ok: bool
    labelled_release_error: float
    reduction_holds: bool
    public_only_error: float
    spent_eps: float
    private_only_error: float
    private_only_accurate: bool
    tree_error: float | None = None
    tree_accurate: bool | None = None
    exact_pooled_error: float | None = None
    exact_pooled_accurate: bool | None = None
    b_error: float | None = None
    b_input_size: int | None = None
    b_ran_out: bool | None = None
    b_p: float | None = None


@dataclass(frozen=True)
class Outcome:
    """One trial: per value of m * alpha (as a string)."""
    sizes: dict[str, Size]


def trial(params: Params, rng: np.random.Generator) -> dict:
    """Every value of m * alpha once (module docstring)."""
    z = theorem_sizes(params)
    return {"sizes": {str(v): run_size(public_size(v, params.alpha), params, z["n"], rng, z["n_counts"])
                      for v in params.m_alpha_grid}}


def _b_summary(rs: list[dict], params: Params, T: int) -> dict:
    """B's error (the chain of the proof) for one public size, when it was run."""
    if "b_error" not in rs[0]:
        return {}
    k = sum(r["b_error"] <= params.alpha for r in rs)
    return {"b_error_mean": float(np.mean([r["b_error"] for r in rs])),
            "b_ok": {"successes": k, "trials": T, "rate": k / T,
                     "ci": list(stats.clopper_pearson(k, T, params.confidence, "two-sided"))},
            "b_ran_out_rate": sum(r["b_ran_out"] for r in rs) / T, "b_input_size": rs[0]["b_input_size"],
            "b_p": rs[0]["b_p"]}


def summarise_size(v: float, rs: list[dict], params: Params, sizes: dict, informative: bool, regime: dict,
                   regime_fails: list[str], per_claim: float) -> dict:
    """One public size m = v/alpha: the lower bound's prediction (a verdict below the line in the theorem's
    regime), errors, accuracy and the learner's rates with intervals, B's chain when it ran. ``regime``: this
    size's records of the private-only releases (PMW, the tree) and of the non-private release (``_regime``)."""
    T = len(rs)
    m = rs[0]["m"]
    inacc = sum(not r["accurate"] for r in rs)
    under = m < sizes["m_min"]
    prediction = contract.claim(inacc, T, params.beta, params.confidence, per_claim_confidence=per_claim,
                                at_bound=under and informative,
                                label=f"m alpha = {v:g}: A_PAP's error exceeds alpha w.p. > beta")
    outside = None
    private_only, tree, nonprivate = regime["private_only"], regime["tree"], regime["nonprivate"]
    if under and not informative:
        outside = ("outside the privacy regime Theorem 15 is proven for: " + ", ".join(regime_fails)
                   if regime_fails else
                   "a private-only release (PMW or the tree, no public data) is not shown to fail here: "
                   "a finite class private learning handles, outside what Theorem 15 covers"
                   if (private_only or {}).get("status") != contract.FAILS
                   or (tree or {"status": contract.FAILS})["status"] != contract.FAILS else
                   "the exact non-private answers (private and public pooled) are not shown to succeed here: a "
                   "failure would be sampling error at this n, not privacy or the public bottleneck")
    ci_acc = stats.clopper_pearson(T - inacc, T, params.confidence, "two-sided")
    k_learn = sum(r["learner_ok"] for r in rs)
    errs = np.array([r["error"] for r in rs])
    return {
        "m_alpha": v, "m": m, "below_line": under,
        "error_mean": float(errs.mean()), "error_median": float(np.median(errs)), "error_max": float(errs.max()),
        "accuracy": {"successes": T - inacc, "trials": T, "rate": (T - inacc) / T, "ci": list(ci_acc)},
        "learner_excess_mean": float(np.mean([r["learner_excess"] for r in rs])),
        "learner_ok": {"successes": k_learn, "trials": T, "rate": k_learn / T,
                       "ci": list(stats.clopper_pearson(k_learn, T, params.confidence, "two-sided"))},
        "public_only_error_mean": float(np.mean([r["public_only_error"] for r in rs])),
        "private_only_accurate": private_only, "tree_accurate": tree, "nonprivate": nonprivate,
        "informative": informative, "outside_regime": outside,
        "reduction_floor_check": all(r["reduction_holds"] for r in rs),
        **_b_summary(rs, params, T),
        "claim": "Pr[Err_{D,H}(G) > alpha] > beta (A_PAP not (alpha, beta)-accurate on this D)",
        "status": prediction["verdict"], "verdict_text": prediction["verdict_text"], "prediction": prediction,
    }


def _regime(records: list[dict], params: Params, regime_fails: list[str]) -> tuple[dict, dict]:
    """Per m * alpha, the records of the private-only releases (PMW, the tree) and of the non-private release, and
    the regime flag: the grid stands in for an infinite-Littlestone class only where private learning alone fails
    (and the privacy regime holds), and a failure there is the public bottleneck's only where the non-private
    release succeeds."""
    T, records_of, informative = len(records), {}, {}
    for v in params.m_alpha_grid:
        rs = [r["sizes"][str(v)] for r in records]

        def rate(key, rs=rs):
            return contract.baseline(sum(r[key] for r in rs), T, 1 - params.beta, params.confidence)

        rec = {"private_only": rate("private_only_accurate") if "private_only_accurate" in rs[0] else None,
               "tree": rate("tree_accurate") if rs[0].get("tree_accurate") is not None else None,
               "nonprivate": rate("exact_pooled_accurate") if rs[0].get("exact_pooled_accurate") is not None
               else None}
        records_of[v] = rec
        informative[v] = bool(not regime_fails and rec["private_only"] is not None
                              and rec["private_only"]["status"] == contract.FAILS
                              and (rec["tree"] is None or (rec["tree"]["status"] == contract.FAILS
                                                           and rec["nonprivate"]["status"] == contract.SUCCEEDS)))
    return records_of, informative


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Per m * alpha: error distributions, accuracy and learner rates with intervals, and the verdicts."""
    sizes = theorem_sizes(params)
    T = len(records)
    regime_fails = privacy_regime(params, sizes["n_counts"])
    records_of, informative = _regime(records, params, regime_fails)
    below = [v for v in params.m_alpha_grid if public_size(v, params.alpha) < sizes["m_min"]]
    judged_cells = [v for v in below if informative[v]]
    per_claim = 1 - (1 - params.confidence) / max(1, len(judged_cells))
    rows = [summarise_size(v, [r["sizes"][str(v)] for r in records], params, sizes, informative[v], records_of[v],
                           regime_fails, per_claim) for v in params.m_alpha_grid]
    judged = [r["status"] for r in rows if r["below_line"] and r["informative"]]
    c15 = "C_15 = 1/1600, explicit" if params.form == "explicit" else f"C_15 = {params.c_15:g}"
    n_out = sum(1 for r in rows if r["outside_regime"])
    text = (f"Theorem 15 below its line m < {sizes['m_min']:.4g} ({c15}) on {len(judged)} public sizes in "
            f"its regime, {T} trials, {100 * params.confidence:g}% confidence (Bonferroni); A_PAP and the private-only "
            f"release at n = {sizes['n_counts']} (Theorem 10's n = {sizes['n_bound_thm10']}, x {params.n_scale:g}), "
            f"Lemma 17's learner at n = {sizes['n']}")
    if n_out:
        text += (f"; {n_out} public sizes below the line are outside the theorem's regime (below-bound): "
                 + next(r["outside_regime"] for r in rows if r["outside_regime"]))
    if not below:
        text += f"; no public size of the grid lies below the line (m >= 1 > {sizes['m_min'] - 1:g})"
    text += ("; D = ABM19's mixture 1/(100 m) D + (1 - 1/(100 m)) D_0" if params.marginal == "abm19"
             else "; D_X uniform")
    return contract.Judgement(
        claims=judged, text=text, regime={f"m_alpha={v:g}": informative[v] for v in params.m_alpha_grid},
        measurements={
        "result_id": "bcmnuw20:thm15",
        "claim": "Theorem 15: below m = C_15/alpha no PAP release of thresholds is (alpha, beta)-accurate on every D",
        "bound_source": (f"bounds.compute('bcmnuw20:thm15', alpha={params.alpha}"
                         + (f", form='asymptotic', constants={{'C_15': {params.c_15}}}" if params.form == "asymptotic"
                            else "") + ").public_samples; n from bounds.compute('bcmnuw20:thm10', ..., vc=1, "
                         "dual_vc=1)"),
        "form": params.form, "privacy_regime_fails": regime_fails,
        "m_min": sizes["m_min"], "n": sizes["n"], "n_counts": sizes["n_counts"],
        "n_bound_thm10": sizes["n_bound_thm10"],
        "n_fraction_of_thm10": sizes["n"] / sizes["n_bound_thm10"],
        "alpha": params.alpha, "beta": params.beta, "eps": params.eps, "delta": params.delta,
        "num_points": params.num_points, "c_15": params.c_15, "marginal": params.marginal,
        "trials": T, "confidence": params.confidence, "per_claim_confidence": per_claim,
        "rows": rows,
        "reduction_floor_check": {"status": stats.FLOOR_CHECK, "passed": all(r["reduction_floor_check"] for r in rows)},
        "composition_with_B": ("run: ABM19's B (Lemma 4.4) around Lemma 17's learner, n_priv = n, n_pub = m, "
                               "S~ of size input_size(n, m); b_error = B's exact excess error on D"
                               if params.with_b else "not run (with_b = False)")})


EXPERIMENT = contract.Experiment(
    name="thm15", results=("bcmnuw20:thm15", "bcmnuw20:lemma17"),
    section="lower-bounds",
    description=("A_PAP's error and Lemma 17's learner's excess error on thresholds over a fine grid as functions of "
                 "m * alpha, beside Theorem 15's m = C_15/alpha"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(30, {"num_points": 256, "alpha": 0.25, "m_alpha_grid": "0.5,16.0", "n_scale": 1.5e-5,
                           "form": "asymptotic", "with_b": False}),
    # a lower bound's regime flag: a cell is informative where the private-only release is shown to fail (an
    # unlearnable class at this n); computed from the records, and the test that checks it against them
    opponents=contract.LowerBoundRegime("tests/simulations/test_thm15.py::"
                                        "test_in_the_regime_the_claim_holds_and_the_true_answers_control_is_violated"),
    controls=NEGATIVE_CONTROLS,
    # an earlier spelling of the control: the boolean field ``negative_control`` (run directories still hold it)
    renamed_params={"negative_control": ("variant", {True: "true_answers", False: "none"})},
)
