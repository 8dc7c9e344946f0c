"""LVSUW21: Liu, Vietri, Steinke, Ullman, Wu. Leveraging Public Data for Practical Private Query
Release. ICML 2021 (seed 002). Results in paper order: Lemma 4.2, Proposition 4.3, Theorem 4.4,
Theorem 4.5.

Notation: n private records, m public records, num_queries = |Q|, D2 = D_2(mu || nu) and
Dinf = D_inf(mu || nu) in nats, eps_tilde = PMW^Pub's privacy parameter (it is (eps~^2/2)-zCDP),
T iterations, f = the best mixture error f_{D~,Q}(X^) of Definition 4.1; natural logarithms.
"""
from __future__ import annotations

import math

from ..core import Infimum, Quantity, Relation, Result
from ..params import POS_INT, POSITIVE, Interval, Param, add_param
from ..references import source
from ..registry import register
from .lvsuw21_thm44 import extend

PAPER = "LVSUW21"
SOURCE = source("LVSUW21")  # key, title and venue (bounds.references), never the text's file name

add_param(Param("eps_tilde", "eps_tilde", r"\tilde\varepsilon", POSITIVE,
                "PMW^Pub privacy parameter eps~ (LVSUW21): the run is (eps~^2/2)-zCDP"))
add_param(Param("iterations", "T", "T", POS_INT, "number of iterations T (PMW^Pub, MWEM)"))
add_param(Param("best_mixture_error", "f", r"f_{\tilde D,Q}(\hat{\mathcal X})",
                Interval(0.0, 1.0, False, False),
                "best mixture error of the public support (LVSUW21 Definition 4.1), in [0, 1]"))

#: the delta of an (eps, delta) conversion must be in (0, 1): log(1/delta) > 0
DELTA_OPEN = Interval(0.0, 1.0, True, True)


# --- Lemma 4.2 ------------------------------------------------------------------------------
def lemma4_2_sensitivity(o, n):
    """LVSUW21 Lemma 4.2: f_{D,Q}(S) is 1/n-sensitive (queries in [0,1], n records)."""
    return 1 / n


def lemma4_2_laplace_scale(o, eps, sens):
    """LVSUW21 Lemma 4.2 / Sec. 5.5.1: Laplace mechanism scale b = sensitivity/eps."""
    return sens / eps


def lemma4_2_laplace_std(o, b):
    """LVSUW21 Sec. 5.5.1: the Laplace noise's standard deviation sqrt(2) b = sqrt(2)/(n eps)."""
    return o.sqrt(2) * b


def lemma4_2_release_error(o, beta, b):
    """LVSUW21 Lemma 4.2: |released - f| <= b log(1/beta) w.p. >= 1 - beta (Laplace tail e^{-t})."""
    return b * o.log(1 / beta)


# --- Proposition 4.3 ------------------------------------------------------------------------
#: Renyi divergences are non-decreasing in the order: D_2(mu || nu) <= D_inf(mu || nu) for every pair
RENYI_ORDER = Relation("D_2 <= D_inf (Renyi divergence is non-decreasing in its order)",
                       lambda o, D2, Dinf: D2 <= Dinf)


def prop4_3_n(o, alpha, beta, num_queries):
    """LVSUW21 Proposition 4.3: n >= (8/alpha^2) log(4|Q|/beta)."""
    return 8 / alpha**2 * o.log(4 * num_queries / beta)


def prop4_3_m(o, alpha, beta, num_queries, D2, Dinf):
    """LVSUW21 Proposition 4.3: m >= (32 e^{D2}/alpha^2 + 8 e^{Dinf}/(3 alpha)) log((4|Q|+4)/beta)."""
    return ((32 * o.exp(D2) / alpha**2 + 8 * o.exp(Dinf) / (3 * alpha))
            * o.log((4 * num_queries + 4) / beta))


PROP4_3_N_DERIVATION = (
    "Proof of Prop 4.3: Hoeffding, P[|q(D~) - q(mu)| >= alpha/4] <= 2 exp(-2 n (alpha/4)^2) = "
    "2 e^{-alpha^2 n/8}; over |Q| queries 2|Q| e^{-alpha^2 n/8} <= beta/2 iff n >= "
    "(8/alpha^2) log(4|Q|/beta).")
PROP4_3_M_DERIVATION = (
    "Proof of Prop 4.3: with g = mu/nu in [0, e^{Dinf}], E_nu[g q] = q(mu), Var <= E_nu[g^2] = "
    "e^{D2}. Bernstein, P[|sum - mean| >= t] <= 2 exp(-(t^2/2)/(m sigma^2 + M t/3)) at "
    "t = alpha m/4, M = e^{Dinf}: 2 exp(-alpha^2 m/(32 e^{D2} + (8/3) alpha e^{Dinf})); the same "
    "for m^ = sum g (variance e^{D2} - 1). On the complement, |q(D~) - sum omega q| <= alpha/4 + "
    "(alpha/2)/(1 - alpha/4) <= alpha for alpha <= 4/3. Union bound: (2|Q| + 2) "
    "exp(-alpha^2 m/(32 e^{D2} + (8/3) alpha e^{Dinf})) <= beta/2 iff m >= (32 e^{D2}/alpha^2 + "
    "8 e^{Dinf}/(3 alpha)) log((4|Q| + 4)/beta).")


# --- Theorem 4.4 ----------------------------------------------------------------------------
def thm4_4_T_asymptotic(o, n, m, num_queries, beta, eps_tilde, C_T):
    """LVSUW21 Theorem 4.4: T = Theta(n eps~ sqrt(log m)/log|Q| + log(1/beta))."""
    return C_T * (n * eps_tilde * o.sqrt(o.log(m)) / o.log(num_queries) + o.log(1 / beta))


def thm4_4_error_asymptotic(o, n, m, num_queries, beta, eps_tilde, f, C_4_4):
    """LVSUW21 Theorem 4.4: max_q |q(A) - q(D~)| = O(sqrt(log|Q| (sqrt(log m) + log(1/beta))/(n eps~)) + f)."""
    return C_4_4 * (o.sqrt(o.log(num_queries) * (o.sqrt(o.log(m)) + o.log(1 / beta))
                           / (n * eps_tilde)) + f)


# --- Theorem 4.5 ----------------------------------------------------------------------------
def thm4_5_eps0(o, eps_tilde, T):
    """LVSUW21 Algorithm 1: eps_0 = eps~/sqrt(2T), the per-round parameter."""
    return eps_tilde / o.sqrt(2 * T)


def thm4_5_rho_round(o, eps_0):
    """LVSUW21 Sec. 4.1 (i), (ii): eps_0-DP permute-and-flip and the Gaussian N(0, 1/(n eps_0)^2)
    on a 1/n-sensitive query are each (eps_0^2/2)-zCDP."""
    return eps_0**2 / 2


def thm4_5_rho(o, T, rho_0):
    """LVSUW21 Theorem 4.5: zCDP composition of the 2T mechanisms: rho = 2T rho_0 = eps~^2/2."""
    return 2 * T * rho_0


def thm4_5_objective(o, x, rho, delta):
    """LVSUW21 Theorem 4.5 (CKS20): eps at Renyi order a = 1 + x:
    a rho + log(1/(a delta))/(a - 1) + log(1 - 1/a)."""
    a = 1 + x
    return a * rho + o.log(1 / (a * delta)) / x + o.log(x / a)


def thm4_5_bracket_low(o, rho, delta):
    """LVSUW21 Theorem 4.5: a - 1 below the minimiser: min(sqrt(L/(2 rho)), L/2), L = log(1/delta)."""
    L = o.log(1 / delta)
    return o.min(o.sqrt(L / (2 * rho)), L / 2)


def thm4_5_bracket_high(o, rho, delta):
    """LVSUW21 Theorem 4.5: a - 1 above the minimiser: min(sqrt(L/rho), 1/delta - 1)."""
    L = o.log(1 / delta)
    return o.min(o.sqrt(L / rho), 1 / delta - 1)


def thm4_5_eps_closed(o, rho, delta):
    """LVSUW21 Theorem 4.5: eps <= rho + 2 sqrt(rho log(1/delta)) = eps~^2/2 + sqrt(2 log(1/delta)) eps~."""
    return rho + 2 * o.sqrt(rho * o.log(1 / delta))


THM4_5_INF_DERIVATION = (
    "CKS20 (Canonne-Kamath-Steinke) conversion of rho-zCDP, i.e. Renyi DP of every order a > 1 "
    "at a rho: eps(delta) = inf_{a > 1} a rho + log(1/(a delta))/(a - 1) + log(1 - 1/a) (the "
    "paper's log(1/a delta) is log(1/(a delta))). With x = a - 1 the derivative is f'(a) = rho - "
    "log(1/(a delta))/(a - 1)^2: increasing on (1, 1/delta) and > 0 beyond, so f is unimodal "
    "with its minimiser where rho (a-1)^2 = log(1/(a delta)). f' >= 0 at a - 1 = min(sqrt(L/rho), "
    "1/delta - 1) and f' <= 0 at a - 1 = min(sqrt(L/(2 rho)), L/2) (L = log(1/delta)), so the "
    "infimum is a minimum inside that bracket; golden-section search in log(a - 1) finds it. "
    "The value is f at the numerical minimiser, so it is never below the true infimum by more "
    "than rounding.")


register(*extend(  # lvsuw21_thm44 adds the explicit form of Theorem 4.4
    Result(
        id="lvsuw21:lemma4.2",
        index_items=("L13",),
        errata=('lvsuw21-lemma4.2-checked',),
        paper=PAPER,
        label="Lemma 4.2",
        kind="lemma",
        statement=("For any support S and query set Q (queries into [0,1]), the best mixture "
                   "error f_{D,Q}(S) = min_{mu in Delta(S)} max_{q in Q} |q(D) - sum_x mu_x q(x)| "
                   "is 1/n-sensitive, so it can be released with the Laplace (or Gaussian) "
                   "mechanism scaled by 1/n: eps-DP with Laplace noise of scale 1/(n eps)."),
        source=f"{SOURCE}; Section 4, Definition 4.1, Lemma 4.2; Section 5.5.1 (release example)",
        params=("private_samples", "epsilon", "beta"),
        quantities=(
            Quantity(name="sensitivity", symbol="sens", order="exact",
                     explicit=lemma4_2_sensitivity,
                     description="l1-sensitivity of f_{D,Q}(S) in the private dataset",
                     derivation=("Each q(D) moves by <= 1/n between neighbours (one record "
                                 "replaced, q in [0,1]); so does every |q(D) - mu(q)|, their max "
                                 "over q and its min over mu."),
                     monotone={"n": -1}),
            Quantity(name="laplace_scale", symbol="b", order="exact",
                     explicit=lemma4_2_laplace_scale,
                     description="Laplace scale for an eps-DP release of f",
                     derivation="Laplace mechanism: b = sensitivity/eps = 1/(n eps).",
                     monotone={"n": -1, "eps": -1}),
            Quantity(name="laplace_std", symbol="sd", order="exact",
                     explicit=lemma4_2_laplace_std,
                     description="standard deviation of that noise, sqrt(2)/(n eps)",
                     derivation=("Var Lap(b) = 2 b^2 (Sec. 5.5.1: n ~ 1e5, eps = 0.01 gives "
                                 "1.414e-3)."),
                     monotone={"n": -1, "eps": -1}),
            Quantity(name="release_error", symbol="err", order="exact",
                     explicit=lemma4_2_release_error,
                     description="|released f - f| bound holding w.p. >= 1 - beta",
                     derivation="P[|Lap(b)| > b t] = e^{-t}; t = log(1/beta).",
                     monotone={"n": -1, "eps": -1, "beta": -1}),
        ),
        notes=("Checked: the paper states Lemma 4.2 without proof; the one-line argument in the "
               "sensitivity derivation proves it for the replace-one neighbouring relation with "
               "both datasets of size n, as the lemma says.",),
    ),
    Result(
        id="lvsuw21:prop4.3",
        index_items=("L14",),
        errata=('lvsuw21-prop4.3-checked', 'lvsuw21-prop4.3-omega'),
        paper=PAPER,
        label="Proposition 4.3",
        kind="proposition",
        statement=("Let D~ ~ mu^n (private) and D^ ~ nu^m (public) with D_inf(mu || nu) < inf, Q a "
                   "finite set of statistical queries into [0,1], alpha, beta > 0. If "
                   "n >= (8/alpha^2) log(4|Q|/beta) and m >= (32 e^{D2}/alpha^2 + "
                   "8 e^{Dinf}/(3 alpha)) log((4|Q|+4)/beta), then the best mixture error of the "
                   "public support satisfies f_{D~,Q}(X^) <= alpha with probability >= 1 - beta."),
        source=f"{SOURCE}; Section 4, Proposition 4.3 and its proof",
        params=("alpha", "beta", "num_queries", "renyi_2", "renyi_inf"),
        relations=(RENYI_ORDER,),
        quantities=(
            Quantity(name="private_samples", symbol="n_min", order="exact",
                     explicit=prop4_3_n, integer=True,
                     description="private records for the Hoeffding step",
                     derivation=PROP4_3_N_DERIVATION,
                     monotone={"alpha": -1, "beta": -1, "num_queries": +1}),
            Quantity(name="public_samples", symbol="m_min", order="exact",
                     explicit=prop4_3_m, integer=True,
                     description="public records so that the support's best mixture error <= alpha",
                     derivation=PROP4_3_M_DERIVATION,
                     monotone={"alpha": -1, "beta": -1, "num_queries": +1, "D2": +1,
                               "Dinf": +1}),
        ),
        notes=(
            "Checked: Hoeffding's exponent alpha^2 n/8, Bernstein's denominator 32 e^{D2} + "
            "(8/3) alpha e^{Dinf} (t = alpha m/4, variance <= e^{D2}, range e^{Dinf}), the final "
            "ratio alpha/4 + (alpha/2)/(1 - alpha/4) <= alpha (true for alpha <= 4/3) and the "
            "union bound 2|Q| + (2|Q| + 2) all hold; the printed n and m are right.",
            "Typos in the proof (no effect on the bound): the final display sums omega_x q(x) over "
            "x in D~ where D^ (the public sample) is meant; and omega_x = g(x)/sum_{x in D^} g(x) "
            "for x in X^ must carry x's multiplicity in D^ to be a distribution when D^ has "
            "repeated rows.",
            "D2 <= Dinf is enforced (Renyi divergences are non-decreasing in the order, so inputs "
            "with D2 > Dinf describe no pair mu, nu).",
        ),
    ),
    Result(
        id="lvsuw21:thm4.4",
        index_items=("L15",),
        errata=('lvsuw21-thm4.4-checked',),
        paper=PAPER,
        label="Theorem 4.4",
        kind="upper bound",
        statement=("For any private dataset D~ in X^n, statistical queries Q, public dataset D^ in "
                   "X^m with support X^, and eps~ > 0, PMW^Pub with T = Theta(n eps~ sqrt(log m)/"
                   "log|Q| + log(1/beta)) outputs a distribution A on X^ with, w.p. >= 1 - beta, "
                   "max_q |q(A) - q(D~)| <= O(sqrt(log|Q| (sqrt(log m) + log(1/beta))/(n eps~)) "
                   "+ f_{D~,Q}(X^))."),
        source=f"{SOURCE}; Section 4, Theorem 4.4 (no proof in the paper's text)",
        params=("private_samples", "public_samples", "num_queries", "beta", "eps_tilde",
                "best_mixture_error"),
        domain={"num_queries": Interval(2, math.inf, False, True, integer=True)},
        constants={"C_T": "the constant in Theorem 4.4's Theta for T",
                   "C_4_4": "the constant in Theorem 4.4's O for the error"},
        quantities=(
            Quantity(name="iterations", symbol="T_star", order="Theta", constants=("C_T",),
                     asymptotic=thm4_4_T_asymptotic,
                     description="the number of iterations the theorem prescribes",
                     monotone={"n": +1, "m": +1, "num_queries": -1, "beta": -1,
                               "eps_tilde": +1}),
            Quantity(name="error", symbol="err", order="O", constants=("C_4_4",),
                     asymptotic=thm4_4_error_asymptotic,
                     description="max error over Q of PMW^Pub's output",
                     monotone={"n": -1, "m": +1, "num_queries": +1, "beta": -1,
                               "eps_tilde": -1, "f": +1}),
        ),
        notes=(
            "No explicit form: the paper pins no constant down and prints no proof. Checked for "
            "consistency with the MWEM analysis (Hardt-Ligett-McSherry 2012) on the domain X^ "
            "(log|X^| <= log m) under zCDP with eps_0 = eps~/sqrt(2T): the MW regret "
            "sqrt(log m/T) balanced against the selection/measurement error "
            "sqrt(T) log|Q|/(n eps~) gives T ~ n eps~ sqrt(log m)/log|Q| and error "
            "~ sqrt(log|Q| sqrt(log m)/(n eps~)), as printed; the coefficient of f hidden in the O "
            "may exceed 1.",
        ),
    ),
    Result(
        id="lvsuw21:thm4.5",
        index_items=("L16",),
        errata=('lvsuw21-thm4.5-checked',),
        paper=PAPER,
        label="Theorem 4.5",
        kind="theorem",
        statement=("PMW^Pub run with privacy parameter eps~ > 0 (T rounds, each an eps_0-DP "
                   "permute-and-flip or exponential-mechanism selection and a Gaussian "
                   "measurement, eps_0 = eps~/sqrt(2T)) is (eps~^2/2)-zCDP and, for every "
                   "delta > 0, (eps(delta), delta)-DP with eps(delta) = inf_{a > 1} "
                   "eps~^2 a/2 + log(1/(a delta))/(a - 1) + log(1 - 1/a) <= eps~^2/2 + "
                   "sqrt(2 log(1/delta)) eps~."),
        source=f"{SOURCE}; Section 4.1, Theorem 4.5; Algorithm 1",
        params=("eps_tilde", "delta", "iterations"),
        domain={"delta": DELTA_OPEN},
        quantities=(
            Quantity(name="eps_round", symbol="eps_0", order="exact", explicit=thm4_5_eps0,
                     description="per-round privacy parameter eps_0 = eps~/sqrt(2T)",
                     derivation="Algorithm 1's initialisation.",
                     monotone={"eps_tilde": +1, "T": -1}, intermediate=True),
            Quantity(name="rho_round", symbol="rho_0", order="exact",
                     explicit=thm4_5_rho_round,
                     description="zCDP of each of the 2T mechanisms",
                     derivation=("(i) eps_0-DP implies (eps_0^2/2)-zCDP (Bun-Steinke Prop 1.4); "
                                 "(ii) Gaussian N(0, sigma^2) on a 1/n-sensitive query is "
                                 "(1/n)^2/(2 sigma^2)-zCDP, = eps_0^2/2 at sigma = 1/(n eps_0)."),
                     monotone={"eps_tilde": +1, "T": -1}, intermediate=True),
            Quantity(name="rho", symbol="rho", order="exact", explicit=thm4_5_rho,
                     description="zCDP of the whole run (independent of T)",
                     derivation="(iii) composition adds zCDP: 2T (eps_0^2/2) = eps~^2/2.",
                     monotone={"eps_tilde": +1}),
            Quantity(name="epsilon", symbol="eps_delta", order="exact",
                     explicit=Infimum("x", thm4_5_objective,
                                      "eps(delta) = inf_{alpha > 1} (1/2) eps~^2 alpha + "
                                      "log(1/(alpha delta))/(alpha - 1) + log(1 - 1/alpha), "
                                      "x = alpha - 1",
                                      thm4_5_bracket_low, thm4_5_bracket_high),
                     description="epsilon of the (eps, delta)-DP guarantee (the infimum)",
                     derivation=THM4_5_INF_DERIVATION,
                     monotone={"eps_tilde": +1, "delta": -1}),
            Quantity(name="epsilon_closed", symbol="eps_closed", order="exact",
                     explicit=thm4_5_eps_closed,
                     description="the closed upper bound rho + 2 sqrt(rho log(1/delta))",
                     derivation=("Bun-Steinke Prop 1.3 (a = 1 + sqrt(log(1/delta)/rho) in the "
                                 "plain RDP conversion); with rho = eps~^2/2 it is "
                                 "eps~^2/2 + sqrt(2 log(1/delta)) eps~ as printed. It is >= the "
                                 "infimum: the CKS terms -log(a)/(a-1) + log(1 - 1/a) are < 0."),
                     monotone={"eps_tilde": +1, "delta": -1}),
        ),
        notes=(
            "Checked: rho = 2T (eps_0^2/2) = eps~^2/2 for eps_0 = eps~/sqrt(2T); the printed "
            "infimum is CKS20's conversion (solving its delta(eps) for eps gives exactly "
            "a rho + log(1/(a delta))/(a-1) + log(1 - 1/a)); the closed bound equals "
            "rho + 2 sqrt(rho log(1/delta)) at rho = eps~^2/2.",
            "For very small rho the infimum is slightly negative (down to log(1 - delta)); that is "
            "a valid, if vacuous, (eps, delta) pair.",
        ),
    ),
))


def run_time_evaluations(o, n, num_queries, domain_size, T):
    """Algorithm 1's loop counted in query evaluations q(x): n|Q| for q(D~) on the private rows; per round |X^||Q| to
    answer every query on A_{t-1} (the selection's scores) and |X^| to evaluate q_t on the support for the update;
    |X^||Q| for the output's answers. n|Q| + (T + 1)|X^||Q| + T|X^| = O(n|Q| + T|X^||Q|), as printed."""
    return n * num_queries + (T + 1) * domain_size * num_queries + T * domain_size


def _run_time_asymptotic(o, n, num_queries, domain_size, T, C_rt):
    return C_rt * (n * num_queries + T * domain_size * num_queries)


register(Result(
    id="lvsuw21:sec3.2",
    index_items=("L11",),
    paper=PAPER,
    label="Section 3.2: PMW^Pub's run time",
    kind="claim",
    statement=("The approximating distribution A_t is maintained over the public data domain X^ rather than X, "
               "implying that the run time of PMW^Pub is O(n|Q| + T|X^||Q|) (MWEM's O(n|Q| + T|X||Q|) on the whole "
               "domain); --domain-size is the size of the support A_t lives on (|X^| <= m, or |X| for MWEM)."),
    source=f"{SOURCE}; Section 3.2 (and Section 3.1 for MWEM's O(n|Q| + T|X||Q|))",
    params=("private_samples", "num_queries", "domain_size", "iterations"),
    constants={"C_rt": "constant of the printed O"},
    quantities=(
        Quantity(name="query_evaluations", symbol="ops", order="O", constants=("C_rt",),
                 description="query evaluations q(x) of Algorithm 1's loop (an operation count, not a timing)",
                 asymptotic=_run_time_asymptotic, explicit=run_time_evaluations, integer=True,
                 derivation=run_time_evaluations.__doc__,
                 monotone={"n": +1, "num_queries": +1, "domain_size": +1, "T": +1}),
    ),
    notes=("simulations/experiments/pmw_pub_ops.py counts the evaluations Algorithm 1's loop makes in the workbench's "
           "engine (mwem.mw_rounds on the plain MW distribution) and holds them to this form; the incremental engine "
           "PMW^Pub runs by default computes the same distribution with fewer.",),
))
