"""Checks of numbered results that are statements about formulas (BCMNUW20's remark after Theorem 10, NB20 Theorem
11's corollary, NB20's related-work comparison and its gain factor): each takes the formulas from :mod:`bounds`
and decides the statement as printed, with a perturbed twin that must fail."""
from __future__ import annotations

from bounds.papers.bcmnuw20 import remark10_n_asymptotic, thm10_n_asymptotic
from bounds.papers.nb20.unvprivcl import alg4_m_o

from .core import Check, Identity, Inequality, Var, register

SEEDS_B = "000_f1b0431f359f12a2.txt and 003_95100840c5f51bc1.txt"
SEED_N = "004_d21f3e9c5d64269f.txt"

# --- BCMNUW20, the remark after Theorem 10: Theorem 10 with p <= 2^(d+1) - 1 (Fact 4) substituted ---------------

_T10 = (Var("alpha", 1e-6, 0.5), Var("beta", 1e-9, 0.5), Var("eps", 1e-3, 1.0), Var("delta", 1e-12, 0.5),
        Var("d", 1, 40, integer=True), Var("p", 1, 2**41, integer=True))


def _ratio_t10(o, alpha, beta, eps, delta, d, p):
    """Theorem 10's n over the Remark's n (constants 1): everything but sqrt(p) against sqrt(2^d) cancels."""
    return thm10_n_asymptotic(o, alpha, beta, eps, delta, d, p, 1) / remark10_n_asymptotic(o, alpha, beta, eps, delta,
        d, 1)


def remark10_ratio_claim(text: str, rhs) -> Identity:
    return Identity(text, _ratio_t10, rhs, _T10)


#: the change of variables p = u (2^(d+1) - 1), u in (0, 1]: Fact 4's whole range of p for each d, as a box
_FACT4 = (Var("d", 1, 60, integer=True, log=False), Var("u", 2.0**-62, 1.0))


def remark10_factor_claim(K2: int, text: str) -> Inequality:
    """sqrt(p / 2^d) <= sqrt(K2) for every p <= 2^(d+1) - 1 (p = u (2^(d+1) - 1), 0 < u <= 1)."""
    return Inequality(text, lambda o, d, u: o.sqrt(u * (2 ** (d + 1) - 1) / 2**d), lambda o, d, u: o.sqrt(K2 + 0 * u),
                      _FACT4)


# --- NB20 Theorem 11's corollary: alpha <= 1/sqrt(d) => n = O~(d/(eps alpha^2)) -------------------------------------

_C11 = (Var("alpha", 1e-8, 1.0), Var("beta", 1e-300, 0.999), Var("d", 1, 10**6, integer=True))


def thm11_cost_factor(o, alpha, beta, d):
    """Theorem 11's factor over d/(eps alpha^2), as the proof gives it: max(1, sqrt(m_o) alpha^{3/2}) (A_AgPrivCl on
    m_o = 32 (d log(1/alpha) + log(1/beta))/alpha queries; the printed max(1, sqrt(d) alpha log^{1/2}(1/alpha)) drops
    log(1/beta), erratum nb20-thm11-log-beta)."""
    return o.max(1, o.sqrt(alg4_m_o(o, alpha, beta, d)) * alpha ** o.frac(3, 2))


#: the corollary's box in w = alpha sqrt(d) and v = log(1/beta) / min(d log(1/alpha), 691): its conditions alpha <=
#: 1/sqrt(d) and log(1/beta) <= d log(1/alpha) are w <= 1 and v <= 1, faces of the box instead of curves across it
#: (which no box straddling them can settle). w in [1e-8, 1], v in [0, 1], d in [1, 10^6] reach every alpha in [1e-8,
#: 1/sqrt(d)] and every beta in [1e-300, 1) meeting the condition (e^-691 < 1e-300), and more: as strong or stronger
_C11W = (Var("w", 1e-8, 1.0), Var("v", 0.0, 1.0, log=False), Var("d", 1, 10**6, integer=True))


def _at_wv(fn, beta_condition: bool):
    def at(o, w, v, d):
        alpha = w / o.sqrt(d)
        cap = o.min(d * o.log(1 / alpha), 691) if beta_condition else 691 + 0 * w
        return fn(o, alpha, o.exp(-v * cap), d)
    return at


def corollary_claim(bound, beta_condition: bool, text: str) -> Inequality:
    """The corollary on the box of w = alpha sqrt(d) <= 1 and v <= 1 (with ``beta_condition``: log(1/beta) = v min(d
    log(1/alpha), 691) <= d log(1/alpha); without it log(1/beta) = 691 v, any beta >= e^-691)."""
    return Inequality(text, _at_wv(thm11_cost_factor, beta_condition), _at_wv(bound, beta_condition), _C11W)


def _polylog(o, alpha, beta, d):
    """sqrt(64 log(1/alpha)) + 1: a polylog in 1/alpha, what O~ may hide."""
    return o.sqrt(64 * o.log(1 / alpha)) + 1


# --- NB20 related work: BTT18's private sample size and the gain factor ------------------------------------------

_GAIN = (Var("alpha", 1e-6, 0.999), Var("m", 1, 1e15))


def btt18_factor(o, alpha, m):
    """NB20 Section 1, related work: BTT18 (Theorem 3.5) needs ~ VC/alpha^2 * max(1, sqrt(m alpha)) private samples."""
    return o.max(1, o.sqrt(m * alpha))


def thm7_factor(o, alpha, m):
    """NB20 Theorem 7's factor max(1, sqrt(m) alpha^{3/2}) over its leading term, as bounds' form carries it
    (:func:`bounds.papers.nb20.thm7.thm7_n_asymptotic`, last factor)."""
    return o.max(1, o.sqrt(m) * alpha ** o.frac(3, 2))


def gain_claim(rhs, text: str) -> Identity:
    """The gain factor the paper prints: BTT18's factor over Theorem 7's = max(1, min(sqrt(m alpha), 1/alpha))."""
    return Identity(text, lambda o, alpha, m: btt18_factor(o, alpha, m) / thm7_factor(o, alpha, m), rhs, _GAIN)


def _gain_printed(o, alpha, m):
    return o.max(1, o.min(o.sqrt(m * alpha), 1 / alpha))


register(
    Check(
        id="bcmnuw20:remark10.fact4-ratio", paper="BCMNUW20", result="remark10",
        claim="Remark after Theorem 10: Theorem 10's n over the Remark's n is sqrt(p/2^d) (all other factors equal)",
        source=f"{SEEDS_B}; Theorem 10 and the Remark after it (via Fact 4)", method="symbolic",
        stated=remark10_ratio_claim("n_10(p)/n_remark = sqrt(p/2^d)", lambda o, alpha, beta, eps, delta, d, p:
                                    o.sqrt(p / 2**d)),
        perturbed={"p/2^d": remark10_ratio_claim("n_10(p)/n_remark = p/2^d", lambda o, alpha, beta, eps, delta, d, p:
                                                 p / 2**d)},
        formula_from="bounds.papers.bcmnuw20.thm10_n_asymptotic, remark10_n_asymptotic",
    ),
    Check(
        id="bcmnuw20:remark10.fact4-factor", paper="BCMNUW20", result="remark10",
        claim=("Remark after Theorem 10: for every p <= 2^(d+1) - 1 (Fact 4), sqrt(p/2^d) <= sqrt(2), so Theorem 10's "
               "n "
               "is at most sqrt(2) times the Remark's (inside its O; with factor 1 it fails just below 2^(d+1))"),
        source=f"{SEEDS_B}; the Remark after Theorem 10, Fact 4", method="numeric grid + hypothesis",
        stated=remark10_factor_claim(2, "sqrt(p/2^d) <= sqrt(2) on p = u (2^(d+1) - 1), 0 < u <= 1"),
        perturbed={"factor 1": remark10_factor_claim(1, "sqrt(p/2^d) <= 1 (the Remark's sqrt(2^d) read exactly)")},
        errata=("bcmnuw20-remark10-dual-vc",),
        formula_from="bounds.papers.bcmnuw20.fact4_max_dual_vc (p <= 2^(d+1) - 1)",
    ),
    Check(
        id="nb20:thm11.corollary", paper="NB20", result="thm11",
        claim=("Theorem 11's corollary: when alpha <= 1/sqrt(d), n = O~(d/(eps alpha^2)): the factor max(1, sqrt(m_o) "
               "alpha^{3/2}) is at most sqrt(64 log(1/alpha)) + 1, given the beta condition log(1/beta) <= d "
               "log(1/alpha) "
               "(without it the factor grows with log(1/beta)/d, which O~(d/(eps alpha^2)) does not hide); checked at "
               "alpha = w/sqrt(d), log(1/beta) = v min(d log(1/alpha), 691) over 1e-8 <= w <= 1, 0 <= v <= 1: every "
               "(alpha, beta) of the conditions and more (as strong or stronger)"),
        source=f"{SEED_N}; Theorem 11, 'In particular, when alpha <= 1/sqrt(d)'", method="numeric grid + hypothesis",
        stated=corollary_claim(_polylog, True, "factor <= sqrt(64 log(1/alpha)) + 1 (w, v <= 1)"),
        perturbed={"factor 1": corollary_claim(lambda o, alpha, beta, d: 1 + 0 * alpha, True,
                                               "factor <= 1 (read literally)"),
                   "no beta condition": corollary_claim(_polylog, False, "alpha <= 1/sqrt(d) alone")},
        errata=("nb20-thm11-log-beta",),
        formula_from="bounds.papers.nb20.alg4_m_o",
    ),
    Check(
        id="nb20:related.gain-factor", paper="NB20", result="thm7",
        claim=("Related work: BTT18's ~ VC/alpha^2 max(1, sqrt(m alpha)) against Theorem 7's ~ VC/alpha^2 max(1, "
               "sqrt(m) "
               "alpha^{3/2}): the gain is max(1, min(sqrt(m alpha), 1/alpha)) as printed"),
        source=f"{SEED_N}; Section 1, 'Related work' (BTT18 Theorem 3.5)", method="symbolic",
        stated=gain_claim(_gain_printed, "BTT18 / Thm 7 = max(1, min(sqrt(m alpha), 1/alpha))"),
        perturbed={"sqrt(m) alpha": gain_claim(lambda o, alpha, m: o.max(1, o.min(o.sqrt(m) * alpha, 1 / alpha)),
                                               "= max(1, min(sqrt(m) alpha, 1/alpha))")},
        formula_from="bounds.papers.nb20.thm7_n_asymptotic (its max(1, sqrt(m) alpha^{3/2}))",
    ),
)
