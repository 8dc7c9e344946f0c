"""LVSUW21 Theorem 4.4, explicit (bounds.papers.lvsuw21_thm44): one check per step of the MWEM analysis redone for
PMW^Pub's permute-and-flip selection and clipped Gaussian measurement. Registered from proofs_checks.lvsuw21."""
from __future__ import annotations

import math

import numpy as np

from bounds.ops import NUMPY
from bounds.papers import lvsuw21_thm44 as L

from .core import Case, Check, Exhaustive, Identity, Inequality, MonteCarlo, Var, bounds_value, register

PAPER = "LVSUW21"
DERIV = "bounds.papers.lvsuw21_thm44 (module docstring, step {})"


def kl_claim(cap: float, text: str) -> Exhaustive:
    """Step 1: KL(A* || A_0) <= cap(m) for A_0 the histogram of m public rows and any A* on its support."""

    def cases():
        rng = np.random.default_rng(44)
        for k in range(300):
            m = int(rng.integers(1, 200))
            counts = np.bincount(rng.integers(0, int(rng.integers(1, m + 1)), m))
            counts = counts[counts > 0]
            star = np.zeros(counts.size)
            star[int(np.argmin(counts))] = 1.0 if k % 2 else 0.0     # a point mass on the rarest row: the worst A*
            if k % 2 == 0:
                star = rng.dirichlet(np.ones(counts.size) * 0.1)
            yield Case(f"m={m}, #{k}", {"m": m, "counts": counts, "star": star}, size=m)

    def holds(case):
        A0 = case.data["counts"] / case.data["m"]
        s = case.data["star"]
        kl = float(np.sum(s[s > 0] * np.log(s[s > 0] / A0[s > 0])))
        return kl <= cap(case.data["m"]) + 1e-12, {"KL": kl}

    return Exhaustive(text, cases, holds)


def hoeffding_lhs(o, lam, p):
    """log E e^{lam q} for q in {0, 1} with P[q = 1] = p (two-point laws are the extreme case on [0, 1])."""
    return o.log1p(p * o.expm1(lam))  # log(1 - p + p e^lam), stable for small lam


def hoeffding_rhs(c):
    return lambda o, lam, p: lam * p + c * lam**2


HOEFF = (Var("lam", -0.5, 0.5, log=False, points=101), Var("p", 0.0, 1.0, log=False, points=101))


def _hoeffding_gap_diff(o, lam, p, c, k):
    """sympy's k-th lam-derivative of the gap f(lam, p) = (lam p + c lam^2) - log(1 - p + p e^lam), computed from the
    claim's own sides (so the identities below are about the claim's gap, not a hand-written derivative)."""
    import sympy as sp

    x = sp.Symbol("lam_", real=True)
    gap = hoeffding_rhs(c)(o, x, p) - hoeffding_lhs(o, x, p)
    return sp.diff(gap, x, k).subs(x, lam)


def _hoeffding_t(o, lam, p):
    return p * o.exp(lam) / (1 - p + p * o.exp(lam))


def hoeffding_parts(c: float) -> tuple:
    """Hoeffding's lemma for a Bernoulli(p), log(1 - p + p e^lam) <= lam p + c lam^2, restated through Taylor's
    theorem with the integral remainder: the gap f(lam) = lam p + c lam^2 - log(1 - p + p e^lam) has (1) f(0) = 0 and
    (2) f'(0) = 0 (sympy), and (3) f''(lam) = (t - 1/2)^2 + (2c - 1/4) with t = p e^lam/(1 - p + p e^lam) (sympy; the
    derivatives are sympy's of the claim's own sides), and (4) (t - 1/2)^2 + (2c - 1/4) >= 0 on the whole box (for
    c = 1/8 a square: interval arithmetic's even power is exact). Then f(lam) = int_0^lam (lam - s) f''(s) ds >= 0 for
    lam of either sign and each p in [0, 1] (1 - p + p e^lam > 0 there): the conjunction implies the claim on its whole
    box, and the tight point lam = 0 (margin of order lam^4 at p = 1/2) is no longer one the prover has to approach."""
    lam_p = HOEFF[1:]
    sq = "(t - 1/2)^2" + (f" - {1 / 4 - 2 * c:g}" if c != 1 / 8 else "")
    return (
        Identity("f(0) = 0", lambda o, p: _hoeffding_gap_diff(o, 0, p, c, 0), lambda o, p: 0 * p, lam_p),
        Identity("f'(0) = 0", lambda o, p: _hoeffding_gap_diff(o, 0, p, c, 1), lambda o, p: 0 * p, lam_p),
        Identity(f"f''(lam) = {sq}, t = p e^lam/(1 - p + p e^lam)",
                 lambda o, lam, p: _hoeffding_gap_diff(o, lam, p, c, 2),
                 lambda o, lam, p: (_hoeffding_t(o, lam, p) - 0.5) ** 2 + (2 * c - 0.25), HOEFF),
        Inequality(f"{sq} >= 0",
                   lambda o, lam, p: 0 * lam,
                   lambda o, lam, p: (_hoeffding_t(o, lam, p) - 0.5) ** 2 + (2 * c - 0.25), HOEFF),
    )


def round_gain_lhs(o, e, nu1, phi, f, nu):
    """Step 3: (d/2)(e + phi) - d^2/32 with d = e + nu1 (nu1 = a_t - q_t(D~), phi = q_t(A*) - q_t(D~))."""
    d = e + nu1
    return d * (e + phi) / 2 - d**2 / 32


def round_gain_rhs(k):
    def rhs(o, e, nu1, phi, f, nu):
        return k * e**2 - o.max(e, -e) / 2 * (f + 9 * nu / 8) - (f * nu / 2 + nu**2 / 32)
    return rhs


ROUND = (Var("e", -1, 1, log=False, points=21), Var("nu1", -1, 1, log=False, points=11),
         Var("phi", -1, 1, log=False, points=11), Var("f", 0, 1, log=False, points=9),
         Var("nu", 0, 1, log=False, points=9))


def _round_where(o, e, nu1, phi, f, nu):
    return (o.max(nu1, -nu1) <= nu) & (o.max(phi, -phi) <= f)


def root_claim(scale: float, text: str) -> Exhaustive:
    """Step 4: every E >= 0 with (15/32) E^2 - (b/2) E - c0 - L/T <= 0 is <= scale * (the root bounds computes)."""

    def cases():
        rng = np.random.default_rng(441)
        for k in range(400):
            f, nu, m, T = rng.uniform(0, 0.3), rng.uniform(0,
                                                           0.3), int(rng.integers(1, 10**6)), int(
                                                               rng.integers(1, 10**4))
            yield Case(f"#{k}", {"f": f, "nu": nu, "m": m, "T": T}, size=k)

    def holds(case):
        f, nu, m, T = (case.data[k] for k in ("f", "nu", "m", "T"))
        b, c0 = f + 9 * nu / 8, f * nu / 2 + nu**2 / 32
        E = np.linspace(0, 10, 200001)
        feasible = E[(15 / 32) * E**2 - (b / 2) * E - c0 - math.log(m) / T <= 0]
        root = float(L.thm44_mw_error(NUMPY, m, f, T, nu)) * scale
        return float(feasible.max()) <= root + 1e-9, {"largest_feasible": float(feasible.max()), "bound": root}

    return Exhaustive(text, cases, holds)


def pf_claim(factor: float, text: str) -> Exhaustive:
    """Step 5: permute-and-flip (eps, sensitivity 1/n) returns a score below max - c w.p. <= |Q| e^{-eps n c/2}
    (exact law: algorithms.privacy.permute_and_flip_probabilities); checked at c = factor * (2/(eps n)) ln(|Q|/b)."""

    def cases():
        rng = np.random.default_rng(442)
        for k in range(200):
            Q, n, eps = int(rng.integers(2, 40)), int(rng.integers(10, 2000)), float(rng.uniform(0.01, 2))
            scores = rng.uniform(0, 1, Q) * rng.choice([1.0, 0.05])
            yield Case(f"#{k} (|Q|={Q})", {"scores": scores, "n": n, "eps": eps, "b": float(rng.uniform(0.01, 0.5))},
                       size=k)

    def holds(case):
        from algorithms.privacy.mechanisms import permute_and_flip_probabilities

        s, n, eps, b = (case.data[k] for k in ("scores", "n", "eps", "b"))
        c = factor * 2 * math.log(s.size / b) / (eps * n)
        pr = permute_and_flip_probabilities(s, eps=eps, sensitivity=1 / n)
        bad = float(pr[s < s.max() - c].sum())
        return bad <= b + 1e-12, {"P_bad": bad, "b": b}

    return Exhaustive(text, cases, holds)


def gaussian_claim(scale: float, text: str) -> MonteCarlo:
    """Step 5: T clipped Gaussian measurements a_t = clip(q_t + N(0, sigma^2), 0, 1) all within nu of q_t except w.p.
    beta/2, nu = sigma sqrt(2 ln(4T/beta)) as bounds computes it (scaled by ``scale``)."""
    n, eps_tilde, beta, T = 500, 1.0, 0.2, 50
    nu = float(L.thm44_noise(NUMPY, n, beta, eps_tilde, T)) * scale
    sigma = math.sqrt(2 * T) / (n * eps_tilde)

    def trials(rng, k):
        q = rng.uniform(0, 1, (k, T))
        a = np.clip(q + rng.normal(0, sigma, (k, T)), 0, 1)
        return int((np.abs(a - q).max(axis=1) > nu).sum())

    return MonteCarlo(text, trials, bound=beta / 2, n_trials=20000, seed=443)


def end_to_end_claim(scale: float, text: str) -> MonteCarlo:
    """Steps 1-6 on the workbench's PMW^Pub (algorithms.query_release.pmw_pub at T*, eps~ = 1): max error over the 54
    two-way marginal queries of a 3^4 domain <= scale * bounds' explicit error, w.p. >= 1 - beta (beta = 0.1); n = 3000
    private rows, m = 60 public ones, every other trial with public data that never shows attribute 0's mode (f ~ 0.3),
    f computed by the best-mixture LP per trial. The algorithms are imported when the check runs, not when it is
    registered (``--list`` imports only what it prints)."""
    n, m, beta = 3000, 60, 0.1

    def trials(rng, k):
        from algorithms.query_release.mixture import best_mixture_error
        from algorithms.query_release.pmw_pub import distinct_rows, marginal_answers, pmw_pub
        from algorithms.query_release.workloads import CategoricalDomain, MarginalQueries, all_k_way

        dom = CategoricalDomain((3, 3, 3, 3))
        wl = all_k_way(dom, 2)
        bad = 0
        for i in range(k):
            priv = rng.integers(0, 3, (n, 4))
            pub = rng.integers(0, 3, (m, 4))
            if i % 2:
                priv[:, 0] = np.where(rng.random(n) < 0.9, 1, priv[:, 0])
                pub[:, 0] = 0
            true = marginal_answers(dom, wl, priv)
            f = best_mixture_error(true, MarginalQueries(dom, wl, distinct_rows(pub)[0])).error
            kw = dict(private_samples=n, public_samples=m, num_queries=true.size, beta=beta, eps_tilde=1.0,
                      best_mixture_error=min(max(f, 1e-12), 1 - 1e-12))
            T = int(bounds_value("lvsuw21:thm4.4", "iterations", **kw))
            bound = float(bounds_value("lvsuw21:thm4.4", "error", **kw))
            out = pmw_pub(priv, pub, dom, wl, 1.0, T, rng).value
            bad += int(np.max(np.abs(out.answers - true)) > scale * bound)
        return bad

    return MonteCarlo(text, trials, bound=beta, n_trials=200, seed=444)


def assembly_claim(factor: float, text: str) -> Exhaustive:
    """Step 6 at bounds' values: error = E_mw + c_sel at T*, and T* is no worse than T = 1, 10, 100, 1000, 10^4."""

    def cases():
        for n in (10**3, 10**5):
            for m in (10, 1000):
                for f in (0.0, 0.05):
                    yield Case(f"n={n}, m={m}, f={f}", {"n": n, "m": m, "f": f}, size=n + m)

    def holds(case):
        kw = dict(private_samples=case.data["n"], public_samples=case.data["m"], num_queries=1000, beta=0.05,
                  eps_tilde=1.0, best_mixture_error=case.data["f"])
        v = {k: float(bounds_value("lvsuw21:thm4.4", k, **kw)) for k in ("iterations", "mw_error", "selection_error",
                                                                          "noise_bound", "error")}
        args = (case.data["n"], case.data["m"], 1000, 0.05, 1.0, case.data["f"])
        others = [float(L.thm44_bound_at(NUMPY, *args, T)) for T in (1, 10, 100, 1000, 10**4)]
        ok = (abs(v["error"] - (v["mw_error"] + v["selection_error"])) <= 1e-12 * v["error"]
              and factor * v["error"] <= min(others) * (1 + 1e-12))
        return ok, {"error": v["error"], "best_other": min(others)}

    return Exhaustive(text, cases, holds)


register(
    Check(
        id="lvsuw21:thm4.4.potential-start", paper=PAPER, result="thm4.4",
        claim="Theorem 4.4 explicit, step 1: KL(A* || A_0) <= log m for A_0 the public histogram and any A* on its "
              "support",
        source=DERIV.format(1), method="exhaustive",
        stated=kl_claim(math.log, "<= log m"),
        perturbed={"log m / 2": kl_claim(lambda m: math.log(m) / 2, "<= log(m)/2")},
    ),
    Check(
        id="lvsuw21:thm4.4.hoeffding", paper=PAPER, result="thm4.4",
        claim="Theorem 4.4 explicit, step 2: log E e^{lam q} <= lam E q + lam^2/8 for q in [0, 1] (Hoeffding's lemma)",
        source=DERIV.format(2), method="numeric grid + hypothesis",
        stated=Inequality("log E e^{lam q} <= lam p + lam^2/8", hoeffding_lhs, hoeffding_rhs(1 / 8), HOEFF,
                          proved_as=hoeffding_parts(1 / 8)),
        perturbed={"lam^2/16": Inequality("... <= lam p + lam^2/16", hoeffding_lhs, hoeffding_rhs(1 / 16), HOEFF)},
    ),
    Check(
        id="lvsuw21:thm4.4.round-gain", paper=PAPER, result="thm4.4",
        claim=("Theorem 4.4 explicit, step 3: (d/2)(e + phi) - d^2/32 >= (15/32) e^2 - (|e|/2)(f + 9 nu/8) - f nu/2 - "
               "nu^2/32 for d = e + nu', |nu'| <= nu, |phi| <= f"),
        source=DERIV.format(3), method="numeric grid + hypothesis", formula_from="bounds:thm4.4",
        stated=Inequality("one round's gain", round_gain_lhs, round_gain_rhs(15 / 32), ROUND, rel=">=",
                          where=_round_where),
        perturbed={"e^2/2": Inequality("gain >= e^2/2 - ...", round_gain_lhs, round_gain_rhs(0.5), ROUND, rel=">=",
                                       where=_round_where)},
    ),
    Check(
        id="lvsuw21:thm4.4.root", paper=PAPER, result="thm4.4",
        claim="Theorem 4.4 explicit, step 4: (15/32) E^2 - (b/2) E - c0 - log(m)/T <= 0 implies E <= bounds' mw_error",
        source=DERIV.format(4), method="exhaustive", formula_from="bounds:thm4.4",
        stated=root_claim(1.0, "E <= root"),
        perturbed={"root / 2": root_claim(0.5, "E <= root/2")},
    ),
    Check(
        id="lvsuw21:thm4.4.selection", paper=PAPER, result="thm4.4",
        claim=("Theorem 4.4 explicit, step 5: permute-and-flip at eps_0 (sensitivity 1/n) picks a score within "
               "(2/(eps_0 n)) ln(|Q|/b) of the largest except w.p. b (exact law)"),
        source=DERIV.format(5) + "; McKenna-Sheldon 2020", method="exhaustive",
        stated=pf_claim(1.0, "c = (2/(eps n)) ln(|Q|/b)"),
        perturbed={"c / 4": pf_claim(0.25, "c/4")},
    ),
    Check(
        id="lvsuw21:thm4.4.measurement", paper=PAPER, result="thm4.4",
        claim="Theorem 4.4 explicit, step 5: T clipped Gaussian measurements all within nu except w.p. beta/2",
        source=DERIV.format(5), method="monte carlo", formula_from="bounds:thm4.4",
        stated=gaussian_claim(1.0, "nu from bounds"),
        perturbed={"nu / 2": gaussian_claim(0.5, "nu/2")},
    ),
    Check(
        id="lvsuw21:thm4.4.end-to-end", paper=PAPER, result="thm4.4",
        claim=("Theorem 4.4 explicit, all steps on the workbench's PMW^Pub at T*: max error <= the explicit bound "
               "w.p. >= 1 - beta (public data with small and with large best-mixture error f)"),
        source=DERIV.format("1-6") + "; algorithms.query_release.pmw_pub", method="monte carlo",
        formula_from="bounds:thm4.4",
        stated=end_to_end_claim(1.0, "error <= bound"),
        perturbed={"bound / 3": end_to_end_claim(1 / 3, "error <= bound/3")},
    ),
    Check(
        id="lvsuw21:thm4.4.assembly", paper=PAPER, result="thm4.4",
        claim="Theorem 4.4 explicit, step 6 at bounds' values: error = E_mw + c_sel at T*, no worse than other T",
        source=DERIV.format(6), method="exhaustive", formula_from="bounds:thm4.4",
        stated=assembly_claim(1.0, "error at T*"),
        perturbed={"error / 2 beats every T": assembly_claim(2.0, "2 error <= every other T's bound")},
    ),
)
