"""BCMNUW20 lower bounds: Theorem 13 (decision stumps), Theorem 14 (robust tracing), Theorem 15
(public samples) and Lemma 17 (query release implies learning). Registered by
:mod:`bounds.papers.bcmnuw20` after its upper bounds, in paper order."""
from __future__ import annotations

from ..core import Quantity, Result
from ..references import source

PAPER = "BCMNUW20"
SOURCE = source("BCMNUW20")


# --- Theorems 13, 14 (decision stumps, robust tracing) ------------------------------------------
def thm14_r(o, alpha, p, C_14r):
    """BCMNUW20 Theorem 14 (Dwork et al. 2015, Thm 17): r = Omega~(sqrt(p)/alpha), constant C_14r."""
    return C_14r * o.sqrt(p) / alpha


def thm14_t(o, alpha, C_14t):
    """BCMNUW20 Theorem 14: t = Omega(1/alpha^2), constant C_14t."""
    return C_14t / alpha**2


def thm14_failure(o, r, t):
    """BCMNUW20 Theorem 14: each of the attack's two guarantees fails w.p. <= 1/(r+t)^2."""
    return 1 / (r + t) ** 2


def thm13_m(o, alpha, C_14t):
    """BCMNUW20 Theorem 13 (proof): the alternative m >= t/2, t from Theorem 14."""
    return thm14_t(o, alpha, C_14t) / 2


# --- Theorem 15, Lemma 17 ------------------------------------------------------------------------
def thm15_m(o, alpha, C_15):
    return C_15 / alpha


def lemma17_n(o, alpha, beta, n, C_17):
    return C_17 * n * o.log(1 / (alpha * beta)) / (alpha**2 * beta)


def lemma17_m(o, m):
    """BCMNUW20 Lemma 17: the reduction hands the public data set over unchanged."""
    return m


THM14_CONSTANTS = {
    "C_14r": "Theorem 14's r = Omega~(sqrt(p)/alpha): constant and polylog factors (not in the "
             "papers; Dwork et al. 2015 Thm 17)",
    "C_14t": "Theorem 14's t = Omega(1/alpha^2): its constant (not in the papers)",
}

THM14_ICML_NOTE = ("Versions differ: the ICML text has '>= 2t' where the arXiv version has '>= t/2' "
                   "(the right one; erratum bcmnuw20-thm14-2t).")


#: the privacy regimes the proofs cover (errata bcmnuw20-thm13-regime, bcmnuw20-thm15-regime)
THM13_REGIME = "stated and proven for (1, 1/(4n))-DP algorithms (so for every eps <= 1, delta <= 1/(4n))"
THM15_REGIME = ("proven for eps at most 0.1 over Lemma 17's constant, delta <= 1/(100 n'^2 log n') and n' >= 4, n' "
                "Lemma 17's private sample size (ABM19 Theorem 4.3's regime, Theorem 4.1's n~ >= 4; erratum "
                "bcmnuw20-thm15-regime)")

LOWER_BOUNDS: tuple[Result, ...] = (
    Result(
        id="bcmnuw20:thm13",
        index_items=("B17",),
        regime=lambda v: [(False, THM13_REGIME)],
        paper=PAPER,
        label="Theorem 13",
        kind="lower bound",
        statement=("Decision stumps S_p on {+-1}^p (VC dimension floor(log2 p), dual VC dimension "
                   "p): any PAP algorithm that is (1, 1/(4n))-DP and (alpha, alpha)-accurate for "
                   "S_p has n = Omega~(sqrt(p)/alpha) private samples or m = Omega(1/alpha^2) "
                   "public ones; the proof gives n > r or m >= t/2 with r, t from Theorem 14."),
        source=f"{SOURCE}; Section 4, Theorem 13 and its proof",
        params=("alpha", "dual_vc"),
        constants=THM14_CONSTANTS,
        quantities=(
            Quantity(
                name="private_samples", symbol="n_min",
                description="private samples needed unless m >= t/2 (n > r of Theorem 14)",
                asymptotic=thm14_r, order="Omegatilde", constants=("C_14r",),
                monotone={"alpha": -1, "p": +1},
            ),
            Quantity(
                name="public_samples", symbol="m_min",
                description="public samples that make the private lower bound disappear (t/2)",
                asymptotic=thm13_m, order="Omega", constants=("C_14t",),
                monotone={"alpha": -1},
            ),
        ),
        notes=(
            "The proof's Markov display has (m - 1) for (m + 1), without effect (erratum bcmnuw20-thm13-m-1); "
            "its dichotomy is proven for n >= 11 only (erratum bcmnuw20-thm13-small-n).",
            THM14_ICML_NOTE,
            "r and t are not pinned down in either version (Omega~, Omega from Dwork et al. "
            "2015): values hold up to the constants C_14r, C_14t set by --const (default 1).",
        ),
        errata=('bcmnuw20-thm13-m-1', 'bcmnuw20-thm13-case-split', 'bcmnuw20-thm13-small-n', 'bcmnuw20-thm14-2t',
                'bcmnuw20-lower-constants',),
    ),
    Result(
        id="bcmnuw20:thm14",
        index_items=("B18",),
        paper=PAPER,
        label="Theorem 14",
        kind="theorem",
        statement=("(Dwork et al. 2015, Thm 17, special case) For every p and alpha there are "
                   "r = Omega~(sqrt(p)/alpha) and t = Omega(1/alpha^2) such that for every "
                   "(alpha, alpha)-accurate query-release algorithm for S_p with s in [t, r + t] "
                   "samples there are a distribution and an attacker T that says OUT on a fresh "
                   "sample w.p. >= 1 - 1/(r+t)^2 and IN on >= t/2 of the s samples w.p. >= "
                   "1 - 1/(r+t)^2."),
        source=f"{SOURCE}; Section 4, Theorem 14",
        params=("alpha", "dual_vc"),
        constants=THM14_CONSTANTS,
        quantities=(
            Quantity(
                name="range_r", symbol="r",
                description="the attack works for total sample sizes up to r + t",
                asymptotic=thm14_r, order="Omegatilde", constants=("C_14r",),
                monotone={"alpha": -1, "p": +1},
            ),
            Quantity(
                name="traced_t", symbol="t",
                description="the attacker identifies at least t/2 of the samples",
                asymptotic=thm14_t, order="Omega", constants=("C_14t",),
                monotone={"alpha": -1},
            ),
            Quantity(
                name="failure_probability", symbol="fail",
                description="each guarantee of the attacker fails w.p. at most 1/(r+t)^2",
                asymptotic=thm14_failure, order="exact", constants=("C_14r", "C_14t"),
                monotone={"alpha": +1, "p": -1},
            ),
        ),
        notes=(THM14_ICML_NOTE,
               "Omega~ and Omega constants are not given in either version: every value holds "
               "up to C_14r and C_14t (--const C_14r=..., default 1)."),
        errata=('bcmnuw20-thm14-2t', 'bcmnuw20-lower-constants',),
    ),
    Result(
        id="bcmnuw20:thm15",
        index_items=("B19",),
        regime=lambda v: [(False, THM15_REGIME)],
        paper=PAPER,
        label="Theorem 15",
        kind="lower bound",
        statement=("Any PAP query-release algorithm for a class of infinite Littlestone dimension "
                   "(e.g. thresholds over R) needs m = Omega(1/alpha) public samples, however "
                   "many private samples it has (Lemma 17 + ABM19 Theorem 4.1)."),
        source=f"{SOURCE}; Section 5, Theorem 15, Lemmas 17 and 18",
        params=("alpha",),
        constants={"C_15": "constant of Theorem 15's Omega: 1/(1600 c) if Lemma 17's learner has "
                           "excess error c alpha (ABM19 Thm 4.1 gives m > 1/(1600 alpha') for "
                           "learners); c is not pinned down (Beimel et al. 2013 Thm 5.5)"},
        quantities=(
            Quantity(
                name="public_samples", symbol="m_min",
                description="public samples any PAP query-release algorithm needs",
                asymptotic=thm15_m, order="Omega", constants=("C_15",),
                monotone={"alpha": -1},
            ),
        ),
        notes=("Not explicit: Lemma 17's accuracy blow-up O(alpha) has no stated constant.",),
    ),
    Result(
        id="bcmnuw20:lemma17",
        index_items=("B21",),
        paper=PAPER,
        label="Lemma 17",
        kind="lemma",
        statement=("(General version of Beimel et al. 2013, Thm 5.5) An (alpha, beta, eps, delta) "
                   "PAP query-release algorithm for H with n private and m public samples gives an "
                   "(O(alpha), O(beta), O(eps), O(delta)) PAP learner for H with n' = "
                   "O(n log(1/(alpha beta))/(alpha^2 beta)) private and m public samples."),
        source=f"{SOURCE}; Section 5, Lemma 17",
        params=("alpha", "beta", "private_samples", "public_samples"),
        constants={"C_17": "constant of Lemma 17's O for n'"},
        quantities=(
            Quantity(
                name="learner_private_samples", symbol="n_learn",
                description="private samples of the PAP learner the reduction builds",
                asymptotic=lemma17_n, order="O", constants=("C_17",),
                monotone={"alpha": -1, "beta": -1, "n": +1},
            ),
            Quantity(
                name="learner_public_samples", symbol="m_learn",
                description="public samples of the learner: the same m",
                explicit=lemma17_m, order="exact", integer=True,
                derivation="the reduction passes the public data set on unchanged",
                monotone={"m": +1},
            ),
        ),
    ),
)
