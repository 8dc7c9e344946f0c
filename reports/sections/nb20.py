"""NB20 Theorems 7 and 11 (A_AgPrivCl, A_UnvPrivCl): statements and notes (``bounds``), the runs of the
``thm7`` and ``thm11`` experiments (rates with Clopper-Pearson intervals, below-bound statuses with how far
below, the BTT18 and ERM baselines, the negative controls, the pure-noise counterexample to Lemma 9's
printed query count, the switch at m_o), the Theorem 7 / Theorem 11 crossover plot (bounds and the sizes
the runs needed, from the thm11 summaries) and the NB20 audits. Every number is read, never computed
from data here."""

from __future__ import annotations

from bounds.guarantees import approx_dp
from reports.model import Badge, Heading, Paragraph, Section, Table
from reports.sections.audits import audit_table

ORDER = 40


def _statement(s: Section, rid: str) -> None:
    import bounds

    r = bounds.get(rid)
    s.add(Paragraph(f"{r.paper} {r.label} ({r.id}): {r.statement}"), Paragraph(f"Source: {r.source}."))
    for note in r.notes:
        s.add(Paragraph(note))


def _ci(c: dict) -> str:
    return f"[{c['ci'][0]:.3f}, {c['ci'][1]:.3f}]"


def _mean(v) -> str:
    return "-" if v is None else f"{v['mean']:.3f}"


def _run_heading(s: Section, run) -> dict:
    sm = run.summary
    s.add(Heading(f"Run {run.path.name}: alpha = {sm['alpha']}, beta = {sm['beta']}, eps = {sm['eps']}, "
                  f"delta = {sm['delta']}, m = {sm['num_queries']}, gamma = {sm['noise']}, {sm['trials']} trials", 4),
          Badge(sm["verdict"], sm["verdict_text"]))
    return sm


def _thm7_run(s: Section, run) -> None:
    sm = _run_heading(s, run)
    rows = []
    for kind, c in sm["cases"].items():
        acc = c["accuracy"]
        rows.append((kind, c["d"], c["n_used"], f"{c['n_bound']:.3g}", f"{c['n_fraction_of_bound']:.2g}",
                     f"{c['min_queries']:.0f}", c["k"], c["btt18_k"],
                     f"{acc['agprivcl']['rate']:.2f} {_ci(acc['agprivcl'])}", acc["agprivcl"]["status"],
                     f"{acc['btt18']['rate']:.2f}", f"{acc['erm']['rate']:.2f}",
                     _mean(c["excess"]["agprivcl"]), _mean(c["excess"]["btt18"]), _mean(c["excess"]["erm"]),
                     f"{c['unstable']['mean']:.2f} / {c['rounds']}", f"{c['halted_rate']:.2f}",
                     f"{c['negative_control']['rate']:.2f} ({c['negative_control']['status']})",
                     approx_dp(c["spent"]["eps"], c["spent"]["delta"])))
    s.add(Table(("class", "d", "n used", "n bound (thm7)", "n/bound", "Lemma 9 m (corrected)", "k", "BTT18 k",
                 "A_AgPrivCl rate (CI)", "status", "BTT18 rate", "ERM rate", "excess A_AgPrivCl", "excess BTT18",
                 "excess ERM", "unstable / floor(T)", "halted", "control rate", "declared guarantee"),
                tuple(rows),
                "rate = fraction of trials with average error over the m queries <= alpha + gamma (target 1 - beta); "
                "excess = mean average error minus gamma. Below the theorem's n (and Lemma 9's m) the status is "
                "below-bound, a measurement. BTT18 = A_SubSamp alone on all of S (Lemma 4 guarantees only "
                "alpha + 3 gamma); control = step 8's majority inverted (must be violated)."))
    ce = sm["counterexample"]
    s.add(Heading("Counterexample: Lemma 9's printed query count on pure-noise labels", 4),
          Paragraph(f"gamma = 1/2 (every hypothesis errs w.p. 1/2), alpha = {ce['alpha']}, beta = {ce['beta']}: the "
                    "average error over m queries is Bin(m, 1/2)/m for every algorithm at every n, so these runs "
                    "stand for Theorem 7's n."),
          Table(("query count", "m", "rate (avg error <= alpha + 1/2)", "CI", "status"),
                (("printed 8 log(1/(alpha beta))/alpha", ce["m_printed"], f"{ce['printed']['rate']:.3f}",
                  _ci(ce["printed"]), ce["printed"]["status"]),
                 ("corrected (Bernstein, bounds min_queries)", ce["m_corrected"], f"{ce['corrected']['rate']:.3f}",
                  _ci(ce["corrected"]), ce["corrected"]["status"])),
                f"target 1 - beta = {1 - ce['beta']:g}."))


def _least_n(runs) -> Table:
    """Across thm7 runs at one setting: the least n at which A_AgPrivCl's (and BTT18's) success rate has its
    one-sided lower Clopper-Pearson bound >= 1 - beta, against Theorem 7's explicit n."""
    groups: dict = {}
    for r in runs:
        sm = r.summary
        for kind, c in sm["cases"].items():
            key = (kind, sm["alpha"], sm["beta"], sm["eps"], sm["delta"], sm["num_queries"], sm["noise"])
            g = groups.setdefault(key, {"n_bound": c["n_bound"], "tried": [], "agprivcl": [], "btt18": []})
            g["tried"].append(c["n_used"])
            for a in ("agprivcl", "btt18"):
                if c["accuracy"][a].get("lower", 0.0) >= c["accuracy"][a]["target"]:
                    g[a].append(c["n_used"])
    rows = []
    for key, g in sorted(groups.items()):
        least = {a: min(g[a]) if g[a] else None for a in ("agprivcl", "btt18")}
        rows.append((*key, ", ".join(f"{n:,}" for n in sorted(set(g["tried"]))), f"{g['n_bound']:.3g}",
                     f"{least['agprivcl']:,}" if least["agprivcl"] else "none tried",
                     f"{g['n_bound'] / least['agprivcl']:.3g}" if least["agprivcl"] else "-",
                     f"{least['btt18']:,}" if least["btt18"] else "none tried"))
    return Table(("class", "alpha", "beta", "eps", "delta", "m", "gamma", "n tried", "n bound (thm7)",
                  "least n: A_AgPrivCl holds", "bound / least n", "least n: BTT18 holds"), tuple(rows),
                 "least n = the smallest n among the runs at which the success rate's one-sided lower "
                 "Clopper-Pearson bound reaches 1 - beta (an empirical size, censored by the sizes tried).")


def _thm11_run(s: Section, run) -> None:
    sm = _run_heading(s, run)
    rows = []
    for kind, c in sm["cases"].items():
        rows.append((kind, c["m_o"], c["m_o_printed"], c["n_used"], f"{c['n_bound']:.3g}",
                     f"{c['n_fraction_of_bound']:.2g}", f"{c['accuracy']['rate']:.2f} {_ci(c['accuracy'])}",
                     c["accuracy"]["status"], _mean(c["excess_first"]), _mean(c["excess_second"]),
                     _mean(c["h_priv_excess"]), _mean(c["erm_excess"]),
                     _mean(c["thm7_excess"]) if c["thm7_runs"] else f"needs n >= {c['thm7_n_needed']:,}",
                     c["switch"]["status"], approx_dp(c["privacy"]["eps"], c["privacy"]["delta"]),
                     f"{c['privacy']['printed_budget_eps']:.3f}",
                     f"{c['negative_control']['rate']:.2f} ({c['negative_control']['status']})"))
    s.add(Table(("class", "m_o", "m_o printed", "n used", "n bound (thm11)", "n/bound", "rate (CI)", "status",
                 "excess phase 1", "excess phase 2", "h_priv excess (population)", "ERM excess",
                 "thm7 on all m", "switch at m_o", "declared guarantee", "printed Alg 4 eps", "control"),
                tuple(rows),
                "phase 1 = the first m_o queries (A_AgPrivCl at eps/2), phase 2 = h_priv = A_SSPP(S, first m_o "
                "queries, eps/2). 'printed Alg 4 eps' = the Lemma 8 total at eps plus eps (the double spend). "
                "control = h_priv's answers inverted."))


def _crossover(ctx, runs):
    import matplotlib.pyplot as plt

    sm = runs[-1].summary
    fig, ax = plt.subplots(figsize=(7, 4))
    for k, (kind, c) in enumerate(sm["cases"].items()):
        rows = c["crossover"]
        m = [r["m"] for r in rows]
        ax.plot(m, [r["thm7_n_bound"] for r in rows], "-", color=f"C{2 * k}", label=f"{kind}: Thm 7 bound")
        ax.plot(m, [r["thm11_n_bound"] for r in rows], "--", color=f"C{2 * k}", label=f"{kind}: Thm 11 bound")
        ax.plot(m, [r["thm7_n_run"] for r in rows], "o-", color=f"C{2 * k + 1}", markersize=3,
                label=f"{kind}: A_AgPrivCl needs (run)")
        ax.plot(m, [r["thm11_n_run"] for r in rows], "s--", color=f"C{2 * k + 1}", markersize=3,
                label=f"{kind}: A_UnvPrivCl needs (run)")
        ax.axvline(c["m_o"], color=f"C{2 * k}", linestyle=":", alpha=0.5)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("number of queries m")
    ax.set_ylabel("private samples n")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=6)
    fig.suptitle("Theorem 7 against Theorem 11 in the number of queries")
    return ctx.figure(fig, f"Explicit n of Theorems 7 and 11 (bounds) and the n each algorithm needs to run with "
                           f"{sm['per_subsample']} example(s) per sub-sample (n' >= per_subsample k(m)); dotted: m_o. "
                           "Theorem 11's n stops growing at m_o.", "nb20-crossover")


def build(ctx) -> list[Section]:
    res = ctx.results
    out = []
    for rid, exp, title in (("nb20:thm7", "thm7",
                             "NB20 Theorem 7: A_AgPrivCl (private agnostic classification queries)"),
                            ("nb20:thm11", "thm11", "NB20 Theorem 11: A_UnvPrivCl (any number of queries)")):
        s = Section(f"nb20-{exp}", title)
        s.add(Heading("Statement and notes (from bounds)"))
        _statement(s, rid)
        runs = res.runs_of(exp)
        s.add(Heading("Runs"))
        if not runs:
            s.add(Paragraph(f"No complete {exp} run in the results: run `python -m simulations run {exp} --trials N "
                            "--out DIR`."))
        for r in runs:
            (_thm7_run if exp == "thm7" else _thm11_run)(s, r)
        if exp == "thm7" and runs:
            s.add(Heading("Least private sample at which the guarantee held empirically"), _least_n(runs))
        if exp == "thm11" and runs:
            s.add(Heading("Crossover in the number of queries"), _crossover(ctx, runs))
        out.append(s)
    audits = [a for a in res.audits if str(a.get("target", "")).startswith("nb20")]
    if audits:
        out[-1].add(Heading("Privacy audits (NB20)"),
                    audit_table(audits, "A_stab on a vote margin and A_UnvPrivCl's A_SSPP phase; the broken variants "
                                        "(margin at sensitivity 1, eps spent twice) must be caught."))
    else:
        out[-1].add(Paragraph("No saved NB20 audit: `python -m simulations audit nb20_a_stab --out DIR` (and "
                              "nb20_a_stab_margin_sensitivity_1, nb20_unvprivcl_sspp, nb20_unvprivcl_double_spend)."))
    return out
