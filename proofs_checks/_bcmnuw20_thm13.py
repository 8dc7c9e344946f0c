"""BCMNUW20 Theorem 13 (and Theorem 14's threshold): the claim builders for each inequality of the proof of
Theorem 13 on the grid of (n, m). The checks built from them are registered in proofs_checks.bcmnuw20, the
import path for these names."""
from __future__ import annotations

import math

import numpy as np

from .core import Case, Exhaustive, Inequality, Var


# ---------------------------------------------------------------------------------------------
# Theorem 13


NM = (Var("n", 1, 60, integer=True, log=False, points=60), Var("m", 0, 60, integer=True, log=False, points=61))


def neighbour_claim() -> Inequality:
    """Theorem 13 proof: max(1/s^2 - 1/(n+m)^2, 1/(n+m)^2 - 1/n^2) <= 0 for n + m <= s <= 200, proved through
    :func:`neighbour_parts`."""
    return Inequality("max(1/(r+t)^2 - 1/(n+m)^2, 1/(n+m)^2 - 1/n^2) <= 0",
                      lambda o, n, m, s: o.max(1 / s**2 - 1 / (n + m) ** 2, 1 / (n + m) ** 2 - 1 / n**2),
                      lambda o, n, m, s: 0 * n, NM + (Var("s", 1, 200, integer=True, log=False, points=40),),
                      where=lambda o, n, m, s: n + m <= s, proved_as=neighbour_parts())


def neighbour_parts() -> tuple:
    """The max's two terms, each <= 0, as strong as the claim together: (1) 1/(n+m+k)^2 <= 1/(n+m)^2 with s = n + m
    + k, k in [0, 199] (every s with n + m <= s <= 200, n + m >= 1; the boundary s = n + m, where the term is 0, is
    the face k = 0 instead of a diagonal of the integer box); (2) 1/(n+m)^2 <= 1/n^2 (0 on the face m = 0). n, m, k
    are real (covering the integers): each gap is monotone in k (resp. m), and 0 on that face (sympy)."""
    n, m = (Var(v.name, v.lo, v.hi, log=False) for v in NM)
    return (Inequality("1/(n+m+k)^2 <= 1/(n+m)^2", lambda o, n, m, k: 1 / (n + m + k) ** 2,
                       lambda o, n, m, k: 1 / (n + m) ** 2, (n, m, Var("k", 0, 199, log=False)), tight=True),
            Inequality("1/(n+m)^2 <= 1/n^2", lambda o, n, m: 1 / (n + m) ** 2, lambda o, n, m: 1 / n**2, (n, m),
                       tight=True))


def markov_lhs(o, n, m):
    """Theorem 13 proof: (m + 1)(1 - 1/(n + m)^2) - m."""
    return (m + 1) * (1 - 1 / (n + m) ** 2) - m


def case_split_claim(assume, text: str) -> Exhaustive:
    """Theorem 13 proof: under the assumption A(m, t) the first inequality P[#IN >= m+1] >= P[#IN >= t/2]
    holds (every integer count c >= t/2 has c >= m + 1), and not A(m, t) implies m >= t/2 (the dichotomy)."""

    def cases():
        for t in range(1, 41):
            for m in range(0, 41):
                yield Case(f"t={t}, m={m}", {"t": t, "m": m}, size=t + m)

    def holds(case):
        t, m = case.data["t"], case.data["m"]
        if assume(m, t):
            bad = [c for c in range(0, 2 * t + 2) if 2 * c >= t and c < m + 1]
            return (not bad), ({"count": bad[0], "why": "c >= t/2 but c < m + 1"} if bad else {})
        return 2 * m >= t, ({} if 2 * m >= t else {"why": "neither A(m, t) nor m >= t/2"})

    return Exhaustive(text, cases, holds)


def markov_claim(factor_shift: int, text: str) -> Exhaustive:
    """Theorem 13 proof, Markov and pigeonhole: for the count C = #{i : T(q, z_i) = IN} of n private and m
    public indicators, sum_i P[IN_i] = E[C] >= (m + 1 + factor_shift) P[C >= m + 1], sum over public <= m, and
    some private i has P[IN_i] >= (1/n) sum over private. Exact on random joint laws of the indicators."""

    def cases():
        rng = np.random.default_rng(13)
        for i in range(200):
            n, m = int(rng.integers(1, 5)), int(rng.integers(0, 4))
            k = n + m
            pats = (np.arange(2**k)[:, None] >> np.arange(k)) & 1       # every IN/OUT pattern
            law = rng.dirichlet(np.ones(2**k) * rng.uniform(0.1, 2))
            p_in = law @ pats                                           # P[IN_i]
            count = pats.sum(axis=1)
            yield Case(f"n={n}, m={m}, law #{i}", {
                "E[C]": float(law @ count), "bound": float((m + 1 + factor_shift) * law[count >= m + 1].sum()),
                "public_sum": float(p_in[n:].sum()), "m": m, "max_private": float(p_in[:n].max()),
                "mean_private": float(p_in[:n].mean())}, size=k)

    def holds(c):
        d = c.data
        return (d["E[C]"] >= d["bound"] - 1e-12 and d["public_sum"] <= d["m"] + 1e-12
                and d["max_private"] >= d["mean_private"] - 1e-12), {}

    return Exhaustive(text, cases, holds)


def dp_step_claim(threshold, text: str) -> Exhaustive:
    """Theorem 13 proof: 1/(2n) <= e^eps/n^2 + 1/(4n)  <=>  threshold(n) <= eps, on a grid of (n, eps)."""

    def cases():
        for n in range(1, 201):
            for eps in np.linspace(0.0, 5.0, 51):
                yield Case(f"n={n}, eps={eps:.2f}", {"n": n, "eps": float(eps)}, size=n + eps)

    def holds(case):
        n, eps = case.data["n"], case.data["eps"]
        lhs = 1 / (2 * n) <= math.exp(eps) / n**2 + 1 / (4 * n)
        rhs = threshold(n) <= eps
        if abs(math.log(n / 4) - eps) < 1e-9:  # the boundary, where float rounding decides
            return True, {}
        return lhs == rhs, {"dp_inequality": lhs, "log_condition": rhs}

    return Exhaustive(text, cases, holds)


def least_n_claim(n0: int, text: str) -> Exhaustive:
    """Theorem 13: with eps = 1, the DP inequality is violated (ln(n/4) > 1) exactly for n >= n0."""

    def cases():
        for n in range(1, 200):
            yield Case(f"n={n}", {"n": n}, size=n)

    return Exhaustive(text, cases, lambda c: ((math.log(c.data["n"] / 4) > 1) == (c.data["n"] >= n0), {}))


def conclusion_claim(n_min: int, text: str) -> Exhaustive:
    """Theorem 13 proof, conclusion: if n <= r and m < t/2 (and t < n + m <= r + t), then A is not
    (1, 1/4n)-DP. The proof's contradiction ln(n/4) <= 1 needs n >= 11; the claimed region is n >= n_min."""

    def cases():
        for n in range(1, 31):
            for m in range(0, 11):
                for t in range(1, 21):
                    for r in range(1, 31):
                        if t < n + m <= r + t and n <= r and 2 * m < t:
                            yield Case(f"n={n}, m={m}, t={t}, r={r}", {"n": n, "m": m, "t": t, "r": r},
                                       size=n + m + t + r)

    def holds(case):
        n = case.data["n"]
        return (1 - 1 / n >= 0.5) and math.log(n / 4) > 1, {}

    return Exhaustive(text, cases, holds, in_region=lambda c: c.data["n"] >= n_min,
                      region_text=f"n >= {n_min}")


def threshold_claim(thr, text: str) -> Exhaustive:
    """Theorem 14: the event #{i : T(q, z_i) = IN} >= thr(t) must be possible for every sample size
    s in [t, r + t] (it is claimed to have probability >= 1 - 1/(r+t)^2 > 0): thr(t) <= t."""

    def cases():
        for t in range(1, 60):
            yield Case(f"t={t}", {"t": t, "threshold": thr(t)}, size=t)

    return Exhaustive(text, cases, lambda c: (c.data["threshold"] <= c.data["t"], {}))
