"""ABM19 (seed 001): checks of Lemma 3.3 (growth function of H_Delta, the double-sample arithmetic, and that
the stated n_pub makes the failure probability at most beta), Lemma 4.4 with Claims 4.5 and 4.6 (Chernoff
step, total variation 0.01, the 1/17, 1/18, 1/16 probabilities) and Theorem 4.1's final 1/(1600 alpha)."""
from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from bounds.papers.abm19 import (BETA_A_DEN, BETA_A_NUM, cover_log_tail, cover_lower, lemma3_3_m_asymptotic,
                                 lemma4_4_n_b, lemma4_4_p, lemma4_4_runout, lemma4_4_tv, thm4_3_delta)

from . import _classes as C
from .core import (FAILS, PART, Case, Check, Exhaustive, Identity, Inequality, Var, bounds_value, register)
from algorithms._lazy import lazy_module

_scipy_stats = lazy_module("scipy.stats")  # imported on first use: --list must start fast

PAPER = "ABM19"
SEED = "001_f11d23217d8fb771.txt"


# ---------------------------------------------------------------------------------------------
# Lemma 3.3


def growth_delta_claim(square: bool, text: str) -> Exhaustive:
    """Lemma 3.3 proof: G_{H Delta}(k) <= G_H(k)^2 (<= (ek/d)^{2d} for k >= d); ``square=False`` is NB20
    Claim 10's printed G_{H Delta}(k) <= G_H(k)."""

    def cases():
        for cls in C.small_classes():
            if cls.num_distinct_hypotheses > 16:
                continue
            delta = C.delta_class(cls)
            d = C.vc(cls)
            for k in range(1, min(cls.num_points, 7) + 1):
                yield Case(f"{cls.name}, k={k}", {"k": k, "d": d, "G_H": C.growth(cls, k),
                                                   "G_HDelta": C.growth(delta, k)}, size=k + cls.num_points)

    def holds(case):
        k, d, g, gd = (case.data[x] for x in ("k", "d", "G_H", "G_HDelta"))
        bound = g**2 if square else g
        ok = gd <= bound
        if square and d >= 1 and k >= d:
            ok = ok and g**2 <= (math.e * k / d) ** (2 * d) * (1 + 1e-12)
        return ok, {"bound": bound}

    return Exhaustive(text, cases, holds)


LEMMA33_DOMAIN = (Var("alpha", 1e-6, 0.999, points=24), Var("beta", 1e-12, 0.999, points=24),
                  Var("d", 1, 300, integer=True, points=10))


def lemma33_m(o, alpha, beta, d):
    """ABM19 Lemma 3.3: the least n_pub with inequality (1) <= beta (from bounds abm19:lemma3.3)."""
    return bounds_value("abm19:lemma3.3", "public_samples", alpha=alpha, beta=beta, vc=d)


def o_form(o, alpha, beta, d):
    """Lemma 3.3's O(.) argument (d log(1/alpha) + log(1/beta))/alpha: bounds' asymptotic form with C_3_3 = 1."""
    return lemma3_3_m_asymptotic(o, alpha, beta, d, 1)


def lemma33_big_o_claim(C_: float, form, text: str, restated: bool = False) -> Inequality:
    """Lemma 3.3: the least n_pub is at most C_ * form (the O(.) of the statement, constant explicit); with
    ``restated`` the prover proves it on its region through :func:`lemma33_big_o_parts`."""
    return Inequality(text, lemma33_m, lambda o, alpha, beta, d: C_ * form(o, alpha, beta, d), LEMMA33_DOMAIN,
                      region=lambda o, alpha, beta, d: alpha <= 0.5, region_text="alpha <= 1/2 (any beta, d)",
                      proved_as=lemma33_big_o_parts(C_, form) if restated else ())


def lemma33_big_o_parts(C_: float, form) -> tuple:
    """n* <= F = C_ form on alpha <= 1/2 without searching for n*: n* is the least integer x >= 8d/alpha (bounds'
    cover_lower) with g(x) <= 0 (cover_log_tail), and g is non-increasing from 8d/alpha on (bounds' Implicit contract,
    d/dx g = 2d/x - alpha/4). So (1) F - 1 >= 8d/alpha and (2) g(F - 1) <= 0 give x0 = floor(F), an integer >= F - 1 >=
    8d/alpha with g(x0) <= g(F - 1) <= 0, hence n* <= x0 <= F: as strong as the claim on its region. Each is an
    interval inequality on the region's box (alpha <= 1/2), where the least solution's enclosure by integer searches
    costs a search per box."""
    dom = (Var("alpha", LEMMA33_DOMAIN[0].lo, 0.5),) + LEMMA33_DOMAIN[1:]

    def less_one(o, alpha, beta, d):
        return C_ * form(o, alpha, beta, d) - 1

    return (Inequality(f"{C_:g} form - 1 >= 8d/alpha", lambda o, alpha, beta, d: cover_lower(o, alpha, d), less_one,
                       dom),
            Inequality(f"g({C_:g} form - 1) <= 0", lambda o, alpha, beta, d: cover_log_tail(
                o, less_one(o, alpha, beta, d), alpha, beta, d), lambda o, alpha, beta, d: 0 * alpha, dom))


def lemma33_tail_claim(C_: float, text: str) -> Inequality:
    """Lemma 3.3: at n_pub = C_ (d log(1/alpha) + log(1/beta))/alpha, 2 (2en/d)^{2d} e^{-alpha n/4} <= beta."""
    return Inequality(text, lambda o, alpha, beta, d: cover_log_tail(o, C_ * o_form(o, alpha, beta, d), alpha, beta, d),
                      lambda o, alpha, beta, d: 0 * alpha, LEMMA33_DOMAIN,
                      region=lambda o, alpha, beta, d: alpha <= 0.5, region_text="alpha <= 1/2 (any beta, d)")


def double_sample_claim(rate, text: str) -> Inequality:
    """Lemma 3.3 eq. (1): the printed factor e^{-alpha m/4} is at least the textbook double-sample factor
    2^{-alpha m/2} (Kearns-Vazirani Thm 3.3), so (1) follows from the textbook bound; ``rate`` is the printed
    exponent's coefficient."""
    return Inequality(text, lambda o, alpha, m: -alpha * m / 2 * o.log(2), lambda o, alpha, m: -rate * alpha * m,
                      (Var("alpha", 1e-6, 1.0), Var("m", 1, 10**9, integer=True)))


def side_condition_claim(factor: float, text: str) -> Inequality:
    """Lemma 3.3: the double-sample argument needs m >= 8/alpha; the least n_pub (bounds) is at least factor/alpha."""
    return Inequality(text, lemma33_m, lambda o, alpha, beta, d: factor / alpha, LEMMA33_DOMAIN, rel=">=")


#: n_priv = k + j with n~ = k >= 2 and j >= 0 (the change of variables that makes n~ <= n_priv a box, so that the
#: gap's proven monotonicity in j reaches the face j = 0, where it is 0 identically)
DELTA_DOMAIN = (Var("k", 2, 10**8, integer=True, points=80), Var("j", 0, 10**8, integer=True, points=80))


def delta_claim(flipped: bool, text: str) -> Inequality:
    """Theorem 4.1 proof: delta(n_priv) <= delta(n~) (flipped: >=, on j >= 1), n_priv = n~ + j <= 10^8."""
    small, big = (lambda o, k, j: thm4_3_delta(o, k + j)), (lambda o, k, j: thm4_3_delta(o, k))
    return Inequality(text, *((big, small) if flipped else (small, big)), DELTA_DOMAIN,
                      where=(lambda o, k, j: (k + j <= 10**8) & (j >= 1)) if flipped else
                      (lambda o, k, j: k + j <= 10**8), tight=True)  # equality at j = 0


def thm31_log_cover(o, alpha, beta, d):
    """ABM19 Theorem 3.1 proof: log|H~| <= d log(e n_pub/d), n_pub from Lemma 3.3 at (alpha/2, beta/2) (bounds
    thm3.1)."""
    return bounds_value("abm19:thm3.1", "log_cover_size", alpha=alpha, beta=beta, epsilon=1.0, vc=d)


def thm31_form(o, alpha, beta, d):
    """ABM19 Theorem 3.1 proof: d log(1/alpha) + d (log(log(1/beta)/d))^+."""
    return d * o.log(1 / alpha) + d * o.max(0, o.log(o.log(1 / beta) / d))


def thm31_claim(K: float, text: str) -> Inequality:
    return Inequality(text, thm31_log_cover, lambda o, alpha, beta, d: K * thm31_form(o, alpha, beta, d),
                      LEMMA33_DOMAIN,
                      region=lambda o, alpha, beta, d: alpha <= 0.5, region_text="alpha <= 1/2 (any beta, d)")


# ---------------------------------------------------------------------------------------------
# Lemma 4.4, Claims 4.5 and 4.6


NN = (Var("n_priv", 1, 10**6, integer=True, points=160), Var("n_pub", 1, 10**4, integer=True, points=60))


def runout_probability(o, n_priv, n_pub, n_tilde):
    """Claim 4.6: P[PrivSamp exhausts S~ before step n_priv] = P[Bin(n_priv - 1, p) >= n~], exactly."""
    p = 1 / (100 * n_pub)
    return _scipy_stats.binom.sf(n_tilde - 1, np.maximum(n_priv - 1, 0), p)


def chernoff_claim(n_tilde_fn, bound: float, text: str, region=None, region_text=None) -> Inequality:
    """Claim 4.6: except with probability < bound, Algorithm 3 exits with i = n_priv (|S_priv| = n_priv)."""
    return Inequality(text, lambda o, n_priv, n_pub: runout_probability(o, n_priv, n_pub, n_tilde_fn(o, n_priv, n_pub)),
                      lambda o, n_priv, n_pub: bound + 0 * n_priv, NN, rel="<", region=region,
                      region_text=region_text)


def printed_n_tilde(o, n_priv, n_pub):
    return o.ceil(n_priv / (10 * n_pub))


def tv_claim(level: float, text: str) -> Inequality:
    """Claim 4.6: TV(S_pub, S^_pub) <= 1 - (1 - 1/(100 n_pub))^{n_pub} <= level (printed: 0.01)."""
    return Inequality(text, lambda o, n: lemma4_4_tv(o, n, lemma4_4_p(o, n)), lambda o, n: level + 0 * n,
                      (Var("n", 1, 10**9, integer=True, points=400),))


def probability_steps_claim(beta_a: Fraction, text: str) -> Exhaustive:
    """Claim 4.6 as printed: beta_A + 0.01 (run-out) <= 1/17, then 1/17 + 0.01 (TV) < 1/16, and the total."""
    steps = [("beta_A + 0.01 <= 1/17", beta_a + Fraction(1, 100), Fraction(1, 17)),
             ("1/17 + 0.01 < 1/16", Fraction(1, 17) + Fraction(1, 100), Fraction(1, 16)),
             ("beta_A + 0.01 + 0.01 < 1/16", beta_a + Fraction(2, 100), Fraction(1, 16))]

    def cases():
        for i, (name, lhs, rhs) in enumerate(steps):
            yield Case(name, {"lhs": float(lhs), "rhs": float(rhs), "exact": f"{lhs} vs {rhs}"}, size=i)

    return Exhaustive(text, cases, lambda c: (c.data["lhs"] <= c.data["rhs"], {}))


def corrected_total_claim(beta_num: int, beta_den: int, text: str) -> Inequality:
    """Claim 4.6 corrected (bounds abm19:lemma4.4): beta_A + TV + P[run out] < 1/16 with n~ floored at 4.

    The run-out probability is the exact binomial tail here (bounds uses its Chernoff bound, which is larger).
    """

    def total(o, n_priv, n_pub):
        nt = lemma4_4_n_b(o, n_priv, n_pub)
        tv = lemma4_4_tv(o, n_pub, lemma4_4_p(o, n_pub))
        return beta_num / beta_den + tv + runout_probability(o, n_priv, n_pub, nt)

    return Inequality(text, total, lambda o, n_priv, n_pub: 1 / 16 + 0 * n_priv, NN, rel="<")


def chernoff_bound_claim(text: str, n_floor: int) -> Inequality:
    """bounds' run-out bound e^{-mu}(e mu/n~)^{n~} dominates the exact binomial tail (so bounds is safe)."""

    def exact(o, n_priv, n_pub):
        nt = np.maximum(np.ceil(n_priv / (10 * n_pub)), n_floor)
        return runout_probability(o, n_priv, n_pub, nt)

    def chern(o, n_priv, n_pub):
        nt = np.maximum(np.ceil(n_priv / (10 * n_pub)), n_floor)
        return lemma4_4_runout(o, n_priv, lemma4_4_p(o, n_pub), nt)

    return Inequality(text, exact, chern, NN)


def mixture_claim(label_bias: float, text: str) -> Exhaustive:
    """Claim 4.6: err(h; D_(p)) = p err(h; D) + (1 - p)/2 for every h, when D_0's labels are fair coins.

    Exact computation on random finite D over X x {0,1}, D_0 = (marginal) x Ber(label_bias), every h."""

    def cases():
        rng = np.random.default_rng(46)
        for i in range(30):
            n_x = int(rng.integers(2, 7))
            D = rng.dirichlet(np.ones(2 * n_x)).reshape(n_x, 2)       # D[x, y]
            marg0 = rng.dirichlet(np.ones(n_x))
            D0 = np.stack([marg0 * (1 - label_bias), marg0 * label_bias], axis=1)
            p = 1 / (100 * int(rng.integers(1, 50)))
            Dp = p * D + (1 - p) * D0
            H = ((np.arange(2**n_x)[:, None] >> np.arange(n_x)) & 1).astype(int)  # every h: X -> {0,1}
            err = lambda dist: dist[np.arange(n_x), 1 - H].sum(axis=1)     # P[h(x) != y]
            gap = np.max(np.abs(err(Dp) - (p * err(D) + (1 - p) / 2)))
            same_argmin = np.argmin(err(Dp)) == np.argmin(err(D))
            yield Case(f"random D #{i}, |X|={n_x}", {"max_gap": float(gap), "argmin_preserved": bool(same_argmin)},
                       size=n_x)

    return Exhaustive(text, cases, lambda c: (c.data["max_gap"] <= 1e-12 and c.data["argmin_preserved"], {}))


def privsamp(n_tilde: int, n_priv: int, p: float, rng: np.random.Generator, replace: bool = False) -> list:
    """ABM19 Algorithm 3 (PrivSamp), on indices: S_priv as a list of ('s', j) for z~_j or ('d', i) for dummies.

    ``replace=True`` is a deliberately broken variant (draws from S~ with replacement)."""
    out, used, i = [], 0, 1
    while used < n_tilde and i <= n_priv:
        if rng.random() < p:
            j = int(rng.integers(0, n_tilde)) if replace else used
            out.append(("s", j))
            used += 1
        else:
            out.append(("d", i))
        i += 1
    return out


def claim45_claim(replace: bool, text: str) -> Exhaustive:
    """Claim 4.5: each point of S~ appears at most once in S_priv (and S_pub holds none), for many runs."""

    def cases():
        rng = np.random.default_rng(45)
        for i in range(300):
            n_pub = int(rng.integers(1, 4))
            n_priv = int(rng.integers(1, 400))
            nt = math.ceil(n_priv / (10 * n_pub))
            s = privsamp(nt, n_priv, 1 / (100 * n_pub) * 30, rng, replace)  # p scaled up so S~ is drawn from often
            js = [j for kind, j in s if kind == "s"]
            yield Case(f"run {i}", {"n_priv": n_priv, "n_tilde": nt, "draws": len(js),
                                    "repeated": len(js) - len(set(js))}, size=n_priv)

    return Exhaustive(text, cases, lambda c: (c.data["repeated"] == 0, {}))


# ---------------------------------------------------------------------------------------------

A_, N_ = Var("alpha", 1e-8, 0.01), Var("n_pub", 1, 10**6, integer=True)

register(
    Check(
        id="abm19:lemma3.3.growth-delta", paper=PAPER, result="lemma3.3",
        claim="Lemma 3.3 proof: G_{H Delta}(k) <= G_H(k)^2 <= (ek/d)^{2d} (k >= d)",
        source=f"{SEED}; Lemma 3.3 proof, growth function of H_Delta",
        method="exhaustive",
        stated=growth_delta_claim(True, "G_{HDelta}(k) <= G_H(k)^2 <= (ek/d)^{2d}"),
        perturbed={"no square": growth_delta_claim(False, "G_{HDelta}(k) <= G_H(k)")},
    ),
    Check(
        id="abm19:lemma3.3.big-o", paper=PAPER, result="lemma3.3",
        claim=("Lemma 3.3: the least n_pub with 2 (2en/d)^{2d} e^{-alpha n/4} <= beta is "
               "O((d log(1/alpha) + log(1/beta))/alpha); explicit: <= 80 (d log(1/alpha) + log(1/beta))/alpha"),
        source=f"{SEED}; Lemma 3.3 ('via standard manipulation, this bound is at most beta when n_pub = O(...)')",
        method="numeric grid + hypothesis",
        stated=lemma33_big_o_claim(80.0, o_form, "n* <= 80 (d log(1/alpha) + log(1/beta))/alpha", restated=True),
        expect=PART,
        perturbed={"drop log(1/alpha)": lemma33_big_o_claim(80.0,
                                                            lambda o, alpha, beta, d: (d + o.log(1 / beta)) / alpha,
                                                            "n* <= 80 (d + log(1/beta))/alpha"),
                   "constant 8": lemma33_big_o_claim(8.0, o_form, "n* <= 8 (...)/alpha")},
        errata=("abm19-lemma3.3-alpha-near-1",),
        formula_from="bounds:abm19:lemma3.3",
    ),
    Check(
        id="abm19:lemma3.3.tail", paper=PAPER, result="lemma3.3",
        claim="Lemma 3.3: n_pub = 80 (d log(1/alpha) + log(1/beta))/alpha makes P[not an alpha-cover] <= beta",
        source=f"{SEED}; Lemma 3.3, inequality (1) and the sentence after it",
        method="numeric grid + hypothesis",
        stated=lemma33_tail_claim(80.0, "log(2 (2en/d)^{2d} e^{-alpha n/4} / beta) <= 0 at n = 80(...)/alpha"),
        expect=PART,
        perturbed={"constant 20": lemma33_tail_claim(20.0, "at n = 20(...)/alpha")},
        errata=("abm19-lemma3.3-alpha-near-1",),
        formula_from="bounds.papers.abm19.cover_log_tail (inequality (1))",
    ),
    Check(
        id="abm19:lemma3.3.double-sample", paper=PAPER, result="lemma3.3",
        claim=("Lemma 3.3 eq. (1): 2 G(2m) e^{-alpha m/4} is at least the textbook double-sample bound "
               "2 G(2m) 2^{-alpha m/2}, so inequality (1) holds"),
        source=f"{SEED}; Lemma 3.3, inequality (1) and 'the double-sample argument'",
        method="numeric grid + hypothesis",
        stated=double_sample_claim(1 / 4, "e^{-alpha m/4} >= 2^{-alpha m/2}"),
        perturbed={"e^{-alpha m/2}": double_sample_claim(1 / 2, "e^{-alpha m/2} >= 2^{-alpha m/2}")},
    ),
    Check(
        id="abm19:lemma3.3.side-condition", paper=PAPER, result="lemma3.3",
        claim="Lemma 3.3: the double-sample argument's condition m >= 8/alpha holds at the least n_pub",
        source=f"{SEED}; Lemma 3.3 proof (double sample, e.g. SSBD Sec. 28.3)",
        method="numeric grid + hypothesis",
        stated=side_condition_claim(8.0, "n* >= 8/alpha"),
        perturbed={"n* >= 1000/alpha": side_condition_claim(1000.0, "n* >= 1000/alpha")},
        formula_from="bounds:abm19:lemma3.3",
    ),
    Check(
        id="abm19:thm3.1.log-cover", paper=PAPER, result="thm3.1",
        claim=("Theorem 3.1 proof: log|H~| <= d log(e n_pub/d) = O(d log(1/alpha) + d (log(log(1/beta)/d))^+); "
               "explicit constant 12"),
        source=f"{SEED}; proof of Theorem 3.1, the log|H~| display",
        method="numeric grid + hypothesis",
        stated=thm31_claim(12.0, "d log(e n_pub/d) <= 12 (d log(1/alpha) + d (log(log(1/beta)/d))^+)"),
        expect=PART,
        perturbed={"constant 2": thm31_claim(2.0, "... <= 2 (...)")},
        errata=("abm19-lemma3.3-alpha-near-1",),
        formula_from="bounds:abm19:thm3.1 (log_cover_size)",
    ),
    Check(
        id="abm19:thm3.1.log-plus", paper=PAPER, result="thm3.1",
        claim="Theorem 3.1 proof: d (log(log(1/beta)/d))^+ <= log(1/beta), so n_priv = O((d log(1/alpha) + "
              "log(1/beta)) max(1/alpha^2, 1/(eps alpha)))",
        source=f"{SEED}; proof of Theorem 3.1, the n_priv display",
        method="numeric grid + hypothesis",
        stated=Inequality("d (log(L/d))^+ <= L", lambda o, L, d: d * o.max(0, o.log(L / d)), lambda o, L, d: L,
                          (Var("L", 1e-9, 1e5), Var("d", 1, 10**4, integer=True))),
        perturbed={"L/4": Inequality("d (log(L/d))^+ <= L/4 (the maximum is L/e)",
                                     lambda o, L, d: d * o.max(0, o.log(L / d)),
                                     lambda o, L, d: L / 4, (Var("L", 1e-9, 1e5), Var("d", 1, 10**4, integer=True)))},
    ),
    Check(
        id="abm19:thm4.3.cited", paper=PAPER, result="thm4.3",
        claim="Theorem 4.3 (ALMM18 Corollary 2): no (1/16, 1/16, 0.1, 1/(100 n^2 log n))-private learner for classes "
              "of infinite Littlestone dimension",
        source=f"{SEED}; Theorem 4.3",
        method="none",
        stated="a cited impossibility theorem over all learners and distributions (ALMM18), not derived in the seed "
               "paper",
        expect="not machine-checkable",
    ),
    Check(
        id="abm19:lemma4.4.chernoff", paper=PAPER, result="lemma4.4",
        claim=("Claim 4.6: since n~ = 10 p n_priv, by Chernoff, except w.p. < 0.01 PrivSamp exits with "
               "i = n_priv (exact: P[Bin(n_priv - 1, 1/(100 n_pub)) >= n~] < 0.01)"),
        source=f"{SEED}; proof of Claim 4.6, first paragraph",
        method="exact probability",
        stated=chernoff_claim(printed_n_tilde, 0.01, "P[run out] < 0.01 with n~ = ceil(n_priv/(10 n_pub))",
                              region=lambda o, n_priv, n_pub: np.ceil(n_priv / (10 * n_pub)) >= 3,
                              region_text="n~ = ceil(n_priv/(10 n_pub)) >= 3"),
        expect=PART,
        corrected=chernoff_claim(lambda o, n_priv, n_pub: lemma4_4_n_b(o, n_priv, n_pub), 0.01,
                                 "P[run out] < 0.01 with n~ = max(ceil(n_priv/(10 n_pub)), 4)"),
        perturbed={"floor 2": chernoff_claim(lambda o, n_priv, n_pub: np.maximum(printed_n_tilde(o, n_priv, n_pub), 2),
                                             0.01, "P[run out] < 0.01 with n~ floored at 2")},
        errata=("abm19-claim4.6-chernoff",),
        formula_from="bounds.papers.abm19.lemma4_4_n_b (corrected n~); exact tail scipy.stats.binom",
    ),
    Check(
        id="abm19:lemma4.4.chernoff-bound", paper=PAPER, result="lemma4.4",
        claim="bounds' run-out bound e^{-mu}(e mu/n~)^{n~} is at least the exact binomial run-out probability",
        source=f"{SEED}; proof of Claim 4.6 (Chernoff), as encoded in bounds abm19:lemma4.4",
        method="exact probability",
        stated=chernoff_bound_claim("exact tail <= Chernoff bound", 4),
        perturbed={"flipped": Inequality("Chernoff bound <= exact tail (flipped)",
                                         chernoff_bound_claim("", 4).rhs, chernoff_bound_claim("", 4).lhs, NN)},
        formula_from="bounds.papers.abm19.lemma4_4_runout",
    ),
    Check(
        id="abm19:lemma4.4.tv", paper=PAPER, result="lemma4.4",
        claim="Claim 4.6: P[S^_pub = S_pub] >= (1 - 1/(100 n_pub))^{n_pub} >= 0.99, so TV <= 0.01",
        source=f"{SEED}; proof of Claim 4.6, total variation paragraph",
        method="numeric grid + hypothesis",
        stated=tv_claim(0.01, "1 - (1 - 1/(100 n))^n <= 0.01"),
        perturbed={"0.005": tv_claim(0.005, "1 - (1 - 1/(100 n))^n <= 0.005")},
        formula_from="bounds.papers.abm19.lemma4_4_tv",
    ),
    Check(
        id="abm19:lemma4.4.probabilities", paper=PAPER, result="lemma4.4",
        claim="Claim 4.6: 1/18 (premise) + 0.01 (run-out) <= 1/17, and 1/17 + 0.01 (TV) < 1/16",
        source=f"{SEED}; proof of Claim 4.6 ('... <= 1/17', 'except with probability < 1/16')",
        method="exhaustive",
        stated=probability_steps_claim(Fraction(1, 18), "printed, beta_A = 1/18"),
        expect=FAILS,
        corrected=corrected_total_claim(BETA_A_NUM, BETA_A_DEN,
                                        f"beta_A = {BETA_A_NUM}/{BETA_A_DEN} + TV + P[run out] < 1/16"),
        perturbed={"beta_A = 1/18 with exact terms": corrected_total_claim(1, 18, "1/18 + TV + P[run out] < 1/16")},
        errata=("abm19-claim4.6-probabilities",),
        formula_from="bounds.papers.abm19 (BETA_A, lemma4_4_tv, lemma4_4_n_b)",
    ),
    Check(
        id="abm19:lemma4.4.mixture", paper=PAPER, result="lemma4.4",
        claim="Claim 4.6: err(h; D_(p)) = p err(h; D) + (1-p)/2, so argmin_H err(.; D_(p)) = argmin_H err(.; D)",
        source=f"{SEED}; proof of Claim 4.6, last paragraph",
        method="exhaustive",
        stated=mixture_claim(0.5, "D_0 labels uniform"),
        perturbed={"biased D_0 labels": mixture_claim(0.6, "D_0 labels Ber(0.6)")},
    ),
    Check(
        id="abm19:lemma4.4.error", paper=PAPER, result="lemma4.4",
        claim="Claim 4.6: alpha >= p err(A; D) with p = 1/(100 n_pub) gives err(B; D) <= alpha/p = 100 n_pub alpha",
        source=f"{SEED}; proof of Claim 4.6, last display",
        method="symbolic",
        stated=Identity("alpha / p = 100 n_pub alpha", lambda o, alpha, n_pub: alpha / lemma4_4_p(o, n_pub),
                        lambda o, alpha, n_pub: 100 * n_pub * alpha, (A_, N_)),
        perturbed={"10 n_pub": Identity("alpha / p = 10 n_pub alpha",
                                        lambda o, alpha, n_pub: alpha / lemma4_4_p(o, n_pub),
                                        lambda o, alpha, n_pub: 10 * n_pub * alpha, (A_, N_))},
        formula_from="bounds.papers.abm19.lemma4_4_p",
    ),
    Check(
        id="abm19:thm4.1.final", paper=PAPER, result="thm4.1",
        claim="Theorem 4.1 proof: 100 n_pub alpha > 1/16 iff n_pub > 1/(1600 alpha)",
        source=f"{SEED}; proofs of Theorems 4.1 and 4.2",
        method="symbolic",
        stated=Identity("(1/16)/(100 alpha) = 1/(1600 alpha)", lambda o, alpha: o.frac(1, 16) / (100 * alpha),
                        lambda o, alpha: 1 / (1600 * alpha), (A_,)),
        perturbed={"1/160": Identity("(1/16)/(100 alpha) = 1/(160 alpha)",
                                     lambda o, alpha: o.frac(1, 16) / (100 * alpha),
                                     lambda o, alpha: 1 / (160 * alpha), (A_,))},
    ),
    Check(
        id="abm19:thm4.1.delta", paper=PAPER, result="thm4.1",
        claim=("Theorem 4.1 proof: B inherits A's delta = 1/(100 n_priv^2 log n_priv), which is at most "
               "Theorem 4.3's 1/(100 n~^2 log n~) at B's sample size n~ <= n_priv"),
        source=f"{SEED}; proof of Theorem 4.1 and Theorem 4.3",
        method="numeric grid + hypothesis",
        stated=delta_claim(False, "delta(n~ + j) <= delta(n~) for n~ >= 2, j >= 0 (n_priv = n~ + j)"),
        perturbed={"flipped": delta_claim(True, "delta(n~) <= delta(n~ + j), j >= 1 (flipped)")},
        formula_from="bounds.papers.abm19.thm4_3_delta",
    ),
    Check(
        id="abm19:claim4.5", paper=PAPER, result="lemma4.4",
        claim="Claim 4.5: each point of S~ appears at most once in S_priv (PrivSamp, Algorithm 3), S_pub has none",
        source=f"{SEED}; Claim 4.5 and Algorithms 3, 4",
        method="exhaustive",
        stated=claim45_claim(False, "Algorithm 3 as printed"),
        perturbed={"with replacement": claim45_claim(True, "draws from S~ with replacement")},
    ),
)
