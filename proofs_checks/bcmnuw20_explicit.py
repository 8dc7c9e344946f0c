"""BCMNUW20 Theorems 13, 14, 15 and Lemma 17, explicit (bounds.papers.bcmnuw20_explicit): one check per step of the
derivation for the workbench's tracing attack and query-release-to-learning reduction, and the checks of the
departures from the printed text (errata bcmnuw20-thm14-whp, bcmnuw20-lemma17-labelled,
bcmnuw20-thm15-regime). Registered from proofs_checks.bcmnuw20."""
from __future__ import annotations

import functools
import math

import numpy as np

from bounds.ops import NUMPY
from bounds.papers import bcmnuw20_explicit as L

from .core import FAILS, Case, Check, Exhaustive, Identity, Inequality, MonteCarlo, Var, bounds_value, register

PAPER = "BCMNUW20"
SRC = "000_f1b0431f359f12a2.txt (ICML), 003_95100840c5f51bc1.txt (arXiv)"
DERIV = "bounds.papers.bcmnuw20_explicit (module docstring, step {})"


# --- step 3: the score identity and integration by parts ---------------------------------------------
def score_identity_claim(weight, text: str) -> Exhaustive:
    """E[f(x) sum_i (x_i - mu)] = weight(mu) d/dmu E[f(x)] for x_i i.i.d. +-1 with mean mu, every f on {+-1}^s.
    Exact: both sides are polynomials in mu (sums over the 2^s patterns), compared at 9 values of mu."""

    def cases():
        rng = np.random.default_rng(14)
        for s in (1, 2, 3, 4):
            pats = 1 - 2 * ((np.arange(2**s)[:, None] >> np.arange(s)) & 1)      # every x in {+-1}^s
            for k in range(25):
                f = rng.uniform(-1, 1, 2**s)
                yield Case(f"s={s}, f #{k}", {"s": s, "f": f, "pats": pats}, size=s)

    def holds(case):
        f, pats = case.data["f"], case.data["pats"]
        P = np.polynomial.Polynomial
        law = [np.prod([P([0.5, 0.5 * xi]) for xi in x]) for x in pats]       # P[x | mu] = prod (1 + x_i mu)/2
        Ef = sum((fi * w for fi, w in zip(f, law)), P([0]))
        lhs = sum((fi * w * P([x.sum(), -len(x)]) for fi, w, x in zip(f, law, pats)), P([0]))
        mus = np.linspace(-0.9, 0.9, 9)
        gap = np.max(np.abs(lhs(mus) - weight(mus) * Ef.deriv()(mus)))
        return gap < 1e-9, {"max_gap": float(gap)}

    return Exhaustive(text, cases, holds)


def _poly_g(c0, c1, c2, c3):
    return lambda m: c0 + c1 * m + c2 * m**2 + c3 * m**3


def by_parts_lhs(o, gamma, c0, c1, c2, c3):
    """(1/(2 gamma)) int_{-gamma}^{gamma} (1 - mu^2) g'(mu) dmu for the cubic g = c0 + c1 mu + c2 mu^2 + c3 mu^3."""
    if o.name == "sympy":
        import sympy as sp

        m = sp.Symbol("mu", real=True)
        g = _poly_g(c0, c1, c2, c3)(m)
        return sp.integrate((1 - m**2) * sp.diff(g, m), (m, -gamma, gamma)) / (2 * gamma)
    # the antiderivative of (1 - mu^2) g'(mu), a polynomial of degree 5, at +-gamma
    def F(m):
        return (c1 * m + c2 * m**2 + c3 * m**3 - c1 * m**3 / 3 - c2 * m**4 / 2 - 3 * c3 * m**5 / 5)
    return (F(gamma) - F(-gamma)) / (2 * gamma)


def by_parts_rhs(factor):
    def rhs(o, gamma, c0, c1, c2, c3):
        g = _poly_g(c0, c1, c2, c3)
        if o.name == "sympy":
            import sympy as sp

            m = sp.Symbol("mu", real=True)
            integral = sp.integrate(m * g(m), (m, -gamma, gamma))
        else:
            integral = 2 * (c1 * gamma**3 / 3 + c3 * gamma**5 / 5)   # odd part of mu g(mu) integrates to 0
        return (1 - gamma**2) * (g(gamma) - g(-gamma)) / (2 * gamma) + factor * integral / (2 * gamma)
    return rhs


CUBIC = (Var("gamma", 0.01, 1.0, points=8), Var("c0", -1, 1, log=False, points=5),
         Var("c1", -2, 2, log=False, points=5), Var("c2", -1, 1, log=False, points=5),
         Var("c3", -1, 1, log=False, points=5))

@functools.cache
def _gauss_legendre():
    """Gauss-Legendre nodes for the averages over U[-gamma, gamma] (exact for polynomials of degree < 400); built on
    first use, so that listing the checks does not solve their 200-point eigenproblem."""
    return np.polynomial.legendre.leggauss(200)


def fingerprint_signal(o, a, gamma, k, theta):
    """(1/(2 gamma)) int_{-gamma}^{gamma} (1 - mu^2) g'(mu) dmu for g(mu) = mu - a theta tanh(k mu) (|g - mu| <= a);
    with theta = 1 and k -> inf the bound F(a, gamma) is approached. The spike k sech^2(k mu) is integrated in
    closed form (int k sech^2 = 2 tanh(k gamma); int mu^2 k sech^2 = 2 gamma^2 tanh(k gamma) - J by parts), so only
    J = int_{-gamma}^{gamma} mu tanh(k mu) dmu (bounded integrand) is left to Gauss-Legendre:
    average = 1 - gamma^2/3 - (a theta/gamma) ((1 - gamma^2) tanh(k gamma) + J)."""
    a, gamma, k, theta = (np.asarray(v, dtype=float) for v in (a, gamma, k, theta))
    x, w = _gauss_legendre()
    mu = gamma[..., None] * (x + 1) / 2                       # nodes on [0, gamma]
    J = 2 * (mu * np.tanh(k[..., None] * mu) * w).sum(axis=-1) * gamma / 2
    return 1 - gamma**2 / 3 - (a * theta / gamma) * ((1 - gamma**2) * np.tanh(k * gamma) + J)


def signal_floor_rhs(shift):
    return lambda o, a, gamma, k, theta: L.thm14_signal_floor(o, gamma, a) + shift


FLOOR_DOMAIN = (Var("a", 1e-3, 0.5, points=12), Var("gamma", 0.02, 1.0, points=12),
                Var("k", 0.1, 1e4, points=12), Var("theta", -1, 1, log=False, points=9))


# --- step 2: the accuracy slack ------------------------------------------------------------------------
SLACK_DOMAIN = (Var("alpha", 1e-4, 0.99, points=40), Var("gamma", 1e-3, 1.0, points=40),
                Var("u", 0.0, 1.0, log=False, points=21))


def slack_lhs(o, alpha, gamma, u):
    """alpha (1 - b) + (1 + gamma) b at failure b = u alpha in [0, alpha]."""
    b = u * alpha
    return alpha * (1 - b) + (1 + gamma) * b


# --- step 1: soundness --------------------------------------------------------------------------------
def soundness_claim(c: float, text: str) -> Exhaustive:
    """Equal weights, mu = 0 (where Hoeffding's lemma is tight): score/(v) = 2 (B - p), B ~ Bin(2p, 1/2), and
    tau = c ||v|| sqrt(L) = c v sqrt(p L): P[B - p > c sqrt(p L)/2] <= e^{-L}, exactly (binomial tail)."""

    def cases():
        for p in (1, 2, 3, 5, 10, 30, 100, 300, 1000):
            for Lv in (0.5, 1, 2, 3, 5, 8, 12, 20):
                yield Case(f"p={p}, L={Lv}", {"p": p, "L": Lv}, size=p + Lv)

    def holds(case):
        from scipy.stats import binom  # on running the check: `proofs_checks --list` does not import scipy.stats

        p, Lv = case.data["p"], case.data["L"]
        thr = p + c * math.sqrt(p * Lv) / 2
        prob = float(binom.sf(math.floor(thr), 2 * p, 0.5))        # P[B > thr]
        return prob <= math.exp(-Lv) * (1 + 1e-12), {"P": prob, "bound": math.exp(-Lv)}

    return Exhaustive(text, cases, holds)


def attacker_soundness_claim(scale: float, text: str, f: float = 0.02) -> MonteCarlo:
    """The workbench's Attacker (analytic threshold at level f, scaled by ``scale``): a fresh sample is traced IN
    w.p. <= f, whatever the release; here releases within alpha of random biases (p = 40, gamma = 0.5)."""
    from algorithms.adversaries import tracing

    def trials(rng, n):
        bad = 0
        for _ in range(n):
            D = tracing.hard_distribution(40, 0.5, rng)
            q = D.marginals + rng.uniform(-0.2, 0.2, 40)
            T = tracing.Attacker.build(q, D.sample(1, rng))
            bad += int(T.trace(D.sample(1, rng), scale * T.analytic_threshold(f))[0])
        return bad

    return MonteCarlo(text, trials, bound=f, n_trials=4000, seed=1401)


# --- step 5: tails ---------------------------------------------------------------------------------
def opnorm_claim(bound_fn, text: str, s: int = 20, p: int = 40, gamma: float = 0.9, delta: float = 0.1) -> MonteCarlo:
    """P[||X - 1 mu^T||_op >= b] <= delta for X s x p of independent +-1 entries with means mu ~ U[-gamma, gamma]."""
    b = float(bound_fn(s, p, gamma, delta))

    def trials(rng, n):
        bad = 0
        for _ in range(n):
            mu = rng.uniform(-gamma, gamma, p)
            X = np.where(rng.random((s, p)) < (1 + mu) / 2, 1.0, -1.0)
            bad += int(np.linalg.norm(X - mu, 2) >= b)
        return bad

    return MonteCarlo(text, trials, bound=delta, n_trials=1500, seed=1402)


def _bernstein(s, p, gamma, delta):
    # the bounds formula with S = s (tail_failure delta given)
    return L.thm14_opnorm(NUMPY, p, s, gamma, delta)


def reference_claim(zeta_fn, text: str, p: int = 30, delta: float = 0.05, one_sided: bool = False) -> MonteCarlo:
    """P[|<z - mu, u>| > zeta] <= delta (``one_sided``: P[-<z - mu, u> > zeta] <= delta), u a fixed unit vector
    (drawn before z), mu ~ U[-1, 1]."""
    zeta = float(zeta_fn(delta))

    def trials(rng, n):
        mu = rng.uniform(-1, 1, (n, p))
        u = rng.normal(size=(n, p))
        u /= np.linalg.norm(u, axis=1, keepdims=True)
        u[: n // 2] = 1 / math.sqrt(p)   # half the trials at flat weights, where the sum is most Gaussian
        z = np.where(rng.random((n, p)) < (1 + mu) / 2, 1.0, -1.0)
        dev = -((z - mu) * u).sum(axis=1)
        return int(((dev if one_sided else np.abs(dev)) > zeta).sum())

    return MonteCarlo(text, trials, bound=delta, n_trials=20000, seed=1403)


# --- step 4: the counting inequality (deterministic) -----------------------------------------------------
def _tracing_instances(seed: int, count: int, s_range, p_range, f_range, scale_high: float, copies: bool = False):
    """Drawn instances (X, mu, q, z, f) for the deterministic counting steps: releases correlated with the samples,
    so that many are traced; with ``copies``, every other instance has near-copies of one row (the pairs bind)."""
    from algorithms.adversaries import tracing

    rng = np.random.default_rng(seed)
    for k in range(count):
        s, p = int(rng.integers(*s_range)), int(rng.integers(*p_range))
        D = tracing.hard_distribution(p, float(rng.uniform(0.05, 1)), rng)
        X = D.sample(s, rng).astype(float)
        if copies and k % 2:
            X = np.where(rng.random((s, p)) < 0.05, -1.0, 1.0) * X[0]
        lam = rng.uniform(0, 1)
        q = np.clip((1 - lam) * D.marginals + lam * X.mean(axis=0) * rng.uniform(0.5, scale_high), -1, 1)
        yield Case(f"instance {k} (s={s}, p={p})", {"X": X, "mu": D.marginals, "q": q,
                                                     "z": D.sample(1, rng)[0].astype(float),
                                                     "f": float(rng.uniform(*f_range))}, size=s + p)


def _traced(case):
    """(X, mu, q, z, f, N, S, ||q||): N traced IN at the analytic threshold of level f, S the sum of the scores."""
    from algorithms.adversaries import tracing

    X, mu, q, z, f = (case.data[k] for k in ("X", "mu", "q", "z", "f"))
    T = tracing.Attacker.build(q, z[None, :].astype(np.int8))
    N = int(T.trace(X.astype(np.int8), T.analytic_threshold(f)).sum())
    return X, mu, q, z, f, N, float(T.scores(X.astype(np.int8)).sum()), float(np.linalg.norm(q))


def counting_claim(with_members: bool, text: str) -> Exhaustive:
    """S = sum_i <x_i - z, q> <= ||q|| (2 s sqrt(ln 1/f) + sqrt(N) (||W|| + sqrt(s) |<z - mu, q/||q||>|)) with N the
    number traced IN at the analytic threshold: on every drawn instance (releases correlated with the samples, so
    that many are traced)."""
    def cases():
        return _tracing_instances(1404, 120, (1, 30), (5, 200), (1e-4, 0.5), 3)

    def holds(case):
        X, mu, q, z, f, N, S, nq = _traced(case)
        s = X.shape[0]
        W = X - mu
        zeta = abs(float((z - mu) @ q)) / nq if nq > 0 else 0.0
        members = math.sqrt(N) * (np.linalg.norm(W, 2) + math.sqrt(s) * zeta) if with_members else N * zeta
        rhs = nq * (2 * s * math.sqrt(math.log(1 / f)) + members)
        return S <= rhs + 1e-9, {"S": S, "rhs": rhs, "N": N}

    return Exhaustive(text, cases, holds)


# --- step 6: the assembly from bounds' values --------------------------------------------------------
ASSEMBLY_POINTS = [(a, p) for a in (0.0005, 0.001, 0.003, 0.007, 0.02, 0.1) for p in (100, 2000, 10**6)]


def _point_cases(points):
    return lambda: (Case(f"alpha={a}, p={p}", {"alpha": a, "p": p}, size=p / a) for a, p in points)


def _thm14_values(case, keys) -> tuple[float, int, dict]:
    """(alpha, p, {quantity: bounds' explicit value}) at a case of :func:`_point_cases`."""
    a, p = case.data["alpha"], case.data["p"]
    return a, p, {k: float(bounds_value("bcmnuw20:thm14", k, alpha=a, dual_vc=p)) for k in keys}


def assembly_claim(factor: float, text: str) -> Exhaustive:
    """At bounds' explicit values: S is the largest total with 2 S sqrt(2 ln S) <= kappa/2; for every s <= S the
    step-6 lower bound ((kappa - 2 s sqrt(2 ln S) - 4 (1 + gamma) s sqrt(p) delta)_+ / (b(s) + sqrt(s) zeta))^2,
    each tail at delta = 1/(S^2 p), is >= factor * K; t = 2 K - 1, r = S - t, f = 1/S^2."""

    def holds(case):
        a, p, v = _thm14_values(case, (
            "bias_range", "normalised_signal", "range_total", "tail_failure", "reference_bound",
            "expected_traced", "traced_t", "range_r", "failure_probability"))
        g, kappa, S, delta, zeta, K = (v[k] for k in ("bias_range", "normalised_signal", "range_total",
                                                      "tail_failure", "reference_bound", "expected_traced"))
        info = {"S": S, "K": K}
        if S >= 1:
            if 2 * S * math.sqrt(2 * math.log(S)) > kappa / 2 + 1e-9:
                return False, {**info, "why": "S exceeds the threshold budget"}
        if 2 * (S + 1) * math.sqrt(2 * math.log(S + 1)) <= kappa / 2:
            return False, {**info, "why": "S + 1 also fits: S is not the largest"}
        Se = max(S, 1)
        for s in sorted({1, max(1, int(Se) // 2), int(Se)}):
            b = float(L.thm14_opnorm(NUMPY, p, s, g, delta))
            num = kappa - 2 * s * math.sqrt(2 * math.log(Se)) - 4 * (1 + g) * s * math.sqrt(p) * delta
            bound = (max(num, 0) / (b + math.sqrt(s) * zeta)) ** 2
            if bound < factor * K * (1 - 1e-9):
                return False, {**info, "s": s, "lower_bound": bound}
        ok = (abs(v["traced_t"] - (2 * K - 1)) <= 1e-9 * max(1, K) and abs(v["range_r"] + v["traced_t"] - S)
              <= 1e-9 * max(1, S) and abs(v["failure_probability"] - 1 / Se**2) <= 1e-12)
        return ok, info

    return Exhaustive(text, _point_cases(ASSEMBLY_POINTS), holds)


# --- steps 4'-6': the tightened chain (bounds.papers.bcmnuw20_explicit, THM14_TIGHT_CHAIN) ------------------
def _pm1(rng, mu, k):
    return np.where(rng.random((k, mu.size)) < (1 + mu) / 2, 1.0, -1.0)


def row_norm_claim(bound_fn, text: str, s: int = 5, p: int = 40, delta: float = 0.1) -> MonteCarlo:
    """P[max_i ||x_i - mu||^2 > bound] <= delta over s rows; mu_j all equal to m with p m^2 = 2 L, L = ln(s/delta),
    where the AM-GM step 2 sqrt(2 U L) <= U + 2 L is tight (the worst bias for p + 2 L)."""
    m = math.sqrt(2 * math.log(s / delta) / p)

    def trials(rng, n):
        bad = 0
        for _ in range(n):
            mu = np.full(p, m) * rng.choice([-1.0, 1.0], p)
            W = _pm1(rng, mu, s) - mu
            bad += int(np.max((W**2).sum(axis=1)) > bound_fn(mu, s, delta))
        return bad

    return MonteCarlo(text, trials, bound=delta, n_trials=3000, seed=1405)


def cross_claim(scale: float, text: str, s: int = 6, p: int = 30, delta: float = 0.1) -> MonteCarlo:
    """P[max_{i != k} <x_i - mu, x_k - mu> > scale * c] <= 2 delta, c = sqrt(2 B_w ln(s^2/delta)) at bounds' B_w
    (the cross bound fails w.p. <= delta where the norms hold, the norms w.p. <= delta); mu = 0, where the
    products are Rademacher sums (the largest proxy)."""
    B_w = float(L.thm14_tight_row_norm(NUMPY, p, s, delta))
    c = scale * float(L.thm14_tight_cross(NUMPY, s, delta, B_w))

    def trials(rng, n):
        bad = 0
        off = ~np.eye(s, dtype=bool)
        for _ in range(n):
            W = _pm1(rng, np.zeros(p), s)
            bad += int(np.max((W @ W.T)[off]) > c)
        return bad

    return MonteCarlo(text, trials, bound=2 * delta, n_trials=3000, seed=1406)


def tight_counting_claim(with_pairs: bool, text: str) -> Exhaustive:
    """sum_i <x_i - z, q> <= ||q|| (2 s sqrt(ln 1/f) + sqrt(N max_i ||w_i||^2 + N^2 max(0, max_{i != k} <w_i, w_k>))
    + N max(0, -<z - mu, q/||q||>)), N the number traced IN at the analytic threshold (deterministic)."""
    def cases():  # the inequality is deterministic: near-copies of one row make the pairs' term bind
        return _tracing_instances(1407, 150, (2, 40), (3, 120), (1e-3, 0.6), 4, copies=True)

    def holds(case):
        X, mu, q, z, f, N, S, nq = _traced(case)
        s = X.shape[0]
        W = X - mu
        G = W @ W.T
        B_w = float(np.max(np.diag(G)))
        c = max(0.0, float(np.max(G[~np.eye(s, dtype=bool)]))) if with_pairs else 0.0
        zeta = max(0.0, -float((z - mu) @ q) / nq) if nq > 0 else 0.0
        rhs = nq * (2 * s * math.sqrt(math.log(1 / f)) + math.sqrt(N * B_w + N * N * c) + N * zeta)
        return S <= rhs + 1e-9, {"S": S, "rhs": rhs, "N": N}

    return Exhaustive(text, cases, holds)


def _h(N, B_w, c, zeta):
    return np.sqrt(N * B_w + N * N * c) + N * zeta


def tight_root_claim(formula, text: str) -> Exhaustive:
    """h(N) = sqrt(N B_w + N^2 c) + N zeta is increasing and concave on N >= 0 (so E h(N) <= h(E N), Jensen), and
    bounds' root N* has h(N*) = M: h(E N) >= M then gives E N >= N*. On a grid of (M, B_w, c, zeta), c below and
    above zeta^2."""

    def cases():
        for M in (0.5, 3.0, 40.0, 1e3, 1e5):
            for B in (10.0, 1e3, 1e6, 1e9):
                for c in (0.0, 1.0, 30.0, 1e3, 1e5):
                    for zeta in (0.0, 2.0, 8.0):
                        yield Case(f"M={M}, B_w={B}, c={c}, zeta={zeta}", {"M": M, "B": B, "c": c, "zeta": zeta},
                                   size=M)

    def holds(case):
        M, B, c, zeta = (case.data[k] for k in ("M", "B", "c", "zeta"))
        Ns = float(formula(NUMPY, M, B, c, zeta))
        grid = np.linspace(0, 2 * Ns + 1, 401)
        hv = _h(grid, B, c, zeta)
        inc = bool(np.all(np.diff(hv) >= -1e-9 * hv[-1]))
        conc = bool(np.all(hv[1:-1] >= (hv[:-2] + hv[2:]) / 2 - 1e-9 * hv[-1]))
        root = abs(float(_h(Ns, B, c, zeta)) - M) <= 1e-9 * M
        return inc and conc and root, {"N*": Ns, "h(N*)": float(_h(Ns, B, c, zeta)), "M": M}

    return Exhaustive(text, cases, holds)


def _wrong_root(o, M, B_w, c, zeta):
    b = B_w + 2 * M * zeta
    return 2 * M**2 / (b + o.sqrt(b**2 + 4 * (c + zeta**2) * M**2))


TIGHT_POINTS = [(a, p) for a in (0.001, 0.005, 0.02, 0.05, 0.08) for p in (2000, 10**5, 10**8)]


def tight_assembly_claim(factor: float, text: str) -> Exhaustive:
    """At bounds' values: the chain recomputed here by hand at S' gives K' >= factor (1 + 1)/2 (so t' >= 1), at
    S' + 1 it falls below 1 (S' is the largest), K' at every s <= S' (by the s-indexed union bounds of S') is
    >= K'(S'), and r' + t' = S', t' = 2K' - 1."""

    def K_at(p, kappa, S, s):
        delta = 1 / (S * S * p)
        B = p + 2 * math.log(S / delta)
        c = math.sqrt(2 * B * math.log(S * S / delta))
        zeta = math.sqrt(2 * math.log(1 / delta))
        M = max(kappa - 2 * s * math.sqrt(2 * math.log(S)) - 6 * s / (S * S * math.sqrt(p)), 0.0)
        b = B + 2 * M * zeta
        return 2 * M * M / (b + math.sqrt(b * b + 4 * (c - zeta**2) * M * M))

    def holds(case):
        a, p, v = _thm14_values(case, (
            "normalised_signal", "range_total_tight", "expected_traced_tight", "traced_t_tight", "range_r_tight"))
        kappa, S, K = v["normalised_signal"], v["range_total_tight"], v["expected_traced_tight"]
        info = {"S'": S, "K'": K}
        if S < 1:
            return K_at(p, kappa, 1, 1) <= 1.0, {**info, "why": "S' = 0: K'(1) must be <= 1"}
        if K_at(p, kappa, S + 1, S + 1) > 1.0:
            return False, {**info, "why": "S' + 1 also has t' > 1"}
        for s in sorted({1, max(1, int(S) // 2), int(S)}):
            if K_at(p, kappa, S, s) < factor * max(K, 1.0) * (1 - 1e-9):
                return False, {**info, "s": s, "K'(s)": K_at(p, kappa, S, s)}
        ok = abs(v["traced_t_tight"] - (2 * K - 1)) <= 1e-9 * K and abs(v["range_r_tight"] + v["traced_t_tight"] - S) <= 1e-9 * S
        return ok, info

    return Exhaustive(text, _point_cases(TIGHT_POINTS), holds)


# --- step 7 and Theorem 13 -----------------------------------------------------------------------------
def whp_claim(completeness, text: str) -> Exhaustive:
    """Theorem 14's completeness against the (alpha, alpha)-accurate release A' = empirical means w.p. 1 - alpha/2,
    the answer 0 w.p. alpha/2 (accurate when 2p e^{-s alpha^2/2} <= alpha/2, Hoeffding and a union bound). On the
    answer 0 the workbench's attacker has v = 0, tau = 0 and traces nobody, so P[#IN >= t/2] <= 1 - alpha/2 (t > 0);
    the claim P[#IN >= t/2] >= completeness(alpha, s) must not exceed that."""

    def cases():
        for a in (0.02, 0.05, 0.1, 0.2, 0.4):
            for p in (10, 100, 1000):
                s = math.ceil(2 * math.log(4 * p / a) / a**2)
                yield Case(f"alpha={a}, p={p}, s={s}", {"alpha": a, "p": p, "s": s}, size=p / a)

    def holds(case):
        a, s = case.data["alpha"], case.data["s"]
        need = completeness(a, s)
        return need <= 1 - a / 2, {"claimed": need, "achievable_at_most": 1 - a / 2}

    return Exhaustive(text, cases, holds)


def thm13_step_claim(slack: float, text: str) -> Exhaustive:
    """Theorem 13 with Theorem 14 in expectation: every integer m < t/2 + slack has E[#IN] - m >= (t+1)/2 - m >= 1/2
    (the private samples carry >= 1/2 of the expected traced count; some i* has >= 1/(2n))."""

    def cases():
        for t in np.linspace(0.05, 40, 160):
            for m in range(0, 45):
                if m < t / 2 + slack:
                    yield Case(f"t={t:.3f}, m={m}", {"t": float(t), "m": m}, size=t + m)

    return Exhaustive(text, cases, lambda c: ((c.data["t"] + 1) / 2 - c.data["m"] >= 0.5 - 1e-12, {}))


# --- Lemma 17 ----------------------------------------------------------------------------------------
def lemma17_claim(factor: float, text: str) -> Exhaustive:
    """The workbench's reduction (algorithms.adversaries.query_to_learner): from a release within a of E_D[g_h] on
    H^+- (adversarial: the best hypothesis understated by a, every other overstated by a), the learner's excess
    error err(h_hat) - min_h err(h) is <= factor * a. Random classes, labelled laws and a."""
    from algorithms.adversaries import query_to_learner as Q
    from algorithms.classes import random_class
    from algorithms.evaluation import true_answers
    from algorithms.privacy import Release

    def cases():
        rng = np.random.default_rng(1700)
        for k in range(150):
            H = random_class(int(rng.integers(2, 12)), int(rng.integers(2, 10)), rng)
            Dx = rng.dirichlet(np.ones(H.num_points))
            eta = rng.uniform(0, 1, H.num_points)
            yield Case(f"class #{k}", {"H": H, "Dz": Q.labelled_distribution(Dx, eta),
                                        "a": float(rng.uniform(0, 0.3))}, size=k)

    def holds(case):
        H, Dz, a = case.data["H"], case.data["Dz"], case.data["a"]
        truth = true_answers(Q.labelled_class(H), Dz)
        best = int(np.argmax(truth))
        released = truth + a
        released[best] = truth[best] - a

        def release(private, public, cls, rng):
            return Release(released, None)

        learner = Q.learner_from_release(release)
        out = learner(np.zeros(1, int), np.ones(1, int), np.zeros(1, int), np.ones(1, int), H,
                      np.random.default_rng(0)).value
        err = Q.population_errors(H, Dz)
        excess = float(err[out.hypothesis] - err.min())
        return excess <= factor * a + 1e-12, {"excess": excess, "a": a}

    return Exhaustive(text, cases, holds)


def from_h_claim(use_labelled: bool, alpha: float, text: str) -> Exhaustive:
    """Lemma 17 from H's answers alone: laws D1 = (D_x, eta) and D2 = (D_x, 1 - eta) give H the same answers
    E_{D_x}[h], so a learner reading them outputs one h for both; the claim is that some h has excess <= alpha on
    both. With H^+-'s (exact) answers the argmax rule has excess 0 on each."""
    from algorithms.adversaries import query_to_learner as Q
    from algorithms.classes import thresholds

    def cases():
        rng = np.random.default_rng(1701)
        for k in range(60):
            H = thresholds(int(rng.integers(2, 10)))
            Dx = rng.dirichlet(np.ones(H.num_points))
            eta = rng.uniform(0, 1, H.num_points)
            yield Case(f"thresholds #{k}", {"H": H, "Dx": Dx, "eta": eta}, size=k)

    def holds(case):
        H, Dx, eta = case.data["H"], case.data["Dx"], case.data["eta"]
        e1 = Q.population_errors(H, Q.labelled_distribution(Dx, eta))
        e2 = Q.population_errors(H, Q.labelled_distribution(Dx, 1 - eta))
        if use_labelled:
            worst = max(e1[int(np.argmin(e1))] - e1.min(), e2[int(np.argmin(e2))] - e2.min())
        else:
            worst = float(np.min(np.maximum(e1 - e1.min(), e2 - e2.min())))
        return worst <= alpha, {"least_worst_excess": float(worst)}

    return Exhaustive(text, cases, holds)


def thm15_claim(excess_factor: float, text: str) -> Exhaustive:
    """Theorem 15 explicit = ABM19 Theorem 4.1 (bounds abm19:thm4.1) at the learner's excess error from Lemma 17
    (bounds lemma17 learner_excess_error), for alpha <= 1/100 (all from bounds)."""

    def cases():
        for a in np.geomspace(1e-6, 1e-2, 60):
            yield Case(f"alpha={a:.3g}", {"alpha": float(a)}, size=1 / a)

    def holds(case):
        a = case.data["alpha"]
        m15 = float(bounds_value("bcmnuw20:thm15", "public_samples", alpha=a))
        excess = float(bounds_value("bcmnuw20:lemma17", "learner_excess_error", alpha=a, beta=0.01,
                                    private_samples=10, public_samples=1)) * excess_factor
        m41 = float(bounds_value("abm19:thm4.1", "public_samples", alpha=min(excess, 0.01)))
        return m15 == m41, {"thm15": m15, "abm19_thm4.1": m41}

    return Exhaustive(text, cases, holds)


def labelled_ld_claim(extra: int, text: str) -> Exhaustive:
    """Littlestone dimension of H^+- >= that of H (+ extra): the columns (x, +1) of H^+- are H itself. Thresholds
    on N <= 12 points, exactly (so infinite Littlestone dimension passes from thresholds over R to H^+-)."""
    from algorithms.adversaries.query_to_learner import labelled_class
    from algorithms.classes import littlestone_dimension, thresholds

    def cases():
        for N in range(1, 13):
            yield Case(f"thresholds on {N} points", {"N": N}, size=N)

    def holds(case):
        H = thresholds(case.data["N"])
        a, b = littlestone_dimension(H).value, littlestone_dimension(labelled_class(H)).value
        return b >= a + extra, {"LD(H)": a, "LD(H+-)": b}

    return Exhaustive(text, cases, holds)


register(
    Check(
        id="bcmnuw20:thm14.soundness", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, step 1: a fresh sample's score <y - z, q> exceeds tau = 2 ||q|| sqrt(ln 1/f) "
               "w.p. <= f (sub-Gaussian terms (y_j - z_j) q_j of proxy 2 q_j^2); exact at equal weights, mu = 0"),
        source=DERIV.format(1), method="exhaustive",
        stated=soundness_claim(2.0, "tau = 2 ||q|| sqrt(L)"),
        perturbed={"tau halved": soundness_claim(1.0, "tau = ||q|| sqrt(L)")},
        formula_from="bounds:thm14",
    ),
    Check(
        id="bcmnuw20:thm14.soundness-attacker", paper=PAPER, result="thm14",
        claim="Theorem 14 explicit, step 1, on the workbench's Attacker: P[fresh sample IN] <= f at its analytic threshold",
        source=DERIV.format(1) + "; algorithms.adversaries.tracing.Attacker.analytic_threshold", method="monte carlo",
        stated=attacker_soundness_claim(1.0, "the analytic threshold"),
        perturbed={"threshold halved": attacker_soundness_claim(0.5, "half the analytic threshold")},
    ),
    Check(
        id="bcmnuw20:thm14.accuracy-slack", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, step 2: |E[q_j 1{||q|| <= nu} | mu] - mu_j| <= alpha (1 - b) + (1 + gamma) b <= "
               "alpha (2 + gamma - alpha) for every failure probability b <= alpha"),
        source=DERIV.format(2), method="numeric grid + hypothesis", formula_from="bounds:thm14",
        stated=Inequality("alpha(1-b) + (1+gamma) b <= alpha (2 + gamma - alpha)", slack_lhs,
                          lambda o, alpha, gamma, u: L.thm14_accuracy_slack(o, alpha, gamma), SLACK_DOMAIN),
        perturbed={"alpha (1 + gamma)": Inequality("... <= alpha (1 + gamma)", slack_lhs,
                                                   lambda o, alpha, gamma, u: alpha * (1 + gamma), SLACK_DOMAIN)},
    ),
    Check(
        id="bcmnuw20:thm14.score-identity", paper=PAPER, result="thm14",
        claim="Theorem 14 explicit, step 3: E[f(x) sum_i (x_i - mu) | mu] = (1 - mu^2) d/dmu E[f(x) | mu] for every f",
        source=DERIV.format(3) + " (the fingerprinting identity of Dwork et al. 2015 / Steinke-Ullman)",
        method="exhaustive",
        stated=score_identity_claim(lambda m: 1 - m**2, "weight 1 - mu^2"),
        perturbed={"weight 1 - mu": score_identity_claim(lambda m: 1 - m, "weight 1 - mu")},
    ),
    Check(
        id="bcmnuw20:thm14.by-parts", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, step 3: (1/2 gamma) int (1 - mu^2) g' = (1 - gamma^2)(g(gamma) - g(-gamma))/"
               "(2 gamma) + (1/gamma) int mu g over [-gamma, gamma] (integration by parts)"),
        source=DERIV.format(3), method="symbolic",
        stated=Identity("integration by parts", by_parts_lhs, by_parts_rhs(2), CUBIC),
        perturbed={"factor 1": Identity("... + (1/(2 gamma)) int mu g", by_parts_lhs, by_parts_rhs(1), CUBIC)},
    ),
    Check(
        id="bcmnuw20:thm14.signal-floor", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, step 3: for |g(mu) - mu| <= a the average of (1 - mu^2) g' over U[-gamma, gamma] "
               "is >= F(a, gamma) = (1 - gamma^2)(1 - a/gamma) + 2 gamma^2/3 - a gamma (tested on g = mu - a theta "
               "tanh(k mu), which approaches the bound as k -> inf)"),
        source=DERIV.format(3), method="numeric grid + hypothesis", formula_from="bounds:thm14",
        stated=Inequality("avg (1 - mu^2) g' >= F(a, gamma)", fingerprint_signal, signal_floor_rhs(0.0),
                          FLOOR_DOMAIN, rel=">="),
        perturbed={"F + 0.02": Inequality("avg >= F + 0.02", fingerprint_signal, signal_floor_rhs(0.02),
                                          FLOOR_DOMAIN, rel=">=")},
    ),
    Check(
        id="bcmnuw20:thm14.counting", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, step 4: sum of the s scores <= ||q|| (2 s sqrt(ln 1/f) + sqrt(N)(||W|| + sqrt(s) "
               "|<z - mu, q/||q||>|)), N the number traced IN (deterministic; on drawn instances)"),
        source=DERIV.format(4), method="exhaustive",
        stated=counting_claim(True, "with the members' Cauchy-Schwarz term"),
        perturbed={"members dropped": counting_claim(False, "members bounded by N zeta ||q|| only")},
    ),
    Check(
        id="bcmnuw20:thm14.opnorm", paper=PAPER, result="thm14",
        claim="Theorem 14 explicit, step 5: ||X - 1 mu^T||_op < b (matrix Bernstein, Tropp 2012 Thm 1.6) except w.p. delta",
        source=DERIV.format(5) + "; Tropp, User-friendly tail bounds for sums of random matrices (2012), Thm 1.6",
        method="monte carlo", formula_from="bounds:thm14",
        stated=opnorm_claim(_bernstein, "b from matrix Bernstein"),
        perturbed={"no log factor": opnorm_claim(lambda s, p, g, d: math.sqrt(max(s, p)), "b = sqrt(max(s, p))")},
    ),
    Check(
        id="bcmnuw20:thm14.reference", paper=PAPER, result="thm14",
        claim="Theorem 14 explicit, step 5: |<z - mu, u>| <= zeta = sqrt(2 ln(2/delta)) except w.p. delta (Hoeffding)",
        source=DERIV.format(5), method="monte carlo", formula_from="bounds:thm14",
        stated=reference_claim(lambda d: float(L.thm14_reference(NUMPY, d)), "zeta = sqrt(2 ln(2/delta))"),
        perturbed={"zeta / 3": reference_claim(lambda d: float(L.thm14_reference(NUMPY, d)) / 3, "zeta/3")},
    ),
    Check(
        id="bcmnuw20:thm14.assembly", paper=PAPER, result="thm14",
        claim=("Theorem 14 explicit, steps 6-7 at bounds' values: S = r + t is the largest total within the threshold "
               "budget; the expected traced count is >= K for every s <= S; t = 2K - 1, r = S - t, f = 1/S^2"),
        source=DERIV.format("6-7"), method="exhaustive", formula_from="bounds:thm14",
        stated=assembly_claim(1.0, "E[#IN] >= K"),
        perturbed={"2K": assembly_claim(2.0, "E[#IN] >= 2K")},
    ),
    Check(
        id="bcmnuw20:thm14.tight-row-norm", paper=PAPER, result="thm14",
        claim=("Theorem 14 tightened, step 5': max_i ||x_i - mu||^2 <= B_w = p + 2 ln(s/delta) except w.p. delta "
               "(Hoeffding on -2 sum_j mu_j w_ij with proxy sum_j mu_j^2, then AM-GM); at the bias where AM-GM is tight"),
        source=DERIV.format("5'"), method="monte carlo", formula_from="bounds:thm14",
        stated=row_norm_claim(lambda mu, s, d: float(L.thm14_tight_row_norm(NUMPY, mu.size, s, d)), "p + 2 ln(s/delta)"),
        perturbed={"no deviation term": row_norm_claim(lambda mu, s, d: float(np.sum(1 - mu**2)),
                                                       "sum_j (1 - mu_j^2)")},
    ),
    Check(
        id="bcmnuw20:thm14.tight-cross", paper=PAPER, result="thm14",
        claim=("Theorem 14 tightened, step 5': max_{i != k} <x_i - mu, x_k - mu> <= c = sqrt(2 B_w ln(s^2/delta)) "
               "except w.p. 2 delta (Hoeffding given x_k, proxy ||x_k - mu||^2 <= B_w)"),
        source=DERIV.format("5'"), method="monte carlo", formula_from="bounds:thm14",
        stated=cross_claim(1.0, "c"), perturbed={"c / 3": cross_claim(1 / 3, "c/3")},
    ),
    Check(
        id="bcmnuw20:thm14.tight-reference", paper=PAPER, result="thm14",
        claim="Theorem 14 tightened, step 5': -<z - mu, u> <= sqrt(2 ln(1/delta)) except w.p. delta (one-sided Hoeffding)",
        source=DERIV.format("5'"), method="monte carlo", formula_from="bounds:thm14",
        stated=reference_claim(lambda d: float(L.thm14_tight_reference(NUMPY, d)), "sqrt(2 ln(1/delta))",
                               one_sided=True),
        perturbed={"zeta / 3": reference_claim(lambda d: float(L.thm14_tight_reference(NUMPY, d)) / 3, "zeta/3",
                                               one_sided=True)},
    ),
    Check(
        id="bcmnuw20:thm14.tight-counting", paper=PAPER, result="thm14",
        claim=("Theorem 14 tightened, step 4': sum of the s scores <= ||q|| (2 s sqrt(ln 1/f) + sqrt(N max ||w_i||^2 + "
               "N^2 max_{i != k} <w_i, w_k>) + N max(0, -<z - mu, q/||q||>)) (deterministic; on drawn instances)"),
        source=DERIV.format("4'"), method="exhaustive",
        stated=tight_counting_claim(True, "with the pairs' term"),
        perturbed={"pairs dropped": tight_counting_claim(False, "without the N^2 c term")},
    ),
    Check(
        id="bcmnuw20:thm14.tight-root", paper=PAPER, result="thm14",
        claim=("Theorem 14 tightened, step 6': h(N) = sqrt(N B_w + N^2 c) + N zeta is increasing and concave (Jensen: "
               "E h(N) <= h(E N)) and bounds' closed-form N* solves h(N*) = M"),
        source=DERIV.format("6'"), method="exhaustive", formula_from="bounds:thm14",
        stated=tight_root_claim(L.thm14_tight_traced, "bounds' root"),
        perturbed={"c + zeta^2": tight_root_claim(_wrong_root, "root with c + zeta^2")},
    ),
    Check(
        id="bcmnuw20:thm14.tight-assembly", paper=PAPER, result="thm14",
        claim=("Theorem 14 tightened, steps 6'-7 at bounds' values: S' = r' + t' is the largest total with t' >= 1; "
               "E[#IN] >= K' for every s <= S'; t' = 2K' - 1, r' = S' - t'"),
        source=DERIV.format("6'-7"), method="exhaustive", formula_from="bounds:thm14",
        stated=tight_assembly_claim(1.0, "E[#IN] >= K'"),
        perturbed={"2K'": tight_assembly_claim(2.0, "E[#IN] >= 2K'")},
    ),
    Check(
        id="bcmnuw20:thm14.whp", paper=PAPER, result="thm14",
        claim=("Theorem 14 as printed: P[#IN >= t/2] >= 1 - 1/(r+t)^2 for every (alpha, alpha)-accurate release; a "
               "release that answers 0 w.p. alpha/2 is accurate and leaves P[#IN >= t/2] <= 1 - alpha/2"),
        source=f"{SRC}; Theorem 14 (both versions)", method="exhaustive",
        stated=whp_claim(lambda a, s: 1 - 1 / s**2, "printed: 1 - 1/(r+t)^2 at r + t = s"),
        expect=FAILS,
        corrected=whp_claim(lambda a, s: 1 - a - 1 / s**2, "with the release's failure alpha subtracted"),
        perturbed={"1 - alpha/4": whp_claim(lambda a, s: 1 - a / 4, "1 - alpha/4")},
        errata=("bcmnuw20-thm14-whp",),
    ),
    Check(
        id="bcmnuw20:thm13.expectation-step", paper=PAPER, result="thm13",
        claim=("Theorem 13 with Theorem 14 in expectation (E[#IN] >= (t+1)/2): for m < t/2 the private samples carry "
               "sum_i P[T(q, x_i) = IN] >= E[#IN] - m >= 1/2 (what the corrected Markov step delivers)"),
        source=f"{SRC}; Theorem 13 proof; " + DERIV.format(7), method="exhaustive",
        stated=thm13_step_claim(0.0, "m < t/2"),
        perturbed={"m < t/2 + 1": thm13_step_claim(1.0, "m < t/2 + 1")},
        errata=("bcmnuw20-thm14-whp", "bcmnuw20-thm13-m-1"),
    ),
    Check(
        id="bcmnuw20:lemma17.excess", paper=PAPER, result="lemma17",
        claim=("Lemma 17 explicit (the workbench's reduction): a release within a of E_D[g_h] on H^+- gives a learner "
               "with excess error <= a (same n, m, beta, eps, delta)"),
        source=f"{SRC}; Lemma 17; algorithms.adversaries.query_to_learner", method="exhaustive",
        stated=lemma17_claim(1.0, "excess <= a"),
        perturbed={"a/2": lemma17_claim(0.5, "excess <= a/2")},
        errata=("bcmnuw20-lemma17-labelled",),
    ),
    Check(
        id="bcmnuw20:lemma17.from-h", paper=PAPER, result="lemma17",
        claim=("Lemma 17 as printed: a release for H (answers E_{D_x}[h]) yields an excess-alpha learner; two laws with "
               "one marginal and flipped labels get the same answers but need different hypotheses"),
        source=f"{SRC}; Lemma 17 and the paragraph after it", method="exhaustive",
        stated=from_h_claim(False, 0.05, "from H's answers: excess <= 0.05 on both laws"),
        expect=FAILS,
        corrected=from_h_claim(True, 0.0, "from H^+-'s answers: excess 0 on each law"),
        perturbed={"H^+- at excess -0.01": from_h_claim(True, -0.01, "excess <= -0.01")},
        errata=("bcmnuw20-lemma17-labelled",),
    ),
    Check(
        id="bcmnuw20:lemma17.error-scale", paper=PAPER, result="lemma17",
        claim="Lemma 17 explicit: err_D(h) = (1 - E_D[h(x) y])/2 (so release error a on [-1, 1] is excess a)",
        source=f"{SRC}; Lemma 17, Definitions 8 and 16", method="symbolic",
        stated=Identity("(1 - (1 - 2 err))/2 = err", lambda o, err: (1 - ((1 - err) - err)) / 2,
                        lambda o, err: err, (Var("err", 0.0, 1.0, log=False),)),
        perturbed={"no halving": Identity("1 - E[h y] = err", lambda o, err: 1 - ((1 - err) - err),
                                          lambda o, err: err, (Var("err", 0.0, 1.0, log=False),))},
    ),
    Check(
        id="bcmnuw20:thm15.composition", paper=PAPER, result="thm15",
        claim=("Theorem 15 explicit: m > 1/(1600 alpha) is ABM19 Theorem 4.1 at the learner's excess error alpha from "
               "Lemma 17 (alpha <= 1/100)"),
        source=f"{SRC}; Theorem 15 proof, Lemma 18 (= ABM19 Thm 4.1)", method="exhaustive",
        formula_from="bounds:thm15, bounds:lemma17, bounds:abm19:thm4.1",
        stated=thm15_claim(1.0, "excess alpha"),
        perturbed={"excess 2 alpha": thm15_claim(2.0, "excess 2 alpha (a [0, 1]-scale slip)")},
        errata=("bcmnuw20-thm15-regime",),
    ),
    Check(
        id="bcmnuw20:thm15.parameters", paper=PAPER, result="thm15",
        claim=("Theorem 15 for every (beta, eps, delta): ABM19 Theorem 4.1 is proven at eps = 0.1, delta = 1/(100 n^2 "
               "log n), confidence 1/22 (corrected) and alpha <= 1/100 only"),
        source=f"{SRC}; Theorem 15, Lemma 18", method="none",
        stated=("a lower bound over all learners at other privacy and confidence parameters: no finite procedure "
                "decides it, and the cited proof does not cover it"),
        expect="not machine-checkable",
        errata=("bcmnuw20-thm15-regime",),
    ),
    Check(
        id="bcmnuw20:thm15.labelled-class", paper=PAPER, result="thm15",
        claim=("Theorem 15 explicit: the labelled class H^+- has Littlestone dimension >= that of H, so releases of "
               "H^+- for thresholds fall under the lower bound (exact on thresholds over <= 12 points)"),
        source=f"{SRC}; Theorem 15 proof", method="exhaustive",
        stated=labelled_ld_claim(0, "LD(H+-) >= LD(H)"),
        perturbed={"+1": labelled_ld_claim(1, "LD(H+-) >= LD(H) + 1")},
        errata=("bcmnuw20-lemma17-labelled",),
    ),
)
