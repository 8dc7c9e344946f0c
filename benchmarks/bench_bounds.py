"""Speed of the bounds engine : prints a table, writes nothing.

1. cold start: ``python -m bounds compute thm10 ...`` (the README's first command) as a whole
   process, median over RUNS runs; goal <= 0.5 s.
2. sweep: BCMNUW20 Theorem 10 (implicit public m, Sauer, Claim 3, Lemma 7) over 10^6 parameter
   points (1000 alphas x 1000 betas), in process after the imports; goal <= 2 s.
3. the same sweep for the closed-form Lemma 7 and the implicit uc baseline, for reference.

    python benchmarks/bench_bounds.py [--runs 15] [--sweep-runs 5]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

import numpy as np

README = ["compute", "thm10", "--alpha", "0.1", "--beta", "0.05", "--epsilon", "0.5",
          "--delta", "1e-6", "--vc", "3", "--dual-vc", "8"]


def cold_start(runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "bounds", *README], check=True,
                       stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - t)
    return times


def sweep_times(result_id: str, runs: int, **fixed) -> tuple[list[float], int]:
    from bounds.api import sweep_arrays

    alphas = list(np.geomspace(1e-4, 0.5, 1000))
    betas = list(np.geomspace(1e-9, 0.5, 1000))
    times, n = [], 0
    for _ in range(runs):
        t = time.perf_counter()
        _, _, evs = sweep_arrays(result_id, alpha=alphas, beta=betas, **fixed)
        times.append(time.perf_counter() - t)
        first = next(iter(evs.values()))
        n = first.value.size
        assert all(np.all(np.isfinite(ev.log10)) for ev in evs.values())
    return times, n


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--sweep-runs", type=int, default=5)
    ns = ap.parse_args(argv)

    rows = []
    t = cold_start(ns.runs)
    rows.append(("cold `python -m bounds compute thm10 ...`", len(t), statistics.median(t),
                 min(t), max(t), 0.5))
    sweeps = [("thm10", dict(epsilon=0.5, delta=1e-6, vc=3, dual_vc=8)),
              ("lemma7", dict(epsilon=0.5, delta=1e-6, num_hypotheses=10**4, domain_size=2**30)),
              ("uc", dict(vc=3))]
    for rid, fixed in sweeps:
        t, n = sweep_times(rid, ns.sweep_runs, **fixed)
        rows.append((f"sweep {rid}, {n:,} points", len(t), statistics.median(t), min(t), max(t),
                     2.0 if rid == "thm10" else None))

    print(f"{'benchmark':<48} {'runs':>4} {'median s':>9} {'min s':>7} {'max s':>7} {'goal s':>6}  ok")
    for name, runs, med, lo, hi, goal in rows:
        ok = "" if goal is None else ("yes" if med <= goal else "NO")
        print(f"{name:<48} {runs:>4} {med:>9.3f} {lo:>7.3f} {hi:>7.3f} "
              f"{'' if goal is None else goal:>6}  {ok}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
