"""The frontier of every upper bound (``frontier`` runs): one table, result by result, of the theorem's size, the
least size at which the paper's algorithm meets its guarantee and the least size of its strongest opponent (each
with its Clopper-Pearson interval (L, U]), the looseness factor theorem / least and the ratio opponent / algorithm;
then per run a plot of every release's success rate against the probed size. Every number is read from the run
summaries (a staged search by its last stage, whose summary holds every stage's counts); intervals of the plot
are ``bounds.intervals.clopper_pearson``'s at the run's confidence."""

from __future__ import annotations

from reports import results as _results
from reports.model import Badge, Heading, Paragraph, Section, Table
from reports.sections.thm10 import final_stages

ORDER = 11
EXPERIMENT = "frontier"


def _size(v) -> str:
    return "-" if v is None else f"{int(v):,}"


def _least(least, interval, censored) -> str:
    if least is None:
        return "none holds at a probed size"
    if censored:
        return f"<= {_size(least)} (the smallest probed)"
    lo, hi = interval
    return f"{_size(hi)} in ({_size(lo)}, {_size(hi)}]"


def _ratio(v) -> str:
    return "-" if v is None else f"{v:.3g}"


def _without_public(r: dict) -> str:
    """The strongest private opponent that does without public data alone (where public data pays: its least size
    over the algorithm's)."""
    name = r.get("strongest_private_only")
    if name is None:
        return "none holds at a probed size" if any(o["lacks"] == ["public data"] for o in r["opponents"].values()) \
            else "none run"
    o = r["opponents"][name]
    ratio = None if not r["algorithm_least"] else o["least"] / r["algorithm_least"]
    return f"{name}: {_least(o['least'], o['interval'], o['censored'])}, {_ratio(ratio)}"


def table_rows(summaries: list[dict]) -> list[tuple]:
    """One row per frontier summary: result, case, searched quantity, theorem's size, the algorithm's least size,
    looseness, the strongest opponent and its least size, opponent / algorithm, verdict at the theorem's size,
    stage (final or not), trials per size and confidence."""
    rows = []
    for sm in summaries:
        r = sm["row"]
        rows.append((r["result_id"], r["case"], r["searched"], _size(r["theorem_size"]),
                     f"{r['algorithm']}: " + _least(r["algorithm_least"], r["algorithm_interval"],
                                                    r["algorithm_censored"]),
                     _ratio(r["looseness"]),
                     "-" if r["strongest_opponent"] is None else
                     f"{r['strongest_opponent']}: " + _least(r["strongest_least"], r["strongest_interval"],
                                                             r["strongest_censored"]),
                     _ratio(r["opponent_over_algorithm"]), _without_public(r), sm["verdict"],
                     f"{sm['stage']}{' (final)' if sm.get('final') else ' (not final)'}", sm["trials"],
                     sm["confidence"]))
    return rows


COLUMNS = ("result", "case", "searched", "theorem's size", "least size of the paper's algorithm (U in (L, U])",
           "theorem / least", "strongest opponent and its least size", "opponent / algorithm",
           "strongest private release without public data: least size, / algorithm",
           "verdict at the theorem's size", "stage", "trials per size", "confidence")


def _plot(ctx, run):
    """Success rate against the probed size, every release, two-sided Clopper-Pearson intervals; the theorem's
    size and the target 1 - beta marked (the style of ``bounds plot``: log x, grid, small legend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from bounds.intervals import clopper_pearson

    sm = run.summary
    r, conf = sm["row"], sm["confidence"]
    fig, ax = plt.subplots(figsize=(7.0, 4.4))
    for i, (name, rel) in enumerate(sm["releases"].items()):
        pts = [(s, k, t) for s, k, t in zip(rel["sizes"], rel["successes"], rel["trials"]) if k is not None and t]
        if not pts:
            continue
        xs = [p[0] for p in pts]
        rate = [p[1] / p[2] for p in pts]
        lo = [rate[j] - clopper_pearson(k, t, conf)[0] for j, (_, k, t) in enumerate(pts)]
        hi = [clopper_pearson(k, t, conf)[1] - rate[j] for j, (_, k, t) in enumerate(pts)]
        main = name == r["algorithm"]
        ax.errorbar(xs, rate, yerr=[lo, hi], fmt="-o" if main else "--.", color=f"C{i}", lw=1.8 if main else 1.0,
                    ms=4, capsize=2, label=name + (" (paper's algorithm)" if main else ""))
    ax.axvline(r["theorem_size"], color="black", lw=1.0, ls=":", label=f"theorem's {r['searched']}")
    ax.axhline(sm["target"], color="grey", lw=0.8, ls="-.", label="1 - beta")
    ax.set_xscale("log")
    ax.set_xlabel(f"{r['searched']} (others fixed: {', '.join(f'{k} = {v:,}' for k, v in r['fixed'].items())})")
    ax.set_ylabel("success rate")
    ax.set_ylim(-0.03, 1.03)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, loc="best")
    ax.set_title(f"{r['result_id']} ({r['case']}): {r['guarantee']}", fontsize=9)
    fig.tight_layout()
    return ctx.figure(fig, f"Run {run.path.parent.name}/{run.path.name}: success rate of every release at each probed "
                           f"{r['searched']} ({sm['trials']} trials per size and look; bars: two-sided "
                           f"Clopper-Pearson at {conf:g}); dotted: the theorem's size, dash-dotted: the target "
                           "1 - beta.", stem="frontier")


def build(ctx) -> list[Section]:
    runs = final_stages(ctx.results.runs_of(EXPERIMENT))
    main = [r for r in runs if r.summary.get("variant") in (None, "none")]
    controls = [r for r in runs if r not in main]
    s = Section("frontier", "Frontiers: the least sizes of the paper's algorithms and of their strongest opponents")
    s.add(Paragraph("For each upper bound, the least size of one quantity (n, or m for LVSUW21 Proposition 4.3) at "
                    "which the paper's algorithm meets the result's guarantee w.p. >= 1 - beta, and the least size "
                    "of each opponent that needs nothing the theorem offers (no public data, no private data, or no "
                    "privacy), searched on a log grid and refined by bisection in stages; only the algorithm at the "
                    "theorem's own size is a verdict, every other size a measurement."))
    if main:
        sm0 = main[0].summary
        s.add(Table(COLUMNS, tuple(table_rows([r.summary for r in main])),
                    f"Rule: {sm0['rule']}. 'theorem / least' is the looseness factor; 'opponent / algorithm' below 1 "
                    "means an opponent that lacks something the theorem offers needs less than the paper's algorithm "
                    "there. A censored least size ('<=') is at most the smallest size probed."))
        for r in main:
            s.add(Heading(f"{r.summary['row']['result_id']} ({r.summary['row']['case']})", 4),
                  Badge(r.summary["verdict"], r.summary["verdict_text"]), _plot(ctx, r))
    else:
        s.add(Paragraph("No complete frontier run in the results: run `python -m simulations run frontier --param "
                        "result=thm3_1 --trials 30 --out DIR` (README lists one command per result)."))
    if controls:
        s.add(Heading("Negative controls (each result's own broken algorithm)", 4),
              Table(COLUMNS, tuple(table_rows([r.summary for r in controls])),
                    "Each must come out violated at the theorem's size, with no least size found below it."))
    for r in [r for r in ctx.results.runs_of(EXPERIMENT, False) if not r.complete]:
        s.add(Paragraph(_results.unfinished_text(r)))
    return [s]
