"""Success rates at a glance: one plot for every validated result that has complete runs.

Every experiment's summary states its claims as verdicts of :func:`simulations.stats.verdict`
(a dict with ``successes``, ``trials``, ``rate``, ``target`` and, from the verdict, one-sided bounds
``lower`` / ``upper``). This section finds those dicts anywhere in a complete run's summary (so a
later experiment is plotted without changes here), draws each claim's rate with its two-sided
Clopper-Pearson interval (:func:`simulations.stats.clopper_pearson`, 95%) against its target, and,
where the summary records the fraction of the bound's sample size used (``n_fraction_of_bound``),
the rate against n / n_bound. It only reads the summaries; it never runs a trial.
"""

from __future__ import annotations

from reports.model import Paragraph, Section

ORDER = 5
CONFIDENCE = 0.95


def claims(summary: dict, path: tuple = ()) -> list[dict]:
    """Every verdict-like dict in ``summary``: label (its path), rate, k, n, target, status and,
    when the enclosing dict records it, the fraction of the bound's n used."""
    out = []
    if not isinstance(summary, dict):
        return out
    keys = set(summary)
    if {"successes", "trials", "target"} <= keys and isinstance(summary.get("trials"), int):
        label = "/".join(p for p in path if p not in ("cases", "verdict_detail")) or "claim"
        out.append({"label": label, "k": int(summary["successes"]),
                    "n": int(summary["trials"]), "target": float(summary["target"]),
                    "status": summary.get("verdict") or summary.get("status", "")})
        return out
    for key, value in summary.items():
        if isinstance(value, dict):
            found = claims(value, path + (str(key),))
            frac = summary.get("n_fraction_of_bound") if isinstance(summary, dict) else None
            for c in found:
                if frac is not None and "n_fraction" not in c:
                    c["n_fraction"] = float(frac)
            out.extend(found)
    return out


def _plot(ctx, result_id: str, rows: list[dict]):
    import matplotlib.pyplot as plt
    import numpy as np

    from bounds.intervals import clopper_pearson

    k = np.array([r["k"] for r in rows])
    n = np.array([r["n"] for r in rows])
    lo, hi = clopper_pearson(k, n, CONFIDENCE, "two-sided")
    rate = k / n
    fracs = [r.get("n_fraction") for r in rows]
    with_frac = [i for i, f in enumerate(fracs) if f is not None]
    ncols = 2 if with_frac else 1
    fig, axes = plt.subplots(1, ncols, figsize=(6.5 * ncols, 0.45 * len(rows) + 1.6), squeeze=False)
    ax = axes[0, 0]
    y = np.arange(len(rows))
    ax.errorbar(rate, y, xerr=[rate - lo, hi - rate], fmt="o", capsize=3, label=f"rate, {CONFIDENCE:.0%} CP interval")
    ax.scatter([r["target"] for r in rows], y, marker="|", s=250, color="black", label="target")
    ax.set_yticks(y, [f"{r['label']} ({r['k']}/{r['n']}, {r['status']})" for r in rows], fontsize=7)
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("success rate")
    ax.invert_yaxis()
    ax.legend(fontsize=7, loc="lower left")
    if with_frac:
        ax2 = axes[0, 1]
        xs = np.array([fracs[i] for i in with_frac])
        ax2.errorbar(xs, rate[with_frac], yerr=[rate[with_frac] - lo[with_frac], hi[with_frac] - rate[with_frac]],
                     fmt="o", capsize=3)
        ax2.axhline(min(r["target"] for r in rows), color="black", lw=0.8, ls="--", label="smallest target")
        ax2.axvline(1.0, color="grey", lw=0.8, ls=":", label="n = n_bound")
        ax2.set_xscale("log")
        ax2.set_xlabel("n used / n_bound (the result's n)")
        ax2.set_ylabel("success rate")
        ax2.set_ylim(-0.02, 1.02)
        ax2.legend(fontsize=7)
    fig.suptitle(f"{result_id}: success rates of the complete runs", fontsize=10)
    fig.tight_layout()
    return ctx.figure(fig, caption=(f"{result_id}: each claim's success rate with its two-sided {CONFIDENCE:.0%} "
                                    "Clopper-Pearson interval against its target (from the runs' summaries)"
                                    + ("; right: the same against the fraction of the bound's n used."
                                       if with_frac else ".")), stem="rates")


def build(ctx) -> list[Section]:
    by_result: dict[str, list[dict]] = {}
    for run in ctx.results.runs:
        if not run.complete:
            continue
        rid = run.summary.get("result_id") or ", ".join(run.manifest.get("result_ids", [])) or run.experiment
        for c in claims(run.summary):
            c["label"] = f"{run.experiment}:{c['label']}"
            by_result.setdefault(rid, []).append(c)
    if not by_result:
        return []
    s = Section("success-rates", "Success rates at a glance")
    s.add(Paragraph("One plot per validated result with complete runs: every claim's verdict found in the "
                    "runs' summaries, drawn as its observed rate with an exact interval against its target. "
                    "The verdict itself (holds / violated / inconclusive / below-bound) is the run's, at the "
                    "confidence the run states."))
    for rid in sorted(by_result):
        s.add(_plot(ctx, rid, by_result[rid]))
    return [s]
