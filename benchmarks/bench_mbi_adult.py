"""LVSUW21 Section 5.5.2 on ADULT: PMW^Pub beside private-pgm's (``mbi``) public-data reweighting and AIM, the
tools practitioners use today, at the same zCDP budget on the same data, workload and split; error and CPU time.

Data (``simulations.data.adult``, as ``lvsuw21_figures --param dataset=adult``): per seed s,
``biased_pair(rows, sex, female, Delta, 0.9, 0.1, default_rng(s))``: private 0.9 N = 43,958 rows and an unbiased
(Delta = 0, or ``--delta``) public 0.1 N = 4,884 rows; ``--workloads`` random 3-way marginals (workload seed 0, the
paper's 256). Budget: eps (``--eps``) at delta = 1/n^2, turned into rho = eps~^2 / 2 by Theorem 4.5's infimum
(``pmw_pub.eps_tilde_for``); every method spends that rho.

* PMW^Pub: ``algorithms.query_release.pmw_pub.pmw_pub`` (the paper's algorithm with replay, as the figures run it)
  at each ``--T``; replace-one adjacency (sensitivity 1/n).
* mbi public: mbi 2.0.0's ``ReweightedDatasetEstimator`` ("inspired by PMW^Pub": weights on the public rows)
  fed with Gaussian measurements of every workload marginal at rho under replace-one adjacency
  (``_peer_mbi.py``).
* AIM: their ``mechanisms/aim.py`` at rho (``--aim-rho-scale 1``: AIM's own add/remove adjacency, which favours
  it: replace-one costs up to 4x, by group privacy) and, with ``--aim-rho-scale 0.25``, at rho / 4 (then a
  replace-one rho-zCDP guarantee like the others'). ``--aim-max-model-size`` (MB) and ``--aim-max-iters`` trade
  its time for accuracy (their defaults 80 and 1000 "can take many hours").
* public-only: the public histogram (no privacy cost).
* public fit (ours): ``algorithms.query_release.public_fit.public_fit``: the same measurements as mbi's
  reweighting (every marginal once, Gaussian, replace-one, rho) and the public support's weights fitted as the
  certified optimum of the convex MAP problem m KL(p || p^) + ||A p - y||^2 / (2 sigma^2) (dual L-BFGS; the
  row states its iterations and duality gap); ``--fit-mu inf`` adds private-pgm's plain least-squares fit
  solved by FISTA (its Frank-Wolfe gap).
* adaptive public fit (ours, ``--adaptive T[:first]``): ``public_fit_adaptive.adaptive_public_fit``, AIM's and
  JAM's select-measure-refit loop with the public-support fit as the estimator, T rounds (after a share ``first``
  of rho spent on measuring every marginal once, if given).

Errors: max and mean absolute error over every cell of the workloads (fractions), computed with OUR
``MarginalQueries`` from the released marginals; the peers' private marginals are checked cell for cell against
ours first (so the cell order is the same). CPU seconds: ``time.process_time`` of the release (data loading and
the private marginals excluded); the peers run in their own processes (``--mbi-python``: a venv with mbi 2.0.0
from PyPI; ``--aim-python``: a venv with the mbi of a private-pgm checkout ``--aim``; never part of this project). One
run, ratios to PMW^Pub in the same run.

    python benchmarks/bench_mbi_adult.py [--seeds 3] [--eps 1.0] [--T 25 100] [--adaptive 10 10:0.8]
                                         [--algorithms public aim]
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from algorithms.query_release.pmw_pub import eps_tilde_for, marginal_answers, pmw_pub, public_only  # noqa: E402
from algorithms.query_release.public_fit import public_fit  # noqa: E402
from algorithms.query_release.public_fit_adaptive import adaptive_public_fit  # noqa: E402
from algorithms.query_release.workloads import random_k_way  # noqa: E402
from simulations.data.adult import ADULT_FEMALE, ADULT_SEX, load_adult  # noqa: E402
from simulations.data.cps import biased_pair  # noqa: E402

LABELS = {"public": "mbi ReweightedDatasetEstimator (public rows reweighted; Gaussian on every marginal)",
          "aim": "private-pgm AIM"}


def _errors(answers, true) -> tuple[float, float]:
    d = np.abs(np.asarray(answers) - true)
    return float(d.max()), float(d.mean())


def _peer(python, checkout, pairs, workloads, sizes, rho, algorithms, args) -> dict:
    """Run ``_peer_mbi.py`` once per seed (its own process) and return {(algorithm, seed): (answers, cpu)}
    plus the mbi-computed private marginals per seed under ("true", seed)."""
    script = Path(__file__).with_name("_peer_mbi.py")
    cells = np.full((len(workloads), max(len(w) for w in workloads)), -1)
    for i, w in enumerate(workloads):
        cells[i, :len(w)] = w
    out: dict = {}
    for seed, (priv, pub) in enumerate(pairs):
        with tempfile.TemporaryDirectory() as tmp:
            inp, outp = Path(tmp) / "in.npz", Path(tmp) / "out.npz"
            np.savez(inp, private=priv, public=pub, sizes=np.array(sizes), workload_cells=cells, rho=rho,
                     seeds=np.array([seed]), algorithms=np.array(algorithms),
                     aim_max_model_size=args.aim_max_model_size, aim_max_iters=args.aim_max_iters,
                     aim_rho_scale=args.aim_rho_scale, public_iters=args.public_iters)
            proc = subprocess.run([python, str(script), checkout, str(inp), str(outp)], capture_output=True,
                                  text=True, cwd=tmp)
            if not outp.exists():
                return {"error": (proc.stderr.strip().splitlines() or ["no output"])[-1]}
            z = dict(np.load(outp))
        out[("true", seed)] = z["true"]
        out["versions"] = ", ".join(str(v) for v in z["versions"])
        for alg in algorithms:
            out[(alg, seed)] = (z[f"{alg}_s{seed}"], float(z[f"{alg}_s{seed}_cpu"]))
    return out


def _table(rows_out, args) -> None:
    """The table so far (printed after each peer, so a slow AIM leaves the rest of the run readable)."""
    ref = next(r for r in rows_out if r[0].startswith("PMW^Pub"))
    print("| method | max error (mean ± s.e.) | mean error | CPU s (median) | max error / PMW^Pub's | "
          "CPU / PMW^Pub's |")
    print("|---|---|---|---|---|---|")
    se = lambda v: float(np.std(v, ddof=1) / np.sqrt(len(v))) if len(v) > 1 else float("nan")  # noqa: E731
    for label, mx, mn, cpu in rows_out:
        c = "-" if cpu is None else f"{np.median(cpu):.3g}"
        rc = "-" if cpu is None else f"{np.median(cpu) / np.median(ref[3]):.3g}"
        print(f"| {label} | {np.mean(mx):.4f} ± {se(mx):.4f} | {np.mean(mn):.2e} | {c} | "
              f"{np.mean(mx) / np.mean(ref[1]):.3g} | {rc} |")
    print(f"\n(ratios against the first PMW^Pub row, T = {args.T[0]})")
    sys.stdout.flush()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3, help="seeds (data draw and noise), one private/public pair each")
    ap.add_argument("--eps", type=float, default=1.0, help="eps at delta = 1/n^2 (converted to one zCDP rho)")
    ap.add_argument("--delta", type=float, default=0.0, help="the public set's sex bias Delta (LVSUW21 Fig 2)")
    ap.add_argument("--T", type=int, nargs="+", default=[25, 100], help="PMW^Pub's rounds")
    ap.add_argument("--fit-mu", nargs="*", default=["map"],
                    help="our public fit's mu values: 'map' (1 / (m sigma^2), the default) and/or numbers, 'inf'")
    ap.add_argument("--adaptive", nargs="*", default=[], metavar="T[:first]",
                    help="adaptive public fits: T rounds, optionally after a share 'first' of rho on every marginal")
    ap.add_argument("--workloads", type=int, default=256, help="random 3-way marginals (workload seed 0)")
    ap.add_argument("--algorithms", nargs="*", default=["public", "aim"], choices=list(LABELS),
                    help="which mbi methods to run")
    ap.add_argument("--aim-max-model-size", type=float, default=1.0, help="AIM's model size limit in MB")
    ap.add_argument("--aim-max-iters", type=int, default=100, help="AIM's mirror-descent iterations per round")
    ap.add_argument("--aim-rho-scale", type=float, default=1.0, help="AIM runs at rho times this")
    ap.add_argument("--aim-seeds", type=int, default=None,
                    help="AIM on the first this many seeds only (default: --seeds; it is the slow one)")
    ap.add_argument("--public-iters", type=int, default=1000, help="the reweighting's gradient steps (mbi's default)")
    ap.add_argument("--mbi-python", default=os.environ.get("MBI_PYTHON", "/tmp/mbi2_venv/bin/python"),
                    help="the interpreter of a venv with mbi 2 from PyPI (the public reweighting)")
    ap.add_argument("--aim", default=os.environ.get("AIM_CHECKOUT", "/tmp/pgm"),
                    help="a temporary checkout of ryan112358/private-pgm (its mechanisms/aim.py)")
    ap.add_argument("--aim-python", default=os.environ.get("AIM_PYTHON", "/tmp/pgm_venv/bin/python"),
                    help="the interpreter of a venv with that checkout's mbi installed")
    args = ap.parse_args(argv)
    args.aim_seeds = args.seeds if args.aim_seeds is None else args.aim_seeds
    if args.seeds < 1 or not 1 <= args.aim_seeds <= args.seeds or min(
        args.T) < 1 or not 0 < args.eps < 100 or not 1 <= args.workloads <= 286:
        print("error: --seeds, --T >= 1, 1 <= --aim-seeds <= --seeds, 0 < --eps < 100, 1 <= --workloads <= 286",
              file=sys.stderr)
        return 2
    try:
        [None if m == "map" else float(m) for m in args.fit_mu]
    except ValueError:
        print("error: --fit-mu takes 'map', 'inf' or numbers > 0", file=sys.stderr)
        return 2
    if any(m != "map" and not float(m) > 0 for m in args.fit_mu):
        print("error: --fit-mu takes 'map', 'inf' or numbers > 0", file=sys.stderr)
        return 2
    try:
        adaptive = [(int(a.split(":")[0]), float(a.split(":")[1]) if ":" in a else 0.0) for a in args.adaptive]
    except ValueError:
        adaptive = [(0, 0.0)]
    if any(t < 1 or not 0 <= f < 1 for t, f in adaptive):
        print("error: --adaptive takes T or T:first with T >= 1 and 0 <= first < 1", file=sys.stderr)
        return 2
    domain, rows = load_adult()
    workloads = random_k_way(domain, 3, args.workloads, np.random.default_rng(0))
    pairs = [biased_pair(rows, ADULT_SEX, ADULT_FEMALE, args.delta, 0.9, 0.1, np.random.default_rng(s))
             for s in range(args.seeds)]
    n = pairs[0][0].shape[0]
    et = eps_tilde_for(args.eps, 1.0 / n**2)
    rho = et**2 / 2
    trues = [marginal_answers(domain, workloads, p) for p, _ in pairs]
    print(f"ADULT: n = {n:,} private, m = {pairs[0][1].shape[0]:,} public (Delta = {args.delta}), {len(workloads)} "
          f"3-way marginals ({trues[0].size:,} cells); eps = {args.eps}, delta = 1/n^2 -> eps~ = {et:.4f}, "
          f"rho = {rho:.6f}; {args.seeds} seed(s); {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
          f"load average {os.getloadavg()[0]:.1f}\n")
    rows_out = []   # (label, [max], [mean], [cpu])
    po = [_errors(public_only(pub, domain, workloads), t) for (_, pub), t in zip(pairs, trues)]
    rows_out.append(("public-only (no privacy cost)", [e[0] for e in po], [e[1] for e in po], None))
    for T in args.T:
        mx, mn, cpu = [], [], []
        for s, ((priv, pub), true) in enumerate(zip(pairs, trues)):
            c0 = time.process_time()
            rel = pmw_pub(priv, pub, domain, workloads, et, T, np.random.default_rng(100 + s), replay=True)
            cpu.append(time.process_time() - c0)
            e = _errors(rel.value.answers, true)
            mx.append(e[0])
            mn.append(e[1])
        rows_out.append((f"PMW^Pub, T = {T} (replay)", mx, mn, cpu))
    for mu_arg in args.fit_mu:
        mu = None if mu_arg == "map" else float(mu_arg)
        mx, mn, cpu, its, gaps = [], [], [], [], []
        for s, ((priv, pub), true) in enumerate(zip(pairs, trues)):
            c0 = time.process_time()
            rel = public_fit(priv, pub, domain, workloads, rho, np.random.default_rng(100 + s), mu=mu)
            cpu.append(time.process_time() - c0)
            e = _errors(rel.value.answers, true)
            mx.append(e[0])
            mn.append(e[1])
            its.append(rel.value.fit.iterations)
            gaps.append(rel.value.fit.gap)
        what = "MAP, mu = 1/(m sigma^2)" if mu is None else "least squares (FISTA)" if mu == float("inf") \
            else f"mu = {mu:g}"
        rows_out.append((f"public fit (ours), {what}; iterations {min(its)}-{max(its)}, gap <= {max(gaps):.1e}",
                         mx, mn, cpu))
    for rounds, first in adaptive:
        mx, mn, cpu = [], [], []
        for s, ((priv, pub), true) in enumerate(zip(pairs, trues)):
            c0 = time.process_time()
            rel = adaptive_public_fit(priv, pub, domain, workloads, rho, np.random.default_rng(100 + s),
                                      rounds=rounds, first=first)
            cpu.append(time.process_time() - c0)
            e = _errors(rel.value.answers, true)
            mx.append(e[0])
            mn.append(e[1])
        rows_out.append((f"adaptive public fit (ours), T = {rounds}" + (f" after {first:g} rho on every marginal"
                                                                        if first else ""), mx, mn, cpu))
    for alg in args.algorithms:
        python, checkout = (args.mbi_python, "") if alg == "public" else (args.aim_python, args.aim)
        if not Path(python).exists() or (alg == "aim" and not (Path(checkout) / "mechanisms" / "aim.py").exists()):
            print(f"{LABELS[alg]} skipped: no interpreter {python}"
                  + (f" or no checkout {checkout}" if checkout else ""))
            continue
        used = pairs[:args.aim_seeds] if alg == "aim" else pairs
        res = _peer(python, checkout, used, workloads, domain.sizes, rho, [alg], args)
        if "error" in res:
            print(f"{LABELS[alg]} could not run: {res['error'][:300]}")
            continue
        for s, true in enumerate(trues[:len(used)]):
            gap = float(np.max(np.abs(res[("true", s)] - true)))
            if gap > 1e-9:
                print(f"error: mbi's private marginals differ from ours by {gap:.3g} (cell order)", file=sys.stderr)
                return 1
        errs = [_errors(res[(alg, s)][0], t) for s, t in enumerate(trues[:len(used)])]
        label = LABELS[alg] + (f", rho x {args.aim_rho_scale:g}, model <= {args.aim_max_model_size:g} MB, "
                               f"{args.aim_max_iters} iters, seeds 0-{len(used) - 1}" if alg == "aim"
                               else f", {args.public_iters} steps")
        rows_out.append((label, [e[0] for e in errs], [e[1] for e in errs],
                         [res[(alg, s)][1] for s in range(len(used))]))
        print(f"{LABELS[alg]}: {res['versions']}")
        if alg != args.algorithms[-1]:
            _table(rows_out, args)
    _table(rows_out, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
