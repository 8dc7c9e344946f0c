"""BCMNUW20: Bassily, Cheu, Moran, Nikolov, Ullman, Wu. Private Query Release Assisted by Public
Data. ICML 2020 (seed 000) and its arXiv version (seed 003). Results in paper order: Claim 3,
Fact 4, Lemma 7, Theorem 10 (and the Remark after it), Lemma 11, Theorems 13, 14, 15, Lemma 17.

Notation: d = VC(H), p = VC-dual(H), n private and m public samples, natural logarithms. Queries
are {+-1}-valued, so errors are on the [-1, 1] scale (Definition 5), twice the [0, 1] scale.

Formulas other modules may call (stable):
- ``lemma11_public_samples_g(o, m, alpha, beta, d)`` and ``lemma11_public_samples_lower(o, alpha, d)``:
  ABM19 Lemma 3.3 (= BCMNUW20 Lemma 11) for an alpha-cover with probability >= 1 - beta;
- ``sauer_log_projection(o, m, d)``, ``claim3_log_domain(o, log_h, p)``;
- ``lemma7_n(o, alpha, beta, eps, delta, num_hypotheses, domain_size)`` and
  ``lemma7_n_logs(o, alpha, beta, eps, delta, log_h, log_x)`` (corrected constants, see errata).
"""
from __future__ import annotations

from ..core import Implicit, Quantity, Relation, Result
from ..params import Interval
from ..references import source
from ..registry import register
# Lemma 7 (PMW's private sample bound and its derivation) lives in its own module
from .bcmnuw20_lemma7 import (  # noqa: F401  (re-exported: stable names)
    LEMMA7_DEPARTURES, LEMMA7_DOMAIN, LEMMA7_ERRATUM, LEMMA7_QUANTITIES, _lemma7_inputs, lemma7_block, lemma7_n,
    lemma7_n_logs, lemma7_n_printed_logs, lemma7_quantities,
)
from .bcmnuw20_lower import LOWER_BOUNDS
from .bcmnuw20_explicit import extend

PAPER = "BCMNUW20"
SOURCE = source("BCMNUW20")  # key, title and venue (bounds.references), never the text's file name

#: Lemma 7 (and everything built on PMW) needs 0 < eps, delta < 1
OPEN01 = Interval(0.0, 1.0)


# --- Claim 3 (representative domain) -------------------------------------------------------------
def claim3_log_domain(o, log_h, p):
    """BCMNUW20 Claim 3: log|X_H~| <= p' log(e|H~|/p') with p' = VC-dual(H~), plus |X_H~| <= 2^|H~|.

    Sauer-Shelah on the dual class (ground set H~, one pattern per representative). Takes
    log|H~| so that |H~| never has to be formed. ``p`` may be any upper bound on VC-dual(H~)
    (e.g. VC-dual(H) >= VC-dual(H~) for H~ subset of H): k log(eN/k) increases in k for k <= N,
    and VC-dual(H~) <= |H~|, so k = min(p, |H~|) keeps the bound valid when p > |H~|.
    """
    size_h = o.exp(log_h)
    k = o.min(p, size_h)
    return o.min(k * (1 + log_h - o.log(k)), size_h * o.log(2))


def claim3_log_domain_of_size(o, num_hypotheses, p):
    """BCMNUW20 Claim 3 for a class of known size |H~| = num_hypotheses."""
    return claim3_log_domain(o, o.log(num_hypotheses), p)


# --- Fact 4 (Assouad) ----------------------------------------------------------------------------
def fact4_max_dual_vc(o, d):
    """BCMNUW20 Fact 4 (Assouad 1983): VC-dual(H) < 2^(VC(H)+1), so p <= 2^(d+1) - 1."""
    return 2 ** (d + 1) - 1


#: Fact 4 as a condition on the inputs: no class has p >= 2^(d+1) (checked by bounds, so an
#: impossible --vc / --dual-vc pair is an error, not a number)
ASSOUAD = Relation("BCMNUW20 Fact 4 (Assouad 1983): the dual VC dimension p < 2^(d+1)",
                   lambda o, d, p: p < 2 ** (d + 1))


# --- Lemma 11 = ABM19 Lemma 3.3 (the public cover) ------------------------------------------------
def lemma11_public_samples_g(o, m, alpha, beta, d):
    """ABM19 Lemma 3.3 (= BCMNUW20 Lemma 11) in log form, for an alpha-cover w.p. >= 1 - beta.

    g(m) = log(2 (2em/d)^(2d) e^(-alpha m/4) / beta): the family H~ (one h per pattern on the m
    public points) fails to be an alpha-cover of a class of VC dimension d with probability at
    most 2 G_{H Delta}(2m) e^{-alpha m/4} <= 2 (2em/d)^{2d} e^{-alpha m/4} (double sample,
    Sauer). g(m) <= 0 means failure probability <= beta. Non-increasing in m from
    ``lemma11_public_samples_lower`` on. BCMNUW20 Lemma 11 calls it at (alpha/4, beta/2).
    """
    return o.log(2) + 2 * d * (1 + o.log(2 * m / d)) - alpha * m / 4 - o.log(beta)


def lemma11_public_samples_lower(o, alpha, d):
    """ABM19 Lemma 3.3: m = 8d/alpha, where d/dm g = 2d/m - alpha/4 turns <= 0.

    No m in [d/2, 8d/alpha) solves g <= 0 (there 2d log(2em/d) >= 2d >= alpha m/4); below d/2
    g is not a bound at all (Sauer needs 2m >= d; e.g. d = 100, m = 1 gives g < 0), and from
    8d/alpha on the proof's side conditions hold: m >= 8/alpha (double sample) and 2m >= d.
    """
    return 8 * d / alpha


def lemma11_g(o, m, alpha, beta, d):
    """BCMNUW20 Lemma 11: H~ is an alpha/4-cover w.p. >= 1 - beta/2 (ABM19 Lemma 3.3 there)."""
    return lemma11_public_samples_g(o, m, alpha / 4, beta / 2, d)


def lemma11_lower(o, alpha, d):
    return lemma11_public_samples_lower(o, alpha / 4, d)


def lemma11_m_asymptotic(o, alpha, beta, d, C_11):
    return C_11 * (d * o.log(1 / alpha) + o.log(1 / beta)) / alpha


LEMMA11_DERIVATION = (
    "ABM19 Lemma 3.3, inequality (1), at cover accuracy alpha/4 and failure beta/2: the least "
    "integer m >= 32d/alpha with log 2 + 2d log(2em/d) - (alpha/4) m/4 <= log(beta/2), i.e. "
    "2 (2em/d)^{2d} e^{-alpha m/16} <= beta/2. An alpha/4-cover gives |E h - E h~| <= "
    "2 P[h != h~] <= alpha/2 for {+-1}-valued h, as Theorem 10's proof uses.")


# --- Sauer's lemma on the projection -------------------------------------------------------------
def sauer_log_projection(o, m, d):
    """BCMNUW20 Thm 10 (proof), Sauer-Shelah: log|Pi_H(T)| for the m_hat <= m distinct public points.

    |H~| = |Pi_H(T)| <= Phi_d(m_hat) <= Phi_d(m) <= min(2^m, (em/d)^d); the second bound needs
    m >= d, so with d' = min(d, m) the (e m/d')^{d'} term is (e)^m >= 2^m when m < d and the
    minimum is 2^m there.
    """
    k = o.min(d, m)
    return o.min(m * o.log(2), k * (1 + o.log(m) - o.log(k)))


# --- Theorem 10 (A_PAP) --------------------------------------------------------------------------
def thm10_n(o, alpha, beta, eps, delta, log_h, log_x):
    """BCMNUW20 Theorem 10: PMW (Lemma 7, corrected) on (X~, H~) at (alpha/2, beta/2)."""
    return lemma7_n_logs(o, alpha / 2, beta / 2, eps, delta, log_h, log_x)


def thm10_n_asymptotic(o, alpha, beta, eps, delta, d, p, C_10n):
    return C_10n * (d * o.log(1 / alpha) + o.log(1 / beta)) ** o.frac(3, 2) * o.sqrt(
        p * o.log(1 / delta)) / (eps * alpha**2)


def thm10_m_asymptotic(o, alpha, beta, d, C_10m):
    return C_10m * (d * o.log(1 / alpha) + o.log(1 / beta)) / alpha


def remark10_n_asymptotic(o, alpha, beta, eps, delta, d, C_10r):
    return C_10r * (d * o.log(1 / alpha) + o.log(1 / beta)) ** o.frac(3, 2) * o.sqrt(
        2**d * o.log(1 / delta)) / (eps * alpha**2)


def _thm10_chain(dual_symbol_note: str, n_asymptotic, n_constant: str, n_scaling, p_arg: bool):
    """The quantities of Theorem 10's proof: m (Lemma 11) -> log|H~| (Sauer) -> log|X~| (Claim 3)
    -> n (Lemma 7 at alpha/2, beta/2)."""
    return (
        Quantity(
            name="public_samples", symbol="m",
            description="public samples: H~ is an alpha/4-cover w.p. >= 1 - beta/2 (Lemma 11)",
            asymptotic=thm10_m_asymptotic, order="O", constants=("C_10m",),
            explicit=Implicit("m", lemma11_g,
                              "2 (2em/d)^{2d} e^{-(alpha/4) m/4} <= beta/2 (Lemma 11 = ABM19 "
                              "Lemma 3.3 at alpha/4, beta/2)", lemma11_lower),
            integer=True, derivation=LEMMA11_DERIVATION,
            monotone={"alpha": -1, "beta": -1, "d": +1},
            dominates_asymptotic=True,
            scaling=(("alpha", "0"), ("beta", "0"), ("d", "inf")),
        ),
        Quantity(
            name="log_cover_size", symbol="log_h", intermediate=True,
            description="log|H~| (nats), H~ = one hypothesis per pattern on the public points",
            explicit=sauer_log_projection, order="exact",
            derivation=("Sauer-Shelah on the m_hat <= m distinct public points: log|H~| <= "
                        "min(m log 2, d log(em/d)) (the second only when m >= d)."),
            monotone={"alpha": -1, "beta": -1, "d": +1},
        ),
        Quantity(
            name="log_domain_size", symbol="log_x", intermediate=True,
            description="log|X~| (nats), X~ = representative domain of H~ (Definition 2)",
            explicit=claim3_log_domain, order="exact",
            derivation=("Claim 3 with VC-dual(H~) <= " + dual_symbol_note + ": log|X~| <= "
                        "k (1 + log|H~| - log k), k = min(p, |H~|), and <= |H~| log 2."),
            monotone={"alpha": -1, "beta": -1, "d": +1, **({"p": +1} if p_arg else {})},
        ),
    ) + _lemma7_inputs(True) + lemma7_block(
        n_description="private samples: PMW on (X~, H~) has error <= alpha/2 w.p. >= 1 - beta/2",
        n_asymptotic=n_asymptotic, n_constants=(n_constant,),
        n_monotone={"alpha": -1, "beta": -1, "eps": -1, "delta": -1, "d": +1,
                    **({"p": +1} if p_arg else {})},
        n_scaling=n_scaling, dominates=False,
        n_derivation_prefix=("Lemma 7 (corrected, budgets optimised) at (alpha/2, beta/2) with the "
                             "log|H~| and log|X~| above; total error alpha/2 (cover) + alpha/2 (PMW), "
                             "failure beta/2 + beta/2. "))


THM10_NOTES = (
    "Lemma 7's errata apply (erratum bcmnuw20-lemma7-constants, erratum bcmnuw20-lemma7-tight): the corrected "
    "Lemma 7 is used here at (alpha/2, beta/2). private_samples_fixed_split is the same derivation at the 3:1 "
    "split algorithms.query_release.pmw runs (alpha_mw = alpha/8; erratum bcmnuw20-lemma7-in-bounds): a run of "
    "that PMW is proven at that size, the optimised n assumes PMW at alpha_mw = mw_accuracy.",
    "Lemma 11's m is Omega(.), not O(.) (erratum bcmnuw20-lemma11-O-vs-Omega); the explicit m solves ABM19's tail "
    "inequality exactly.",
    "Sauer's bound on |H~| and Claim 3 as applied: erratum bcmnuw20-thm10-sauer-checked. The O-form's hidden "
    "log p and its looseness in beta: erratum bcmnuw20-thm10-o-form-checked.",
)



register(
    Result(
        id="bcmnuw20:claim3",
        index_items=("B3",),
        errata=('bcmnuw20-claim3-checked',),
        paper=PAPER,
        label="Claim 3",
        kind="claim",
        statement=("For a finite class H~, any representative domain X_H~ (Definition 2) has "
                   "|X_H~| <= (e|H~|/VC-dual(H~))^{VC-dual(H~)} (Sauer-Shelah on the dual class)."),
        source=f"{SOURCE}; Section 2.1, Claim 3",
        params=("num_hypotheses", "dual_vc"),
        quantities=(
            Quantity(
                name="log_domain_size", symbol="log_x",
                description="log of the representative-domain size bound (nats)",
                explicit=claim3_log_domain_of_size,
                order="exact",
                derivation=("log|X_H~| <= k (1 + log|H~| - log k), k = min(p, |H~|) (Claim 3; "
                            "VC-dual(H~) <= |H~| always, and the bound increases in k <= |H~|), "
                            "and <= |H~| log 2 (one representative per sign vector)."),
                monotone={"num_hypotheses": +1, "p": +1},
            ),
        ),
        notes=("Claim 3 is stated with VC-dual(H~); --dual-vc may be any upper bound on it, e.g. "
               "VC-dual(H) for H~ a subset of H (the bound increases in the dimension while it "
               "is <= |H~|).",
               "Only the logarithm is computed: the size itself is doubly exponential in the "
               "inputs of Theorem 10 (10^(10^600) at d = 2000) and its log10 leaves float range; "
               "the log10 column of log_domain_size gives its number of digits.",),
    ),
    Result(
        id="bcmnuw20:fact4",
        index_items=("B4",),
        paper=PAPER,
        label="Fact 4",
        kind="fact",
        statement="(Assouad 1983) The dual VC dimension satisfies VC-dual(H) < 2^(VC(H)+1).",
        source=f"{SOURCE}; Section 2.1, Fact 4",
        params=("vc",),
        quantities=(
            Quantity(
                name="max_dual_vc", symbol="p_max",
                description="the largest dual VC dimension a class of VC dimension d can have",
                explicit=fact4_max_dual_vc, order="exact", integer=True,
                derivation="p < 2^(d+1), so p <= 2^(d+1) - 1",
                monotone={"d": +1},
            ),
        ),
    ),
    Result(
        id="bcmnuw20:lemma7",
        index_items=("B8",),
        paper=PAPER,
        label="Lemma 7",
        kind="lemma",
        statement=("PMW (offline, over a finite domain X~ and finite query class H~) is "
                   "(eps, delta)-DP for 0 < eps, delta < 1, and with n i.i.d. samples from any "
                   "distribution over X~ its output has error at most alpha (on the [-1, 1] "
                   "scale) with probability at least 1 - beta (corollary of Dwork & Roth 2014, "
                   "Theorem 4.15, plus uniform convergence)."),
        source=f"{SOURCE}; Section 2.2, Lemma 7",
        params=("alpha", "beta", "epsilon", "delta", "num_hypotheses", "domain_size"),
        domain=LEMMA7_DOMAIN,
        constants={"C_7": "the constant of the O-form (the paper states Lemma 7 explicitly only)"},
        quantities=(
            *LEMMA7_QUANTITIES,
        ),
        departures=LEMMA7_DEPARTURES,
        notes=(LEMMA7_ERRATUM,
               "The paper gives no O-form for Lemma 7; the one shown, sqrt(log|X~| log(1/delta)) "
               "(log|H~| + log(1 + log|X~|/(alpha^2 beta)))/(eps alpha^2), has the same order."),
    ),
    Result(
        id="bcmnuw20:thm10",
        index_items=("B13",),
        errata=('bcmnuw20-lemma7-constants', 'bcmnuw20-lemma7-in-bounds', 'bcmnuw20-lemma7-tight',
                'bcmnuw20-lemma11-O-vs-Omega', 'bcmnuw20-thm10-small-alpha', 'bcmnuw20-thm10-sauer-checked',
                'bcmnuw20-thm10-o-form-checked'),
        paper=PAPER,
        label="Theorem 10",
        kind="upper bound",
        statement=("A_PAP (Algorithm 3: public cover H~, representative domain X~, PMW at "
                   "(alpha/2, beta/2)) is an (alpha, beta, eps, delta) PAP query-release algorithm "
                   "for H with n = O((d log(1/alpha) + log(1/beta))^{3/2} sqrt(p log(1/delta))/"
                   "(eps alpha^2)) private and m = O((d log(1/alpha) + log(1/beta))/alpha) public "
                   "samples, d = VC(H), p = VC-dual(H)."),
        source=f"{SOURCE}; Section 3, Theorem 10, Algorithm 3 and the proof of Theorem 10",
        params=("alpha", "beta", "epsilon", "delta", "vc", "dual_vc"),
        domain={"epsilon": OPEN01, "delta": OPEN01},
        relations=(ASSOUAD,),
        constants={"C_10n": "constant of Theorem 10's O for n",
                   "C_10m": "constant of Theorem 10's O for m"},
        quantities=_thm10_chain("VC-dual(H) = p", thm10_n_asymptotic, "C_10n",
                                (("alpha", "0"), ("eps", "0"), ("delta", "0"), ("d", "inf")), True),
        departures=LEMMA7_DEPARTURES,
        notes=THM10_NOTES,
    ),
    Result(
        id="bcmnuw20:remark10",
        index_items=("B14",),
        errata=('bcmnuw20-remark10-dual-vc', 'bcmnuw20-lemma7-constants', 'bcmnuw20-lemma7-tight',
                'bcmnuw20-lemma11-O-vs-Omega'),
        paper=PAPER,
        label="Remark after Theorem 10",
        kind="remark",
        statement=("By Fact 4 (p < 2^(d+1)), for any class of VC dimension d: n = O((d log(1/alpha) "
                   "+ log(1/beta))^{3/2} sqrt(2^d log(1/delta))/(eps alpha^2)), m as in Theorem 10."),
        source=f"{SOURCE}; Section 3, Remark after Theorem 10",
        params=("alpha", "beta", "epsilon", "delta", "vc"),
        domain={"epsilon": OPEN01, "delta": OPEN01},
        constants={"C_10r": "constant of the Remark's O for n",
                   "C_10m": "constant of Theorem 10's O for m"},
        quantities=(
            Quantity(
                name="max_dual_vc", symbol="p", intermediate=True,
                description="Fact 4: the dual VC dimension is at most 2^(d+1) - 1",
                explicit=fact4_max_dual_vc, order="exact", integer=True,
                derivation="Fact 4: p < 2^(d+1)", monotone={"d": +1},
            ),
        ) + _thm10_chain("2^(d+1) - 1 (Fact 4)", remark10_n_asymptotic, "C_10r",
                         (("alpha", "0"), ("eps", "0"), ("delta", "0")), False),
        notes=("The Remark prints sqrt(2^d); Fact 4 gives p <= 2^(d+1) - 1 < 2 * 2^d, so the "
               "explicit chain uses 2^(d+1) - 1 (a factor <= sqrt 2 inside the O).",) + THM10_NOTES,
        departures=LEMMA7_DEPARTURES,
    ),
    Result(
        id="bcmnuw20:lemma11",
        index_items=("B15",),
        errata=('bcmnuw20-lemma11-O-vs-Omega', 'bcmnuw20-lemma11-checked'),
        paper=PAPER,
        label="Lemma 11",
        kind="lemma",
        statement=("(ABM19 Lemma 3.3) With w ~ D^m, w.p. >= 1 - beta/2 the family H~ of "
                   "Algorithm 3 is an alpha/4-cover of H w.r.t. D (P[h != Project(h)] <= alpha/4 "
                   "for every h in H), as long as m = Omega((d log(1/alpha) + log(1/beta))/alpha)."),
        source=(f"{SOURCE}; Section 3, Lemma 11; ABM19 Lemma 3.3, "
                "inequality (1) and its proof"),
        params=("alpha", "beta", "vc"),
        constants={"C_11": "constant of Lemma 11's sample size"},
        quantities=(
            Quantity(
                name="public_samples", symbol="m",
                description="public samples for an alpha/4-cover w.p. >= 1 - beta/2",
                asymptotic=lemma11_m_asymptotic, order="O", constants=("C_11",),
                explicit=Implicit("m", lemma11_g,
                                  "2 (2em/d)^{2d} e^{-(alpha/4) m/4} <= beta/2", lemma11_lower),
                integer=True, derivation=LEMMA11_DERIVATION,
                monotone={"alpha": -1, "beta": -1, "d": +1},
                dominates_asymptotic=True,
                scaling=(("alpha", "0"), ("beta", "0"), ("d", "inf")),
            ),
        ),
        notes=(THM10_NOTES[1],
               "Checked (ABM19 proof): the double-sample bound 2 G(2m) e^{-alpha m/4} is weaker "
               "than the textbook 2 G(2m) 2^{-alpha m/2} (ln 2/2 > 1/4), so inequality (1) holds; "
               "it needs m >= 8/alpha, ensured by solving from m >= 8d/alpha (here 32d/alpha)."),
    ),
    *extend(*LOWER_BOUNDS),  # bcmnuw20_explicit adds the explicit forms of Theorems 13-15 and Lemma 17
)


def remark9_rows(o, alpha, d):
    """Remark 9: the least integer n' > VC(H)/alpha^2."""
    return o.floor(d / alpha**2) + 1


def remark9_error(o, alpha):
    """Remark 9: the data set's answers are within 2 alpha of G (|avg_v h - G(h)| <= 2 alpha for every h)."""
    return 2 * alpha


def remark9_error_to_d(o, alpha):
    """Remark 9's triangle inequality: within 2 alpha of G, which is within alpha of D: 3 alpha of D."""
    return 3 * alpha


register(Result(
    id="bcmnuw20:remark9",
    index_items=("B11",),
    paper=PAPER,
    label="Remark 9",
    kind="remark",
    statement=("(after Beimel-Nissim-Stemmer 2013, Remark 2.18) A PAP release G with Err_{D,H}(G) <= alpha can be "
               "turned, ignoring computation, into a synthetic data set v of n' > VC(H)/alpha^2 rows with "
               "|(1/n') sum_i h(v_i) - G(h)| <= 2 alpha for every h in H (such a v exists: a sample of D^n' is within "
               "alpha of D on all of H with non-zero probability), hence within 3 alpha of D."),
    source=f"{SOURCE}; Section 2, Remark 9 (after Definition 8)",
    params=("alpha", "vc"),
    quantities=(
        Quantity(name="synthetic_rows", symbol="n'", description="rows of the synthetic data set",
                 explicit=remark9_rows, order="exact", integer=True, derivation=remark9_rows.__doc__,
                 monotone={"alpha": -1, "d": +1}),
        Quantity(name="error", symbol="err_G", description="largest |avg_v h - G(h)| over H",
                 explicit=remark9_error, order="exact", derivation=remark9_error.__doc__, monotone={"alpha": +1}),
        Quantity(name="error_to_d", symbol="err_D", description="largest |avg_v h - E_D h| over H",
                 explicit=remark9_error_to_d, order="exact", derivation=remark9_error_to_d.__doc__,
                 monotone={"alpha": +1}),
    ),
    notes=("Existence only: the Remark gives no algorithm. simulations/experiments/remark9.py converts A_PAP's G by "
           "a linear program (the law on the domain closest to G) and the best of several roundings to n' rows.",),
))
