"""NB20 (seed 004): checks of Lemma 6 (the exponential-mechanism step to alpha/3), Claim 10 (growth function
of H_Delta and its constant 50), Lemmas 8 and 9 (privacy composition of A_AgPrivCl, the sizes n'/k, the
Claim 10 application, the Chernoff steps) and Theorem 11's combination."""
from __future__ import annotations

import numpy as np

from bounds.papers.nb20 import (alg3_delta_hat, alg3_T, alg4_m_o, alg5_lambda, alg5_lambda_as_printed,
                                alg5_lambda_tight, lemma9_min_queries, lemma9_n_prime_printed)
from bounds.papers.nb20 import lemma9_min_queries_bernstein as bernstein_m  # Bernstein size of eq. (3)

from ._nb20_claims import (CH, CHAIN_OVER_PRINTED, M_Q, PAPER, SEED, alg5_composition_claim, alpha3_claim,
                           amplification_claim, chernoff3_claim, claim10_constant_claim, claim10_use_claim,
                           composition_claim, corrected_m_o, em_direct_claim, em_step_claim, group_claim,
                           margin_claim, printed_vs_chain_claim, public_size_claim, r_claim, sizes_claim, step2_claim,
                           thm11_factor_claim, uc_claim, union_claim)
from .abm19 import growth_delta_claim
from .core import FAILS, PART, Check, Identity, Inequality, Var, register


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
        claim="Lemma 6 eq. (4), last step: 80 alpha^2 (d log(1/alpha) + log(3/beta))/(256 (d + log(3/beta))) "
              "<= alpha/3",
        source=f"{SEED}; Appendix A, eq. (4), last step",
        method="numeric grid + hypothesis",
        stated=alpha3_claim(1 / 3, "<= alpha/3"),
        perturbed={"alpha/4": alpha3_claim(1 / 4, "<= alpha/4")},
        formula_from="bounds.papers.nb20.lemma6_em_gap_printed_bound",
    ),
    Check(
        id="nb20:lemma6.em-direct", paper=PAPER, result="lemma6",
        claim="Lemma 6 eq. (4) end to end: at the printed n', the exponential-mechanism gap is <= alpha/3 for all "
              "alpha in (0, 1)",
        source=f"{SEED}; Appendix A, eq. (4)",
        method="numeric grid + hypothesis",
        stated=em_direct_claim(1 / 3, "gap <= alpha/3"),
        perturbed={"alpha/30": em_direct_claim(1 / 30, "gap <= alpha/30")},
        formula_from="bounds.papers.nb20.lemma6_em_gap, lemma6_n_printed",
    ),
    Check(
        id="nb20:lemma6.uniform-convergence", paper=PAPER, result="lemma6",
        claim=("Lemma 6 eqs. (5)-(6): n' = 256 (d + log(3/beta))/alpha^2 gives |err - err^| <= alpha/3 for h^ and "
               "h_ERM "
               "w.p. >= 1 - 2 beta/3 ('standard uniform convergence'), with the explicit VC inequality 4 (2en/d)^d "
               "e^{-n a^2/8}"),
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
        stated=amplification_claim(56, "rate eps/56", restated=True),
        perturbed={"rate eps/50": amplification_claim(50, "rate eps/50")},
        formula_from="bounds.papers.nb20.alg3_* (Algorithm 3 settings and Lemma 8 accounting)",
    ),
    Check(
        id="nb20:lemma8.group", paper=PAPER, result="lemma8",
        claim="Lemma 8: with r <= log(2/delta), group privacy gives r eps^ = min(1, eps') and r e^{r eps^} delta^ = "
              "delta/2",
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
        claim=("Lemma 9 proof: with n' = 8000 (...) max(1, sqrt(m) alpha^{3/2})/alpha^2 and k = sqrt(m alpha "
               "log(2/delta)) "
               "log(.)/eps^, n'/k >= 8000 (d log(1/alpha) + log(m/beta))/alpha (min(1,x) max(1,x) = x)"),
        source=f"{SEED}; proof of Lemma 9, the n'/k display",
        method="numeric grid + hypothesis",
        stated=sizes_claim(lemma9_n_prime_printed, "printed n'", restated=True),
        perturbed={"without max(1, sqrt(m) alpha^1.5)": sizes_claim(
            lambda o, alpha, beta, delta, d, num_queries: lemma9_n_prime_printed(o, alpha, beta, delta, d, num_queries)
            / o.max(1, o.sqrt(num_queries) * alpha ** o.frac(3, 2)), "n' without the max factor")},
        formula_from="bounds.papers.nb20.lemma9_n_prime_printed, alg3_eps_hat; k as in the proof (constant 1)",
    ),
    Check(
        id="nb20:alg5.margin", paper=PAPER, result="thm7",
        claim="Algorithm 5 (A_SubSamp): the vote margin tested by A_stab with Lap noise has sensitivity 1 (one record "
              "moves one vote)",
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
        claim=("Algorithm 5 with the printed lambda = sqrt(32 T log(2/delta))/eps is (eps, delta)-DP: its T "
               "sparse-vector "
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
                       lambda o, T, eps, delta: alg5_lambda_as_printed(o, T, 0.999 * eps, delta),
                       "printed at 0.999 eps")},
        errata=("nb20-alg5-margin",),
        formula_from="bounds.papers.nb20.alg5_lambda, alg5_lambda_as_printed, alg5_round_eps, alg5_composed_eps",
    ),
    Check(
        id="nb20:lemma9.printed-n-prime", paper=PAPER, result="lemma9",
        claim="Lemma 9 / Theorem 7: the printed n' = 8000 (...) covers every step of the proof (bounds' explicit "
              "chain)",
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
        corrected=chernoff3_claim(bernstein_m, None, None, "m = Bernstein size (2q(1-q) + alpha/12) "
                                  "log(8/beta)/(alpha/8)^2, "
                                  "q = min(alpha/8 + gamma, 1/2), tail <= beta/8 (eq. (3)'s share of the union bound)",
                                  share=8),
        perturbed={"Bernstein size / 4": chernoff3_claim(lambda o, alpha, beta, gamma: bernstein_m(o, alpha, beta,
                gamma) / 4,
                                                         None, None, "a quarter of the Bernstein size", share=8)},
        errata=("nb20-lemma9-chernoff",),
        formula_from="bounds.papers.nb20.lemma9_min_queries; exact tail scipy.stats.binom",
    ),
    Check(
        id="nb20:lemma9.step2", paper=PAPER, result="lemma9",
        claim=("Lemma 9 eq. (2): at the encoded min_queries (Bernstein, eq. (3)'s size) the empirical difference of "
               "h^'s and h_ERM's query errors stays <= alpha/2 w.p. >= 1 - beta/4 (Bernstein with variance <= "
               "alpha/2 + 2 gamma)"),
        source=f"{SEED}; proof of Lemma 9, eq. (2)",
        method="numeric grid + hypothesis",
        stated=step2_claim(1.0, "Bernstein tail at min_queries <= beta/4"),
        perturbed={"a tenth of min_queries": step2_claim(0.1, "Bernstein tail at min_queries/10 <= beta/4")},
        errata=("nb20-lemma9-chernoff",),
        formula_from="bounds.papers.nb20.lemma9_min_queries_bernstein",
    ),
    Check(
        id="nb20:lemma9.pac", paper=PAPER, result="lemma9",
        claim="Lemma 9 proof: n'/k samples let B_PAC learn H w.r.t. D_S'' to alpha/24 w.p. 1 - beta/(16k) ('standard "
              "results')",
        source=f"{SEED}; proof of Lemma 9",
        method="none",
        stated=("the paper gives no constant for the realizable PAC bound it calls standard; with Anthony-Bartlett "
                "Thm 4.8 pinned (bounds nb20:thm7's chain) the printed n' falls short: see "
                "nb20:lemma9.printed-n-prime"),
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
        claim="Lemma 9 proof: since m = Omega(log(1/(alpha beta))/alpha), T = O(m alpha); explicit: T <= max(1, m "
              "alpha) for m >= 8 log(1/(alpha beta))/alpha",
        source=f"{SEED}; proof of Lemma 9; Algorithm 3 step 1 (T)",
        method="numeric grid + hypothesis",
        stated=Inequality("T <= max(1, m alpha)",
                          lambda o, alpha, beta, num_queries: alg3_T(o, alpha, beta, num_queries),
                          lambda o, alpha, beta, num_queries: o.max(1, num_queries * alpha),
                          (Var("alpha", 1e-4, 0.999), Var("beta", 1e-12, 0.999), M_Q),
                          where=lambda o, alpha, beta, num_queries: num_queries >= lemma9_min_queries(o, alpha, beta)),
        perturbed={"T <= m alpha/8": Inequality("T <= m alpha / 8",
                                                lambda o, alpha, beta, num_queries: alg3_T(o, alpha, beta, num_queries),
                                                lambda o, alpha, beta, num_queries: num_queries * alpha / 8,
                                                (Var("alpha", 1e-4, 0.999), Var("beta", 1e-12, 0.999), M_Q),
                                                where=lambda o, alpha, beta, num_queries: num_queries
                                                >= lemma9_min_queries(o, alpha, beta))},
        formula_from="bounds.papers.nb20.alg3_T, lemma9_min_queries",
    ),
    Check(
        id="nb20:thm11.factor", paper=PAPER, result="thm11",
        claim=("Theorem 11: A_AgPrivCl on m_o = 32 (d log(1/alpha) + log(1/beta))/alpha queries costs max(1, sqrt(m_o) "
               "alpha^{3/2}), "
               "printed as max(1, sqrt(d) alpha log^{1/2}(1/alpha)); explicit: max(1, sqrt(m_o) alpha^{3/2}) <= max(1, "
               "8 sqrt(d log(1/alpha)) alpha)"),
        source=f"{SEED}; Theorem 11 and Algorithm 4 step 1",
        method="numeric grid + hypothesis",
        stated=thm11_factor_claim(8.0, lambda o, alpha, beta, d: o.log(1 / beta) <= d * o.log(1 / alpha),
                                  "log(1/beta) <= d log(1/alpha), i.e. beta >= alpha^d", "constant 8",
                                  restated=True),
        expect=PART,
        perturbed={"constant 4": thm11_factor_claim(4.0,
                                                    lambda o, alpha, beta, d: o.log(1 / beta) <= d * o.log(1 / alpha),
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
        perturbed={"half the corrected m_o": public_size_claim(lambda o, alpha, beta, d: corrected_m_o(o, alpha, beta,
                d) / 2,
                                                               "half of the corrected m_o")},
        errata=("nb20-thm11-m_o",),
        formula_from="bounds.papers.nb20.alg4_m_o, bounds:nb20:thm11 (public_samples), "
                     "bounds.papers.abm19.thm3_1_cover_g",
    ),
    Check(
        id="nb20:thm11.privacy", paper=PAPER, result="thm11",
        claim="Theorem 11: Algorithm 4 (A_AgPrivCl at (eps, delta) then A_SSPP at eps, on the same S) is (eps, "
              "delta)-DP",
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
        stated=Identity("beta + beta = beta", lambda o, beta: beta + beta, lambda o, beta: beta,
                        (Var("beta", 1e-9, 0.999),)),
        expect=FAILS,
        corrected=Identity("beta/2 + beta/2 = beta", lambda o, beta: beta / 2 + beta / 2, lambda o, beta: beta,
                           (Var("beta", 1e-9, 0.999),)),
        perturbed={"beta/2 + beta": Identity("beta/2 + beta = beta", lambda o, beta: beta / 2 + beta,
                                             lambda o, beta: beta, (Var("beta", 1e-9, 0.999),))},
        errata=("nb20-thm11-confidence",),
    ),
)
