"""ABM19: Alon, Bassily, Moran. Limits of Private Learning with Access to Public Data. NeurIPS 2019
(seed 001). Results in paper order: Theorem 3.1, Lemma 3.3, Theorem 4.1, Theorem 4.2, Theorem 4.3,
Lemma 4.4 (with Claims 4.5 and 4.6, which prove it).

Notation: d = VC(H), n = n_priv (private samples), m = n_pub (public samples), natural logarithms.
"""
from __future__ import annotations

import math

from ..core import Implicit, Quantity, Result
from ..params import Interval
from ..references import source
from ..registry import register
from .bcmnuw20 import lemma11_public_samples_g, lemma11_public_samples_lower

PAPER = "ABM19"
SOURCE = source("ABM19")  # key, title and venue (bounds.references), never the text's file name

#: Lemma 4.4 holds for 0 < alpha <= 1/100, so do Theorems 4.1 and 4.2, which apply it
ALPHA_LOWER_BOUNDS = Interval(0.0, 0.01, True, False)

#: corrected confidence of the semi-private learner A in Lemma 4.4 (printed: 1/18; see errata)
BETA_A_NUM, BETA_A_DEN = 1, 22
#: corrected floor on B's sample size in Lemma 4.4 (printed: none; see errata)
N_B_FLOOR = 4


# --- Lemma 3.3 (the cover) ------------------------------------------------------------------
# BCMNUW20 Lemma 11 is this lemma; its inequality (1) is written once, in bounds.papers.bcmnuw20:
#   cover_log_tail(o, m, alpha, beta, d) = log(2 (2em/d)^{2d} e^{-alpha m/4} / beta), whose least
#   root in m from cover_lower(o, alpha, d) = 8d/alpha on is the number of public points for an
#   alpha-cover w.p. >= 1 - beta (non-increasing there: d/dm = 2d/m - alpha/4 <= 0; the
#   double-sample condition m >= 8/alpha and Sauer at 2m >= d hold there too).
cover_log_tail = lemma11_public_samples_g
cover_lower = lemma11_public_samples_lower


def lemma3_3_m_asymptotic(o, alpha, beta, d, C_3_3):
    """ABM19 Lemma 3.3: n_pub = O((d log(1/alpha) + log(1/beta))/alpha)."""
    return C_3_3 * (d * o.log(1 / alpha) + o.log(1 / beta)) / alpha


# --- Theorem 3.1 ------------------------------------------------------------------------------
def thm3_1_cover_g(o, m, alpha, beta, d):
    """ABM19 Theorem 3.1: Lemma 3.3 at (alpha/2, beta/2): H~ is an alpha/2-cover w.p. 1 - beta/2."""
    return cover_log_tail(o, m, alpha / 2, beta / 2, d)


def thm3_1_cover_lower(o, alpha, d):
    """ABM19 Theorem 3.1: Lemma 3.3's lower end at alpha/2, i.e. 16d/alpha."""
    return cover_lower(o, alpha / 2, d)


def thm3_1_log_cover_size(o, d, m):
    """ABM19 Theorem 3.1 (proof): log|H~| <= d log(e m/d) by Sauer's lemma (m >= d)."""
    return d * o.log(o.e * m / d)


def thm3_1_n(o, alpha, beta, eps, logH):
    """ABM19 Theorem 3.1: private samples of the exponential-mechanism step over H~ (derived).

    Uniform convergence over the finite, data-independent H~ (Hoeffding + union bound) at
    beta/4 with 2 gamma <= alpha/4, and the exponential mechanism's utility bound at beta/4 with
    gap <= alpha/4 (score -err_hat, sensitivity 1/n).
    """
    return o.max(32 * (logH + o.log(8 / beta)) / alpha**2,
                 8 * (logH + o.log(4 / beta)) / (eps * alpha))


def thm3_1_m_asymptotic(o, alpha, beta, d, C_pub):
    """ABM19 Theorem 3.1: n_pub = O((d log(1/alpha) + log(1/beta))/alpha)."""
    return C_pub * (d * o.log(1 / alpha) + o.log(1 / beta)) / alpha


def thm3_1_n_asymptotic(o, alpha, beta, eps, d, C_priv):
    """ABM19 Theorem 3.1: n_priv = O((d log(1/alpha) + log(1/beta)) max(1/alpha^2, 1/(eps alpha)))."""
    return C_priv * (d * o.log(1 / alpha) + o.log(1 / beta)) * o.max(1 / alpha**2,
                                                                      1 / (eps * alpha))


THM3_1_N_DERIVATION = (
    "A_SSPP (Algorithm 1) runs the exponential mechanism over the cover H~ (built from the public "
    "points only) with score q(S, h) = -err_hat(h; S): changing one private example moves "
    "err_hat by at most 1/n, so the sensitivity is 1/n and Pr[h] ~ exp(-eps n err_hat(h)/2) is "
    "eps-DP. (i) EM utility (McSherry-Talwar; Dwork-Roth Thm 3.11): w.p. >= 1 - e^{-t}, "
    "err_hat(h_priv) <= min_{H~} err_hat + 2 (log|H~| + t)/(eps n); t = log(4/beta) and gap <= "
    "alpha/4 give n >= 8 (log|H~| + log(4/beta))/(eps alpha). (ii) Uniform convergence over the "
    "finite H~, which is independent of S_priv: Hoeffding and a union bound give "
    "|err_hat - err| <= gamma = sqrt(log(8|H~|/beta)/(2n)) for all h in H~ w.p. >= 1 - beta/4; "
    "2 gamma <= alpha/4 gives n >= 32 (log|H~| + log(8/beta))/alpha^2. Then err(h_priv) <= "
    "err(h*_T) + 2 gamma + alpha/4 <= err(h*_T) + alpha/2. (iii) Sauer: log|H~| <= d log(e m/d) "
    "(m >= 16d/alpha >= d; if fewer than d distinct points, |H~| <= 2^d <= (em/d)^d). (iv) With "
    "the cover step (Lemma 3.3 at alpha/2, beta/2: err(h*_T) <= err(h*) + alpha/2) the total "
    "excess error is alpha and the failure probability beta/2 + beta/4 + beta/4 = beta. Hence "
    "n = max(32 (log|H~| + log(8/beta))/alpha^2, 8 (log|H~| + log(4/beta))/(eps alpha)).")


# --- Theorems 4.1 and 4.2 -------------------------------------------------------------------
def thm4_1_m(o, alpha):
    """ABM19 Theorem 4.1 (proof): n_pub > 1/(1600 alpha); the least such integer."""
    return o.floor(1 / (1600 * alpha)) + 1


def thm4_1_m_asymptotic(o, alpha, C_4_1):
    """ABM19 Theorem 4.1: n_pub = Omega(1/alpha)."""
    return C_4_1 / alpha


def thm4_2_m(o, alpha):
    """ABM19 Theorem 4.2 (proof): n_pub > 1/(1600 alpha) as printed; the least such integer."""
    return o.floor(1 / (1600 * alpha)) + 1


def thm4_2_m_asymptotic(o, alpha, C_4_2):
    """ABM19 Theorem 4.2 (case 2): n_pub = Omega(1/alpha)."""
    return C_4_2 / alpha


# --- Theorem 4.3 (ALMM18, Corollary 2) ------------------------------------------------------
def thm4_3_alpha(o):
    """ABM19 Theorem 4.3: the excess error 1/16 no private learner reaches."""
    return o.frac(1, 16)


def thm4_3_beta(o):
    """ABM19 Theorem 4.3: at confidence parameter 1/16."""
    return o.frac(1, 16)


def thm4_3_eps(o):
    """ABM19 Theorem 4.3: with eps = 0.1."""
    return o.frac(1, 10)


def thm4_3_delta(o, n):
    """ABM19 Theorem 4.3: delta(n) = 1/(100 n^2 log n)."""
    return 1 / (100 * n**2 * o.log(n))


# --- Lemma 4.4 (Algorithm 2: B with PrivSamp / PubSamp; Claims 4.5, 4.6) ---------------------
def lemma4_4_p(o, m):
    """ABM19 Algorithm 2 step 2: p = 1/(100 n_pub), the weight of D in D_(p) = p D + (1-p) D_0."""
    return 1 / (100 * m)


def lemma4_4_n_b(o, n, m):
    """ABM19 Lemma 4.4: B's sample size, ceil(n_priv/(10 n_pub)) as printed, floored at 4 (erratum
    abm19-claim4.6-chernoff)."""
    return o.max(o.ceil(n / (10 * m)), N_B_FLOOR)


def lemma4_4_error(o, alpha, m):
    """ABM19 Lemma 4.4 / Claim 4.6: err(B(S~); D) <= alpha/p = 100 n_pub alpha."""
    return 100 * m * alpha


def lemma4_4_tv(o, m, p):
    """ABM19 Claim 4.6: TV(S_pub, S^_pub) <= P[some b_i = 1] = 1 - (1 - p)^{n_pub} <= 1/100."""
    return -o.expm1(m * o.log1p(-p))


def lemma4_4_runout(o, n, p, n_B):
    """ABM19 Claim 4.6: Chernoff bound on P[PrivSamp exhausts S~ before n_priv draws].

    The number of b_i = 1 among n_priv draws is Bin(n_priv, p) with mean mu = p n_priv; the
    loop stops early only if it reaches n_B: P[Bin >= n_B] <= e^{-mu} (e mu/n_B)^{n_B} (n_B > mu).
    """
    mu = p * n
    return o.exp(-mu + n_B * (1 + o.log(mu / n_B)))


def lemma4_4_beta_b(o, tv, P_run):
    """ABM19 Claim 4.6 with the corrected accounting: beta_A + TV + run-out probability."""
    return o.frac(BETA_A_NUM, BETA_A_DEN) + tv + P_run



#: the privacy regime of Theorems 4.1 and 4.2: Definition 2.3's (records abm19-thm4.1-regime, abm19-thm4.2-regime)
THM4_1_REGIME = ("for semi-private learners as Definition 2.3 fixes them: eps = 0.1, delta negligible (the proof needs "
                 "delta <= 1/(100 n_priv^2 log n_priv), Theorem 4.3's), with n_priv >= 4 and confidence 1/22 "
                 "(record abm19-thm4.1-regime)")
THM4_2_REGIME = "for pure semi-private learners at eps = 0.1, as Definition 2.3 fixes it (record abm19-thm4.2-regime)"

# ---------------------------------------------------------------------------------------------
register(
    Result(
        id="abm19:thm3.1",
        index_items=("A8",),
        errata=('abm19-thm3.1-explicit-checked', 'abm19-thm3.1-notation'),
        paper=PAPER,
        label="Theorem 3.1",
        kind="upper bound",
        statement=("For a class H of VC dimension d and any alpha, beta in (0,1), eps > 0, A_SSPP "
                   "(Algorithm 1: the public unlabeled points give a finite cover H~ of H, the "
                   "exponential mechanism over H~ picks h_priv on the private labeled sample) is an "
                   "(alpha, beta, eps)-semi-supervised semi-private agnostic learner with "
                   "n_priv = O((d log(1/alpha) + log(1/beta)) max(1/alpha^2, 1/(eps alpha))) and "
                   "n_pub = O((d log(1/alpha) + log(1/beta))/alpha)."),
        source=f"{SOURCE}; Section 3, Theorem 3.1, Algorithm 1, Lemmas 3.2 and 3.3, proof of Thm 3.1",
        params=("alpha", "beta", "epsilon", "vc"),
        constants={"C_pub": "the constant in Theorem 3.1's O for n_pub",
                   "C_priv": "the constant in Theorem 3.1's O for n_priv"},
        quantities=(
            Quantity(
                name="public_samples", symbol="m",
                description="public unlabeled samples: H~ is an alpha/2-cover w.p. >= 1 - beta/2",
                asymptotic=thm3_1_m_asymptotic, order="O", constants=("C_pub",),
                explicit=Implicit("m", thm3_1_cover_g,
                                  "2 (2 e m/d)^{2d} e^{-(alpha/2) m/4} <= beta/2 (Lemma 3.3 at "
                                  "alpha/2, beta/2)", thm3_1_cover_lower),
                integer=True,
                derivation=("Proof of Thm 3.1: Lemma 3.3 at (alpha/2, beta/2), i.e. the least "
                            "m >= 16d/alpha with log 2 + 2d log(2em/d) - alpha m/8 <= log(beta/2); "
                            "then err(h*_T) <= err(h*) + dis(h~, h*) <= err(h*) + alpha/2."),
                monotone={"alpha": -1, "beta": -1, "d": +1},
                dominates_asymptotic=True,
                scaling=(("d", "inf"),),
            ),
            Quantity(
                name="log_cover_size", symbol="logH",
                description="log|H~|, the log-size of the cover the exponential mechanism runs on",
                explicit=thm3_1_log_cover_size,
                derivation="Sauer's lemma: |H~| = |Pi_H(T~)| <= (e m/d)^d for m >= d.",
                monotone={"alpha": -1, "beta": -1, "d": +1},
                intermediate=True,
            ),
            Quantity(
                name="private_samples", symbol="n",
                description="private labeled samples for excess error <= alpha w.p. >= 1 - beta",
                asymptotic=thm3_1_n_asymptotic, order="O", constants=("C_priv",),
                explicit=thm3_1_n, integer=True,
                derivation=THM3_1_N_DERIVATION,
                monotone={"alpha": -1, "beta": -1, "eps": -1, "d": +1},
                dominates_asymptotic=True,
                scaling=(("d", "inf"), ("eps", "0")),
            ),
        ),
        notes=(
            "The paper gives n_priv only via [KLN+08, Thm 3.4] inside an O; the explicit form here "
            "re-derives that step (exponential mechanism + uniform convergence) with every "
            "constant; see the derivation of private_samples.",
            "Notation slip in the proof: h*_Tpub (defined as argmin over H~) is later written "
            "h^_Tpub; they are the same hypothesis.",
        ),
    ),
    Result(
        id="abm19:lemma3.3",
        index_items=("A11",),
        errata=('abm19-lemma3.3-inequality-checked', 'abm19-lemma3.3-alpha-near-1'),
        paper=PAPER,
        label="Lemma 3.3",
        kind="lemma",
        statement=("alpha-cover for H: if T_pub ~ D_X^{n_pub} with n_pub = O((d log(1/alpha) + "
                   "log(1/beta))/alpha), then with probability >= 1 - beta the family H~_Tpub of "
                   "Algorithm 1 (one h per pattern on the public points) is an alpha-cover for H "
                   "w.r.t. D_X: every h in H has h~ with dis(h, h~; D_X) <= alpha."),
        source=f"{SOURCE}; Section 3, Lemma 3.3 and inequality (1)",
        params=("alpha", "beta", "vc"),
        constants={"C_3_3": "the constant in Lemma 3.3's O"},
        quantities=(
            Quantity(
                name="public_samples", symbol="m",
                description="public samples for an alpha-cover w.p. >= 1 - beta",
                asymptotic=lemma3_3_m_asymptotic, order="O", constants=("C_3_3",),
                explicit=Implicit("m", cover_log_tail,
                                  "2 (2 e m/d)^{2d} e^{-alpha m/4} <= beta (inequality (1))",
                                  cover_lower),
                integer=True,
                derivation=("Inequality (1): P[Bad] <= 2 G_{H Delta}(2m) e^{-alpha m/4} <= "
                            "2 (2em/d)^{2d} e^{-alpha m/4} (double-sample argument; "
                            "G_{H Delta}(k) <= G_H(k)^2 <= (ek/d)^{2d} by Sauer). Solved for the "
                            "least m >= 8d/alpha (where the log tail is non-increasing and the "
                            "double-sample condition m >= 8/alpha holds) with "
                            "log 2 + 2d log(2em/d) - alpha m/4 <= log beta."),
                monotone={"alpha": -1, "beta": -1, "d": +1},
                dominates_asymptotic=True,
                scaling=(("d", "inf"),),
            ),
        ),
        notes=(
            "Checked: the double-sample bound 2 G(2m) e^{-alpha m/4} is weaker than the textbook "
            "2 G(2m) 2^{-alpha m/2} (Kearns-Vazirani Thm 3.3; ln 2/2 = 0.347 > 1/4), so (1) holds "
            "as printed; it needs m >= 8/alpha, which the solver's lower end 8d/alpha ensures.",
            "BCMNUW20 Lemma 11 is this lemma (used there at alpha/4, beta/2); the inequality is "
            "written once, as bounds.papers.bcmnuw20.lemma11_public_samples_g, and used here.",
        ),
    ),
    Result(
        id="abm19:thm4.1",
        index_items=("B22", "A13"),
        regime=lambda v: [(False, THM4_1_REGIME)],
        errata=('abm19-thm4.1-checked',),
        paper=PAPER,
        label="Theorem 4.1",
        kind="lower bound",
        statement=("Any semi-private learner for a class of infinite Littlestone dimension (e.g. "
                   "thresholds over R) needs n_pub = Omega(1/alpha) public samples, even labeled "
                   "ones; the proof gives n_pub(alpha, 1/18) > 1/(1600 alpha) for 0 < alpha <= "
                   "1/100 (eps = 0.1, delta = 1/(100 n_priv^2 log n_priv)); with the corrected "
                   "Lemma 4.4 the bound holds at confidence 1/22 instead of 1/18."),
        source=f"{SOURCE}; Section 4, Theorem 4.1 and its proof",
        params=("alpha",),
        domain={"alpha": ALPHA_LOWER_BOUNDS},
        constants={"C_4_1": "the constant in Theorem 4.1's Omega"},
        quantities=(
            Quantity(
                name="public_samples", symbol="m_min",
                description="least number of public samples any semi-private learner needs",
                asymptotic=thm4_1_m_asymptotic, order="Omega", constants=("C_4_1",),
                explicit=thm4_1_m, integer=True,
                derivation=("Lemma 4.4 turns the semi-private learner into a (100 n_pub alpha, "
                            "1/16, 0.1, delta)-private learner B for realizable distributions; "
                            "Theorem 4.3 says no (1/16, 1/16, 0.1, delta)-private learner exists, "
                            "so 100 n_pub alpha > 1/16, i.e. n_pub > 1/(1600 alpha): the least "
                            "integer floor(1/(1600 alpha)) + 1. B's delta = 1/(100 n_priv^2 log "
                            "n_priv) is at most Theorem 4.3's 1/(100 n~^2 log n~) as n~ <= n_priv."),
                monotone={"alpha": -1},
                scaling=(("alpha", "0"),),
            ),
        ),
        notes=("Checked: the constant 1600 = 16 x 100 follows from Lemma 4.4's error 100 n_pub alpha "
               "and Theorem 4.3's 1/16; it is right given Lemma 4.4, whose proof needs the "
               "corrections recorded there (confidence 1/22 instead of 1/18, B's sample size at "
               "least 4); neither changes 1600.",),
    ),
    Result(
        id="abm19:thm4.2",
        index_items=("A14",),
        regime=lambda v: [(False, THM4_2_REGIME)],
        errata=('abm19-thm4.2-constant',),
        paper=PAPER,
        label="Theorem 4.2",
        kind="lower bound",
        statement=("Every class H satisfies exactly one of: (1) H is learnable by a pure private "
                   "learner; (2) any pure semi-private learner for H needs n_pub = Omega(1/alpha) "
                   "public samples. In case (2) the proof gives n_pub > 1/(1600 alpha) for "
                   "0 < alpha <= 1/100."),
        source=f"{SOURCE}; Section 4, Theorem 4.2 and its proof, Lemmas 2.5, 2.6",
        params=("alpha",),
        domain={"alpha": ALPHA_LOWER_BOUNDS},
        constants={"C_4_2": "the constant in Theorem 4.2's Omega"},
        quantities=(
            Quantity(
                name="public_samples", symbol="m_min",
                description="least number of public samples any pure semi-private learner needs "
                            "for a class that is not pure privately learnable",
                asymptotic=thm4_2_m_asymptotic, order="Omega", constants=("C_4_2",),
                explicit=thm4_2_m, integer=True,
                derivation=("Lemma 2.6 (contrapositive): no (0.1, 0.1, 0.1)-pure private learner, "
                            "hence none at (1/16, 1/16, 0.1); Lemma 4.4 gives a (100 n_pub alpha, "
                            "1/16, 0.1)-pure private learner, so 100 n_pub alpha > 1/16, n_pub > "
                            "1/(1600 alpha): the least integer floor(1/(1600 alpha)) + 1."),
                monotone={"alpha": -1},
                scaling=(("alpha", "0"),),
            ),
        ),
        notes=("Checked: 1/(1600 alpha) is valid but not the sharpest the proof allows: B is a "
               "(100 n_pub alpha, 1/16, 0.1)-pure learner and 1/16 < 0.1, so 100 n_pub alpha <= 0.1 "
               "would already contradict Lemma 2.6's (0.1, 0.1, 0.1); hence n_pub > 1/(1000 "
               "alpha), matching the proof overview's 1/(1000 alpha). The printed 1600 is kept.",),
    ),
    Result(
        id="abm19:thm4.3",
        index_items=("A15",),
        paper=PAPER,
        label="Theorem 4.3",
        kind="lower bound",
        statement=("(Restatement of [ALMM18, Corollary 2].) For a class of infinite Littlestone "
                   "dimension and any n, there is no (1/16, 1/16, 0.1, 1/(100 n^2 log n))-private "
                   "learner with n private samples (even in the realizable case)."),
        source=f"{SOURCE}; Section 4, Theorem 4.3",
        params=("private_samples",),
        domain={"private_samples": Interval(2, float("inf"), False, True, integer=True)},
        quantities=(
            Quantity(name="error", symbol="alpha_0", order="exact", explicit=thm4_3_alpha,
                     description="excess error no private learner achieves"),
            Quantity(name="failure_probability", symbol="beta_0", order="exact",
                     explicit=thm4_3_beta, description="at this confidence"),
            Quantity(name="epsilon", symbol="eps_0", order="exact", explicit=thm4_3_eps,
                     description="with this epsilon"),
            Quantity(name="delta", symbol="delta_0", order="exact", explicit=thm4_3_delta,
                     description="and this delta(n) = 1/(100 n^2 log n)",
                     monotone={"n": -1}),
        ),
        notes=("Cited, not proved here; n = 1 is excluded since log 1 = 0.",),
    ),
    Result(
        id="abm19:lemma4.4",
        index_items=("A17",),
        paper=PAPER,
        label="Lemma 4.4",
        kind="lemma",
        statement=("Public data reduction: for 0 < alpha <= 1/100, an (alpha, beta_A, eps, "
                   "delta)-agnostic semi-private learner A with n_priv private and n_pub public "
                   "samples gives a (100 n_pub alpha, 1/16, eps, delta)-private learner B "
                   "(Algorithm 2) for every distribution realizable by H, with sample size "
                   "ceil(n_priv/(10 n_pub)). B feeds A a private sample from PrivSamp (each "
                   "position is the next real example w.p. p = 1/(100 n_pub), else a dummy from "
                   "D_0 with uniform labels) and a public sample of n_pub dummies (PubSamp). "
                   "Printed with beta_A = 1/18; corrected: beta_A = 1/22 and B's sample size "
                   "max(ceil(n_priv/(10 n_pub)), 4) (see notes)."),
        source=f"{SOURCE}; Section 4, Lemma 4.4, Algorithms 2-4, Claims 4.5 and 4.6",
        params=("alpha", "private_samples", "public_samples"),
        # B's sample size n~ >= 4 must not exceed n_priv (the comparison of B's delta with A's needs
        # n~ <= n_priv): n_priv >= 4 (erratum abm19-claim4.6-chernoff)
        domain={"alpha": ALPHA_LOWER_BOUNDS,
                "private_samples": Interval(N_B_FLOOR - 1, math.inf, True, True, integer=True)},
        quantities=(
            Quantity(name="mixture_weight", symbol="p", order="exact", explicit=lemma4_4_p,
                     description="p = 1/(100 n_pub): PrivSamp's chance to use a real example",
                     derivation="Algorithm 2, step 2.", monotone={"m": -1}),
            Quantity(name="private_samples_B", symbol="n_B", order="exact",
                     explicit=lemma4_4_n_b, integer=True,
                     description="B's (private) sample size n~",
                     derivation=("Algorithm 2: n~ = ceil(n_priv/(10 n_pub)) >= 10 p n_priv as "
                                 "printed, floored at 4 so that the Chernoff step holds (erratum)."),
                     monotone={"n": +1, "m": -1}),
            Quantity(name="error", symbol="err_B", order="exact", explicit=lemma4_4_error,
                     description="B's error on realizable D: err(B(S~); D) <= 100 n_pub alpha",
                     derivation=("Claim 4.6: err(h; D_(p)) = p err(h; D) + (1 - p)/2 for every h, "
                                 "the minimum over H is (1-p)/2 (realizable), so A's excess error "
                                 "alpha on D_(p) gives p err(h~; D) <= alpha, err <= alpha/p."),
                     monotone={"alpha": +1, "m": +1}),
            Quantity(name="tv_public", symbol="tv", order="exact", explicit=lemma4_4_tv,
                     description="TV between PubSamp's S_pub ~ D_0^n_pub and S^_pub ~ D_(p)^n_pub",
                     derivation=("Claim 4.6: P[S^_pub = S_pub] >= P[all b_i = 0] = (1 - p)^n_pub "
                                 ">= 0.99 (Bernoulli's inequality); decreasing in n_pub "
                                 "from 1/100 at n_pub = 1 to 1 - e^{-1/100}."),
                     monotone={"m": -1}),
            Quantity(name="runout_probability", symbol="P_run", order="exact",
                     explicit=lemma4_4_runout,
                     description="Chernoff bound on P[PrivSamp runs out of S~ before n_priv draws]",
                     derivation=("Claim 4.6: Bin(n_priv, p) >= n~ with mu = p n_priv; "
                                 "P <= e^{-mu} (e mu/n~)^n~ <= (e/10)^n~ <= 0.0055 for the "
                                 "corrected n~ >= max(10 mu, 4).")),
            Quantity(name="failure_probability", symbol="beta_B", order="exact",
                     explicit=lemma4_4_beta_b,
                     description="B's failure probability: beta_A + TV + run-out (must be <= 1/16)",
                     derivation=("Claim 4.6, corrected accounting: beta_A = 1/22 (printed 1/18) plus "
                                 "the TV term (3) plus the run-out probability of (2); at most "
                                 "1/22 + 1/100 + (e/10)^4 = 0.0609 < 1/16.")),
        ),
        notes=("Corrected (errata abm19-claim4.6-probabilities, abm19-claim4.6-chernoff): A at confidence 1/22 "
               "(printed 1/18) and B's sample size max(ceil(n_priv/(10 n_pub)), 4), so n_priv >= 4.",),
        errata=("abm19-claim4.6-probabilities", "abm19-claim4.6-chernoff", "abm19-claim4.5-checked"),
    ),
)
