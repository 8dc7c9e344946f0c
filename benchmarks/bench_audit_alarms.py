"""JUO20 auditor (simulations.audit) at its default budgets: false alarms of the real targets, whole audits (every
objective together, as ``python -m simulations audit NAME --seed S`` runs them), with a Clopper-Pearson bound on
the rate beside the nominal one.

For every named target (``--targets real``: every registered target declared private) and every seed in
``--seeds A..B`` the target is audited by ``audit.run_target(name, seed=seed, confidence=C)`` at its default eps,
delta and samples (``--samples`` overrides), one audit per job, ``--workers`` processes side by side. Each audit
appends one JSON line to ``--out`` (target, law, seed, samples, confidence, flagged, the headline bounds, its CPU
seconds from ``time.process_time`` in the worker); jobs already in ``--out`` are not run again, so a stopped run
resumes. ``--summary`` reads ``--out`` back (untrusted: a malformed line stops it with status 2) and prints one row
per (target, law, samples, confidence): runs, flagged, the one-sided 95% Clopper-Pearson upper bound on the
per-audit false-alarm rate (``simulations.stats.clopper_pearson(k, runs, 0.95, "upper")``), the nominal rate
1 - C, "pass" when the bound is below the nominal rate, the median and largest eps_lb / declared eps, CPU; and, for
a target that gives its audited pair's exact loss (``pair_loss`` of the case its default eps and delta make, when
that case declares the record's eps), that loss, the runs whose eps objective's bound exceeds it and the largest
such bound over it. A lower bound above the pair's own loss is wrong whatever the declaration: this is the sharper
validity check where the declaration is far above the pair's loss (a 95% bound exceeds it in at most 5% of runs).

``--law exact`` (only the targets that give their exact output law, ``exact_laws()``: a registered target's
``make_exact``): the audit is the same (same case, objectives, pair, search, samples, seed), but the mechanism's
draws come from the target's own exact output law on its pair instead of its code, the law behind its pair's exact
loss, written once in the target's module: PMW^Pub's one-round transcript (``pmw_pub.round_law``: permute-and-flip's
selection probabilities, then the selected query's answer plus N(0, sigma^2) clipped to [0, 1]: LVSUW21 Algorithm 1
at T = 1) for ``pmw_pub`` and ``pmw_pub_selection``, one-query PMW's release (``pmw.one_query_draws``: no update
with probability N(g), else clip(2 q - 1 + 2 Lap(b_a), -1, 1), the law of ``pmw.one_query_llr``) and A_PAP's
(``pap.pap_sampler``), which is that PMW's at A_PAP's (alpha/2, beta/2) with its one cover member. Many times
cheaper; the test ``tests/benchmarks/test_bench_audit_alarms.py`` holds each law to the code's draws (a seeded
two-sample chi-square test). A false alarm is then a false alarm of the auditor on the law the code has, not of
the code.

``--no-loss-search``: on a case without a sampled neighbour search (``neighbours`` None: pmw, pap, the PMW^Pub
targets) the exact-loss search over pairs only writes the line's "worst pair found": it does not change the
audited pair, and it draws from a child stream, so the audit's draws, bounds and verdict are the same without it
(checked: the same bounds of every objective and the same verdict on seeds 0..4 of each exact-law target);
it costs about 2 s of the 2.1 s of an exact-law pmw or pap audit. On a case with a neighbour search it is kept.

    python benchmarks/bench_audit_alarms.py --targets laplace,a_sspp --seeds 0..199 --out /tmp/alarms.jsonl
    python benchmarks/bench_audit_alarms.py --targets pmw_pub --law exact --seeds 0..199 --out /tmp/alarms.jsonl
    python benchmarks/bench_audit_alarms.py --summary --out /tmp/alarms.jsonl
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import multiprocessing
import sys
import time

import numpy as np

from simulations import audit, stats

FIELDS = {"target": str, "law": str, "seed": int, "samples": int, "confidence": float, "flagged": bool,
          "eps_lb": float, "declared_eps": float, "cpu": float}


# ---------------------------------------------------------------- exact output laws


def exact_laws() -> tuple:
    """The registered targets that give their exact output law (``AuditTarget.make_exact``), sorted."""
    return tuple(sorted(n for n, t in audit.targets().items() if t.make_exact is not None))


def make_case(name: str, law: str):
    """Target ``name``'s case at its defaults: its code's draws (``law`` "run") or its exact law's ("exact",
    ``AuditTarget.make_exact``; ValueError for a target without one)."""
    t = audit.get_target(name)
    make = t.make if law == "run" else t.make_exact
    if make is None:
        raise ValueError(f"no exact law for {name!r}; known: {', '.join(exact_laws())}")
    return make(float(t.default_eps), float(t.default_delta))


# ---------------------------------------------------------------- runs


def run_one(job: tuple) -> dict:
    """One seeded whole audit: ``job = (target, law, seed, samples or None, confidence, loss_search)``, as
    ``audit.run_target`` runs it (``law`` "exact": the case's draws from its exact law, ``make_case``).
    ``loss_search`` False skips the exact-loss search over pairs on a case without a sampled neighbour search
    (module docstring)."""
    name, law, seed, samples, confidence, loss_search = job
    n = samples or audit.get_target(name).default_samples
    start = time.process_time()
    case = make_case(name, law)
    loss_search = loss_search or case.neighbours is not None
    r = audit.audit(case, n, np.random.default_rng(seed), confidence, search=loss_search)
    cpu = time.process_time() - start
    rec = {"target": name, "law": law, "seed": int(seed), "samples": int(n), "confidence": float(confidence),
           "flagged": bool(r.violated), "eps_lb": float(r.eps_lower_bound), "declared_eps": float(r.declared_eps),
           "cpu": float(cpu), "loss_search": bool(loss_search),
           "objectives": {o.objective: _bounds(o, r) for o in r.objectives}}
    return rec


def _bounds(o, r) -> dict:
    """An objective's bounds and whether it refutes the claim (which objective raised a flag)."""
    out = {"eps_lb": float(o.eps_lower_bound), "delta_lb": float(o.delta_lower_bound),
           "refutes": bool(o.refutes(r.declared_eps, r.declared_delta))}
    for key in ("rho_lower_bound", "profile_margin", "loss_delta_bound", "divergence_bound"):
        if getattr(o, key, None) is not None:
            out[key] = float(getattr(o, key))
    return out


def read_records(path: str) -> list[dict]:
    """The records of ``path`` (one JSON object a line), each checked for its fields and their types."""
    out = []
    with open(path, encoding="utf-8") as fh:
        for i, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path}: line {i} is not JSON ({exc.msg})") from None
            if not isinstance(rec, dict):
                raise ValueError(f"{path}: line {i} is not a JSON object")
            for key, kind in FIELDS.items():
                v = rec.get(key)
                ok = isinstance(v, kind) and not (kind is int and isinstance(v, bool))
                if kind is float:
                    ok = isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                if not ok:
                    raise ValueError(f"{path}: line {i}: field {key!r} missing or not {kind.__name__}")
            if not isinstance(rec.setdefault("loss_search", True), bool):
                raise ValueError(f"{path}: line {i}: field 'loss_search' not bool")
            if rec["law"] not in ("run", "exact") or not 0 < rec["confidence"] < 1 or rec["samples"] < 4:
                raise ValueError(f"{path}: line {i}: law, confidence or samples out of range")
            out.append(rec)
    return out


@functools.lru_cache(maxsize=None)
def pair_loss_of(name: str, eps: float) -> float | None:
    """The exact loss of the pair registered target ``name`` audits at its default eps and delta, if that audit
    declares ``eps`` (a target may turn its defaults into the case's own (eps, delta)), else None; None also for an
    unknown target or one without ``pair_loss``."""
    target = audit.targets().get(name)
    if target is None:
        return None
    case = target.make(target.default_eps, target.default_delta)
    if case.pair_loss is None or not math.isclose(case.eps, eps, rel_tol=1e-9):
        return None
    return float(case.pair_loss(case.private_pair))


def _eps_objective_bound(rec: dict) -> float:
    """The eps objective's eps_lb of a record (its declared delta's), else the headline eps_lb."""
    v = rec.get("objectives", {}).get("eps", {}).get("eps_lb") if isinstance(rec.get("objectives"), dict) else None
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else rec["eps_lb"]


def summary_rows(records: list[dict]) -> list[dict]:
    """One row per (target, law, samples, confidence, loss search), each seed counted once (its first record)."""
    groups: dict = {}
    for rec in records:
        key = (rec["target"], rec["law"], rec["samples"], rec["confidence"], rec["loss_search"])
        groups.setdefault(key, {}).setdefault(rec["seed"], rec)
    rows = []
    for (name, law, samples, conf, searched), by_seed in sorted(groups.items()):
        recs = [by_seed[s] for s in sorted(by_seed)]
        k, runs = sum(r["flagged"] for r in recs), len(recs)
        upper = float(stats.clopper_pearson(k, runs, 0.95, "upper")[1])
        ratio = [r["eps_lb"] / r["declared_eps"] if r["declared_eps"] > 0 else math.nan for r in recs]
        seeds = sorted(by_seed)
        span = f"{seeds[0]}..{seeds[-1]}" if seeds == list(range(seeds[0], seeds[-1] + 1)) else f"{runs} seeds"
        loss = pair_loss_of(name, recs[0]["declared_eps"])
        lbs = [_eps_objective_bound(r) for r in recs]
        rows.append(dict(target=name, law=law, loss_search=searched, samples=samples, confidence=conf, runs=runs,
                         seeds=span, flagged=k,
                         upper=upper, nominal=1.0 - conf, passed=upper < 1.0 - conf,
                         median=float(np.nanmedian(ratio)), largest=float(np.nanmax(ratio)),
                         cpu=sum(r["cpu"] for r in recs), pair_loss=loss,
                         over_loss=None if loss is None else sum(b > loss + 1e-12 for b in lbs),
                         largest_over_loss=(max(lbs) / loss) if loss else None))
    return rows


def print_summary(records: list[dict]) -> None:
    print("| target | draws | samples | seeds | runs | flagged | 95% CP upper bound on the rate | nominal | "
          "bound < nominal | median / max eps_lb/eps | pair's exact loss | runs above it | max eps_lb/loss | "
          "CPU s (per run) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in summary_rows(records):
        draws = ("real code" if r["law"] == "run" else "exact law") + ("" if r["loss_search"] else ", no loss search")
        loss = "-" if r["pair_loss"] is None else f"{r['pair_loss']:.4g}"
        over = "-" if r["over_loss"] is None else str(r["over_loss"])
        most = "-" if r["largest_over_loss"] is None else f"{r['largest_over_loss']:.3f}"
        print(f"| `{r['target']}` | {draws} | {r['samples']:,} | {r['seeds']} | {r['runs']} | {r['flagged']} | "
              f"{r['upper']:.4f} | {r['nominal']:.3g} | {'yes' if r['passed'] else 'no'} | "
              f"{r['median']:.3f} / {r['largest']:.3f} | {loss} | {over} | {most} | "
              f"{r['cpu']:.0f} ({r['cpu'] / r['runs']:.2f}) |")


def _seeds(text: str) -> list[int]:
    try:
        a, _, b = text.partition("..")
        lo, hi = int(a), int(b or a)
    except ValueError:
        lo, hi = 0, -1
    if lo < 0 or hi < lo:
        raise argparse.ArgumentTypeError(f"{text!r} must be A..B with 0 <= A <= B")
    return list(range(lo, hi + 1))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--targets", default="real", help="comma-separated target names, or 'real': every real target")
    p.add_argument("--seeds", type=_seeds, default=list(range(200)), help="A..B (default 0..199)")
    p.add_argument("--samples", type=int, default=None, help="samples per neighbour (default: each target's own)")
    p.add_argument("--confidence", type=float, default=audit.DEFAULT_CONFIDENCE)
    p.add_argument("--law", choices=("run", "exact"), default="run")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--no-loss-search", action="store_true", help="skip the exact-loss search where it changes nothing")
    p.add_argument("--out", required=True, help="JSON-lines file the records are appended to (and read back)")
    p.add_argument("--summary", action="store_true", help="print the table of --out and run nothing")
    try:
        args = p.parse_args(argv)
    except SystemExit as exc:
        return 2 if exc.code else 0
    try:
        done = read_records(args.out) if args.summary or _exists(args.out) else []
    except (OSError, ValueError) as exc:
        print(f"bench_audit_alarms: error: {exc}", file=sys.stderr)
        return 2
    if args.summary:
        print_summary(done)
        return 0
    found = audit.targets()
    names = (sorted(n for n, t in found.items() if t.expect_private) if args.targets == "real"
             else [x.strip() for x in args.targets.split(",") if x.strip()])
    bad = [n for n in names if n not in found or (args.law == "exact" and found[n].make_exact is None)]
    if (bad or args.workers < 1 or not 0 < args.confidence < 1
            or (args.samples is not None and args.samples < 4)):
        print(f"bench_audit_alarms: error: unknown target or no exact law ({', '.join(bad) or '-'}), or --workers < 1,"
              " --confidence outside (0, 1) or --samples < 4", file=sys.stderr)
        return 2
    have = {(r["target"], r["law"], r["seed"], r["confidence"]) + ((r["samples"],) if args.samples else ())
            for r in done}
    jobs = [(n, args.law, s, args.samples, args.confidence, not args.no_loss_search) for n in names
            for s in args.seeds
            if (n, args.law, s, args.confidence) + ((args.samples,) if args.samples else ()) not in have]
    with open(args.out, "a", encoding="utf-8") as fh, \
            multiprocessing.get_context("fork").Pool(args.workers, maxtasksperchild=50) as pool:
        for rec in pool.imap_unordered(run_one, jobs):
            fh.write(json.dumps(rec) + "\n")
            fh.flush()
    print_summary(read_records(args.out))
    return 0


def _exists(path: str) -> bool:
    import os

    return os.path.exists(path)


if __name__ == "__main__":
    sys.exit(main())
