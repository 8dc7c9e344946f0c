"""JUO20 auditor (simulations.audit): power curves and false alarms against the Laplace mechanism, beside the
fixed-event Clopper-Pearson recipe.

The mechanism: Laplace on the counting query of the ``laplace`` target's hard pair (answers 0 and 1),
declared eps = 1, run at the true eps = ratio * 1 (noise scale 1/ratio): ratio 1 measures false alarms,
ratio > 1 power. For every (ratio, samples per neighbour) the script runs ``--runs`` independent audits
(seeds 0..runs-1) and prints the fraction flagged (eps_lb > 1) by

* ``auditor``: ``simulations.audit.audit`` (event chosen on one half, bound on the other);
* ``fixed``: the fixed-event recipe: the event {s > 1} (the tail where the likelihood ratio is exactly
  e^eps, known in advance), all samples, one-sided Clopper-Pearson bounds at the same confidence, the same
  eps bound; no selection, no split;

with the median eps_lb of each, and the auditor's minimal detectable eps at that size (power 0.9, exact
binomial sums). Prints a table; appends nothing to the repository (record medians by hand in
benchmarks/RESULTS.md).

    python benchmarks/bench_audit.py [--runs 40] [--sizes 1000,10000,100000,1000000]
                                     [--ratios 1,1.02,1.05,1.1,1.2,1.5,2,4]

Targets mode: every named registered target (``--targets all``: all of them) audited ``--runs`` times
(seeds 0..runs-1) at ``--scale`` times its default samples; per target: the median over the runs of
eps_lb / declared eps (and of delta_lb / declared delta for delta claims, rho_lb / rho for zCDP claims), the
number of runs flagged (false alarms for a real target, catches for a broken one), the pair's exact loss
where the target gives it, and the eps objective's power at 1.1x, 1.25x and 2x the declared eps: the exact
binomial power (``detection_probability``, maximised over the event's probability p) of an audit with the
same evaluation size and confidence share against the tightest violation at that eps (a model: it assumes the
event is found). CPU seconds per audit (``time.process_time``).

    python benchmarks/bench_audit.py --targets laplace,gaussian --runs 20 [--scale 1]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from tqdm import tqdm

from simulations import audit, stats
from simulations.audit_targets.mechanisms import _laplace_case

DECLARED_EPS = 1.0
FIXED_THRESHOLD = 1.0


def fixed_event_bound(s0: np.ndarray, s1: np.ndarray, confidence: float = audit.DEFAULT_CONFIDENCE) -> float:
    """The recipe: S = {s > FIXED_THRESHOLD} fixed in advance, every sample used, the auditor's eps bound."""
    level = audit._rate_level(confidence)
    fp = int(np.count_nonzero(s0 > FIXED_THRESHOLD))
    fn = int(np.count_nonzero(s1 <= FIXED_THRESHOLD))
    fpr_u = stats.clopper_pearson(fp, s0.size, level, "upper")[1]
    fnr_u = stats.clopper_pearson(fn, s1.size, level, "upper")[1]
    return audit.epsilon_lower_bound(fpr_u, fnr_u)


def _floats(text: str) -> list[float]:
    try:
        values = [float(x) for x in text.split(",") if x.strip()]
    except ValueError:
        values = []
    if not values or any(not v > 0 for v in values):
        raise argparse.ArgumentTypeError(f"{text!r} must be a comma-separated list of positive numbers")
    return values


def power_at(m: int, eps: float, delta: float, confidence: float, ratio: float) -> float:
    """The eps objective's power against the tightest violation at ratio * eps (module docstring)."""
    e_true = ratio * eps
    top = 1.0 / (1.0 + np.exp(e_true))
    return max(audit.detection_probability(m, float(p), e_true, eps, delta, confidence)
               for p in np.geomspace(min(1.0 / m, top), top, 24))


def run_targets(names, runs: int, scale: float) -> int:
    """Targets mode (module docstring): one row per target."""
    found = audit.targets()
    names = sorted(found) if names == ["all"] else names
    unknown = [n for n in names if n not in found]
    if unknown:
        print(f"bench_audit: error: unknown targets {', '.join(unknown)}", file=sys.stderr)
        return 2
    print("| target | real | samples | runs | median eps_lb/eps | median delta_lb/delta | median rho_lb/rho | "
          "flagged | pair's exact eps | power 1.1x / 1.25x / 2x | CPU s/audit |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        t = found[name]
        n = max(4, round(scale * t.default_samples))
        lbs, dls, rls, flagged, loss = [], [], [], 0, float("nan")
        t0 = time.process_time()
        for seed in range(runs):
            r = audit.run_target(name, samples=n, seed=seed)
            lbs.append(r.eps_lower_bound / r.declared_eps)
            if r.declared_delta > 0:
                dls.append(r.delta_lower_bound / r.declared_delta)
            rho = [o for o in r.objectives if o.objective == "renyi"]
            if rho:
                rls.append(rho[0].rho_lower_bound / rho[0].declared_rho)
            flagged += r.violated
            loss = r.pair_loss
        per = (time.process_time() - t0) / runs
        eps_share = next(o.confidence for o in r.objectives if o.objective == "eps")
        pw = " / ".join(f"{power_at(r.evaluation_size, r.declared_eps, r.declared_delta, eps_share, x):.2f}"
                        for x in (1.1, 1.25, 2.0))
        def med(v):
            return f"{np.median(v):.3f}" if v else "-"

        print(f"| {name} | {'yes' if t.expect_private else 'broken'} | {n} | {runs} | {med(lbs)} | {med(dls)} | "
              f"{med(rls)} | {flagged}/{runs} | {'-' if np.isnan(loss) else f'{loss:.3f}'} | {pw} | {per:.2f} |",
              flush=True)
    return 0


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--targets", default=None, help="comma-separated target names, or 'all': targets mode")
    p.add_argument("--scale", type=float, default=1.0, help="targets mode: samples = scale * default samples")
    p.add_argument("--runs", type=int, default=40)
    p.add_argument("--sizes", type=_floats, default=[1e3, 1e4, 1e5, 1e6])
    p.add_argument("--ratios", type=_floats, default=[1.0, 1.02, 1.05, 1.1, 1.2, 1.5, 2.0, 4.0])
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    if args.targets is not None:
        if args.runs < 1 or not args.scale > 0:
            print("bench_audit: error: --runs must be >= 1 and --scale > 0", file=sys.stderr)
            return 2
        return run_targets([x.strip() for x in args.targets.split(",") if x.strip()], args.runs, args.scale)
    if args.runs < 1 or any(s < 4 for s in args.sizes):
        print("bench_audit: error: --runs must be >= 1 and every size >= 4", file=sys.stderr)
        return 2
    print(f"{'ratio':>6} {'samples':>9} {'auditor':>8} {'fixed':>7} {'med lb aud':>10} {'med lb fix':>10} "
          f"{'MDV':>7} {'s/audit':>8}")
    cells = [(r, int(n)) for n in args.sizes for r in args.ratios]
    for ratio, n in tqdm(cells, desc="cells", file=sys.stderr, disable=not sys.stderr.isatty()):
        case = _laplace_case(DECLARED_EPS, 0.0, scale_factor=1.0 / ratio)
        flagged_a = flagged_f = 0
        lbs_a, lbs_f = [], []
        t0 = time.perf_counter()
        for run in range(args.runs):
            result = audit.audit(case, n, np.random.default_rng(run))
            flagged_a += result.violated
            lbs_a.append(result.eps_lower_bound)
            rng = np.random.default_rng(10_000 + run)
            s0 = audit.sample_statistic(case, case.private_pair[0], n, rng)
            s1 = audit.sample_statistic(case, case.private_pair[1], n, rng)
            lb = fixed_event_bound(s0, s1)
            flagged_f += lb > DECLARED_EPS
            lbs_f.append(lb)
        per = (time.perf_counter() - t0) / args.runs
        mdv = audit.minimal_detectable_eps(n - n // 2, DECLARED_EPS)
        print(f"{ratio:>6g} {n:>9d} {flagged_a / args.runs:>8.3f} {flagged_f / args.runs:>7.3f} "
              f"{np.median(lbs_a):>10.4f} {np.median(lbs_f):>10.4f} {mdv:>7.3f} {per:>8.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
