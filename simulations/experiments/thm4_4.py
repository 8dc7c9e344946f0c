"""LVSUW21 Theorem 4.4 on CPS1988: PMW^Pub's max error against the theorem's bound plus the best
mixture error, over the number of iterations T.

Private = one region of CPS1988, public = another (``_lvsuw21_common``), Q = all 3-way marginals.
Per trial and per T: PMW^Pub's max error err(T). Checked:

* the floor, exactly: PMW^Pub's output is a distribution on the public support, so
  err(T) >= f_{D~,Q}(X^) (Definition 4.1) in every trial (up to LP tolerance 1e-9). Every output
  on the public support meets it by definition, so this is a ``floor check``
  (``simulations.stats.FLOOR_CHECK``): only a bug (the output left the support, or the LP is wrong)
  can fail it (``floor_check_failed``), and it does not validate Theorem 4.4;
* the verdict, on Theorem 4.4's explicit form (``bounds.compute("lvsuw21:thm4.4", ...)``, default form;
  bounds/papers/lvsuw21_thm44.py: the MWEM analysis redone for the selection and measurement PMW^Pub uses):
  at its T* (``iterations``) PMW^Pub's max error is <= ``error`` w.p. >= 1 - beta. Claim "err(T*) <= bound"
  judged by ``contract.claim`` against target 1 - beta. In the same trials and judged by the same code, each a
  ``contract.baseline``, the opponents (:data:`OPPONENTS`, ``algorithms.opponents``; each needs nothing Theorem
  4.4 offers): private-only, the Gaussian mechanism on all the marginal answers at PMW^Pub's own zCDP budget
  rho = eps~^2/2 and the Laplace mechanism on them at pure eps~ (eps~^2/2-zCDP too), both with the marginal
  histograms' sensitivity (L2 sqrt(2W)/n, L1 2W/n for W workloads); public-only, the public support's uniform
  reweighting and the public histogram (LVSUW21's baseline, the catalogue's ``public_empirical``); data-free, the
  answers 0. ``informative`` (computed) only if every one of them fails the bound. Beside them, never opponents
  (:data:`PRIVACY_BLIND`; accuracy cannot see privacy, the audit :data:`PRIVACY_AUDIT` judges PMW^Pub's): the
  private data's exact answers (error 0: the target is the private data set itself) and two broken twins that
  are not private (PMW^Pub without noise, eps~ = 1e6; PMW^Pub whose support includes the private rows). The
  public-only minimax shrinkage (``public_shrunk``) is not run: it shrinks toward the middle of [-1, 1], and the
  marginals' cells are fractions near 0. The negative control ``variant="one_row_support"`` runs PMW^Pub on the
  first public row alone (the support is not the public data's, while the bound is taken at the real support's f and m)
  and must come out ``violated``;
* Theorem 4.4's shape at the hidden constants: the summary also reports the bound at C_4_4 = 1
  (``form="asymptotic"``) and the implied constant
  err(T) / (bound at C = 1) as the empirical 1 - beta quantile over trials (the theorem holds with
  probability 1 - beta, so that quantile is the least C_4_4 the runs are consistent with), per T and at
  Theorem 4.4's prescribed T* (C_T = 1; ``with_t_star`` adds it to the iterations). With k trials the
  quantile is the ceil((1 - beta) k)-th smallest ratio: a point estimate, not a bound on C_4_4.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers, max_error, pmw_pub
from simulations import contract, stats
from simulations.experiments import Confidence, Controlled, param
from simulations.experiments._lvsuw21_common import REGIONS, cps1988, mean_se, region_setting

RESULT_ID = "lvsuw21:thm4.4"
#: the opponents judged beside PMW^Pub at T* by the same code: the verdict is informative only where each misses the
#: bound. ``public_empirical`` is recorded as ``public_histogram`` (:data:`RECORD_KEY`; runs recorded before read
#: back); the Gaussian, Laplace and constant releases are absent from runs recorded before them
OPPONENTS = {"gaussian": "Gaussian mechanism on every marginal answer, rho = eps~^2/2 zCDP (no public data)",
             "laplace": "Laplace mechanism on every marginal answer, pure eps~ (no public data)",
             "public_uniform": "the public support uniformly weighted (no private data)",
             "public_empirical": "the public rows' histogram (no private data)",
             "constant_zero": "every answer 0 (ignores all data)"}
TRIVIAL_ALGORITHMS = OPPONENTS
RECORD_KEY = {"public_empirical": "public_histogram"}
#: releases without privacy, measured beside the opponents, never one; the audit target that judges PMW^Pub's privacy
PRIVACY_BLIND = {"exact_private": "the private data's exact answers (not private; error 0, the target itself)",
                 "noiseless": "PMW^Pub without noise (not private)",
                 "private_rows_in_support": "PMW^Pub whose support includes the private rows (not private)"}
PRIVACY_AUDIT = "pmw_pub"
BASELINES = (*(RECORD_KEY.get(k, k) for k in OPPONENTS), "noiseless", "private_rows_in_support")
NOISELESS_EPS = 1e6


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    private_region: str = param("south", "CPS1988 region of the private data", choices=REGIONS)
    public_region: str = param("midwest", "CPS1988 region of the public data", choices=REGIONS)
    eps_tilde: float = param(0.5, "PMW^Pub's privacy parameter eps~ (the run is eps~^2/2-zCDP)", within="(0, inf)")
    iterations: tuple = param((5, 20, 80, 320), "values of T", within="[1, inf)")
    beta: float = param(0.05, "failure probability of Theorem 4.4's bound", within="(0, 1)")
    replay: bool = param(False, "LVSUW21 Sec 5.3 replay of past measurements")
    with_t_star: bool = param(True, "also run Theorem 4.4's T* at C_T = 1 (rounded)")

    def check(self):
        if self.private_region == self.public_region:
            raise ValueError(f"public_region={self.public_region!r} must differ from private_region")


@functools.lru_cache(maxsize=8)
def theorem(params: Params) -> dict:
    """n, m, |Q|, f and Theorem 4.4's bound and T* at C = 1, from bounds."""
    import bounds

    s = region_setting(params.private_region, params.public_region)
    n, m = int(s["private"].shape[0]), int(s["public"].shape[0])
    num_queries = int(s["true"].size)
    q = bounds.compute(RESULT_ID, form="asymptotic", constants={"C_T": 1.0, "C_4_4": 1.0},
                       private_samples=n, public_samples=m, num_queries=num_queries, beta=params.beta,
                       eps_tilde=params.eps_tilde, best_mixture_error=min(max(s["f"], 1e-12), 1 - 1e-12)).quantities
    return {"n": n, "m": m, "num_queries": num_queries, "f": s["f"],
            "support_size": int(distinct_rows(s["public"])[0].shape[0]),
            "bound_C1": float(q["error"].value), "T_star_C1": float(q["iterations"].value),
            **contract.required_sizes(RESULT_ID, {"bound_explicit": "error",
                                                      "T_star_explicit": ("iterations", contract.ceil_int)},
                                      private_samples=n, public_samples=m, num_queries=num_queries, beta=params.beta,
                                      eps_tilde=params.eps_tilde, best_mixture_error=min(max(s["f"], 1e-12),
                                                                                         1 - 1e-12))}


def iterations(params: Params) -> list[int]:
    """The T values run: ``params.iterations`` and, with ``with_t_star``, round(T*) at C_T = 1 (from bounds)."""
    ts = list(params.iterations)
    if params.with_t_star:
        ts.append(max(1, int(round(theorem(params)["T_star_C1"]))))
    return ts


def releases_at_t_star(params: Params, rng: np.random.Generator) -> dict:
    """Max errors at the explicit T*: PMW^Pub (or the control), the opponents and the broken twins."""
    from algorithms import opponents as op

    domain, _, _, workloads = cps1988()
    s = region_setting(params.private_region, params.public_region)
    T = theorem(params)["T_star_explicit"]
    n, W = int(s["private"].shape[0]), len(workloads)
    support, _ = distinct_rows(s["public"])
    public = support[:1] if params.variant == "one_row_support" else s["public"]
    run = pmw_pub(s["private"], public, domain, workloads, params.eps_tilde, T, rng, replay=params.replay).value
    noiseless = pmw_pub(s["private"], s["public"], domain, workloads, NOISELESS_EPS, T, rng).value
    leaky = pmw_pub(s["private"], np.vstack([s["public"], s["private"]]), domain, workloads, params.eps_tilde, T,
                    rng).value
    answers = {"pmw_pub": run.answers, "public_uniform": marginal_answers(domain, workloads, support),
               "public_histogram": marginal_answers(domain, workloads, s["public"]),
               "noiseless": noiseless.answers, "private_rows_in_support": leaky.answers,
               "gaussian": op.gaussian_answers(s["true"], n, rng, rho=params.eps_tilde ** 2 / 2, workloads=W).value,
               "laplace": op.laplace_answers(s["true"], n, params.eps_tilde, rng, workloads=W).value,
               "constant_zero": op.constant_release(s["true"].size).value, "exact_private": s["true"]}
    return {k: max_error(v, s["true"]) for k, v in answers.items()}


@dataclass(frozen=True)
class AtTStar:
    """Max errors at the explicit T*: PMW^Pub (or the control), the opponents and the releases without privacy."""
    pmw_pub: float
    noiseless: float
    private_rows_in_support: float
    public_uniform: float = contract.opponent_field("public_uniform", "error")
    public_histogram: float = contract.opponent_field("public_empirical", "error")
    gaussian: float | None = contract.opponent_field("gaussian", "error", None)
    laplace: float | None = contract.opponent_field("laplace", "error", None)
    constant_zero: float | None = contract.opponent_field("constant_zero", "error", None)
    exact_private: float | None = None


@dataclass(frozen=True)
class Outcome:
    """One trial: PMW^Pub's max error per T of ``iterations(params)``, and every release at T*."""
    max_error: tuple[float, ...]
    at_t_star: AtTStar


def trial(params: Params, rng: np.random.Generator) -> dict:
    domain, _, _, workloads = cps1988()
    s = region_setting(params.private_region, params.public_region)
    errors = []
    for T in iterations(params):
        res, _ = pmw_pub(s["private"], s["public"], domain, workloads, params.eps_tilde, T, rng,
                         replay=params.replay)
        errors.append(max_error(res.answers, s["true"]))
    return {"max_error": errors, "at_t_star": releases_at_t_star(params, rng)}


def _per_t(records: list[dict], params: Params, th: dict, ts) -> list[dict]:
    """Per iteration count T: the mean max error with its standard error, and the implied constant's quantile."""
    rows = []
    for j, T in enumerate(ts):
        errs = np.array([r["max_error"][j] for r in records])
        mean, se = mean_se(errs)
        rows.append({"T": T, "is_T_star": params.with_t_star and j == len(ts) - 1, "mean_max_error": mean, "se": se,
                     "min_max_error": float(errs.min()),
                     "implied_constant_quantile": float(np.quantile(errs / th["bound_C1"], 1 - params.beta,
                                                                    method="inverted_cdf"))})
    return rows


def _floor_text(th: dict, records: list[dict], params: Params, below_floor: int, implied: float, at_t_star, ts) -> str:
    if below_floor:
        return (f"floor check FAILED (a bug): {below_floor} runs below the best mixture error "
                f"f = {th['f']:.4g}")
    return (f"floor check (not a verdict on Theorem 4.4): err >= f = {th['f']:.4g} in all "
            f"{len(records) * len(params.iterations)} runs; mean err / bound(C=1) <= {implied:.3g}"
            + (f"; at T* = {ts[-1]} the {1 - params.beta:g} quantile of err / bound(C=1) over "
               f"{len(records)} trials is {at_t_star:.3g}" if at_t_star is not None else ""))


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    from simulations.opponents import judge_case, privacy_blind_text

    th = theorem(params)
    ts = iterations(params)
    rows = _per_t(records, params, th, ts)
    below_floor = sum(1 for r in records for e in r["max_error"] if e < th["f"] - 1e-9)
    implied = max(r["mean_max_error"] for r in rows) / th["bound_C1"]
    at_t_star = rows[-1]["implied_constant_quantile"] if params.with_t_star else None
    T, conf, bound = len(records), params.confidence, th["bound_explicit"]
    within = {"pmw_pub": sum(r["at_t_star"]["pmw_pub"] <= bound for r in records)}
    name = "PMW^Pub" if params.variant == contract.NO_VARIANT else f"PMW^Pub ({params.variant}, broken)"
    claim = contract.claim(within["pmw_pub"], T, 1 - params.beta, conf,
                           label=f"{name}: max error at T* = {th['T_star_explicit']} <= Theorem 4.4's explicit bound "
                                 f"{bound:.4g} w.p. >= 1 - beta")
    judged = judge_case([{k: r["at_t_star"].get(RECORD_KEY.get(k, k)) for k in (*OPPONENTS, *PRIVACY_BLIND)}
                         for r in records], tuple(OPPONENTS), bound, 1 - params.beta, conf,
                        privacy_blind=tuple(PRIVACY_BLIND), audit=PRIVACY_AUDIT)
    baselines, informative = judged["baselines"], judged["informative"]
    errs = {"pmw_pub": float(np.mean([r["at_t_star"]["pmw_pub"] for r in records])),
            **{k: b["error_mean"] for g in (baselines, judged["privacy_blind"]) for k, b in g.items() if b}}
    verdict_text = (f"{claim['label']}: {within['pmw_pub']}/{T} trials within (mean error "
                    f"{errs['pmw_pub']:.3g}), {100 * conf:g}% confidence; "
                    + ("informative: every opponent fails the bound" if informative else
                       "not informative: not every opponent is shown to fail the bound ("
                       + ", ".join(f"{k} {b['status']}, mean error {b['error_mean']:.3g}"
                                   for k, b in baselines.items() if b) + ")")
                    + f"; strongest opponent: {judged['strongest']} "
                    + f"({'failed' if judged['strongest_failed'] else 'did not fail'}); "
                    + privacy_blind_text({"cps1988": judged}, "PMW^Pub", PRIVACY_AUDIT)
                    + ("; DEFECT: weaker than the constant on the same draws: "
                       + ", ".join(judged["weaker_than_constant"]) if judged["weaker_than_constant"] else ""))
    return contract.Judgement(claims=[claim], text=verdict_text, opponents=baselines, measurements={
        "result_id": "lvsuw21:thm4.4",
        "claim": "max_q |q(A) - q(D~)| = O(sqrt(log|Q| (sqrt(log m) + log(1/beta))/(n eps~)) + f); err >= f always",
        "bound_source": (f"bounds.compute('lvsuw21:thm4.4', private_samples={th['n']}, public_samples={th['m']}, "
                         f"num_queries={th['num_queries']}, beta={params.beta}, eps_tilde={params.eps_tilde}, "
                         "best_mixture_error=f): error, iterations (explicit: the verdict); the same with "
                         "form='asymptotic', constants={C_T: 1, C_4_4: 1} (bound_C1, T_star_C1)"),
        **th,
        "per_T": rows,
        "floor_violations": below_floor,
        "implied_constant_C_4_4": implied,
        "implied_constant_at_T_star": at_t_star,
        "implied_constant_quantile_level": 1 - params.beta,
        "theorem_claim": claim, "baselines": baselines, "mean_error_at_t_star": errs,
        "strongest": judged["strongest"], "strongest_failed": judged["strongest_failed"],
        "weaker_than_constant": judged["weaker_than_constant"], "privacy_blind": judged["privacy_blind"],
        "audit": PRIVACY_AUDIT,
        "floor_check": {"status": stats.FLOOR_CHECK, "passed": not below_floor},
        "floor_check_failed": bool(below_floor),
        "floor_check_text": _floor_text(th, records, params, below_floor, implied, at_t_star, ts),
    })


EXPERIMENT = contract.Experiment(
    name="thm4_4", results=("lvsuw21:thm4.4",),
    section="lvsuw21",
    description="PMW^Pub max error vs T on CPS1988 (region pair) against Thm 4.4's bound + best mixture error",
    params=Params, trial=trial, summarise=summarise, outcome=Outcome, ci=contract.CiRun(3, {"iterations": "3,12"}),
    opponents=OPPONENTS,
    controls={"one_row_support": "PMW^Pub run on the first public row alone: the support is not the public data's, "
                                 "while the bound is taken at the real support's f and m"},
)
