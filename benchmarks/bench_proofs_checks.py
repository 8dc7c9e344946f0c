"""Benchmark of ``python -m proofs_checks``: seconds per paper and for the whole run (the goal is well
under a minute). Each repeat runs in a fresh interpreter (imports and the classes' caches included), the
median is printed per paper. Nothing is written to disk.

    python benchmarks/bench_proofs_checks.py [--repeats 3]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

PAPERS = ("bcmnuw20", "abm19", "lvsuw21", "nb20", None)


def once(paper) -> float:
    cmd = [sys.executable, "-m", "proofs_checks"] + (["--paper", paper] if paper else [])
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    return time.perf_counter() - t0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeats", type=int, default=3)
    args = p.parse_args(argv)
    if args.repeats < 1:
        sys.stderr.write(f"bench_proofs_checks: --repeats={args.repeats}: allowed >= 1\n")
        return 2
    print(f"{'run':28} {'median s':>9} {'min s':>7}")
    for paper in PAPERS:
        ts = [once(paper) for _ in range(args.repeats)]
        name = f"--paper {paper}" if paper else "all papers"
        print(f"{name:28} {statistics.median(ts):9.2f} {min(ts):7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
