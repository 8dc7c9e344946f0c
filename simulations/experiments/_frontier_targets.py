"""The results the frontier search (``frontier``) places: for each, the theorem's size, the paper's algorithm and
the catalogue's opponents that need nothing the theorem offers, run at any probed size of one searched quantity.

A target answers two questions for the search: ``setup(case, variant)`` (everything that does not depend on the
trial's randomness: the theorem's size of the searched quantity from ``bounds`` through the result's own experiment
module, the fixed other size, the smallest and largest runnable size per release, the success rule) and
``run(setup, sizes, rng)``, one trial: ``{release: [success or None (not runnable there), ...]}`` over ``sizes``,
fresh draws per size. The paper's algorithm is run through its own experiment module's functions (the same code
its verdict is judged by; its own negative control is the ``broken`` variant), the opponents through
``algorithms.opponents`` and ``simulations.opponents`` directly:

* ``thm10`` (BCMNUW20 Theorem 10, A_PAP; n searched at m = Theorem 10's m): ``thm10.run_pap``; Gaussian and
  Laplace on the answer vector, the binary tree (thresholds, intervals), the public-only answers; success
  Err <= alpha.
* ``thm3_1`` (ABM19 Theorem 3.1, A_SSPP; n searched at m = the theorem's m): ``thm3_1._select`` on the cover of a
  public draw; the generic private learner (exponential mechanism over H, no public data) and non-private ERM on
  the private sample; success excess error <= alpha.
* ``prop4_3`` (LVSUW21 Proposition 4.3; m searched at the proposition's n): ``prop4_3.trial`` on the public
  prefixes (best mixture error of the support <= alpha); the support of m uniform points of {0,1}^d (no public
  data) on fresh draws of the same private sample size.
* ``thm4_4`` (LVSUW21 Theorem 4.4, PMW^Pub on CPS1988; private n searched by subsampling the private region
  without replacement, T = the explicit T* at the full n): success max error <= the explicit bound at the full n
  (the accuracy the theorem promises at its n, so the theorem's n for it is the full n); Gaussian (zCDP at the
  same rho = eps~^2/2) and Laplace (pure, eps = eps~) on the subsample's answers, the public histogram and the
  uniform public support (no private data).
* ``thm7`` / ``thm11`` (NB20 A_AgPrivCl / A_UnvPrivCl; n searched): the module's ``run_case`` at
  ``per_subsample`` = floor(n * rate / k) (so it runs at n(s) <= the probed n, and at the theorem's own n at the
  bound; not runnable where s < 1); the generic private learner, non-private ERM and the constant label on
  fresh draws at the probed n (``simulations.opponents.learning_opponents``), and for thm7 BTT18's A_SubSamp on
  the algorithm's draws; success average error over the m queries <= alpha + gamma.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Callable

import numpy as np


@dataclass(frozen=True)
class Target:
    """One result the frontier search places (module docstring); ``opponents`` maps a release to (what it does
    without, of ``algorithms.opponents.OFFERS``; what it is)."""
    result_id: str
    experiment: str
    searched: str
    guarantee: str
    cases: tuple
    control: str
    algorithm: str
    opponents: dict
    setup: Callable
    run: Callable


# ---------------------------------------------------------------- BCMNUW20 Theorem 10


def _thm10_setup(case: str, variant: str) -> dict:
    from simulations.experiments import thm10

    p = thm10.Params(cases=(case,), variant=variant)
    s = thm10.case_setup(case, p)
    kind = case.split(":")[0]
    return {"p": p, "s": s, "bound": int(s["n_bound"]), "fixed": {"m": int(s["m_bound"])},
            "target": 1 - p.beta, "lowest": {}, "highest": thm10.MAX_PRIVATE_POINTS,
            "skip": () if kind in ("thresholds", "intervals") else ("tree",)}


def _thm10_run(S: dict, sizes: list[int], rng: np.random.Generator) -> dict:
    from simulations.experiments import thm10

    p, s = S["p"], S["s"]
    wanted = tuple(k for k in ("gaussian", "laplace", "tree", "public_only") if k not in S["skip"])
    out = {k: [] for k in ("a_pap", *wanted)}
    for n in sizes:
        r = thm10.run_pap(s["cls"], s["D"], n, s["m_bound"], p.alpha, p.beta, p.eps, p.delta, rng,
                          baselines=wanted, variant=p.variant, mw_accuracy=s["mw_accuracy"], truth=s["truth"])
        out["a_pap"].append(r["accurate"])
        for k in wanted:
            out[k].append(r[f"{k}_accurate"])
    return out


# ---------------------------------------------------------------- ABM19 Theorem 3.1


def _thm3_1_setup(case: str, variant: str) -> dict:
    from simulations.experiments import thm3_1

    p = thm3_1.Params(cases=(case,), fractions=(), variant=variant)
    s = thm3_1.case_setup(case, p)
    return {"p": p, "s": s, "bound": int(s["n_bound"]), "fixed": {"m": int(s["m_bound"])}, "target": 1 - p.beta,
            "lowest": {}, "highest": 10**8}


def _labelled_histogram(X, Y, N: int) -> tuple[np.ndarray, np.ndarray]:
    y = np.asarray(Y).astype(bool)
    return (np.bincount(X[y], minlength=N).astype(float), np.bincount(X[~y], minlength=N).astype(float))


def _thm3_1_run(S: dict, sizes: list[int], rng: np.random.Generator) -> dict:
    from algorithms.learning.sspp import sspp_cover
    from algorithms.opponents import exponential_learner, histogram_error_counts
    from simulations.experiments import thm3_1

    p, s = S["p"], S["s"]
    cls, excess = s["cls"], s["excess"]
    out = {"a_sspp": [], "em_learner": [], "erm_private": []}
    for n in sizes:
        cover = sspp_cover(cls, s["D"].marginal.sample(s["m_bound"], rng))
        X, Y = s["D"].sample(n, rng)
        out["a_sspp"].append(bool(excess[thm3_1._select(cls, cover, X, Y, p.eps, p.variant, rng)] <= p.alpha))
        pos, neg = _labelled_histogram(X, Y, cls.num_points)
        out["em_learner"].append(bool(excess[exponential_learner(cls, pos, neg, p.eps, rng).value] <= p.alpha))
        out["erm_private"].append(bool(excess[int(np.argmin(histogram_error_counts(cls, pos, neg)))] <= p.alpha))
    return out


# ---------------------------------------------------------------- LVSUW21 Proposition 4.3


def _prop4_3_setup(case: str, variant: str) -> dict:
    from simulations.experiments import prop4_3

    p = prop4_3.Params(variant=variant)
    s = prop4_3.setting(p)
    return {"p": p, "s": s, "bound": int(s["m"]), "fixed": {"n": int(s["n"])}, "target": 1 - p.beta,
            "lowest": {}, "highest": int(s["m"])}


def _nested_errors(true, dom, wl, rows, sizes: list[int], zero: float) -> list[float]:
    """Best mixture error of the supports of ``rows``' prefixes of ``sizes``, smallest first; once one is <= zero
    the larger prefixes are that value (supports are nested, so f cannot grow: prop4_3's rule)."""
    from algorithms.query_release.mixture import best_mixture_error
    from algorithms.query_release.pmw_pub import distinct_rows
    from algorithms.query_release.workloads import MarginalQueries

    out, done = {}, None
    for v in sorted(set(sizes)):
        if done is None:
            out[v] = best_mixture_error(true, MarginalQueries(dom, wl, distinct_rows(rows[:v])[0])).error
            done = out[v] if out[v] <= zero else None
        else:
            out[v] = done
    return [out[v] for v in sizes]


def _prop4_3_run(S: dict, sizes: list[int], rng: np.random.Generator) -> dict:
    """One private draw D~ ~ mu^n and one public draw D^ ~ nu^max(sizes) per trial, the supports of D^'s prefixes
    (prop4_3's own trial evaluates its fixed fractions of m and its trivial supports at the full m, about 30 s of
    CPU a trial: too dear for a search), and the nested prefixes of max(sizes) uniform points."""
    from algorithms.query_release.pmw_pub import marginal_answers
    from simulations.experiments import prop4_3

    p, s = S["p"], S["s"]
    dom, wl = s["domain"], s["workloads"]
    true = marginal_answers(dom, wl, s["mu"].sample(s["n"], rng))
    top = max(sizes)
    pub = s["nu"].sample(top, rng)
    if p.variant == "support_from_one":
        pub = np.repeat(pub[:1], top, axis=0)
    uniform = rng.integers(0, 2, size=(top, p.num_attributes))
    return {name: [bool(e <= p.alpha) for e in _nested_errors(true, dom, wl, rows, sizes, prop4_3.ZERO)]
            for name, rows in (("best_mixture", pub), ("uniform_support", uniform))}


# ---------------------------------------------------------------- LVSUW21 Theorem 4.4


def _thm4_4_setup(case: str, variant: str) -> dict:
    from simulations.experiments import thm4_4
    from simulations.experiments._lvsuw21_common import region_setting

    p = thm4_4.Params(variant=variant)
    th = thm4_4.theorem(p)
    s = region_setting(p.private_region, p.public_region)
    return {"p": p, "s": s, "T": int(th["T_star_explicit"]), "alpha": float(th["bound_explicit"]),
            "bound": int(th["n"]), "fixed": {"m": int(th["m"]), "T": int(th["T_star_explicit"])},
            "target": 1 - p.beta, "lowest": {}, "highest": int(th["n"])}


def _thm4_4_run(S: dict, sizes: list[int], rng: np.random.Generator) -> dict:
    from algorithms.opponents import gaussian_answers, laplace_answers
    from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers, max_error, pmw_pub
    from simulations.experiments._lvsuw21_common import cps1988

    p, s, alpha = S["p"], S["s"], S["alpha"]
    domain, _, _, workloads = cps1988()
    support = distinct_rows(s["public"])[0]
    public = support[:1] if p.variant == "one_row_support" else s["public"]
    names = ("pmw_pub", "gaussian", "laplace", "public_empirical", "public_uniform")
    out = {k: [] for k in names}
    for n in sizes:
        priv = s["private"][rng.choice(s["private"].shape[0], size=n, replace=False)]
        true = marginal_answers(domain, workloads, priv)
        run = pmw_pub(priv, public, domain, workloads, p.eps_tilde, S["T"], rng).value
        answers = {"pmw_pub": run.answers,
                   "gaussian": gaussian_answers(true, n, rng, rho=p.eps_tilde ** 2 / 2, fallback_beta=p.beta).value,
                   "laplace": laplace_answers(true, n, p.eps_tilde, rng, fallback_beta=p.beta).value,
                   "public_empirical": marginal_answers(domain, workloads, s["public"]),
                   "public_uniform": marginal_answers(domain, workloads, support)}
        for k in names:
            out[k].append(bool(max_error(answers[k], true) <= alpha))
    return out


# ---------------------------------------------------------------- NB20 Theorems 7 and 11


def _nb20_setup(module: str, case: str, variant: str) -> dict:
    import importlib

    from simulations.experiments._nb20_common import agprivcl_params, unvprivcl_params

    mod = importlib.import_module(f"simulations.experiments.{module}")
    p = mod.Params(cases=(case,), variant=variant)
    c = mod.make_case(case, p.noise, p.boundary_mass)
    if module == "thm7":
        P = agprivcl_params(p.alpha, p.beta, p.eps, p.delta, p.num_queries, p.lam)
    else:
        P = unvprivcl_params(p.alpha, p.beta, p.eps, p.delta, c["d"], p.num_queries, p.lam).first
    n_bound = mod.run_sizes(case, p)[0]
    least = int(math.ceil(P.subsamp.k / P.rate))  # per_subsample = 1
    return {"p": p, "mod": mod, "case": c, "kind": case, "k": int(P.subsamp.k), "rate": float(P.rate),
            "bound": int(n_bound), "fixed": {"queries": int(p.num_queries)}, "target": 1 - p.beta,
            "lowest": {"algorithm": least}, "highest": int(n_bound) * 1000}


def _per_subsample(S: dict, n: int) -> int:
    """The largest s with n(s) = ceil(s k / rate) <= n (0 at the theorem's own n: the module's own size)."""
    if n == S["bound"]:
        return 0
    s = int(math.floor(n * S["rate"] / S["k"]))
    while s > 0 and int(math.ceil(s * S["k"] / S["rate"])) > n:
        s -= 1
    return s


def _nb20_run(name: str, S: dict, sizes: list[int], rng: np.random.Generator) -> dict:
    from simulations.experiments._nb20_common import sample_labeled
    from simulations.opponents import learning_opponents

    p, c = S["p"], S["case"]
    limit = p.alpha + c["gamma"]
    out = {k: [] for k in (name, *(("btt18",) if S["mod"].__name__.endswith("thm7") else ()),
                           "em_learner", "erm_private", "constant_zero")}
    N = c["cls"].num_points
    for n in sizes:
        s = _per_subsample(S, n)
        if n != S["bound"] and s < 1:
            out[name].append(None)
            if "btt18" in out:
                out["btt18"].append(None)
        else:
            r = S["mod"].run_case(S["kind"], dataclasses.replace(p, per_subsample=s), rng)
            if "btt18" in out:
                out[name].append(bool(r["accurate"]["agprivcl"]))
                out["btt18"].append(bool(r["accurate"]["btt18"]))
            else:
                out[name].append(bool(r["accurate"]))
        counts = rng.multinomial(n, c["joint"].ravel()).reshape(N, 2)
        qx, qy = sample_labeled(c["joint"], p.num_queries, rng)
        errs = learning_opponents(c["cls"], pos=counts[:, 1].astype(float), neg=counts[:, 0].astype(float),
                                  queries=qx, labels=qy, eps=p.eps, rng=rng)
        for k in ("em_learner", "erm_private", "constant_zero"):
            out[k].append(bool(errs[k] <= limit))
    return out


NO_PUBLIC, NO_PRIVATE, NO_PRIVACY = ("public data",), ("private data", "privacy"), ("privacy",)
LEARNING_OPPONENTS = {"em_learner": (NO_PUBLIC, "the exponential mechanism over H (KLNRS08; no public data)"),
                     "erm_private": (("privacy", "public data"), "ERM on the private sample (no privacy)")}
CONSTANT = {"constant_zero": (("private data", "public data", "privacy"), "the label 0 (no data)")}

TARGETS = {
    "thm10": Target("bcmnuw20:thm10", "thm10", "n", "Err_{D,H}(G) <= alpha w.p. >= 1 - beta",
                    ("thresholds:near_threshold", "intervals:interval_endpoints", "stumps:near_threshold"),
                    "pmw_noise_x100", "a_pap",
                    {"gaussian": (NO_PUBLIC, "Gaussian mechanism on the answer vector (no public data)"),
                     "laplace": (NO_PUBLIC, "Laplace mechanism on the answer vector (no public data)"),
                     "tree": (NO_PUBLIC, "binary-tree mechanism (no public data; thresholds, intervals)"),
                     "public_only": (NO_PRIVATE, "the public sample's answers (no private data)")},
                    _thm10_setup, _thm10_run),
    "thm3_1": Target("abm19:thm3.1", "thm3_1", "n", "excess error <= alpha w.p. >= 1 - beta",
                     ("thresholds:uniform", "thresholds:near_threshold", "intervals:uniform", "halfspaces:uniform"),
                     "flipped_score", "a_sspp", LEARNING_OPPONENTS, _thm3_1_setup, _thm3_1_run),
    "prop4_3": Target("lvsuw21:prop4.3", "prop4_3", "m", "best mixture error of supp(D^) <= alpha w.p. >= 1 - beta",
                      ("network",), "support_from_one", "best_mixture",
                      {"uniform_support": (NO_PUBLIC, "m points uniform on {0,1}^d (no public data)")},
                      _prop4_3_setup, _prop4_3_run),
    "thm4_4": Target("lvsuw21:thm4.4", "thm4_4", "n", "max error <= the explicit bound at the full n w.p. >= 1 - beta",
                     ("cps1988",), "one_row_support", "pmw_pub",
                     {"gaussian": (NO_PUBLIC, "Gaussian mechanism on the answers, the same zCDP (no public data)"),
                      "laplace": (NO_PUBLIC, "Laplace mechanism on the answers, eps~-DP (no public data)"),
                      "public_empirical": (NO_PRIVATE, "the public histogram (no private data)"),
                      "public_uniform": (NO_PRIVATE, "the public support uniformly weighted (no private data)")},
                     _thm4_4_setup, _thm4_4_run),
    "thm7": Target("nb20:thm7", "thm7", "n", "average error over m queries <= alpha + gamma w.p. >= 1 - beta",
                   ("thresholds", "intervals", "halfspaces", "boundary_noise"), "inverted_majority", "a_agprivcl",
                   {**LEARNING_OPPONENTS, **CONSTANT,
                    "btt18": (NO_PUBLIC, "BTT18's A_SubSamp alone (no relabelling; NB20 has no public data)")},
                   lambda case, variant: _nb20_setup("thm7", case, variant),
                   lambda S, sizes, rng: _nb20_run("a_agprivcl", S, sizes, rng)),
    "thm11": Target("nb20:thm11", "thm11", "n", "average error over m queries <= alpha + gamma w.p. >= 1 - beta",
                    ("thresholds", "intervals", "boundary_noise"), "complement_second_phase", "a_unvprivcl",
                    {**LEARNING_OPPONENTS, **CONSTANT},
                    lambda case, variant: _nb20_setup("thm11", case, variant),
                    lambda S, sizes, rng: _nb20_run("a_unvprivcl", S, sizes, rng)),
}
