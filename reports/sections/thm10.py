"""BCMNUW20 Theorem 10 (A_PAP): statement and rendered formulas (``bounds``), the bound table at the runs'
parameters, the success rates with Clopper-Pearson intervals (``thm10`` runs), the looseness search
(``thm10_looseness`` runs) with a plot of empirical against theoretical sample sizes over alpha, and the
A_PAP audits. Every number is read: bound values from ``bounds``, rates from the run summaries."""

from __future__ import annotations

from reports import results as _results
from reports.model import Badge, Heading, Paragraph, Section, Table
from reports.sections.audits import audit_table

ORDER = 10
RESULT_ID = "bcmnuw20:thm10"
EXPERIMENT = "thm10"
LOOSENESS = "thm10_looseness"


def _statement(ctx, s: Section) -> None:
    import bounds
    r = bounds.get(RESULT_ID)
    s.add(Paragraph(f"{r.paper} {r.label} ({r.id}): {r.statement}"), Paragraph(f"Source: {r.source}."))
    s.add(*ctx.bound_formulas(r.id))
    if r.notes:
        s.add(Heading("Notes and errata recorded with the bound", 4))
        for note in r.notes:
            s.add(Paragraph(note))


def _bound_rows(alpha, beta, eps, delta, dims) -> list[tuple]:
    import bounds

    rows = []
    for d, p in dims:
        c = bounds.compute(RESULT_ID, alpha=alpha, beta=beta, epsilon=eps, delta=delta, vc=d, dual_vc=p)
        rows.append((alpha, beta, eps, delta, d, p, int(c["public_samples"]), float(c["log_cover_size"]),
                     float(c["log_domain_size"]), int(c["private_samples"]), int(c["private_samples_previous"]),
                     int(c["private_samples_fixed_split"])))
    return rows


def _bound_figure(ctx, runs):
    """Theorem 10's n and m, the public-only m of uniform convergence (uc) and private-only PMW's n (pmw) against
    alpha, as ``python -m bounds plot thm10 uc pmw --vary alpha`` draws them, at the first case of the answering
    thm10 run whose sizes are all finite (else decision stumps on {+-1}^8 at the quick start's beta, eps, delta:
    the wide-stump case's domain {+-1}^2000 has no size to draw)."""
    from bounds.plot import curves, figure
    from reports.coverage import pick

    run = pick(runs)
    point = {"beta": 0.05, "epsilon": 0.5, "delta": 1e-6, "vc": 3, "dual_vc": 8, "num_hypotheses": 16,
             "domain_size": 256}
    where = "decision stumps on {+-1}^8 (d = 3, p = 8, |H| = 16, |X| = 256), beta = 0.05, eps = 0.5, delta = 1e-6"
    if run is not None:
        sm = run.summary
        drawable = [(k, c) for k, c in (sm.get("cases") or {}).items() if isinstance(c, dict)  # a finite |X|
                    and all(c.get(q) is not None for q in ("d", "p", "num_hypotheses", "num_points"))]
        case_key, case = drawable[0] if drawable else ("", {})
        if case:
            point = {"beta": sm["beta"], "epsilon": sm["eps"], "delta": sm["delta"], "vc": case["d"],
                     "dual_vc": case["p"], "num_hypotheses": case["num_hypotheses"], "domain_size": case["num_points"]}
            where = (f"run {run.path.name}'s case {case_key} (d = {case['d']}, p = {case['p']}, |H| = "
                     f"{case['num_hypotheses']}, |X| = {case['num_points']}), beta = {sm['beta']}, eps = {sm['eps']}, "
                     f"delta = {sm['delta']}")
    plot = curves(("thm10", "uc", "pmw"), vary="alpha", low=1e-3, high=0.5, points=120, **point)
    cross = "; ".join(f"{x['first']} = {x['second']} at alpha = {x['at']:.3g}" for x in plot.crossings)
    return ctx.figure(figure(plot), f"n (solid) and m (dash-dotted) against alpha at {where}; dashed: the printed "
                                    "constants' n beside the corrected one. uc: uniform convergence, the public-only "
                                    "m with no privacy; pmw: PMW on the whole domain, the private-only n. "
                                    + (f"Crossings: {cross}." if cross else "No crossing on this range.")
                                    + " Command line: python -m bounds plot thm10 uc pmw --vary alpha ... --out F.png",
                      stem="bounds-plot")


def _bound_table(runs, loose) -> Table:
    """Theorem 10's explicit chain at the parameters of the runs (or at thm10's defaults if there is none)."""
    points = set()
    for r in runs:
        sm = r.summary
        dims = {(c["d"], c["p"]) for c in sm["cases"].values()}
        points.add((sm["alpha"], sm["beta"], sm["eps"], sm["delta"], tuple(sorted(dims))))
    for r in loose:
        sm = r.summary
        dims = tuple(sorted({(row["d"], row["p"]) for row in sm["rows"]}))
        for a in sorted({row["alpha"] for row in sm["rows"]}):
            points.add((a, sm["beta"], sm["eps"], sm["delta"], dims))
    if not points:  # the experiment's defaults (bounds/where.json)
        from bounds.families import class_dimensions
        from bounds.where import defaults

        p = defaults("thm10")
        dims = tuple(sorted({class_dimensions(c.split(":")[0], p["stump_dim"]) for c in p["cases"]}))
        points.add((p["alpha"], p["beta"], p["eps"], p["delta"], dims))
    rows = []
    for alpha, beta, eps, delta, dims in sorted(points):
        rows.extend(_bound_rows(alpha, beta, eps, delta, dims))
    return Table(("alpha", "beta", "eps", "delta", "d", "p", "m (Lemma 11)", "log|H~| (Sauer)", "log|X~| (Claim 3)",
                  "n (Lemma 7, tight: the runs' n)", "n (previous correction)", "n (fixed split)"),
                 tuple(sorted(set(rows))),
                 f"bounds.compute('{RESULT_ID}', ...): the explicit chain of Theorem 10's proof. The runs use "
                 "private_samples, the tight Lemma 7 n, with PMW given bounds' mw_accuracy (the n is proven for "
                 "that PMW); beside it the previous correction (answer noise within alpha_mw) and the fixed "
                 "split PMW uses without mw_accuracy.")


_MEANING = {
    "holds": "at Theorem 10's n and m, every claim's one-sided Clopper-Pearson lower bound reaches its target",
    "violated": "at Theorem 10's n and m, some claim's one-sided upper bound is below its target",
    "inconclusive": "at Theorem 10's n and m, the trials decide neither way",
    "below-bound": ("the run used fewer samples than Theorem 10 requires (a cap or a scale): a measurement of "
                    "A_PAP there, never a verdict on the theorem"),
}


def _ci(c: dict) -> str:
    return f"{c['rate']:.3f} [{c['ci'][0]:.3f}, {c['ci'][1]:.3f}]"


def _baseline_plot(ctx, sm):
    """Mean (marker) and maximum (bar top) of Err over the trials, per case, for A_PAP and both baselines."""
    import matplotlib.pyplot as plt

    cases = [k for k, c in sm["cases"].items() if "baselines" in c]
    fig, ax = plt.subplots(figsize=(10, 3.6))
    series = (("A_PAP", lambda c: (c["error"]["mean"], c["error"]["max"])),
              ("public-only", lambda c: (c["baselines"]["public_only"]["error_mean"],
                                         c["baselines"]["public_only"]["error_max"])),
              ("private-only", lambda c: (c["baselines"]["private_only"]["error_mean"],
                                          c["baselines"]["private_only"]["error_max"])))
    for j, (label, get) in enumerate(series):
        xs = [i + (j - 1) * 0.25 for i in range(len(cases))]
        means, maxes = zip(*(get(sm["cases"][k]) for k in cases))
        ax.bar(xs, maxes, width=0.22, alpha=0.35, color=f"C{j}")
        ax.plot(xs, means, "o", color=f"C{j}", label=f"{label} (marker: mean, bar: max)")
    ax.axhline(sm["alpha"], color="black", linestyle="--", label=f"alpha = {sm['alpha']}")
    ax.set_xticks(range(len(cases)), cases, rotation=20, ha="right", fontsize=7)
    ax.set_ylabel("Err_D,H(G)")
    ax.legend(fontsize=7)
    ax.set_title("A_PAP and the trivial releases on the same draws")
    return ctx.figure(fig, "Err over the run's trials (mean and maximum) per case; a baseline under the dashed line "
                           "in every trial does the job without A_PAP.", "thm10-baselines")


#: thm10's trivial releases (its summary's ``baselines`` keys), with the column label and what each is
TRIVIAL_COLUMNS = {
    "public_only": ("public-only", "G(h) = E_w h from the public sample"),
    "public_shrunk": ("public shrunk", "the public answers times sqrt(m)/(sqrt(m) + 1), no private data"),
    "private_only": ("private-only PMW", "PMW over the full domain at the same (eps, delta), no public data"),
    "gaussian": ("Gaussian", "the Gaussian mechanism on all |H| answers at the same (eps, delta), no public data"),
    "laplace": ("Laplace", "the Laplace mechanism on all |H| answers at eps, no public data"),
    "tree": ("tree", "the binary-tree mechanism (thresholds and intervals only), no public data"),
    "constant_zero": ("constant 0", "G(h) = 0 for every h"),
}


def _rates(ctx, s: Section, run) -> None:
    sm = run.summary
    variant = sm.get("variant", "none")
    kind = ("negative control " if sm.get("negative_control") else "probe " if variant != "none" else "") + (
        f"'{variant}'" if variant != "none" else "A_PAP")
    s.add(Heading(f"Run {run.path.name} ({kind}): alpha = {sm['alpha']}, beta = {sm['beta']}, eps = {sm['eps']}, "
                  f"delta = {sm['delta']}, {sm['trials']} trials", 4),
          Badge(sm["verdict"], sm["verdict_text"]))
    meaning = _MEANING.get(sm["verdict"], "")
    if meaning:
        s.add(Paragraph(f"What '{sm['verdict']}' means here: {meaning}."
                        + (" This run is a deliberately broken A_PAP: 'violated' is the expected outcome and shows "
                           "the experiment can fail." if sm.get("negative_control") else "")))
    rows = []
    shown = [k for k in TRIVIAL_COLUMNS if any(k in (c.get("baselines") or {}) for c in sm["cases"].values())]
    for case, c in sm["cases"].items():
        cov, acc = c["cover"], c["accuracy"]
        base = c.get("baselines") or {}
        rows.append((case, c["d"], c["p"], c["m_used"], c["m_fraction_of_bound"], c["n_used"], c["n_fraction_of_bound"],
                     _ci(cov), cov["verdict"], _ci(acc), acc["verdict"],
                     *(f"{_ci(base[k])} {base[k]['status']}" if k in base else "-" for k in shown),
                     c["error"]["max"], base["public_only"]["error_max"] if "public_only" in base else None,
                     c.get("informative")))
    conf = sm["confidence"]
    absent = [TRIVIAL_COLUMNS[k][0] for k in TRIVIAL_COLUMNS if k not in shown]
    s.add(Table(("case", "d", "p", "m used", "m / bound", "n used", "n / bound", "cover rate [CI]", "cover",
                 "A_PAP accuracy [CI]", "accuracy", *(f"{TRIVIAL_COLUMNS[k][0]} [CI]" for k in shown),
                 "max Err A_PAP", "max Err public-only", "informative"), tuple(rows),
                f"Same draws for A_PAP and every trivial release in every trial. Cover: H~ an alpha/4-cover (target "
                f"1 - beta/2); accuracy: Err_D,H(G) <= alpha (target 1 - beta). Two-sided Clopper-Pearson "
                f"{100 * conf:g}% intervals; verdicts at {sm['per_claim_confidence']:.4f} per claim (Bonferroni). "
                + " ".join(f"{TRIVIAL_COLUMNS[k][0]}: {TRIVIAL_COLUMNS[k][1]}." for k in shown)
                + (f" Not in this run (it predates them or ran without baselines): {', '.join(absent)}." if absent
                   else "")
                + " A trivial release 'succeeds' or 'fails' by the same rule, a statement about it, not a verdict. "
                "'informative' = every trivial release fails, so 'holds' there separates A_PAP from them; '-' in a "
                "cell: that release was not run in that case."))
    if any("baselines" in c for c in sm["cases"].values()):
        s.add(_baseline_plot(ctx, sm))
    cross = sm.get("public_only_crossover") or {}
    for dims, cr in cross.items():
        where = (f"Theorem 10's m and the uniform-convergence m cross at alpha = "
                 f"{', '.join(f'{x:.4g}' for x in cr['crossings'])}" if cr["crossings"] else
                 "the explicit uniform-convergence m (public data alone) exceeds Theorem 10's m at every alpha in "
                 f"(1e-6, 1) (ratio {cr['uc_over_thm10_m_at_largest_alpha']:.3g} at alpha -> 1), so by the explicit "
                 "bounds Theorem 10's m alone never suffices")
        s.add(Paragraph(f"Public data alone ({dims}), from {cr['source']}: {where}. The measured public-only "
                        "column is the empirical check: where it succeeds, the explicit VC bound is looser than the "
                        "class needs and 'holds' for A_PAP says nothing A_PAP adds."))
    below = [k for k, c in sm["cases"].items() if not c.get("at_bound", True)]
    if below:
        s.add(Paragraph(f"Below Theorem 10's sizes in {len(below)} case(s) ({', '.join(below)}): n_scale = "
                        f"{sm['n_scale']}, m_scale = {sm['m_scale']}, n_max = {sm['n_max'] or 'none'}. These rows are "
                        "measurements (status below-bound); they can show where A_PAP succeeds with fewer samples "
                        "and where the public-only release fails, but they say nothing about the theorem."))


def _interval(iv) -> str:
    return "-" if not iv else f"({iv[0]:,}, {iv[1]:,}]"


def _ratio_range(lower, upper) -> str:
    """'a-b' for the ratios at an interval's two ends (or the one that exists)."""
    if lower is None and upper is None:
        return "-"
    if lower is None or upper is None or f"{lower:.3g}" == f"{upper:.3g}":
        return f"{(upper if lower is None else lower):.3g}"
    return f"{min(lower, upper):.3g}-{max(lower, upper):.3g}"


def _resolution(r: dict, q: str) -> str:
    met = r.get(f"{q}_resolution_met")
    if met is None:
        return "-"
    return ("met: " if met else "not met: ") + r.get(f"{q}_resolution_note", "")


def final_stages(runs) -> list:
    """The looseness runs to report: a staged search (simulations.stages) is reported by its last stage, whose
    summary combines every stage's counts; earlier stages of the same search are left out."""
    last = {}
    for r in runs:
        stage = int((r.summary or {}).get("stage", 0))
        key = str(r.path.parent) if r.path.name.startswith("stage-") else str(r.path)
        if key not in last or stage > last[key][0]:
            last[key] = (stage, r)
    return [r for _, r in sorted(last.values(), key=lambda t: str(t[1].path))]


def _looseness(ctx, s: Section, run) -> None:
    sm = run.summary
    stage = sm.get("stage", 0)
    s.add(Heading(f"Looseness run {run.path.parent.name + '/' if stage or sm.get('final') is False else ''}"
                  f"{run.path.name}: {sm['trials']} trials per size and stage, coarse grid factor {sm['factor']}"
                  + (f", resolution 1 + {sm['resolution']:g}, stage {stage} of at most {sm.get('max_refinements')}"
                     + (" (the last)" if sm.get("final") else " (not the last: the search would refine further)")
                     if "resolution" in sm else ""), 4),
          Badge(sm["verdict"], sm["verdict_text"]), Paragraph(f"Rule: {sm['rule']}."))
    rows = []
    for r in sm["rows"]:
        n_iv, m_iv = r.get("n_interval"), r.get("m_interval")
        corr = r.get("n_corrected")
        rows.append((r["alpha"], r.get("key", r["case"]).split("|", 1)[-1], r.get("status_at_bound", "-"),
                     r["n_bound"], corr, r.get("n_printed_lemma7"),
                     ("<= " if r["least_n_censored"] else "") + (f"{r['least_n']:,}" if r["least_n"] else "-"),
                     _interval(n_iv), _resolution(r, "n"),
                     _ratio_range(*(None if not n_iv or not v else r["n_bound"] / v for v in n_iv)) if n_iv else "-",
                     _ratio_range(*(None if not n_iv or not v else v / r["n_printed_lemma7"] for v in n_iv))
                     if n_iv else "-",
                     _ratio_range(*(None if not n_iv or not v or not corr else v / corr for v in n_iv))
                     if n_iv else "-",
                     r["m_bound"], r["least_m"], _interval(m_iv), _resolution(r, "m"), r["m_ratio"],
                     r["least_m_cover"]))
    s.add(Table(("alpha", "unit", "at the bound", "n bound (Lemma 7 corrected, tight: the runs' n)",
                 "n Lemma 7 corrected (thm10)", "n Lemma 7 as printed", "least n (U)", "least n interval (L, U]",
                 "n resolution", "bound / least n", "least n / printed n", "least n / optimised n", "m bound",
                 "least m (U)", "least m interval", "m resolution", "bound/least m", "least m (cover)"), tuple(rows),
                "least n: m fixed at the bound's m; least m: n fixed at the bound's n (capped: then the m search is "
                "below-bound). 'at the bound' is the verdict at Theorem 10's own sizes (stage 0); every smaller size "
                "is a below-bound measurement. '<=' marks a least size equal to the smallest size tried. Ratios over "
                "the interval (L, U] are given for both ends (L = 0: U only). Lemma 7 as printed: "
                "bounds.compute('bcmnuw20:lemma7', ...)['private_samples_as_printed'] at (alpha/2, beta/2, |H~|, "
                "|X~|); corrected: bounds.compute('bcmnuw20:thm10', ...)['private_samples'] (the tight Lemma 7, PMW at "
                "mw_accuracy; run directories before it hold the fixed split's n as the bound)."))
    shapes = sm.get("shapes") or {}
    if shapes:
        s.add(Table(("case", "alphas", "least n exponent", "bound n exponent", "least m exponent", "bound m exponent"),
                    tuple((case, ", ".join(f"{a:g}" for a in sh["alphas"]), sh["least_n"], sh["bound_n"], sh["least_m"],
                           sh["bound_m"]) for case, sh in shapes.items() if len(sh["alphas"]) > 1),
                    "Fitted slopes of log(size) against log(1/alpha) (least squares; censored least sizes left out). "
                    "Theorem 10: n ~ 1/alpha^2 and m ~ 1/alpha up to logarithms."))
    if len({r["alpha"] for r in sm["rows"]}) > 1:  # beside its tables; the plot over alpha needs two alphas
        s.add(_plot(ctx, sm))
    for var, title in (("p", "dual VC dimension p (decision stumps)"), ("d", "VC dimension d (every class run)")):
        fits = sm.get(f"shapes_{var}") or {}
        if not fits:
            continue
        s.add(Table(("units", f"{var} values", "least n (U) exponent", "interval lower end (L) exponent",
                     "bound n exponent (the runs' n)", "bound n exponent (corrected)")
                    + (("Theorem 13 n exponent",) if var == "p" else ()),
                    tuple((k, ", ".join(str(v) for v in f[var]), f["least_n"], f["lower_n"], f["bound_n"],
                           f["bound_n_optimised"]) + ((f["thm13_n"],) if var == "p" else ())
                          for k, f in fits.items()),
                    f"Shape in {title}: least-squares slopes of log(n) against log({var}) (censored least sizes and "
                    "L = 0 left out). Theorem 10's n depends on p through log|X~| (Claim 3; ~sqrt(p) in the asymptotic "
                    "statement) and on d through |H~| (Sauer); Theorem 13's lower bound is C_14r sqrt(p)/alpha "
                    "(exponent 1/2 in p)." + (" The classes at hand tie p to d (thresholds 1, 1; intervals 2, 2; "
                                              "stumps floor(log2 p), p): the fit in d moves p too." if var == "d"
                                              else "")))
        if var == "p":
            for k in fits:
                s.add(_plot_p(ctx, sm, k))


def _plot_p(ctx, sm, key):
    """Least n with its interval against p (log-log), the bound's n (as run and corrected) and
    Theorem 13's n = C_14r sqrt(p)/alpha at C_14r = 1, for one (alpha, stumps case)."""
    import matplotlib.pyplot as plt

    alpha_part, case = key.split("|", 1)
    rows = sorted((r for r in sm["rows"] if r["case"] == case and f"alpha={r['alpha']:g}" == alpha_part),
                  key=lambda r: r["p"])
    fig, ax = plt.subplots(figsize=(7.0, 4), layout="constrained")
    ps = [r["p"] for r in rows]
    ax.plot(ps, [r["n_bound"] for r in rows], "s-", color="C0", label="Theorem 10 n (the runs' n bound)")
    ax.plot(ps, [r["n_corrected"] for r in rows], "^--", color="C0", alpha=0.6, label="Theorem 10 n (Lemma 7 "
                                                                                      "corrected, tight)")
    ax.plot(ps, [r["thm13_n"] for r in rows], "x:", color="C3",
            label="Theorem 13 lower bound sqrt(p)/alpha (C_14r = 1)")
    found = [r for r in rows if r["least_n"]]
    if found:
        lo = [r["least_n"] - (r["n_interval"][0] or r["least_n"]) for r in found]
        ax.errorbar([r["p"] for r in found], [r["least_n"] for r in found], yerr=[lo, [0] * len(found)], fmt="o",
                    color="C1", capsize=4, label="least n (U) with its interval (L, U]")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("dual VC dimension p (decision stumps on {+-1}^p)")
    ax.set_ylabel("private samples n")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6)
    ax.set_title(f"Theorem 10 in p: {case}, {alpha_part}")
    return ctx.figure(fig, "Least n at which Err <= alpha holds w.p. >= 1 - beta (interval (L, U]) against p, beside "
                           "Theorem 10's n and Theorem 13's lower bound at its hidden constant 1 (a shape only; "
                           "Theorem 13's region also needs m <= t/2 - 1, far below the m these runs use).",
                      "thm10-looseness-p")


def _plot(ctx, sm):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(7.0, 3.6), layout="constrained")  # the page's width: never scaled down
    unit = lambda r: r.get("key", r["case"]).split("|", 1)[-1]  # noqa: E731  (case, and p for a stumps shape)
    cases = sorted({unit(r) for r in sm["rows"]})
    for k, case in enumerate(cases):
        rows = sorted((r for r in sm["rows"] if unit(r) == case), key=lambda r: r["alpha"])
        colour = f"C{k}"
        a = [r["alpha"] for r in rows]
        for ax, q in zip(axes, ("n", "m")):
            ax.plot(a, [r[f"{q}_bound"] for r in rows], "-", color=colour, label=f"{case}: bound")
            pts = [(r["alpha"], r[f"least_{q}"], r[f"least_{q}_censored"]) for r in rows if r[f"least_{q}"]]
            ax.plot([p[0] for p in pts], [p[1] for p in pts], "o--", color=colour, label=f"{case}: least empirical")
            cens = [p for p in pts if p[2]]
            if cens:
                ax.plot([p[0] for p in cens], [p[1] for p in cens], "v", color=colour, markersize=9,
                        label=f"{case}: censored (<=)")
    if sm.get("n_max"):
        axes[0].axhline(sm["n_max"], color="grey", linestyle=":", label="n_max (cap: below-bound above it)")
    for ax, q, name in zip(axes, ("n", "m"), ("private samples n", "public samples m")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("alpha", fontsize=8)
        ax.set_ylabel(name, fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(True, which="both", alpha=0.3)
    axes[1].legend(fontsize=6)
    axes[0].legend(fontsize=6)
    fig.suptitle("Theorem 10: explicit bound vs least empirical sample size", fontsize=9)
    return ctx.figure(fig, "Empirical (least grid size at which Err <= alpha holds w.p. >= 1 - beta at the stated "
                           "confidence) against Theorem 10's explicit sizes, log scales.", "thm10-looseness")


def build(ctx) -> list[Section]:
    res = ctx.results
    runs = [r for r in res.runs_of(EXPERIMENT)]
    loose = final_stages(res.runs_of(LOOSENESS))
    s = Section("thm10", "BCMNUW20 Theorem 10: A_PAP (public-data-assisted private query release)")
    s.add(Heading("Statement and formulas (from bounds)"))
    _statement(ctx, s)
    s.add(Heading("Bound table"), _bound_table(runs, loose))
    s.add(Heading("Theorem 10 beside uniform convergence and private-only PMW"), _bound_figure(ctx, runs))
    s.add(Heading("Success rates"))
    if runs:
        for r in runs:
            _rates(ctx, s, r)
    else:
        s.add(Paragraph("No complete thm10 run in the results: run `python -m simulations run thm10 --trials N "
                        "--out DIR`."))
    unfinished = [r for r in res.runs_of(EXPERIMENT, False) + res.runs_of(LOOSENESS, False) if not r.complete]
    for r in unfinished:
        s.add(Paragraph(_results.unfinished_text(r)))
    s.add(Heading("How loose is the bound"))
    if loose:
        for r in loose:
            _looseness(ctx, s, r)
    else:
        s.add(Paragraph("No complete thm10_looseness run in the results: run `python -m simulations run "
                        "thm10_looseness --trials N --out DIR`."))
    s.add(Heading("Privacy audit of A_PAP"))
    pap = [a for a in res.audits if str(a.get("target", "")).startswith("pap")]
    if pap:
        s.add(audit_table(pap, "A_PAP (PMW at cut-off 1, and at the papers' own cut-off) and its broken variant "
                               "(cover built from the private data): the real ones must pass, the broken one must be "
                               "caught."))
    else:
        s.add(Paragraph("No saved audit of A_PAP: `python -m simulations audit pap --out DIR` and "
                        "`python -m simulations audit pap_private_cover --out DIR`."))
    return [s]
