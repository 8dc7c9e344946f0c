"""NB20 Algorithm 4 (A_UnvPrivCl) parameter settings, Theorem 11 and Remark 12."""
from __future__ import annotations



from ...core import Departure, Implicit, Quantity, Result
from ..abm19 import thm3_1_cover_g, thm3_1_cover_lower, thm3_1_log_cover_size, thm3_1_n
from ._common import PAPER, SOURCE, _UNIT, _declare  # noqa: F401
from .thm7 import _agpriv_chain, _thm11_regime
from .btt18 import _btt18_agnostic_g, _btt18_agnostic_lower, btt18_cutoff, btt18_k, btt18_min_queries, lemma4_n


# =============================================================================================
# Algorithm 4 (A_UnvPrivCl) parameter settings
def alg4_m_o(o, alpha, beta, d):
    """NB20 Algorithm 4, step 1: m_o = 32 (d log(1/alpha) + log(1/beta)) / alpha."""
    return 32 * (d * o.log(1 / alpha) + o.log(1 / beta)) / alpha


def alg4_m_prime(o, num_queries, m_o):
    """NB20 Algorithm 4, step 1: m' = min(m_o, m)."""
    return o.min(m_o, num_queries)


_declare(
    Result(
        id="nb20:alg4", paper=PAPER, label="Algorithm 4 (A_UnvPrivCl) parameter settings",
        index_items=("N15",),
        kind="parameter setting",
        statement=("A_UnvPrivCl answers the first m' = min(m_o, m) queries with A_AgPrivCl, "
                   "m_o = 32 (d log(1/alpha) + log(1/beta))/alpha, then uses those m_o query points "
                   "as public data for A_SSPP and answers the rest with its classifier."),
        source=f"{SOURCE}; Section 4, Algorithm 4 step 1",
        params=("alpha", "beta", "vc", "num_queries"),
        quantities=(
            Quantity("public_samples", "m_o", "m_o: queries used as public data", explicit=alg4_m_o,
                     order="exact", integer=True,
                     derivation="step 1: 32 (d log(1/alpha) + log(1/beta))/alpha, rounded up",
                     monotone={"alpha": -1, "beta": -1, "d": +1}),
            Quantity("queries_first_phase", "m_first", "m' = min(m_o, m)", explicit=alg4_m_prime,
                     order="exact", integer=True, derivation="step 1",
                     monotone={"num_queries": +1}),
        ),
        notes=("Whether m_o public points give the cover A_SSPP needs is ABM19 Lemma 3.3's claim "
               "(bounds/papers/abm19.py), not re-derived here.",),
    ),
)


# =============================================================================================
# Theorem 11 (A_UnvPrivCl) and Remark 12
def thm11_queries(o, num_queries, m_o):
    return alg4_m_prime(o, num_queries, m_o)


def thm11_second_phase(o, num_queries, m_o):
    """Algorithm 4 runs A_SSPP (its second phase) only when there are queries beyond the first
    m' = min(m_o, m): 1 if m > m_o, else 0."""
    return o.gt(num_queries, m_o)


def thm11_eps_half(o, eps):
    """NB20 Theorem 11, corrected (erratum nb20-thm11-privacy): both phases of Algorithm 4 read S, so each gets eps/2
    (Algorithm 4, as corrected and as algorithms.learning.unvprivcl runs it, fixes the split before it knows whether
    the second phase will run)."""
    return eps / 2


def thm11_beta_half(o, beta):
    return beta / 2


def _thm11_cover_g(o, m, alpha, beta, d):
    """A_SSPP's cover as ABM19 Theorem 3.1 needs it at the second phase's beta/2 (Lemma 3.3 at
    alpha/2, beta/4)."""
    return thm3_1_cover_g(o, m, alpha, beta / 2, d)


def _thm11_cover_lower(o, alpha, d):
    return thm3_1_cover_lower(o, alpha, d)


def thm11_m_o(o, m_o_printed, m_cover):
    """NB20 Algorithm 4, corrected (erratum nb20-thm11-m_o): m_o large enough for A_SSPP's cover."""
    return o.max(m_o_printed, m_cover)


def _thm11_log_cover(o, d, m_o):
    """A_SSPP: log |H~_{T_pub}| <= d log(e m_o/d) (ABM19 Thm 3.1's proof, Sauer; m_o >= d)."""
    return thm3_1_log_cover_size(o, d, m_o)


def _thm11_sspp_n(o, alpha, beta, eps, logH):
    """A_SSPP's private samples: ABM19 Theorem 3.1 at (alpha, beta/2, eps/2) (it runs only in the
    two-phase regime m > m_o, where each phase has half the budget)."""
    return thm3_1_n(o, alpha, beta / 2, eps / 2, logH)


def thm11_n(o, n, n_sspp, phase2):
    """max(first phase, A_SSPP if it runs): both read the same S."""
    return o.max(n, phase2 * n_sspp)


def thm11_n_asymptotic(o, alpha, beta, eps, delta, d, C_11):
    """NB20 Theorem 11, corrected factor: n = O((d log(1/alpha) + log(m_o/beta)) log^{3/2}(2/delta)
    log(m_o alpha/min(delta, beta/2)) / (eps alpha^2) * max(1, alpha sqrt(d log(1/alpha) + log(1/beta))))
    (printed: max(1, sqrt(d) alpha log^{1/2}(1/alpha)), which drops log(1/beta); see the notes)."""
    m_o = alg4_m_o(o, alpha, beta, d)
    return (C_11 * (d * o.log(1 / alpha) + o.log(m_o / beta)) * o.log(2 / delta) ** o.frac(3, 2)
            * o.log(m_o * alpha / o.min(delta, beta / 2)) / (eps * alpha**2)
            * o.max(1, alpha * o.sqrt(d * o.log(1 / alpha) + o.log(1 / beta))))


_declare(
    Result(
        id="nb20:thm11", paper=PAPER, label="Theorem 11", kind="upper bound",
        index_items=("N16",),
        statement=("A_UnvPrivCl (Algorithm 4) is an (eps, delta, alpha, beta, n, m)-PCQR algorithm "
                   "for any m < infinity with n = O((d log(1/alpha) + log(m_o/beta)) log^{3/2}(2/delta)"
                   " log(m_o alpha/min(delta, beta/2)) / (eps alpha^2) * max(1, sqrt(d) alpha "
                   "log^{1/2}(1/alpha))), m_o = O((d log(1/alpha) + log(1/beta))/alpha); for alpha <= "
                   "1/sqrt(d), n = O~(d/(eps alpha^2))."),
        source=f"{SOURCE}; Section 4, Theorem 11 and Algorithm 4 (A_SSPP: Appendix B.2, ABM19)",
        params=("alpha", "beta", "epsilon", "delta", "vc", "num_queries"),
        domain={"epsilon": _UNIT, "delta": _UNIT},
        constants={"C_11": "constant hidden in Theorem 11's O"},
        departures=(
            Departure("public_samples", "public_samples_printed", "m_o: corrected / printed"),
            Departure("subsamples", "subsamples_as_printed", "k (first phase): corrected / printed"),
        ),
        regime=_thm11_regime,
        quantities=(
            Quantity("public_samples_printed", "m_o_printed", "Alg 4 as printed: m_o",
                     explicit=alg4_m_o, integer=True, intermediate=True, derivation="Alg 4 step 1"),
            Quantity("cover_samples", "m_cover",
                     "public points A_SSPP needs: ABM19 Thm 3.1's cover (Lemma 3.3 at alpha/2, "
                     "beta/4: the second phase's beta/2)",
                     explicit=Implicit("m", _thm11_cover_g,
                                       "2 (2em/d)^{2d} e^{-(alpha/2) m/4} <= beta/4",
                                       _thm11_cover_lower),
                     integer=True, intermediate=True, derivation="ABM19 Theorem 3.1 / Lemma 3.3"),
            Quantity("public_samples", "m_o", "m_o used: max(printed, cover) (corrected)",
                     explicit=thm11_m_o, integer=True, intermediate=True,
                     derivation="the printed m_o can be too small for the cover, already at d = 1 (erratum "
                                "nb20-thm11-m_o)"),
            Quantity("queries_answered", "mq", "queries answered by A_AgPrivCl: m' = min(m_o, m)",
                     explicit=thm11_queries, intermediate=True, derivation="Alg 4 step 1"),
            Quantity("second_phase", "phase2", "1 if Algorithm 4 runs A_SSPP (m > m_o), else 0",
                     explicit=thm11_second_phase, intermediate=True,
                     derivation="Alg 4: the m_o query points become public data only for the "
                                "queries beyond them"),
            Quantity("privacy_eps", "eps_run", "privacy epsilon of each phase: eps/2 (corrected)",
                     explicit=thm11_eps_half, intermediate=True,
                     derivation="basic composition of the two phases on the same S"),
            Quantity("failure_probability", "beta_run", "failure probability of each phase: beta/2",
                     explicit=thm11_beta_half, intermediate=True, derivation="union bound"),
        ) + _agpriv_chain(
            "first_phase_samples", "private samples for A_AgPrivCl on m' queries at (eps/2, beta/2)",
            last_is_step=True,
        ) + (
            Quantity("log_cover", "logH", "A_SSPP: log |H~_{T_pub}| <= d log(e m_o/d)",
                     explicit=_thm11_log_cover, intermediate=True,
                     derivation="Sauer's lemma (ABM19 Thm 3.1's proof)"),
            Quantity("sspp_samples", "n_sspp", "private samples for A_SSPP at (alpha, beta/2, eps/2) "
                     "(needed only when it runs)",
                     explicit=_thm11_sspp_n, integer=True, intermediate=True,
                     derivation="ABM19 Theorem 3.1's explicit n_priv at (alpha, beta/2, eps/2)"),
            Quantity("private_samples", "n_total", "private samples n of A_UnvPrivCl",
                     asymptotic=thm11_n_asymptotic, constants=("C_11",),
                     explicit=thm11_n, integer=True,
                     derivation="max(first phase, A_SSPP if m > m_o): both read the same S",
                     # not declared monotone in alpha, beta, d: crossing m = m_o switches the
                     # A_SSPP term off
                     monotone={"eps": -1, "delta": -1},
                     dominates_asymptotic=True),
        ),
        notes=(
            "Each phase runs at (eps/2, beta/2) when both run (errata nb20-thm11-privacy, nb20-thm11-confidence); m_o "
            "= max(printed, ABM19's cover size) (erratum nb20-thm11-m_o).",
            "Regime: for m <= m_o Algorithm 4 answers every query with A_AgPrivCl and never runs A_SSPP; the chain "
            "then counts the first phase only (second_phase = 0; compute prints a regime line), still at (eps/2, "
            "beta/2) since Algorithm 4 splits the budget in step 1 (algorithms.learning.unvprivcl does too). A variant "
            "that gave the single phase the whole (eps, beta) would need Theorem 7's n (about half): not encoded, "
            "stated.",
            "Gap: 'any m < infinity' - for m below Lemma 9's condition (nb20:lemma9 min_queries, corrected; printed 8 "
            "log(1/(alpha beta))/alpha), m' = m is too few queries for Lemma 9, so the first phase's accuracy proof "
            "does not apply; compute says so (OUTSIDE THE REGIME, at gamma = 0 since Theorem 11 takes no approximation "
            "error).",
            "A_SSPP's sizes (NB20 gives none) are ABM19 Theorem 3.1's explicit ones (abm19:thm3.1, called, not "
            "retyped) at (alpha, beta/2, eps/2): cover from Lemma 3.3 at (alpha/2, beta/4), exponential mechanism and "
            "Hoeffding over H~ at beta/8 each.",
            "The asymptotic factor printed as 'sqrt(d alpha log^{1/2}(1/alpha))' is meant as sqrt(d) alpha "
            "log^{1/2}(1/alpha) (the abstract's max(1, sqrt(d) alpha)); the text extraction merged the radical.",
            'The asymptotic factor is max(1, alpha sqrt(d log(1/alpha) + log(1/beta))) (erratum nb20-thm11-log-beta).',
        ),
        errata=('nb20-thm11-privacy', 'nb20-thm11-confidence', 'nb20-thm11-m_o', 'nb20-thm11-log-beta',
                'nb20-alg5-margin', 'nb20-crossover-checked',),
    ),
)


def remark12_n(o, alpha, eps, d, C_12):
    """NB20 Remark 12: BTT18's construction + A_SSPP: Lemma 4's n at m ~ d/alpha queries,
    O~(d/(eps alpha^2) max(1, sqrt(d)))."""
    return lemma4_n(o, alpha, eps, d, d / alpha, C_12)


# The workbench's explicit form of Remark 12 (record nb20-remark12-explicit): Algorithm 4 with A_SubSamp alone in
# its first phase, each phase at (eps/2, beta/2) as Theorem 11 corrected; m_o as Theorem 11's (max(printed, A_SSPP's
# cover)); the first phase at Lemma 4's explicit sizes (bounds nb20:lemma4) on m_o queries; A_SSPP at ABM19 Theorem
# 3.1's n; n = the larger. Guarantee: the first m_o answers average <= alpha + 3 gamma and h_priv's error <= gamma +
# alpha, w.p. >= 1 - beta.
def _r12_min_queries(o, alpha, beta_run, gamma):
    return btt18_min_queries(o, alpha, beta_run, gamma)


def _r12_cutoff(o, alpha, beta_run, gamma, m_o):
    return btt18_cutoff(o, alpha, beta_run, gamma, m_o)


def _r12_k(o, eps_run, delta, beta_run, m_o, T_r12):
    return btt18_k(o, eps_run, delta, beta_run, m_o, T_r12)


def _r12_s_g(o, s_r12, alpha, beta_run, d, k_r12):
    return _btt18_agnostic_g(o, s_r12, alpha, beta_run, d, k_r12)


def _r12_n(o, k_r12, s_r12, n_sspp):
    """max(k s, A_SSPP's n): both phases read the same S."""
    return o.max(k_r12 * s_r12, n_sspp)


_declare(
    Result(
        id="nb20:remark12", paper=PAPER, label="Remark 12", kind="remark",
        index_items=("N19",),
        statement=("Applying A_SSPP to BTT18's A_SubSamp also gives a universal PCQR algorithm, with "
                   "n = O~(d/alpha^2 max(1, sqrt(d))) (eps = Theta(1)): Lemma 4's bound at m_o ~ d/alpha "
                   "queries. Theorem 11 is tighter by a factor ~ alpha when d = omega(1)."),
        source=f"{SOURCE}; Section 4, Remark 12",
        params=("alpha", "beta", "epsilon", "delta", "vc", "approx_error"),
        domain={"epsilon": _UNIT, "delta": _UNIT},
        defaults={"approx_error": 0.0},
        constants={"C_12": "constant and polylog factors hidden in the O~"},
        quantities=(
            Quantity("privacy_eps", "eps_run", "privacy epsilon of each phase: eps/2", explicit=thm11_eps_half,
                     intermediate=True, derivation="basic composition of the two phases on the same S"),
            Quantity("failure_probability", "beta_run", "failure probability of each phase: beta/2",
                     explicit=thm11_beta_half, intermediate=True, derivation="union bound"),
            Quantity("public_samples_printed", "m_o_printed", "Alg 4 as printed: m_o",
                     explicit=alg4_m_o, integer=True, intermediate=True, derivation="Alg 4 step 1"),
            Quantity("cover_samples", "m_cover", "public points A_SSPP needs (as in Theorem 11)",
                     explicit=Implicit("m", _thm11_cover_g, "2 (2em/d)^{2d} e^{-(alpha/2) m/4} <= beta/4",
                                       _thm11_cover_lower),
                     integer=True, intermediate=True, derivation="ABM19 Theorem 3.1 / Lemma 3.3"),
            Quantity("public_samples", "m_o", "m_o used: max(printed, cover)", explicit=thm11_m_o, integer=True,
                     intermediate=True, derivation="as Theorem 11 (erratum nb20-thm11-m_o)"),
            Quantity("min_queries", "m_min", "Lemma 4's explicit regime at beta/2 (m_o must reach it)",
                     explicit=_r12_min_queries, intermediate=True,
                     derivation="bounds nb20:lemma4 min_queries at beta/2 (workbench)"),
            Quantity("cutoff", "T_r12", "first phase's cut-off: Lemma 4's explicit T on m_o queries at beta/2",
                     explicit=_r12_cutoff, intermediate=True, derivation="bounds nb20:lemma4 cutoff (workbench)"),
            Quantity("subsamples", "k_r12", "first phase's k (Algorithm 5 at eps/2, tight lambda)",
                     explicit=_r12_k, integer=True, intermediate=True, derivation="bounds nb20:lemma4 subsamples"),
            Quantity("subsample_size", "s_r12", "first phase's sub-sample size (Lemma 4's, at beta/2)",
                     explicit=Implicit("s_r12", _r12_s_g, "4 (2es/d)^d exp(-s (alpha/12)^2/8) <= beta/(8k)",
                                       _btt18_agnostic_lower),
                     integer=True, intermediate=True, derivation="bounds nb20:lemma4 subsample_size at beta/2"),
            Quantity("log_cover", "logH", "A_SSPP: log |H~_{T_pub}| <= d log(e m_o/d)",
                     explicit=_thm11_log_cover, intermediate=True, derivation="Sauer's lemma (ABM19 Thm 3.1's proof)"),
            Quantity("sspp_samples", "n_sspp", "private samples for A_SSPP at (alpha, beta/2, eps/2)",
                     explicit=_thm11_sspp_n, integer=True, intermediate=True,
                     derivation="ABM19 Theorem 3.1's explicit n_priv at (alpha, beta/2, eps/2)"),
            Quantity("private_samples", "n", "private samples of BTT18 + A_SSPP",
                     asymptotic=remark12_n, order="Otilde", constants=("C_12",), integer=True,
                     explicit=_r12_n, derivation="max(k s, A_SSPP's n): the workbench's explicit form (record "
                     "nb20-remark12-explicit)",
                     monotone={"eps": -1}),
        ),
        notes=("The remark omits eps (it assumes eps = Theta(1)); the 1/eps of Lemma 4 is kept here.",
               "Its error guarantee is Lemma 4's alpha + 3 gamma, not an excess-error guarantee.",
               "Explicit form: the workbench's composition (record nb20-remark12-explicit): Algorithm 4 with A_SubSamp "
               "in its first phase at Lemma 4's explicit sizes on m_o queries (eps/2, beta/2), A_SSPP at ABM19 "
               "Theorem 3.1's n (eps/2, beta/2); needs m_o >= min_queries."),
        errata=("nb20-remark12-explicit",),
    ),
)
