"""Baselines the papers compare against: query release without privacy (uniform convergence) and
private query release without public data (PMW over the full domain).

Both use the papers' conventions: {+-1}-valued queries, error on the [-1, 1] scale (BCMNUW20
Definition 5), natural logarithms, d = VC(H).
"""
from __future__ import annotations


from ..core import Implicit, Quantity, Result
from ..registry import register
from .bcmnuw20 import LEMMA7_DEPARTURES, LEMMA7_DOMAIN, lemma7_quantities

PAPER = "baselines"


# --- uniform convergence (no privacy) ------------------------------------------------------------
def uc_log_tail(o, m, alpha, beta, d):
    """Vapnik-Chervonenkis (1971) as in Anthony & Bartlett (1999) Theorem 4.3, in log form.

    P[exists h: |P_S(h = 1) - P_D(h = 1)| >= gamma] <= 4 Pi_H(2m) exp(-gamma^2 m/8). Error alpha
    on the [-1, 1] scale is gamma = alpha/2, and Sauer gives Pi_H(2m) <= (2em/d)^d (2m >= d):
    g(m) = log 4 + d log(2em/d) - alpha^2 m/32 - log(beta) <= 0 means failure <= beta.
    """
    return o.log(4) + d * (1 + o.log(2 * m / d)) - alpha**2 * m / 32 - o.log(beta)


def uc_lower(o, alpha, d):
    """Baseline uc: from m = 32d/alpha^2 on, d/dm g = d/m - alpha^2/32 <= 0; no m in
    [d/2, 32d/alpha^2) solves g <= 0 (there d log(2em/d) >= d >= alpha^2 m/32); below d/2 g is
    not a bound (Sauer needs 2m >= d), and 2m >= d holds from the lower end on."""
    return 32 * d / alpha**2


def uc_asymptotic(o, alpha, beta, d, C_uc):
    return C_uc * (d + o.log(1 / beta)) / alpha**2


register(
    Result(
        id="baselines:uc",
        paper="baseline",
        label="Uniform convergence (no privacy)",
        kind="baseline",
        statement=("Without privacy, answering every query of H with the empirical mean of m "
                   "samples has error <= alpha (on [-1, 1]) for all h in H w.p. >= 1 - beta once "
                   "m = O((d + log(1/beta))/alpha^2) (optimal up to the constant; the explicit "
                   "VC bound below carries an extra log(1/alpha))."),
        source=("Vapnik & Chervonenkis (1971); Anthony & Bartlett, Neural Network Learning "
                "(1999), Theorem 4.3 and Sauer's lemma (Theorem 3.7); BCMNUW20 Section 1 "
                "('the sample complexity is given by d/alpha^2')"),
        params=("alpha", "beta", "vc"),
        constants={"C_uc": "constant of the optimal (chaining) bound Theta((d + log(1/beta))/"
                           "alpha^2), not pinned down"},
        quantities=(
            Quantity(
                name="public_samples", symbol="m",
                description="samples (all public) for error <= alpha w.p. >= 1 - beta without privacy",
                asymptotic=uc_asymptotic, order="O", constants=("C_uc",),
                explicit=Implicit("m", uc_log_tail,
                                  "4 (2em/d)^d exp(-(alpha/2)^2 m/8) <= beta", uc_lower),
                integer=True,
                derivation=("Anthony & Bartlett Thm 4.3: P[sup_h |P_S(h=1) - P_D(h=1)| >= gamma] "
                            "<= 4 Pi_H(2m) exp(-gamma^2 m/8); gamma = alpha/2 ([-1,1] error "
                            "alpha), Pi_H(2m) <= (2em/d)^d (Sauer). The least integer m >= "
                            "32d/alpha^2 with log 4 + d log(2em/d) - alpha^2 m/32 <= log beta."),
                monotone={"alpha": -1, "beta": -1, "d": +1},
                dominates_asymptotic=True,
                scaling=(("beta", "0"), ("d", "inf")),
            ),
        ),
        notes=("Named public_samples so that `compare thm10 uc ...` puts it next to Theorem 10's "
               "public samples: it is what the public data alone would need.",
               "The explicit VC bound has d log(1/alpha)/alpha^2; the d/alpha^2 of the O-form "
               "needs chaining, whose constant no standard statement pins down, so no "
               "alpha-scaling is declared."),
    ),
    Result(
        id="baselines:pmw",
        paper="baseline",
        label="PMW without public data",
        kind="baseline",
        statement=("Private query release with no public data: PMW over the full finite domain X "
                   "and the full finite class H (BCMNUW20 Lemma 7 with |X| and |H|, corrected "
                   "constants)."),
        source=("Hardt & Rothblum (2010); Dwork & Roth (2014) Thm 4.15; BCMNUW20 Lemma 7 "
                "(000/003, Section 2.2)"),
        params=("alpha", "beta", "epsilon", "delta", "num_hypotheses", "domain_size"),
        domain=LEMMA7_DOMAIN,
        constants={"C_7": "the constant of the O-form"},
        quantities=lemma7_quantities("private samples PMW needs over the full domain, no "
                                      "public data"),
        departures=LEMMA7_DEPARTURES,
        notes=("For an infinite domain (thresholds over R) there is no finite |X|: PMW, and any "
               "private algorithm without public data, fails (BCMNUW20 Section 1).",
               "Lemma 7's printed constants are corrected here as in bcmnuw20:lemma7 "
               "(see its erratum)."),
    ),
)
