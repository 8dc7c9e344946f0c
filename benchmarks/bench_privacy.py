"""Benchmark of algorithms.privacy: the per-call cost of the mechanisms and conversions that
PMW, MWEM and PMW^Pub call once per iteration, and of the vectorised sampling the auditor uses.

Each row is timed ``--repeats`` times (after one warm-up call); the median is printed.
Nothing is written to disk.

    python benchmarks/bench_privacy.py [--repeats 21]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from algorithms.privacy import (
    ExponentialMechanism,
    GaussianMechanism,
    LaplaceMechanism,
    NumericSparse,
    PermuteAndFlip,
    gaussian_epsilon,
    gaussian_sigma_analytic,
    permute_and_flip_probabilities,
    zcdp_epsilon_infimum,
)


def median_seconds(fn, repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=21)
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    s4, s5 = rng.normal(size=10_000), rng.normal(size=100_000)
    s1k = rng.normal(size=1_000)
    v6 = rng.random(1_000_000)
    q5 = rng.random(100_000) * 0.1
    em, pf = ExponentialMechanism(1.0, 1e-3), PermuteAndFlip(1.0, 1e-3)
    lap, gau = LaplaceMechanism(1.0, 1.0), GaussianMechanism.zcdp(1.0, 0.01)

    rows = [
        ("zcdp_epsilon_infimum(rho=0.3, delta=1e-6)", lambda: zcdp_epsilon_infimum(0.3, 1e-6)),
        ("gaussian_epsilon(delta=1e-6, rho=0.3)", lambda: gaussian_epsilon(1e-6, rho=0.3)),
        ("gaussian_sigma_analytic(1, eps=1, delta=1e-6)", lambda: gaussian_sigma_analytic(1.0, 1.0, 1e-6)),
        ("LaplaceMechanism.release, 10^6 answers", lambda: lap.release(v6, rng)),
        ("GaussianMechanism.release, 10^6 answers", lambda: gau.release(v6, rng)),
        ("ExponentialMechanism.release, 10^4 scores", lambda: em.release(s4, rng)),
        ("ExponentialMechanism.release, 10^5 scores", lambda: em.release(s5, rng)),
        ("PermuteAndFlip.release, 10^4 scores", lambda: pf.release(s4, rng)),
        ("PermuteAndFlip.release, 10^5 scores", lambda: pf.release(s5, rng)),
        ("permute_and_flip_probabilities, 10^3 scores",
         lambda: permute_and_flip_probabilities(s1k, eps=1.0, sensitivity=1e-2)),
        ("ExponentialMechanism.sample, 10 scores x 10^5 draws", lambda: em.sample(s4[:10], rng, 100_000)),
        ("NumericSparse.run, 10^5 queries, c=100",
         lambda: NumericSparse(0.2, 100, 1.0, rng, delta=1e-6, sensitivity=1e-3).run(q5)),
        ("NumericSparse.query, one online query", lambda: NumericSparse(0.2, 100, 1.0, rng).query(0.0)),
    ]
    width = max(len(name) for name, _ in rows)
    print(f"{'operation':<{width}}  median seconds  ({args.repeats} repeats)")
    for name, fn in rows:
        print(f"{name:<{width}}  {median_seconds(fn, args.repeats):.3e}")


if __name__ == "__main__":
    main()
