"""BCMNUW20 Theorem 14, explicit (bounds.papers.bcmnuw20_explicit), steps 1-6 of the derivation for the workbench's
tracing attack and its tightened chain: the claim builders (score identity, accuracy slack, soundness, tails, the
counting inequality, the assembly from bounds' values) whose checks proofs_checks.bcmnuw20_explicit registers."""
from __future__ import annotations

import functools
import math

import numpy as np

from bounds.ops import NUMPY
from bounds.papers import bcmnuw20_explicit as L

from .core import Case, Exhaustive, MonteCarlo, Var, bounds_value


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
        ok = abs(v["traced_t_tight"] - (2 * K - 1)) <= 1e-9 * K and abs(v["range_r_tight"] + v["traced_t_tight"]
            - S) <= 1e-9 * S
        return ok, info

    return Exhaustive(text, _point_cases(TIGHT_POINTS), holds)
