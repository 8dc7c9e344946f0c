"""BCMNUW20 Theorems 13, 14 and 15 (lower bounds probed by working attacks): statements and forms (``bounds``), the
thm13 runs (phase diagram of the tracing attack against each release beside Theorem 13's region, ROC curves, TPR/FPR
tables with Clopper-Pearson intervals, implied epsilon lower bounds, Theorem 14's counting events) and the thm15 runs
(A_PAP's error and Lemma 17's learner's excess error against m * alpha beside the C_15/alpha line). Every number is
read from ``bounds`` or from the run summaries; nothing is run here."""

from __future__ import annotations

from bounds.guarantees import format_guarantee
from reports.model import Badge, Heading, Paragraph, Section, Table

ORDER = 13
THM13, THM15 = "thm13", "thm15"
RESULTS_13 = ("bcmnuw20:thm13", "bcmnuw20:thm14")
RESULTS_15 = ("bcmnuw20:thm15", "bcmnuw20:lemma17")
PHASE_METHOD = "null"   # the threshold shown in the per-cell table (all four are in the summaries)


def _statement(ctx, s: Section, result_id: str) -> None:
    import bounds
    r = bounds.get(result_id)
    s.add(Heading(f"{r.paper} {r.label} ({r.id})", 4), Paragraph(r.statement), Paragraph(f"Source: {r.source}."))
    s.add(*ctx.bound_formulas(r.id))
    for note in r.notes:
        s.add(Paragraph(f"Note: {note}"))


def _ci(entry: dict) -> str:
    lo, hi = entry["ci"]
    return f"{entry['rate']:.3f} [{lo:.3f}, {hi:.3f}]"


def _phase_plot(ctx, sm: dict):
    """One panel per release: each (n, m) cell coloured by the implied epsilon lower bound at delta = 1/(4n), a ring
    where the release is (alpha, alpha)-accurate, Theorem 13's region outlined by n = r, m = t/2 - 1, n + m = t."""
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.ticker import NullFormatter

    rel = sm["releases"]
    ncol = min(3, len(rel))
    nrow = (len(rel) + ncol - 1) // ncol
    fig, axes = plt.subplots(nrow, ncol, figsize=(4.2 * ncol, 3.6 * nrow + 0.8), squeeze=False,
                             constrained_layout=True)
    r, t = sm["sizes"]["r"], sm["sizes"]["t"]
    ns, ms = sm["n_grid"], sm["m_grid"]
    vmax = max([c["releases"][k]["eps_lb_theorem_delta"] for c in sm["cells"].values() for k in c["releases"]] + [1.5])
    sc = None
    for ax, kind in zip(axes.ravel(), rel):
        pts = [(c["n"], c["m"], c["releases"][kind]) for c in sm["cells"].values() if kind in c["releases"]]
        if not pts:
            ax.set_visible(False)
            continue
        y = lambda m: max(m, 0.5)  # m = 0 drawn at 0.5 on the log axis
        sc = ax.scatter([p[0] for p in pts], [y(p[1]) for p in pts], c=[p[2]["eps_lb_theorem_delta"] for p in pts],
                        cmap="viridis", vmin=0, vmax=vmax, s=70, marker="s")
        acc = [p for p in pts if p[2]["accuracy"]["rate"] >= 1 - sm["alpha"]]
        ax.scatter([p[0] for p in acc], [y(p[1]) for p in acc], facecolors="none", edgecolors="orange", s=160,
                   label="accuracy rate >= 1 - alpha")
        bad = [p for p in pts if p[2]["contradicts_theorem_privacy"]]
        ax.scatter([p[0] for p in bad], [y(p[1]) for p in bad], marker="x", color="red", s=30,
                   label="(1, 1/(4n))-DP contradicted")
        ax.axvline(r, color="black", linestyle="--", linewidth=1, label="n = r")
        ax.axhline(max(t / 2 - 1, 0.5), color="black", linestyle=":", linewidth=1, label="m = t/2 - 1")
        nn = np.geomspace(min(ns) / 1.5, max(ns) * 1.5, 200)
        nn = nn[t - nn >= 0.5]
        ax.plot(nn, t - nn, color="grey", linewidth=1, label="n + m = t")
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_minor_formatter(NullFormatter())  # minor labels collide in a panel a third of the page wide
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.tick_params(labelsize=7)
        ax.set_xlabel("private n")
        ax.set_ylabel("public m (0 drawn at 0.5)")
        ax.set_title(kind, fontsize=9)
        ax.set_ylim(0.35, max(max(ms), t) * 2)
    for ax in axes.ravel()[len(rel):]:
        ax.set_visible(False)
    handles, labels = axes.ravel()[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=7, loc="outside lower center", ncol=5)
    if sc is not None:
        fig.colorbar(sc, ax=axes, shrink=0.8, label="epsilon lower bound at delta = 1/(4n)")
    fig.suptitle(f"Tracing attack vs Theorem 13's region (p = {sm['p']}, alpha = {sm['alpha']}, "
                 f"r = {r:.3g}, t = {t:.3g})", fontsize=10)
    return ctx.figure(fig, "Phase diagram: colour = implied epsilon lower bound (one-sided Clopper-Pearson, Bonferroni "
                           "over the thresholds) at Theorem 13's delta = 1/(4n); x = (1, 1/(4n))-DP contradicted "
                           "(bound > 1); orange ring = (alpha, alpha)-accurate in at least 1 - alpha of the trials. "
                           "Theorem 13's region: left of n = r, below m = t/2 - 1, above n + m = t.", "thm13-phase")


def _roc_plot(ctx, sm: dict, kinds=("exact", "gaussian")):
    import matplotlib.pyplot as plt

    kinds = [k for k in kinds if k in sm["releases"]]
    if not kinds:
        return None
    fig, axes = plt.subplots(1, len(kinds), figsize=(4.5 * len(kinds), 4), squeeze=False, constrained_layout=True)
    m0 = min(sm["m_grid"])
    for ax, kind in zip(axes.ravel(), kinds):
        for k, n in enumerate(sm["n_grid"]):
            c = sm["cells"].get(f"n={n},m={m0}")
            if not c or kind not in c["releases"]:
                continue
            roc = c["releases"][kind]["roc"]
            ax.plot(roc["fpr"], roc["tpr"], color=f"C{k}", label=f"n = {n}")
        ax.plot([0, 1], [0, 1], color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel("FPR (fresh samples)")
        ax.set_ylabel("TPR (private samples)")
        ax.set_title(f"{kind}, m = {m0}", fontsize=9)
        ax.legend(fontsize=6)
    return ctx.figure(fig, "ROC curves of the score <y - z, v>/||v|| (designated samples of every trial pooled).",
                      "thm13-roc")


def _thm13_run(ctx, s: Section, run) -> None:
    sm = run.summary
    z = sm["sizes"]
    s.add(Heading(f"Run {run.path.name}: p = {sm['p']}, alpha = {sm['alpha']}, bias range {sm['bias_range']}, "
                  f"{sm['trials']} trials", 4),
          Badge(sm["verdict"], sm["verdict_text"]))
    # the control release's record (older runs: negative_control)
    neg = sm.get("control_release", sm.get("negative_control"))
    if isinstance(neg, dict):
        if "power" in neg:
            where = neg["power"]["text"] + f" (largest eps lower bound {neg['power']['max_eps_lb']:.3g})"
        else:  # a run directory written before the control was judged on every cell
            where = (f"contradicted in {neg['declaration_contradicted_in_region_cells']} of {neg['region_cells']} "
                     f"region cells ({neg['declaration_contradicted_in_cells']} of {neg['cells']} cells overall)")
        s.add(Badge(neg["status"], f"negative control {neg['release']} (noise x {neg['broken_noise']}): "
                                   f"{neg['claim']}: {where}"))
    fc = sm["privacy_floor_check"]
    s.add(Badge(fc["status"], "correctly private releases: the attack's epsilon lower bound never exceeds the declared "
                              "epsilon" + (" (passed)" if fc["passed"] else f" FAILED at {', '.join(fc['failures'])}")))
    s.add(Table(("r (Thm 14)", "t (Thm 14)", "level 1/(r+t)^2", "Thm 13 n_min", "Thm 13 m_min = t/2",
                 "signal floor (*)"),
                ((z["r"], z["t"], z["level_thm14"], z.get("n_min", "-"), z.get("m_min", "-"), sm["signal_floor"]),),
                f"{sm['bound_source']}. Signal floor: per-coordinate lower bound on the members' expected score for "
                "alpha-accurate answers (algorithms.adversaries.tracing.signal_floor)."))
    s.add(_phase_plot(ctx, sm))
    roc = _roc_plot(ctx, sm)
    if roc is not None:
        s.add(roc)
    rows = []
    for c in sm["cells"].values():
        for kind, v in c["releases"].items():
            e = v["methods"][PHASE_METHOD]
            rows.append((c["n"], c["m"], "yes" if c["in_region"] else "no", kind,
                         format_guarantee(v["declared"]),
                         _ci(v["accuracy"]), v["error_mean"], _ci(e["tpr_private"]),
                         _ci(e["tpr_public"]) if "tpr_public" in e else "-", _ci(e["fpr"]),
                         v["eps_lb"], v["eps_lb_theorem_delta"],
                         v["theorem_claim"].get("verdict", v["theorem_claim"].get("status")) if "theorem_claim" in v
                         else "-"))
    conf = sm["confidence"]
    s.add(Table(("n", "m", "region", "release", "declared", "accurate", "mean error", "TPR private", "TPR public",
                 "FPR", "eps lb (declared delta)", "eps lb (delta = 1/(4n))", "Thm 13 claim"), tuple(rows),
                f"Threshold '{PHASE_METHOD}' at level {sm['fpr']} (the summaries hold all of "
                f"{', '.join(sm['methods'])}). "
                f"Rates over one designated sample per trial with two-sided {100 * conf:g}% Clopper-Pearson intervals. "
                "eps lb: log((TPR_lo - delta)/FPR_hi), best of the four thresholds, Bonferroni over them. Thm 13 "
                "claim: "
                "'not (alpha, alpha)-accurate' for releases declared at least (1, 1/(4n))-DP, judged only in region "
                "cells "
                "where some release is (alpha, alpha)-accurate (elsewhere it cannot fail: below-bound)."))
    count = []
    for c in sm["cells"].values():
        v = c["releases"].get("exact")
        if v is None:
            continue
        cnt = v["counting"]
        pooled = v["methods"]["analytic_thm14"].get("pooled", {})
        count.append((c["n"], c["m"], "yes" if c["in_region"] else "no", _ci(cnt["count_ge_half_t"]),
                      _ci(cnt["count_ge_m_plus_1"]), cnt["target"], pooled.get("mean_in_private"),
                      pooled.get("mean_in_public")))
    if count:
        s.add(Table(("n", "m", "region", "P[#IN >= t/2]", "P[#IN >= m + 1]", "Thm 14 target 1 - 1/(r+t)^2",
                     "mean #IN private", "mean #IN public"), tuple(count),
                    "Theorem 14's second event and the counting step of Theorem 13's proof for the exact answers, with "
                    "the analytic threshold at Theorem 14's level 1/(r+t)^2: where #IN >= m + 1 with probability near "
                    "1 and m <= t/2 - 1, at least one IN call lands on a private sample."))


def _thm15_plot(ctx, sm: dict):
    import matplotlib.pyplot as plt

    rows = sm["rows"]
    x = [r["m_alpha"] for r in rows]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(x, [r["error_mean"] for r in rows], "o-", label="A_PAP Err_D,H(G) (mean)")
    ax.plot(x, [r["error_max"] for r in rows], "v:", color="C0", label="A_PAP Err (max)")
    ax.plot(x, [r["learner_excess_mean"] for r in rows], "s-", label="Lemma 17 learner excess error (mean)")
    ax.plot(x, [r["public_only_error_mean"] for r in rows], "^-", label="public-only Err (mean)")
    if all("b_error_mean" in r for r in rows):
        ax.plot(x, [r["b_error_mean"] for r in rows], "d-", label="ABM19's B around the learner: error (mean)")
    ax.axhline(sm["alpha"], color="black", linestyle="--", linewidth=1, label="alpha")
    ax.axvline(sm["c_15"], color="red", linestyle=":", linewidth=1, label="m alpha = C_15 (Theorem 15)")
    ax.set_xscale("log")
    ax.set_xlabel("m * alpha")
    ax.set_ylabel("error")
    ax.legend(fontsize=7)
    ax.grid(True, which="both", alpha=0.3)
    return ctx.figure(fig, f"Thresholds on {sm['num_points']} points, alpha = {sm['alpha']}, n = {sm['n']:,} private "
                           "samples: errors against m * alpha; Theorem 15's line at m = C_15/alpha.", "thm15-errors")


def _thm15_run(ctx, s: Section, run) -> None:
    sm = run.summary
    s.add(Heading(f"Run {run.path.name}: N = {sm['num_points']}, alpha = {sm['alpha']}, beta = {sm['beta']}, "
                  f"{sm['trials']} trials" + (" (NEGATIVE CONTROL)" if sm["negative_control"] else ""), 4),
          Badge(sm["verdict"], sm["verdict_text"]),
          Badge(sm["reduction_floor_check"]["status"], "Lemma 17: learner's excess error <= the release's error on "
                "H^+- in every trial" + (" (passed)" if sm["reduction_floor_check"]["passed"] else " FAILED")))
    s.add(_thm15_plot(ctx, sm))
    conf = sm["confidence"]
    rows = tuple((r["m_alpha"], r["m"], "yes" if r["below_line"] else "no", r["error_mean"], r["error_max"],
                  _ci(r["accuracy"]), r["learner_excess_mean"], _ci(r["learner_ok"]), r["public_only_error_mean"],
                  r.get("b_error_mean"), r["status"]) for r in sm["rows"])
    s.add(Table(("m alpha", "m", "below line", "mean Err", "max Err", "accurate (Err <= alpha)", "mean learner excess",
                 "learner excess <= alpha", "public-only mean Err", "B mean error", "status"), rows,
                f"{sm['bound_source']}. Two-sided {100 * conf:g}% Clopper-Pearson intervals; status of the claim "
                "'not (alpha, beta)-accurate on this D' below the line (Bonferroni), below-bound above it. "
                f"n = {sm['n']:,} = {sm['n_fraction_of_thm10']:.3g} of Theorem 10's n (machine limit)."))
    s.add(Paragraph(f"Composition with ABM19's reduction B: {sm['composition_with_B']}."))


def build(ctx) -> list[Section]:
    res = ctx.results
    s = Section("lower-bounds", "BCMNUW20 Theorems 13-15: lower bounds probed by working attacks")
    s.add(Heading("Statements and forms (from bounds)"))
    for rid in RESULTS_13 + RESULTS_15:
        _statement(ctx, s, rid)
    s.add(Heading("Theorems 13 and 14: the robust tracing attack against real releases"))
    runs = res.runs_of(THM13)
    for r in runs:
        _thm13_run(ctx, s, r)
    if not runs:
        s.add(
            Paragraph("No complete thm13 run in the results: `python -m simulations run thm13 --trials 60 --out DIR`."))
    s.add(Heading("Theorem 15 and Lemma 17: public samples for thresholds"))
    runs = res.runs_of(THM15)
    for r in runs:
        _thm15_run(ctx, s, r)
    if not runs:
        s.add(
            Paragraph("No complete thm15 run in the results: `python -m simulations run thm15 --trials 30 --out DIR`."))
    return [s]
