"""LVSUW21 Proposition 4.3: at n >= (8/alpha^2) log(4|Q|/beta) private and
m >= (32 e^{D2}/alpha^2 + 8 e^{Dinf}/(3 alpha)) log((4|Q|+4)/beta) public samples, the best mixture
error of the public support is <= alpha with probability >= 1 - beta; and how loose that m is.

mu (private) and nu (public) are known distributions: a seeded random Bayesian network over
``num_attributes`` binary attributes and its shifted copy (``simulations.data.synthetic``), held as
exact vectors, so D_2(mu || nu) and D_inf(mu || nu) are exact (``simulations.distributions``).
Q = all ``k``-way marginals. n and m come from ``bounds.compute("lvsuw21:prop4.3", ...)``.
A trial draws D~ ~ mu^n, D^ ~ nu^m and computes f_{D~,Q}(supp(D^)) exactly (the LP of
``algorithms.query_release.mixture``) on D^ and on its first ceil(frac m) rows for each ``fractions``
entry: the smallest fraction still meeting 1 - beta (by its Clopper-Pearson lower bound) says by
how much Proposition 4.3's m is loose. Only the full m gets a verdict; every fraction < 1 is
``below-bound`` (a measurement). Not yet done (issue 9): the regime |X| >> m, where the support
cannot cover the domain (at the default |X| = 1024 cells against m ~ 1.4e5 samples the proposition
holds by coverage, not by its D_2 / D_inf argument).

Negative control (``variant="support_from_one"``, ``simulations.contract``): the support is the first public
row only; at Proposition 4.3's own n and m its best mixture error exceeds alpha, and the verdict must be
"violated".
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from algorithms.query_release.mixture import best_mixture_error
from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers
from algorithms.query_release.workloads import CategoricalDomain, MarginalQueries, all_k_way
from simulations import contract, stats
from simulations.data.synthetic import random_network, shifted
from simulations.distributions import renyi_d2, renyi_dinf

NAME = "prop4_3"
RESULT_IDS = ("lvsuw21:prop4.3",)
DESCRIPTION = "best mixture error of the public support <= alpha w.p. >= 1 - beta at Prop 4.3's n, m; looseness of m"
PARAM_HELP = {
    "alpha": "target best mixture error, in (0, 1)",
    "beta": "failure probability, in (0, 1)",
    "num_attributes": "binary attributes of the domain (2^d cells), integer in [2, 12]",
    "k": "marginal order of the queries, integer in [1, num_attributes]",
    "shift": "public network = private tables moved this far toward fresh Dirichlet rows, in [0, 1)",
    "network_seed": "seed of the two networks (fixed across trials), integer >= 0",
    "fractions": "fractions of m also evaluated (looseness of m), each in (0, 1]",
    "confidence": "confidence level of the verdicts, in (0, 1)",
    "variant": "none, or the negative control support_from_one (the support is the first public row only)",
}
NEGATIVE_CONTROLS = {"support_from_one": "the public support is the first public row only (the other m - 1 ignored)"}


@dataclass(frozen=True)
class Params:
    alpha: float = 0.1
    beta: float = 0.1
    num_attributes: int = 10
    k: int = 3
    shift: float = 0.3
    network_seed: int = 0
    fractions: tuple = (1.0, 0.25, 0.0625, 0.015625, 0.00390625, 0.0009765625, 0.0001220703125)
    confidence: float = 0.95
    variant: str = contract.NO_VARIANT

    def __post_init__(self):
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha={self.alpha!r} must lie in (0, 1)")
        if not 0 < self.beta < 1:
            raise ValueError(f"beta={self.beta!r} must lie in (0, 1)")
        if not (isinstance(self.num_attributes, int) and 2 <= self.num_attributes <= 12):
            raise ValueError(f"num_attributes={self.num_attributes!r} must be an integer in [2, 12]")
        if not (isinstance(self.k, int) and 1 <= self.k <= self.num_attributes):
            raise ValueError(f"k={self.k!r} must be an integer in [1, num_attributes]")
        if not 0 <= self.shift < 1:
            raise ValueError(f"shift={self.shift!r} must lie in [0, 1)")
        if not (isinstance(self.network_seed, int) and self.network_seed >= 0):
            raise ValueError(f"network_seed={self.network_seed!r} must be an integer >= 0")
        if not self.fractions or not all(0 < f <= 1 for f in self.fractions) or self.fractions[0] != 1.0:
            raise ValueError(f"fractions={self.fractions!r} must start with 1.0, each in (0, 1]")
        if not 0 < self.confidence < 1:
            raise ValueError(f"confidence={self.confidence!r} must lie in (0, 1)")
        contract.check_variant(self.variant, NEGATIVE_CONTROLS)


@functools.lru_cache(maxsize=16)
def setting(params: Params) -> dict:
    """The fixed pair (mu, nu), exact D_2, D_inf, the queries, and n, m from bounds (Prop 4.3)."""
    import bounds

    rng = np.random.default_rng(params.network_seed)
    domain = CategoricalDomain([2] * params.num_attributes)
    private = random_network(domain, rng)
    public = shifted(private, params.shift, rng)
    mu, nu = private.joint(), public.joint()
    d2, dinf = float(renyi_d2(mu, nu)), float(renyi_dinf(mu, nu))
    workloads = all_k_way(domain, params.k)
    num_queries = MarginalQueries(domain, workloads, domain.rows(np.arange(1))).num_queries
    q = bounds.compute(RESULT_IDS[0], alpha=params.alpha, beta=params.beta, num_queries=num_queries,
                       renyi_2=d2, renyi_inf=dinf).quantities
    return {"domain": domain, "workloads": workloads, "mu": mu, "nu": nu, "D2": d2, "Dinf": dinf,
            "num_queries": num_queries, "n": int(q["private_samples"].exact),
            "m": int(q["public_samples"].exact)}


def trial(params: Params, rng: np.random.Generator) -> dict:
    """One draw of D~ ~ mu^n, D^ ~ nu^m; f on supp(D^) and on the supports of its prefixes."""
    s = setting(params)
    dom = s["domain"]
    priv = dom.rows(rng.choice(dom.size, size=s["n"], p=s["mu"]))
    pub = dom.rows(rng.choice(dom.size, size=s["m"], p=s["nu"]))
    true = marginal_answers(dom, s["workloads"], priv)
    errors, supports = [], []
    for frac in params.fractions:
        used = 1 if params.variant == "support_from_one" else max(1, math.ceil(frac * s["m"]))
        support, _ = distinct_rows(pub[:used])
        errors.append(best_mixture_error(true, MarginalQueries(dom, s["workloads"], support)).error)
        supports.append(int(support.shape[0]))
    return {"best_mixture_error": errors, "support_size": supports,
            "success": [bool(e <= params.alpha) for e in errors]}


def summarise(records: list[dict], params: Params) -> dict:
    """Verdict on Pr[f <= alpha] >= 1 - beta at Prop 4.3's m; per-fraction rates; looseness of m."""
    if not records:
        raise ValueError("records must hold at least one trial")
    s = setting(params)
    t = len(records)
    per = []
    for j, frac in enumerate(params.fractions):
        succ = sum(1 for r in records if r["success"][j])
        # a fraction < 1 runs below Proposition 4.3's m: a measurement of the looseness, never a verdict
        v = stats.verdict(succ, t, 1 - params.beta, params.confidence, at_bound=frac >= 1.0)
        errs = np.array([r["best_mixture_error"][j] for r in records])
        per.append({"fraction": frac, "m": max(1, math.ceil(frac * s["m"])), "successes": succ,
                    "verdict": v.status, "lower": v.lower, "mean_error": float(errs.mean()),
                    "max_error": float(errs.max()),
                    "mean_support": float(np.mean([r["support_size"][j] for r in records]))})
    # looseness of m: the smallest fraction whose one-sided lower bound still reaches 1 - beta
    enough = [p["fraction"] for p in per if p["lower"] >= 1 - params.beta]
    main = stats.verdict(per[0]["successes"], t, 1 - params.beta, params.confidence)
    return {
        "result_id": RESULT_IDS[0],
        "claim": "Pr[f_{D~,Q}(supp D^) <= alpha] >= 1 - beta at Prop 4.3's n and m",
        "bound_source": (f"bounds.compute('{RESULT_IDS[0]}', alpha={params.alpha}, beta={params.beta}, "
                         f"num_queries={s['num_queries']}, renyi_2={s['D2']:.6g}, renyi_inf={s['Dinf']:.6g})"),
        "n": s["n"], "m": s["m"], "D2": s["D2"], "Dinf": s["Dinf"], "num_queries": s["num_queries"],
        "domain_size": s["domain"].size,
        "variant": params.variant, "negative_control": params.variant in NEGATIVE_CONTROLS,
        "verdict": main.status, "verdict_text": str(main), "verdict_detail": main.as_dict(),
        "per_fraction": per,
        "smallest_fraction_meeting_target": min(enough) if enough else None,
        "m_looseness_at_least": (1 / min(enough)) if enough else None,
    }
