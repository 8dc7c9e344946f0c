"""Decision stumps without their domain: CPU seconds and peak memory per A_PAP and per PMW run on
``Stumps(p)`` at p = 2000 and 20000 (BCMNUW20 Theorem 13's hard class at the sizes the tracing attack needs).

Usage: python benchmarks/bench_implicit.py [--repeats R]

Each configuration runs in a fresh child process (so its peak RSS is its own): the points are drawn from the
tracing attack's hard distribution (``algorithms.adversaries.tracing.hard_distribution``: per-coordinate
biases uniform on [-gamma, gamma], gamma = 0.5), then A_PAP(x, w) and PMW(x) over the full domain {+-1}^p at
alpha = 0.3, beta = 0.1, eps = 1, delta = 1e-6; median CPU seconds of R repeats (the draw excluded). Writes
nothing to the repo.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys

_CHILD = r"""
import json, resource, statistics, sys, time
import numpy as np
from algorithms.classes.implicit import Stumps
from algorithms.query_release.pap import a_pap
from algorithms.query_release.pmw import pmw
p, n, m, repeats = map(int, sys.argv[1:5])
rng = np.random.default_rng(0)
mu = rng.uniform(-0.5, 0.5, size=p)
draw = lambda k: np.where(rng.random((k, p)) < (1 + mu) / 2, 1, -1).astype(np.int8)
x, w = draw(n), draw(m)
S = Stumps(p)
out = {}
for name, fn in (("a_pap", lambda r: a_pap(x, w, S, 0.3, 0.1, 1.0, 1e-6, r)),
                 ("pmw", lambda r: pmw(x, S, 0.3, 0.1, 1.0, 1e-6, r))):
    times = []
    for i in range(repeats):
        t0 = time.process_time(); rel = fn(np.random.default_rng(i)); times.append(time.process_time() - t0)
    res = rel.value.pmw if name == "a_pap" else rel.value
    out[name] = {"cpu": statistics.median(times), "updates": int(res.num_updates),
                 "cover": int(rel.value.cover.size) if name == "a_pap" else p}
out["rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""

CONFIGS = ((2000, 200, 50), (2000, 2000, 50), (20000, 200, 50), (20000, 2000, 200))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    print(f"{'p':>6} {'n':>6} {'m':>5} {'|H~|':>6} {'A_PAP CPU s':>12} {'updates':>8} {'PMW CPU s':>10} {'updates':>8} "
          f"{'peak RSS MB':>12}")
    for p, n, m in CONFIGS:
        res = subprocess.run([sys.executable, "-c", _CHILD, str(p), str(n), str(m), str(args.repeats)],
                             capture_output=True, text=True, check=True)
        r = json.loads(res.stdout)
        print(f"{p:>6} {n:>6} {m:>5} {r['a_pap']['cover']:>6} {r['a_pap']['cpu']:>12.3f} {r['a_pap']['updates']:>8} "
              f"{r['pmw']['cpu']:>10.3f} {r['pmw']['updates']:>8} {r['rss_mb']:>12.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
