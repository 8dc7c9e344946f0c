"""NB20 Lemma 6 (accuracy of A_Relabel), Appendix A."""
from __future__ import annotations



from ...core import Departure, Implicit, Quantity, Result
from ._common import PAPER, SOURCE, _declare  # noqa: F401  (re-exported)


# =============================================================================================
# Lemma 6 (accuracy of A_Relabel), Appendix A
def lemma6_n_printed(o, alpha, beta, d):
    """NB20 Lemma 6 as printed: n' >= 256 (d + log(3/beta)) / alpha^2."""
    return 256 * (d + o.log(3 / beta)) / alpha**2


def lemma6_em_gap(o, beta, d, n_printed):
    """NB20 Lemma 6, eq. (4): exponential-mechanism gap (2/n')(d log(e n'/d) + log(3/beta))
    (privacy 1, score sensitivity 1/n', Sauer |H~| <= (e n'/d)^d)."""
    return 2 / n_printed * (d * o.log(o.e * n_printed / d) + o.log(3 / beta))


def lemma6_em_gap_printed_bound(o, alpha, beta, d):
    """NB20 Lemma 6, eq. (4), the printed middle step 80 alpha^2 (d log(1/alpha) + log(3/beta))
    / (256 (d + log(3/beta)))."""
    L = o.log(3 / beta)
    return 80 * alpha**2 * (d * o.log(1 / alpha) + L) / (256 * (d + L))


def vc_tail_g(o, n, a, b, d):
    """log of the VC inequality 4 (2 e n/d)^d exp(-n a^2/8) minus log b (Anthony-Bartlett Thm 4.3
    with Sauer): <= 0 means every h has |err - err^| <= a on n samples w.p. >= 1 - b.

    It is baselines:uc's tail, whose error is on the [-1, 1] scale (deviation alpha/2): a 0/1-error
    deviation a is its alpha = 2a. Imported at call time so that importing this module does not
    register the baselines before the papers.
    """
    from ..baselines import uc_log_tail

    return uc_log_tail(o, n, 2 * a, b, d)


def vc_tail_lower(o, a, d):
    """Where vc_tail_g starts to decrease in n (its only turning point): n = 8 d / a^2."""
    return 8 * d / a**2


def lemma6_uc_g(o, n_uc, alpha, beta, d):
    """NB20 Lemma 6, eqs. (5)-(6): deviation alpha/3 uniformly over H w.p. >= 1 - 2 beta/3."""
    return vc_tail_g(o, n_uc, alpha / 3, 2 * beta / 3, d)


def lemma6_uc_lower(o, alpha, d):
    return vc_tail_lower(o, alpha / 3, d)


def lemma6_n(o, n_printed, n_uc):
    """NB20 Lemma 6, corrected (erratum nb20-lemma6-uniform-convergence): n' must satisfy both (4) (the
    printed size does) and (5)-(6)."""
    return o.max(n_printed, n_uc)


_declare(
    Result(
        id="nb20:lemma6", paper=PAPER, label="Lemma 6", kind="lemma",
        index_items=("N8",),
        statement=("For S' ~ D^{n'} with n' >= 256 (d + log(3/beta))/alpha^2, w.p. >= 1 - beta the "
                   "hypothesis h^ chosen by A_Relabel satisfies err(h^; D) - err(h_ERM_{S'}; D) <= "
                   "alpha."),
        source=f"{SOURCE}; Section 3.1, Lemma 6; proof in Appendix A",
        params=("alpha", "beta", "vc"),
        constants={"C_6": "constant of the O form (the printed value is 256)"},
        departures=(Departure("relabel_samples", "relabel_samples_printed", "n': corrected / printed"),),
        quantities=(
            Quantity("relabel_samples_printed", "n_printed", "n' as printed (Lemma 6)",
                     asymptotic=lambda o, alpha, beta, d, C_6: C_6 * (d + o.log(1 / beta)) / alpha**2,
                     constants=("C_6",), explicit=lemma6_n_printed, integer=True, intermediate=True,
                     derivation="as printed: 256 (d + log(3/beta)) / alpha^2",
                     monotone={"alpha": -1, "beta": -1, "d": +1}, dominates_asymptotic=True),
            Quantity("em_gap", "gap", "eq. (4): exponential-mechanism gap at the printed n'",
                     explicit=lemma6_em_gap, intermediate=True,
                     derivation=("EM with privacy 1 and sensitivity 1/n' w.p. 1 - beta/3: "
                                 "(2/n')(log|H~| + log(3/beta)), Sauer log|H~| <= d log(e n'/d); "
                                 "<= alpha/3 for every alpha, beta in (0,1), d >= 1")),
            Quantity("em_gap_printed_bound", "gap_bound",
                     "eq. (4): the printed middle bound 80 alpha^2 (d log(1/alpha) + log(3/beta)) "
                     "/ (256 (d + log(3/beta)))", explicit=lemma6_em_gap_printed_bound,
                     intermediate=True,
                     derivation="as printed; below em_gap when alpha > ~0.84 (see notes)"),
            Quantity("uniform_convergence_samples", "n_uc",
                     "eqs. (5)-(6): least n with |err - err^| <= alpha/3 over H w.p. >= 1 - 2beta/3",
                     explicit=Implicit("n_uc", lemma6_uc_g,
                                       "4 (2 e n/d)^d exp(-n (alpha/3)^2 / 8) <= 2 beta / 3",
                                       lemma6_uc_lower),
                     integer=True, intermediate=True,
                     derivation=("VC inequality (Anthony-Bartlett Thm 4.3) with Sauer at deviation "
                                 "alpha/3, confidence 2 beta/3"),
                     monotone={"alpha": -1, "beta": -1, "d": +1}),
            Quantity("relabel_samples", "n_relabel",
                     "n' that makes (4), (5) and (6) hold: max(printed, uniform convergence)",
                     asymptotic=lambda o, alpha, beta, d, C_6: C_6 * (d + o.log(1 / beta)) / alpha**2,
                     constants=("C_6",), explicit=lemma6_n, integer=True,
                     derivation=("max(256 (d + log(3/beta))/alpha^2 [makes (4) hold], least n with "
                                 "4 (2en/d)^d e^{-n alpha^2/72} <= 2beta/3 [(5)-(6)])"),
                     monotone={"alpha": -1, "beta": -1, "d": +1}, dominates_asymptotic=True),
        ),
        notes=(
            "Checked: eq. (4) em_gap <= alpha/3 holds at the printed n' for all alpha, beta in (0,1), d >= 1.",
            "Encoded: n' = max(printed, the explicit VC size).",
        ),
        errata=('nb20-lemma6-middle-step', 'nb20-lemma6-uniform-convergence',),
    ),
)


