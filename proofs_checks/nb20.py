"""NB20 (seed 004): checks of Lemma 6 (the exponential-mechanism step to alpha/3), Claim 10 (growth function
of H_Delta and its constant 50), Lemmas 8 and 9 (privacy composition of A_AgPrivCl, the sizes n'/k, the
Claim 10 application, the Chernoff steps) and Theorem 11's combination."""
from __future__ import annotations

import math

import numpy as np

from algorithms.privacy.accounting import ApproxDP, PureDP, compose
from bounds.papers.nb20 import (alg5_composed_eps, alg5_lambda, alg5_lambda_as_printed, alg5_lambda_tight,
                                alg5_round_eps)
from bounds.papers.nb20 import (alg3_delta_hat, alg3_eps_hat, alg3_eps_prime, alg3_group_delta, alg3_group_eps,
                                alg3_T, alg3_total_delta, alg3_total_eps, alg4_m_o, claim10_log_tail_printed,
                                claim10_n_printed, lemma6_em_gap, lemma6_em_gap_printed_bound, lemma6_n_printed,
                                lemma6_uc_g, lemma9_min_queries, lemma9_n_prime_printed)
from bounds.papers.nb20 import lemma9_min_queries_bernstein as bernstein_m  # Bernstein size of eq. (3)

from bounds.papers.abm19 import thm3_1_cover_g

from .abm19 import growth_delta_claim
from .core import (FAILS, PART, Case, Check, Exhaustive, Identity, Inequality, Var, bounds_value, register)
from algorithms._lazy import lazy_module

_scipy_stats = lazy_module("scipy.stats")  # imported on first use: --list must start fast

PAPER = "NB20"
SEED = "004_d21f3e9c5d64269f.txt"

ALPHA = Var("alpha", 1e-4, 0.999, points=30)
BETA = Var("beta", 1e-12, 0.999, points=20)
D = Var("d", 1, 1000, integer=True, points=10)
EPS = Var("eps", 1e-4, 0.999, points=20)
DELTA = Var("delta", 1e-12, 0.999, points=20)
M_Q = Var("num_queries", 1, 10**9, integer=True, points=20)


# ---------------------------------------------------------------------------------------------
# Lemma 6


def em_step_claim(region, region_text, text: str) -> Inequality:
    """Lemma 6 eq. (4): (2/n')(d log(en'/d) + log(3/beta)) <= 80 alpha^2 (d log(1/alpha) + log(3/beta))/(256 (d + log(3/beta)))
    at the printed n' = 256 (d + log(3/beta))/alpha^2."""
    return Inequality(text, lambda o, alpha, beta, d: lemma6_em_gap(o, beta, d, lemma6_n_printed(o, alpha, beta, d)),
                      lambda o, alpha, beta, d: lemma6_em_gap_printed_bound(o, alpha, beta, d), (ALPHA, BETA, D),
                      region=region, region_text=region_text)


def alpha3_claim(frac: float, text: str) -> Inequality:
    """Lemma 6 eq. (4), last step: 80 alpha^2 (d log(1/alpha) + log(3/beta))/(256 (d + log(3/beta))) <= alpha * frac."""
    return Inequality(text, lemma6_em_gap_printed_bound, lambda o, alpha, beta, d: frac * alpha, (ALPHA, BETA, D))


def em_direct_claim(frac: float, text: str) -> Inequality:
    """Lemma 6 eq. (4) end to end: (2/n')(d log(en'/d) + log(3/beta)) <= alpha * frac at the printed n'."""
    return Inequality(text, lambda o, alpha, beta, d: lemma6_em_gap(o, beta, d, lemma6_n_printed(o, alpha, beta, d)),
                      lambda o, alpha, beta, d: frac * alpha, (ALPHA, BETA, D))


def uc_claim(scale: float, text: str) -> Inequality:
    """Lemma 6 eqs. (5)-(6) with the standard VC inequality 4 (2en/d)^d e^{-n a^2/8} (Anthony-Bartlett Thm 4.3)
    at deviation a = alpha/3 and failure 2 beta/3, at ``scale`` times the printed n'."""
    return Inequality(text, lambda o, alpha, beta, d: lemma6_uc_g(o, scale * lemma6_n_printed(o, alpha, beta, d), alpha, beta, d),
                      lambda o, alpha, beta, d: 0 * alpha, (ALPHA, BETA, D))


# ---------------------------------------------------------------------------------------------
# Claim 10


def claim10_constant_claim(C_: float, region, region_text, text: str) -> Inequality:
    """Claim 10: at n_o = C_ (d log(1/alpha) + log(1/beta'))/alpha^2 the printed tail 2 (e n_o/d)^{2d} e^{-n_o alpha^2/8} <= beta'."""
    return Inequality(text, lambda o, alpha, beta, d: claim10_log_tail_printed(o, alpha, d, C_ / 50 * claim10_n_printed(o, alpha, beta, d)),
                      lambda o, alpha, beta, d: o.log(beta), (Var("alpha", 1e-5, 0.999, points=40), BETA, D),
                      region=region, region_text=region_text)


# ---------------------------------------------------------------------------------------------
# Lemma 8


LEMMA8 = (EPS, DELTA, Var("alpha", 1e-4, 0.999, points=12), M_Q)


def amplification_claim(rate_den: float, text: str) -> Inequality:
    """Lemma 8: Lemma 5 gives (eps* + 3, 4 e delta) with eps* = min(1, eps') <= 1; sub-sampling n' = eps n/rate_den
    amplifies it to (log(1 + (eps/rate_den)(e^{eps*+3} - 1)), (eps/rate_den) 4 e delta), claimed <= (eps, delta)."""

    def worst(o, eps, delta, alpha, num_queries):
        ep = alg3_eps_prime(o, alpha, num_queries)
        e_hat = alg3_eps_hat(o, delta, ep)
        g_eps = alg3_group_eps(o, delta, e_hat)
        g_delta = alg3_group_delta(o, delta, e_hat, alg3_delta_hat(o, delta, ep))
        if rate_den == 56:
            tot_e, tot_d = alg3_total_eps(o, eps, g_eps), alg3_total_delta(o, eps, delta, g_delta)
        else:
            tot_e = o.log(1 + eps / rate_den * (o.exp(g_eps + 3) - 1))
            tot_d = eps / rate_den * 4 * o.e * (delta / 2 + g_delta)
        return o.max(tot_e / eps, tot_d / delta)

    return Inequality(text, worst, lambda o, eps, delta, alpha, num_queries: 1 + 0 * eps, LEMMA8)


def group_claim(delta_hat_fn, text: str) -> Identity:
    """Lemma 8: with r = log(2/delta), r eps^ = min(1, eps') and r e^{r eps^} delta^ = delta/2 (checked as one
    identity: (r eps^ - min(1, eps')) + (r e^{r eps^} delta^ - delta/2) = 0)."""

    def lhs(o, delta, alpha, num_queries):
        ep = alg3_eps_prime(o, alpha, num_queries)
        e_hat = alg3_eps_hat(o, delta, ep)
        return (alg3_group_eps(o, delta, e_hat) - o.min(1, ep)
                + alg3_group_delta(o, delta, e_hat, delta_hat_fn(o, delta, ep)) - delta / 2)

    return Identity(text, lhs, lambda o, delta, alpha, num_queries: 0 * delta, (DELTA, LEMMA8[2], LEMMA8[3]),
                    rtol=1e-9)


def r_tail(o, n_prime, delta):
    """Lemma 8: r ~ Bin(n', 1/n') (times index j is drawn in n' draws with replacement); P[r > log(2/delta)]."""
    return _scipy_stats.binom.sf(np.floor(np.log(2 / delta)), n_prime, 1 / n_prime)


def r_claim(scale: float, region, region_text, text: str) -> Inequality:
    return Inequality(text, r_tail, lambda o, n_prime, delta: scale * delta / 2,
                      (Var("n_prime", 1, 10**7, integer=True, points=40), Var("delta", 1e-12, 0.999, points=200)),
                      region=region, region_text=region_text)


# ---------------------------------------------------------------------------------------------
# Lemma 9


L9 = (Var("alpha", 1e-3, 0.999, points=14), Var("beta", 1e-9, 0.999, points=8), Var("delta", 1e-12, 0.999, points=8),
      Var("d", 1, 1000, integer=True, points=6), M_Q)


def text_k(o, alpha, beta, delta, num_queries):
    """Lemma 9's proof: k = O(sqrt(m alpha log(2/delta)) log(m alpha/min(delta, beta/2)) / eps^) (constant 1),
    eps^ from Algorithm 3 (bounds)."""
    m = num_queries
    e_hat = alg3_eps_hat(o, delta, alg3_eps_prime(o, alpha, m))
    return o.sqrt(m * alpha * o.log(2 / delta)) * o.log(m * alpha / o.min(delta, beta / 2)) / e_hat


def sizes_claim(n_prime_fn, text: str) -> Inequality:
    """Lemma 9's proof: n'/k = Omega((d log(1/alpha) + log(m/beta))/alpha); with the printed n' and the text's k
    (constant 1) the ratio n'/k over 8000 (d log(1/alpha) + log(m/beta))/alpha is >= 1 (= 1 when m alpha >= 1)."""

    def ratio(o, alpha, beta, delta, d, num_queries):
        n_p = n_prime_fn(o, alpha, beta, delta, d, num_queries)
        k = text_k(o, alpha, beta, delta, num_queries)
        return n_p / k / (8000 * (d * o.log(1 / alpha) + o.log(num_queries / beta)) / alpha)

    return Inequality(text, ratio, lambda o, alpha, beta, delta, d, num_queries: 1 + 0 * alpha, L9, rel=">=",
                      where=lambda o, alpha, beta, delta, d, num_queries:
                      (num_queries * alpha / np.minimum(delta, beta / 2) > 1) & (num_queries > beta))


def claim10_use_claim(const: float, acc_div: float, text: str) -> Inequality:
    """Lemma 9's proof: S'' has n' >= const (d log(acc_div/alpha) + log(8k/beta))/alpha^2 points; Claim 10 at the accuracy
    the conclusion needs (dis <= alpha/24 + a = alpha/12, so a = alpha/24) asks 50 (d log(24/alpha) + log(8k/beta))/(alpha/24)^2."""
    dom = (Var("alpha", 1e-4, 0.999, points=20), BETA, D, Var("k", 1, 10**6, integer=True, points=10))
    return Inequality(text, lambda o, alpha, beta, d, k: const * (d * o.log(acc_div / alpha) + o.log(8 * k / beta)) / alpha**2,
                      lambda o, alpha, beta, d, k: 50 * (d * o.log(24 / alpha) + o.log(8 * k / beta)) / (alpha / 24) ** 2,
                      dom, rel=">=")


CH = (Var("alpha", 1e-3, 0.5, points=16), Var("beta", 1e-9, 0.5, points=16), Var("gamma", 0.0, 0.49, log=False, points=16))


def chernoff3_claim(m_fn, region, region_text, text: str, share: float = 4) -> Inequality:
    """Lemma 9 eq. (3): if err(h_ERM; D) <= alpha/8 + gamma then (1/m) sum 1(h_ERM(x_i) != y_i) <= alpha/4 + gamma
    w.p. >= 1 - beta/share over m i.i.d. queries; the exact tail at the worst case err = alpha/8 + gamma. The
    paper's sentence reads share 4; the union bound that closes at beta leaves the Chernoff step share 8
    (eq. (3)'s beta/4 less the ERM event's beta/8: nb20:lemma9.union)."""

    def tail(o, alpha, beta, gamma):
        m = np.ceil(m_fn(o, alpha, beta, gamma))
        p = np.minimum(alpha / 8 + gamma, 1.0)
        return _scipy_stats.binom.sf(np.floor(m * (alpha / 4 + gamma)), m, p)

    return Inequality(text, tail, lambda o, alpha, beta, gamma: beta / share, CH, region=region,
                      region_text=region_text)


def union_claim(shares: tuple, text: str) -> Identity:
    """Lemma 9's union bound over its failure events, as fractions of beta: (1) beta/4 (the per-j PAC and
    Claim 10 events and the counting argument), (2) Lemma 6 beta/4 + its Chernoff step, (3) the ERM event
    beta/8 + its Chernoff step; the proof concludes 'w.p. >= 1 - beta'."""
    return Identity(text, lambda o, beta: sum(f * beta for f in shares), lambda o, beta: beta,
                    (Var("beta", 1e-9, 0.999),))


# ---------------------------------------------------------------------------------------------
# Theorem 11


def thm11_factor_claim(C_: float, region, region_text, text: str) -> Inequality:
    """Theorem 11: A_AgPrivCl on m_o queries has the factor max(1, sqrt(m_o) alpha^{3/2}); printed as
    max(1, sqrt(d) alpha log^{1/2}(1/alpha)): max(1, sqrt(m_o) alpha^{3/2}) <= max(1, C sqrt(d log(1/alpha)) alpha)
    (the statement's max(1, .) on both sides: a point where the factor is below 1 is no counterexample)."""
    return Inequality(text, lambda o, alpha, beta, d: o.max(1, o.sqrt(alg4_m_o(o, alpha, beta, d)) * alpha ** o.frac(3, 2)),
                      lambda o, alpha, beta, d: o.max(1, C_ * o.sqrt(d * o.log(1 / alpha)) * alpha),
                      (Var("alpha", 1e-6, 0.5, points=30), Var("beta", 1e-300, 0.999, points=40), D),
                      region=region, region_text=region_text)


def step2_claim(scale: float, text: str) -> Inequality:
    """Lemma 9 step (2): X = 1(h^ wrong) - 1(h_ERM wrong) has mean <= alpha/4 (Lemma 6) and is non-zero w.p. <=
    err(h^) + err(h_ERM) <= alpha/2 + 2 gamma; Bernstein's tail for an empirical mean above alpha/2 at ``scale`` times
    the encoded min_queries must be <= beta/4 (step (2)'s share once Lemma 6 takes its beta/4)."""

    def tail(o, alpha, beta, gamma):
        m = o.ceil(scale * bernstein_m(o, alpha, beta, gamma))
        t = alpha / 4
        var = o.min(alpha / 2 + 2 * gamma, 1) - t**2
        return o.exp(-m * t**2 / (2 * var + o.frac(2, 3) * (1 + alpha / 4) * t))

    return Inequality(text, tail, lambda o, alpha, beta, gamma: beta / 4,
                      (Var("alpha", 1e-4, 0.5, points=30), Var("beta", 1e-12, 0.5, points=30),
                       Var("gamma", 1e-6, 0.5, points=20)))


def composition_claim(split, text: str) -> Exhaustive:
    """Theorem 11: Algorithm 4 runs A_AgPrivCl (eps1, delta)-DP and A_SSPP eps2-DP on the same S; basic
    composition (algorithms.privacy.accounting.compose) must give at most (eps, delta)."""

    def cases():
        for i, eps in enumerate(np.linspace(0.05, 0.95, 10)):
            for j, delta in enumerate((1e-9, 1e-6, 1e-3, 0.1)):
                e1, e2 = split(float(eps))
                g = compose(ApproxDP(e1, delta), PureDP(e2))
                yield Case(f"eps={eps:.2f}, delta={delta:g}", {"eps": float(eps), "delta": delta,
                                                               "total_eps": g.eps, "total_delta": g.delta}, size=i + j)

    return Exhaustive(text, cases, lambda c: (c.data["total_eps"] <= c.data["eps"] + 1e-12
                                              and c.data["total_delta"] <= c.data["delta"] * (1 + 1e-12), {}))


def margin_claim(sensitivity: float, text: str) -> Exhaustive:
    """Algorithm 5 (A_SubSamp): the vote margin dist = (largest count) - (second largest) of k binary votes,
    when one record (so one sub-sample, one vote) changes, moves by at most ``sensitivity``."""

    def cases():
        for k in range(1, 10):
            for ones in range(0, k + 1):
                for flip in (-1, 1):
                    if 0 <= ones + flip <= k:
                        a = abs(ones - (k - ones))
                        b = abs(ones + flip - (k - ones - flip))
                        yield Case(f"k={k}, ones={ones}, one vote flipped", {"k": k, "margin": a, "margin'": b,
                                                                             "change": abs(a - b)}, size=k)

    return Exhaustive(text, cases, lambda c: (c.data["change"] <= sensitivity, {}))


ALG5 = (Var("eps", 1e-4, 0.999, points=12), Var("delta", 1e-15, 0.5, points=10), Var("T", 1, 1e7, points=12))


def alg5_composition_claim(lam_fn, text: str) -> Inequality:
    """Algorithm 5: the T AboveThreshold rounds at the vote margin's sensitivity 2 (each 2*2/lambda-DP,
    Dwork-Roth Thm 3.23) compose by advanced composition at slack delta/2 (Thm 3.20) to at most eps."""
    return Inequality(text, lambda o, eps, delta, T: alg5_composed_eps(o, T, delta, alg5_round_eps(o, lam_fn(o, T, eps, delta), 2)),
                      lambda o, eps, delta, T: eps, ALG5)


def public_size_claim(m_fn, text: str) -> Inequality:
    """Theorem 11: the m_o query points make A_SSPP's cover (ABM19 Thm 3.1: Lemma 3.3 at (alpha/2, beta/2))
    fail w.p. at most beta/2: log tail at m_o <= 0."""
    dom = (Var("alpha", 1e-6, 0.999, points=30), Var("beta", 1e-12, 0.49, points=10), Var("d", 1, 300, integer=True, points=6))
    return Inequality(text, lambda o, alpha, beta, d: thm3_1_cover_g(o, m_fn(o, alpha, beta, d), alpha, beta, d),
                      lambda o, alpha, beta, d: 0 * alpha, dom)


def corrected_m_o(o, alpha, beta, d):
    """bounds nb20:thm11's corrected m_o = max(printed, cover size) (computed for the phase at beta/2)."""
    return bounds_value("nb20:thm11", "public_samples", alpha=alpha, beta=2 * beta, epsilon=0.5, delta=1e-6, vc=d,
                        num_queries=10**6)


CHAIN_OVER_PRINTED = 42.0  # ceil(41.30): the largest chain/printed n' ratio on printed_vs_chain_claim's domain


def printed_vs_chain_claim(scale: float, text: str) -> Inequality:
    """Lemma 9 / Theorem 7: ``scale`` x the printed n' (8000 ...) is at least the n' every step of the proof
    needs (bounds nb20:thm7's chain, with each 'standard result' pinned and Algorithm 5's lambda doubled for the
    vote margin's sensitivity 2, erratum nb20-alg5-margin).

    The corrected scale is CHAIN_OVER_PRINTED: a derived number, not a tolerance. On this domain (alpha in
    [0.001, 0.5], d <= 100, m in [1e3, 1e8] with m >= Lemma 9's printed min_queries, beta = 0.05, eps = 0.5,
    delta = 1e-6) the ratio chain n' / printed n' runs from 6.74 to 41.30 (grid and a dense 300 x 100 x 300
    sweep agree); its supremum is at the corner alpha = 0.5, d = 100, m = 1e3, where the sub-sample term
    k n_pac = 10,253,170 x 126,378 = 1.296e12 dominates the chain against the printed 3.137e10. Before the
    vote-margin correction (k half as large) the range was 3.3 to 20.6 and the scale 25; with the tight lambda
    (nb20:alg5 lambda_tight, shown, not encoded) it would be 3.31 to 20.67 (a 40 x 7 x 40 sweep)."""
    dom = (Var("alpha", 1e-3, 0.5, points=6), Var("d", 1, 100, integer=True, points=3),
           Var("num_queries", 10**3, 10**8, integer=True, points=4))

    def chain(o, alpha, d, num_queries):
        return bounds_value("nb20:thm7", "relabeled_samples", alpha=alpha, beta=0.05, epsilon=0.5, delta=1e-6,
                            vc=d, num_queries=num_queries)

    return Inequality(text, lambda o, alpha, d, num_queries: scale * lemma9_n_prime_printed(o, alpha, 0.05, 1e-6, d, num_queries),
                      chain, dom, rel=">=", where=lambda o, alpha, d, num_queries: num_queries >= lemma9_min_queries(o, alpha, 0.05))


# ---------------------------------------------------------------------------------------------

register(
    Check(
        id="nb20:lemma6.em-step", paper=PAPER, result="lemma6",
        claim=("Lemma 6 eq. (4): at n' = 256 (d + log(3/beta))/alpha^2, (2/n')(d log(en'/d) + log(3/beta)) <= "
               "80 alpha^2 (d log(1/alpha) + log(3/beta))/(256 (d + log(3/beta)))"),
        source=f"{SEED}; Appendix A, proof of Lemma 6, eq. (4), middle step",
        method="numeric grid + hypothesis",
        stated=em_step_claim(lambda o, alpha, beta, d: alpha <= 0.5, "alpha <= 1/2 (any beta, d)",
                             "middle step of (4)"),
        expect=PART,
        perturbed={"region alpha <= 0.9": em_step_claim(lambda o, alpha, beta, d: alpha <= 0.9, "alpha <= 0.9",
                                                        "middle step on alpha <= 0.9")},
        errata=("nb20-lemma6-middle-step",),
        formula_from="bounds.papers.nb20.lemma6_em_gap, lemma6_em_gap_printed_bound, lemma6_n_printed",
    ),
    Check(
        id="nb20:lemma6.alpha3", paper=PAPER, result="lemma6",
        claim="Lemma 6 eq. (4), last step: 80 alpha^2 (d log(1/alpha) + log(3/beta))/(256 (d + log(3/beta))) <= alpha/3",
        source=f"{SEED}; Appendix A, eq. (4), last step",
        method="numeric grid + hypothesis",
        stated=alpha3_claim(1 / 3, "<= alpha/3"),
        perturbed={"alpha/4": alpha3_claim(1 / 4, "<= alpha/4")},
        formula_from="bounds.papers.nb20.lemma6_em_gap_printed_bound",
    ),
    Check(
        id="nb20:lemma6.em-direct", paper=PAPER, result="lemma6",
        claim="Lemma 6 eq. (4) end to end: at the printed n', the exponential-mechanism gap is <= alpha/3 for all alpha in (0, 1)",
        source=f"{SEED}; Appendix A, eq. (4)",
        method="numeric grid + hypothesis",
        stated=em_direct_claim(1 / 3, "gap <= alpha/3"),
        perturbed={"alpha/30": em_direct_claim(1 / 30, "gap <= alpha/30")},
        formula_from="bounds.papers.nb20.lemma6_em_gap, lemma6_n_printed",
    ),
    Check(
        id="nb20:lemma6.uniform-convergence", paper=PAPER, result="lemma6",
        claim=("Lemma 6 eqs. (5)-(6): n' = 256 (d + log(3/beta))/alpha^2 gives |err - err^| <= alpha/3 for h^ and h_ERM "
               "w.p. >= 1 - 2 beta/3 ('standard uniform convergence'), with the explicit VC inequality 4 (2en/d)^d e^{-n a^2/8}"),
        source=f"{SEED}; Appendix A, eqs. (5)-(6); Anthony-Bartlett Thm 4.3 as the standard bound",
        method="numeric grid + hypothesis",
        stated=uc_claim(1.0, "VC inequality at the printed n'"),
        expect=FAILS,
        corrected=uc_claim(40.0, "VC inequality at 40 times the printed n'"),
        perturbed={"at 4 times": uc_claim(4.0, "at 4 times the printed n'")},
        errata=("nb20-lemma6-uniform-convergence",),
        formula_from="bounds.papers.nb20.lemma6_uc_g (VC inequality), lemma6_n_printed",
    ),
    Check(
        id="nb20:claim10.growth-delta", paper=PAPER, result="claim10",
        claim="Claim 10 proof (as printed): G_{H Delta}(t) <= G_H(t) <= (et/d)^{2d}",
        source=f"{SEED}; proof of Claim 10",
        method="exhaustive",
        stated=growth_delta_claim(False, "G_{HDelta}(t) <= G_H(t)"),
        expect=FAILS,
        corrected=growth_delta_claim(True, "G_{HDelta}(t) <= G_H(t)^2 <= (et/d)^{2d}"),
        perturbed={"printed": growth_delta_claim(False, "G_{HDelta}(t) <= G_H(t)")},
        errata=("nb20-claim10-square",),
    ),
    Check(
        id="nb20:claim10.constant", paper=PAPER, result="claim10",
        claim=("Claim 10: n_o >= 50 (d log(1/alpha) + log(1/beta'))/alpha^2 makes the printed tail "
               "2 (e n_o/d)^{2d} exp(-n_o alpha^2/8) at most beta'"),
        source=f"{SEED}; Claim 10 and its proof ('by a standard manipulation')",
        method="numeric grid + hypothesis",
        stated=claim10_constant_claim(50, lambda o, alpha, beta, d: alpha <= 1e-3, "alpha <= 0.001", "constant 50"),
        expect=PART,
        perturbed={"region alpha <= 0.01": claim10_constant_claim(50, lambda o, alpha, beta, d: alpha <= 0.01,
                                                                  "alpha <= 0.01", "constant 50 on alpha <= 0.01")},
        errata=("nb20-claim10-constant",),
        formula_from="bounds.papers.nb20.claim10_n_printed, claim10_log_tail_printed",
    ),
    Check(
        id="nb20:claim10.tail", paper=PAPER, result="claim10",
        claim="Claim 10 proof: P[exists h in H_Delta: |dis - dis^| > alpha] <= 2 G_{H_Delta} exp(-n_o alpha^2/8)",
        source=f"{SEED}; proof of Claim 10, third line",
        method="none",
        stated=("a uniform-convergence theorem over all distributions (cited, not derived); the printed "
                "'2 G_{H_Delta} exp(-n_o alpha^2/8)' has no argument and is not the standard two-sided VC "
                "inequality 4 G(2 n_o) exp(-n_o alpha^2/8) (Anthony-Bartlett Thm 4.3), which bounds uses"),
        expect="not machine-checkable",
        errata=("nb20-claim10-tail",),
    ),
    Check(
        id="nb20:lemma8.amplification", paper=PAPER, result="lemma8",
        claim=("Lemma 8: (eps* + 3, 4 e delta) amplified by sub-sampling n' = eps n/56 is at most (eps, delta): "
               "log(1 + (eps/56)(e^4 - 1)) <= eps needs 56 >= e^4 - 1 = 53.6"),
        source=f"{SEED}; proof of Lemma 8; Algorithm 3 step 1",
        method="numeric grid + hypothesis",
        stated=amplification_claim(56, "rate eps/56"),
        perturbed={"rate eps/50": amplification_claim(50, "rate eps/50")},
        formula_from="bounds.papers.nb20.alg3_* (Algorithm 3 settings and Lemma 8 accounting)",
    ),
    Check(
        id="nb20:lemma8.group", paper=PAPER, result="lemma8",
        claim="Lemma 8: with r <= log(2/delta), group privacy gives r eps^ = min(1, eps') and r e^{r eps^} delta^ = delta/2",
        source=f"{SEED}; proof of Lemma 8; Algorithm 3 step 1 (eps^, delta^)",
        method="symbolic",
        stated=group_claim(alg3_delta_hat, "delta^ = delta/(2 e^{min(1, eps')} log(2/delta))"),
        perturbed={"no e^min(1,eps')": group_claim(lambda o, delta, ep: delta / (2 * o.log(2 / delta)),
                                                  "delta^ = delta/(2 log(2/delta))")},
        formula_from="bounds.papers.nb20.alg3_eps_hat, alg3_delta_hat, alg3_group_eps, alg3_group_delta",
    ),
    Check(
        id="nb20:lemma8.r-tail", paper=PAPER, result="lemma8",
        claim="Lemma 8: r ~ Bin(n', 1/n') satisfies r <= log(2/delta) w.p. >= 1 - delta/2 (exact binomial tail)",
        source=f"{SEED}; proof of Lemma 8 ('by the definition of R, and Chernoff bound')",
        method="exact probability",
        stated=r_claim(1.0, lambda o, n_prime, delta: delta <= 2 * np.exp(-4), "delta <= 2 e^{-4} = 0.0366",
                       "P[r > log(2/delta)] <= delta/2"),
        expect=PART,
        perturbed={"delta/20": r_claim(0.1, lambda o, n_prime, delta: delta <= 2 * np.exp(-4), "delta <= 0.0366",
                                       "P[r > log(2/delta)] <= delta/20")},
        errata=("nb20-lemma8-r-tail",),
    ),
    Check(
        id="nb20:lemma9.sizes", paper=PAPER, result="lemma9",
        claim=("Lemma 9 proof: with n' = 8000 (...) max(1, sqrt(m) alpha^{3/2})/alpha^2 and k = sqrt(m alpha log(2/delta)) "
               "log(.)/eps^, n'/k >= 8000 (d log(1/alpha) + log(m/beta))/alpha (min(1,x) max(1,x) = x)"),
        source=f"{SEED}; proof of Lemma 9, the n'/k display",
        method="numeric grid + hypothesis",
        stated=sizes_claim(lemma9_n_prime_printed, "printed n'"),
        perturbed={"without max(1, sqrt(m) alpha^1.5)": sizes_claim(
            lambda o, alpha, beta, delta, d, num_queries: lemma9_n_prime_printed(o, alpha, beta, delta, d, num_queries)
            / o.max(1, o.sqrt(num_queries) * alpha ** o.frac(3, 2)), "n' without the max factor")},
        formula_from="bounds.papers.nb20.lemma9_n_prime_printed, alg3_eps_hat; k as in the proof (constant 1)",
    ),
    Check(
        id="nb20:alg5.margin", paper=PAPER, result="thm7",
        claim="Algorithm 5 (A_SubSamp): the vote margin tested by A_stab with Lap noise has sensitivity 1 (one record moves one vote)",
        source=f"{SEED}; Appendix B.1, Algorithms 5 and 6 (dist = largest count - second largest count)",
        method="exhaustive",
        stated=margin_claim(1, "sensitivity 1"),
        expect=FAILS,
        corrected=margin_claim(2, "sensitivity 2 (use half the margin or double the noise)"),
        perturbed={"sensitivity 3/2": margin_claim(1.5, "sensitivity 3/2")},
        errata=("nb20-alg5-margin",),
    ),
    Check(
        id="nb20:alg5.composition", paper=PAPER, result="alg5",
        claim=("Algorithm 5 with the printed lambda = sqrt(32 T log(2/delta))/eps is (eps, delta)-DP: its T sparse-vector "
               "rounds compose to <= eps (at the vote margin's sensitivity 2, nb20:alg5.margin)"),
        source=f"{SEED}; Appendix B.1, Algorithm 5 step 1; Dwork-Roth Thms 3.20 (advanced composition) and 3.23",
        method="numeric grid + hypothesis",
        stated=alg5_composition_claim(alg5_lambda_as_printed, "printed lambda: composed eps <= eps"),
        expect=FAILS,
        corrected=alg5_composition_claim(alg5_lambda, "bounds' lambda (2 x printed): composed eps <= eps"),
        perturbed={"tight lambda / 1.001": alg5_composition_claim(
                       lambda o, T, eps, delta: alg5_lambda_tight(o, T, eps, delta) / 1.001,
                       "0.1% less noise than the tight lambda (bounds lambda_tight, which itself holds)"),
                   "printed lambda at 0.999 eps": alg5_composition_claim(
                       lambda o, T, eps, delta: alg5_lambda_as_printed(o, T, 0.999 * eps, delta), "printed at 0.999 eps")},
        errata=("nb20-alg5-margin",),
        formula_from="bounds.papers.nb20.alg5_lambda, alg5_lambda_as_printed, alg5_round_eps, alg5_composed_eps",
    ),
    Check(
        id="nb20:lemma9.printed-n-prime", paper=PAPER, result="lemma9",
        claim="Lemma 9 / Theorem 7: the printed n' = 8000 (...) covers every step of the proof (bounds' explicit chain)",
        source=f"{SEED}; proof of Lemma 9 (n' display); bounds nb20:thm7 (the chain with pinned constants)",
        method="numeric grid + hypothesis",
        stated=printed_vs_chain_claim(1.0, "printed n' >= chain n'"),
        expect=FAILS,
        corrected=printed_vs_chain_claim(CHAIN_OVER_PRINTED, (
            "42 x printed n' >= chain n' (42 = ceil of the largest chain/printed ratio on the domain, 41.30 at "
            "alpha = 0.5, d = 100, m = 1e3, with Alg 5's lambda doubled for the vote margin; a derived number, "
            "not a tolerance)")),
        perturbed={"2 x printed": printed_vs_chain_claim(2.0, "2 x printed n' >= chain n'")},
        errata=("nb20-lemma9-printed-constants",),
        formula_from="bounds:nb20:thm7 (relabeled_samples), bounds.papers.nb20.lemma9_n_prime_printed",
    ),
    Check(
        id="nb20:lemma9.claim10-use", paper=PAPER, result="lemma9",
        claim=("Lemma 9 proof: n' >= 7200 (d log(1/alpha) + log(8k/beta))/alpha^2 lets Claim 10 turn dis^ <= alpha/24 "
               "into dis <= alpha/12 (Claim 10 at accuracy alpha/24)"),
        source=f"{SEED}; proof of Lemma 9 ('Note that the size of S'' is n' >= 7200 ... by Claim 10 ... <= alpha/12')",
        method="numeric grid + hypothesis",
        stated=claim10_use_claim(7200, 1, "7200 (d log(1/alpha) + ...)"),
        expect=FAILS,
        corrected=claim10_use_claim(28800, 24, "28800 (d log(24/alpha) + ...)"),
        perturbed={"14400": claim10_use_claim(14400, 24, "14400 (d log(24/alpha) + ...)")},
        errata=("nb20-lemma9-7200",),
    ),
    Check(
        id="nb20:lemma9.chernoff", paper=PAPER, result="lemma9",
        claim=("Lemma 9 eq. (3): with m >= 8 log(1/(alpha beta))/alpha queries, err(h_ERM) <= alpha/8 + gamma gives "
               "(1/m) sum 1(h_ERM(x_i) != y_i) <= alpha/4 + gamma w.p. >= 1 - beta/4 ('by Chernoff')"),
        source=f"{SEED}; proof of Lemma 9, eqs. (2)-(3) and the condition m >= 8 log(1/(alpha beta))/alpha",
        method="exact probability",
        stated=chernoff3_claim(lambda o, alpha, beta, gamma: lemma9_min_queries(o, alpha, beta), None, None,
                               "m = 8 log(1/(alpha beta))/alpha"),
        expect=FAILS,
        corrected=chernoff3_claim(bernstein_m, None, None, "m = Bernstein size (2q(1-q) + alpha/12) log(8/beta)/(alpha/8)^2, "
                                  "q = min(alpha/8 + gamma, 1/2), tail <= beta/8 (eq. (3)'s share of the union bound)", share=8),
        perturbed={"Bernstein size / 4": chernoff3_claim(lambda o, alpha, beta, gamma: bernstein_m(o, alpha, beta, gamma) / 4,
                                                         None, None, "a quarter of the Bernstein size", share=8)},
        errata=("nb20-lemma9-chernoff",),
        formula_from="bounds.papers.nb20.lemma9_min_queries; exact tail scipy.stats.binom",
    ),
    Check(
        id="nb20:lemma9.step2", paper=PAPER, result="lemma9",
        claim=("Lemma 9 eq. (2): at the encoded min_queries (Bernstein, eq. (3)'s size) the empirical difference of h^'s and "
               "h_ERM's query errors stays <= alpha/2 w.p. >= 1 - beta/4 (Bernstein with variance <= alpha/2 + 2 gamma)"),
        source=f"{SEED}; proof of Lemma 9, eq. (2)",
        method="numeric grid + hypothesis",
        stated=step2_claim(1.0, "Bernstein tail at min_queries <= beta/4"),
        perturbed={"a tenth of min_queries": step2_claim(0.1, "Bernstein tail at min_queries/10 <= beta/4")},
        errata=("nb20-lemma9-chernoff",),
        formula_from="bounds.papers.nb20.lemma9_min_queries_bernstein",
    ),
    Check(
        id="nb20:lemma9.pac", paper=PAPER, result="lemma9",
        claim="Lemma 9 proof: n'/k samples let B_PAC learn H w.r.t. D_S'' to alpha/24 w.p. 1 - beta/(16k) ('standard results')",
        source=f"{SEED}; proof of Lemma 9",
        method="none",
        stated=("the paper gives no constant for the realizable PAC bound it calls standard; with Anthony-Bartlett "
                "Thm 4.8 pinned (bounds nb20:thm7's chain) the printed n' falls short: see nb20:lemma9.printed-n-prime"),
        expect="not machine-checkable",
    ),
    Check(
        id="nb20:lemma9.union", paper=PAPER, result="lemma9",
        claim=("Lemma 9: failures (1) beta/4 + (2) [Lemma 6 beta/4 + Chernoff beta/4] + (3) [ERM beta/8 + Chernoff "
               "beta/4, as eq. (3)'s sentence gives its Chernoff step] = beta"),
        source=f"{SEED}; proof of Lemma 9: eq. (1) w.p. 1 - beta/4, Lemma 6 w.p. 1 - beta/4 and (2) w.p. 1 - beta/2, "
               "the ERM event w.p. 1 - beta/8 and (3) 'by Chernoff ... w.p. >= 1 - beta/4', 'w.p. >= 1 - beta'",
        method="symbolic",
        stated=union_claim((0.25, 0.25, 0.25, 0.125, 0.25), "beta/4 + beta/4 + beta/4 + beta/8 + beta/4 = beta"),
        expect=FAILS,
        corrected=union_claim((0.25, 0.25, 0.25, 0.125, 0.125),
                              "beta/4 + beta/4 + beta/4 + beta/8 + beta/8 = beta (eq. (3)'s Chernoff step at beta/8: "
                              "bounds' min_queries uses log(8/beta))"),
        perturbed={"(2)'s Chernoff at beta/2": union_claim((0.25, 0.25, 0.5, 0.125, 0.125), "... beta/2 ... = beta")},
        errata=("nb20-lemma9-union",),
        formula_from="paper text; bounds.papers.nb20.lemma9_min_queries_bernstein (log(8/beta))",
    ),
    Check(
        id="nb20:lemma9.errors", paper=PAPER, result="lemma9",
        claim="Lemma 9: errors alpha/4 (1) + alpha/2 (2) + alpha/4 + gamma (3) = alpha + gamma",
        source=f"{SEED}; proof of Lemma 9, last paragraph",
        method="symbolic",
        stated=Identity("alpha/4 + alpha/2 + alpha/4 + gamma = alpha + gamma",
                        lambda o, alpha, beta, gamma: alpha / 4 + alpha / 2 + alpha / 4 + gamma,
                        lambda o, alpha, beta, gamma: alpha + gamma, CH),
        perturbed={"alpha/8 extra": Identity("... + alpha/8 = ...",
                                             lambda o, alpha, beta, gamma: alpha + gamma + alpha / 8,
                                             lambda o, alpha, beta, gamma: alpha + gamma, CH)},
    ),
    Check(
        id="nb20:lemma9.cutoff", paper=PAPER, result="lemma9",
        claim="Lemma 9 proof: since m = Omega(log(1/(alpha beta))/alpha), T = O(m alpha); explicit: T <= max(1, m alpha) for m >= 8 log(1/(alpha beta))/alpha",
        source=f"{SEED}; proof of Lemma 9; Algorithm 3 step 1 (T)",
        method="numeric grid + hypothesis",
        stated=Inequality("T <= max(1, m alpha)", lambda o, alpha, beta, num_queries: alg3_T(o, alpha, beta, num_queries),
                          lambda o, alpha, beta, num_queries: o.max(1, num_queries * alpha),
                          (Var("alpha", 1e-4, 0.999), Var("beta", 1e-12, 0.999), M_Q),
                          where=lambda o, alpha, beta, num_queries: num_queries >= lemma9_min_queries(o, alpha, beta)),
        perturbed={"T <= m alpha/8": Inequality("T <= m alpha / 8", lambda o, alpha, beta, num_queries: alg3_T(o, alpha, beta, num_queries),
                                                lambda o, alpha, beta, num_queries: num_queries * alpha / 8,
                                                (Var("alpha", 1e-4, 0.999), Var("beta", 1e-12, 0.999), M_Q),
                                                where=lambda o, alpha, beta, num_queries: num_queries >= lemma9_min_queries(o, alpha, beta))},
        formula_from="bounds.papers.nb20.alg3_T, lemma9_min_queries",
    ),
    Check(
        id="nb20:thm11.factor", paper=PAPER, result="thm11",
        claim=("Theorem 11: A_AgPrivCl on m_o = 32 (d log(1/alpha) + log(1/beta))/alpha queries costs max(1, sqrt(m_o) alpha^{3/2}), "
               "printed as max(1, sqrt(d) alpha log^{1/2}(1/alpha)); explicit: max(1, sqrt(m_o) alpha^{3/2}) <= max(1, 8 sqrt(d log(1/alpha)) alpha)"),
        source=f"{SEED}; Theorem 11 and Algorithm 4 step 1",
        method="numeric grid + hypothesis",
        stated=thm11_factor_claim(8.0, lambda o, alpha, beta, d: o.log(1 / beta) <= d * o.log(1 / alpha),
                                  "log(1/beta) <= d log(1/alpha), i.e. beta >= alpha^d", "constant 8"),
        expect=PART,
        perturbed={"constant 4": thm11_factor_claim(4.0, lambda o, alpha, beta, d: o.log(1 / beta) <= d * o.log(1 / alpha),
                                                    "beta >= alpha^d", "constant 4")},
        errata=("nb20-thm11-log-beta",),
        formula_from="bounds.papers.nb20.alg4_m_o",
    ),
    Check(
        id="nb20:thm11.public-size", paper=PAPER, result="thm11",
        claim=("Theorem 11 / Algorithm 4: m_o = 32 (d log(1/alpha) + log(1/beta))/alpha query points give A_SSPP its "
               "alpha/2-cover w.p. >= 1 - beta/2 (ABM19 Lemma 3.3's inequality (1))"),
        source=f"{SEED}; Algorithm 4 step 1; ABM19 Theorem 3.1 and Lemma 3.3",
        method="numeric grid + hypothesis",
        stated=public_size_claim(alg4_m_o, "printed m_o"),
        expect=FAILS,
        corrected=public_size_claim(corrected_m_o, "bounds' corrected m_o = max(printed, cover size)"),
        perturbed={"half the corrected m_o": public_size_claim(lambda o, alpha, beta, d: corrected_m_o(o, alpha, beta, d) / 2,
                                                               "half of the corrected m_o")},
        errata=("nb20-thm11-m_o",),
        formula_from="bounds.papers.nb20.alg4_m_o, bounds:nb20:thm11 (public_samples), bounds.papers.abm19.thm3_1_cover_g",
    ),
    Check(
        id="nb20:thm11.privacy", paper=PAPER, result="thm11",
        claim="Theorem 11: Algorithm 4 (A_AgPrivCl at (eps, delta) then A_SSPP at eps, on the same S) is (eps, delta)-DP",
        source=f"{SEED}; Algorithm 4 and Theorem 11",
        method="exhaustive",
        stated=composition_claim(lambda eps: (eps, eps), "both phases at eps"),
        expect=FAILS,
        corrected=composition_claim(lambda eps: (eps / 2, eps / 2), "each phase at eps/2"),
        perturbed={"eps/2 and eps": composition_claim(lambda eps: (eps / 2, eps), "eps/2 then eps")},
        errata=("nb20-thm11-privacy",),
        formula_from="algorithms.privacy.accounting.compose (basic composition)",
    ),
    Check(
        id="nb20:thm11.confidence", paper=PAPER, result="thm11",
        claim="Theorem 11: the two phases, each failing w.p. at most beta, fail together w.p. at most beta",
        source=f"{SEED}; Algorithm 4 (both phases called with beta) and Theorem 11",
        method="symbolic",
        stated=Identity("beta + beta = beta", lambda o, beta: beta + beta, lambda o, beta: beta, (Var("beta", 1e-9, 0.999),)),
        expect=FAILS,
        corrected=Identity("beta/2 + beta/2 = beta", lambda o, beta: beta / 2 + beta / 2, lambda o, beta: beta,
                           (Var("beta", 1e-9, 0.999),)),
        perturbed={"beta/2 + beta": Identity("beta/2 + beta = beta", lambda o, beta: beta / 2 + beta,
                                             lambda o, beta: beta, (Var("beta", 1e-9, 0.999),))},
        errata=("nb20-thm11-confidence",),
    ),
)
