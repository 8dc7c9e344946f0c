"""BCMNUW20: Bassily, Cheu, Moran, Nikolov, Ullman, Wu. Private Query Release Assisted by Public
Data. ICML 2020 (seed 000) and its arXiv version (seed 003). Results in paper order."""
from __future__ import annotations

from ..core import Quantity, Result
from ..params import Interval
from ..registry import register

PAPER = "BCMNUW20"
SOURCE = "000_f1b0431f359f12a2.txt (ICML), 003_95100840c5f51bc1.txt (arXiv)"


# --- Lemma 7 -------------------------------------------------------------------------------
def lemma7_n(o, alpha, beta, eps, delta, num_hypotheses, domain_size):
    """BCMNUW20 Lemma 7: the PMW private sample size over a finite domain and query class."""
    log_x = o.log(domain_size)
    return (200 / (eps * alpha**2) * o.sqrt(log_x * o.log(2 / delta))
            * (o.log(num_hypotheses) + o.log(128 * log_x / (alpha**2 * beta))))


def lemma7_n_asymptotic(o, alpha, beta, eps, delta, num_hypotheses, domain_size, C_7):
    return C_7 * o.sqrt(o.log(domain_size) * o.log(1 / delta)) * (
        o.log(num_hypotheses) + o.log(1 / beta)) / (eps * alpha**2)


register(
    Result(
        id="bcmnuw20:lemma7",
        paper=PAPER,
        label="Lemma 7",
        kind="lemma",
        statement=("PMW (offline, over a finite domain X~ and finite query class H~) is "
                   "(eps, delta)-DP for 0 < eps, delta < 1, and with n i.i.d. samples from any "
                   "distribution over X~ its output has error at most alpha with probability "
                   "at least 1 - beta (corollary of Dwork & Roth 2014, Theorem 4.15)."),
        source=f"{SOURCE}; Section 2.2, Lemma 7",
        params=("alpha", "beta", "epsilon", "delta", "num_hypotheses", "domain_size"),
        domain={"epsilon": Interval(0, 1), "delta": Interval(0, 1),
                "domain_size": Interval(2, float("inf"), False, True, integer=True)},
        constants={"C_7": "the constant hidden in Lemma 7's O"},
        quantities=(
            Quantity(
                name="private_samples", symbol="n",
                description="private samples PMW needs for error <= alpha w.p. >= 1 - beta",
                asymptotic=lemma7_n_asymptotic, order="O", constants=("C_7",),
                explicit=lemma7_n, integer=True,
                derivation=("Lemma 7 as printed: n >= 200/(eps alpha^2) sqrt(log|X~| log(2/delta)) "
                            "(log|H~| + log(128 log|X~|/(alpha^2 beta)))"),
                monotone={"alpha": -1, "beta": -1, "eps": -1, "delta": -1,
                          "num_hypotheses": +1, "domain_size": +1},
            ),
        ),
    ),
)
