"""Peak memory of ``python -m bounds sweep`` at its 10^6-point cap, in table, JSON and CSV output.

Source: the sweep's streaming (bounds.__main__.cmd_sweep: every format evaluated and formatted in blocks); goal:
peak RSS under 500 MB in all three formats at 10^6 points. Each format runs in a child process started by a small
parent that reads resource.getrusage(RUSAGE_CHILDREN) (peak RSS and CPU seconds of the child alone); output goes
to /dev/null.

    python benchmarks/bench_sweep_memory.py [--result thm10|lemma4.2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
GRIDS = {
    # the benchmark's 10^6-point Theorem 10 grid (benchmarks/bench_bounds.py): 1000 alphas x 1000 betas
    "thm10": ["thm10", "--alpha", "1e-4:0.5:1000:log", "--beta", "1e-9:0.5:1000:log", "--epsilon", "0.5",
              "--delta", "1e-6", "--vc", "3", "--dual-vc", "8"],
    # a cheap result (4 quantities) over 1000 x 1000 points: the CLI test's grid (tests/bounds/test_sweep_memory.py)
    "lemma4.2": ["lemma4.2", "--private-samples", "1:1000:1000", "--epsilon", "0.1:2:1000", "--beta", "0.05"],
}


def measure(args: list[str]) -> tuple[float, float]:
    """(CPU seconds, peak RSS in MB) of ``python -m bounds sweep ARGS > /dev/null`` in a child."""
    code = ("import resource, subprocess, sys\n"
            f"r = subprocess.run([sys.executable, '-m', 'bounds', 'sweep', *{args!r}], stdout=subprocess.DEVNULL)\n"
            "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(r.returncode, u.ru_utime + u.ru_stime, u.ru_maxrss)\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    rc, cpu, kb = out.stdout.split()
    if rc != "0":
        raise SystemExit(f"sweep exited {rc}: {out.stderr.strip()[-300:]}")
    return float(cpu), int(kb) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--result", choices=sorted(GRIDS), default="thm10")
    ns = ap.parse_args()
    print("| format | CPU s | peak RSS MB |\n|---|---|---|")
    for name, fmt in (("table", []), ("JSON", ["--json"]), ("CSV", ["--csv"])):
        cpu, mb = measure(GRIDS[ns.result] + fmt)
        print(f"| {name} | {cpu:.1f} | {mb:.0f} |", flush=True)


if __name__ == "__main__":
    main()
