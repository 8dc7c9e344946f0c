"""NB20 Theorem 7 (A_AgPrivCl) via Lemma 8 (privacy) and Lemma 9 (accuracy), and Lemma 9 itself."""
from __future__ import annotations

from dataclasses import replace

import math

from ...core import Departure, Implicit, Quantity, Result
from ._common import PAPER, SOURCE, _UNIT, _declare  # noqa: F401
from .agprivcl import alg3_T, alg3_delta_hat, alg3_eps_hat, alg3_eps_prime, claim10_g, claim10_lower
from .subsamp import alg5_k, alg5_lambda, alg5_lambda_as_printed, alg5_lambda_tight
from .relabel import lemma6_n_printed, lemma6_uc_g, lemma6_uc_lower, vc_tail_g, vc_tail_lower


# =============================================================================================
# Theorem 7 (A_AgPrivCl) via Lemma 8 (privacy) and Lemma 9 (accuracy), and Lemma 9 itself
def lemma9_min_queries(o, alpha, beta):
    """NB20 Lemma 9 as printed: the number of queries must be m >= 8 log(1/(alpha beta)) / alpha
    (refuted for step (3): see lemma9_min_queries_bernstein)."""
    return 8 * o.log(1 / (alpha * beta)) / alpha


def lemma9_min_queries_bernstein(o, alpha, beta, gamma):
    """NB20 Lemma 9, corrected condition for eq. (3) (errata nb20-lemma9-chernoff, nb20-lemma9-union): on the ERM event
    err(h_ERM) <= p = alpha/8 + gamma, and the empirical error over m queries must stay below alpha/4 + gamma (a
    deviation
    >= alpha/8). Eq. (3) holds w.p. >= 1 - beta/4 in the proof's union bound (beta/4 + beta/2 +
    beta/4 = beta), and the ERM event inside it already takes beta/8, so the Chernoff step gets
    beta/8 (erratum nb20-lemma9-union). Bernstein's inequality with deviation alpha/8 and the
    largest variance q (1 - q), q = min(p, 1/2), of a Bernoulli(err <= p) needs
    m >= (2 q (1 - q) + (2/3)(alpha/8)) log(8/beta) / (alpha/8)^2
      = 64 (2 q (1 - q) + alpha/12) log(8/beta) / alpha^2   (q = p when p <= 1/2)."""
    q = o.min(alpha / 8 + gamma, o.frac(1, 2))
    return 64 * (2 * q * (1 - q) + alpha / 12) * o.log(8 / beta) / alpha**2


def lemma9_n_prime_printed(o, alpha, beta, delta, d, num_queries):
    """NB20 Lemma 9's proof as printed: n' = 8000 (d log(1/alpha) + log(m/beta)) log^{3/2}(2/delta)
    log(m alpha / min(delta, beta/2)) / alpha^2 * max(1, sqrt(m) alpha^{3/2})."""
    m = num_queries
    return (8000 * (d * o.log(1 / alpha) + o.log(m / beta)) * o.log(2 / delta) ** o.frac(3, 2)
            * o.log(m * alpha / o.min(delta, beta / 2)) / alpha**2
            * o.max(1, o.sqrt(m) * alpha ** o.frac(3, 2)))


def thm7_n_asymptotic(o, alpha, beta, eps, delta, d, num_queries, C_7t):
    """NB20 Theorem 7: n = O((d log(1/alpha) + log(m/beta)) log^{3/2}(2/delta)
    log(m alpha/min(delta, beta/2)) / (eps alpha^2) * max(1, sqrt(m) alpha^{3/2}))."""
    m = num_queries
    return (C_7t * (d * o.log(1 / alpha) + o.log(m / beta)) * o.log(2 / delta) ** o.frac(3, 2)
            * o.log(m * alpha / o.min(delta, beta / 2)) / (eps * alpha**2)
            * o.max(1, o.sqrt(m) * alpha ** o.frac(3, 2)))


def pac_realizable(o, a, b, d):
    """Realizable PAC sample size of a consistent learner (Anthony-Bartlett Thm 4.8):
    (4/a)(d log(12/a) + log(2/b)) for error <= a w.p. >= 1 - b."""
    return 4 / a * (d * o.log(12 / a) + o.log(2 / b))


# The chain of Theorem 7 (and of Theorem 11's first phase). Its inputs are the symbols
#   mq    (queries answered by A_AgPrivCl), eps_run, beta_run (its privacy epsilon and failure
#   probability): Theorem 7 sets them to m, eps, beta; Theorem 11 to min(m, m_o), eps/2, beta/2.
def _chain_T(o, alpha, beta_run, mq):
    return alg3_T(o, alpha, beta_run, mq)


def _chain_eps_prime(o, alpha, mq):
    return alg3_eps_prime(o, alpha, mq)


def _chain_lambda_as_printed(o, T_cut, eps_hat, delta_hat):
    return alg5_lambda_as_printed(o, T_cut, eps_hat, delta_hat)


def _chain_k_as_printed(o, beta_run, mq, T_cut, delta_hat, lam_printed):
    return alg5_k(o, lam_printed, mq, T_cut, delta_hat, beta_run)


def _chain_lambda(o, T_cut, eps_hat, delta_hat):
    """Alg 5's lambda corrected for the vote margin's sensitivity 2 (erratum nb20-alg5-margin)."""
    return alg5_lambda(o, T_cut, eps_hat, delta_hat)


def _chain_k(o, beta_run, mq, T_cut, delta_hat, lam):
    return alg5_k(o, lam, mq, T_cut, delta_hat, beta_run)


def _chain_lambda_tight(o, T_cut, eps_hat, delta_hat):
    return alg5_lambda_tight(o, T_cut, eps_hat, delta_hat)


def _chain_k_tight(o, beta_run, mq, T_cut, delta_hat, lam_tight):
    return o.ceil(alg5_k(o, lam_tight, mq, T_cut, delta_hat, beta_run))


def _chain_n_tight(o, alpha, beta_run, d, eps_run, k_tight, n_rel_p, n_rel_uc, n_c10, n_erm):
    """n with Alg 5 at the tight lambda: 56/eps_run max(k' n_pac(k'), the other terms); Claim 10's term
    is taken at the encoded (larger) k, an upper bound on its value at k', so this is still sufficient."""
    n_pac = o.ceil(pac_realizable(o, alpha / 24, beta_run / (16 * k_tight), d))
    return 56 * o.max(o.max(k_tight * n_pac, o.max(n_rel_p, n_rel_uc)), o.max(n_c10, n_erm)) / eps_run


def _chain_pac(o, alpha, beta_run, d, k):
    """Lemma 9: sub-samples must PAC-learn to alpha/24 with confidence beta/(16k)."""
    return pac_realizable(o, alpha / 24, beta_run / (16 * k), d)


def _chain_from_subsamples(o, k, n_pac):
    return k * n_pac


def _chain_relabel_printed(o, alpha, beta_run, d):
    """Lemma 9 uses Lemma 6 at (alpha/4, beta/4)."""
    return lemma6_n_printed(o, alpha / 4, beta_run / 4, d)


def _chain_relabel_uc_g(o, n_uc, alpha, beta_run, d):
    return lemma6_uc_g(o, n_uc, alpha / 4, beta_run / 4, d)


def _chain_relabel_uc_lower(o, alpha, d):
    return lemma6_uc_lower(o, alpha / 4, d)


def _chain_claim10_g(o, n_c10, alpha, beta_run, d, k):
    """Lemma 9 turns dis^(h_j, h^) <= alpha/24 into dis(h_j, h^) <= alpha/12 by Claim 10, so Claim 10
    runs at accuracy alpha/24 (corrected; the printed 7200 is accuracy alpha/12), confidence
    beta/(8k)."""
    return claim10_g(o, n_c10, alpha / 24, beta_run / (8 * k), d)


def _chain_claim10_lower(o, alpha, d):
    return claim10_lower(o, alpha / 24, d)


def _chain_erm_g(o, n_erm, alpha, beta_run, d):
    """Lemma 9: err(h_ERM) <= gamma + alpha/8 w.p. 1 - beta/8 (deviation alpha/16 each side)."""
    return vc_tail_g(o, n_erm, alpha / 16, beta_run / 8, d)


def _chain_erm_lower(o, alpha, d):
    return vc_tail_lower(o, alpha / 16, d)


def _chain_n_prime(o, n_sub, n_rel_p, n_rel_uc, n_c10, n_erm):
    return o.max(o.max(n_sub, o.max(n_rel_p, n_rel_uc)), o.max(n_c10, n_erm))


def _chain_n(o, eps_run, n_prime):
    """Algorithm 3: n' = eps n / 56, so n = 56 n' / eps."""
    return 56 * n_prime / eps_run


# Lemma 9's condition on the number of queries, shown by lemma9 and inside thm7's chain.
MIN_QUERIES_AS_PRINTED = Quantity(
    "min_queries_as_printed", "m_min_printed",
    "least number of queries as printed: 8 log(1/(alpha beta))/alpha (refuted)",
    explicit=lemma9_min_queries, order="exact", intermediate=True,
    derivation="Lemma 9 as stated", monotone={"alpha": -1, "beta": -1})
MIN_QUERIES = Quantity(
    "min_queries", "m_min",
    "least number of queries for eq. (3), corrected: Bernstein size "
    "64 (2q(1-q) + alpha/12) log(8/beta)/alpha^2, q = min(alpha/8 + gamma, 1/2)",
    explicit=lemma9_min_queries_bernstein, order="exact",
    derivation=("Bernstein's inequality: deviation alpha/8 of a Bernoulli mean with "
                "err <= alpha/8 + gamma (variance <= q(1-q)), w.p. <= beta/8 (eq. (3)'s beta/4 "
                "less the ERM event's beta/8: the union bound closes at beta)"),
    monotone={"alpha": -1, "beta": -1, "gamma": +1})


def _fmt(x) -> str:
    return f"{x:,.0f}" if abs(x) < 1e15 else f"{x:.4g}"


def _below_min_queries(m, m_min, m_min_printed, gamma, who: str):
    """The regime caveat of Lemma 9's condition on the number of queries (text for compute)."""
    if m >= m_min:
        return []
    return [(True, f"{who} = {_fmt(m)} queries is below Lemma 9's minimum {_fmt(math.ceil(m_min))} "
                   f"(min_queries: Bernstein's size for eq. (3) at gamma = {gamma:g}; printed "
                   f"{_fmt(math.ceil(m_min_printed))}): the accuracy proof does not cover it, so n is "
                   "the chain's value, not a guarantee")]


def _lemma9_regime(v):
    """NB20 Lemma 9 / Theorem 7 hold only for m >= min_queries."""
    return _below_min_queries(v["num_queries"], v["min_queries"], v["min_queries_as_printed"],
                              v["approx_error"], "m")


def _thm11_regime(v):
    """NB20 Theorem 11: one phase when m <= m_o (what Algorithm 4 then runs), and Lemma 9's
    condition on the m' = min(m, m_o) queries of the first phase (at gamma = 0: Theorem 11 takes no
    approximation error; larger gamma needs more queries)."""
    out = []
    from ...ops import NUMPY

    if v["second_phase"] == 0:
        out.append((False, f"m = {_fmt(v['num_queries'])} <= m_o = {_fmt(v['public_samples'])}: "
                           "Algorithm 4 answers every query with A_AgPrivCl and never runs A_SSPP, so n "
                           "counts the first phase only; that phase still runs at (eps/2, beta/2), as "
                           "Algorithm 4 (corrected) fixes the split in step 1. A variant that knows "
                           "m <= m_o could give it the whole (eps, beta): `compute thm7` at the same "
                           "point gives that n (about half)"))
    m_min = float(lemma9_min_queries_bernstein(NUMPY, v["alpha"], v["failure_probability"], 0.0))
    m_min_p = float(lemma9_min_queries(NUMPY, v["alpha"], v["failure_probability"]))
    return out + _below_min_queries(v["queries_answered"], m_min, m_min_p, 0.0,
                                    "m' = min(m, m_o)")


def _agpriv_chain(headline: str, headline_desc: str, asymptotic=None, constants=(),
                  last_is_step: bool = False) -> tuple:
    """The quantities of A_AgPrivCl's sample size, from its parameter settings and Lemma 9.

    They read the symbols mq, eps_run, beta_run, which the result declares before them."""
    step = dict(intermediate=True)
    return (
        Quantity("cutoff", "T_cut", "Alg 3: T", explicit=_chain_T, derivation="Alg 3 step 1", **step),
        Quantity("eps_prime", "eps_prime", "Alg 3: eps'", explicit=_chain_eps_prime,
                 derivation="Alg 3 step 1", **step),
        Quantity("eps_hat", "eps_hat", "Alg 3: eps^", explicit=alg3_eps_hat,
                 derivation="Alg 3 step 1", **step),
        Quantity("delta_hat", "delta_hat", "Alg 3: delta^", explicit=alg3_delta_hat,
                 derivation="Alg 3 step 1", **step),
        Quantity("lambda_as_printed", "lam_printed", "Alg 5 at (eps^, delta^): lambda as printed",
                 explicit=_chain_lambda_as_printed,
                 derivation="Alg 5 step 1 as printed: sqrt(32 T log(2/delta^))/eps^", **step),
        Quantity("subsamples_as_printed", "k_printed", "Alg 5 at (eps^, delta^): k as printed",
                 explicit=_chain_k_as_printed, integer=True,
                 derivation="Alg 5 step 1 at the printed lambda (not used below)", **step),
        Quantity("lambda", "lam", "Alg 5 at (eps^, delta^): lambda, corrected (2 x printed)",
                 explicit=_chain_lambda,
                 derivation=("Alg 5 step 1 with the vote margin's sensitivity 2: sqrt(128 T "
                             "log(2/delta^))/eps^ (erratum nb20-alg5-margin)"), **step),
        Quantity("subsamples", "k", "Alg 5 at (eps^, delta^): k at the corrected lambda",
                 explicit=_chain_k, integer=True,
                 derivation="Alg 5 step 1: 34 sqrt(2) lambda log(4 m T/min(delta^, beta/2))", **step),
        Quantity("lambda_tight", "lam_tight", "Alg 5 at (eps^, delta^): the tight lambda (the NB20 experiments' "
                 "default)",
                 explicit=_chain_lambda_tight, derivation="nb20:alg5 lambda_tight", **step),
        Quantity("subsamples_tight", "k_tight", "Alg 5 at (eps^, delta^): k at the tight lambda",
                 explicit=_chain_k_tight, integer=True, derivation="Alg 5 step 1 at lambda_tight",
                 **step),
        Quantity("pac_subsample", "n_pac",
                 "size of each sub-sample: realizable PAC to alpha/24 w.p. 1 - beta/(16k)",
                 explicit=_chain_pac, integer=True,
                 derivation="Anthony-Bartlett Thm 4.8: (4/a)(d log(12/a) + log(2/b)), a = alpha/24, "
                            "b = beta/(16k)", **step),
        Quantity("from_subsamples", "n_sub", "k sub-samples of that size: k n_pac",
                 explicit=_chain_from_subsamples, derivation="Lemma 9: n'/k >= n_pac", **step),
        Quantity("relabel_printed", "n_rel_p", "Lemma 6 at (alpha/4, beta/4), printed size",
                 explicit=_chain_relabel_printed, integer=True,
                 derivation="256 (d + log(12/beta)) / (alpha/4)^2", **step),
        Quantity("relabel_uniform_convergence", "n_rel_uc",
                 "Lemma 6 at (alpha/4, beta/4): uniform-convergence size (corrected Lemma 6)",
                 explicit=Implicit("n_uc", _chain_relabel_uc_g,
                                   "4 (2en/d)^d exp(-n (alpha/12)^2/8) <= beta/6",
                                   _chain_relabel_uc_lower), integer=True,
                 derivation="VC inequality at alpha/12, 2(beta/4)/3", **step),
        Quantity("claim10", "n_c10",
                 "Claim 10 on S''_u at (alpha/24, beta/(8k)), corrected tail: dis^ <= alpha/24 "
                 "gives dis <= alpha/12",
                 explicit=Implicit("n_c10", _chain_claim10_g,
                                   "4 (2en/d)^{2d} exp(-n (alpha/24)^2/8) <= beta/(8k)",
                                   _chain_claim10_lower), integer=True,
                 derivation="Claim 10 (corrected tail) at accuracy alpha/24 (corrected from the "
                            "printed alpha/12), beta/(8k)", **step),
        Quantity("erm_generalization", "n_erm", "err(h_ERM) <= gamma + alpha/8 w.p. 1 - beta/8",
                 explicit=Implicit("n_erm", _chain_erm_g,
                                   "4 (2en/d)^d exp(-n (alpha/16)^2/8) <= beta/8", _chain_erm_lower),
                 integer=True, derivation="VC inequality at alpha/16, beta/8", **step),
        Quantity("relabeled_samples", "n_prime", "n' = |S'| = |S''|: the largest requirement",
                 explicit=_chain_n_prime, integer=True,
                 derivation="max(k n_pac, Lemma 6, Claim 10, ERM)", **step),
        Quantity("private_samples_tight_lambda", "n_tight",
                 "the same n with Alg 5 at the tight lambda (the NB20 experiments' default n)",
                 explicit=_chain_n_tight, integer=True,
                 derivation=("56/eps_run max(k_tight n_pac(k_tight), Lemma 6, Claim 10 at the encoded k "
                             "(an upper bound), ERM)"), **step),
        Quantity(headline, "n", headline_desc, explicit=_chain_n, integer=True,
                 asymptotic=asymptotic, constants=constants,
                 derivation=("n = 56 n'/eps_run (Alg 3: n' = eps n/56), n' = max(k n_pac, Lemma 6 at "
                             "(alpha/4, beta/4), Claim 10 at (alpha/24, beta/(8k)), ERM at "
                             "(alpha/16, beta/8)); k, T, eps^, delta^ as set by Algorithms 3 and 5"),
                 # not monotone in m: for 1 < m alpha < 1/alpha^2, T ~ sqrt(m alpha log) grows
                 # slower than eps' = alpha sqrt(m alpha), so k and n decrease there
                 monotone={"alpha": -1, "beta": -1, "eps": -1, "delta": -1, "d": +1},
                 dominates_asymptotic=asymptotic is not None, intermediate=last_is_step),
    )


_declare(
    Result(
        id="nb20:thm7", paper=PAPER, label="Theorem 7", kind="upper bound",
        index_items=("N10",),
        statement=("A_AgPrivCl (Algorithm 3) is an (eps, delta, alpha, beta, n, m)-PCQR algorithm "
                   "(excess average error alpha over m queries, (eps, delta)-DP) with n = "
                   "O((d log(1/alpha) + log(m/beta)) log^{3/2}(2/delta) log(m alpha/min(delta, beta/2))"
                   " / (eps alpha^2) * max(1, sqrt(m) alpha^{3/2})) for m = Omega(log(1/(alpha beta))"
                   "/alpha); m = number of queries."),
        source=f"{SOURCE}; Section 3.2, Theorem 7 (Lemmas 8, 9, Claim 10, Algorithms 3 and 5)",
        params=("alpha", "beta", "epsilon", "delta", "vc", "num_queries", "approx_error"),
        domain={"epsilon": _UNIT, "delta": _UNIT},
        defaults={"approx_error": 0.0},
        constants={"C_7t": "constant hidden in Theorem 7's O"},
        quantities=(
            replace(MIN_QUERIES_AS_PRINTED, intermediate=True),
            replace(MIN_QUERIES, intermediate=True),
            Quantity("queries_answered", "mq", "queries answered by A_AgPrivCl: m",
                     explicit=lambda o, num_queries: num_queries, intermediate=True),
            Quantity("privacy_eps", "eps_run", "privacy epsilon of A_AgPrivCl: eps",
                     explicit=lambda o, eps: eps, intermediate=True),
            Quantity("failure_probability", "beta_run", "failure probability: beta",
                     explicit=lambda o, beta: beta, intermediate=True),
        ) + _agpriv_chain(
            "private_samples", "private samples n of A_AgPrivCl",
            asymptotic=thm7_n_asymptotic, constants=("C_7t",),
        ) + (
            Quantity("relabeled_samples_printed", "n_prime_printed", "Lemma 9's printed n' (8000 ...)",
                     explicit=lemma9_n_prime_printed, intermediate=True,
                     derivation="as printed in the proof of Lemma 9"),
            Quantity("private_samples_as_printed", "n_as_printed", "56 n'/eps with Lemma 9's printed n'",
                     explicit=lambda o, eps, n_prime_printed: 56 * n_prime_printed / eps,
                     integer=True, intermediate=True,
                     derivation="Alg 3: n = 56 n'/eps with the printed n' = 8000 (...)"),
        ),
        departures=(
            Departure("private_samples", "private_samples_as_printed",
                      "n: corrected chain / printed constants (8000 ...)"),
            Departure("relabeled_samples", "relabeled_samples_printed", "n': corrected chain / printed"),
            Departure("subsamples", "subsamples_as_printed", "k: corrected (lambda doubled) / printed"),
            Departure("private_samples", "private_samples_tight_lambda",
                      "n: encoded (lambda doubled) / tight lambda (slack kept for the algorithm)"),
            Departure("min_queries", "min_queries_as_printed",
                      "m_min: Bernstein (beta/8) / printed 8 log(1/(alpha beta))/alpha"),
        ),
        regime=_lemma9_regime,
        notes=(
            "Explicit form: the proof's chain with every 'standard result' pinned (module docstring) and the corrected "
            "Lemma 6 / Claim 10. The printed n' is shown beside it (erratum nb20-lemma9-printed-constants).",
            "Domain: Lemma 9 needs enough queries for its Chernoff steps (min_queries, the corrected Bernstein size; "
            "the printed 8 log(1/(alpha beta))/alpha is min_queries_as_printed, see lemma9's notes); below it the "
            "chain is computed but the accuracy proof does not apply, and compute says so (OUTSIDE THE REGIME; JSON "
            "inside_regime false). --approx-error (gamma, default 0) enters only min_queries.",
            'Lemma 9 applies Claim 10 per j in [k] with beta/(8k); Claim 10 is uniform over pairs, so one application '
            'with beta/8 would do. Encoded as printed (conservative).',
            "Constants of A_SubSamp's accuracy (T's alpha/8, k's 34 sqrt(2), eq. (1)'s counting argument) are BTT18's "
            "and are taken as printed.",
        ),
        errata=('nb20-lemma9-printed-constants', 'nb20-lemma9-7200', 'nb20-lemma9-chernoff', 'nb20-lemma9-union',
                'nb20-alg5-margin', 'nb20-lemma6-uniform-convergence', 'nb20-claim10-tail',),
    ),
    Result(
        id="nb20:lemma9", paper=PAPER, label="Lemma 9", kind="lemma",
        index_items=("N12",),
        statement=("Accuracy of A_AgPrivCl: with a realizable PAC learner B_PAC, n as in Theorem 7 "
                   "and m >= 8 log(1/(alpha beta))/alpha, w.p. >= 1 - beta the average error over "
                   "the m queries is at most alpha + gamma (the printed condition on m is refuted: "
                   "min_queries is the corrected one; --approx-error is gamma)."),
        source=f"{SOURCE}; Section 3.2, Lemma 9 and its proof",
        params=("alpha", "beta", "epsilon", "delta", "vc", "num_queries", "approx_error"),
        domain={"epsilon": _UNIT, "delta": _UNIT},
        defaults={"approx_error": 0.0},
        constants={"C_7t": "constant hidden in the O (as Theorem 7)"},
        departures=(Departure("min_queries", "min_queries_as_printed",
                              "m_min: Bernstein (beta/8) / printed 8 log(1/(alpha beta))/alpha"),),
        regime=_lemma9_regime,
        quantities=(
            MIN_QUERIES_AS_PRINTED,
            MIN_QUERIES,
            Quantity("relabeled_samples_printed", "n_prime", "n' as printed in the proof",
                     explicit=lemma9_n_prime_printed, derivation="proof of Lemma 9, as printed",
                     # not "alpha": -1 (see the notes: false near m alpha = min(delta, beta/2))
                     monotone={"beta": -1, "delta": -1, "d": +1}),
            Quantity("private_samples_printed", "n_printed", "56 n'/eps with the printed n'",
                     asymptotic=thm7_n_asymptotic, constants=("C_7t",),
                     explicit=lambda o, eps, n_prime: 56 * n_prime / eps, integer=True,
                     derivation="Alg 3: n = 56 n'/eps with the printed n'",
                     monotone={"beta": -1, "eps": -1, "delta": -1, "d": +1}),
        ),
        notes=(
            "The sample size that actually satisfies every step of this proof is Theorem 7's explicit chain (python -m "
            "bounds compute thm7); this result shows the printed constants. See thm7's notes for the comparison.",
            "Not monotone in alpha: the printed n' (and Theorem 7's asymptotic form) has the factor log(m "
            "alpha/min(delta, beta/2)), which falls to 0 at m alpha = min(delta, beta/2) (and is negative below, where "
            "the printed size is vacuous). Near there it grows faster than 1/alpha^2 falls (m = 40, delta = 0.0093, "
            "beta = 0.858, d = 484: alpha 0.000255 -> 5.7e14, 0.000583 -> 9.7e14). It decreases in alpha wherever that "
            "log is >= 2 (d/dalpha log n' <= (1/L - 1/2)/alpha with L the log); only there is the claim made "
            "(tests/bounds/test_nb20.py), not on the whole domain.",
            "min_queries is Bernstein's size at beta/8 (errata nb20-lemma9-chernoff, nb20-lemma9-union); "
            "min_queries_as_printed is the printed 8 log(1/(alpha beta))/alpha.",
            "Step (2) (h^ vs h_ERM on the queries, deviation alpha/4, failure beta/4 once Lemma 6 takes its beta/4) "
            "holds at min_queries: Bernstein with variance <= alpha/2 + 2 gamma (erratum nb20-lemma9-chernoff).",
        ),
        errata=('nb20-lemma9-printed-constants', 'nb20-lemma9-7200', 'nb20-lemma9-chernoff', 'nb20-lemma9-union',),
    ),
)


