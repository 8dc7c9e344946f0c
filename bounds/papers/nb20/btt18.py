"""NB20 Lemmas 3, 4 (A_SubSamp's accuracy, from BTT18) and Lemma 5 (LabelBoost privacy, BNS15)."""
from __future__ import annotations



from ...core import Quantity, Result
from ._common import PAPER, SOURCE, _UNIT, _declare  # noqa: F401


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


_declare(
    Result(
        id="nb20:lemma3", paper=PAPER, label="Lemma 3", kind="lemma",
        index_items=("N4",),
        statement=("Realizable setting (from BTT18 Theorems 3.2 and 3.4): with a PAC learner B and "
                   "cut-off T = max(1, O~(m alpha)), A_SubSamp is an (eps, delta, alpha, beta, n, m)-"
                   "PCQR algorithm with n = O~(d/(eps alpha) max(1, sqrt(m alpha))); m = number of "
                   "queries."),
        source=f"{SOURCE}; Section 2.1, Lemma 3",
        params=("alpha", "epsilon", "vc", "num_queries"),
        constants={"C_T3": "constant and log factors hidden in T's O~",
                   "C_3": "constant and log factors hidden in n's O~"},
        quantities=(
            Quantity("cutoff", "T_cut", "cut-off on unstable queries", asymptotic=lemma3_T,
                     order="Otilde", constants=("C_T3",),
                     monotone={"alpha": +1, "num_queries": +1}),
            Quantity("private_samples", "n", "private samples", asymptotic=lemma3_n,
                     order="Otilde", constants=("C_3",), integer=True,
                     monotone={"alpha": -1, "eps": -1, "d": +1, "num_queries": +1}),
        ),
        notes=("Asymptotic only: NB20 restates BTT18 without constants (BTT18 is not in the "
               "seed papers, so its constants are not re-derived here).",),
    ),
    Result(
        id="nb20:lemma4", paper=PAPER, label="Lemma 4", kind="lemma",
        index_items=("N5",),
        statement=("Agnostic setting (from BTT18 Theorems 3.2 and 3.5): with an agnostic PAC learner "
                   "and cut-off T = max(1, O~(m (alpha + gamma))), A_SubSamp is (eps, delta)-DP and "
                   "with n = O~(d/(eps alpha^2) max(1, sqrt(m alpha))) its average error over the m "
                   "queries is at most alpha + 3 gamma w.p. >= 1 - beta, gamma = min_h err(h; D)."),
        source=f"{SOURCE}; Section 2.1, Lemma 4",
        params=("alpha", "epsilon", "vc", "num_queries", "approx_error"),
        domain={"epsilon": _UNIT},
        defaults={"approx_error": 0.0},
        constants={"C_T4": "constant and log factors hidden in T's O~",
                   "C_4": "constant and log factors hidden in n's O~"},
        quantities=(
            Quantity("cutoff", "T_cut", "cut-off on unstable queries", asymptotic=lemma4_T,
                     order="Otilde", constants=("C_T4",),
                     monotone={"alpha": +1, "gamma": +1, "num_queries": +1}),
            Quantity("private_samples", "n", "private samples", asymptotic=lemma4_n,
                     order="Otilde", constants=("C_4",), integer=True,
                     monotone={"alpha": -1, "eps": -1, "d": +1, "num_queries": +1}),
            Quantity("error", "err", "guaranteed average error (not excess: gamma is tripled)",
                     explicit=lemma4_error, order="exact",
                     derivation="Lemma 4 as stated: alpha + 3 gamma",
                     monotone={"alpha": +1, "gamma": +1}),
        ),
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


