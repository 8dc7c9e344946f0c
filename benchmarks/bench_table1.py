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
Gaussian measurement, no replay) / T, set-up excluded (query tables, true answers, A_0; one untimed 2-round warm-up
compiles the kernels), median over seeds.

The LVSUW21 authors' code (terranceliu/dp-query-release), optional, in the same run: with a temporary checkout
``--lvsuw21`` and the interpreter of its own venv ``--lvsuw21-python`` (torch), their ``MWEMSingle`` (Red.) and
``PMWPubSingle`` (Red., FULL) without query recycling run through ``_peer_lvsuw21_dpqr.py`` on the same private and
public rows and workloads at the same T and seeds: CPU seconds of their ``fit`` / T (their set-up, the query
manager, excluded likewise), their max error scored by our code. Their MWEM on FULL is not run either (their
support is the whole domain). Without the checkout their cells read "not run" with the reason.

``--save FILE`` writes the table as JSON (format ``benchmarks-table1/1``) for the report's "Table 1"
(``python -m reports build`` finds ``bench-table1*.json`` below its results directory); a result file, never
committed.

    python benchmarks/bench_table1.py [--iterations 10] [--seeds 1] [--private-rows 20000] [--public-rows 2000]
        [--lvsuw21 /tmp/dpqr --lvsuw21-python /tmp/dpqr_venv/bin/python] [--save runs/bench-table1.json]
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import math  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from algorithms.query_release.mw import IncrementalMWDistribution  # noqa: E402
from algorithms.query_release.mwem import mwem_zcdp_from_answers  # noqa: E402
from algorithms.query_release.pmw_pub import distinct_rows, eps_tilde_for, marginal_answers  # noqa: E402
from algorithms.query_release.workloads import (CategoricalDomain, DomainMarginalQueries, MarginalQueries,  # noqa: E402
                                               all_k_way, random_k_way)
from reports.sections.lvsuw21 import TABLE1_FORMAT, TABLE1_PAPER as PAPER  # noqa: E402
from simulations.data.synthetic import random_network, reference_workload, shifted  # noqa: E402
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


def _authors(args, domain, workloads, priv, pub, algorithms, eps=1.0) -> dict:
    """The LVSUW21 authors' code on the same rows and workloads: {algorithm: (s / iteration, note)}, or
    {algorithm: (None, why not)} when it cannot run here."""
    labels = {"mwem": "MWEM", "pmw_pub": "PMW^Pub"}
    if not (Path(args.lvsuw21_python).exists() and (Path(args.lvsuw21) / "src" / "algo" / "mwem.py").exists()):
        why = (f"not run: no checkout of terranceliu/dp-query-release at {args.lvsuw21} or no interpreter "
               f"{args.lvsuw21_python} (see --lvsuw21)")
        return {labels[a]: (None, why) for a in algorithms}
    from bench_pmw_pub import _peer_lvsuw21

    n = priv.shape[0]
    res = _peer_lvsuw21(args.lvsuw21_python, args.lvsuw21, priv, pub, domain, workloads, eps, 1.0 / n**2,
                        [args.iterations], args.seeds, eps_tilde_for(eps, 1.0 / n**2) ** 2 / 2, algorithms)
    if isinstance(res, dict):
        return {labels[a]: (None, f"could not run: {res['error'][:200]}") for a in algorithms}
    out = {}
    for a, row in zip(algorithms, res):
        out[labels[a]] = (row["sec"], f"authors' code ({row['source'].split('(')[-1].split(')')[0]}); max error "
                                      f"{row['max']:.3g} by our queries")
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--iterations", type=int, default=10, help="T, the rounds timed")
    ap.add_argument("--seeds", type=int, default=1, help="seeds; the median per-iteration time is reported")
    ap.add_argument("--private-rows", type=int, default=20_000, help="n")
    ap.add_argument("--public-rows", type=int, default=2_000, help="m")
    ap.add_argument("--lvsuw21", default=os.environ.get("LVSUW21_CHECKOUT", "/tmp/dpqr"),
                    help="a temporary checkout of terranceliu/dp-query-release (never copied into the project)")
    ap.add_argument("--lvsuw21-python", default=os.environ.get("LVSUW21_PYTHON", "/tmp/dpqr_venv/bin/python"),
                    help="the interpreter of its venv (torch)")
    ap.add_argument("--save", default=None, help="write the table as JSON here (a result file: never committed)")
    args = ap.parse_args(argv)
    if not (1 <= args.iterations <= 10_000 and 1 <= args.seeds <= 100 and args.private_rows >= 1
            and args.public_rows >= 1):
        print("error: --iterations in [1, 10000], --seeds in [1, 100], --private-rows and --public-rows >= 1",
              file=sys.stderr)
        return 2
    if args.save:  # its directory made and probed before minutes of timing, not after them
        from bounds.files import check_writable

        try:
            check_writable(Path(args.save).parent, "--save's directory")
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    assert len(ACS_FULL_SIZES) == 67 and sum(ACS_FULL_SIZES) == 287
    load = os.getloadavg()[0]
    c_start = time.process_time()
    rows = []   # (domain, algorithm, implementation, s / iteration or None, note)

    def pmw_pub_row(name, domain, workloads, net, pub_net, rng):
        """Draw the private and public rows, time PMW^Pub; returns the rows for the other rows."""
        priv, pub = net.sample(args.private_rows, rng), pub_net.sample(args.public_rows, rng)
        true = marginal_answers(domain, workloads, priv)
        support, counts = distinct_rows(pub)
        q = MarginalQueries(domain, workloads, support)
        rows.append((name, "PMW^Pub", "ours", _per_iteration(q, counts, true, len(priv), args.iterations, args.seeds),
                     f"{float(domain.size):.3g} cells, {len(workloads)} workloads ({q.num_queries:,} queries), "
                     f"support {len(support):,}"))
        return priv, pub, true

    domain, _, net, pub_net = reference_workload(0)
    workloads = all_k_way(domain, 3)
    priv, pub, true = pmw_pub_row("Red.", domain, workloads, net, pub_net, np.random.default_rng(0))
    qd = DomainMarginalQueries(domain, workloads)
    rows.append(("Red.", "MWEM", "ours", _per_iteration(qd, np.ones(domain.size), true, len(priv), args.iterations,
                                                         args.seeds), f"{domain.size:,} cells, {len(workloads)} "
                 f"workloads"))
    theirs = _authors(args, domain, workloads, priv, pub, ["pmw_pub", "mwem"])
    rows += [("Red.", algo, "authors", sec, note) for algo, (sec, note) in theirs.items()]

    full = CategoricalDomain(list(ACS_FULL_SIZES))
    rng = np.random.default_rng(1)
    net = random_network(full, rng, max_parents=2)
    pub_net = shifted(net, 0.2, rng)
    full_workloads = random_k_way(full, 3, 4096, rng)
    priv, pub, _ = pmw_pub_row("FULL", full, full_workloads, net, pub_net, rng)
    need = 8.0 * math.prod(ACS_FULL_SIZES)
    mwem_full = f"not run: one float64 distribution needs {need:.3g} bytes"
    rows.append(("FULL", "MWEM", "ours", None, mwem_full))
    theirs = _authors(args, full, full_workloads, priv, pub, ["pmw_pub"])
    rows += [("FULL", algo, "authors", sec, note) for algo, (sec, note) in theirs.items()]
    rows.append(("FULL", "MWEM", "authors", None, mwem_full + " (their support is the whole domain)"))
    cpu = time.process_time() - c_start

    print(f"T = {args.iterations} rounds, median of {args.seeds} seed(s), n = {args.private_rows:,}, "
          f"m = {args.public_rows:,}; CPU seconds per iteration; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load average {load:.1f}; {cpu:.1f} CPU s in this process\n")
    print("| domain | algorithm | paper (s/iter) | ours (s/iter) | authors' code (s/iter) | ours / paper | "
          "authors' / paper | ours / authors' |")
    print("|---|---|---|---|---|---|---|---|")
    cell = {(d, a, impl): sec for d, a, impl, sec, _ in rows}
    ratio = lambda x, y: "-" if x is None or not y else f"{x / y:.3g}"   # noqa: E731
    for dom, algo in PAPER:
        paper, ours, auth = PAPER[(dom, algo)], cell.get((dom, algo, "ours")), cell.get((dom, algo, "authors"))
        print(f"| {dom} | {algo} | {'infeasible' if paper is None else paper} | "
              f"{'-' if ours is None else f'{ours:.4g}'} | "
              f"{'-' if auth is None else f'{auth:.4g}'} | {ratio(ours, paper)} | {ratio(auth, paper)} | "
              f"{ratio(ours, auth)} |")
    print()
    for d, a, impl, _, note in rows:
        print(f"- {d} {a} ({impl}): {note}")
    if args.save:
        doc = {"format": TABLE1_FORMAT, "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
               "load_average": load, "cpu_seconds": cpu,
               "settings": {"iterations": args.iterations, "seeds": args.seeds, "private_rows": args.private_rows,
                            "public_rows": args.public_rows},
               "rows": [{"domain": d, "algorithm": a, "implementation": impl, "seconds_per_iteration": sec,
                         "note": note} for d, a, impl, sec, note in rows]}
        out = Path(args.save)
        if out.is_symlink():
            print(f"error: --save {out} is a symbolic link: refusing to write through it", file=sys.stderr)
            return 2
        tmp = out.with_name(out.name + ".tmp")
        tmp.write_text(json.dumps(doc, indent=1))
        os.replace(tmp, out)
        print(f"\nsaved {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
