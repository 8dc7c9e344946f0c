"""Report section: LVSUW21 (PMW^Pub) -- Proposition 4.3, Theorems 4.4 and 4.5, Figures 1-3 on CPS1988.

Reads only: run directories of ``simulations`` (``summary.json`` and ``manifest.json`` of the
experiments ``prop4_3``, ``thm4_4``, ``lvsuw21_figures``), bound values from ``bounds``
(Theorem 4.5's eps(delta) infimum and closed bound), and the newest ``bench-table1*.json`` below the results directory
(``benchmarks/bench_table1.py
--save``: LVSUW21 Table 1 measured; untrusted, read by :func:`read_table1`). It never runs a trial.

Plugin interface (:mod:`reports.builder`): ``ORDER`` and ``build(ctx)``. Inside:
``collect(results_root) -> dict`` (JSON-able data: the newest complete run of each experiment
found under ``results_root``, or None); ``blocks(data)`` (the content model's blocks);
``figures(data, out_dir) -> list[Path]`` (matplotlib PNGs of Figures 1-3 with the best mixture
error shaded as the floor, LVSUW21 Figure 1's convention).
"""

from __future__ import annotations

import json
from pathlib import Path

ORDER = 30
SECTION_ID = "lvsuw21"
TITLE = "LVSUW21: PMW^Pub, public-data-assisted multiplicative weights"
RESULT_IDS = ("lvsuw21:prop4.3", "lvsuw21:thm4.4", "lvsuw21:thm4.5")
EXPERIMENTS = ("prop4_3", "thm4_4", "lvsuw21_figures", "lemma4_2")

#: LVSUW21 Table 1: seconds per iteration on one core of an i5-4690K (None: "infeasible"), by (domain, algorithm)
TABLE1_PAPER = {("Red.", "PMW^Pub"): 0.185, ("Red.", "MWEM"): 0.919, ("FULL", "PMW^Pub"): 2.021,
                ("FULL", "MWEM"): None}
#: the saved benchmark's format (``benchmarks/bench_table1.py --save``)
TABLE1_FORMAT = "benchmarks-table1/1"
TABLE1_GLOB = "bench-table1*.json"
_TABLE1_MAX_BYTES = 64 << 10
_TABLE1_MAX_DEPTH = 4
_TABLE1_IMPLS = ("ours", "authors")


def _table1_files(root: Path, notes: list | None = None):
    """``bench-table1*.json`` regular files below ``root``, found by the results tree's one walker
    (:func:`simulations.store.walk`: no link followed, no directory read twice; what it skips goes to ``notes``)."""
    from simulations import store

    for _, entries in store.walk(root, notes, max_depth=_TABLE1_MAX_DEPTH):
        for e in entries:
            if e.match(TABLE1_GLOB) and not e.is_symlink() and e.is_file():
                yield e


def _check_table1(doc) -> dict:
    """The saved Table 1 checked field by field (ValueError naming the first bad field); only known fields kept."""
    import math

    if not isinstance(doc, dict) or doc.get("format") != TABLE1_FORMAT:
        raise ValueError(f"not of format {TABLE1_FORMAT}")
    created = doc.get("created")
    if not isinstance(created, str) or len(created) > 40:
        raise ValueError("created: not a short string")

    def number(v, what):
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            raise ValueError(f"{what}: not a finite number >= 0")
        return float(v)

    settings = doc.get("settings")
    if not isinstance(settings, dict):
        raise ValueError("settings: not an object")
    kept = {k: int(number(settings.get(k), f"settings.{k}")) for k in ("iterations", "seeds", "private_rows",
                                                                          "public_rows")}
    rows = doc.get("rows")
    if not isinstance(rows, list) or not 1 <= len(rows) <= 16:
        raise ValueError("rows: not a list of 1-16 rows")
    out_rows = {}
    for i, r in enumerate(rows):
        if not isinstance(r, dict):
            raise ValueError(f"rows[{i}]: not an object")
        key = (r.get("domain"), r.get("algorithm"))
        if key not in TABLE1_PAPER or r.get("implementation") not in _TABLE1_IMPLS:
            raise ValueError(f"rows[{i}]: unknown domain / algorithm / implementation")
        sec = r.get("seconds_per_iteration")
        note = r.get("note")
        if not isinstance(note, str) or len(note) > 400:
            raise ValueError(f"rows[{i}].note: not a string of at most 400 characters")
        out_rows[(*key, r["implementation"])] = (None if sec is None
                                                 else number(sec, f"rows[{i}].seconds_per_iteration"),
                                                 note)
    return {"created": created, "load_average": number(doc.get("load_average", 0), "load_average"),
            "cpu_seconds": number(doc.get("cpu_seconds", 0), "cpu_seconds"), "settings": kept, "rows": out_rows}


def read_table1(results_root) -> dict | None:
    """The newest valid saved Table 1 below ``results_root`` ({"path", "created", "settings", "rows": {(domain,
    algorithm, implementation): (s / iteration or None, note)}}), with the files that failed the checks
    under "problems"; None when there is none. Each file is read only up to 64 KB and never executed."""
    if results_root is None:
        return None
    best, problems = None, []
    for path in _table1_files(Path(results_root), []):  # the skipped links are the result set's problems already
        try:
            if path.stat().st_size > _TABLE1_MAX_BYTES:
                raise ValueError(f"larger than {_TABLE1_MAX_BYTES} bytes")
            with open(path, "rb") as fh:
                doc = _check_table1(json.loads(fh.read(_TABLE1_MAX_BYTES + 1)))
        except (OSError, ValueError, RecursionError) as exc:    # json.JSONDecodeError is a ValueError
            problems.append(f"{path}: {exc}")
            continue
        if best is None or doc["created"] > best["created"]:
            best = {**doc, "path": str(path)}
    if best is None and not problems:
        return None
    return {**(best or {}), "problems": problems}


def _runs(results_root: Path):
    """(manifest, summary, path) of every complete run below ``results_root``, each summary recomputed from its
    records (:func:`reports.results.load`), never read back from summary.json."""
    from reports import results

    for r in results.load(results_root).runs:
        if r.complete:
            yield r.manifest, r.summary, r.path


def collect(results_root=None, runs=None) -> dict:
    """The newest complete run of each LVSUW21 experiment, Theorem 4.5's conversions, the benchmark.

    ``runs`` is an iterable of (manifest, summary, path), e.g. the report builder's result set;
    without it the run directories below ``results_root`` are read.
    """
    import bounds

    data: dict = {"runs": {}, "thm4_5": []}
    for m, s, path in (runs if runs is not None else _runs(Path(results_root))):
        name = m.get("experiment")
        if name in EXPERIMENTS and m.get("finished_at"):
            entry = {"summary": s, "params": m.get("params"), "seed": m.get("root_seed"),
                     "code_version": m.get("code_version"), "finished_at": m["finished_at"], "path": str(path)}
            prev = data["runs"].get(name)
            if prev is None or m["finished_at"] > prev["finished_at"]:
                data["runs"][name] = entry
            if name == "prop4_3":     # several networks, shifts and controls: the newest run of each parameter set
                key = json.dumps(m.get("params"), sort_keys=True)
                old = data.setdefault("prop4_3_runs", {}).get(key)
                if old is None or m["finished_at"] > old["finished_at"]:
                    data["prop4_3_runs"][key] = entry
    for eps_tilde in (0.1, 0.5, 1.0):
        for delta in (1e-6, 1e-9):
            q = bounds.compute("lvsuw21:thm4.5", eps_tilde=eps_tilde, delta=delta, iterations=100).quantities
            data["thm4_5"].append({"eps_tilde": eps_tilde, "delta": delta, "rho": float(q["rho"].value),
                                   "eps_infimum": float(q["epsilon"].value),
                                   "eps_closed": float(q["epsilon_closed"].value)})
    return data


def _fmt(x, nd=4):
    return "-" if x is None else f"{x:.{nd}g}"


def blocks(data: dict) -> list:
    """The section's content as blocks of :mod:`reports.model` (text only; figures come from
    :func:`figures`)."""
    from reports.model import Heading, Paragraph, Table

    out: list = []
    runs = data.get("runs", {})
    out += [Heading("Theorem 4.5 (zCDP accounting)"),
            Paragraph("Source: bounds.compute('lvsuw21:thm4.5', ...): rho = eps~^2/2 for every T; "
                      "eps(delta) by the CKS infimum (computed numerically) and by the closed bound "
                      "rho + 2 sqrt(rho log(1/delta))."),
            Table(("eps~", "delta", "rho", "eps(delta) infimum", "closed bound"),
                  tuple((r["eps_tilde"], r["delta"], r["rho"], r["eps_infimum"], r["eps_closed"])
                        for r in data.get("thm4_5", [])))]
    lem = runs.get("lemma4_2")
    if lem:
        s = lem["summary"]
        out += [Heading("Lemma 4.2 (1/n sensitivity of the best mixture error)"),
                Paragraph(f"Run {lem['path']} (seed {lem['seed']}, code {lem['code_version']}, variant "
                          f"{s.get('variant', 'none')}): every neighbour of each sampled dataset searched "
                          f"exhaustively, {s['pairs']} pairs at n = {s['n']}. {s['verdict_text']}.")]
    p = runs.get("prop4_3")
    out.append(Heading("Proposition 4.3 (best mixture error of the public support)"))
    if p:
        out += _prop4_3_blocks(p, sorted(data.get("prop4_3_runs", {}).values(), key=lambda r: r["path"]))
    else:
        out.append(Paragraph("No complete run of `prop4_3` found."))
    t = runs.get("thm4_4")
    out.append(Heading("Theorem 4.4 (PMW^Pub error over T)"))
    if t:
        s = t["summary"]
        out += [Paragraph(f"Run {t['path']}. n = {s['n']}, m = {s['m']} (support {s['support_size']}), "
                          f"|Q| = {s['num_queries']}, best mixture error f = {_fmt(s['f'])}; bound at C = 1: "
                          f"{_fmt(s['bound_C1'])}, T* at C_T = 1: {_fmt(s['T_star_C1'])}. "
                          f"{s['verdict_text']}."),
                Table(("T", "mean max error", "s.e.", "implied C_4_4 (1 - beta quantile of err / bound at C = 1)"),
                      tuple((f"{r['T']} (T*)" if r.get("is_T_star") else r["T"], r["mean_max_error"], r["se"],
                             r.get("implied_constant_quantile")) for r in s["per_T"]),
                      "err >= f is a floor check (met by every output on the public support); the implied constant "
                      "of the hidden-constant form is a measurement; the verdict is on the explicit bound at its T*.")]
        if "baselines" in s:  # runs that judged the explicit bound beside the trivial releases and twins
            rows = [(k, "opponent", b) for k, b in s["baselines"].items() if b] + [
                (k, "no privacy", b) for k, b in s.get("privacy_blind", {}).items()]
            out.append(Table(("release", "role", "within the explicit bound at T*", "status"),
                             tuple((k, role, f"{b['successes']}/{b['trials']}", b["status"]) for k, role, b in rows),
                             f"Judged by the same code as PMW^Pub (bound {_fmt(s['bound_explicit'])} at T* = "
                             f"{s['T_star_explicit']}); informative: {s['informative']}; strongest opponent: "
                             f"{s.get('strongest')}. Accuracy cannot see privacy: the releases without it are "
                             f"judged beside, and the audit `{s.get('audit', 'pmw_pub')}` judges PMW^Pub's."))
    else:
        out.append(Paragraph("No complete run of `thm4_4` found."))
    f = runs.get("lvsuw21_figures")
    out.append(Heading("Figures 1-3 on CPS1988"))
    if f:
        out += _figures_blocks(f)
    else:
        out.append(Paragraph("No complete run of `lvsuw21_figures` found."))
    out += table1_blocks(data.get("table1"))
    return out


def table1_blocks(t1) -> list:
    """LVSUW21 Table 1: the paper's four cells beside ours and the authors' code's from one saved benchmark
    run, with the ratios; without a saved run, the paper's cells and how to measure ours."""
    from reports.model import Heading, Paragraph, Table

    out = [Heading("Table 1 (per-iteration run time, PMW^Pub and MWEM)")]
    cells = (t1 or {}).get("rows", {})

    def fmt(v):
        return "-" if v is None else f"{v:.4g}"

    def ratio(x, y):
        return "-" if x is None or not y else f"{x / y:.3g}"

    rows = []
    for (dom, algo), paper in TABLE1_PAPER.items():
        ours, ours_note = cells.get((dom, algo, "ours"), (None, "not measured"))
        auth, auth_note = cells.get((dom, algo, "authors"), (None, "not measured"))
        rows.append((dom, algo, "infeasible" if paper is None else paper,
                     fmt(ours) if ours is not None else ours_note, fmt(auth) if auth is not None else auth_note,
                     ratio(ours, paper), ratio(auth, paper), ratio(ours, auth)))
    cols = ("domain", "algorithm", "paper (s/iter, i5-4690K)", "ours (CPU s/iter)",
            "LVSUW21 authors' code (CPU s/iter)",
            "ours / paper", "authors' / paper", "ours / authors'")
    if t1 and "rows" in t1:
        st = t1["settings"]
        cap = (f"Measured in one run of benchmarks/bench_table1.py ({t1['path']}, {t1['created']}, load average "
               f"{t1['load_average']:.1f}, {t1['cpu_seconds']:.0f} CPU s in its own process): T = {st['iterations']}, "
               f"median of "
               f"{st['seeds']} seed(s), n = {st['private_rows']:,}, m = {st['public_rows']:,}; the paper's cells are "
               "LVSUW21 Table 1. Red.: 98,304 cells, all 560 3-way marginals; FULL: the authors' ACS attribute sizes, "
               "synthetic data, 4,096 3-way marginals. Ratios across machines compare implementations and hardware "
               "together; the ours / authors' column is within one run.")
        out.append(Table(cols, tuple(rows), cap))
        who = {"ours": "ours", "authors": "authors' code"}
        notes = [f"{d} {a} ({who[impl]}): {note}" for (d, a, impl), (_, note) in sorted(cells.items())]
        out.append(Paragraph("Set-up of each cell: " + "; ".join(notes) + "."))
    else:
        out.append(Table(cols, tuple(rows), "No saved benchmark run found (`python benchmarks/bench_table1.py "
                                            "--save RESULTS/bench-table1.json`): the paper's cells only."))
    for p in (t1 or {}).get("problems", []):
        out.append(Paragraph(f"Ignored saved Table 1 file {p}."))
    return out


def _prop4_3_blocks(newest: dict, every: list) -> list:
    """Prop 4.3: one row per run (network, shift, variant) with |X| vs m and the claims; the newest run's
    per-fraction table (below the full m: below-bound measurements, where f > alpha shows)."""
    from reports.model import Paragraph, Table

    def claim(c):
        return f"{c['verdict']} ({c['successes']}/{c['trials']})" if c else "-"

    rows = []
    for r in every or [newest]:
        s = r["summary"]
        cl = s.get("claims", {})
        rows.append((r["path"], s.get("network_seed", "-"), s.get("shift", "-"), s.get("variant", "none"),
                     f"2^{s['num_attributes']}" if "num_attributes" in s else s["domain_size"], s["m"], s["n"],
                     _fmt(s["D2"]), _fmt(s["Dinf"]), _fmt(s.get("mean_mu_mass_of_support")),
                     f"{s['verdict']} ({s['per_fraction'][0]['successes']}/{s['verdict_detail']['trials']})",
                     claim(cl.get("proof_witness")), _fmt(s.get("mean_witness_error")),
                     ((s.get("baselines", {}).get("public_empirical") or {}).get("status", "-") + " ("
                      + _fmt(s.get("mean_public_only_error")) + ")"),
                     s.get("largest_m_with_f_above_alpha") or "-"))
    s = newest["summary"]
    out = [Paragraph("Each run: mu = a random Bayesian network, nu = its shifted copy; D_2 and D_inf exact by "
                     "variable elimination; n and m from bounds.compute('lvsuw21:prop4.3', ...) "
                     f"(e.g. {s['bound_source']}). The mu-mass of the public support (exact, from the network's "
                     "tables) shows how far the runs are from covering the domain; the proof's witness "
                     "omega ~ mu/nu on D^ is a second claim at the same sizes; public-only (weights ignored) is "
                     "the baseline on the same draws; 'f > alpha seen at m' is the largest prefix of D^ "
                     "(below the bound: below-bound) where some trial had f > alpha."),
           Table(("run", "network", "shift", "variant", "|X|", "m", "n", "D_2", "D_inf", "mu(supp D^)",
                  "f <= alpha", "witness <= alpha", "mean witness err", "public-only (mean err)",
                  "f > alpha seen at m"), tuple(rows)),
           Paragraph(f"Newest run {newest['path']} (seed {newest['seed']}, code {newest['code_version']}): "
                     f"n = {s['n']}, m = {s['m']}, |Q| = {s['num_queries']}. "
                     f"{s.get('regime', '')}. Verdict: {s['verdict_text']}."),
           Table(("fraction of m", "m", "Pr[f <= alpha] status (below-bound below the full m)", "mean f", "max f",
                  "trials f > alpha", "mean support"),
                 tuple((r["fraction"], r["m"], f"{r['verdict']} ({r['successes']})", r["mean_error"],
                        r["max_error"], r.get("trials_f_above_alpha", "-"), r["mean_support"])
                       for r in s["per_fraction"])),
           Paragraph(f"m is loose by a factor of at least {_fmt(s['m_looseness_at_least'])} "
                     "(smallest fraction still meeting 1 - beta at the stated confidence).")]
    return out


def _figures_blocks(f: dict) -> list:
    """Figures 1-3: the tuned T, mean +- s.e. per series and eps, the paper's claims one by one."""
    from reports.model import Paragraph, Table

    s = f["summary"]
    eps = s["eps_values"]
    figs = s["figures"]

    def cells(ms, Ts=None):
        Ts = Ts or [None] * len(ms)
        return tuple(f"{m:.4f} +- {e:.4f}" + (f" (T={t})" if t else "") for (m, e), t in zip(ms, Ts))

    def one(v):
        return v[0] if isinstance(v, list) else v

    rows = []
    private = {"mwem": ("MWEM", "mwem_T"), "dualquery": ("DualQuery", "dualquery_eta")}
    for name, (title, tuned) in private.items():   # the private baselines on the private data itself
        if name in figs:
            rows.append((f"{title} (private data)",) + cells(figs[name], figs.get(tuned)) + ("-", "-"))
    for key, label in (("1", "Fig 1 PMW^Pub, public = {}"), ("3", "Fig 3 PMW^Pub, public fraction {}"),
                       ("2", "Fig 2 PMW^Pub, Delta = {}")):
        for name, entry in figs.get(key, {}).items():
            if name.endswith(("_T", "_eta")):
                continue
            if name in private:
                title, tuned = private[name]
                rows.append((f"Fig {key} {title} (resampled private)",) + cells(entry, figs[key].get(tuned))
                            + ("-", "-"))
                continue
            po = "-" if one(entry.get("public_only")) is None else f"{one(entry['public_only']):.4f}"
            floor = one(entry.get("floor"))   # None where the LP was not run (a support over floor_max_support)
            rows.append((label.format(name),) + cells(entry["pmw_pub"], entry.get("T"))
                        + ("not computed" if floor is None else f"{floor:.4f}", po))
    tuning = s.get("tuning", {})
    how = (f"T tuned per series and eps over {s.get('T_grid')} on validation data treated as private "
           f"(regions {tuning.get('regions')}, {tuning.get('runs')} runs each, seed {tuning.get('seed')}; "
           "LVSUW21 5.4)" if tuning else f"T = {s.get('iterations')} fixed")
    out = [Paragraph(f"Run {f['path']} (seed {f['seed']}, code {f['code_version']}; {s['trials']} seeds, {how}, "
                     f"replay = {s['replay']}, delta = 1/n^2). {s['verdict_text']}."),
           Table(("series",) + tuple(f"eps={e:g}" for e in eps) + ("floor", "public only"),
                 tuple(rows), "Max error, mean +- standard error over seeds at the tuned T; floor = best mixture "
                 "error of the public support.")]
    claims = s.get("claims_checked")
    if claims:
        crow = []
        for c in claims:
            few = c.get("status") == "undecided (too few runs)"
            if few and "per_eps" in c:  # no state per eps: a standard error from so few runs decides nothing
                detail = (f"{c.get('runs')} run(s) of the {c.get('runs_needed')} the comparison needs; means: "
                          + "; ".join(f"eps {r['eps']:g}: {r['better'][0]:.4f} vs {r['worse'][0]:.4f}"
                                      for r in c["per_eps"]))
            elif few:
                detail = f"{c.get('runs')} run(s) of the {c.get('runs_needed')} the comparison needs"
            elif "per_eps" in c:
                detail = "; ".join(f"eps {r['eps']:g}: {r['better'][0]:.4f}+-{r['better'][1]:.4f} vs "
                                   f"{r['worse'][0]:.4f}+-{r['worse'][1]:.4f} ({r['state']})" for r in c["per_eps"])
            elif "difference" in c:
                detail = f"paired difference {c['difference'][0]:.4f} +- {c['difference'][1]:.4f}"
            else:
                detail = c.get("why", "")
            crow.append((c["figure"], c["claim"], c["status"], detail))
        out.append(Table(("figure", "paper's claim", "status", "numbers (mean +- s.e., paired over seeds)"),
                         tuple(crow), f"A difference counts when it exceeds {s.get('z_findings')} standard errors "
                         "of the paired per-seed differences; a measurement, not a verdict."))
    elif s.get("findings"):
        out.append(Paragraph("Findings checked by the experiment: " + json.dumps(s["findings"])))
    orc = s.get("oracle")
    if orc:
        out.append(Table(("series",) + tuple(f"eps={e:g}" for e in eps),
                         tuple((name,) + tuple(f"{r['mean']:.4f} +- {r['se']:.4f} (T={r['T']})" for r in per)
                               for name, per in orc["per_series"].items()),
                         "Oracle: " + orc["note"] + "."))
    return out


def build(ctx) -> list:
    """Report plugin entry point (see :mod:`reports.builder`)."""
    from reports.model import Figure, Section

    data = collect(runs=[(r.manifest, r.summary, r.path) for r in ctx.results.runs if r.complete])
    data["table1"] = read_table1(ctx.results.root)
    sec = Section(SECTION_ID, TITLE, blocks(data))
    captions = {"1": "LVSUW21 Figure 1 redone: max error against eps, private = one CPS1988 region, "
                     "public = others; grey band: below the best mixture error (unreachable).",
                "2": "LVSUW21 Figure 2 redone: public data resampled with bias Delta.",
                "3": "LVSUW21 Figure 3 redone: fraction of the public data used."}
    for path in figures(data, ctx.assets):
        sec.add(Figure(path, captions.get(path.stem[-1], "")))
    return [sec]


def figures(data: dict, out_dir) -> list:
    """Figures 1-3 as PNGs: max error vs eps (log x axis), error bars = one standard error, the
    best mixture error shaded below as unreachable (LVSUW21 Figure 1)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    f = data.get("runs", {}).get("lvsuw21_figures")
    if not f:
        return []
    s = f["summary"]
    eps = s["eps_values"]
    figs = s["figures"]
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []

    def series(ax, label, ms):
        ax.errorbar(eps, [m for m, _ in ms], yerr=[e for _, e in ms], label=label, marker="o", capsize=2)

    for key, title in (("1", "Figure 1: across regions"), ("2", "Figure 2: biased public data (Delta)"),
                       ("3", "Figure 3: fraction of public data")):
        if key not in figs:
            continue
        fig, ax = plt.subplots(figsize=(6, 4))
        for base, label in (("mwem", "MWEM"), ("dualquery", "DualQuery")):   # the private baselines
            ms = figs[key].get(base) if key == "2" else figs.get(base)
            if ms:
                series(ax, label, ms)
        floors = []
        for name, entry in figs[key].items():
            if name in ("mwem", "dualquery") or name.endswith(("_T", "_eta")):
                continue
            series(ax, f"PMW^Pub ({name})", entry["pmw_pub"])
            fl = entry.get("floor")
            if fl is not None:       # None: the LP was not run for so large a support
                floors.append(fl[0] if isinstance(fl, list) else fl)
            po = entry.get("public_only")
            if po is not None:
                ax.axhline(po[0] if isinstance(po, list) else po, ls=":", lw=0.8, color="grey")
        if floors:
            ax.axhspan(0, min(floors), color="grey", alpha=0.2, label="below best mixture error (min)")
        ax.set_xscale("log")
        ax.set_xlabel("eps (delta = 1/n^2)")
        ax.set_ylabel("max error, 3-way marginals")
        ax.set_title(title)
        ax.legend(fontsize=7)
        path = out_dir / f"lvsuw21_fig{key}.png"
        fig.tight_layout()
        fig.savefig(path, dpi=120)
        plt.close(fig)
        paths.append(path)
    return paths
