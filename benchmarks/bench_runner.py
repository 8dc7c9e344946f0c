"""Runner throughput: trials per second of an experiment with 1 and 2 workers, and the scaling efficiency.

Usage: python benchmarks/bench_runner.py [--trials N] [--repeats R] [--experiment NAME] [--param k=v ...]

For each workload it times, R times each (median reported): the bare loop over
``trial(params, trial_rng(seed, i))`` in this process (no store), then ``runner.run`` with
``workers=1`` (serial backend, records fsynced to a temporary run directory) and ``workers=2``
(process pool). Scaling efficiency = (rate with 2 workers) / (2 * rate with 1 worker).
Default workloads: ``laplace_tail`` with k=10 (a ~20 us trial: measures the runner's overhead)
and k=200000 (a ~5 ms trial: measures parallel speed-up). Prints a table; writes nothing to the repo.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from simulations import experiments, runner


def _bare(module, params, trials, seed) -> float:
    t0 = time.perf_counter()
    for i in range(trials):
        module.trial(params, runner.trial_rng(seed, i))
    return time.perf_counter() - t0


def _runner(name, overrides, trials, seed, workers) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        runner.run(name, trials, Path(tmp) / "run", seed=seed, overrides=overrides, workers=workers, progress=False)
        return time.perf_counter() - t0


def bench(name: str, overrides: dict, trials: int, repeats: int) -> dict:
    module = experiments.get(name)
    params = experiments.make_params(module, overrides)
    bare = statistics.median(_bare(module, params, trials, s) for s in range(repeats))
    one = statistics.median(_runner(name, overrides, trials, s, 1) for s in range(repeats))
    two = statistics.median(_runner(name, overrides, trials, s, 2) for s in range(repeats))
    return {"workload": f"{name} {' '.join(f'{k}={v}' for k, v in overrides.items())}", "trials": trials,
            "bare": trials / bare, "w1": trials / one, "w2": trials / two, "eff": (trials / two) / (2 * trials / one)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=None)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--experiment", default=None)
    ap.add_argument("--param", action="append", default=[])
    args = ap.parse_args(argv)
    if args.experiment:
        workloads = [(args.experiment, experiments.parse_overrides(args.param), args.trials or 2000)]
    else:
        workloads = [("laplace_tail", {"k": 10}, args.trials or 20000),
                     ("laplace_tail", {"k": 200000}, args.trials or 400)]
    rows = [bench(n, o, t, args.repeats) for n, o, t in workloads]
    print(f"{'workload':<28} {'trials':>7} {'bare loop/s':>12} {'1 worker/s':>11} {'2 workers/s':>12} "
          f"{'efficiency':>10}")
    for r in rows:
        print(f"{r['workload']:<28} {r['trials']:>7} {r['bare']:>12.0f} {r['w1']:>11.0f} {r['w2']:>12.0f} "
              f"{r['eff']:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
