"""LVSUW21 (seed 002): checks of Lemma 4.2 (1/n-sensitivity of the best mixture error), Proposition 4.3 (Hoeffding,
Bernstein, the union bound, the final ratio, and a Monte-Carlo run of the whole statement) and Theorem 4.5 (zCDP
accounting, the CKS infimum and its closed upper bound)."""
from __future__ import annotations

import numpy as np

from bounds.papers.lvsuw21 import (prop4_3_m, prop4_3_n, thm4_5_eps0, thm4_5_eps_closed, thm4_5_objective,
                                   thm4_5_rho, thm4_5_rho_round)

from .core import (FAILS, Case, Check, Exhaustive, Identity, Inequality, MonteCarlo, Var, register)

PAPER = "LVSUW21"
SEED = "002_612460dc0cc18cc4.txt"

ALPHA = Var("alpha", 1e-4, 0.999)
BETA = Var("beta", 1e-12, 0.999)
Q = Var("num_queries", 1, 10**7, integer=True, points=12)
D2 = Var("D2", 0.0, 6.0, log=False, points=10)
DINF = Var("Dinf", 0.0, 6.0, log=False, points=10)
M_ = Var("m", 1, 10**9, integer=True, points=20)


# ---------------------------------------------------------------------------------------------
# Proposition 4.3


def bernstein_exponent(o, alpha, m, D2, Dinf):
    """Bernstein's inequality P[|sum - mean| >= t] <= 2 exp(-(t^2/2)/(m sigma^2 + M t/3)) at
    t = alpha m/4, sigma^2 = e^{D2}, M = e^{Dinf}: the exponent (t^2/2)/(m sigma^2 + M t/3)."""
    t = alpha * m / 4
    return (t**2 / 2) / (m * o.exp(D2) + o.exp(Dinf) * t / 3)


THIRD = (ALPHA, Var("m", 1, 10**4, integer=True, points=12), D2, DINF)


def _third_event_bound(o, alpha, m, D2, Dinf, w):
    """Prop 4.3's Bernstein bound with variance e^{D2} - w: w = 1 is the m^ event's (variance e^{D2} - 1), w = 0 the
    bound with e^{D2} that the union bound uses."""
    return o.exp(-alpha**2 * m / (32 * (o.exp(D2) - w) + o.frac(8, 3) * alpha * o.exp(Dinf)))


def third_event_path() -> Inequality:
    """The third event's claim bound(w = 1) <= bound(w = 0), proved as bound(w) <= bound(0) for every w in [0, 1] (w =
    1 among them: as strong, m real covers the integers): the bound decreases in w (its denominator 32 (e^{D2} - w) + c
    >= c > 0 falls; the prover shows the sign on the box), and at w = 0 both sides are one formula (sympy). Compared
    directly, the two sides differ by a relative 1e-15 where a^2 m is small, which no enclosure resolves."""
    return Inequality("bound(variance e^D2 - w) <= bound(variance e^D2), 0 <= w <= 1",
                      lambda o, alpha, m, D2, Dinf, w: _third_event_bound(o, alpha, m, D2, Dinf, w),
                      lambda o, alpha, m, D2, Dinf, w: _third_event_bound(o, alpha, m, D2, Dinf, 0),
                      (ALPHA, Var("m", 1, 10**4), D2, DINF, Var("w", 0.0, 1.0, log=False)), tight=True)


def bernstein_claim(c2: float, text: str) -> Identity:
    return Identity(text, bernstein_exponent,
                    lambda o, alpha, m, D2, Dinf: alpha**2 * m / (c2 * o.exp(D2) + o.frac(8, 3) * alpha * o.exp(Dinf)),
                    (ALPHA, M_, D2, DINF))


def terms_claim(range_bound, text: str) -> Exhaustive:
    """Prop 4.3 proof: for X ~ nu, g = mu/nu: E g = 1, E g^2 = e^{D2}, 0 <= g <= e^{Dinf},
    Var[g q] <= e^{D2}, Var[g] = e^{D2} - 1, and |g q - q(mu)| <= range_bound(e^{Dinf}) (Bernstein's M)."""

    def cases():
        rng = np.random.default_rng(43)
        for i in range(200):
            k = int(rng.integers(2, 9))
            nu = rng.dirichlet(np.ones(k) * rng.uniform(0.2, 3))
            mu = rng.dirichlet(np.ones(k) * rng.uniform(0.2, 3))
            g = mu / nu
            eD2, eDinf = float(np.sum(nu * g**2)), float(np.max(g))
            worst = 0.0
            for _ in range(10):
                q = rng.random(k) if rng.random() < 0.5 else (rng.random(k) < 0.5).astype(float)
                qm = float(mu @ q)
                var = float(nu @ (g * q) ** 2 - qm**2)
                worst = max(worst, var - eD2, float(np.max(np.abs(g * q - qm))) - range_bound(eDinf))
            worst = max(worst, abs(float(nu @ g) - 1), abs(float(nu @ g**2 - 1) - (eD2 - 1)))
            yield Case(f"random mu, nu #{i} on {k} points", {"e^D2": eD2, "e^Dinf": eDinf, "excess": worst}, size=k)

    return Exhaustive(text, cases,
                      lambda c: (c.data["excess"] <= 1e-12 * max(1.0, c.data["e^D2"], c.data["e^Dinf"]), {}))


def union_total(o, alpha, beta, num_queries, D2, Dinf, n_fn=prop4_3_n, m_fn=prop4_3_m):
    """Prop 4.3 proof, union bound: 2|Q| e^{-alpha^2 n/8} + (2|Q|+2) exp(-alpha^2 m/(32 e^{D2} + (8/3) alpha
    e^{Dinf}))."""
    n = n_fn(o, alpha, beta, num_queries)
    m = m_fn(o, alpha, beta, num_queries, D2, Dinf)
    return (2 * num_queries * o.exp(-alpha**2 * n / 8)
            + (2 * num_queries + 2) * o.exp(-alpha**2 * m / (32 * o.exp(D2) + o.frac(8, 3) * alpha * o.exp(Dinf))))


def union_claim(n_fn, m_fn, text: str) -> Inequality:
    return Inequality(text,
                      lambda o, alpha, beta, num_queries, D2, Dinf: union_total(o, alpha, beta, num_queries, D2, Dinf,
                          n_fn, m_fn),
                      lambda o, alpha, beta, num_queries, D2, Dinf: beta, (ALPHA, BETA, Q, D2, DINF),
                      where=lambda o, alpha, beta, num_queries, D2, Dinf: D2 <= Dinf,
                      tight=True)  # each term is beta/2 at the stated n and m: equality everywhere


def omega_claim(weights, text: str) -> Exhaustive:
    """Prop 4.3 proof: omega in Delta(X^) (sums to 1 over the support X^ of D^) and sum_x omega_x q(x)
    over X^ equals (1/m^) sum_{x in D^} g(x) q(x), the quantity the proof bounds.
    ``weights(counts, g, m)`` gives omega on the support."""

    def cases():
        rng = np.random.default_rng(431)
        for i in range(100):
            k = int(rng.integers(2, 6))
            m = int(rng.integers(1, 12))
            nu = rng.dirichlet(np.ones(k))
            mu = rng.dirichlet(np.ones(k))
            counts = rng.multinomial(m, nu)
            g = mu / nu
            supp = counts > 0
            w = weights(counts[supp], g[supp], m)
            q = rng.random(k)[supp]
            target = float(np.sum(counts[supp] * g[supp] * q) / np.sum(counts[supp] * g[supp]))
            yield Case(f"D^ of size {m} on {k} points", {"repeats": int(m - supp.sum()), "sum_omega": float(np.sum(w)),
                                                         "mixture_gap": abs(float(w @ q) - target)}, size=m)

    return Exhaustive(text, cases,
                      lambda c: (abs(c.data["sum_omega"] - 1) < 1e-12 and c.data["mixture_gap"] < 1e-12, {}))


def prop43_monte_carlo(scale: float, text: str, trials: int = 4000) -> MonteCarlo:
    """Prop 4.3 end to end on a 6-point domain with 8 random queries, at the stated n, m times ``scale``:
    the fraction of trials with max_q |q(D~) - sum_x omega_x q(x)| > alpha (an upper bound on f) is <= beta."""
    alpha, beta = 0.25, 0.2
    rng0 = np.random.default_rng(20210718)
    k, nq = 6, 8
    nu = rng0.dirichlet(np.ones(k) * 2)
    mu = 0.5 * nu + 0.5 * rng0.dirichlet(np.ones(k) * 2)
    g = mu / nu
    d2, dinf = float(np.log(nu @ g**2)), float(np.log(g.max()))
    Qm = rng0.random((nq, k))
    n = max(1, int(np.ceil(scale * prop4_3_n(np, alpha, beta, nq))))
    m = max(1, int(np.ceil(scale * prop4_3_m(np, alpha, beta, nq, d2, dinf))))

    def run(rng, t):
        cx = rng.multinomial(n, mu, size=t)            # private D~ ~ mu^n, as counts
        cw = rng.multinomial(m, nu, size=t)            # public D^ ~ nu^m, as counts
        priv = cx @ Qm.T / n
        w = cw * g
        pub = (w @ Qm.T) / w.sum(axis=1, keepdims=True)
        return int(np.sum(np.max(np.abs(priv - pub), axis=1) > alpha))

    return MonteCarlo(f"{text} (n = {n}, m = {m}, D2 = {d2:.3f}, Dinf = {dinf:.3f})", run, beta, trials, seed=43)


# ---------------------------------------------------------------------------------------------
# Lemma 4.2


def sensitivity_claim(scale: float, text: str) -> Exhaustive:
    """LVSUW21 Lemma 4.2: |f_{D,Q}(S) - f_{D',Q}(S)| <= scale/n for neighbours D, D' (one record replaced);
    f by the LP of algorithms.query_release.mixture, on random instances and on ones where the bound is tight
    (S answers every query 0, so f = max_q q(D) moves by exactly 1/n). The LP (and scipy) is imported when
    the check runs, not when it is registered (``--list`` imports only what it prints)."""

    def cases():
        from algorithms.query_release.mixture import best_mixture_error

        rng = np.random.default_rng(42)
        for i in range(40):
            k, nq, n = int(rng.integers(3, 8)), int(rng.integers(1, 6)), int(rng.integers(1, 9))
            Qm = (rng.random((nq, k)) < 0.5).astype(float) if i % 2 else rng.random((nq, k))
            S = rng.choice(k, size=int(rng.integers(1, k)), replace=False)
            if i % 4 == 0:  # tight: every point of S answers 0 and D gains one point answering 1
                Qm[:, S] = 0.0
                Qm[:, np.setdiff1d(np.arange(k), S)[0]] = 1.0
            D = rng.integers(0, k, size=n)
            D2 = D.copy()
            D2[0] = np.setdiff1d(np.arange(k), S)[0] if i % 4 == 0 else int(rng.integers(0, k))
            if i % 4 == 0:
                D[0] = S[0]
            f1 = best_mixture_error(Qm[:, D].mean(axis=1), Qm[:, S]).error
            f2 = best_mixture_error(Qm[:, D2].mean(axis=1), Qm[:, S]).error
            yield Case(f"instance #{i}: |X| = {k}, |Q| = {nq}, |S| = {S.size}, n = {n}",
                       {"n": n, "change": abs(f1 - f2), "bound": scale / n}, size=n + k)

    return Exhaustive(text, cases, lambda c: (c.data["change"] <= c.data["bound"] + 1e-7, {}))


# ---------------------------------------------------------------------------------------------
# Theorem 4.5


def printed_objective(o, a, rho, delta):
    """LVSUW21 Theorem 4.5 as printed, a rho + log(1/(a delta))/(a - 1) + log(1 - 1/a), at Renyi order a
    (bounds ``thm4_5_objective`` takes x = a - 1)."""
    return thm4_5_objective(o, a - 1, rho, delta)


def cks_epsilon(o, a, rho, delta):
    """Canonne-Kamath-Steinke 2020 (Prop. 12 / Cor. 13): Renyi DP (a, a rho) gives (eps, delta)-DP with
    delta = e^{(a-1)(a rho - eps)} (1 - 1/a)^a / (a - 1), solved for eps."""
    return a * rho + (o.log(1 / delta) - o.log(a - 1) + a * o.log(1 - 1 / a)) / (a - 1)


RHO = Var("rho", 1e-6, 50.0, points=30)
DELTA = Var("delta", 1e-15, 0.5, points=30)
A_GRID = np.expm1(np.linspace(np.log(1e-6), np.log(1e8), 3000)) + 1  # Renyi orders a > 1, dense in log(a - 1)


def grid_infimum(o, rho, delta, objective=printed_objective):
    """min over a dense grid of Renyi orders: an upper bound on the infimum (so <= closed proves inf <= closed)."""
    a = 1 + np.exp(np.linspace(np.log(1e-6), np.log(1e8), 3000))
    vals = objective(np, a[None, :], np.asarray(rho, float)[:, None], np.asarray(delta, float)[:, None])
    return np.min(vals, axis=1)


def closed_claim(closed, text: str) -> Inequality:
    return Inequality(text, lambda o, rho, delta: grid_infimum(o, np.atleast_1d(rho), np.atleast_1d(delta)),
                      lambda o, rho, delta: closed(o, rho, delta), (RHO, DELTA))


register(
    Check(
        id="lvsuw21:lemma4.2", paper=PAPER, result="lemma4.2",
        claim="Lemma 4.2: the best mixture error f_{D,Q}(S) is 1/n-sensitive in D (replace-one neighbours)",
        source=f"{SEED}; Definition 4.1, Lemma 4.2",
        method="exhaustive",
        stated=sensitivity_claim(1.0, "|f(D) - f(D')| <= 1/n"),
        perturbed={"1/(2n)": sensitivity_claim(0.5, "|f(D) - f(D')| <= 1/(2n)")},
        formula_from="algorithms.query_release.mixture.best_mixture_error (the LP of Definition 4.1)",
    ),
    Check(
        id="lvsuw21:prop4.3.hoeffding", paper=PAPER, result="prop4.3",
        claim="Prop 4.3 proof: Hoeffding at deviation alpha/4 gives 2 exp(-2n(alpha/4)^2) = 2 e^{-alpha^2 n/8}",
        source=f"{SEED}; proof of Proposition 4.3, first display",
        method="symbolic",
        stated=Identity("2 exp(-2 n (alpha/4)^2) = 2 exp(-alpha^2 n/8)",
                        lambda o, alpha, n: 2 * o.exp(-2 * n * (alpha / 4) ** 2),
                        lambda o, alpha, n: 2 * o.exp(-alpha**2 * n / 8), (ALPHA, Var("n", 1, 10**6, integer=True))),
        perturbed={"alpha/2": Identity("2 exp(-2 n (alpha/2)^2) = 2 exp(-alpha^2 n/8)",
                                       lambda o, alpha, n: 2 * o.exp(-2 * n * (alpha / 2) ** 2),
                                       lambda o, alpha, n: 2 * o.exp(-alpha**2 * n / 8),
                                       (ALPHA, Var("n", 1, 10**6, integer=True)))},
    ),
    Check(
        id="lvsuw21:prop4.3.bernstein", paper=PAPER, result="prop4.3",
        claim=("Prop 4.3 proof: Bernstein with t = alpha m/4, variance e^{D2}, range e^{Dinf} gives the exponent "
               "alpha^2 m/(32 e^{D2} + (8/3) alpha e^{Dinf})"),
        source=f"{SEED}; proof of Proposition 4.3, second display",
        method="symbolic",
        stated=bernstein_claim(32, "(t^2/2)/(m e^{D2} + e^{Dinf} t/3) = alpha^2 m/(32 e^{D2} + 8/3 alpha e^{Dinf})"),
        perturbed={"16": bernstein_claim(16, "... = alpha^2 m/(16 e^{D2} + ...)")},
    ),
    Check(
        id="lvsuw21:prop4.3.bernstein-terms", paper=PAPER, result="prop4.3",
        claim=("Prop 4.3 proof: E g = 1, E g^2 = e^{D2}, 0 <= g <= e^{Dinf}, Var[gq] <= e^{D2}, Var[g] = e^{D2} - 1, "
               "|g q - q(mu)| <= e^{Dinf} (the range Bernstein needs)"),
        source=f"{SEED}; proof of Proposition 4.3",
        method="exhaustive",
        stated=terms_claim(lambda e: e, "range e^{Dinf}"),
        perturbed={"range 1": terms_claim(lambda e: 1.0, "range 1")},
    ),
    Check(
        id="lvsuw21:prop4.3.third-event", paper=PAPER, result="prop4.3",
        claim=("Prop 4.3 proof: the m^ event's bound (variance e^{D2} - 1) is at most the bound with e^{D2}, so "
               "the union bound may use (2|Q| + 2) copies of the latter"),
        source=f"{SEED}; proof of Proposition 4.3, third display and the union bound",
        method="numeric grid + hypothesis",
        stated=Inequality("exp(-a^2 m/(32(e^D2 - 1) + c)) <= exp(-a^2 m/(32 e^D2 + c))",
                          lambda o, alpha, m, D2, Dinf: _third_event_bound(o, alpha, m, D2, Dinf, 1),
                          lambda o, alpha, m, D2, Dinf: _third_event_bound(o, alpha, m, D2, Dinf, 0),
                          THIRD, proved_as=(third_event_path(),)),
        perturbed={"flipped": Inequality("flipped",
                                         lambda o, alpha, m, D2, Dinf: o.exp(-alpha**2 * m
                                             / (32 * o.exp(D2) + 3 * alpha * o.exp(Dinf))),
                                         lambda o, alpha, m, D2, Dinf: o.exp(-alpha**2 * m
                                             / (32 * (o.exp(D2) - 1) + 3 * alpha * o.exp(Dinf))),
                                         (ALPHA, Var("m", 1, 10**4, integer=True, points=12), D2, DINF))},
    ),
    Check(
        id="lvsuw21:prop4.3.ratio", paper=PAPER, result="prop4.3",
        claim="Prop 4.3 proof: alpha/4 + (alpha m/4 + alpha m/4)/(m - alpha m/4) <= alpha (for alpha < 1; true up to "
              "4/3)",
        source=f"{SEED}; proof of Proposition 4.3, display 'If all three of the events above do not happen'",
        method="numeric grid + hypothesis",
        stated=Inequality("alpha/4 + (alpha/2)/(1 - alpha/4) <= alpha",
                          lambda o, alpha: alpha / 4 + (alpha / 2) / (1 - alpha / 4),
                          lambda o, alpha: alpha, (Var("alpha", 1e-9, 4 / 3, points=400),)),
        perturbed={"alpha/2 first": Inequality("alpha/2 + (alpha/2)/(1 - alpha/4) <= alpha",
                                               lambda o, alpha: alpha / 2 + (alpha / 2) / (1 - alpha / 4),
                                               lambda o, alpha: alpha, (Var("alpha", 1e-9, 1, points=400),))},
    ),
    Check(
        id="lvsuw21:prop4.3.union", paper=PAPER, result="prop4.3",
        claim=("Prop 4.3: at n = (8/alpha^2) log(4|Q|/beta) and m = (32 e^{D2}/alpha^2 + 8 e^{Dinf}/(3 alpha)) "
               "log((4|Q|+4)/beta), 2|Q| e^{-alpha^2 n/8} + (2|Q|+2) exp(-alpha^2 m/(32 e^{D2} + 8/3 alpha e^{Dinf})) "
               "<= beta"),
        source=f"{SEED}; Proposition 4.3 statement and the union bound",
        method="numeric grid + hypothesis",
        stated=union_claim(prop4_3_n, prop4_3_m, "union bound <= beta at the stated n, m"),
        perturbed={"log(2|Q|/beta)": union_claim(lambda o, alpha, beta, num_queries: 8 / alpha**2
                                                 * o.log(2 * num_queries / beta),
                                                 prop4_3_m, "n with log(2|Q|/beta)")},
        formula_from="bounds.papers.lvsuw21.prop4_3_n, prop4_3_m",
    ),
    Check(
        id="lvsuw21:prop4.3.omega", paper=PAPER, result="prop4.3",
        claim=("Prop 4.3 proof: omega_x = g(x)/sum_{x in D^} g(x) for x in X^ is a distribution on X^ whose mixture "
               "sum omega_x q(x) is (1/m^) sum_{x in D^} g(x) q(x)"),
        source=f"{SEED}; proof of Proposition 4.3, definition of omega",
        method="exhaustive",
        stated=omega_claim(lambda c, g, m: g / np.sum(c * g), "omega_x = g(x)/m^ on the support"),
        expect=FAILS,
        corrected=omega_claim(lambda c, g, m: c * g / np.sum(c * g),
                              "omega_x = c_x g(x)/m^ (c_x = multiplicity in D^)"),
        perturbed={"divide by m": omega_claim(lambda c, g, m: c * g / m, "omega_x = c_x g(x)/m")},
        errata=("lvsuw21-prop4.3-omega",),
    ),
    Check(
        id="lvsuw21:prop4.3.monte-carlo", paper=PAPER, result="prop4.3",
        claim="Prop 4.3 end to end: Pr[f(X^) <= alpha] >= 1 - beta at the stated n, m (Monte Carlo, omega-mixture "
              "bound on f)",
        source=f"{SEED}; Proposition 4.3",
        method="monte carlo",
        stated=prop43_monte_carlo(1.0, "stated n, m"),
        perturbed={"n, m / 1000": prop43_monte_carlo(0.001, "n, m divided by 1000")},
        formula_from="bounds.papers.lvsuw21.prop4_3_n, prop4_3_m",
    ),
    Check(
        id="lvsuw21:thm4.4", paper=PAPER, result="thm4.4",
        claim="Theorem 4.4: PMW^Pub's error O(sqrt(log|Q| (sqrt(log m) + log(1/beta))/(n eps~)) + f(X^)) with T = "
              "Theta(...)",
        source=f"{SEED}; Theorem 4.4",
        method="none",
        stated="stated without proof or constants in the paper (an O-bound by analogy with MWEM); nothing to check "
               "step by step",
        expect="not machine-checkable",
    ),
    Check(
        id="lvsuw21:thm4.5.zcdp", paper=PAPER, result="thm4.5",
        claim="Thm 4.5: 2T mechanisms, each (eps_0^2/2)-zCDP with eps_0 = eps~/sqrt(2T), compose to eps~^2/2-zCDP",
        source=f"{SEED}; Algorithm 1 and Section 4.1 (i)-(iii)",
        method="symbolic",
        stated=Identity("2T (eps0^2/2) = eps~^2/2",
                        lambda o, eps_tilde, T: thm4_5_rho(o, T, thm4_5_rho_round(o, thm4_5_eps0(o, eps_tilde, T))),
                        lambda o, eps_tilde, T: eps_tilde**2 / 2,
                        (Var("eps_tilde", 1e-3, 10), Var("T", 1, 10**4, integer=True))),
        perturbed={"eps0 = eps~/sqrt(T)": Identity("2T ((eps~/sqrt T)^2/2) = eps~^2/2",
                                                   lambda o, eps_tilde, T: thm4_5_rho(o, T,
                                                       thm4_5_rho_round(o, eps_tilde / o.sqrt(T))),
                                                   lambda o, eps_tilde, T: eps_tilde**2 / 2,
                                                   (Var("eps_tilde", 1e-3, 10), Var("T", 1, 10**4, integer=True)))},
        formula_from="bounds.papers.lvsuw21.thm4_5_eps0, thm4_5_rho_round, thm4_5_rho",
    ),
    Check(
        id="lvsuw21:thm4.5.gaussian", paper=PAPER, result="thm4.5",
        claim="Thm 4.5 (ii): the Gaussian N(0, 1/(n eps_0)^2) on a 1/n-sensitive query is eps_0^2/2-zCDP (Delta^2/(2 "
              "sigma^2))",
        source=f"{SEED}; Algorithm 1 (Measure) and Section 4.1 (ii)",
        method="symbolic",
        stated=Identity("(1/n)^2 / (2 (1/(n eps0))^2) = eps0^2/2",
                        lambda o, n, e0: (1 / n) ** 2 / (2 * (1 / (n * e0)) ** 2),
                        lambda o, n, e0: thm4_5_rho_round(o, e0),
                        (Var("n", 1, 10**6, integer=True), Var("e0", 1e-4, 10))),
        perturbed={"sigma = 1/(2 n eps0)": Identity("(1/n)^2/(2 (1/(2 n eps0))^2) = eps0^2/2",
                                                    lambda o, n, e0: (1 / n) ** 2 / (2 * (1 / (2 * n * e0)) ** 2),
                                                    lambda o, n, e0: thm4_5_rho_round(o, e0),
                                                    (Var("n", 1, 10**6, integer=True), Var("e0", 1e-4, 10)))},
        formula_from="bounds.papers.lvsuw21.thm4_5_rho_round",
    ),
    Check(
        id="lvsuw21:thm4.5.cks-form", paper=PAPER, result="thm4.5",
        claim=("Thm 4.5: the printed infimand a rho + log(1/(a delta))/(a-1) + log(1-1/a) is the CKS20 conversion "
               "delta = e^{(a-1)(a rho - eps)} (1-1/a)^a/(a-1) solved for eps"),
        source=f"{SEED}; Theorem 4.5, first line; Canonne-Kamath-Steinke 2020",
        method="symbolic",
        formula_from="bounds.papers.lvsuw21.thm4_5_objective (the printed infimand); CKS20 typed from the reference",
        stated=Identity("printed = CKS20", printed_objective, cks_epsilon,
                        (Var("a", 1.001, 1e4), Var("rho", 1e-6, 50), Var("delta", 1e-15, 0.5))),
        perturbed={"without log(1-1/a)": Identity("printed without log(1 - 1/a) = CKS20",
                                                  lambda o, a, rho, delta: a * rho + o.log(1 / (a * delta)) / (a - 1),
                                                  cks_epsilon, (Var("a", 1.001, 1e4), Var("rho", 1e-6, 50),
                                                                Var("delta", 1e-15, 0.5)))},
    ),
    Check(
        id="lvsuw21:thm4.5.closed", paper=PAPER, result="thm4.5",
        claim="Thm 4.5: inf_{a>1} [a rho + log(1/(a delta))/(a-1) + log(1-1/a)] <= rho + 2 sqrt(rho log(1/delta)), rho "
              "= eps~^2/2",
        source=f"{SEED}; Theorem 4.5, second line",
        method="numeric grid + hypothesis",
        stated=closed_claim(thm4_5_eps_closed, "inf <= rho + 2 sqrt(rho log(1/delta))"),
        perturbed={"sqrt(rho log(1/delta))": closed_claim(lambda o, rho, delta: rho + o.sqrt(rho * o.log(1 / delta)),
                                                          "inf <= rho + sqrt(rho log(1/delta))")},
        formula_from="bounds.papers.lvsuw21.thm4_5_eps_closed, thm4_5_objective",
    ),
)

# the explicit Theorem 4.4 (bounds.papers.lvsuw21_thm44) is checked in its own module
from . import lvsuw21_thm44  # noqa: E402,F401
