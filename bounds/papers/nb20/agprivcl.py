"""NB20 Algorithm 3 (A_AgPrivCl) parameter settings with Lemma 8's privacy accounting, and Claim 10."""
from __future__ import annotations



from ...core import Departure, Implicit, Quantity, Result
from ._common import PAPER, SOURCE, _UNIT, _declare  # noqa: F401


# =============================================================================================
# Algorithm 3 (A_AgPrivCl) parameter settings and the privacy accounting of Lemma 8
def alg3_fraction(o, eps):
    """NB20 Algorithm 3, step 1: n' = eps n / 56 (the sub-sampling rate n'/n)."""
    return eps / 56


def alg3_T(o, alpha, beta, num_queries):
    """NB20 Algorithm 3, step 1: T = max(1, m alpha/8 + (1/4) sqrt(3 m alpha log(m/beta)))."""
    m = num_queries
    return o.max(1, m * alpha / 8 + o.frac(1, 4) * o.sqrt(3 * m * alpha * o.log(m / beta)))


def alg3_eps_prime(o, alpha, num_queries):
    """NB20 Algorithm 3, step 1: eps' = alpha max(1, sqrt(m alpha))."""
    return alpha * o.max(1, o.sqrt(num_queries * alpha))


def alg3_eps_hat(o, delta, eps_prime):
    """NB20 Algorithm 3, step 1: eps^ = min(1, eps') / log(2/delta)."""
    return o.min(1, eps_prime) / o.log(2 / delta)


def alg3_delta_hat(o, delta, eps_prime):
    """NB20 Algorithm 3, step 1: delta^ = delta / (2 e^{min(1, eps')} log(2/delta))."""
    return delta / (2 * o.exp(o.min(1, eps_prime)) * o.log(2 / delta))


def alg3_group_eps(o, delta, eps_hat):
    """Lemma 8: group privacy over r <= log(2/delta) copies: r eps^ = min(1, eps')."""
    return o.log(2 / delta) * eps_hat


def alg3_group_delta(o, delta, eps_hat, delta_hat):
    """Lemma 8: group privacy delta r e^{r eps^} delta^ with r = log(2/delta): = delta/2."""
    r = o.log(2 / delta)
    return r * o.exp(r * eps_hat) * delta_hat


def alg3_total_eps(o, eps, group_eps):
    """Lemma 8: Lemma 5 gives (eps* + 3)-DP; sub-sampling n' of n without replacement amplifies it
    to log(1 + (n'/n)(e^{eps*+3} - 1)) (Li-Qardaji-Su 2012; Balle-Barthe-Gaboardi 2018 Thm 9)."""
    return o.log(1 + eps / 56 * (o.exp(group_eps + 3) - 1))


def alg3_total_delta(o, eps, delta, group_delta):
    """Lemma 8: delta of R o A_SubSamp is delta/2 (r > log(2/delta)) + group delta; Lemma 5 makes
    it 4 e of that; sub-sampling at rate eps/56 multiplies by eps/56."""
    return eps / 56 * 4 * o.e * (delta / 2 + group_delta)


_declare(
    Result(
        id="nb20:alg3", paper=PAPER, label="Algorithm 3 (A_AgPrivCl) parameter settings",
        index_items=("N9",),
        kind="parameter setting",
        statement=("A_AgPrivCl sets n' = eps n/56, T = max(1, m alpha/8 + (1/4) sqrt(3 m alpha "
                   "log(m/beta))), eps' = alpha max(1, sqrt(m alpha)), eps^ = min(1, eps')/log(2/delta), "
                   "delta^ = delta/(2 e^{min(1, eps')} log(2/delta)); Lemma 8: it is (eps, delta)-DP."),
        source=f"{SOURCE}; Section 3.2, Algorithm 3 step 1 and Lemma 8",
        params=("alpha", "beta", "epsilon", "delta", "num_queries"),
        domain={"epsilon": _UNIT, "delta": _UNIT},
        quantities=(
            Quantity("subsample_fraction", "rate", "n'/n = eps/56", explicit=alg3_fraction,
                     order="exact", derivation="step 1: n' = eps n / 56", monotone={"eps": +1}),
            Quantity("cutoff", "T_cut", "cut-off T passed to A_SubSamp", explicit=alg3_T,
                     order="exact", derivation="step 1: max(1, m alpha/8 + sqrt(3 m alpha log(m/beta))/4)",
                     monotone={"alpha": +1, "beta": -1, "num_queries": +1}),
            Quantity("eps_prime", "eps_prime", "eps' = alpha max(1, sqrt(m alpha))",
                     explicit=alg3_eps_prime, order="exact", derivation="step 1",
                     monotone={"alpha": +1, "num_queries": +1}),
            Quantity("eps_hat", "eps_hat", "privacy eps^ of A_SubSamp", explicit=alg3_eps_hat,
                     order="exact", derivation="step 1: min(1, eps')/log(2/delta)",
                     monotone={"alpha": +1, "num_queries": +1, "delta": +1}),
            Quantity("delta_hat", "delta_hat", "privacy delta^ of A_SubSamp",
                     explicit=alg3_delta_hat, order="exact",
                     derivation="step 1: delta/(2 e^{min(1, eps')} log(2/delta)) (the e is raised "
                                "to min(1, eps'): the text extraction flattened the superscript)",
                     monotone={"delta": +1}),
            Quantity("group_epsilon", "group_eps", "Lemma 8: r eps^ with r = log(2/delta)",
                     explicit=alg3_group_eps, intermediate=True,
                     derivation="group privacy of R o A_SubSamp: = min(1, eps')"),
            Quantity("group_delta", "group_delta", "Lemma 8: r e^{r eps^} delta^ with r = log(2/delta)",
                     explicit=alg3_group_delta, intermediate=True,
                     derivation="group privacy: = delta/2"),
            Quantity("total_epsilon", "eps_total", "Lemma 8: privacy epsilon of A_AgPrivCl (<= eps)",
                     explicit=alg3_total_eps, intermediate=True,
                     derivation="Lemma 5 (eps* + 3) then amplification by sub-sampling at rate eps/56"),
            Quantity("total_delta", "delta_total", "Lemma 8: privacy delta of A_AgPrivCl (<= delta)",
                     explicit=alg3_total_delta, intermediate=True,
                     derivation="(eps/56) 4 e (delta/2 + group delta) = (eps/56) 4 e delta"),
        ),
        notes=(
            "Checked (Lemma 8): r eps^ = min(1, eps') and r e^{r eps^} delta^ = delta/2, so R o A_SubSamp is (min(1, "
            "eps'), delta)-DP; Lemma 5 gives (eps* + 3, 4 e delta); sampling at rate eps/56 gives log(1 + (eps/56)(e^4 "
            "- 1)) <= 0.957 eps and 0.194 eps delta: 56 >= e^4 - 1 = 53.6 is exactly what the constant 56 needs.",
            "Lemma 8's step on r holds for delta <= 2 e^{-4} = 0.0366 and fails on intervals just above each 2 e^{-k} "
            "(erratum nb20-lemma8-r-tail); not encoded.",
            "Unverified: T's constants come from BTT18's counting argument (not in the seed papers). If the expected "
            "number of unstable queries is the first term m alpha/8, the multiplicative Chernoff bound needs the "
            "deviation sqrt(3 (m alpha/8) log(m/beta)) = sqrt(2) times the printed (1/4) sqrt(3 m alpha log(m/beta)).",
        ),
        errata=('nb20-lemma8-r-tail',),
    ),
)


# =============================================================================================
# Claim 10 (uniform convergence of disagreements via H_Delta)
def claim10_n_printed(o, alpha, beta, d):
    """NB20 Claim 10 as printed: n_o >= 50 (d log(1/alpha) + log(1/beta')) / alpha^2."""
    return 50 * (d * o.log(1 / alpha) + o.log(1 / beta)) / alpha**2


def claim10_log_growth(o, t, d):
    """NB20 Claim 10: log G_{H_Delta}(t) <= log(G_H(t)^2) <= 2 d log(e t/d) (Sauer, t >= d)."""
    return 2 * d * o.log(o.e * t / d)


def claim10_log_tail_printed(o, alpha, d, n_printed):
    """NB20 Claim 10's printed tail 2 (e n/d)^{2d} exp(-n alpha^2/8), in log form."""
    return o.log(2) + claim10_log_growth(o, n_printed, d) - n_printed * alpha**2 / 8


def claim10_g(o, n_o, alpha, beta, d):
    """NB20 Claim 10, corrected tail (errata nb20-claim10-square, nb20-claim10-tail): log(4 G_{H_Delta}(2 n_o)
    e^{-n_o alpha^2/8}) - log(beta')."""
    return o.log(4) + claim10_log_growth(o, 2 * n_o, d) - n_o * alpha**2 / 8 - o.log(beta)


def claim10_lower(o, alpha, d):
    """Turning point of claim10_g: it decreases in n_o from 16 d/alpha^2 on."""
    return 16 * d / alpha**2


def claim10_log_growth_at(o, d, n_o):
    """log G_{H_Delta}(2 n_o) bound at the solution."""
    return claim10_log_growth(o, 2 * n_o, d)


_declare(
    Result(
        id="nb20:claim10", paper=PAPER, label="Claim 10", kind="claim",
        index_items=("N13",),
        statement=("For an unlabeled S_u ~ D_X^{n_o}, w.p. >= 1 - beta' every pair h1, h2 in H has "
                   "|dis(h1, h2; D_X) - dis^(h1, h2; S_u)| <= alpha (uniform convergence for "
                   "H_Delta = {h1 xor h2}, whose growth function is at most G_H(t)^2 <= (e t/d)^{2d}). "
                   "--beta is beta'."),
        source=f"{SOURCE}; Section 3.2, Claim 10 and its proof",
        params=("alpha", "beta", "vc"),
        constants={"C_10": "constant of the O form (the printed value is 50)"},
        departures=(Departure("unlabeled_samples", "unlabeled_samples_printed",
                              "n_o: corrected / printed"),),
        quantities=(
            Quantity("unlabeled_samples_printed", "n_printed", "n_o as printed",
                     explicit=claim10_n_printed, integer=True, intermediate=True,
                     derivation="as printed: 50 (d log(1/alpha) + log(1/beta'))/alpha^2",
                     monotone={"alpha": -1, "beta": -1, "d": +1}),
            Quantity("log_growth_printed", "logG_printed",
                     "log G_{H_Delta}(n_o) <= 2 d log(e n_o/d) at the printed n_o",
                     explicit=lambda o, d, n_printed: claim10_log_growth(o, n_printed, d),
                     intermediate=True, derivation="G_{H_Delta}(t) <= G_H(t)^2 <= (e t/d)^{2d}"),
            Quantity("log_tail_printed", "logtail_printed",
                     "log of the printed tail 2 (e n/d)^{2d} e^{-n alpha^2/8} at the printed n_o "
                     "(Claim 10 needs <= log beta')", explicit=claim10_log_tail_printed,
                     intermediate=True, derivation="as printed"),
            Quantity("unlabeled_samples", "n_o",
                     "least n_o with 4 G_{H_Delta}(2 n_o) e^{-n_o alpha^2/8} <= beta'",
                     asymptotic=lambda o, alpha, beta, d, C_10:
                         C_10 * (d * o.log(1 / alpha) + o.log(1 / beta)) / alpha**2,
                     constants=("C_10",),
                     explicit=Implicit("n_o", claim10_g,
                                       "4 (2 e n_o/d)^{2d} exp(-n_o alpha^2/8) <= beta'",
                                       claim10_lower),
                     integer=True, dominates_asymptotic=True,
                     derivation=("VC inequality for H_Delta (Anthony-Bartlett Thm 4.3: 4 G(2n) "
                                 "e^{-n a^2/8}) with G_{H_Delta}(t) <= (e t/d)^{2d}; least integer"),
                     monotone={"alpha": -1, "beta": -1, "d": +1}),
            Quantity("log_growth", "logG", "log G_{H_Delta}(2 n_o) <= 2 d log(2 e n_o/d) at the solution",
                     explicit=claim10_log_growth_at, intermediate=True,
                     derivation="Sauer for H, squared for H_Delta"),
        ),
        notes=(
            "Explicit n_o: the least integer solving the corrected tail 4 (2e n_o/d)^{2d} e^{-n_o alpha^2/8} <= beta'.",
        ),
        errata=('nb20-claim10-square', 'nb20-claim10-tail', 'nb20-claim10-constant',),
    ),
)


