"""Benchmark of BCMNUW20 Algorithm 1 (offline PMW, Dwork-Roth Theorem 4.15 settings) on a domain of
10^5 points with 10^4 queries.

Classes (10^4 hypotheses x 10^5 points, a 1 GB boolean matrix):
  * thresholds-like: 10^4 random thresholds on a grid of 10^5 points;
  * random: i.i.d. fair bits.
D is Dirichlet(1) over the points. Two private sample sizes:
  * n = the corrected Lemma 7 size at alpha = 0.5, beta = 0.1, eps = 1, delta = 1e-6
    (``pmw_sample_size``): the accurate regime, few MW updates;
  * n = 10^4: far below it, so NumericSparse fires often (thousands of MW updates).
Each configuration runs ``--repeats`` times (fresh seed each); the median seconds of the
``pmw`` call (data generation excluded) and the median number of updates are printed.
Nothing is written to disk.

    python benchmarks/bench_pmw.py [--repeats 3] [--points 100000] [--queries 10000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np

from algorithms.classes import FiniteClass
from algorithms.query_release.pmw import pmw, pmw_sample_size

ALPHA, BETA, EPS, DELTA = 0.5, 0.1, 1.0, 1e-6


def thresholds_like(k: int, N: int, rng: np.random.Generator) -> np.ndarray:
    t = rng.integers(0, N + 1, size=k)
    return np.arange(N)[None, :] < t[:, None]


def random_bits(k: int, N: int, rng: np.random.Generator) -> np.ndarray:
    packed = rng.integers(0, 256, size=(k, (N + 7) // 8), dtype=np.uint8)
    return np.unpackbits(packed, axis=1, count=N).astype(bool)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--points", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=2020)
    args = ap.parse_args(argv)
    if args.repeats < 1 or args.points < 2 or args.queries < 1:
        print("bench_pmw: --repeats >= 1, --points >= 2 and --queries >= 1 are required", file=sys.stderr)
        return 2
    N, k = args.points, args.queries
    rng = np.random.default_rng(args.seed)
    n_lemma7 = pmw_sample_size(ALPHA, BETA, EPS, DELTA, domain_size=N, num_queries=k)
    print(f"PMW, |X~| = {N}, |H~| = {k}, alpha={ALPHA}, beta={BETA}, eps={EPS}, delta={DELTA}; "
          f"median of {args.repeats}")
    print(f"{'class':<16} {'n':>10} {'seconds':>9} {'updates':>8} {'c':>6}")
    for name, make in (("thresholds-like", thresholds_like), ("random", random_bits)):
        cls = FiniteClass(make(k, N, rng), name=name, copy=False)
        for n in (n_lemma7, 10_000):
            secs, updates = [], []
            for _ in range(args.repeats):
                D = rng.dirichlet(np.ones(N))
                data = np.repeat(np.arange(N), rng.multinomial(n, D))
                t0 = time.perf_counter()
                res, _ = pmw(data, cls, ALPHA, BETA, EPS, DELTA, rng)
                secs.append(time.perf_counter() - t0)
                updates.append(res.num_updates)
            print(f"{name:<16} {n:>10} {statistics.median(secs):>9.2f} {int(statistics.median(updates)):>8} "
                  f"{res.parameters.c:>6}")
        del cls
    return 0


if __name__ == "__main__":
    sys.exit(main())
