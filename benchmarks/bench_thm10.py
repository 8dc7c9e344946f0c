"""Theorem 10 experiment throughput: trials per second with 1 and 2 workers, and the scaling efficiency.

Usage: python benchmarks/bench_thm10.py [--repeats R] [--trials N] [--small-trials M]

Workloads (each timed R times, median reported; fresh temporary run directory each time, writes nothing
to the repo):
  * ``thm10`` at its defaults (7 cases: thresholds/intervals/stumps under uniform, Zipf and adversarial
    distributions, alpha = 0.5, Theorem 10's full n and m): the run ``python -m simulations run
    thm10`` does;
  * ``thm10`` small (thresholds:near_threshold on 64 points, alpha = 0.9, n_max = 300,000): the CI size.
Columns: the bare loop over ``trial`` in this process (no store), ``runner.run`` with workers=1 (serial
backend) and workers=2 (process pool); efficiency = rate(2) / (2 * rate(1)).

``--counts-vs-expanded``: CPU seconds per default trial (Theorem 10's full n, up to 1.4 * 10^8 private points)
with the private sample kept as its histogram (what the experiment does) against the same trial with the
sample expanded to point indices (the O(n) path A_PAP also accepts), same seeds, and the peak memory of each
(each measured in a fresh child process). The two must release the same records.

``--before REV``: CPU seconds per default trial (Theorem 10's full n) of this tree with the compiled kernels, of
this tree with numpy only (``PUBPRIV_NO_NUMBA=1``), and of the tree at git revision REV (``git archive``, a
temporary copy), each in a fresh child process on the same seeds after one warm-up trial (process CPU: every
thread, BLAS's included). The two backends must release identical records (exit status 1 otherwise); against
REV it prints how many record fields are equal, how many real numbers differ (and by how much at most) and how
many decisions (booleans, counts) differ.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from simulations import experiments, runner

SMALL = {"cases": "thresholds:near_threshold", "num_points": "64", "alpha": "0.9", "n_max": "300000"}


def _bare(module, params, trials, seed) -> float:
    t0 = time.perf_counter()
    for i in range(trials):
        module.trial(params, runner.trial_rng(seed, i))
    return time.perf_counter() - t0


def _runner(overrides, trials, seed, workers) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        runner.run("thm10", trials, Path(tmp) / "run", seed=seed, overrides=overrides, workers=workers,
                   progress=False)
        return time.perf_counter() - t0


def bench(label: str, overrides: dict, trials: int, repeats: int) -> dict:
    module = experiments.get("thm10")
    params = experiments.make_params(module, overrides)
    module.trial(params, runner.trial_rng(0, 0))  # warm the per-process caches (classes, bounds) for the bare loop
    bare = statistics.median(_bare(module, params, trials, 100 + s) for s in range(repeats))
    one = statistics.median(_runner(overrides, trials, 200 + s, 1) for s in range(repeats))
    two = statistics.median(_runner(overrides, trials, 300 + s, 2) for s in range(repeats))
    return {"workload": label, "trials": trials, "bare": trials / bare, "w1": trials / one, "w2": trials / two,
            "eff": (trials / two) / (2 * trials / one)}


_CHILD = """
import json, resource, sys, time
from simulations.experiments import thm10
from simulations import runner
if sys.argv[1] == "expanded":
    _draw = thm10.private_sample
    thm10.private_sample = lambda D, n, rng: _draw(D, n, rng).indices()
params = thm10.Params()
thm10.trial(params, runner.trial_rng(0, 0))
t0 = time.process_time()
recs = [thm10.trial(params, runner.trial_rng(1, i)) for i in range(int(sys.argv[2]))]
cpu = (time.process_time() - t0) / len(recs)
print(json.dumps({"cpu": cpu, "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "recs": recs}))
"""


def counts_vs_expanded(trials: int) -> int:
    import json
    import subprocess

    out = {}
    for mode in ("counts", "expanded"):
        res = subprocess.run([sys.executable, "-c", _CHILD, mode, str(trials)], capture_output=True, text=True,
                             check=True)
        out[mode] = json.loads(res.stdout)
    same = out["counts"]["recs"] == out["expanded"]["recs"]
    print(f"{'private sample':<16} {'CPU s/trial':>12} {'peak RSS MB':>12}")
    for mode in ("counts", "expanded"):
        print(f"{mode:<16} {out[mode]['cpu']:>12.3f} {out[mode]['rss_mb']:>12.0f}")
    print(f"ratio expanded/counts: {out['expanded']['cpu'] / out['counts']['cpu']:.1f}x CPU; identical records: {same}")
    return 0 if same else 1


def _leaves(rec, prefix=""):
    if isinstance(rec, dict):
        for key, value in rec.items():
            yield from _leaves(value, f"{prefix}{key}.")
    else:
        yield prefix[:-1], rec


def _compare(new, old) -> tuple[int, int, float, int]:
    """(equal fields, real numbers that differ, their largest difference, other fields that differ)."""
    equal = reals = others = 0
    worst = 0.0
    for a, b in zip(new, old):
        for (ka, va), (kb, vb) in zip(_leaves(a), _leaves(b), strict=True):
            if ka != kb:
                raise SystemExit(f"record fields differ: {ka} against {kb}")
            if va == vb:
                equal += 1
            elif isinstance(va, float) and isinstance(vb, float):
                reals += 1
                worst = max(worst, abs(va - vb))
            else:
                others += 1
    return equal, reals, worst, others


def before_after(rev: str, trials: int) -> int:
    import json
    import os
    import subprocess

    repo = Path(__file__).resolve().parents[1]
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(repo), "archive", rev], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        for label, tree, extra in (("this tree, numba", repo, {}), ("this tree, numpy only", repo,
                                   {"PUBPRIV_NO_NUMBA": "1"}), (f"at {rev}", Path(tmp), {})):
            env = {**os.environ, "PYTHONPATH": str(tree), **extra}
            res = subprocess.run([sys.executable, "-c", _CHILD, "counts", str(trials)], capture_output=True,
                                 text=True, check=True, env=env, cwd=tree)
            out[label] = json.loads(res.stdout)
    base = out[f"at {rev}"]["cpu"]
    print(f"{'tree':<26} {'CPU s/trial':>12} {'/ before':>9}")
    for label, r in out.items():
        print(f"{label:<26} {r['cpu']:>12.3f} {r['cpu'] / base:>9.3f}")
    same = out["this tree, numba"]["recs"] == out["this tree, numpy only"]["recs"]
    equal, reals, worst, others = _compare(out["this tree, numba"]["recs"], out[f"at {rev}"]["recs"])
    print(f"{trials} trials; numba and numpy records identical: {same}")
    print(f"against {rev}: {equal} fields equal, {reals} real numbers differ (largest difference {worst:.3g}), "
          f"{others} other fields differ")
    return 0 if same else 1


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--trials", type=int, default=20, help="trials of the default workload")
    ap.add_argument("--small-trials", type=int, default=100, help="trials of the small workload")
    ap.add_argument("--counts-vs-expanded", action="store_true",
                    help="CPU and memory per full-n trial, histogram vs expanded sample (see the docstring)")
    ap.add_argument("--before", metavar="REV", help="CPU per full-n trial against git revision REV, both backends "
                    "(see the docstring)")
    args = ap.parse_args(argv)
    if args.before:
        return before_after(args.before, args.trials)
    if args.counts_vs_expanded:
        return counts_vs_expanded(args.trials)
    rows = [bench("thm10 defaults (7 cases)", {}, args.trials, args.repeats),
            bench("thm10 small (CI size)", SMALL, args.small_trials, args.repeats)]
    print(f"{'workload':<26} {'trials':>7} {'bare loop/s':>12} {'1 worker/s':>11} {'2 workers/s':>12} "
          f"{'efficiency':>10}")
    for r in rows:
        print(f"{r['workload']:<26} {r['trials']:>7} {r['bare']:>12.2f} {r['w1']:>11.2f} {r['w2']:>12.2f} "
              f"{r['eff']:>10.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
