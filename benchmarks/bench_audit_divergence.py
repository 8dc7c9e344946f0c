"""Donsker-Varadhan / Renyi transcript divergence objective (simulations._audit_divergence): its false alarms on the
real PMW^Pub (LVSUW21 Algorithm 1) and its catches of a broken twin, the objective alone on seeded sample sets.

Each run draws ``--samples`` whole transcripts (selected query, clipped measurement) per neighbour from
``pmw_pub`` itself (or from the twin's loop, ``--sigma-factor`` < 1: its Gaussian measurement at that many times
sigma) on the pair of ``--pair`` (``selection``: simulations.audit_targets.pmw_pub_selection's pair, whose
selection moves with the row; ``uniform``: simulations.audit_targets.pmw_pub's, whose selection does not), and
runs the divergence objective alone at ``--confidence`` (default 0.99: its share of a 95% audit with five
objectives) with the learned witness and, on the selection pair, the declared law's exact log-ratio. Seeds
0..runs-1. Prints the number flagged (rho_lb > the declared rho 1) with a 95% Clopper-Pearson upper bound on the
flag rate, the median rho_lb, and the CPU seconds (``time.process_time``).

``--law exact`` (selection pair only) draws the transcripts from the pair's exact law instead of running the
algorithm (``pmw_pub_selection.transcript_law``: permute-and-flip's selection probabilities, then the selected
query's answer plus N(0, sigma^2) clipped to [0, 1]; the test ``test_selection_law_is_the_one_pmw_pub_draws``
holds the selection law to the code's draws): about 1,000 times cheaper, so 200 runs at the 40,000 transcripts
per neighbour that catch the sigma / sqrt 2 twin are affordable.

    python benchmarks/bench_audit_divergence.py --pair selection --runs 200 --samples 1000
    python benchmarks/bench_audit_divergence.py --pair selection --sigma-factor 0.7071 --runs 5 --samples 40000
    python benchmarks/bench_audit_divergence.py --pair selection --law exact --runs 200 --samples 40000
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simulations import stats
from simulations._audit_divergence import divergence_objective


def _draw_exact(sigma_factor: float, data, n: int, rng) -> np.ndarray:
    """n transcripts (selected query, clipped measurement) from the selection pair's exact law on ``data``."""
    from simulations.audit_targets import pmw_pub_selection as sel

    probs, true, sigma = sel.transcript_law(data, 1.0, sigma_factor)
    j = rng.choice(probs.size, size=n, p=probs / probs.sum())
    return np.column_stack([j, np.clip(true[j] + rng.normal(0.0, sigma, size=n), 0.0, 1.0)])


def _draw(pair: str, sigma_factor: float, data, n: int, rng, law: str = "run") -> np.ndarray:
    if law == "exact":
        return _draw_exact(sigma_factor, data, n, rng)
    from algorithms.query_release.pmw_pub import pmw_pub
    from simulations.audit_targets import pmw_pub as uni
    from simulations.audit_targets import pmw_pub_selection as sel

    rows = np.empty((n, 2))
    for i in range(n):
        if pair == "selection":
            r = (pmw_pub(data, sel.PUBLIC, sel.DOMAIN, sel.WORKLOADS, sel.EPS_TILDE, sel.T, rng).value
                 if sigma_factor == 1.0 else sel._broken_run(data, rng, 1.0, sigma_factor))
        else:
            r = (pmw_pub(data, uni.PUBLIC, uni.DOMAIN, uni.WORKLOADS, uni.EPS_TILDE, uni.T, rng).value
                 if sigma_factor == 1.0 else uni._broken_run(data, rng, sigma_factor))
        rows[i] = int(r.selected[0]), float(r.measurements[0])
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pair", choices=("selection", "uniform"), default="selection")
    ap.add_argument("--sigma-factor", type=float, default=1.0)
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--samples", type=int, default=1_000)
    ap.add_argument("--confidence", type=float, default=0.99)
    ap.add_argument("--law", choices=("run", "exact"), default="run")
    args = ap.parse_args()
    if args.law == "exact" and args.pair != "selection":
        ap.error("--law exact needs --pair selection (the pair whose exact law is written down)")
    from simulations.audit_targets import pmw_pub as uni
    from simulations.audit_targets import pmw_pub_selection as sel

    mod = sel if args.pair == "selection" else uni
    exact = None
    if args.pair == "selection":
        exact = lambda t: -sel.log_likelihood_ratio(t[:, 0], t[:, 1])  # noqa: E731  (log P_D1 / P_D0)
    flags, rhos = 0, []
    start = time.process_time()
    for seed in range(args.runs):
        rng = np.random.default_rng(seed)
        t0 = _draw(args.pair, args.sigma_factor, mod.PAIR[0], args.samples, rng, args.law)
        t1 = _draw(args.pair, args.sigma_factor, mod.PAIR[1], args.samples, rng, args.law)
        r = divergence_objective(t0, t1, args.samples // 2, args.confidence, 2.0, 0.245, 1.0, exact)
        flags += r.refutes
        rhos.append(r.bound / r.alpha)
    cpu = time.process_time() - start
    upper = float(stats.clopper_pearson(flags, args.runs, 0.95, "upper")[1])
    print(f"pair {args.pair} ({args.law} draws), sigma x {args.sigma_factor:g}, {args.runs} runs of {args.samples} "
          f"per neighbour at "
          f"{args.confidence:g}: flagged {flags} (95% CP upper bound on the rate {upper:.4f}); median rho_lb "
          f"{np.median(rhos):.4f} (min {min(rhos):.4f}, max {max(rhos):.4f}); {cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
