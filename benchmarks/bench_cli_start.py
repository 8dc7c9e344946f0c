"""Start-up cost of every `list` / `--help` / `show` command against `import numpy`: prints a table and a
verdict line per command, writes nothing, exits 1 if any command is over its line.

The line: a command's CPU time (user + system of the child process, median of RUNS) is at most
RATIO_GOAL x the CPU time of `python -c "import numpy"` measured in the same run (so the machine's load and
speed cancel out). These commands must import only what they print: scipy (about a second) is loaded on first
use (algorithms._lazy), `simulations list` reads experiment metadata from the sources without importing them,
`bounds` loads its API lazily, `proofs_checks --list` runs no check. For the modules behind a slow command:
`python -X importtime -m simulations list 2>&1 | sort -t'|' -k2 -n | tail`.

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
    ("bounds", "list"), ("bounds", "--help"), ("bounds", "show", "thm10"), ("bounds", "--version"),
    ("simulations", "list"), ("simulations", "list", "thm10"), ("simulations", "--help"),
    ("simulations", "run", "--help"), ("simulations", "audit", "--help"),
    ("proofs_checks", "--list"), ("proofs_checks", "--help"),
    ("reports", "--help"), ("reports", "build", "--help"),
]
BASELINE = ("-c", "import numpy")
RATIO_GOAL = 2.5


def measure(args: tuple[str, ...], runs: int) -> tuple[float, float]:
    """Median wall and CPU seconds of ``python ARGS`` in a new process."""
    walls, cpus = [], []
    for _ in range(runs):
        before = os.times()
        t = time.perf_counter()
        subprocess.run([sys.executable, *args], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        walls.append(time.perf_counter() - t)
        after = os.times()
        cpus.append((after.children_user - before.children_user) + (after.children_system - before.children_system))
    return statistics.median(walls), statistics.median(cpus)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=7, help="runs per command (the median is reported)")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; median of {args.runs} runs")
    _, base = measure(BASELINE, args.runs)
    print(f"python -c 'import numpy': {base:.3f} s CPU; line: {RATIO_GOAL:g}x = {RATIO_GOAL * base:.3f} s")
    print("| command | wall s | cpu s | cpu / import numpy | verdict |\n|---|---:|---:|---:|---|")
    over = []
    for cmd in COMMANDS:
        wall, cpu = measure(("-m", *cmd), args.runs)
        ratio = cpu / base
        ok = ratio <= RATIO_GOAL
        if not ok:
            over.append(" ".join(cmd))
        print(f"| python -m {' '.join(cmd)} | {wall:.2f} | {cpu:.3f} | {ratio:.2f} | {'ok' if ok else 'OVER'} |")
    print(f"{len(COMMANDS) - len(over)}/{len(COMMANDS)} commands within {RATIO_GOAL:g}x of import numpy"
          + (f"; over: {', '.join(over)}" if over else ""))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
