"""LVSUW21 Proposition 4.3: at n >= (8/alpha^2) log(4|Q|/beta) private and
m >= (32 e^{D2}/alpha^2 + 8 e^{Dinf}/(3 alpha)) log((4|Q|+4)/beta) public samples, the best mixture
error of the public support is <= alpha with probability >= 1 - beta; and how loose that m is.

The regime |X| >> m, on the support representation. mu (private) and nu (public) are a seeded random
Bayesian network over ``num_attributes`` binary attributes (default 30: |X| = 2^30 ~ 1.1e9 cells) and
its shifted copy (``simulations.data.synthetic``; parents within the ``window`` attributes before, so
D_2(mu || nu) and D_inf(mu || nu) are exact by variable elimination, ``network_divergences``, and the
joint is never formed). Q = ``num_workloads`` random ``k``-way marginals (0: all of them). n and m come
from ``bounds.compute("lvsuw21:prop4.3", ...)``. A trial draws D~ ~ mu^n and D^ ~ nu^m as rows, holds
the public sample as (distinct points, counts), and computes f_{D~,Q}(supp(D^)) exactly (the LP of
``algorithms.query_release.mixture``) on the supports of the first ceil(frac m) public rows, for each
``fractions`` entry. Supports are nested, so f can only fall as the prefix grows: once a prefix's f is
<= ``ZERO`` (zero up to HiGHS's tolerance) the larger prefixes are recorded with that value and
``implied`` (exact, since f(S') <= f(S) for S' containing S), without another LP.

Each record also carries, at the full m: the exact mu-mass of the public support (sum of mu over its
distinct points, from the network's tables: far below 1, so the proposition cannot hold by coverage),
the error of the proof's witness omega_x ~ g(x) = mu(x)/nu(x) over D^ (the reweighting the proof bounds:
a second claim at the same sizes, stricter than f), and the public-only baseline (D^'s own answers,
i.e. the weights ignored) on the same draws.

Only the full m gets verdicts; every fraction < 1 is ``below-bound``, a measurement of how loose m is
and of where f > alpha is seen (the largest fraction whose f exceeds alpha in some trial).

Negative control (``variant="support_from_one"``, ``simulations.contract``): the support is the first
public row only; at Proposition 4.3's own n and m its best mixture error exceeds alpha, and the verdict
must be "violated". Its power: a support truncated to a fraction f of m is a break the run catches where its
``per_fraction`` entry at f is violated in the measurement (``largest_m_with_f_above_alpha`` is the largest
truncation seen failing at all).

Trivial supports (:data:`TRIVIAL_SUPPORTS`, same m, same best mixture error, same draws): m points uniform on
{0,1}^d, ignoring both distributions, and m points of the product law with every marginal of mu flipped; with the
public-only release (the catalogue's ``public_empirical``, recorded as ``public_only``) and the data-free answers 0
(``constant_zero``) they are the opponents ``informative`` is computed from (:data:`TRIVIAL_ALGORITHMS`). At
Proposition 4.3's m they fit as well as the public support (the verdict is not informative: at m ~ 6e4 points any
support fits the workloads). Not run, and why (:data:`NOT_RUN`): the private-only releases (Gaussian, Laplace, tree)
need a privacy level the proposition does not state (it bounds how well a public support can fit, no release is
private), and the private data's exact answers are the target itself (error 0 by definition).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from algorithms.query_release.mixture import best_mixture_error
from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers
from algorithms.query_release.workloads import CategoricalDomain, MarginalQueries, all_k_way, random_k_way
from simulations import contract, stats
from simulations.experiments import Confidence, Controlled, param
from simulations.data.synthetic import network_divergences, random_network, shifted

NEGATIVE_CONTROLS = {"support_from_one": "the public support is the first public row only (the other m - 1 ignored)"}
#: trivial supports of the public sample's size, judged by the same best mixture error on the same draws (with the
#: public-only release, the baselines ``informative`` is computed from)
TRIVIAL_SUPPORTS = {"uniform_support": "m points uniform on {0,1}^d, ignoring both distributions",
                    "flipped_product_support": "m points of the product law with every marginal of mu flipped"}
#: the trivial releases judged beside the public support (the contract test edits their outcomes in the records)
TRIVIAL_ALGORITHMS = {"public_empirical": "the public sample's own answers (no private data)",
                      "constant_zero": "every answer 0 (ignores all data)", **TRIVIAL_SUPPORTS}
#: the record's key of an opponent the catalogue names otherwise (runs recorded before read back)
RECORD_KEY = {"public_empirical": "public_only"}
#: the catalogue's opponents this experiment does not run, and why
NOT_RUN = {"gaussian, laplace, tree": ("Proposition 4.3 states no privacy level: it bounds how well the public "
                                       "support can fit the private answers, no release is private"),
           "exact_private": "the private sample's answers are the target itself (error 0 by definition)"}
ZERO = 1e-7   # an LP optimum this small is zero up to HiGHS's tolerance; larger supports cannot do worse


@dataclass(frozen=True)
class Params(Controlled, Confidence):
    alpha: float = param(0.1, "target best mixture error", within="(0, 1)")
    beta: float = param(0.1, "failure probability", within="(0, 1)")
    num_attributes: int = param(30, "binary attributes of the domain (2^d cells, never materialised)",
                                within="[3, 40]")
    k: int = param(3, "marginal order of the queries, at most num_attributes", within="[1, 40]")
    num_workloads: int = param(64, "random k-way workloads drawn with the networks (0: every k-way marginal), at "
                               "most C(num_attributes, k)", within="[0, inf)")
    shift: float = param(0.3, "public network = private tables moved this far toward fresh Dirichlet rows",
                         within="[0, 1)")
    concentration: float = param(4.0, "Dirichlet concentration of the network tables (larger: flatter, more "
                                 "spread)", within="(0, inf)")
    window: int = param(3, "parents of attribute j are among the window attributes before it", within="[1, 8]")
    network_seed: int = param(0, "seed of the two networks and the workloads (fixed across trials)",
                              within="[0, inf)")
    fractions: tuple = param((1.0, 0.1, 0.01, 0.003, 0.001, 0.0003), "fractions of m also evaluated (looseness "
                             "of m), starting with 1.0", within="(0, 1]")

    def check(self):
        if self.k > self.num_attributes:
            raise ValueError(f"k={self.k!r} must be an integer in [1, num_attributes]")
        if self.num_workloads > math.comb(self.num_attributes, self.k):
            raise ValueError(f"num_workloads={self.num_workloads!r} must be an integer in "
                             f"[0, {math.comb(self.num_attributes, self.k)}] (0: every k-way marginal)")
        if self.fractions[0] != 1.0:
            raise ValueError(f"fractions={self.fractions!r} must start with 1.0, each in (0, 1]")


@functools.lru_cache(maxsize=16)
def setting(params: Params) -> dict:
    """The fixed pair (mu, nu) as networks, exact D_2, D_inf (variable elimination), the queries, and
    n, m from bounds (Prop 4.3)."""
    import bounds

    rng = np.random.default_rng(params.network_seed)
    domain = CategoricalDomain([2] * params.num_attributes)
    private = random_network(domain, rng, concentration=params.concentration, window=params.window)
    public = shifted(private, params.shift, rng, concentration=params.concentration)
    d2, dinf = network_divergences(private, public)
    workloads = (random_k_way(domain, params.k, params.num_workloads, rng) if params.num_workloads
                 else all_k_way(domain, params.k))
    num_queries = MarginalQueries(domain, workloads, np.zeros((1, params.num_attributes), dtype=np.int64)).num_queries
    q = bounds.compute("lvsuw21:prop4.3", alpha=params.alpha, beta=params.beta, num_queries=num_queries,
                       renyi_2=d2, renyi_inf=dinf).quantities
    # mu's one-way marginals (exact up to Monte Carlo at 2^16 rows; only the flipped trivial support uses them)
    marginals = private.sample(1 << 16, np.random.default_rng(params.network_seed + 1)).mean(axis=0)
    return {"domain": domain, "workloads": workloads, "mu": private, "nu": public, "D2": d2, "Dinf": dinf,
            "flipped_marginals": 1.0 - marginals,
            "num_queries": num_queries, "n": int(q["private_samples"].exact),
            "m": int(q["public_samples"].exact)}


def _prefix(frac: float, m: int) -> int:
    return max(1, math.ceil(frac * m))


def trial(params: Params, rng: np.random.Generator) -> dict:
    """One draw of D~ ~ mu^n, D^ ~ nu^m; f on the supports of D^'s prefixes (smallest first), the
    proof's witness, the public-only baseline and the mu-mass of supp(D^)."""
    s = setting(params)
    dom, wl, mu, nu = s["domain"], s["workloads"], s["mu"], s["nu"]
    priv = mu.sample(s["n"], rng)
    pub = nu.sample(s["m"], rng)
    true = marginal_answers(dom, wl, priv)
    order = sorted(range(len(params.fractions)), key=lambda j: params.fractions[j])
    errors, supports, implied = [None] * len(order), [None] * len(order), [False] * len(order)
    zero = None
    for j in order:
        used = 1 if params.variant == "support_from_one" else _prefix(params.fractions[j], s["m"])
        support, _ = distinct_rows(pub[:used])
        supports[j] = int(support.shape[0])
        if zero is not None:       # a sub-support already fits to within ZERO: so does this one (f is monotone)
            errors[j], implied[j] = zero, True
            continue
        errors[j] = best_mixture_error(true, MarginalQueries(dom, wl, support)).error
        if errors[j] <= ZERO:
            zero = errors[j]
    full_rows = pub[:1] if params.variant == "support_from_one" else pub
    support, counts = distinct_rows(full_rows)
    queries = MarginalQueries(dom, wl, support)
    g = np.exp(mu.log_prob(support) - nu.log_prob(support)) * counts   # omega_x ~ g(x), with multiplicity
    witness = float(np.max(np.abs(true - queries.answer(g / g.sum()))))
    public_only = float(np.max(np.abs(true - queries.answer(counts / counts.sum()))))
    constant = float(np.max(np.abs(true)))  # the answers 0
    # trivial supports of the same size m, judged by the same best mixture error: m points uniform on {0,1}^d
    # (ignoring both distributions) and m points of the product law whose every marginal is mu's flipped
    m_rows = full_rows.shape[0]
    trivial = {"uniform_support": rng.integers(0, 2, size=(m_rows, params.num_attributes)),
               "flipped_product_support": (rng.random((m_rows, params.num_attributes))
                                           < s["flipped_marginals"]).astype(np.int64)}
    trivial_errors = {k: best_mixture_error(true, MarginalQueries(dom, wl, distinct_rows(rows)[0])).error
                      for k, rows in trivial.items()}
    return {**{f"{k}_error": float(v) for k, v in trivial_errors.items()}, "best_mixture_error": errors,
            "support_size": supports, "implied": implied,
            "success": [bool(e <= params.alpha) for e in errors],
            "witness_error": witness, "public_only_error": public_only, "constant_zero_error": constant,
            "mu_mass_of_support": float(np.exp(mu.log_prob(support)).sum())}


@dataclass(frozen=True)
class Outcome:
    """One trial: per fraction of Prop 4.3's m, the best mixture error, the support's size, whether the support
    implies f <= alpha and success; the witness's error and the trivial releases' errors on the same draws."""
    best_mixture_error: tuple[float, ...]
    support_size: tuple[int, ...]
    implied: tuple[bool, ...]
    success: tuple[bool, ...]
    witness_error: float
    mu_mass_of_support: float
    public_only_error: float = contract.opponent_field("public_empirical", "error")
    uniform_support_error: float = contract.opponent_field("uniform_support", "error")
    flipped_product_support_error: float = contract.opponent_field("flipped_product_support", "error")
    constant_zero_error: float | None = contract.opponent_field("constant_zero", "error", None)


def _per_fraction(records: list[dict], params: Params, s: dict) -> list[dict]:
    """Per fraction of Prop 4.3's m: the success count, its status, errors and support sizes."""
    t, per = len(records), []
    for j, frac in enumerate(params.fractions):
        succ = sum(1 for r in records if r["success"][j])
        # a fraction < 1 runs below Proposition 4.3's m: a measurement of the looseness, never a verdict
        v = stats.verdict(succ, t, 1 - params.beta, params.confidence, at_bound=frac >= 1.0)
        errs = np.array([r["best_mixture_error"][j] for r in records])
        per.append({"fraction": frac, "m": _prefix(frac, s["m"]), "successes": succ,
                    "verdict": v.status, "lower": v.lower, "mean_error": float(errs.mean()),
                    "max_error": float(errs.max()), "trials_f_above_alpha": int(np.sum(errs > params.alpha)),
                    "implied_trials": int(sum(1 for r in records if r["implied"][j])),
                    "mean_support": float(np.mean([r["support_size"][j] for r in records]))})
    return per


def _baselines(records: list[dict], params: Params) -> dict:
    """The opponents (the public sample's own answers, the answers 0 and the trivial supports), judged by the same
    error on the same draws (``simulations.opponents.judge_case``; None: absent from runs recorded before it)."""
    from simulations.opponents import judge_case

    return judge_case([{k: r.get(f"{RECORD_KEY.get(k, k)}_error") for k in TRIVIAL_ALGORITHMS} for r in records],
                      tuple(TRIVIAL_ALGORITHMS), params.alpha, 1 - params.beta, params.confidence)


def summarise(records: list[dict], params: Params) -> contract.Judgement:
    """Verdicts on Pr[f <= alpha] >= 1 - beta and on the proof's witness at Prop 4.3's n and m; the
    public-only baseline; per-fraction rates (below-bound); looseness of m; where f > alpha is seen."""
    s = setting(params)
    t = len(records)
    per = _per_fraction(records, params, s)
    # looseness of m: the smallest fraction whose one-sided lower bound still reaches 1 - beta
    enough = [p["fraction"] for p in per if p["lower"] >= 1 - params.beta]
    seen = [p for p in per if p["trials_f_above_alpha"] > 0]
    target = 1 - params.beta
    f_claim = contract.claim(per[0]["successes"], t, target, params.confidence,
                             label="best mixture error of the public support <= alpha w.p. >= 1 - beta")
    wit = np.array([r["witness_error"] for r in records])
    w_claim = contract.claim(int(np.sum(wit <= params.alpha)), t, target, params.confidence,
                             label="the witness mixture's error <= alpha w.p. >= 1 - beta")
    pub_only = np.array([r["public_only_error"] for r in records])
    judged = _baselines(records, params)
    baselines = judged["baselines"]
    mass = np.array([r["mu_mass_of_support"] for r in records])
    main = stats.verdict(per[0]["successes"], t, target, params.confidence)
    text = (("informative" if judged["informative"] else "NOT informative (an opponent also meets alpha: "
             + ", ".join(k for k, b in baselines.items() if b and b["status"] != contract.FAILS) + ")")
            + f"; strongest opponent: {judged['strongest']} "
            + f"({'failed' if judged['strongest_failed'] else 'did not fail'})"
            + ("; DEFECT: weaker than the constant on the same draws: " + ", ".join(judged["weaker_than_constant"])
               if judged["weaker_than_constant"] else "") + f". {main}")
    # the proposition's statement decides; the witness is its proof's step, reported beside
    return contract.Judgement(claims=[f_claim], text=text, opponents=baselines, measurements={
        "result_id": "lvsuw21:prop4.3",
        "claim": "Pr[f_{D~,Q}(supp D^) <= alpha] >= 1 - beta at Prop 4.3's n and m",
        "bound_source": (f"bounds.compute('lvsuw21:prop4.3', alpha={params.alpha}, beta={params.beta}, "
                         f"num_queries={s['num_queries']}, renyi_2={s['D2']:.6g}, renyi_inf={s['Dinf']:.6g})"),
        "n": s["n"], "m": s["m"], "D2": s["D2"], "Dinf": s["Dinf"], "num_queries": s["num_queries"],
        "domain_size": s["domain"].size, "num_attributes": params.num_attributes, "shift": params.shift,
        "network_seed": params.network_seed,
        "regime": (f"|X| = 2^{params.num_attributes} = {s['domain'].size:.3g} cells vs m = {s['m']}: the public "
                   f"support carries mu-mass {mass.mean():.3g} on average (max {mass.max():.3g}), so "
                   + ("f <= alpha cannot come from covering the domain" if mass.max() < 0.5 else
                      "the support covers most of mu: f <= alpha here may come from coverage")),
        "covers_domain": bool(mass.max() >= 0.5),
        "mean_mu_mass_of_support": float(mass.mean()), "max_mu_mass_of_support": float(mass.max()),
        "verdict_detail": {**main.as_dict(), "kind": f_claim["kind"], "label": f_claim["label"]},  # = f_claim
        "claims": {"best_mixture_error": f_claim, "proof_witness": w_claim},
        "witness_claim": "Pr[max_q |q(D~) - sum_x omega_x q(x)| <= alpha] >= 1 - beta, omega ~ mu/nu on D^ "
                         "(the reweighting Prop 4.3's proof bounds; an upper bound on f)",
        "mean_witness_error": float(wit.mean()), "max_witness_error": float(wit.max()),
        "baselines": baselines, "strongest": judged["strongest"], "strongest_failed": judged["strongest_failed"],
        "weaker_than_constant": judged["weaker_than_constant"], "opponents_not_run": NOT_RUN,
        "mean_public_only_error": float(pub_only.mean()),
        "per_fraction": per,
        "smallest_fraction_meeting_target": min(enough) if enough else None,
        "m_looseness_at_least": (1 / min(enough)) if enough else None,
        "largest_m_with_f_above_alpha": max(p["m"] for p in seen) if seen else None,
    })


EXPERIMENT = contract.Experiment(
    name="prop4_3", results=("lvsuw21:prop4.3",),
    section="lvsuw21",
    description=("best mixture error of the public support <= alpha w.p. >= 1 - beta at Prop 4.3's n, m, "
                 "with |X| = 2^d >> m; looseness of m"),
    params=Params, trial=trial, summarise=summarise, outcome=Outcome,
    ci=contract.CiRun(3, {"num_attributes": 20, "k": 2, "num_workloads": 12, "alpha": 0.2, "fractions": "1.0"}),
    opponents=TRIVIAL_ALGORITHMS,
    controls=NEGATIVE_CONTROLS,
)
