"""Speed of the bounds engine: prints a table, writes nothing. Times are CPU seconds of this process
(``time.process_time``) or of a child process (``/usr/bin/time``), never wall time.

1. cold start: ``python -m bounds compute thm10 ...`` (the README's first command) as a whole
   process, median over RUNS runs; goal <= 0.5 s.
2. sweep: BCMNUW20 Theorem 10 (implicit public m, Sauer, Claim 3, Lemma 7 with its closed-form budgets)
   over 10^6 parameter points (1000 alphas x 1000 betas), in process after the imports; goal: within 3x
   of the implicit ``uc`` baseline's sweep measured in the same run.
3. the same sweep for Lemma 7 alone and for ``uc``.
4. ``python -m bounds sweep thm10 ... --csv > /dev/null`` at 10^5 and 10^6 points: CPU and peak RSS of the
   whole process (``/usr/bin/time -v``); goals: CSV within 3x of the in-process sweep (medians, and the
   fastest runs of each), memory flat in the number of points.

    python benchmarks/bench_bounds.py [--runs 15] [--sweep-runs 5] [--csv-runs 1]
"""
from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time

import numpy as np

README = ["compute", "thm10", "--alpha", "0.1", "--beta", "0.05", "--epsilon", "0.5",
          "--delta", "1e-6", "--vc", "3", "--dual-vc", "8"]


def _child(argv: list[str]) -> tuple[float, int]:
    """(CPU seconds, peak RSS in KB) of ``python argv`` as a whole process, stdout discarded."""
    r = subprocess.run(["/usr/bin/time", "-v", sys.executable, *argv], check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    user = float(re.search(r"User time \(seconds\): ([0-9.]+)", r.stderr).group(1))
    system = float(re.search(r"System time \(seconds\): ([0-9.]+)", r.stderr).group(1))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): ([0-9]+)", r.stderr).group(1))
    return user + system, rss


def cold_start(runs: int) -> list[float]:
    return [_child(["-m", "bounds", *README])[0] for _ in range(runs)]


def sweep_times(result_id: str, runs: int, **fixed) -> tuple[list[float], int]:
    from bounds.api import sweep_arrays

    alphas = list(np.geomspace(1e-4, 0.5, 1000))
    betas = list(np.geomspace(1e-9, 0.5, 1000))
    times, n = [], 0
    for _ in range(runs):
        t = time.process_time()
        _, _, evs = sweep_arrays(result_id, alpha=alphas, beta=betas, **fixed)
        times.append(time.process_time() - t)
        first = next(iter(evs.values()))
        n = first.value.size
        assert all(np.all(np.isfinite(ev.log10)) for ev in evs.values())
    return times, n


def csv_cli(alphas: int, runs: int) -> tuple[list[float], int]:
    argv = ["-m", "bounds", "sweep", "thm10", "--alpha", f"1e-4:0.5:{alphas}:log", "--beta", "1e-9:0.5:1000:log",
            "--epsilon", "0.5", "--delta", "1e-6", "--vc", "3", "--dual-vc", "8", "--csv"]
    out = [_child(argv) for _ in range(runs)]
    return [t for t, _ in out], max(r for _, r in out)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--sweep-runs", type=int, default=5)
    ap.add_argument("--csv-runs", type=int, default=1)
    ns = ap.parse_args(argv)

    rows = []
    t = cold_start(ns.runs)
    rows.append(("cold `python -m bounds compute thm10 ...` (CPU)", len(t), statistics.median(t), min(t), max(t),
                 "<= 0.5 s", ""))
    sweeps = [("thm10", dict(epsilon=0.5, delta=1e-6, vc=3, dual_vc=8)),
              ("lemma7", dict(epsilon=0.5, delta=1e-6, num_hypotheses=10**4, domain_size=2**30)),
              ("uc", dict(vc=3))]
    med, best = {}, {}
    for rid, fixed in sweeps:
        t, n = sweep_times(rid, ns.sweep_runs, **fixed)
        med[rid], best[rid] = statistics.median(t), min(t)
        rows.append((f"sweep {rid}, {n:,} points, in process", len(t), med[rid], min(t), max(t), "", ""))
    for rid in ("thm10", "lemma7"):
        rows.append((f"  ratio sweep {rid} / sweep uc", ns.sweep_runs, med[rid] / med["uc"], None, None, "<= 3",
                     ""))
    for alphas in (100, 1000):
        t, rss = csv_cli(alphas, ns.csv_runs)
        rows.append((f"`bounds sweep thm10 ... --csv`, {alphas * 1000:,} points", len(t), statistics.median(t),
                     min(t), max(t), "", f"{rss / 1024:.0f} MB"))
        if alphas == 1000:
            rows.append(("  ratio CSV CLI / in-process sweep thm10", len(t), statistics.median(t) / med["thm10"],
                         None, None, "<= 3", ""))
            # the in-process sweep's CPU varies with the kernel's page faults on its ~0.4 GB of arrays: the ratio
            # of the fastest runs too
            rows.append(("  same, fastest CSV run / fastest sweep", len(t), min(t) / best["thm10"], None, None,
                         "<= 3", ""))

    print(f"{'benchmark (CPU s)':<52} {'runs':>4} {'median':>8} {'min':>7} {'max':>7} {'goal':>8} {'peak RSS':>9}")
    def f(x):
        return f"{x:>7.3f}" if x is not None else f"{'':>7}"

    for name, runs, m, lo, hi, goal, rss in rows:
        print(f"{name:<52} {runs:>4} {m:>8.3f} {f(lo)} {f(hi)} {goal:>8} {rss:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
