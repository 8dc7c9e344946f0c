"""LVSUW21 Table 1: per-iteration run time of PMW^Pub and MWEM on an ACS (reduced)-sized domain and on a domain
of the FULL ACS shape, single core (BLAS on one thread), beside the paper's four cells.

Red.: ``simulations.data.synthetic.reference_workload(0)``'s domain (15 binary + 1 ternary attributes, 98,304
cells, the size of the paper's ACS (reduced)), every one of its C(16, 3) = 560 3-way marginal workloads (the
paper's 4,096 workloads do not exist on 16 attributes).

FULL: the attribute sizes of the LVSUW21 authors' ACS domain file (terranceliu/dp-query-release,
datasets/domain/acs_OH-domain.json, read for its sizes only), the 67 attributes of at most 13 values: they are
exactly the paper's "67 attributes ... dimension 287" (sum of sizes 287), but their product is 5.12e37 cells,
not the paper's "approximately 4.99 x 10^18" (recorded as an erratum candidate: no subset of 67 of the file's
attributes with dimension 287 has that size). Data: a seeded synthetic Bayesian network of that shape
(``synthetic.random_network``, max 2 parents; not ACS data), private n rows, public m rows from the network
shifted by 0.2 (PA-10's size is not in the paper's text: ``--public-rows``); 4,096 random 3-way marginal
workloads (the paper's workload size). MWEM on FULL is not run: one float64 distribution over the domain needs
8 |X| bytes, printed.

Per-iteration time = CPU seconds (``time.process_time``) of a T-round run of Algorithm 1's loop (permute-and-flip,
Gaussian measurement, no replay) / T, set-up excluded (query tables, true answers, A_0; one untimed 2-round warm-up compiles the kernels), median
over seeds.

    python benchmarks/bench_table1.py [--iterations 10] [--seeds 1] [--private-rows 20000] [--public-rows 2000]
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import math  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402

from algorithms.query_release.mw import IncrementalMWDistribution  # noqa: E402
from algorithms.query_release.mwem import mwem_zcdp_from_answers  # noqa: E402
from algorithms.query_release.pmw_pub import distinct_rows, eps_tilde_for, marginal_answers  # noqa: E402
from algorithms.query_release.workloads import (CategoricalDomain, DomainMarginalQueries, MarginalQueries,  # noqa: E402
                                               all_k_way, random_k_way)
from simulations.data.synthetic import random_network, reference_workload, shifted  # noqa: E402

#: LVSUW21 Table 1 (seconds per iteration, one core of an i5-4690K)
PAPER = {("Red.", "PMW^Pub"): 0.185, ("Red.", "MWEM"): 0.919, ("FULL", "PMW^Pub"): 2.021, ("FULL", "MWEM"): None}
#: the attribute sizes of the authors' ACS domain file with at most 13 values (67 attributes, sum 287), in file order
ACS_FULL_SIZES = (2, 3, 4, 6, 4, 3, 2, 2, 3, 2, 2, 8, 4, 11, 2, 3, 2, 3, 4, 3, 3, 3, 2, 4, 1, 3, 3, 4, 10, 3, 3, 8,
                  2, 3, 5, 3, 5, 13, 8, 2, 6, 2, 10, 4, 3, 3, 3, 4, 5, 7, 7, 2, 10, 2, 2, 9, 8, 7, 2, 7, 3, 3, 5,
                  3, 2, 4, 3)


def _per_iteration(queries, counts, true, n, T, seeds) -> float:
    times = []
    warm = IncrementalMWDistribution.from_histogram(queries, counts)   # untimed: compiles the kernels once
    mwem_zcdp_from_answers(true, n, queries, eps_tilde_for(1.0, 1.0 / n**2), 2, np.random.default_rng(99), initial=warm)
    for seed in range(seeds):
        initial = IncrementalMWDistribution.from_histogram(queries, counts)
        rng = np.random.default_rng(seed)
        t0 = time.process_time()
        mwem_zcdp_from_answers(true, n, queries, eps_tilde_for(1.0, 1.0 / n**2), T, rng, initial=initial)
        times.append((time.process_time() - t0) / T)
    return float(np.median(times))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--seeds", type=int, default=1)
    ap.add_argument("--private-rows", type=int, default=20_000)
    ap.add_argument("--public-rows", type=int, default=2_000)
    args = ap.parse_args(argv)
    assert len(ACS_FULL_SIZES) == 67 and sum(ACS_FULL_SIZES) == 287
    rows = []

    def pmw_pub_row(name, domain, workloads, net, pub_net, rng):
        """Draw the private and public rows, time PMW^Pub; returns (true answers, n) for the MWEM row."""
        priv, pub = net.sample(args.private_rows, rng), pub_net.sample(args.public_rows, rng)
        true = marginal_answers(domain, workloads, priv)
        support, counts = distinct_rows(pub)
        q = MarginalQueries(domain, workloads, support)
        rows.append((name, "PMW^Pub", _per_iteration(q, counts, true, len(priv), args.iterations, args.seeds),
                     f"{float(domain.size):.3g} cells, {len(workloads)} workloads ({q.num_queries:,} queries), "
                     f"support {len(support):,}"))
        return true, len(priv)

    domain, _, net, pub_net = reference_workload(0)
    workloads = all_k_way(domain, 3)
    true, n = pmw_pub_row("Red.", domain, workloads, net, pub_net, np.random.default_rng(0))
    qd = DomainMarginalQueries(domain, workloads)
    rows.append(("Red.", "MWEM", _per_iteration(qd, np.ones(domain.size), true, n, args.iterations, args.seeds),
                 f"{domain.size:,} cells, {len(workloads)} workloads"))

    full = CategoricalDomain(list(ACS_FULL_SIZES))
    rng = np.random.default_rng(1)
    net = random_network(full, rng, max_parents=2)
    pub_net = shifted(net, 0.2, rng)
    pmw_pub_row("FULL", full, random_k_way(full, 3, 4096, rng), net, pub_net, rng)
    need = 8.0 * math.prod(ACS_FULL_SIZES)
    rows.append(("FULL", "MWEM", None, f"not run: one float64 distribution needs {need:.3g} bytes"))

    print(f"T = {args.iterations} rounds, median of {args.seeds} seed(s), n = {args.private_rows:,}, "
          f"m = {args.public_rows:,}; CPU seconds per iteration\n")
    print("| domain | algorithm | ours (s/iter) | paper (s/iter) | ours / paper | set-up |")
    print("|---|---|---|---|---|---|")
    for dom, algo, ours, note in rows:
        paper = PAPER[(dom, algo)]
        ratio = f"{ours / paper:.3g}" if ours is not None and paper else "-"
        print(f"| {dom} | {algo} | {'-' if ours is None else f'{ours:.4g}'} | {'-' if paper is None else paper} | "
              f"{ratio} | {note} |")
    red = {a: o for d, a, o, _ in rows if d == "Red."}
    print(f"\nRed. MWEM / PMW^Pub: ours {red['MWEM'] / red['PMW^Pub']:.3g}, paper {0.919 / 0.185:.3g}; "
          f"FULL PMW^Pub / Red. PMW^Pub: ours {rows[2][2] / red['PMW^Pub']:.3g}, paper {2.021 / 0.185:.3g}")


if __name__ == "__main__":
    main()
