"""Start-up time of every `list` / `--help` command (goal: under a second): prints a table, writes nothing.

Each command runs as a whole new process, RUNS times; the table gives the median wall time, the
median user+system CPU time of the child (what the command itself costs, independent of other load
on the machine) and the goal (1 s). The imports these commands need are kept lazy: scipy (about a
second to import) is loaded on first use (algorithms._lazy), `simulations list` reads experiment
metadata from the sources without importing them, `proofs_checks --list` runs no check.

    python benchmarks/bench_cli_start.py [--runs 7]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

COMMANDS = [
    ("bounds", "list"), ("bounds", "--help"), ("bounds", "show", "thm10"),
    ("simulations", "list"), ("simulations", "--help"), ("simulations", "run", "--help"),
    ("proofs_checks", "--list"), ("proofs_checks", "--help"),
    ("reports", "--help"), ("reports", "build", "--help"),
]
GOAL = 1.0


def measure(cmd: tuple[str, ...], runs: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(runs):
        before = os.times()
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", *cmd], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t)
        after = os.times()
        cpus.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; median of {args.runs} runs")
    print("| command | wall s | cpu s | goal s |\n|---|---:|---:|---:|")
    for cmd in COMMANDS:
        wall, cpu = measure(cmd, args.runs)
        print(f"| python -m {' '.join(cmd)} | {wall:.2f} | {cpu:.2f} | {GOAL:g} |")


if __name__ == "__main__":
    main()
