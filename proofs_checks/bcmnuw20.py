"""BCMNUW20 (ICML 000 and arXiv 003): checks of Sauer's lemma, Claim 3, Fact 4, Lemma 11, the proof of
Theorem 10, every inequality of the proof of Theorem 13, and the two versions of Theorems 13 and 14."""
from __future__ import annotations

import math
import os
from pathlib import Path

import numpy as np

from . import _classes as C
from bounds.ops import NUMPY
from bounds.papers.bcmnuw20 import claim3_log_domain, fact4_max_dual_vc, lemma11_g, sauer_log_projection

from ._bcmnuw20_sources import ARXIV, ICML, PAPER, SEEDS
from .core import (FAILS, PART, Case, Check, Exhaustive, Identity, Inequality, Var, bounds_value,
                   check_exhaustive, not_checkable, register)
from ._bcmnuw20_thm13 import (  # noqa: F401  (Theorem 13's claim builders, registered below)
    NM, case_split_claim, conclusion_claim, dp_step_claim, least_n_claim, markov_claim, markov_lhs, neighbour_claim,
    threshold_claim,
)

#: the seed texts (``../shared/papers`` next to the checkout; override with PUBPRIV_PAPERS)
#: how a check whose inputs are absent begins its reason (the report shows it as "not checkable here", never as a
#: changed verdict)
NOT_HERE = "not checkable here"
PAPERS_DIR = Path(os.environ.get("PUBPRIV_PAPERS", Path(__file__).resolve().parents[2] / "shared" / "papers"))


# ---------------------------------------------------------------------------------------------
# Sauer's lemma and the bound on |H~| (Theorem 10's proof)


def sauer_sum(k, d):
    """Sauer-Shelah: sum_{i <= d} C(k, i)."""
    return sum(math.comb(k, i) for i in range(0, d + 1))


def sauer_closed(k, d):
    """BCMNUW20 Theorem 10 proof: min(2^k, (e k/d)^d) (bounds ``sauer_log_projection``), k >= d >= 1."""
    return float(np.exp(sauer_log_projection(NUMPY, float(k), float(d))))


def claim3_bound(h, p):
    """BCMNUW20 Claim 3: |X_H~| <= (e|H~|/p~)^p~ (and <= 2^|H~|), from bounds ``claim3_log_domain``."""
    return float(np.exp(claim3_log_domain(NUMPY, math.log(h), float(p))))


def _growth_cases(max_k: int = 8):
    for cls in C.small_classes():
        d = C.vc(cls)
        for k in range(1, min(cls.num_points, max_k) + 1):
            yield Case(f"{cls.name}, k={k}", {"class": cls.name, "k": k, "d": d,
                                               "growth": C.growth(cls, k)}, size=k + cls.num_points)


def sauer_claim(chain, text: str) -> Exhaustive:
    """Pi_H(k) <= b_1(k, d) <= b_2(k, d) <= ... for every small class and every k >= d = VC(H) >= 1."""

    def holds(case):
        k, d, g = case.data["k"], case.data["d"], case.data["growth"]
        if d < 1 or k < d:
            return True, {}
        values = [g] + [b(k, d) for b in chain]
        ok = all(a <= b * (1 + 1e-12) for a, b in zip(values, values[1:]))
        return ok, {"chain": values}

    return Exhaustive(text, _growth_cases, holds)


def cover_size_claim(bound, text: str) -> Exhaustive:
    """|H~| <= bound(m, d) for covers built by Algorithm 3 from m public points, m >= d."""

    def cases():
        for cls, cov, m in C.covers():
            yield Case(f"{cls.name}, m={m}", {"class": cls.name, "m": m, "d": C.vc(cls), "cover": cov.size},
                       size=m + cls.num_points)

    def holds(case):
        m, d, s = case.data["m"], case.data["d"], case.data["cover"]
        if d < 1 or m < d:
            return True, {}
        b = bound(m, d)
        return s <= b * (1 + 1e-12), {"bound": b}

    return Exhaustive(text, cases, holds)


def claim3_claim(bound, text: str) -> Exhaustive:
    """BCMNUW20 Claim 3: |X_H~| <= bound(|H~|, VC_dual(H~)) for covers of the small classes and the classes."""

    def cases():
        for cls, cov, m in C.covers():
            sub = cov.member_class()
            yield Case(f"cover of {cls.name}, m={m}",
                       {"H~": cov.size, "p~": C.dual_vc(sub), "X~": cov.representative_domain().size},
                       size=cov.size)
        for cls in C.small_classes():
            yield Case(cls.name, {"H~": cls.num_distinct_hypotheses, "p~": C.dual_vc(cls),
                                  "X~": cls.num_distinct_points}, size=cls.num_hypotheses)

    def holds(case):
        h, p, x = case.data["H~"], case.data["p~"], case.data["X~"]
        b = 1.0 if p == 0 else bound(h, p)
        return x <= b * (1 + 1e-12), {"bound": b}

    return Exhaustive(text, cases, holds)


def fact4_claim(holds_fn, text: str) -> Exhaustive:
    """BCMNUW20 Fact 4 (Assouad 1983): a relation between VC(H) and VC_dual(H) on every small class."""

    def cases():
        for cls in C.small_classes():
            yield Case(cls.name, {"d": C.vc(cls), "p": C.dual_vc(cls)}, size=cls.num_points)
        rng = np.random.default_rng(4)
        for i in range(40):  # random small classes of every density
            h, n = int(rng.integers(2, 12)), int(rng.integers(2, 9))
            cls = C.random_class(h, n, rng, density=float(rng.uniform(0.2, 0.8)))
            yield Case(f"random#{i} {h}x{n}", {"d": C.vc(cls), "p": C.dual_vc(cls)}, size=n)

    def holds(case):
        return bool(holds_fn(case.data["d"], case.data["p"])), {}

    return Exhaustive(text, cases, holds)


def dual_monotone_claim(slack: int, text: str) -> Exhaustive:
    """Theorem 10 proof (Claim 3 step): VC_dual(H~) <= VC_dual(H) - slack for H~ a subclass of H."""

    def cases():
        for cls, cov, m in C.covers():
            yield Case(f"cover of {cls.name}, m={m}", {"p~": C.dual_vc(cov.member_class()), "p": C.dual_vc(cls)},
                       size=cls.num_points + m)

    return Exhaustive(text, cases, lambda c: (c.data["p~"] <= c.data["p"] - slack, {}))


def cover_mean_claim(factor: float, text: str) -> Exhaustive:
    """Lemma 11 -> Theorem 10: |E_D h - E_D h~| <= factor * P_D[h != h~] for +-1 valued h, h~."""

    def cases():
        rng = np.random.default_rng(7)
        for cls in C.small_classes():
            s = cls.signs().astype(float)  # (H, N) in {-1, +1}
            for j in range(3):
                D = rng.dirichlet(np.ones(cls.num_points) * 0.5)
                mean = s @ D
                dis = (s[:, None, :] != s[None, :, :]).astype(float) @ D
                gap = np.abs(mean[:, None] - mean[None, :])
                yield Case(f"{cls.name}, D#{j}", {"max_excess": float(np.max(gap - factor * dis))},
                           size=cls.num_points)

    return Exhaustive(text, cases, lambda c: (c.data["max_excess"] <= 1e-12, {}))


def representative_claim(mapper, text: str) -> Exhaustive:
    """Theorem 10 proof: E[h~(X_H~(x))] = E[h~(x)], i.e. h~(X_H~(x)) = h~(x) for every h~ in H~ and x."""

    def cases():
        for cls, cov, m in C.covers():
            mat = cov.matrix()
            rep = mapper(cov)
            yield Case(f"cover of {cls.name}, m={m}",
                       {"mismatches": int(np.sum(mat[:, rep] != mat))}, size=cls.num_points + m)

    return Exhaustive(text, cases, lambda c: (c.data["mismatches"] == 0, {}))


# --- the O(.) chain of Theorem 10: log|H~| <= d log(e m / d) with the m of Lemma 11


def thm10_log_cover(o, alpha, beta, d):
    """Theorem 10 proof: log|H~| <= log Phi_d(m) <= d log(e m/d), m = Lemma 11's public sample size.

    Both formulas come from bounds: ``bcmnuw20:lemma11`` (ABM19 Lemma 3.3 at alpha/4, beta/2, solved
    for the least m) and ``sauer_log_projection``.
    """
    m = bounds_value("bcmnuw20:lemma11", "public_samples", alpha=alpha, beta=beta, vc=d)
    return sauer_log_projection(o, m, d)


THM10_DOMAIN = (Var("alpha", 1e-8, 0.999, points=30), Var("beta", 1e-12, 0.999, points=30),
                Var("d", 1, 200, integer=True, points=12))


def thm10_log_claim(K: float, form, text: str) -> Inequality:
    return Inequality(text, thm10_log_cover, lambda o, alpha, beta, d: K * form(o, alpha, beta, d), THM10_DOMAIN,
                      region=lambda o, alpha, beta, d: alpha <= 0.5, region_text="alpha <= 1/2 (any beta, d)")


def form_thm10(o, alpha, beta, d):
    return d * o.log(1 / alpha) + o.log(1 / beta)


def form_thm10_mid(o, alpha, beta, d):
    return d * o.log(1 / alpha) + d * o.log(1 + o.log(1 / beta) / d)



def text_claim(quotes, text: str) -> Exhaustive:
    """Each (file, regex, meaning) quote occurs in the seed text (the version comparison's evidence)."""
    import re

    def cases():
        for i, (fname, pattern, meaning) in enumerate(quotes):
            yield Case(f"{fname}: {meaning}", {"file": fname, "pattern": pattern}, size=i)

    def holds(case):
        path = PAPERS_DIR / case.data["file"]
        if not path.exists():
            return False, {"why": f"seed file {path} not found"}
        return re.search(case.data["pattern"], path.read_text(encoding="utf-8")) is not None, {}

    return Exhaustive(text, cases, holds)


def text_runner(claim: Exhaustive):
    """The text check needs the seed files; without them it is not machine-checkable here (not a finding)."""
    missing = [f for f in (ICML, ARXIV) if not (PAPERS_DIR / f).exists()]
    if missing:
        return not_checkable(f"{NOT_HERE}: the paper texts {', '.join(missing)} are not in {PAPERS_DIR} (the default "
                             "is ../shared/papers beside the checkout; PUBPRIV_PAPERS=DIR names another directory)")
    return check_exhaustive(claim)


def lemma11_direction_claim(claimed, text: str) -> Exhaustive:
    """Lemma 11 (= ABM19 Lemma 3.3 at alpha/4, beta/2): the cover guarantee (failure <= beta/2) holds for
    every m in the claimed set; ``claimed(m, m_star)`` where m_star = C (d log(4/alpha) + log(2/beta))/(alpha/4)."""
    from bounds.ops import NUMPY

    def cases():
        for alpha in (0.3, 0.1, 0.01):
            for beta in (0.5, 0.05):
                for d in (1, 3, 10):
                    m_star = 60 * (d * math.log(4 / alpha) + math.log(2 / beta)) / (alpha / 4)
                    for frac in (1 / m_star, 0.01, 0.1, 0.5, 1.0, 2.0, 10.0):
                        m = max(1.0, math.ceil(frac * m_star))
                        if claimed(m, m_star):
                            yield Case(f"alpha={alpha}, beta={beta}, d={d}, m={m:g}",
                                       {"alpha": alpha, "beta": beta, "d": d, "m": m, "m_star": m_star}, size=m)

    def holds(case):
        a, b, d, m = (case.data[k] for k in ("alpha", "beta", "d", "m"))
        lt = float(lemma11_g(NUMPY, m, a, b, d))
        return lt <= 0, {"log_tail_over_beta": lt}

    return Exhaustive(text, cases, holds)


# ---------------------------------------------------------------------------------------------
# registration


# ---------------------------------------------------------------------------------------------
# Lemma 7 (PMW): its checks are in bcmnuw20_lemma7, registered here (paper order)
from . import bcmnuw20_lemma7  # noqa: E402,F401

register(
    Check(
        id="bcmnuw20:sauer", paper=PAPER, result="thm10",
        claim="Sauer's lemma: Pi_H(k) <= sum_{i<=d} C(k, i) <= (e k/d)^d for k >= d = VC(H)",
        source=f"{SEEDS}; Theorem 10 proof ('by Sauer's lemma |H~| <= (em/d)^d')",
        method="exhaustive",
        stated=sauer_claim([sauer_sum, sauer_closed], "Pi_H(k) <= sum_{i<=d} C(k,i) <= (ek/d)^d"),
        formula_from="bounds.papers.bcmnuw20.sauer_log_projection (closed form); the sum is Sauer-Shelah's",
        perturbed={"closed form without e": sauer_claim([sauer_sum, lambda k, d: (k / d) ** d],
                                                       "sum_{i<=d} C(k,i) <= (k/d)^d"),
                   "sum to d-1": sauer_claim([lambda k, d: sauer_sum(k, d - 1)], "Pi_H(k) <= sum_{i<d} C(k,i)")},
    ),
    Check(
        id="bcmnuw20:thm10.cover-size", paper=PAPER, result="thm10",
        claim="|H~| <= (e m/d)^d for the cover built by Algorithm 3 from m public points (m >= d)",
        source=f"{SEEDS}; Theorem 10 proof",
        method="exhaustive",
        stated=cover_size_claim(sauer_closed, "|H~| <= (em/d)^d"),
        perturbed={"no e": cover_size_claim(lambda m, d: (m / d) ** d, "|H~| <= (m/d)^d")},
        formula_from="bounds.papers.bcmnuw20.sauer_log_projection",
    ),
    Check(
        id="bcmnuw20:claim3", paper=PAPER, result="claim3",
        claim="Claim 3: |X_H~| <= (e |H~| / VC_dual(H~))^VC_dual(H~) for every finite class H~",
        source=f"{SEEDS}; Section 2.1, Claim 3",
        method="exhaustive",
        stated=claim3_claim(claim3_bound, "|X_H~| <= (e|H~|/p~)^p~"),
        perturbed={"no e": claim3_claim(lambda h, p: (h / p) ** p, "|X_H~| <= (|H~|/p~)^p~")},
        formula_from="bounds.papers.bcmnuw20.claim3_log_domain",
    ),
    Check(
        id="bcmnuw20:fact4", paper=PAPER, result="fact4",
        claim="Fact 4 (Assouad 1983): VC_dual(H) < 2^(VC(H)+1)",
        source=f"{SEEDS}; Section 2.1, Fact 4",
        method="exhaustive",
        stated=fact4_claim(lambda d, p: p <= fact4_max_dual_vc(NUMPY, d), "VC_dual(H) <= 2^(VC(H)+1) - 1"),
        perturbed={"2^VC": fact4_claim(lambda d, p: p < 2 ** d, "VC_dual(H) < 2^VC(H)")},
        formula_from="bounds.papers.bcmnuw20.fact4_max_dual_vc",
    ),
    Check(
        id="bcmnuw20:lemma11.versions", paper=PAPER, result="lemma11",
        claim=("Lemma 11 is a lower bound on m: the alpha/4-cover guarantee holds for every "
               "m >= C (d log(1/alpha) + log(1/beta))/alpha (arXiv: 'as long as m = Omega(.)'), not for every "
               "m up to that size (ICML: 'where m = O(.)')"),
        source=f"{ICML} Lemma 11 ('m = O(...)') vs {ARXIV} Lemma 11 ('as long as m = Omega(...)')",
        method="exhaustive",
        stated=lemma11_direction_claim(lambda m, ms: m <= ms, "ICML reading: guarantee for m <= C(...)/alpha"),
        expect=FAILS,
        corrected=lemma11_direction_claim(lambda m, ms: m >= ms, "arXiv reading: guarantee for m >= C(...)/alpha"),
        perturbed={"any m": lemma11_direction_claim(lambda m, ms: True, "guarantee for every m")},
        errata=("bcmnuw20-lemma11-O-vs-Omega",),
        formula_from="bounds.papers.bcmnuw20.lemma11_g (ABM19 inequality (1) at alpha/4, beta/2)",
    ),
    Check(
        id="bcmnuw20:lemma11.cover-to-mean", paper=PAPER, result="lemma11",
        claim="An alpha/4-cover gives sup_h |E h - E h~| <= alpha/2: |E_D h - E_D h~| <= 2 P_D[h != h~] for +-1 "
              "functions",
        source=f"{SEEDS}; Theorem 10 proof, first display",
        method="exhaustive",
        stated=cover_mean_claim(2.0, "|E h - E h~| <= 2 P[h != h~]"),
        perturbed={"factor 1": cover_mean_claim(1.0, "|E h - E h~| <= P[h != h~]")},
    ),
    Check(
        id="bcmnuw20:thm10.log-cover", paper=PAPER, result="thm10",
        claim=("Theorem 10 proof: log|H~| <= d log(em/d) = O(d log(1/alpha) + log(1/beta)) with m from Lemma 11; "
               "explicit: <= 12 (d log(1/alpha) + log(1/beta))"),
        source=f"{SEEDS}; Theorem 10 proof, display after Sauer's lemma",
        method="numeric grid + hypothesis",
        stated=thm10_log_claim(12.0, form_thm10, "d log(em/d) <= 12 (d log(1/alpha) + log(1/beta))"),
        expect=PART,
        perturbed={"drop log(1/alpha)": thm10_log_claim(12.0, lambda o, alpha, beta, d: d + o.log(1 / beta),
                                                        "d log(em/d) <= 12 (d + log(1/beta))"),
                   "constant 2": thm10_log_claim(2.0, form_thm10, "d log(em/d) <= 2 (d log(1/alpha) + log(1/beta))")},
        errata=("bcmnuw20-thm10-small-alpha",),
        formula_from="bounds:bcmnuw20:lemma11 (m), bounds.papers.bcmnuw20.sauer_log_projection",
    ),
    Check(
        id="bcmnuw20:thm10.log-cover-mid", paper=PAPER, result="thm10",
        claim="Theorem 10 proof: d log(em/d) = O(d log(1/alpha) + d log(1 + log(1/beta)/d)); explicit constant 12",
        source=f"{SEEDS}; Theorem 10 proof, middle term of the display",
        method="numeric grid + hypothesis",
        stated=thm10_log_claim(12.0, form_thm10_mid, "d log(em/d) <= 12 (d log(1/alpha) + d log(1 + log(1/beta)/d))"),
        expect=PART,
        perturbed={"constant 2": thm10_log_claim(2.0, form_thm10_mid,
                                                  "d log(em/d) <= 2 (d log(1/alpha) + d log(1 + log(1/beta)/d))")},
        errata=("bcmnuw20-thm10-small-alpha",),
        formula_from="bounds:bcmnuw20:lemma11 (m), bounds.papers.bcmnuw20.sauer_log_projection",
    ),
    Check(
        id="bcmnuw20:thm10.log1p", paper=PAPER, result="thm10",
        claim="Theorem 10 proof: d log(1 + log(1/beta)/d) <= log(1/beta)",
        source=f"{SEEDS}; Theorem 10 proof, last equality of the display",
        method="numeric grid + hypothesis",
        stated=Inequality("d log(1 + L/d) <= L", lambda o, L, d: d * o.log1p(L / d), lambda o, L, d: L,
                          (Var("L", 1e-9, 1e4), Var("d", 1, 1000, integer=True))),
        perturbed={"half": Inequality("d log(1 + L/d) <= L/2", lambda o, L, d: d * o.log1p(L / d),
                                      lambda o, L, d: L / 2, (Var("L", 1e-9, 1e4), Var("d", 1, 1000, integer=True)))},
    ),
    Check(
        id="bcmnuw20:thm10.dual-monotone", paper=PAPER, result="thm10",
        claim="Theorem 10 proof (Claim 3 step): VC_dual(H~) <= VC_dual(H) = p for the cover H~, a subclass of H",
        source=f"{SEEDS}; Theorem 10 proof, 'log|X_H~| = O(VC_dual(H~)(...)) <= O(p(...))'",
        method="exhaustive",
        stated=dual_monotone_claim(0, "VC_dual(H~) <= VC_dual(H)"),
        perturbed={"strict": dual_monotone_claim(1, "VC_dual(H~) <= VC_dual(H) - 1")},
    ),
    Check(
        id="bcmnuw20:thm10.representatives", paper=PAPER, result="thm10",
        claim="Theorem 10 proof: E_x[h~(X_H~(x))] = E_x[h~(x)] (h~ is constant on each class of the representative "
              "domain)",
        source=f"{SEEDS}; Theorem 10 proof, last display (first equality)",
        method="exhaustive",
        stated=representative_claim(lambda cov: cov.representative_domain().point_to_representative,
                                    "h~(X_H~(x)) = h~(x)"),
        perturbed={"first point": representative_claim(lambda cov: np.zeros(cov.cls.num_points, dtype=int),
                                                       "h~(x_0) = h~(x)")},
    ),
    Check(
        id="bcmnuw20:thm10.accounting", paper=PAPER, result="thm10",
        claim=("Theorem 10 proof: cover error 2 (alpha/4) plus PMW error alpha/2 is alpha; failure "
               "beta/2 + beta/2 = beta"),
        source=f"{SEEDS}; Algorithm 3 (PMW at alpha/2, beta/2), Lemma 11 (alpha/4, beta/2)",
        method="symbolic",
        stated=Identity("2 (alpha/4) + alpha/2 + beta/2 + beta/2 = alpha + beta",
                        lambda o, alpha, beta: 2 * (alpha / 4) + alpha / 2 + beta / 2 + beta / 2,
                        lambda o, alpha, beta: alpha + beta, (Var("alpha", 1e-6, 1), Var("beta", 1e-6, 1))),
        perturbed={"alpha/2 cover": Identity("2 (alpha/2) + alpha/2 = alpha",
                                             lambda o, alpha, beta: 2 * (alpha / 2) + alpha / 2 + beta,
                                             lambda o, alpha, beta: alpha + beta,
                                             (Var("alpha", 1e-6, 1), Var("beta", 1e-6, 1)))},
    ),
    # --- Theorem 13 -----------------------------------------------------------------------
    Check(
        id="bcmnuw20:thm13.markov-identity", paper=PAPER, result="thm13",
        claim="Theorem 13 proof: (m+1)(1 - 1/(n+m)^2) - m = 1 - (m-1)/(n+m)^2 (as printed)",
        source=f"{SEEDS}; Theorem 13 proof, display after Markov's inequality (both versions)",
        method="symbolic",
        stated=Identity("(m+1)(1-1/(n+m)^2) - m = 1 - (m-1)/(n+m)^2", markov_lhs,
                        lambda o, n, m: 1 - (m - 1) / (n + m) ** 2, NM),
        expect=FAILS,
        corrected=Identity("(m+1)(1-1/(n+m)^2) - m = 1 - (m+1)/(n+m)^2", markov_lhs,
                           lambda o, n, m: 1 - (m + 1) / (n + m) ** 2, NM),
        perturbed={"m": Identity("... = 1 - m/(n+m)^2", markov_lhs, lambda o, n, m: 1 - m / (n + m) ** 2, NM)},
        errata=("bcmnuw20-thm13-m-1",),
    ),
    Check(
        id="bcmnuw20:thm13.chain-1", paper=PAPER, result="thm13",
        claim="Theorem 13 proof: 1 - (m+1)/(n+m)^2 >= 1 - 1/(n+m) for n >= 1 (holds with the printed m-1 too)",
        source=f"{SEEDS}; Theorem 13 proof, same display, next line",
        method="numeric grid + hypothesis",
        stated=Inequality("1-(m+1)/(n+m)^2 >= 1-1/(n+m)", lambda o, n, m: 1 - (m + 1) / (n + m) ** 2,
                          lambda o, n, m: 1 - 1 / (n + m), NM, rel=">=", symbolic=True),
        perturbed={"square": Inequality("1-(m+1)/(n+m)^2 >= 1-1/(n+m)^2", lambda o, n, m: 1 - (m + 1) / (n + m) ** 2,
                                        lambda o, n, m: 1 - 1 / (n + m) ** 2, NM, rel=">=", symbolic=True)},
    ),
    Check(
        id="bcmnuw20:thm13.chain-2", paper=PAPER, result="thm13",
        claim="Theorem 13 proof: 1 - 1/(n+m) >= 1 - 1/n >= 1/2 (needs n >= 2; the proof later needs n >= 11)",
        source=f"{SEEDS}; Theorem 13 proof, same display, last line",
        method="numeric grid + hypothesis",
        stated=Inequality("min(1-1/(n+m), 1-1/n) >= 1/2", lambda o, n, m: o.min(1 - 1 / (n + m), 1 - 1 / n),
                          lambda o, n, m: 0.5 + 0 * n, NM, rel=">=", region=lambda o, n, m: n >= 2,
                          region_text="n >= 2"),
        expect=PART,
        errata=("bcmnuw20-thm13-small-n",),
        perturbed={"3/4": Inequality("1-1/n >= 3/4", lambda o, n, m: 1 - 1 / n, lambda o, n, m: 0.75 + 0 * n, NM,
                                     rel=">=", region=lambda o, n, m: n >= 2, region_text="n >= 2")},
    ),
    Check(
        id="bcmnuw20:thm13.neighbour", paper=PAPER, result="thm13",
        claim="Theorem 13 proof: 1 - 1/(r+t)^2 >= 1 - 1/(n+m)^2 when n+m <= r+t, and 1/(n+m)^2 <= 1/n^2",
        source=f"{SEEDS}; Theorem 13 proof, first display and the neighbouring-dataset display",
        method="numeric grid + hypothesis",
        stated=neighbour_claim(),
        perturbed={"flipped": Inequality("1/(n+m)^2 >= 1/n^2 (flipped)", lambda o, n, m, s: 1 / n**2,
                                         lambda o, n, m, s: 1 / (n + m) ** 2, NM + (Var("s", 1, 200, integer=True),),
                                         where=lambda o, n, m, s: n + m <= s)},
    ),
    Check(
        id="bcmnuw20:thm13.standard-lower-bound", paper=PAPER, result="thm13",
        claim="Theorem 13 proof: (alpha, alpha)-accuracy implies n + m > t 'by the standard lower bound' for query "
              "release",
        source=f"{SEEDS}; Theorem 13 proof, first paragraph",
        method="none",
        stated=("a cited sample-complexity lower bound over all algorithms (t = Omega(1/alpha^2) with an unspecified "
                "constant, Theorem 14); no finite procedure decides it"),
        expect="not machine-checkable",
    ),
    Check(
        id="bcmnuw20:thm14.cited", paper=PAPER, result="thm14",
        claim="Theorem 14 (Dwork et al. 2015, Thm 17): the robust tracing attack with r = Omega~(sqrt(p)/alpha), t = "
              "Omega(1/alpha^2)",
        source=f"{SEEDS}; Theorem 14",
        method="none",
        stated=("a cited theorem (existence of a distribution and an attacker for every accurate algorithm) whose "
                "constants are not pinned in either version; only its use in Theorem 13 is checked here"),
        expect="not machine-checkable",
    ),
    Check(
        id="bcmnuw20:thm13.markov", paper=PAPER, result="thm13",
        claim=("Theorem 13 proof: sum_i P[T(q, z_i) = IN] = E[#IN] >= (m+1) P[#IN >= m+1] (Markov), the public "
               "terms sum to at most m, and some private i* has P >= (1/n) sum over private (so >= 1/(2n))"),
        source=f"{SEEDS}; Theorem 13 proof, the displays after 'Therefore, we have'",
        method="exhaustive",
        stated=markov_claim(0, "Markov with factor m + 1"),
        perturbed={"factor m + 2": markov_claim(1, "E[C] >= (m + 2) P[C >= m + 1]")},
    ),
    Check(
        id="bcmnuw20:thm13.case-split", paper=PAPER, result="thm13",
        claim=("Theorem 13 proof: assuming m <= t/2 - 1, P[#IN >= m+1] >= P[#IN >= t/2]; and the complement "
               "of the assumption gives m >= t/2"),
        source=f"{ARXIV} Theorem 13 proof ('m <= t/2 - 1 ... either m >= t/2 or n > t/2 + r'); {ICML} the same",
        method="exhaustive",
        stated=case_split_claim(lambda m, t: 2 * m <= t - 2, "A: m <= t/2 - 1"),
        expect=FAILS,
        corrected=case_split_claim(lambda m, t: 2 * m < t, "A: m < t/2"),
        perturbed={"m <= t/2": case_split_claim(lambda m, t: 2 * m <= t, "A: m <= t/2")},
        errata=("bcmnuw20-thm13-case-split",),
    ),
    Check(
        id="bcmnuw20:thm13.dp-step", paper=PAPER, result="thm13",
        claim="Theorem 13 proof: 1/(2n) <= e^eps/n^2 + 1/(4n) implies (and is equivalent to) ln(n/4) <= eps",
        source=f"{SEEDS}; Theorem 13 proof, last display",
        method="exhaustive",
        stated=dp_step_claim(lambda n: math.log(n / 4), "<=> ln(n/4) <= eps"),
        perturbed={"ln(n/2)": dp_step_claim(lambda n: math.log(n / 2), "<=> ln(n/2) <= eps")},
    ),
    Check(
        id="bcmnuw20:thm13.n-ge-11", paper=PAPER, result="thm13",
        claim="Theorem 13: A cannot be (1, 1/4n)-DP for n >= 11 (11 is the least n with ln(n/4) > 1)",
        source=f"{SEEDS}; Theorem 13 proof, last sentence",
        method="exhaustive",
        stated=least_n_claim(11, "ln(n/4) > 1 <=> n >= 11"),
        perturbed={"10": least_n_claim(10, "ln(n/4) > 1 <=> n >= 10"),
                   "12": least_n_claim(12, "ln(n/4) > 1 <=> n >= 12")},
    ),
    Check(
        id="bcmnuw20:thm13.conclusion", paper=PAPER, result="thm13",
        claim=("Theorem 13 proof: if m < t/2, n <= r and t < n+m <= r+t then A is not (1, 1/4n)-DP, hence "
               "'either n > r or m >= t/2'; the contradiction needs n >= 11"),
        source=f"{SEEDS}; Theorem 13 proof",
        method="exhaustive",
        stated=conclusion_claim(1, "holds for every n >= 1"),
        expect=FAILS,
        corrected=conclusion_claim(11, "holds for n >= 11"),
        expect_corrected=PART,
        perturbed={"n >= 10": conclusion_claim(10, "holds for n >= 10")},
        errata=("bcmnuw20-thm13-small-n",),
    ),
    Check(
        id="bcmnuw20:thm14.versions", paper=PAPER, result="thm14",
        claim=("Theorem 14: the attacker identifies at least t/2 samples (arXiv); the ICML text reads '>= 2t', "
               "an event impossible for s <= r + t < 2t samples"),
        source=f"{ICML} Theorem 14 ('|{{...}}| >= 2t') vs {ARXIV} Theorem 14 ('>= t/2'); same for 'm <= 2t - 1'",
        method="exhaustive",
        stated=threshold_claim(lambda t: 2 * t, "ICML text: #IN >= 2t"),
        expect=FAILS,
        corrected=threshold_claim(lambda t: t / 2, "arXiv: #IN >= t/2"),
        perturbed={"t+1": threshold_claim(lambda t: t + 1, "#IN >= t + 1")},
        errata=("bcmnuw20-thm14-2t",),
    ),
    Check(
        id="bcmnuw20:versions.text", paper=PAPER, result="thm13",
        claim=("The version comparison's quotations occur in the seed texts: Theorems 13 and 14 (and Lemma 11) "
               "as each version prints them"),
        source=SEEDS,
        method="text",
        stated=text_claim([
            (ICML, r"satisfies \(1, 1/4n\)-differential privacy, and is\s*\(α, α\)-accurate", "Thm 13: (1, 1/4n)-DP, "
             "(α, α)-accurate"),
            (ARXIV, r"satisfies \(1,1/4n\)\S*-differential privacy, and", "Thm 13: (1, 1/4n)-DP"),
            (ICML, r"≥ 2t ≥ 1 −", "Thm 14: '#IN ≥ 2t' (ICML extraction)"),
            (ARXIV, r"\\geq\\tfrac\{t\}\{2\}", "Thm 14: '#IN ≥ t/2'"),
            (ICML, r"m ≤ 2t − 1", "Thm 13 proof: 'm ≤ 2t − 1' (ICML extraction)"),
            (ARXIV, r"m\\leq\\frac\{t\}\{2\}-1", "Thm 13 proof: 'm ≤ t/2 − 1'"),
            (ICML, r"=1−\(m−1\)/\(n\+m\)2|= 1 − \(m − 1\)/\(n \+ m\)2", "Thm 13 proof: '1 − (m−1)/(n+m)^2'"),
            (ARXIV, r"=1-\(m-1\)/\(n\+m\)\^\{2\}", "Thm 13 proof: '1 − (m−1)/(n+m)^2'"),
            (ICML, r"where m = O d log\(1/α\)\+log\(1/β\)", "Lemma 11: 'where m = O(...)'"),
            (ARXIV, r"as long as\s+m=[^\n]*m=\\Omega", "Lemma 11: 'as long as m = Ω(...)'"),
        ], "quotations present"),
        perturbed={"absent quote": text_claim([(ARXIV, r"\\geq 2t\\b", "Thm 14 '≥ 2t' in arXiv")],
                                              "a quotation the arXiv text does not contain")},
        runner=text_runner,
    ),
)

# the explicit Theorems 13-15 and Lemma 17 (bounds.papers.bcmnuw20_explicit) are checked in their own module
from . import bcmnuw20_explicit  # noqa: E402,F401
