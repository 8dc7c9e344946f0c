"""Benchmark of BCMNUW20 Algorithm 3 steps 1-4: cover H~ from public points + representative domain X_H~.

Classes of 10^5 hypotheses x 10^4 points:
  * thresholds-like: 10^5 random thresholds on a grid of 10^4 points (many repeated rows);
  * random: i.i.d. fair bits (all rows distinct, so H~ = H on >= 17 public points and the
    representative domain needs the distinct columns of the full 10^5 x 10^4 matrix).
Each configuration is timed ``--repeats`` times on a fresh FiniteClass (no cache carried
over); the median is printed. Nothing is written to disk.

    python benchmarks/bench_classes.py [--repeats 5] [--hypotheses 100000] [--points 10000]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

from algorithms.classes import FiniteClass, build_cover


def thresholds_like(num_hypotheses: int, num_points: int, rng: np.random.Generator) -> np.ndarray:
    t = rng.integers(0, num_points + 1, size=num_hypotheses)
    return np.arange(num_points)[None, :] < t[:, None]


def random_matrix(num_hypotheses: int, num_points: int, rng: np.random.Generator) -> np.ndarray:
    return rng.random((num_hypotheses, num_points)) < 0.5


def time_cover(matrix: np.ndarray, public: np.ndarray) -> tuple[float, float, int, int]:
    cls = FiniteClass(matrix, name="bench", copy=False)   # fresh class: no cached packing
    t0 = time.perf_counter()
    cover = build_cover(cls, public)
    t1 = time.perf_counter()
    rd = cover.representative_domain()
    t2 = time.perf_counter()
    return t1 - t0, t2 - t0, cover.size, rd.size


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--hypotheses", type=int, default=100_000)
    ap.add_argument("--points", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=2020)
    args = ap.parse_args(argv)
    if args.repeats < 1 or args.hypotheses < 1 or args.points < 1:
        print("error: --repeats, --hypotheses and --points must be >= 1", file=sys.stderr)
        return 2
    rng = np.random.default_rng(args.seed)
    rows = []
    for kind, make in (("thresholds-like", thresholds_like), ("random", random_matrix)):
        matrix = make(args.hypotheses, args.points, rng)
        for m in (100, 1_000, 10_000):
            public = rng.integers(0, args.points, size=m)
            runs = [time_cover(matrix, public) for _ in range(args.repeats)]
            rows.append((kind, m, statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
                         min(r[1] for r in runs), runs[0][2], runs[0][3]))
    print(f"cover + representative domain, |H| = {args.hypotheses}, N = {args.points}, median of {args.repeats} runs")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")
    print(f"{'class':<16} {'m':>6} {'cover s':>9} {'cover+X_H~ s':>13} {'min s':>7} {'|H~|':>8} {'|X_H~|':>8}")
    for kind, m, tc, tt, tmin, hs, xs in rows:
        print(f"{kind:<16} {m:>6} {tc:>9.3f} {tt:>13.3f} {tmin:>7.3f} {hs:>8} {xs:>8}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
