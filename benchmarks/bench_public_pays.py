"""Where public data pays, by the bounds (``bounds.families``): per class family, the least size at which BCMNUW20
Theorem 10's private sample for A_PAP falls below every private-only bound (``baselines:tree_*``, ``gaussian``,
``laplace``, ``pmw``), or the ratio at the largest size searched where there is none.

Usage: python benchmarks/bench_public_pays.py [--alphas 0.3,0.1] [--beta 0.1] [--epsilon 0.9] [--delta 1e-6]

No randomness; every number is ``bounds.compute`` of the result named. Writes nothing to the repo.
"""
from __future__ import annotations

import argparse
import time

from bounds.families import least_paying_size

SEARCH = (("thresholds", 2, 1023), ("intervals", 2, 511), ("stumps", 2, 10**6), ("conjunctions", 2, 1023),
          ("parities", 2, 1023), ("halfspaces_2d", 2, 255))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--alphas", default="0.3,0.1")
    ap.add_argument("--beta", type=float, default=0.1)
    ap.add_argument("--epsilon", type=float, default=0.9)
    ap.add_argument("--delta", type=float, default=1e-6)
    a = ap.parse_args(argv)
    t0 = time.process_time()
    print("| alpha | family | searched sizes | least size where Theorem 10's n < every private-only n | Theorem 10 n "
          "| strongest private-only (its n) | Theorem 10 / strongest |")
    print("|---|---|---|---|---|---|---|")
    for alpha in (float(x) for x in a.alphas.split(",")):
        kw = dict(alpha=alpha, beta=a.beta, epsilon=a.epsilon, delta=a.delta)
        for fam, lo, hi in SEARCH:
            r = least_paying_size(fam, low=lo, high=hi, **kw)
            at = r["at"] if r["found"] else r["at_limit"]
            where = f"{r['least_size']}" if r["found"] else f"none up to {r['limit']}"
            skipped = "" if r["found"] or not r["beyond_float"] else f"; beyond float: {', '.join(r['beyond_float'])}"
            print(f"| {alpha:g} | {fam} | [{lo}, {hi}] | {where}{skipped} | {at['thm10']:.3g} | "
                  f"{at['strongest']} ({at['strongest_n']:.3g}) | {at['ratio_thm10_over_strongest']:.3g} |")
    print(f"\nCPU {time.process_time() - t0:.1f} s")


if __name__ == "__main__":
    main()
