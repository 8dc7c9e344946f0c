"""Baselines the papers compare against: query release without privacy (uniform convergence) and
private query release without public data (PMW over the full domain).

Both use the papers' conventions: {+-1}-valued queries, error on the [-1, 1] scale (BCMNUW20
Definition 5), natural logarithms, d = VC(H).
"""
from __future__ import annotations


from ..core import Implicit, Quantity, Result
from ..params import Interval
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


# --- private-only releases a referee brings: Gaussian, Laplace, the binary tree ----------------------------------
# Every bound below splits the error alpha and the failure probability beta in halves: the noise is <= alpha/2 on
# every query w.p. >= 1 - beta/2, and the private sample's empirical answers are within alpha/2 of D's w.p. >=
# 1 - beta/2 (so Err_{D,H} <= alpha w.p. >= 1 - beta, the experiments' criterion). Answers are on [-1, 1]
# (BCMNUW20 Definition 5): replacing one of n points moves each answer by <= 2/n.

def gaussian_log_delta(o, eps, mu):
    """Balle-Wang (2018) Theorem 8: log delta(eps) of the Gaussian mechanism with mu = sensitivity/sigma,
    log[Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)]. The exponent is capped at -1e-15 so that rounding can
    only overstate delta (a larger n), never produce a nan."""
    la = o.log_ndtr(mu / 2 - eps / mu)
    lb = o.log_ndtr(-mu / 2 - eps / mu)
    return la + o.log1p(-o.exp(o.min(eps + lb - la, -1e-15)))


def gaussian_union_quantile(o, beta, num_hypotheses):
    """t with num_hypotheses * P(|Z| > t) <= beta/2 for Z ~ N(0, 1), from 2 Phibar(t) <= exp(-t^2/2) (Chernoff):
    t = sqrt(2 log(2 k / beta))."""
    return o.sqrt(2 * o.log(2 * num_hypotheses / beta))


def gaussian_noise_g(o, n, alpha, beta, eps, delta, num_hypotheses):
    """The Gaussian release's noise at n: sigma_max = alpha/(2 t) meets alpha/2 on all k answers w.p. 1 - beta/2;
    with L2 sensitivity 2 sqrt(k)/n, mu = 4 sqrt(k) t/(alpha n); (eps, delta)-DP iff log delta(eps; mu) <= log
    delta. Non-increasing in n (delta(eps; mu) increases with mu)."""
    mu = 4 * o.sqrt(num_hypotheses) * gaussian_union_quantile(o, beta, num_hypotheses) / (alpha * n)
    return gaussian_log_delta(o, eps, mu) - o.log(delta)


def _one(o, alpha):
    """The solvers' lower end: n >= 1 (as an array shaped like alpha)."""
    return alpha * 0 + 1


def hoeffding_union_n(o, alpha, beta, num_hypotheses):
    """Hoeffding and a union bound over k answers in [-1, 1]: 2k exp(-n (alpha/2)^2/2) <= beta/2."""
    return o.ceil(8 * o.log(4 * num_hypotheses / beta) / alpha**2)


def laplace_noise_n(o, alpha, beta, eps, num_hypotheses):
    """Lap(b), b = 2k/(n eps): k P(|Lap(b)| > alpha/2) = k exp(-alpha/(2b)) <= beta/2 iff
    n >= 4k log(2k/beta)/(eps alpha)."""
    return o.ceil(4 * num_hypotheses * o.log(2 * num_hypotheses / beta) / (eps * alpha))


def tree_levels(o, domain_size):
    """L = ceil(log2 N): the tree's levels on the least grid of 2^L >= N points."""
    return o.max(o.ceil(o.log2(domain_size)), 1)


def _tree_noise_g(factor):
    def g(o, n, alpha, beta, eps, delta, domain_size):
        L = tree_levels(o, domain_size)
        mu = factor * L * o.sqrt(o.log(2 * domain_size / beta)) / (alpha * n)
        return gaussian_log_delta(o, eps, mu) - o.log(delta)
    g.__doc__ = (f"The tree's noise at n: a prefix sums <= L nodes of N(0, sigma^2), union over N prefixes: "
                 f"N exp(-u^2/(2 sigma^2 L)) = beta/2 at u = sigma sqrt(2 L log(2N/beta)); answer error "
                 f"{factor // 4} * 2u/n <= alpha/2; node L2 sensitivity sqrt(2L): mu = {factor} L "
                 f"sqrt(log(2N/beta))/(alpha n)")
    return g


def _dkw_n(t_over_alpha_inv):
    def f(o, alpha, beta):
        return o.ceil(t_over_alpha_inv**2 * o.log(4 / beta) / (2 * alpha**2))
    f.__doc__ = (f"DKW with Massart's constant: P(sup|F_n - F| > t) <= 2 exp(-2 n t^2) <= beta/2 at "
                 f"t = alpha/{t_over_alpha_inv}")
    return f


def _max_n(o, n_noise, n_sample):
    return o.max(n_noise, n_sample)


def _gaussian_asymptotic(o, alpha, beta, eps, delta, num_hypotheses, C_g):
    return C_g * (o.sqrt(num_hypotheses * o.log(num_hypotheses / beta) * o.log(1 / delta)) / (alpha * eps)
                  + o.log(num_hypotheses / beta) / alpha**2)


def _laplace_asymptotic(o, alpha, beta, eps, num_hypotheses, C_l):
    return C_l * (num_hypotheses * o.log(num_hypotheses / beta) / (alpha * eps) + o.log(num_hypotheses / beta)
                  / alpha**2)


def _tree_asymptotic(o, alpha, beta, eps, delta, domain_size, C_t):
    return C_t * (o.log(domain_size)**1.5 * o.sqrt(o.log(1 / delta)) / (alpha * eps) + o.log(1 / beta) / alpha**2)


def _n_steps(noise, noise_text, sample, sample_text, mono):
    return (
        Quantity("private_samples_noise", "n_noise", "private samples for noise <= alpha/2 on every query w.p. "
                 ">= 1 - beta/2", explicit=noise, integer=True, intermediate=True, derivation=noise_text,
                 monotone=dict(mono)),
        Quantity("private_samples_sampling", "n_sample", "private samples for sampling error <= alpha/2 w.p. "
                 ">= 1 - beta/2", explicit=sample, integer=True, intermediate=True, derivation=sample_text,
                 monotone={k: v for k, v in mono.items() if k in ("alpha", "beta", "num_hypotheses")}),
    )


_GAUSS_DOMAIN = {"delta": Interval(0.0, 1.0)}
_FINITE_MONO = {"alpha": -1, "beta": -1, "eps": -1, "delta": -1, "num_hypotheses": +1}

register(
    Result(
        id="baselines:gaussian",
        paper="baseline",
        label="Gaussian mechanism on every answer (no public data)",
        kind="baseline",
        statement=("Private query release with no public data: the k = |H| private empirical answers plus "
                   "N(0, sigma^2 I), sigma the least (eps, delta)-DP one at L2 sensitivity 2 sqrt(k)/n, are "
                   "within alpha of D's answers on every query w.p. >= 1 - beta once n >= private_samples."),
        source=("Dwork & Roth (2014) Theorem A.1; Balle & Wang (2018) Theorem 8 (the exact calibration); "
                "Hoeffding (1963) with a union bound"),
        params=("alpha", "beta", "epsilon", "delta", "num_hypotheses"),
        domain=_GAUSS_DOMAIN,
        constants={"C_g": "constant of the O-form"},
        quantities=_n_steps(
            Implicit("n", gaussian_noise_g, "log delta_BW(eps; 4 sqrt(k) sqrt(2 log(2k/beta))/(alpha n)) <= "
                     "log delta", _one),
            "Balle-Wang Thm 8 at mu = (2 sqrt(k)/n)/sigma_max, sigma_max = alpha/(2 sqrt(2 log(2k/beta))) (union "
            "of k Gaussian tails, 2 Phibar(t) <= exp(-t^2/2)); the least integer n with delta(eps; mu) <= delta",
            hoeffding_union_n, "Hoeffding and a union bound: 2k exp(-n alpha^2/8) <= beta/2", _FINITE_MONO) + (
            Quantity("private_samples", "n", "private samples the Gaussian release needs for Err <= alpha w.p. "
                     ">= 1 - beta", asymptotic=_gaussian_asymptotic, constants=("C_g",), explicit=_max_n,
                     integer=True, derivation="max of the noise and sampling sizes (errors alpha/2 each, "
                     "failures beta/2 each)", monotone=_FINITE_MONO),
        ),
        notes=("Runs in O(k) per release: the strongest private-only release for a small class (k = 2000 stumps "
               "needs n ~ 10^4 at alpha = 0.3), exponential in p for conjunctions or parities on {0,1}^p.",
               "algorithms.opponents.gaussian_answers realises it (the same analytic calibration, "
               "algorithms.privacy.accounting.gaussian_sigma_analytic; a test holds the two equal)."),
    ),
    Result(
        id="baselines:laplace",
        paper="baseline",
        label="Laplace mechanism on every answer (no public data, pure DP)",
        kind="baseline",
        statement=("Pure eps-DP query release with no public data: the k private empirical answers plus "
                   "Lap(2k/(n eps)) each are within alpha of D's answers on every query w.p. >= 1 - beta once "
                   "n >= private_samples."),
        source="Dwork & Roth (2014) Theorem 3.6 and Theorem 3.8 (the tail); Hoeffding (1963) with a union bound",
        params=("alpha", "beta", "epsilon", "num_hypotheses"),
        constants={"C_l": "constant of the O-form"},
        quantities=_n_steps(
            laplace_noise_n, "k exp(-alpha n eps/(4k)) <= beta/2 (Laplace tails, union over k)",
            hoeffding_union_n, "Hoeffding and a union bound: 2k exp(-n alpha^2/8) <= beta/2",
            {k: v for k, v in _FINITE_MONO.items() if k != "delta"}) + (
            Quantity("private_samples", "n", "private samples the Laplace release needs for Err <= alpha w.p. "
                     ">= 1 - beta", asymptotic=_laplace_asymptotic, constants=("C_l",), explicit=_max_n,
                     integer=True, derivation="max of the noise and sampling sizes",
                     monotone={k: v for k, v in _FINITE_MONO.items() if k != "delta"}),
        ),
    ),
)


def _tree_result(kind, factor, t_inv, label):
    mono = {"alpha": -1, "beta": -1, "eps": -1, "delta": -1}
    return Result(
        id=f"baselines:tree_{kind}",
        paper="baseline",
        label=f"Binary-tree mechanism for {label} (no public data)",
        kind="baseline",
        statement=(f"Private release of {label} on a grid of N points with no public data: the binary-tree (CDF) "
                   "mechanism with Gaussian node noise at (eps, delta) answers every query within alpha of D's "
                   "answers w.p. >= 1 - beta once n >= private_samples (polylogarithmic in N)."),
        source=("Dwork, Naor, Pitassi & Rothblum (2010); Chan, Shi & Song (2011) (the tree); Balle & Wang (2018) "
                "Theorem 8 (calibration); Dvoretzky-Kiefer-Wolfowitz with Massart's (1990) constant"),
        params=("alpha", "beta", "epsilon", "delta", "domain_size"),
        domain={**_GAUSS_DOMAIN, "domain_size": Interval(2, float("inf"), False, True, integer=True)},
        constants={"C_t": "constant of the O-form"},
        quantities=(
            Quantity("levels", "L", "tree levels ceil(log2 N)", explicit=tree_levels, order="exact",
                     intermediate=True, derivation="the least grid of 2^L >= N points"),
            Quantity("private_samples_noise", "n_noise", "private samples for noise <= alpha/2 on every query "
                     "w.p. >= 1 - beta/2", explicit=Implicit("n", _tree_noise_g(factor), "log delta_BW(eps; "
                                                             f"{factor} L sqrt(log(2N/beta))/(alpha n)) <= log "
                                                             "delta", _one),
                     integer=True, intermediate=True, derivation=_tree_noise_g(factor).__doc__, monotone=mono),
            Quantity("private_samples_sampling", "n_sample", "private samples for sampling error <= alpha/2 w.p. "
                     ">= 1 - beta/2", explicit=_dkw_n(t_inv), integer=True, intermediate=True,
                     derivation=_dkw_n(t_inv).__doc__, monotone={"alpha": -1, "beta": -1}),
            Quantity("private_samples", "n", f"private samples the tree release of {label} needs",
                     asymptotic=_tree_asymptotic, constants=("C_t",), explicit=_max_n, integer=True,
                     derivation="max of the noise and sampling sizes", monotone=mono),
        ),
        notes=("algorithms.opponents.TreeMechanism realises it on grids up to 2^64 points without materialising "
               "them.",),
    )


register(_tree_result("thresholds", 8, 4, "thresholds"), _tree_result("intervals", 16, 8, "intervals"))


# --- the generic private learner (no public data) ------------------------------------------------------------------

def em_selection_n(o, alpha, beta, eps, num_hypotheses):
    """Dwork-Roth Thm 3.11 (t = ln(2/beta)): empirical excess <= 2 (ln|H| + ln(2/beta))/(eps n) <= alpha/2."""
    return o.ceil(4 * (o.log(num_hypotheses) + o.log(2 / beta)) / (eps * alpha))


def finite_uc_learning_n(o, alpha, beta, num_hypotheses):
    """Hoeffding for 0/1 losses, union over H: 2|H| exp(-2 n (alpha/4)^2) <= beta/2 (excess <= 2 * alpha/4)."""
    return o.ceil(8 * o.log(4 * num_hypotheses / beta) / alpha**2)


def _em_asymptotic(o, alpha, beta, eps, num_hypotheses, C_em):
    return C_em * (o.log(num_hypotheses / beta) / (alpha * eps) + o.log(num_hypotheses / beta) / alpha**2)


def _max_select(o, n_select, n_sample):
    return o.max(n_select, n_sample)


_EM_MONO = {"alpha": -1, "beta": -1, "eps": -1, "num_hypotheses": +1}

register(Result(
    id="baselines:em_learner",
    index_items=("A12",),
    paper="baseline",
    label="Generic private learner: exponential mechanism over H (no public data)",
    kind="baseline",
    statement=("Agnostic private learning of a finite class with no public data: the exponential mechanism with "
               "score minus the error count is eps-DP and its hypothesis's population error is within alpha of "
               "the best in H w.p. >= 1 - beta once n >= private_samples."),
    source=("Kasiviswanathan, Lee, Nissim, Raskhodnikova & Smith (2008) Theorem 3.4; Dwork & Roth (2014) Theorems "
            "3.10-3.11; Hoeffding (1963) with a union bound"),
    params=("alpha", "beta", "epsilon", "num_hypotheses"),
    constants={"C_em": "constant of the O-form"},
    quantities=(
        Quantity("private_samples_selection", "n_select", "private samples for empirical excess <= alpha/2 w.p. "
                 ">= 1 - beta/2", explicit=em_selection_n, integer=True, intermediate=True,
                 derivation=em_selection_n.__doc__, monotone=_EM_MONO),
        Quantity("private_samples_sampling", "n_sample", "private samples for |err_S - err_D| <= alpha/4 on all of "
                 "H w.p. >= 1 - beta/2", explicit=finite_uc_learning_n, integer=True, intermediate=True,
                 derivation=finite_uc_learning_n.__doc__,
                 monotone={"alpha": -1, "beta": -1, "num_hypotheses": +1}),
        Quantity("private_samples", "n", "private samples the exponential-mechanism learner needs for excess error "
                 "<= alpha w.p. >= 1 - beta", asymptotic=_em_asymptotic, constants=("C_em",),
                 explicit=_max_select, integer=True,
                 derivation="max of the selection and sampling sizes (alpha/2 each, beta/2 each)", monotone=_EM_MONO),
    ),
    notes=("algorithms.opponents.exponential_learner realises it on labelled histograms.",),
))


# --- public data alone on a finite class -----------------------------------------------------------------------------

def public_union_n(o, alpha, beta, num_hypotheses):
    """Hoeffding for the mean of m answers in {-1, +1}, union over the k queries: 2k exp(-m alpha^2/2) <= beta iff
    m >= 2 log(2k/beta)/alpha^2."""
    return o.ceil(2 * o.log(2 * num_hypotheses / beta) / alpha**2)


def _public_finite_asymptotic(o, alpha, beta, num_hypotheses, C_pf):
    return C_pf * o.log(num_hypotheses / beta) / alpha**2


register(Result(
    id="baselines:public_finite",
    paper="baseline",
    label="Public data alone on a finite class (no privacy)",
    kind="baseline",
    statement=("Query release of a finite class of k queries from public data alone: the m public empirical answers "
               "(on [-1, 1]) are within alpha of D's answers on every query w.p. >= 1 - beta once m >= "
               "public_samples = O(log(k/beta)/alpha^2); for BCMNUW20's decision stumps (k = p) the O(log p/alpha^2) "
               "public samples of its Sections 1 and 4."),
    source=("Hoeffding (1963) with a union bound; BCMNUW20 Section 4 ('can be released using ... O(log(p)/alpha^2) "
            "public samples and no private samples')"),
    params=("alpha", "beta", "num_hypotheses"),
    constants={"C_pf": "constant of the O-form"},
    quantities=(
        Quantity("public_samples", "m", "public samples for error <= alpha on every query w.p. >= 1 - beta",
                 asymptotic=_public_finite_asymptotic, constants=("C_pf",), explicit=public_union_n, integer=True,
                 derivation=public_union_n.__doc__, monotone={"alpha": -1, "beta": -1, "num_hypotheses": +1}),
    ),
    notes=("algorithms.opponents.public_empirical realises it; simulations/experiments/stumps_baselines.py runs it "
           "on decision stumps beside the Gaussian release (baselines:gaussian, BCMNUW20's private-only "
           "O~(log p/alpha^2 + sqrt(p)/alpha)).",),
))
