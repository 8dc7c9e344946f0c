"""BCMNUW20 Theorems 13, 14, 15 and Lemma 17, explicit (bounds.papers.bcmnuw20_explicit): one check per step of the
derivation for the workbench's tracing attack and query-release-to-learning reduction, and the checks of the
departures from the printed text (errata bcmnuw20-thm14-whp, bcmnuw20-lemma17-labelled,
bcmnuw20-thm15-regime). Registered from proofs_checks.bcmnuw20; the claim builders of Theorem 14's steps 1-6 are in
proofs_checks._bcmnuw20_tracing."""
from __future__ import annotations

import math

import numpy as np

from bounds.ops import NUMPY
from bounds.papers import bcmnuw20_explicit as L

from .core import FAILS, Case, Check, Exhaustive, Identity, Inequality, Var, bounds_value, register
from ._bcmnuw20_tracing import (CUBIC, FLOOR_DOMAIN, SLACK_DOMAIN, _bernstein, _wrong_root, assembly_claim,
                                attacker_soundness_claim, by_parts_lhs, by_parts_rhs, counting_claim, cross_claim,
                                fingerprint_signal, opnorm_claim, reference_claim, row_norm_claim,
                                score_identity_claim, signal_floor_rhs, slack_lhs, soundness_claim,
                                tight_assembly_claim, tight_counting_claim, tight_root_claim)

PAPER = "BCMNUW20"
SRC = "000_f1b0431f359f12a2.txt (ICML), 003_95100840c5f51bc1.txt (arXiv)"
DERIV = "bounds.papers.bcmnuw20_explicit (module docstring, step {})"


# --- step 7 and Theorem 13 -----------------------------------------------------------------------------
def whp_claim(completeness, text: str) -> Exhaustive:
    """Theorem 14's completeness against the (alpha, alpha)-accurate release A' = empirical means w.p. 1 - alpha/2,
    the answer 0 w.p. alpha/2 (accurate when 2p e^{-s alpha^2/2} <= alpha/2, Hoeffding and a union bound). On the
    answer 0 the workbench's attacker has v = 0, tau = 0 and traces nobody, so P[#IN >= t/2] <= 1 - alpha/2 (t > 0);
    the claim P[#IN >= t/2] >= completeness(alpha, s) must not exceed that."""

    def cases():
        for a in (0.02, 0.05, 0.1, 0.2, 0.4):
            for p in (10, 100, 1000):
                s = math.ceil(2 * math.log(4 * p / a) / a**2)
                yield Case(f"alpha={a}, p={p}, s={s}", {"alpha": a, "p": p, "s": s}, size=p / a)

    def holds(case):
        a, s = case.data["alpha"], case.data["s"]
        need = completeness(a, s)
        return need <= 1 - a / 2, {"claimed": need, "achievable_at_most": 1 - a / 2}

    return Exhaustive(text, cases, holds)


def thm13_step_claim(slack: float, text: str) -> Exhaustive:
    """Theorem 13 with Theorem 14 in expectation: every integer m < t/2 + slack has E[#IN] - m >= (t+1)/2 - m >= 1/2
    (the private samples carry >= 1/2 of the expected traced count; some i* has >= 1/(2n))."""

    def cases():
        for t in np.linspace(0.05, 40, 160):
            for m in range(0, 45):
                if m < t / 2 + slack:
                    yield Case(f"t={t:.3f}, m={m}", {"t": float(t), "m": m}, size=t + m)

    return Exhaustive(text, cases, lambda c: ((c.data["t"] + 1) / 2 - c.data["m"] >= 0.5 - 1e-12, {}))


# --- Lemma 17 ----------------------------------------------------------------------------------------
def lemma17_claim(factor: float, text: str) -> Exhaustive:
    """The workbench's reduction (algorithms.adversaries.query_to_learner): from a release within a of E_D[g_h] on
    H^+- (adversarial: the best hypothesis understated by a, every other overstated by a), the learner's excess
    error err(h_hat) - min_h err(h) is <= factor * a. Random classes, labelled laws and a."""
    from algorithms.adversaries import query_to_learner as Q
    from algorithms.classes import random_class
    from algorithms.evaluation import true_answers
    from algorithms.privacy import Release

    def cases():
        rng = np.random.default_rng(1700)
        for k in range(150):
            H = random_class(int(rng.integers(2, 12)), int(rng.integers(2, 10)), rng)
            Dx = rng.dirichlet(np.ones(H.num_points))
            eta = rng.uniform(0, 1, H.num_points)
            yield Case(f"class #{k}", {"H": H, "Dz": Q.labelled_distribution(Dx, eta),
                                        "a": float(rng.uniform(0, 0.3))}, size=k)

    def holds(case):
        H, Dz, a = case.data["H"], case.data["Dz"], case.data["a"]
        truth = true_answers(Q.labelled_class(H), Dz)
        best = int(np.argmax(truth))
        released = truth + a
        released[best] = truth[best] - a

        def release(private, public, cls, rng):
            return Release(released, None)

        learner = Q.learner_from_release(release)
        out = learner(np.zeros(1, int), np.ones(1, int), np.zeros(1, int), np.ones(1, int), H,
                      np.random.default_rng(0)).value
        err = Q.population_errors(H, Dz)
        excess = float(err[out.hypothesis] - err.min())
        return excess <= factor * a + 1e-12, {"excess": excess, "a": a}

    return Exhaustive(text, cases, holds)


def from_h_claim(use_labelled: bool, alpha: float, text: str) -> Exhaustive:
    """Lemma 17 from H's answers alone: laws D1 = (D_x, eta) and D2 = (D_x, 1 - eta) give H the same answers
    E_{D_x}[h], so a learner reading them outputs one h for both; the claim is that some h has excess <= alpha on
    both. With H^+-'s (exact) answers the argmax rule has excess 0 on each."""
    from algorithms.adversaries import query_to_learner as Q
    from algorithms.classes import thresholds

    def cases():
        rng = np.random.default_rng(1701)
        for k in range(60):
            H = thresholds(int(rng.integers(2, 10)))
            Dx = rng.dirichlet(np.ones(H.num_points))
            eta = rng.uniform(0, 1, H.num_points)
            yield Case(f"thresholds #{k}", {"H": H, "Dx": Dx, "eta": eta}, size=k)

    def holds(case):
        H, Dx, eta = case.data["H"], case.data["Dx"], case.data["eta"]
        e1 = Q.population_errors(H, Q.labelled_distribution(Dx, eta))
        e2 = Q.population_errors(H, Q.labelled_distribution(Dx, 1 - eta))
        if use_labelled:
            worst = max(e1[int(np.argmin(e1))] - e1.min(), e2[int(np.argmin(e2))] - e2.min())
        else:
            worst = float(np.min(np.maximum(e1 - e1.min(), e2 - e2.min())))
        return worst <= alpha, {"least_worst_excess": float(worst)}

    return Exhaustive(text, cases, holds)


def thm15_claim(excess_factor: float, text: str) -> Exhaustive:
    """Theorem 15 explicit = ABM19 Theorem 4.1 (bounds abm19:thm4.1) at the learner's excess error from Lemma 17
    (bounds lemma17 learner_excess_error), for alpha <= 1/100 (all from bounds)."""

    def cases():
        for a in np.geomspace(1e-6, 1e-2, 60):
            yield Case(f"alpha={a:.3g}", {"alpha": float(a)}, size=1 / a)

    def holds(case):
        a = case.data["alpha"]
        m15 = float(bounds_value("bcmnuw20:thm15", "public_samples", alpha=a))
        excess = float(bounds_value("bcmnuw20:lemma17", "learner_excess_error", alpha=a, beta=0.01,
                                    private_samples=10, public_samples=1)) * excess_factor
        m41 = float(bounds_value("abm19:thm4.1", "public_samples", alpha=min(excess, 0.01)))
        return m15 == m41, {"thm15": m15, "abm19_thm4.1": m41}

    return Exhaustive(text, cases, holds)


def labelled_ld_claim(extra: int, text: str) -> Exhaustive:
    """Littlestone dimension of H^+- >= that of H (+ extra): the columns (x, +1) of H^+- are H itself. Thresholds
    on N <= 12 points, exactly (so infinite Littlestone dimension passes from thresholds over R to H^+-)."""
    from algorithms.adversaries.query_to_learner import labelled_class
    from algorithms.classes import littlestone_dimension, thresholds

    def cases():
        for N in range(1, 13):
            yield Case(f"thresholds on {N} points", {"N": N}, size=N)

    def holds(case):
        H = thresholds(case.data["N"])
        a, b = littlestone_dimension(H).value, littlestone_dimension(labelled_class(H)).value
        return b >= a + extra, {"LD(H)": a, "LD(H+-)": b}

    return Exhaustive(text, cases, holds)


register(
    Check(
        id="bcmnuw20:thm14.soundness", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, step 1: a fresh sample's score <y - z, q> exceeds tau = 2 ||q|| sqrt(ln 1/f) "
               "w.p. <= f (sub-Gaussian terms (y_j - z_j) q_j of proxy 2 q_j^2); exact at equal weights, mu = 0"),
        source=DERIV.format(1), method="exhaustive",
        stated=soundness_claim(2.0, "tau = 2 ||q|| sqrt(L)"),
        perturbed={"tau halved": soundness_claim(1.0, "tau = ||q|| sqrt(L)")},
        formula_from="bounds:thm14",
    ),
    Check(
        id="bcmnuw20:thm14.soundness-attacker", paper=PAPER, result="thm14",
        claim="Theorem 14 explicit, step 1, on the workbench's Attacker: P[fresh sample IN] <= f at its analytic "
              "threshold",
        source=DERIV.format(1) + "; algorithms.adversaries.tracing.Attacker.analytic_threshold", method="monte carlo",
        stated=attacker_soundness_claim(1.0, "the analytic threshold"),
        perturbed={"threshold halved": attacker_soundness_claim(0.5, "half the analytic threshold")},
    ),
    Check(
        id="bcmnuw20:thm14.accuracy-slack", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, step 2: |E[q_j 1{||q|| <= nu} | mu] - mu_j| <= alpha (1 - b) + (1 + gamma) b <= "
               "alpha (2 + gamma - alpha) for every failure probability b <= alpha"),
        source=DERIV.format(2), method="numeric grid + hypothesis", formula_from="bounds:thm14",
        stated=Inequality("alpha(1-b) + (1+gamma) b <= alpha (2 + gamma - alpha)", slack_lhs,
                          lambda o, alpha, gamma, u: L.thm14_accuracy_slack(o, alpha, gamma), SLACK_DOMAIN,
                          tight=True),  # equality at b = alpha (u = 1)
        perturbed={"alpha (1 + gamma)": Inequality("... <= alpha (1 + gamma)", slack_lhs,
                                                   lambda o, alpha, gamma, u: alpha * (1 + gamma), SLACK_DOMAIN)},
    ),
    Check(
        id="bcmnuw20:thm14.score-identity", paper=PAPER, result="thm14",
        claim="Theorem 14 explicit, step 3: E[f(x) sum_i (x_i - mu) | mu] = (1 - mu^2) d/dmu E[f(x) | mu] for every f",
        source=DERIV.format(3) + " (the fingerprinting identity of Dwork et al. 2015 / Steinke-Ullman)",
        method="exhaustive",
        stated=score_identity_claim(lambda m: 1 - m**2, "weight 1 - mu^2"),
        perturbed={"weight 1 - mu": score_identity_claim(lambda m: 1 - m, "weight 1 - mu")},
    ),
    Check(
        id="bcmnuw20:thm14.by-parts", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, step 3: (1/2 gamma) int (1 - mu^2) g' = (1 - gamma^2)(g(gamma) - g(-gamma))/"
               "(2 gamma) + (1/gamma) int mu g over [-gamma, gamma] (integration by parts)"),
        source=DERIV.format(3), method="symbolic",
        stated=Identity("integration by parts", by_parts_lhs, by_parts_rhs(2), CUBIC),
        perturbed={"factor 1": Identity("... + (1/(2 gamma)) int mu g", by_parts_lhs, by_parts_rhs(1), CUBIC)},
    ),
    Check(
        id="bcmnuw20:thm14.signal-floor", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, step 3: for |g(mu) - mu| <= a the average of (1 - mu^2) g' over U[-gamma, gamma] "
               "is >= F(a, gamma) = (1 - gamma^2)(1 - a/gamma) + 2 gamma^2/3 - a gamma (tested on g = mu - a theta "
               "tanh(k mu), which approaches the bound as k -> inf)"),
        source=DERIV.format(3), method="numeric grid + hypothesis", formula_from="bounds:thm14",
        stated=Inequality("avg (1 - mu^2) g' >= F(a, gamma)", fingerprint_signal, signal_floor_rhs(0.0),
                          FLOOR_DOMAIN, rel=">="),
        perturbed={"F + 0.02": Inequality("avg >= F + 0.02", fingerprint_signal, signal_floor_rhs(0.02),
                                          FLOOR_DOMAIN, rel=">=")},
    ),
    Check(
        id="bcmnuw20:thm14.counting", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, step 4: sum of the s scores <= ||q|| (2 s sqrt(ln 1/f) + sqrt(N)(||W|| + sqrt(s) "
               "|<z - mu, q/||q||>|)), N the number traced IN (deterministic; on drawn instances)"),
        source=DERIV.format(4), method="exhaustive",
        stated=counting_claim(True, "with the members' Cauchy-Schwarz term"),
        perturbed={"members dropped": counting_claim(False, "members bounded by N zeta ||q|| only")},
    ),
    Check(
        id="bcmnuw20:thm14.opnorm", paper=PAPER, result="thm14",
        claim="Theorem 14 explicit, step 5: ||X - 1 mu^T||_op < b (matrix Bernstein, Tropp 2012 Thm 1.6) except w.p. "
              "delta",
        source=DERIV.format(5) + "; Tropp, User-friendly tail bounds for sums of random matrices (2012), Thm 1.6",
        method="monte carlo", formula_from="bounds:thm14",
        stated=opnorm_claim(_bernstein, "b from matrix Bernstein"),
        perturbed={"no log factor": opnorm_claim(lambda s, p, g, d: math.sqrt(max(s, p)), "b = sqrt(max(s, p))")},
    ),
    Check(
        id="bcmnuw20:thm14.reference", paper=PAPER, result="thm14",
        claim="Theorem 14 explicit, step 5: |<z - mu, u>| <= zeta = sqrt(2 ln(2/delta)) except w.p. delta (Hoeffding)",
        source=DERIV.format(5), method="monte carlo", formula_from="bounds:thm14",
        stated=reference_claim(lambda d: float(L.thm14_reference(NUMPY, d)), "zeta = sqrt(2 ln(2/delta))"),
        perturbed={"zeta / 3": reference_claim(lambda d: float(L.thm14_reference(NUMPY, d)) / 3, "zeta/3")},
    ),
    Check(
        id="bcmnuw20:thm14.assembly", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, steps 6-7 at bounds' values: S = r + t is the largest total within the threshold "
               "budget; the expected traced count is >= K for every s <= S; t = 2K - 1, r = S - t, f = 1/S^2"),
        source=DERIV.format("6-7"), method="exhaustive", formula_from="bounds:thm14",
        stated=assembly_claim(1.0, "E[#IN] >= K"),
        perturbed={"2K": assembly_claim(2.0, "E[#IN] >= 2K")},
    ),
    Check(
        id="bcmnuw20:thm14.tight-row-norm", paper=PAPER, result="thm14",
        claim=("Theorem 14 tightened, step 5': max_i ||x_i - mu||^2 <= B_w = p + 2 ln(s/delta) except w.p. delta "
               "(Hoeffding on -2 sum_j mu_j w_ij with proxy sum_j mu_j^2, then AM-GM); at the bias where AM-GM is "
               "tight"),
        source=DERIV.format("5'"), method="monte carlo", formula_from="bounds:thm14",
        stated=row_norm_claim(lambda mu, s, d: float(L.thm14_tight_row_norm(NUMPY, mu.size, s, d)),
                              "p + 2 ln(s/delta)"),
        perturbed={"no deviation term": row_norm_claim(lambda mu, s, d: float(np.sum(1 - mu**2)),
                                                       "sum_j (1 - mu_j^2)")},
    ),
    Check(
        id="bcmnuw20:thm14.tight-cross", paper=PAPER, result="thm14",
        claim=("Theorem 14 tightened, step 5': max_{i != k} <x_i - mu, x_k - mu> <= c = sqrt(2 B_w ln(s^2/delta)) "
               "except w.p. 2 delta (Hoeffding given x_k, proxy ||x_k - mu||^2 <= B_w)"),
        source=DERIV.format("5'"), method="monte carlo", formula_from="bounds:thm14",
        stated=cross_claim(1.0, "c"), perturbed={"c / 3": cross_claim(1 / 3, "c/3")},
    ),
    Check(
        id="bcmnuw20:thm14.tight-reference", paper=PAPER, result="thm14",
        claim="Theorem 14 tightened, step 5': -<z - mu, u> <= sqrt(2 ln(1/delta)) except w.p. delta (one-sided "
              "Hoeffding)",
        source=DERIV.format("5'"), method="monte carlo", formula_from="bounds:thm14",
        stated=reference_claim(lambda d: float(L.thm14_tight_reference(NUMPY, d)), "sqrt(2 ln(1/delta))",
                               one_sided=True),
        perturbed={"zeta / 3": reference_claim(lambda d: float(L.thm14_tight_reference(NUMPY, d)) / 3, "zeta/3",
                                               one_sided=True)},
    ),
    Check(
        id="bcmnuw20:thm14.tight-counting", paper=PAPER, result="thm14",
        claim=("Theorem 14 tightened, step 4': sum of the s scores <= ||q|| (2 s sqrt(ln 1/f) + sqrt(N max ||w_i||^2 + "
               "N^2 max_{i != k} <w_i, w_k>) + N max(0, -<z - mu, q/||q||>)) (deterministic; on drawn instances)"),
        source=DERIV.format("4'"), method="exhaustive",
        stated=tight_counting_claim(True, "with the pairs' term"),
        perturbed={"pairs dropped": tight_counting_claim(False, "without the N^2 c term")},
    ),
    Check(
        id="bcmnuw20:thm14.tight-root", paper=PAPER, result="thm14",
        claim=("Theorem 14 tightened, step 6': h(N) = sqrt(N B_w + N^2 c) + N zeta is increasing and concave (Jensen: "
               "E h(N) <= h(E N)) and bounds' closed-form N* solves h(N*) = M"),
        source=DERIV.format("6'"), method="exhaustive", formula_from="bounds:thm14",
        stated=tight_root_claim(L.thm14_tight_traced, "bounds' root"),
        perturbed={"c + zeta^2": tight_root_claim(_wrong_root, "root with c + zeta^2")},
    ),
    Check(
        id="bcmnuw20:thm14.tight-assembly", paper=PAPER, result="thm14",
        claim=("Theorem 14 tightened, steps 6'-7 at bounds' values: S' = r' + t' is the largest total with t' >= 1; "
               "E[#IN] >= K' for every s <= S'; t' = 2K' - 1, r' = S' - t'"),
        source=DERIV.format("6'-7"), method="exhaustive", formula_from="bounds:thm14",
        stated=tight_assembly_claim(1.0, "E[#IN] >= K'"),
        perturbed={"2K'": tight_assembly_claim(2.0, "E[#IN] >= 2K'")},
    ),
    Check(
        id="bcmnuw20:thm14.whp", paper=PAPER, result="thm14",
        claim=("Theorem 14 as printed: P[#IN >= t/2] >= 1 - 1/(r+t)^2 for every (alpha, alpha)-accurate release; a "
               "release that answers 0 w.p. alpha/2 is accurate and leaves P[#IN >= t/2] <= 1 - alpha/2"),
        source=f"{SRC}; Theorem 14 (both versions)", method="exhaustive",
        stated=whp_claim(lambda a, s: 1 - 1 / s**2, "printed: 1 - 1/(r+t)^2 at r + t = s"),
        expect=FAILS,
        corrected=whp_claim(lambda a, s: 1 - a - 1 / s**2, "with the release's failure alpha subtracted"),
        perturbed={"1 - alpha/4": whp_claim(lambda a, s: 1 - a / 4, "1 - alpha/4")},
        errata=("bcmnuw20-thm14-whp",),
    ),
    Check(
        id="bcmnuw20:thm13.expectation-step", paper=PAPER, result="thm13",
        claim=("Theorem 13 with Theorem 14 in expectation (E[#IN] >= (t+1)/2): for m < t/2 the private samples carry "
               "sum_i P[T(q, x_i) = IN] >= E[#IN] - m >= 1/2 (what the corrected Markov step delivers)"),
        source=f"{SRC}; Theorem 13 proof; " + DERIV.format(7), method="exhaustive",
        stated=thm13_step_claim(0.0, "m < t/2"),
        perturbed={"m < t/2 + 1": thm13_step_claim(1.0, "m < t/2 + 1")},
        errata=("bcmnuw20-thm14-whp", "bcmnuw20-thm13-m-1"),
    ),
    Check(
        id="bcmnuw20:lemma17.excess", paper=PAPER, result="lemma17",
        claim=("Lemma 17 explicit (the workbench's reduction): a release within a of E_D[g_h] on H^+- gives a learner "
               "with excess error <= a (same n, m, beta, eps, delta)"),
        source=f"{SRC}; Lemma 17; algorithms.adversaries.query_to_learner", method="exhaustive",
        stated=lemma17_claim(1.0, "excess <= a"),
        perturbed={"a/2": lemma17_claim(0.5, "excess <= a/2")},
        errata=("bcmnuw20-lemma17-labelled",),
    ),
    Check(
        id="bcmnuw20:lemma17.from-h", paper=PAPER, result="lemma17",
        claim=("Lemma 17 as printed: a release for H (answers E_{D_x}[h]) yields an excess-alpha learner; two laws "
               "with "
               "one marginal and flipped labels get the same answers but need different hypotheses"),
        source=f"{SRC}; Lemma 17 and the paragraph after it", method="exhaustive",
        stated=from_h_claim(False, 0.05, "from H's answers: excess <= 0.05 on both laws"),
        expect=FAILS,
        corrected=from_h_claim(True, 0.0, "from H^+-'s answers: excess 0 on each law"),
        perturbed={"H^+- at excess -0.01": from_h_claim(True, -0.01, "excess <= -0.01")},
        errata=("bcmnuw20-lemma17-labelled",),
    ),
    Check(
        id="bcmnuw20:lemma17.error-scale", paper=PAPER, result="lemma17",
        claim="Lemma 17 explicit: err_D(h) = (1 - E_D[h(x) y])/2 (so release error a on [-1, 1] is excess a)",
        source=f"{SRC}; Lemma 17, Definitions 8 and 16", method="symbolic",
        stated=Identity("(1 - (1 - 2 err))/2 = err", lambda o, err: (1 - ((1 - err) - err)) / 2,
                        lambda o, err: err, (Var("err", 0.0, 1.0, log=False),)),
        perturbed={"no halving": Identity("1 - E[h y] = err", lambda o, err: 1 - ((1 - err) - err),
                                          lambda o, err: err, (Var("err", 0.0, 1.0, log=False),))},
    ),
    Check(
        id="bcmnuw20:thm15.composition", paper=PAPER, result="thm15",
        claim=("Theorem 15 explicit: m > 1/(1600 alpha) is ABM19 Theorem 4.1 at the learner's excess error alpha from "
               "Lemma 17 (alpha <= 1/100)"),
        source=f"{SRC}; Theorem 15 proof, Lemma 18 (= ABM19 Thm 4.1)", method="exhaustive",
        formula_from="bounds:thm15, bounds:lemma17, bounds:abm19:thm4.1",
        stated=thm15_claim(1.0, "excess alpha"),
        perturbed={"excess 2 alpha": thm15_claim(2.0, "excess 2 alpha (a [0, 1]-scale slip)")},
        errata=("bcmnuw20-thm15-regime",),
    ),
    Check(
        id="bcmnuw20:thm15.parameters", paper=PAPER, result="thm15",
        claim=("Theorem 15 for every (beta, eps, delta): ABM19 Theorem 4.1 is proven at eps = 0.1, delta = 1/(100 n^2 "
               "log n), confidence 1/22 (corrected) and alpha <= 1/100 only"),
        source=f"{SRC}; Theorem 15, Lemma 18", method="none",
        stated=("a lower bound over all learners at other privacy and confidence parameters: no finite procedure "
                "decides it, and the cited proof does not cover it"),
        expect="not machine-checkable",
        errata=("bcmnuw20-thm15-regime",),
    ),
    Check(
        id="bcmnuw20:thm15.labelled-class", paper=PAPER, result="thm15",
        claim=("Theorem 15 explicit: the labelled class H^+- has Littlestone dimension >= that of H, so releases of "
               "H^+- for thresholds fall under the lower bound (exact on thresholds over <= 12 points)"),
        source=f"{SRC}; Theorem 15 proof", method="exhaustive",
        stated=labelled_ld_claim(0, "LD(H+-) >= LD(H)"),
        perturbed={"+1": labelled_ld_claim(1, "LD(H+-) >= LD(H) + 1")},
        errata=("bcmnuw20-lemma17-labelled",),
    ),
)
