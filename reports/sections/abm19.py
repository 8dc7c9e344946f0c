"""ABM19 (semi-private learning): Theorem 3.1 with Lemma 3.3 (A_SSPP), Lemma 4.4 (the reduction B) and
Theorem 4.1 (the public-sample lower bound). Statements and formulas from ``bounds``, bound tables at
the runs' parameters, success rates with Clopper-Pearson intervals beside their baselines (``thm3_1``,
``lemma4_4``, ``thm4_1`` runs), the looseness and trade-off plots, and the audits of A_SSPP and B.
Every number is read: bound values from ``bounds``, rates from the run summaries."""

from __future__ import annotations

from reports.model import Badge, Heading, Paragraph, Section, Table
from reports.sections.audits import audit_table

ORDER = 20
AUDIT_TARGETS = ("a_sspp", "a_sspp_wrong_sensitivity", "reduction_b", "reduction_b_reuses_point")


def _ci(c: dict) -> str:
    return f"[{c['ci'][0]:.4f}, {c['ci'][1]:.4f}]"


def _statement(ctx, s: Section, result_id: str) -> None:
    """The result's statement, source, asymptotic and explicit forms, notes (from ``bounds``)."""
    import bounds
    r = bounds.get(result_id)
    s.add(Paragraph(f"{r.paper} {r.label} ({r.id}): {r.statement}"), Paragraph(f"Source: {r.source}."))
    s.add(*ctx.bound_formulas(r.id))
    for note in r.notes:
        s.add(Paragraph(f"Note: {note}"))


def _missing(s: Section, experiment: str) -> None:
    s.add(Paragraph(f"No complete {experiment} run in the results: run `python -m simulations run {experiment} "
                    "--trials N --out DIR`."))


# ---------------------------------------------------------------- Theorem 3.1 / Lemma 3.3

def _section(ctx, key: str, title: str, result_ids: tuple, experiment: str, heading: str, run_blocks,
             intro: tuple = (), bound_table=None) -> Section:
    """One ABM19 section: statements of ``result_ids``, intro paragraphs, an optional bound table, then
    ``run_blocks(ctx, section, run)`` for every complete run of ``experiment`` (or what to run)."""
    runs = ctx.results.runs_of(experiment)
    s = Section(key, title)
    s.add(Heading("Statements and formulas (from bounds)"))
    for rid in result_ids:
        _statement(ctx, s, rid)
    s.add(*(Paragraph(t) for t in intro))
    if bound_table is not None:
        s.add(Heading("Bound table"), bound_table(runs))
    s.add(Heading(heading))
    if not runs:
        _missing(s, experiment)
    for r in runs:
        run_blocks(ctx, s, r)
    return s




def _thm3_1_bounds(runs) -> Table:
    import bounds
    from bounds.where import defaults

    points = {(r.summary["alpha"], r.summary["beta"], r.summary["eps"], c["d"])
              for r in runs for c in r.summary["cases"].values()}
    if not points:  # the experiment's defaults (bounds/where.json)
        p = defaults("thm3_1")
        points = {(p["alpha"], p["beta"], p["eps"], d) for d in (1, 2, 3)}
    rows = []
    for alpha, beta, eps, d in sorted(points):
        t = bounds.compute("abm19:thm3.1", alpha=alpha, beta=beta, epsilon=eps, vc=d)
        cover = bounds.compute("abm19:lemma3.3", alpha=alpha, beta=beta, vc=d)
        rows.append((alpha, beta, eps, d, int(t["public_samples"]), float(t["log_cover_size"]),
                     int(t["private_samples"]), int(cover["public_samples"])))
    return Table(("alpha", "beta", "eps", "d", "n_pub (Thm 3.1)", "log|H~| (Sauer)", "n_priv (Thm 3.1)",
                  "n_pub (Lemma 3.3 alone)"), tuple(rows),
                 "bounds.compute('abm19:thm3.1', ...) and bounds.compute('abm19:lemma3.3', ...).")


def _thm3_1_run(ctx, s: Section, run) -> None:
    sm = run.summary
    conf = sm["confidence"]
    s.add(Heading(f"Run {run.path.name}: alpha = {sm['alpha']}, beta = {sm['beta']}, eps = {sm['eps']}, label noise "
                  f"{sm['noise']}, variant {sm['variant']}, {sm['trials']} trials", 4),
          Badge(sm["verdict"], sm["verdict_text"]))
    rows, base, loose = [], [], []
    for case, c in sm["cases"].items():
        a, cv, c33 = c["accuracy"], c["cover"], c["cover_lemma3_3"]
        rows.append((case, c["d"], c["n_bound"], c["m_bound"], a["rate"], _ci(a), a["verdict"], cv["rate"], _ci(cv),
                     cv["verdict"], c["m_lemma3_3"], c33["rate"], _ci(c33), c33["verdict"], c["excess"]["max"]))
        for role, group in (("opponent", c["baselines"]), ("no privacy: audit " + str(c.get("audit")),
                                                             c.get("privacy_blind", {})),
                            ("beside", c.get("beside", {}))):
            for name, b in group.items():
                if b is not None:
                    base.append((case, name, role, b["rate"], _ci(b), b["excess_mean"], b["text"]))
        fn, fm = c["least_fraction_n"], c["least_fraction_m"]
        smallest = min(v["fraction"] for v in c["looseness"].values())
        mark = lambda f: None if f is None else (f"<= {f:.4g}" if f == smallest else f"{f:.4g}")  # noqa: E731
        ratio = lambda f: None if f is None else (f">= {1 / f:.4g}" if f == smallest else f"{1 / f:.4g}")  # noqa: E731
        loose.append((case, c["n_bound"], mark(fn), ratio(fn), c["m_bound"], mark(fm), ratio(fm)))
    s.add(Table(("case", "d", "n_priv", "n_pub", "accuracy rate", f"{100 * conf:g}% CI", "verdict",
                 "alpha/2-cover rate", "CI", "verdict", "n_pub (3.3)", "alpha-cover rate (3.3)", "CI", "verdict",
                 "max excess"), tuple(rows),
                f"Accuracy: excess error <= alpha (target 1 - beta); cover: radius of H~ <= alpha/2 (target 1 - "
                f"beta/2) "
                f"and, from Lemma 3.3's own n_pub, <= alpha (target 1 - beta). Verdicts at "
                f"{sm['per_claim_confidence']:.4f} per claim (Bonferroni)."))
    s.add(Table(("case", "baseline", "role", "rate excess <= alpha", "CI", "mean excess", "what it is"), tuple(base),
                "Baselines in the same trials on the same draws (measurements, no verdicts): the opponents decide "
                "'informative'; the non-private learner cannot be told from A_SSPP by accuracy (the audit named "
                "judges A_SSPP's privacy). Public data alone is "
                "unlabeled: it cannot tell a target from its complement, so it cannot learn at all; labeled public "
                "data would need about d/alpha^2 examples (ABM19 Definition 2.3)."))
    s.add(Table(("case", "n_priv bound", "least fraction of n", "bound / least n", "n_pub bound",
                 "least fraction of n_pub", "bound / least n_pub"), tuple(loose),
                "Looseness: the least fraction f (of those run) such that at f and above the accuracy rate's lower "
                "Clopper-Pearson bound still reaches 1 - beta; the other size at its bound. Runs below the bound "
                "are below-bound measurements, never verdicts. '-': not even the bound qualifies at this many trials; "
                "'<=' / '>=': the smallest fraction run still qualified (censored)."))
    s.add(_thm3_1_plot(ctx, sm))


def _thm3_1_plot(ctx, sm):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    for k, (case, c) in enumerate(sm["cases"].items()):
        fr = sorted(c["looseness"].values(), key=lambda v: v["fraction"])
        x = [v["fraction"] for v in fr] + [1.0]
        for ax, key in zip(axes, ("n_reduced", "m_reduced")):
            y = [v[key]["rate"] for v in fr] + [c["accuracy"]["rate"]]
            lo = [v[key]["ci"][0] for v in fr] + [c["accuracy"]["ci"][0]]
            hi = [v[key]["ci"][1] for v in fr] + [c["accuracy"]["ci"][1]]
            ax.plot(x, y, "o-", color=f"C{k}", label=case, markersize=3)
            ax.fill_between(x, lo, hi, color=f"C{k}", alpha=0.15)
    for ax, name in zip(axes, ("private samples: fraction of n_priv (n_pub at bound)",
                               "public samples: fraction of n_pub (n_priv at bound)")):
        ax.axhline(1 - sm["beta"], color="grey", linestyle=":", label="1 - beta")
        ax.set_xscale("log")
        ax.set_xlabel(name)
        ax.grid(True, which="both", alpha=0.3)
    axes[0].set_ylabel("P[excess <= alpha]")
    axes[1].legend(fontsize=6)
    fig.suptitle("Theorem 3.1: success rate against the fraction of each explicit size")
    return ctx.figure(fig, "A_SSPP's success rate (two-sided Clopper-Pearson band) as one size shrinks below its "
                           "explicit bound; fraction 1 is the theorem's size.", "abm19-thm3_1-looseness")


# ---------------------------------------------------------------- Lemma 4.4


def _lemma4_4_run(ctx, s: Section, run) -> None:
    sm = run.summary
    s.add(Heading(f"Run {run.path.name}: n_priv = {sm['n_priv']:,}, alpha = {sm['alpha']}, eps = {sm['eps']}, "
                  f"variant {sm['variant']}, {sm['trials']} trials", 4),
          Badge(sm["verdict"], sm["verdict_text"]))
    rows, checks = [], []
    for key, c in sorted(sm["cells"].items(), key=lambda kv: (kv[1]["class"], kv[1]["n_pub"])):
        b, a = c["claim_4_6"], c["premise_A"]
        rows.append((c["class_name"], c["n_pub"], c["p"], c["n_tilde"], c["error_bound"], c["max_error_in_H"],
                     a["rate"], _ci(a), b["rate"], _ci(b), b["verdict"], c["err_B"]["mean"],
                     c["err_B"]["quantile_15_16"]))
        ro = c["runout"]
        checks.append((c["class_name"], c["n_pub"], ro["rate"], c["exact_runout"], c["runout_bound"],
                       "passed" if ro["passed"] else "FAILED",
                       c["tv_coupling"]["rate"], c["tv"], c["each_point_used_once"]["rate"],
                       c["mixture_identity_max_deviation"]))
    s.add(Table(("class", "n_pub", "p", "n~", "bound 100 n_pub alpha", "max err in H", "premise: A on D_(p)",
                 "CI", "B: err <= bound", "CI", "status", "mean err(B)", "err(B) 15/16-quantile"), tuple(rows),
                "Premise: A_SSPP's excess on i.i.d. D_(p) samples <= alpha (Lemma 4.4 needs rate >= 21/22, "
                "corrected from 17/18). B's claim is judged only where the premise is established (lower CP "
                "bound >= 21/22) and the bound is below max_H err; otherwise below-bound (premise not shown) or "
                "floor check (vacuous)."))
    s.add(Table(("class", "n_pub", "run-out rate", "exact P[Bin(n_priv-1, p) >= n~]", "Chernoff bound",
                 "floor check (CI contains exact)",
                 "TV coupling rate", "exact TV term", "each point used once", "identity max deviation"), tuple(checks),
                "Run-out: PrivSamp exhausted S~ before n_priv draws (exact tail and Chernoff bound; the claim < 1/100 "
                "is judged at small sizes below). TV: P[some b_i = 1 among "
                "n_pub] against 1 - (1 - p)^n_pub. 'each point used once' and the identity err(h; D_(p)) = p err(h; D) "
                "+ (1 - p)/2 are floor checks."))
    small = []
    for case, c in sm["runout_small"].items():
        for label in ("printed", "corrected"):
            v = c[label]
            small.append((case, label, v["n_tilde"], 1 - v["rate"], _ci(v), v["exact_runout"], v["verdict"]))
    if small:
        s.add(Table(("n_priv:n_pub", "n~", "size", "run-out rate", "CI (of not running out)", "exact", "status"),
                    tuple(small),
                    "Erratum (Claim 4.6, Chernoff step, docs/ERRATA.md): with the printed n~ = ceil(n_priv/(10 n_pub)) "
                    "PrivSamp runs out far more often than 1/100 at small n_priv ('violated' is the erratum showing); "
                    "the corrected n~ >= 4 does not. Only the corrected size enters the overall verdict."))


# ---------------------------------------------------------------- Theorem 4.1


def _thm4_1_run(ctx, s: Section, run) -> None:
    sm = run.summary
    s.add(Heading(f"Run {run.path.name}: n_priv = {sm['n_priv']:,}, eps = {sm['eps']}, variant {sm['variant']}, "
                  f"{sm['trials']} trials", 4),
          Badge(sm["verdict"], sm["verdict_text"]))
    first = next(iter(sm["grids"].values()))
    s.add(Table(("alpha", "boundary 1/(1600 alpha)", "least n_pub allowed (Thm 4.1)", "n_pub A_SSPP needs (Thm 3.1)",
                 "n_priv A_SSPP needs (Thm 3.1)"),
                tuple((t["alpha"], t["boundary"], t["n_pub_min"], t["n_pub_a_sspp"], t["n_priv_a_sspp"])
                      for t in sorted(first["alphas"].values(), key=lambda t: -t["alpha"])),
                "bounds.compute('abm19:thm4.1', alpha) and bounds.compute('abm19:thm3.1', alpha, beta=1/22, "
                "epsilon=0.1, vc=1)."))
    rows = []
    for N, g in sorted(sm["grids"].items(), key=lambda kv: int(kv[0])):
        for t in sorted(g["alphas"].values(), key=lambda t: -t["alpha"]):
            for m, c in sorted(t["cells"].items(), key=lambda kv: int(kv[0])):
                pred = c["lower_bound_prediction"]
                rows.append((int(N), g["littlestone_dimension"], t["alpha"], int(m), c["below_boundary"],
                             c["A_success"]["rate"], _ci(c["A_success"]), c["B_within_100_npub_alpha"]["rate"],
                             c["B_within_1_16"]["rate"], c["B_error_mean"],
                             pred["verdict"]))
    s.add(Table(("N", "Littlestone dim", "alpha", "n_pub", "below boundary", "A_SSPP: excess <= alpha", "CI",
                 "B: err <= 100 n_pub alpha", "B: err <= 1/16", "mean err(B)", "status (failure rate >= 1/22)"),
                tuple(rows),
                "A_SSPP and B (on A_SSPP) on realizable thresholds, uniform marginal, target at N/2. Below the "
                "boundary "
                "the status is the lower bound's prediction on this instance (failure rate >= 1/22)."))
    s.add(Table(("N", "no-public learner: mean excess", *(f"P[excess <= {a}]" for a in sm["alphas"])),
                tuple((int(N), g["no_public"]["excess_mean"], *(v["rate"] for v in g["no_public"]["success"].values()))
                      for N, g in sorted(sm["grids"].items(), key=lambda kv: int(kv[0]))),
                "The exponential mechanism over all N + 1 thresholds with the same n_priv and eps and no public data."))
    s.add(_thm4_1_plot(ctx, sm))


def _thm4_1_plot(ctx, sm):
    import matplotlib.pyplot as plt
    import numpy as np

    grids = sorted(sm["grids"].items(), key=lambda kv: int(kv[0]))
    fig, axes = plt.subplots(1, len(grids) + 1, figsize=(4 * (len(grids) + 1), 3.8), layout="constrained")
    alphas = sorted(sm["alphas"])
    n_pubs = sorted(sm["n_pubs"])
    for ax, (N, g) in zip(axes, grids):
        z = np.array([[g["alphas"][repr(a)]["cells"][str(m)]["A_success"]["rate"] for m in n_pubs] for a in alphas])
        im = ax.imshow(z, origin="lower", aspect="auto", vmin=0, vmax=1, cmap="viridis",
                       extent=(-0.5, len(n_pubs) - 0.5, -0.5, len(alphas) - 0.5))
        bx = [np.interp(np.log(1 / (1600 * a)), np.log(n_pubs), np.arange(len(n_pubs)), left=-0.5,
                        right=len(n_pubs) - 0.5)
              for a in alphas]
        ax.plot(bx, range(len(alphas)), "w--", label="n_pub = 1/(1600 alpha)")
        ax.set_xticks(range(len(n_pubs)), [str(m) for m in n_pubs])
        ax.set_yticks(range(len(alphas)), [f"{a:g}" for a in alphas])
        ax.set_xlabel("n_pub")
        ax.set_ylabel("alpha")
        ax.set_title(f"A_SSPP success, N = {N}", fontsize=9)
        ax.legend(fontsize=6, loc="upper right")
    fig.colorbar(im, ax=list(axes[:len(grids)]), fraction=0.03, label="P[excess <= alpha]")
    ax = axes[-1]
    for k, (N, g) in enumerate(grids):
        t = next(iter(g["alphas"].values()))
        ax.plot(n_pubs, [t["cells"][str(m)]["B_error_mean"] for m in n_pubs], "o-", color=f"C{k}", label=f"B, N = {N}")
    ax.axhline(1 / 16, color="grey", linestyle=":", label="1/16 (Theorem 4.3)")
    ax.set_xscale("log")
    ax.set_xlabel("n_pub")
    ax.set_ylabel("mean err(B; D)")
    ax.legend(fontsize=6)
    ax.grid(True, which="both", alpha=0.3)
    fig.suptitle("Theorem 4.1: the (n_pub, alpha) trade-off on finite grids")
    return ctx.figure(fig, "Left: A_SSPP's success rate P[excess <= alpha] per (n_pub, alpha), with the lower bound's "
                           "boundary (dashed; left of it no learner can succeed on an infinite-Littlestone class). "
                           "Right: B's mean error against Theorem 4.3's 1/16.", "abm19-thm4_1-tradeoff")


LEMMA4_4_INTRO = (
    "On thresholds A_SSPP is either vacuous under Lemma 4.4 (100 n_pub alpha at least the largest error of any "
    "threshold) or not an (alpha, 1/22)-learner on the mixture D_(p) at affordable sizes: its cover comes from n_pub "
    "dummy points and only 1 in 100 n_pub private examples is real. The class {h*, not h*} is where premise and "
    "conclusion are both non-trivial.",)
THM4_1_INTRO = (
    "What a finite grid can and cannot show: Theorem 4.1 concerns classes of infinite Littlestone dimension. "
    "Thresholds on N points have Littlestone dimension floor(log2(N + 1)) and are privately learnable without public "
    "data, so no finite grid exhibits the impossibility; the runs show where A_SSPP and B succeed in the (n_pub, "
    "alpha) plane against the boundary, and check the lower bound's prediction on these instances only.",)


def build(ctx) -> list[Section]:
    sections = [
        _section(ctx, "abm19-thm3-1", "ABM19 Theorem 3.1 and Lemma 3.3: A_SSPP (semi-supervised semi-private learning)",
                 ("abm19:thm3.1", "abm19:lemma3.3"), "thm3_1", "Success rates, baselines, looseness", _thm3_1_run,
                 bound_table=_thm3_1_bounds),
        _section(ctx, "abm19-lemma4-4", "ABM19 Lemma 4.4: the public-data reduction B (Algorithms 2-4)",
                 ("abm19:lemma4.4",), "lemma4_4", "B on A_SSPP: error, premise, run-out, TV", _lemma4_4_run,
                 intro=LEMMA4_4_INTRO),
        _section(ctx, "abm19-thm4-1", "ABM19 Theorem 4.1: public samples a semi-private learner needs",
                 ("abm19:thm4.1",), "thm4_1", "Trade-off", _thm4_1_run, intro=THM4_1_INTRO),
    ]
    audits = [a for a in ctx.results.audits if a.get("target") in AUDIT_TARGETS]
    last = sections[-1]
    last.add(Heading("Privacy audits of A_SSPP and B"))
    if audits:
        last.add(audit_table(audits, "A_SSPP (Lemma 3.2) and B (Claim 4.5) must pass; their broken variants (wrong "
                                     "sensitivity; a private point reused) must be caught."))
    else:
        last.add(Paragraph("No saved audit: `python -m simulations audit a_sspp --out DIR` (and "
                           "a_sspp_wrong_sensitivity, "
                           "reduction_b, reduction_b_reuses_point)."))
    for k, sec in enumerate(sections):
        sec.order = ORDER + k / 10
    return sections
