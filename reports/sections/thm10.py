"""BCMNUW20 Theorem 10 (A_PAP): statement and rendered formulas (``bounds``), the bound table at the runs'
parameters, the success rates with Clopper-Pearson intervals (``thm10`` runs), the looseness search
(``thm10_looseness`` runs) with a plot of empirical against theoretical sample sizes over alpha, and the
A_PAP audits. Every number is read: bound values from ``bounds``, rates from the run summaries."""

from __future__ import annotations

from reports.model import Badge, Heading, Paragraph, Section, Table
from reports.sections.audits import audit_table

ORDER = 10
RESULT_ID = "bcmnuw20:thm10"
EXPERIMENT = "thm10"
LOOSENESS = "thm10_looseness"


def _statement(ctx, s: Section) -> None:
    import bounds
    from bounds import show

    r = bounds.get(RESULT_ID)
    s.add(Paragraph(f"{r.paper} {r.label} ({r.id}): {r.statement}"), Paragraph(f"Source: {r.source}."))
    for q in r.quantities:
        f = show.forms(r, q)
        for form in ("asymptotic", "explicit"):
            if form in f:
                text, tex = f[form]
                s.add(ctx.formula(f"{q.symbol} = {tex}" if form == "asymptotic" else tex,
                                  caption=f"{q.name} ({form}): {q.description}"))
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
                     float(c["log_domain_size"]), int(c["private_samples"])))
    return rows


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
    if not points:
        from simulations.experiments import thm10

        p = thm10.Params()
        dims = tuple(sorted({thm10.class_dimensions(c.split(":")[0], p.num_points, p.stump_dim) for c in p.cases}))
        points.add((p.alpha, p.beta, p.eps, p.delta, dims))
    rows = []
    for alpha, beta, eps, delta, dims in sorted(points):
        rows.extend(_bound_rows(alpha, beta, eps, delta, dims))
    return Table(("alpha", "beta", "eps", "delta", "d", "p", "m (Lemma 11)", "log|H~| (Sauer)", "log|X~| (Claim 3)",
                  "n (Lemma 7 at alpha/2, beta/2)"), tuple(sorted(set(rows))),
                 f"bounds.compute('{RESULT_ID}', ...): the explicit chain of Theorem 10's proof.")


def _rates(s: Section, run) -> None:
    sm = run.summary
    s.add(Heading(f"Run {run.path.name}: alpha = {sm['alpha']}, beta = {sm['beta']}, eps = {sm['eps']}, "
                  f"delta = {sm['delta']}, {sm['trials']} trials", 4),
          Badge(sm["verdict"], sm["verdict_text"]))
    rows = []
    for case, c in sm["cases"].items():
        cov, acc = c["cover"], c["accuracy"]
        rows.append((case, c["d"], c["p"], c["m_used"], c["n_used"], c["n_bound"], c["n_fraction_of_bound"],
                     cov["rate"], f"[{cov['ci'][0]:.4f}, {cov['ci'][1]:.4f}]", cov["verdict"],
                     acc["rate"], f"[{acc['ci'][0]:.4f}, {acc['ci'][1]:.4f}]", acc["verdict"],
                     c["error"]["max"], c["cover_radius"]["max"], c["spent_eps_max"]))
    conf = sm["confidence"]
    s.add(Table(("case", "d", "p", "m used", "n used", "n bound", "n fraction", "cover rate",
                 f"cover {100 * conf:g}% CI", "cover verdict", "accuracy rate", f"accuracy {100 * conf:g}% CI",
                 "accuracy verdict", "max Err", "max radius", "spent eps"), tuple(rows),
                f"Cover: H~ an alpha/4-cover (target 1 - beta/2); accuracy: Err_D,H(G) <= alpha (target 1 - beta). "
                f"Two-sided Clopper-Pearson {100 * conf:g}% intervals; verdicts at {sm['per_claim_confidence']:.4f} "
                "per claim (Bonferroni). m used = ceil(m_scale * m bound); n used = min(ceil(n_scale * n bound), n_max)."))
    capped = [k for k, c in sm["cases"].items() if c["n_capped"]]
    if capped:
        s.add(Paragraph(f"Not run at the bound's n: in {len(capped)} case(s) Theorem 10's n exceeds this machine's "
                        f"per-trial limit n_max = {sm['n_max']:,}; these trials ran at n_max (the 'n fraction' "
                        "column). The guarantee is therefore tested at a smaller n than the theorem needs: a "
                        "'holds' there is stronger evidence, a failure would not refute the theorem."))


def _looseness(ctx, s: Section, run) -> None:
    sm = run.summary
    s.add(Heading(f"Looseness run {run.path.name}: {sm['trials']} trials per grid point, grid factor {sm['factor']}", 4),
          Badge(sm["verdict"], sm["verdict_text"]), Paragraph(f"Rule: {sm['rule']}."))
    rows = []
    for r in sm["rows"]:
        rows.append((r["alpha"], r["case"], r["n_bound"], r["largest_n_run"], r["least_n"],
                     ("<= " if r["least_n_censored"] else "") + (f"{r['least_n']:,}" if r["least_n"] else "-"),
                     r["n_ratio"], r["m_bound"], r["least_m"], r["m_ratio"], r["least_m_cover"]))
    s.add(Table(("alpha", "case", "n bound", "largest n run", "least n", "least n (censoring)", "bound/least n",
                 "m bound", "least m", "bound/least m", "least m (cover)"), tuple(rows),
                "least n: m fixed at the bound's m; least m: n fixed at min(bound's n, n_max). '<=' marks a least "
                "size equal to the smallest grid size tried (the ratio is then a lower bound)."))
    s.add(_plot(ctx, sm))


def _plot(ctx, sm):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    cases = sorted({r["case"] for r in sm["rows"]})
    for k, case in enumerate(cases):
        rows = sorted((r for r in sm["rows"] if r["case"] == case), key=lambda r: r["alpha"])
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
    axes[0].axhline(sm["n_max"], color="grey", linestyle=":", label="n_max (machine limit)")
    for ax, q, name in zip(axes, ("n", "m"), ("private samples n", "public samples m")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("alpha")
        ax.set_ylabel(name)
        ax.grid(True, which="both", alpha=0.3)
    axes[1].legend(fontsize=6)
    axes[0].legend(fontsize=6)
    fig.suptitle("Theorem 10: explicit bound vs least empirical sample size")
    return ctx.figure(fig, "Empirical (least grid size at which Err <= alpha holds w.p. >= 1 - beta at the stated "
                           "confidence) against Theorem 10's explicit sizes, log scales.", "thm10-looseness")


def build(ctx) -> list[Section]:
    res = ctx.results
    runs = [r for r in res.runs_of(EXPERIMENT)]
    loose = [r for r in res.runs_of(LOOSENESS)]
    s = Section("thm10", "BCMNUW20 Theorem 10: A_PAP (public-data-assisted private query release)")
    s.add(Heading("Statement and formulas (from bounds)"))
    _statement(ctx, s)
    s.add(Heading("Bound table"), _bound_table(runs, loose))
    s.add(Heading("Success rates"))
    if runs:
        for r in runs:
            _rates(s, r)
    else:
        s.add(Paragraph("No complete thm10 run in the results: run `python -m simulations run thm10 --trials N "
                        "--out DIR`."))
    unfinished = [r for r in res.runs_of(EXPERIMENT, False) + res.runs_of(LOOSENESS, False) if not r.complete]
    for r in unfinished:
        s.add(Paragraph(f"Unfinished run {r.path} (status {r.manifest.get('status')}) is not reported; finish it "
                        f"with `python -m simulations resume {r.path}`."))
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
        s.add(audit_table(pap, "A_PAP and its broken variant (cover built from the private data): the real one must "
                               "pass, the broken one must be caught."))
    else:
        s.add(Paragraph("No saved audit of A_PAP: `python -m simulations audit pap --out DIR` and "
                        "`python -m simulations audit pap_private_cover --out DIR`."))
    return [s]
