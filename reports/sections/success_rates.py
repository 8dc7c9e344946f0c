"""Success rates at a glance: the verdicts of every validated result that has complete runs, one row per
claim named in words.

Every experiment's summary states its claims as :func:`simulations.contract.claim` records (``successes``,
``trials``, ``target``, a status, and a ``label`` in words). This section lists them with
:func:`reports.claims.claim_rows` (each claim once, by its label, else by its path in the summary made
readable), and draws each claim's rate with its two-sided Clopper-Pearson interval
(:func:`simulations.stats.clopper_pearson`, 95%) against its target: one row per claim, the name and the
verdict on the left, in plots of at most ``ROWS_PER_PLOT`` rows set at the page's width, so every row reads
at print size. Where the summaries record the fraction of the bound's sample size used
(``n_fraction_of_bound``), a second plot shows the rate against n / n_bound. It only reads the summaries;
it never runs a trial.
"""

from __future__ import annotations

import textwrap

from reports.model import Paragraph, Section

ORDER = 5
CONFIDENCE = 0.95
#: the most rows in one plot: a plot of this many rows fits a PDF page with its caption
ROWS_PER_PLOT = 24
#: the plots' width in inches: the PDF's text width (180 mm), so they are never scaled down
WIDTH_IN = 7.0
#: a claim name is wrapped at this many characters (two lines at most)
NAME_CHARS = 46
#: path segments that say nothing to a reader ("cases.stumps:zipf.claims.accuracy" -> "stumps:zipf / accuracy")
_NOISE = {"cases", "claims", "releases", "theorem_claim", "verdict_detail", "per_case", "cells", "rows"}


def readable_path(path: str) -> str:
    """A claim's path in its summary, for a claim without a label, as words: noise segments dropped."""
    parts = [p for p in path.replace("[", ".").replace("]", "").split(".") if p and p not in _NOISE]
    return " / ".join(parts) or path


def _fractions(summary: dict, path: str):
    """The ``n_fraction_of_bound`` of the innermost dict on ``path`` that records one (or None)."""
    node, frac = summary, summary.get("n_fraction_of_bound") if isinstance(summary, dict) else None
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            break
        node = node[key]
        if isinstance(node, dict) and node.get("n_fraction_of_bound") is not None:
            frac = node["n_fraction_of_bound"]
    return frac


def claims(summary: dict) -> list[dict]:
    """Every binomial claim of ``summary`` once: label (in words), k, n, target, status, kind and, where the
    summary records it, the fraction of the bound's n used."""
    from reports.claims import claim_rows

    out = []
    for r in claim_rows(summary):
        if not (isinstance(r.get("k"), int) and isinstance(r.get("n"), int) and r["n"] > 0
                and isinstance(r.get("target"), (int, float))):
            continue
        label = r["record"].get("label") or readable_path(r["path"])
        frac = _fractions(summary, r["path"])
        out.append({"label": str(label), "k": r["k"], "n": r["n"], "target": float(r["target"]),
                    "status": r["status"], "kind": r["kind"],
                    **({"n_fraction": float(frac)} if frac is not None else {})})
    return out


def _name(row: dict, runs: int) -> str:
    name = row["label"] if runs == 1 else f"{row['run']}: {row['label']}"
    kind = "" if row["kind"] == "verdict" else f" [{row['kind']}]"
    lines = textwrap.wrap(name + kind, NAME_CHARS) or [name]
    if len(lines) > 2:
        lines = [lines[0], textwrap.shorten(" ".join(lines[1:]), NAME_CHARS, placeholder=" ...")]
    return "\n".join(lines) + f"\n{row['k']}/{row['n']}, {row['status']}"


def _rates_plot(ctx, result_id: str, rows: list[dict], part: str):
    import matplotlib.pyplot as plt
    import numpy as np

    from bounds.intervals import clopper_pearson

    k = np.array([r["k"] for r in rows])
    n = np.array([r["n"] for r in rows])
    lo, hi = clopper_pearson(k, n, CONFIDENCE, "two-sided")
    rate = k / n
    runs = len({r["run"] for r in rows})
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 0.42 * len(rows) + 1.1), layout="constrained")
    y = np.arange(len(rows))
    ax.errorbar(rate, y, xerr=[rate - lo, hi - rate], fmt="o", capsize=3, label=f"rate, {CONFIDENCE:.0%} CP interval")
    ax.scatter([r["target"] for r in rows], y, marker="|", s=250, color="black", label="target")
    ax.set_yticks(y, [_name(r, runs) for r in rows], fontsize=7.5)
    ax.set_ylim(len(rows) - 0.5, -0.5)
    ax.set_xlim(-0.02, 1.02)
    ax.set_xlabel("success rate", fontsize=8)
    ax.tick_params(axis="x", labelsize=8)
    ax.grid(True, axis="x", alpha=0.3)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize=7, frameon=False)
    ax.set_title(f"{result_id}: success rates of the complete runs{part}", fontsize=9)
    return ctx.figure(fig, caption=(f"{result_id}{part}: each claim's success rate with its two-sided "
                                    f"{CONFIDENCE:.0%} Clopper-Pearson interval against its target, one row per "
                                    "claim (its count and verdict under its name), from the runs' summaries."),
                      stem="rates")


def _fraction_plot(ctx, result_id: str, rows: list[dict]):
    import matplotlib.pyplot as plt
    import numpy as np

    from simulations.stats import clopper_pearson

    rows = [r for r in rows if r.get("n_fraction") is not None]
    if not rows:
        return None
    k = np.array([r["k"] for r in rows])
    n = np.array([r["n"] for r in rows])
    lo, hi = clopper_pearson(k, n, CONFIDENCE, "two-sided")
    rate = k / n
    xs = np.array([r["n_fraction"] for r in rows])
    fig, ax = plt.subplots(figsize=(WIDTH_IN, 3.0), layout="constrained")
    ax.errorbar(xs, rate, yerr=[rate - lo, hi - rate], fmt="o", capsize=3)
    ax.axhline(min(r["target"] for r in rows), color="black", lw=0.8, ls="--", label="smallest target")
    ax.axvline(1.0, color="grey", lw=0.8, ls=":", label="n = n_bound")
    ax.set_xscale("log")
    ax.set_xlabel("n used / n_bound (the result's n)", fontsize=8)
    ax.set_ylabel("success rate", fontsize=8)
    ax.set_ylim(-0.02, 1.02)
    ax.legend(fontsize=7)
    return ctx.figure(fig, caption=f"{result_id}: the same rates against the fraction of the bound's n used.",
                      stem="rates-fraction")


def build(ctx) -> list[Section]:
    by_result: dict[str, list[dict]] = {}
    for run in ctx.results.runs:
        if not run.complete:
            continue
        rid = run.summary.get("result_id") or ", ".join(run.manifest.get("result_ids", [])) or run.experiment
        for c in claims(run.summary):
            by_result.setdefault(rid, []).append({**c, "run": run.path.name})
    if not by_result:
        return []
    s = Section("success-rates", "Success rates at a glance")
    s.add(Paragraph("Per validated result with complete runs, every claim found in the runs' summaries, one row "
                    "each, named in words, drawn as its observed rate with an exact interval against its target. "
                    "The verdict under each name (holds / violated / inconclusive / below-bound) is the run's, at "
                    "the confidence the run states; a kind in brackets marks a check that is no verdict."))
    for rid in sorted(by_result):
        rows = by_result[rid]
        chunks = [rows[i:i + ROWS_PER_PLOT] for i in range(0, len(rows), ROWS_PER_PLOT)]
        for j, chunk in enumerate(chunks):
            part = f" (part {j + 1} of {len(chunks)})" if len(chunks) > 1 else ""
            s.add(_rates_plot(ctx, rid, chunk, part))
        frac = _fraction_plot(ctx, rid, rows)
        if frac is not None:
            s.add(frac)
    return [s]
