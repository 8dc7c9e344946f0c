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
5. with ``--floor``: what any CSV CLI of this sweep must spend, measured in the same run, so the ratio of 4
   can be read against its floor: the start-up (a process that only imports numpy, polars and the bounds
   engine), the blocked evaluation alone (``sweep_chunks`` consumed, nothing formatted), and the text of the
   sweep's 40 x 10^6 numbers alone (the values of one sweep, already in memory, written block by block by
   polars' writer; by pyarrow's and by orjson where they are installed: shortest round-trip text
   in each). Floor = start-up + evaluation + polars' text; its ratio to the in-process sweep is the best
   ratio any CLI writing this text with these libraries can reach. Beside it, the CLI run on one CPU with one
   polars thread: what the writer's hand-off of each block to a thread on the other core costs.

    python benchmarks/bench_bounds.py [--runs 15] [--sweep-runs 5] [--csv-runs 1] [--floor]
"""
from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import time

import numpy as np

README = ["compute", "thm10", "--alpha", "0.1", "--beta", "0.05", "--epsilon", "0.5",
          "--delta", "1e-6", "--vc", "3", "--dual-vc", "8"]
THM10 = dict(epsilon=0.5, delta=1e-6, vc=3, dual_vc=8)  # the swept thm10's fixed values, in process and CLI


def _grid() -> dict:
    """The 10^6-point grid every sweep here runs: 1000 alphas x 1000 betas, log-spaced."""
    return dict(alpha=list(np.geomspace(1e-4, 0.5, 1000)), beta=list(np.geomspace(1e-9, 0.5, 1000)))


def _child(argv: list[str], one_cpu: bool = False) -> tuple[float, int]:
    """(CPU seconds, peak RSS in KB) of ``python argv`` as a whole process, stdout discarded. ``one_cpu``:
    the child runs on one CPU with one polars thread (a measurement of what the writer's cross-core hand-off
    costs; the CLI itself is never pinned)."""
    env, pre = None, None
    if one_cpu:
        cpu = min(os.sched_getaffinity(0))
        env = {**os.environ, "POLARS_MAX_THREADS": "1"}
        pre = lambda: os.sched_setaffinity(0, {cpu})  # noqa: E731
    r = subprocess.run(["/usr/bin/time", "-v", sys.executable, *argv], check=True, env=env, preexec_fn=pre,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    user = float(re.search(r"User time \(seconds\): ([0-9.]+)", r.stderr).group(1))
    system = float(re.search(r"System time \(seconds\): ([0-9.]+)", r.stderr).group(1))
    rss = int(re.search(r"Maximum resident set size \(kbytes\): ([0-9]+)", r.stderr).group(1))
    return user + system, rss


def cold_start(runs: int) -> list[float]:
    return [_child(["-m", "bounds", *README])[0] for _ in range(runs)]


def sweep_times(result_id: str, runs: int, **fixed) -> tuple[list[float], int]:
    from bounds.api import sweep_arrays

    grid = _grid()
    times, n = [], 0
    for _ in range(runs):
        t = time.process_time()
        _, _, evs = sweep_arrays(result_id, **grid, **fixed)
        times.append(time.process_time() - t)
        first = next(iter(evs.values()))
        n = first.value.size
        assert all(np.all(np.isfinite(ev.log10)) for ev in evs.values())
    return times, n


def csv_cli(alphas: int, runs: int, one_cpu: bool = False) -> tuple[list[float], int]:
    argv = ["-m", "bounds", "sweep", "thm10", "--alpha", f"1e-4:0.5:{alphas}:log", "--beta", "1e-9:0.5:1000:log",
            *(a for k, v in THM10.items() for a in (f"--{k.replace('_', '-')}", str(v))), "--csv"]
    out = [_child(argv, one_cpu) for _ in range(runs)]
    return [t for t, _ in out], max(r for _, r in out)


def _evaluation_time() -> float:
    """CPU seconds of the CLI's blocked evaluation alone: ``sweep_chunks`` consumed as the CLI consumes it,
    each block dropped before the next, nothing formatted."""
    from bounds.api import sweep_chunks

    t = time.process_time()
    for _ in sweep_chunks("thm10", **_grid(), **THM10, levels=True):
        pass
    return time.process_time() - t


def _text_times(runs: int) -> tuple[int, dict[str, list[float]]]:
    """The numbers ``sweep --csv`` writes (``bounds.__main__.quantity_series``), all blocks held in memory,
    then the CPU seconds to write them as text to /dev/null, per writer installed: (cells, times)."""
    import polars as pl

    from bounds.__main__ import quantity_series
    from bounds.api import sweep_chunks

    frames = [pl.DataFrame(quantity_series(pl, evs))
              for _, _, evs in sweep_chunks("thm10", **_grid(), **THM10, levels=True)]
    writers = {"polars": (frames, lambda f, df: df.write_csv(f, include_header=False, quote_style="never"))}
    try:
        import pyarrow.csv as pacsv

        opts = pacsv.WriteOptions(include_header=False)
        writers["pyarrow"] = ([df.to_arrow() for df in frames],
                              lambda f, table: pacsv.write_csv(table, os.devnull, opts))
    except ImportError:
        pass
    try:
        import orjson  # one 2-D float array per block: its text, brackets and all (a lower bound on a CSV)

        writers["orjson (floats only, JSON text)"] = (
            [df.to_numpy().astype(float) for df in frames],
            lambda f, mat: f.write(orjson.dumps(mat, option=orjson.OPT_SERIALIZE_NUMPY)))
    except ImportError:
        pass
    times = {}
    with open(os.devnull, "wb") as devnull:
        for name, (payloads, write) in writers.items():
            times[name] = []
            for _ in range(runs):
                t = time.process_time()
                for payload in payloads:
                    write(devnull, payload)
                times[name].append(time.process_time() - t)
    return sum(df.width * df.height for df in frames), times


def floor_rows(runs: int, in_process: float) -> list[tuple]:
    rows = []
    start = [_child(["-c", "import numpy, polars, bounds.api, bounds.__main__"])[0] for _ in range(runs)]
    rows.append(("floor: start-up (import numpy, polars, bounds)", runs, statistics.median(start), min(start),
                 max(start), "", ""))
    evals = [_evaluation_time() for _ in range(runs)]
    rows.append(("floor: blocked evaluation alone, 10^6 points", runs, statistics.median(evals), min(evals),
                 max(evals), "", ""))
    cells, texts = _text_times(runs)
    for name, t in texts.items():
        rows.append((f"floor: text of {cells / 1e6:.0f}e6 numbers, {name}", runs, statistics.median(t), min(t),
                     max(t), "", ""))
    floor = statistics.median(start) + statistics.median(evals) + statistics.median(texts["polars"])
    rows.append(("floor: start-up + evaluation + polars' text", runs, floor, None, None, "", ""))
    rows.append(("  ratio floor / in-process sweep thm10", runs, floor / in_process, None, None, "", ""))
    t, _ = csv_cli(1000, runs, one_cpu=True)
    rows.append(("CSV CLI 10^6 on one CPU, one polars thread", runs, statistics.median(t), min(t), max(t), "", ""))
    rows.append(("  ratio / in-process sweep thm10", runs, statistics.median(t) / in_process, None, None, "", ""))
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--sweep-runs", type=int, default=5)
    ap.add_argument("--csv-runs", type=int, default=1)
    ap.add_argument("--floor", action="store_true", help="also measure the CSV CLI's floor (section 5)")
    ns = ap.parse_args(argv)

    rows = []
    t = cold_start(ns.runs)
    rows.append(("cold `python -m bounds compute thm10 ...` (CPU)", len(t), statistics.median(t), min(t), max(t),
                 "<= 0.5 s", ""))
    sweeps = [("thm10", THM10),
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
    if ns.floor:
        rows += floor_rows(max(ns.csv_runs, 3), med["thm10"])

    print(f"{'benchmark (CPU s)':<52} {'runs':>4} {'median':>8} {'min':>7} {'max':>7} {'goal':>8} {'peak RSS':>9}")
    def f(x):
        return f"{x:>7.3f}" if x is not None else f"{'':>7}"

    for name, runs, m, lo, hi, goal, rss in rows:
        print(f"{name:<52} {runs:>4} {m:>8.3f} {f(lo)} {f(hi)} {goal:>8} {rss:>9}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
