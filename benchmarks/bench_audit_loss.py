"""BW18 Thm 5 (delta as a mean of the privacy-loss variable; simulations._audit_loss): the "loss" objective alone on
seeded runs of a registered target, its false alarms on a real one and its catches of a broken twin.

For seeds 0..runs-1 the target is audited at its default eps and delta with ``--samples`` per neighbour (default:
the target's own) by ``audit(..., objective="loss")`` at ``--confidence`` (default 0.95: the objective's own
statement; inside a whole audit its share is stricter). Prints the number flagged with a 95% Clopper-Pearson
upper bound on the flag rate, the median delta_lb, the minimal detectable delta and the CPU seconds
(``time.process_time``).

    python benchmarks/bench_audit_loss.py --target gaussian --runs 200
    python benchmarks/bench_audit_loss.py --target gaussian_delta_10x_point --runs 200
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from simulations import audit, stats


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default="gaussian")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--samples", type=int, default=None)
    ap.add_argument("--confidence", type=float, default=0.95)
    args = ap.parse_args()
    t = audit.get_target(args.target)
    samples = args.samples or t.default_samples
    case = t.make(float(t.default_eps), float(t.default_delta))
    start = time.process_time()
    flags, lbs, mdd = 0, [], None
    for seed in range(args.runs):
        r = audit.audit(case, samples, np.random.default_rng(seed), args.confidence, objective="loss")
        flags += r.violated
        lbs.append(r.objectives[0].loss_delta_bound)
        mdd = r.objectives[0].minimal_detectable
    cpu = time.process_time() - start
    upper = float(stats.clopper_pearson(flags, args.runs, 0.95, "upper")[1])
    print(f"{args.target}: {args.runs} runs of {samples} per neighbour, loss objective at {args.confidence:g}: flagged "
          f"{flags} (95% CP upper bound on the rate {upper:.4f}); median delta_lb {np.median(lbs):.3g} against the "
          f"declared {t.default_delta:g}; minimal detectable delta {mdd:.3g}; {cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
