"""NB20 Lemmas 3, 4 (A_SubSamp's accuracy, from BTT18) and Lemma 5 (LabelBoost privacy, BNS15)."""
from __future__ import annotations



from ...core import Implicit, Quantity, Result
from ._common import PAPER, SOURCE, _UNIT, _declare  # noqa: F401
from .relabel import vc_tail_g, vc_tail_lower
from .subsamp import alg5_k, alg5_lambda_tight, alg5_w


# =============================================================================================
# Lemma 3 (realizable A_SubSamp, from BTT18 Thms 3.2 & 3.4) and Lemma 4 (agnostic, Thms 3.2 & 3.5)
def lemma3_T(o, alpha, num_queries, C_T3):
    """NB20 Lemma 3: cut-off T = max(1, O~(m alpha)) (m = num_queries)."""
    return o.max(1, C_T3 * num_queries * alpha)


def lemma3_n(o, alpha, eps, d, num_queries, C_3):
    """NB20 Lemma 3: n = O~(d/(eps alpha) * max(1, sqrt(m alpha))) in the realizable setting."""
    return C_3 * d / (eps * alpha) * o.max(1, o.sqrt(num_queries * alpha))


def lemma4_T(o, alpha, gamma, num_queries, C_T4):
    """NB20 Lemma 4: cut-off T = max(1, O~(m (alpha + gamma)))."""
    return o.max(1, C_T4 * num_queries * (alpha + gamma))


def lemma4_n(o, alpha, eps, d, num_queries, C_4):
    """NB20 Lemma 4: n = O~(d/(eps alpha^2) * max(1, sqrt(m alpha))) in the agnostic setting."""
    return C_4 * d / (eps * alpha**2) * o.max(1, o.sqrt(num_queries * alpha))


def lemma4_error(o, alpha, gamma):
    """NB20 Lemma 4: average error alpha + 3 gamma (the blow-up of the approximation error)."""
    return alpha + 3 * gamma


# The workbench's explicit forms of Lemmas 3 and 4 (its own derivation, not BTT18's constants, which the seed
# papers do not give; record nb20-btt18-explicit). A_SubSamp at Algorithm 5's settings (tight lambda, k, w of
# bounds nb20:alg5 at the cut-off T below), each h_j = ERM on its s examples:
#  (a) every h_j has err(h_j) <= gamma + a, a = alpha/6, w.p. >= 1 - beta/4 (confidence beta/(4k) each);
#  (b) u(x, y) = #{j: h_j(x) != y} has mean <= k (gamma + a), so a query is "bad" (u >= k/3) w.p. <= p =
#      3 gamma + alpha/2 (Markov); on a good query the majority is y with margin > k/3;
#  (c) a good query fails the stability test only if Lap(2 lambda) - Lap(lambda) < w - k/3: over the m queries
#      w.p. <= m P[Lap(2 lambda) - Lap(lambda) > k/3 - w] (``stability_tail``, must be <= beta/4);
#  (d) the bad queries B ~ Bin(m, <= p) stay <= T = m p + L/3 + sqrt(L^2/9 + 2 m p L), L = log(4/beta), w.p.
#      >= 1 - beta/4 (Bernstein); then no halt (bottoms only on bad queries) and the wrong answers are <= B;
#  so the average error is <= T/m <= alpha + 3 gamma once m >= 4 L (4 alpha/3 + 6 gamma)/alpha^2
#  (``min_queries``), w.p. >= 1 - 3 beta/4. Lemma 3 is gamma = 0 with the realizable PAC size in (a).
def btt18_bad_rate(o, alpha, gamma):
    """p = 3 (gamma + alpha/6): Markov's bound on P[at least k/3 of the h_j err on (x, y)] (derivation (b))."""
    return 3 * gamma + alpha / 2


def btt18_cutoff(o, alpha, beta, gamma, num_queries):
    """T = max(1, m p + L/3 + sqrt(L^2/9 + 2 m p L)), L = log(4/beta): Bernstein's (1 - beta/4)-quantile bound on
    Bin(m, p) (derivation (d))."""
    mp, L = num_queries * btt18_bad_rate(o, alpha, gamma), o.log(4 / beta)
    return o.max(1, mp + L / 3 + o.sqrt(L**2 / 9 + 2 * mp * L))


def btt18_min_queries(o, alpha, beta, gamma):
    """m >= 4 log(4/beta) (4 alpha/3 + 6 gamma)/alpha^2: where T/m <= alpha + 3 gamma (derivation, last line)."""
    return 4 * o.log(4 / beta) * (4 * alpha / 3 + 6 * gamma) / alpha**2


def btt18_k(o, eps, delta, beta, num_queries, T_cut):
    """k of Algorithm 5 at the tight lambda and the cut-off T above, rounded up (bounds nb20:alg5)."""
    return o.ceil(alg5_k(o, alg5_lambda_tight(o, T_cut, eps, delta), num_queries, T_cut, delta, beta))


def btt18_stability_tail(o, eps, delta, num_queries, T_cut, k_exp):
    """m P[Lap(2 lambda) - Lap(lambda) > k/3 - w] = m (4 e^{-t/(2 lambda)} - e^{-t/lambda})/6, t = k/3 - w >= 0
    (derivation (c); the law of the difference of two Laplace variables of scales 2 lambda and lambda)."""
    lam = alg5_lambda_tight(o, T_cut, eps, delta)
    t = k_exp / 3 - alg5_w(o, lam, num_queries, delta)
    return num_queries * (4 * o.exp(-t / (2 * lam)) - o.exp(-t / lam)) / 6


def btt18_pac_realizable(o, alpha, beta, d, k_exp):
    """Lemma 3's sub-sample size s: a consistent learner's (4/a)(d log(12/a) + log(2/b)) at a = alpha/6,
    b = beta/(4k) (Anthony-Bartlett Thm 4.8), rounded up."""
    a, b = alpha / 6, beta / (4 * k_exp)
    return o.ceil(4 / a * (d * o.log(12 / a) + o.log(2 / b)))


def _btt18_agnostic_g(o, s_exp, alpha, beta, d, k_exp):
    """Lemma 4's sub-sample size: the VC inequality at deviation a/2 = alpha/12, confidence beta/(4k) (ERM then
    has err <= gamma + alpha/6)."""
    return vc_tail_g(o, s_exp, alpha / 12, beta / (4 * k_exp), d)


def _btt18_agnostic_lower(o, alpha, d):
    return vc_tail_lower(o, alpha / 12, d)


def btt18_n(o, k_exp, s_exp):
    """n = k s: k sub-samples of s examples each."""
    return k_exp * s_exp


def lemma3_cutoff(o, alpha, beta, num_queries):
    """Lemma 3's T (gamma = 0): max(1, m alpha/2 + L/3 + sqrt(L^2/9 + m alpha L)), L = log(4/beta)."""
    return btt18_cutoff(o, alpha, beta, 0, num_queries)


def lemma3_min_queries(o, alpha, beta):
    """Lemma 3's regime (gamma = 0): m >= 16 log(4/beta)/(3 alpha)."""
    return btt18_min_queries(o, alpha, beta, 0)


def _btt18_explicit(agnostic: bool) -> tuple[Quantity, ...]:
    """The derivation's steps as quantities (Lemma 3: gamma = 0 and the realizable sub-sample size)."""
    step = {"intermediate": True}
    if agnostic:
        sub = Quantity("subsample_size", "s_exp", "sub-sample size s: ERM within gamma + alpha/6 w.p. 1 - beta/(4k)",
                       explicit=Implicit("s_exp", _btt18_agnostic_g,
                                         "4 (2es/d)^d exp(-s (alpha/12)^2/8) <= beta/(4k)", _btt18_agnostic_lower),
                       integer=True, derivation="VC inequality at deviation alpha/12, confidence beta/(4k) "
                       "(workbench)", **step)
    else:
        sub = Quantity("subsample_size", "s_exp", "sub-sample size s: a consistent learner within alpha/6 w.p. "
                       "1 - beta/(4k)", explicit=btt18_pac_realizable, integer=True,
                       derivation="(4/a)(d log(12/a) + log(2/b)), a = alpha/6, b = beta/(4k) (workbench)", **step)
    return (
        Quantity("min_queries", "m_min", "least m at which T/m <= alpha + 3 gamma (the explicit form's regime)",
                 explicit=btt18_min_queries if agnostic else lemma3_min_queries,
                 derivation="4 log(4/beta)(4 alpha/3 + 6 gamma)/alpha^2 (workbench)",
                 monotone={"alpha": -1, "beta": -1}, **step),
        Quantity("subsamples", "k_exp", "sub-samples k (Algorithm 5 at the tight lambda and T_cut)",
                 explicit=btt18_k, integer=True, derivation="bounds nb20:alg5 subsamples_tight at T_cut", **step),
        Quantity("stability_tail", "tail_exp", "m P[a good query fails the stability test] (must be <= beta/4)",
                 explicit=btt18_stability_tail, tiny=True,
                 derivation="m (4 e^{-t/(2 lambda)} - e^{-t/lambda})/6, t = k/3 - w (workbench)", **step),
        sub,
    )


_T_DERIVATION = ("max(1, m p + L/3 + sqrt(L^2/9 + 2 m p L)), p = 3 gamma + alpha/2, L = log(4/beta): Bernstein's "
                 "bound on the bad queries (workbench, record nb20-btt18-explicit)")
_N_DERIVATION = "k s: k_exp sub-samples of s_exp examples (workbench, record nb20-btt18-explicit)"
_EXPLICIT_NOTE = (
    "Explicit form: the workbench's own derivation (record nb20-btt18-explicit; BTT18's constants are not in the "
    "seed papers nor found in public text): A_SubSamp at Algorithm 5's tight lambda and k at T, sub-samples of "
    "s_exp examples, n = k s; average error <= alpha + 3 gamma w.p. >= 1 - 3 beta/4 when m >= m_min and "
    "tail_exp <= beta/4. The asymptotic n and T stay the paper's O~ forms.")


_declare(
    Result(
        id="nb20:lemma3", paper=PAPER, label="Lemma 3", kind="lemma",
        index_items=("N4",),
        statement=("Realizable setting (from BTT18 Theorems 3.2 and 3.4): with a PAC learner B and "
                   "cut-off T = max(1, O~(m alpha)), A_SubSamp is an (eps, delta, alpha, beta, n, m)-"
                   "PCQR algorithm with n = O~(d/(eps alpha) max(1, sqrt(m alpha))); m = number of "
                   "queries."),
        source=f"{SOURCE}; Section 2.1, Lemma 3",
        params=("alpha", "beta", "epsilon", "delta", "vc", "num_queries"),
        domain={"epsilon": _UNIT, "delta": _UNIT},
        constants={"C_T3": "constant and log factors hidden in T's O~",
                   "C_3": "constant and log factors hidden in n's O~"},
        quantities=(
            Quantity("cutoff", "T_cut", "cut-off on unstable queries", asymptotic=lemma3_T,
                     order="Otilde", constants=("C_T3",), explicit=lemma3_cutoff, derivation=_T_DERIVATION,
                     monotone={"alpha": +1, "num_queries": +1}),
            *_btt18_explicit(agnostic=False),
            Quantity("private_samples", "n", "private samples", asymptotic=lemma3_n,
                     order="Otilde", explicit=btt18_n, derivation=_N_DERIVATION, constants=("C_3",), integer=True,
                     monotone={"alpha": -1, "eps": -1, "d": +1, "num_queries": +1}),
        ),
        notes=(_EXPLICIT_NOTE,),
        errata=("nb20-btt18-explicit",),
    ),
    Result(
        id="nb20:lemma4", paper=PAPER, label="Lemma 4", kind="lemma",
        index_items=("N5",),
        statement=("Agnostic setting (from BTT18 Theorems 3.2 and 3.5): with an agnostic PAC learner "
                   "and cut-off T = max(1, O~(m (alpha + gamma))), A_SubSamp is (eps, delta)-DP and "
                   "with n = O~(d/(eps alpha^2) max(1, sqrt(m alpha))) its average error over the m "
                   "queries is at most alpha + 3 gamma w.p. >= 1 - beta, gamma = min_h err(h; D)."),
        source=f"{SOURCE}; Section 2.1, Lemma 4",
        params=("alpha", "beta", "epsilon", "delta", "vc", "num_queries", "approx_error"),
        domain={"epsilon": _UNIT, "delta": _UNIT},
        defaults={"approx_error": 0.0},
        constants={"C_T4": "constant and log factors hidden in T's O~",
                   "C_4": "constant and log factors hidden in n's O~"},
        quantities=(
            Quantity("cutoff", "T_cut", "cut-off on unstable queries", asymptotic=lemma4_T,
                     order="Otilde", constants=("C_T4",), explicit=btt18_cutoff, derivation=_T_DERIVATION,
                     monotone={"alpha": +1, "gamma": +1, "num_queries": +1}),
            Quantity("error", "err", "guaranteed average error (not excess: gamma is tripled)",
                     explicit=lemma4_error, order="exact",
                     derivation="Lemma 4 as stated: alpha + 3 gamma",
                     monotone={"alpha": +1, "gamma": +1}),
            *_btt18_explicit(agnostic=True),
            Quantity("private_samples", "n", "private samples", asymptotic=lemma4_n,
                     order="Otilde", explicit=btt18_n, derivation=_N_DERIVATION, constants=("C_4",), integer=True,
                     monotone={"alpha": -1, "eps": -1, "d": +1, "num_queries": +1}),
        ),
        notes=(_EXPLICIT_NOTE,),
        errata=("nb20-btt18-explicit",),
    ),
)


# =============================================================================================
# Lemma 5 (LabelBoost privacy, Beimel-Nissim-Stemmer 2015 Lemma 4.1)
def lemma5_eps(o):
    """NB20 Lemma 5: A (1, delta)-DP after A_Relabel is (1 + 3, .)-DP: epsilon 4."""
    return 1 + 3


def lemma5_delta(o, delta):
    """NB20 Lemma 5: ... and delta becomes 4 e delta."""
    return 4 * o.e * delta


_declare(
    Result(
        id="nb20:lemma5", paper=PAPER, label="Lemma 5", kind="lemma",
        index_items=("N7",),
        statement=("(BNS15 Lemma 4.1 restated) If A is (1, delta)-DP, then B = A o A_Relabel is "
                   "(4, 4 e delta)-DP."),
        source=f"{SOURCE}; Section 3.1, Lemma 5",
        params=("delta",),
        quantities=(
            Quantity("epsilon", "eps_out", "privacy epsilon of A o A_Relabel", explicit=lemma5_eps,
                     order="exact", derivation="BNS15 Lemma 4.1: eps_A + 3 with eps_A = 1"),
            Quantity("delta_out", "delta_out", "privacy delta of A o A_Relabel",
                     explicit=lemma5_delta, order="exact",
                     derivation="BNS15 Lemma 4.1: 4 e delta", monotone={"delta": +1}),
        ),
        notes=("Lemma 8 uses the general form (eps* + 3, 4 e delta) with eps* = min(1, eps') <= 1; "
               "that follows from Lemma 5 as stated, since an (eps*, delta)-DP algorithm with "
               "eps* <= 1 is (1, delta)-DP. BNS15 itself is not in the seed papers.",),
    ),
)


