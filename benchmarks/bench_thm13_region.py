"""BCMNUW20 Theorems 13/14 explicit: where the explicit region first holds an (alpha, alpha)-accurate release, and
how far each step of Theorem 14's chain sits from the tracing attack's measured behaviour.

Usage: python benchmarks/bench_thm13_region.py [--alphas 0.02,0.05,0.08] [--p-max 1e16] [--gap-p 20000]
       [--gap-alphas 0.02,0.05] [--trials 10]

Part 1 (no randomness). For each alpha, the least p on a grid of 20 points a decade at which Theorem 13's explicit
region (n <= r, m < t/2, n + m > t, n >= 11; r, t from ``bounds.compute("thm14")``) contains a cell where the exact
mean of the n + m samples is (alpha, alpha)-accurate on the hard distribution D~ (biases ~ U[-gamma, gamma], gamma =
``bias_range``): P[max_j |xbar_j - mu_j| > alpha] = 1 - (1 - e)^p with e the prior-averaged per-coordinate failure,
computed exactly (binomial sum, the integral over mu in closed form by incomplete beta functions). The largest cell
is n = floor(r), m = ceil(t/2) - 1. Both chains: the matrix-Bernstein one (traced_t, range_r) and the tightened one
(traced_t_tight, range_r_tight).

Part 2 (seeded, ``--trials`` draws per s). At p = ``--gap-p`` and each alpha of ``--gap-alphas``, the exact mean of s
samples of D~ is attacked with the workbench's Attacker at the analytic threshold of level f = 1/S'^2 (S' =
range_total_tight); per step of the chain, the bound it charges beside what the exact mean shows (the exact mean is one
accurate release; the bounds hold for every accurate release, so a ratio is an upper bound on what a sharper analysis of
*this* release could gain, not a proof that the theorem's constants are loose). Writes nothing to the repo.
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np
from scipy.special import betainc
from scipy.stats import norm

import bounds
from algorithms.adversaries import tracing


def coordinate_failure(s: int, alpha: float, gamma: float) -> float:
    """E_{mu ~ U[-gamma, gamma]} P[|2B/s - 1 - mu| > alpha], B ~ Bin(s, (1 + mu)/2), exactly: with u = (1 + mu)/2,
    (1/gamma) sum_k C(s, k) int_{bad u} u^k (1 - u)^{s-k} du, each integral an incomplete beta difference / (s+1)."""
    k = np.arange(s + 1, dtype=float)
    lo_u, hi_u = (1 - gamma) / 2, (1 + gamma) / 2
    a, b = k + 1, s - k + 1

    def mass(u0, u1):  # C(s, k) int_{u0}^{u1} u^k (1-u)^{s-k} du for each k
        u0, u1 = np.clip(u0, lo_u, hi_u), np.clip(u1, lo_u, hi_u)
        return np.where(u1 > u0, (betainc(a, b, u1) - betainc(a, b, u0)) / (s + 1), 0.0)

    bad = mass(np.full_like(k, lo_u), k / s - alpha / 2) + mass(k / s + alpha / 2, np.full_like(k, hi_u))
    return float(bad.sum() / gamma)


def exact_mean_failure(s: int, p: float, alpha: float, gamma: float) -> float:
    e = coordinate_failure(s, alpha, gamma)
    return float(-np.expm1(p * np.log1p(-e))) if e < 1 else 1.0


def region_cell(c, tight: bool):
    t = float(c["traced_t_tight" if tight else "traced_t"])
    r = float(c["range_r_tight" if tight else "range_r"])
    if not (t > 0) or r < 11:
        return None
    n, m = math.floor(r), max(math.ceil(t / 2) - 1, 0)
    return (n, m) if n + m > t else None


def part1(alphas, p_max):
    print("Part 1: least p (20 grid points a decade) whose explicit region holds an (alpha, alpha)-accurate exact mean")
    print(f"{'alpha':>6} {'chain':>9} {'least p':>10} {'r':>9} {'t':>8} {'n+m':>9} {'P[fail]':>9} "
          f"{'need s':>8}  (need s: least s with P[fail] <= alpha at that p)")
    for a in alphas:
        for tight in (False, True):
            found = None
            for lp in np.arange(3.0, math.log10(p_max) + 1e-9, 0.05):
                p = int(round(10.0**lp))
                c = bounds.compute("thm14", alpha=a, dual_vc=p)
                cell = region_cell(c, tight)
                if cell is None:
                    continue
                g = float(c["bias_range"])
                fail = exact_mean_failure(sum(cell), p, a, g)
                if fail <= a:
                    found = (p, c, cell, fail, g)
                    break
            name = "tight" if tight else "Bernstein"
            if found is None:
                print(f"{a:>6g} {name:>9} {'> %.0e' % p_max:>10}")
                continue
            p, c, cell, fail, g = found
            lo, hi = 1, sum(cell)
            while hi - lo > 1:
                mid = (lo + hi) // 2
                lo, hi = (lo, mid) if exact_mean_failure(mid, p, a, g) <= a else (mid, hi)
            t = float(c["traced_t_tight" if tight else "traced_t"])
            r = float(c["range_r_tight" if tight else "range_r"])
            print(f"{a:>6g} {name:>9} {p:>10.3g} {r:>9.4g} {t:>8.3g} {sum(cell):>9d} {fail:>9.3g} {hi:>8d}")


def _draw(D, s, rng, chunk=2000):
    """s samples of D as int8 rows, drawn in chunks (the float draws of one chunk at a time)."""
    return np.concatenate([D.sample(min(chunk, s - i), rng) for i in range(0, s, chunk)]) if s else D.sample(0, rng)


def part2(alphas, p, trials):
    print(f"\nPart 2: the chain's steps beside the exact mean's measured behaviour at p = {p} ({trials} trials per s)")
    rng = np.random.default_rng(20261126)
    for a in alphas:
        c = bounds.compute("thm14", alpha=a, dual_vc=p)
        g, F, cap = float(c["bias_range"]), float(c["signal_floor"]), float(c["norm_cap"])
        S = int(c["range_total_tight"])
        Bw, cx, zt, K = (float(c[k]) for k in ("row_norm_bound", "cross_bound", "reference_bound_tight",
                                               "expected_traced_tight"))
        b_old, z_old = float(c["operator_norm_bound"]), float(c["reference_bound"])
        if S < 1:
            print(f"alpha = {a}: S' = 0 at p = {p} (the tightened chain guarantees nothing)")
            continue
        f = 1.0 / S**2
        lo, hi = 1, 1 << 22
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (lo, mid) if exact_mean_failure(mid, p, a, g) <= a else (mid, hi)
        print(f"alpha = {a}, gamma = {g:.4g}, S' = r' + t' = {S}, K' = {K:.3g}, f = 1/S'^2 = {f:.3g}; the exact mean "
              f"is "
              f"(alpha, alpha)-accurate on D~ from s = {hi}")
        print(f"{'s':>6} {'F':>6} {'sig/p':>6} {'cap':>6} {'|q|/vp':>6} {'2vln':>6} {'sd*z':>6} {'Bern':>9} "
              f"{'h(N)':>9} {'|sumIN|':>9} {'E[N]':>8} {'s f':>7} {'K-bound':>8}")
        for s in sorted({S, 4 * S, 16 * S, hi}):
            rows = []
            for _ in range(trials):
                D = tracing.hard_distribution(p, g, rng)
                X = _draw(D, s, rng)
                q = X.sum(axis=0, dtype=np.float64) / s
                z = D.sample(1, rng)
                T = tracing.Attacker.build(q, z)
                nq = T.norm
                tau = T.analytic_threshold(f)   # scores a chunk of rows at a time (a float copy of X is 8x its size)
                IN = np.concatenate([T.scores(X[i:i + 2000]) > tau for i in range(0, s, 2000)])
                N = int(IN.sum())
                sig = float((X.sum(axis=0, dtype=np.float64) - s * D.biases) @ q)
                sd = math.sqrt(2 * float(np.sum(q * q * (1 - D.biases**2))))  # sd of <y - z, q> over fresh y and z
                zeta = max(0.0, -float((z[0] - D.biases) @ q) / nq)
                members = float(np.linalg.norm(X[IN].sum(axis=0, dtype=np.float64) - N * D.biases)) + N * zeta
                rows.append((sig / p, nq / math.sqrt(p), sd * norm.isf(f) / nq, math.sqrt(N * Bw + N * N * cx)
                             + N * zt, members, math.sqrt(N) * (b_old + math.sqrt(s) * z_old), N))
            m = np.mean(np.array(rows, dtype=float), axis=0)
            print(f"{s:>6} {F:>6.3f} {m[0]:>6.3f} {cap:>6.3f} {m[1]:>6.3f} {2 * math.sqrt(math.log(1 / f)):>6.3f} "
                  f"{m[2]:>6.3f} {m[5]:>9.4g} {m[3]:>9.4g} {m[4]:>9.4g} {m[6]:>8.3g} {s * f:>7.3g} "
                  f"{K if s <= S else 0:>8.3g}")
    print("columns: F = the chain's per-coordinate signal floor; sig/p = measured sum_i <x_i - mu, q>/p; cap = the "
          "chain's ||q||/sqrt(p) bound; |q|/vp = measured; 2vln = analytic threshold/||q|| = 2 sqrt(ln 1/f); sd*z = "
          "sd of a fresh score over (y, z), sqrt(2 sum q_j^2 (1 - mu_j^2)), x the normal (1 - f) quantile, over ||q|| "
          "(a normal approximation, not a bound); Bern = the matrix-Bernstein chain's members' charge sqrt(N)(b + "
          "sqrt(s) zeta), h(N) = the tightened chain's, |sumIN| = measured ||sum_IN w_i|| + N max(0, -<z - mu, "
          "q/||q||>), all at the measured N and over ||q||; E[N] = measured traced count among the s samples at "
          "level f; s f = the count s non-members would give (each IN w.p. <= f); K-bound = the tightened chain's "
          "guarantee (for s <= S' only).")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alphas", default="0.02,0.05,0.08", help="comma-separated alphas")
    ap.add_argument("--p-max", type=float, default=1e16, help="largest p searched in part 1")
    ap.add_argument("--gap-p", type=int, default=20000, help="p of part 2's measurements")
    ap.add_argument("--gap-alphas", default="0.02,0.05", help="comma-separated alphas of part 2")
    ap.add_argument("--trials", type=int, default=10, help="draws per s in part 2")
    args = ap.parse_args()
    alphas = [float(x) for x in args.alphas.split(",")]
    t0 = time.process_time()
    part1(alphas, args.p_max)
    t1 = time.process_time()
    part2([float(x) for x in args.gap_alphas.split(",")], args.gap_p, args.trials)
    print(f"\nCPU: part 1 {t1 - t0:.1f} s, part 2 {time.process_time() - t1:.1f} s")


if __name__ == "__main__":
    main()
