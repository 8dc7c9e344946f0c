"""A_PAP (BCMNUW20 Algorithm 3, ``pap_grid``) against the private-only and public-only opponents on thresholds over
a grid of 2^L points (L = 32, 64), the class where the bounds put A_PAP's best chance (``bounds.families``).

Usage: python benchmarks/bench_opponents_thresholds_grid.py [--levels 32,64] [--trials 50] [--seed 2026]
       [--ns 4000,...] [--alpha 0.1] [--m-scale 0.05]

The law D: K = 4096 distinct grid points (uniform without replacement, fixed by the seed) with Dirichlet(1) masses.
Per n of ``--ns`` and per trial: m = ``--m-scale`` x Theorem 10's m (``bounds``, d = p = 1) public points (below
it, so that the public-only release fails) and the private sample as
counts (multinomial, ``GridData``), then on these draws A_PAP (at bounds' mw_accuracy), the binary tree (Gaussian
nodes), the Gaussian and Laplace mechanisms on all 2^L + 1 answers (evaluated at the thresholds below; their noise
is independent per answer, so this is their law there), the public-only releases, the constant and the exact
private answers. Err is taken over the thresholds j = 0, 2^L, s and s + 1 for every support point s, t + 1 for
every public point t, and 2,000 uniform j: exact for A_PAP, the constant and the exact and public releases (each
is constant between those points where D's CDF is too), a lower bound on the noise releases' Err (which favours
them). Writes nothing to the repo.
"""
from __future__ import annotations

import argparse
import time

import numpy as np

import bounds
from algorithms import opponents as op
from algorithms.privacy.mechanisms import GaussianMechanism
from algorithms.query_release.pap_grid import a_pap_thresholds_grid
from simulations import contract
from simulations.opponents import least_succeeding, size_text, summarise_opponents

EPS, DELTA, BETA = 0.9, 1e-6, 0.1


def law(levels: int, seed: int, K: int = 4096):
    rng = np.random.default_rng([seed, levels])
    top = (1 << levels) - 1
    pts = np.unique(rng.integers(0, top, size=K, dtype=np.uint64, endpoint=True))
    return pts, rng.dirichlet(np.ones(pts.size))


def trial(levels, pts, probs, n, m, alpha, mw_accuracy, rng):
    public = rng.choice(pts, size=m, p=probs)
    counts = rng.multinomial(n, probs)
    data = op.GridData(levels, pts[counts > 0], counts[counts > 0])
    extra = rng.integers(0, (1 << levels) - 1, size=2000, dtype=np.uint64, endpoint=True)
    q = sorted({0, 1 << levels, *map(int, pts), *(int(s) + 1 for s in pts), *(int(t) + 1 for t in public),
                *map(int, extra)})
    qa = np.array([min(x, (1 << 64) - 1) for x in q], dtype=np.uint64)
    cdf = np.concatenate([[0.0], np.cumsum(probs)])
    truth = 2 * cdf[np.searchsorted(pts, qa, side="left")] - 1
    truth[np.array(q, dtype=object) == (1 << levels)] = 1.0
    cum = np.concatenate([[0], np.cumsum(counts)])
    priv = 2 * cum[np.searchsorted(pts, qa, side="left")] / n - 1
    priv[np.array(q, dtype=object) == (1 << levels)] = 1.0
    pcum = np.concatenate([[0], np.cumsum(np.bincount(np.searchsorted(pts, public), minlength=pts.size))])
    pub = 2 * pcum[np.searchsorted(pts, qa, side="left")] / m - 1
    pub[np.array(q, dtype=object) == (1 << levels)] = 1.0

    def err(g):
        return float(np.max(np.abs(np.asarray(g) - truth)))

    k = (1 << levels) + 1
    sigma = GaussianMechanism.analytic(2 * np.sqrt(float(k)) / n, EPS, DELTA).sigma
    gauss = 0.0 * priv if sigma * np.sqrt(2 * np.log(2 * k / BETA)) >= 1 else np.clip(
        priv + rng.normal(0, sigma, priv.size), -1, 1)
    b = 2 * k / (n * EPS)
    lap = 0.0 * priv if b * np.log(2 * k / BETA) >= 1 else np.clip(priv + rng.laplace(0, b, priv.size), -1, 1)
    tree = op.TreeMechanism(levels, EPS, DELTA).thresholds(data, q, rng).value
    pap = a_pap_thresholds_grid(data, public, levels, alpha, BETA, EPS, DELTA, rng, mw_accuracy=mw_accuracy)
    return {"a_pap": err(pap.value.answers(q)), "tree": err(tree), "gaussian": err(gauss), "laplace": err(lap),
            "public_empirical": err(pub), "public_shrunk": err(op.shrink_factor(m) * pub),
            "constant_zero": err(0 * truth), "exact_private": err(priv)}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--levels", default="32,64")
    ap.add_argument("--trials", type=int, default=50)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--alpha", type=float, default=0.1)
    ap.add_argument("--m-scale", type=float, default=0.05, help="factor on Theorem 10's m (public-only must fail)")
    ap.add_argument("--ns", default="4000,16000,64000,256000,1000000,4000000,16000000,64000000")
    a = ap.parse_args(argv)
    t0 = time.process_time()
    thm = bounds.compute("thm10", alpha=a.alpha, beta=BETA, epsilon=EPS, delta=DELTA, vc=1, dual_vc=1)
    m, mw = max(1, int(round(a.m_scale * int(thm["public_samples"])))), float(thm["mw_accuracy"])
    print(f"thresholds, alpha={a.alpha} beta={BETA} eps={EPS} delta={DELTA}; Theorem 10 n={int(thm['private_samples']):,}"
          f" m={int(thm['public_samples']):,}; every run at m = {m:,} ({a.m_scale:g} of it); {a.trials} trials per n")
    for L in (int(x) for x in a.levels.split(",")):
        pts, probs = law(L, a.seed)
        tb = int(bounds.compute("tree_thresholds", alpha=a.alpha, beta=BETA, epsilon=EPS, delta=DELTA,
                                domain_size=float(2**L))["private_samples"])
        print(f"\ngrid 2^{L}: bounds' tree n = {tb:,}")
        table = {}
        for n in (int(x) for x in a.ns.split(",")):
            rows = [trial(L, pts, probs, n, m, a.alpha, mw, np.random.default_rng([a.seed, L, n, i]))
                    for i in range(a.trials)]
            e = np.array([r.pop("a_pap") for r in rows])
            s = summarise_opponents(rows, a.alpha, 1 - BETA, 0.95)
            s["opponents"]["a_pap"] = {**contract.baseline(int(np.sum(e <= a.alpha)), e.size, 1 - BETA, 0.95),
                                       "error_mean": float(e.mean())}
            table[n] = s
            print(f"  n={n:>10,}: " + "; ".join(f"{k} {v['successes']}/{v['trials']} ({v['status'][0]}) "
                                                  f"{v['error_mean']:.3g}" for k, v in s["opponents"].items()))
        least = least_succeeding(table)
        print("  least grid n: " + ", ".join(f"{k} {size_text(v['least'])}" for k, v in least.items()))
    print(f"\nCPU {time.process_time() - t0:.1f} s")


if __name__ == "__main__":
    main()
