"""Overview: every run directory found in the results (experiment, status, seed, code version, verdict),
per run what was tested, at what fraction of the bound and against which baselines, and one family-wise
statement (Holm 1979, ``simulations.stats.holm``) over every verdict the report shows.

The claims are found in the run summaries by their shape (``simulations.contract.find_claims``: a dict
with successes, trials, target and a status); each claim of kind ``verdict``
(``simulations.contract.claim``; a record without ``kind`` is a verdict) enters Holm's step-down once per
(run, label) with its one-sided exact p-value (``simulations.stats.verdict_p_values``): ``p_violated`` for a
``violated`` verdict, ``p_holds`` for a ``holds`` verdict. ``inconclusive`` verdicts count in the family
(they are tests that were run) with the smaller of their two p-values. Below-bound measurements are no
verdicts; premise checks, algorithm-free draws, floor checks and negative-control runs are listed apart and
never counted."""

from __future__ import annotations

from reports.model import Badge, Heading, Paragraph, Section, Table

ORDER = 0
FAMILY_LEVEL = 0.05


def _tested(summary: dict) -> tuple[str, str, str]:
    """(what, fraction of the bound, baselines) of a run, from the fields its summary has."""
    what = summary.get("claim", "")
    variant = summary.get("variant")
    if variant and variant != "none":
        what = f"{'negative control' if summary.get('negative_control') else 'probe'} {variant}: {what}"
    cases = summary.get("cases")
    fractions, baselines = "-", "-"
    if isinstance(cases, dict) and cases:
        ns = [c.get("n_fraction_of_bound") for c in cases.values() if isinstance(c, dict)]
        ms = [c.get("m_fraction_of_bound") for c in cases.values() if isinstance(c, dict)]
        if all(x is not None for x in ns + ms):
            fractions = f"n {min(ns):.3g}-{max(ns):.3g}, m {min(ms):.3g}-{max(ms):.3g}"
        names = sorted({k for c in cases.values() if isinstance(c, dict) for k in (c.get("baselines") or {})})
        if names:
            reach = sorted({k for c in cases.values() if isinstance(c, dict)
                            for k, b in (c.get("baselines") or {}).items() if b.get("status") == "succeeds"})
            failing = [k for k in names if k not in reach and all(
                (c.get("baselines") or {}).get(k, {}).get("status", "fails") == "fails"
                for c in cases.values() if isinstance(c, dict))]
            baselines = (f"fail in every case: {', '.join(failing) or 'none'}; "
                         f"reach the guarantee in some case: {', '.join(reach) or 'none'}")
    elif summary.get("at_bound") is not None:
        fractions = "at the bound" if summary["at_bound"] else "below the bound"
    return what, fractions, baselines


def classify(runs) -> tuple[list[dict], list[dict]]:
    """(the family, the rest). The family: every claim of kind ``verdict`` (a record without ``kind`` is a
    verdict) with status holds / violated / inconclusive in the runs of the paper's algorithms, each (run,
    label) once (:func:`reports.claims.claim_rows`), with its p-value. The rest, listed apart and never
    counted: premise checks, algorithm-free draws, floor checks, and the verdicts of negative-control runs (a
    broken variant, expected violated)."""
    from reports.claims import claim_rows
    from simulations import stats

    fam, apart = [], []
    for r in runs:
        if not r.summary:
            continue
        run = str(r.path.name)
        control = r.summary.get("negative_control") is True or (
            r.summary.get("variant") not in (None, "none") and bool(r.summary.get("negative_control")))
        for row in claim_rows(r.summary):
            kind, status, c = row["kind"], row["status"], row["record"]
            if kind == "reproduction" or (kind != "floor check" and status not in stats.VERDICTS):
                continue
            if control or kind != "verdict":
                apart.append({"run": run, "claim": row["name"],
                              "kind": "negative control" if control and kind == "verdict" else kind,
                              "status": status})
                continue
            try:
                pv, ph = stats.verdict_p_values(c["successes"], c["trials"], c["target"])
            except (TypeError, ValueError):  # a dict of that shape that is not a binomial claim: not in the family
                continue
            p = pv if status == stats.VIOLATED else ph if status == stats.HOLDS else min(pv, ph)
            fam.append({"run": run, "claim": row["name"], "status": status, "p": p})
    return fam, apart


def family(runs) -> list[dict]:
    """The verdicts that enter the family-wise statement (:func:`classify`)."""
    return classify(runs)[0]


def holm_section(runs) -> list:
    """Holm's family-wise statement over every verdict in ``runs`` (a paragraph and a table), and the checks
    that are no verdicts listed apart."""
    from simulations import stats

    fam, apart = classify(runs)
    out = []
    if not fam:
        out.append(Paragraph("No verdict in these results (only below-bound measurements, floor checks or unfinished "
                             "runs), so there is no family-wise statement to make."))
    else:
        h = stats.holm([f["p"] for f in fam], FAMILY_LEVEL)
        decided = [f for f in fam if f["status"] != stats.INCONCLUSIVE]
        survive = [f for f, rej in zip(fam, h["rejected"]) if rej and f["status"] != stats.INCONCLUSIVE]
        lost = [f for f, rej in zip(fam, h["rejected"]) if not rej and f["status"] != stats.INCONCLUSIVE]
        runs_in = sorted({f["run"] for f in fam})
        if not decided:
            status = "inconclusive"
            text = (f"Holm step-down over all {len(fam)} verdicts of {len(runs_in)} run(s): none is decided (every one "
                    "is inconclusive), so there is no joint statement beyond 'more trials needed'")
        else:
            status = "holds" if not lost else "holds on part"
            text = (f"Holm step-down over all {len(fam)} verdicts of {len(runs_in)} run(s) ({len(decided)} decided): "
                    f"{len(survive)} of the {len(decided)} decided verdicts stand jointly at family-wise error <= "
                    f"{FAMILY_LEVEL:g}, i.e. the probability that any of them is wrong is at most {FAMILY_LEVEL:g}. "
                    "A verdict that stands says the guarantee was met, not that it tells the algorithm from its "
                    "opponents: the first table says which verdicts are informative")
            if lost:
                text += f"; {len(lost)} decided verdict(s) do not survive the correction (listed below as 'no')"
        rows = tuple((f["run"], f["claim"], f["status"], f["p"], a, rej)
                     for f, a, rej in zip(fam, h["adjusted"], h["rejected"]))
        out += [Badge(status, text),
                Table(("run", "claim", "verdict", "p", "Holm-adjusted p", f"stands at FWER {FAMILY_LEVEL:g}"), rows,
                      "Each claim of each run once, named by its label. p = the verdict's one-sided exact binomial "
                      "p-value (violated: Pr[Bin(T, target) <= k]; holds: Pr[Bin(T, target) >= k]; inconclusive: "
                      "the smaller of the two). Each verdict's own rule (per-run confidence, Bonferroni within a "
                      "run) is unchanged; this statement is the one to quote for the report as a whole.")]
    if apart:
        out += [Paragraph("Not in the family (no verdict on a paper's algorithm): premise checks of a theorem's "
                          "assumptions, draws that involve no algorithm under test, floor checks that only a bug "
                          "can fail, and negative controls (broken variants, expected to come out violated)."),
                Table(("run", "check", "kind", "outcome"),
                      tuple((a["run"], a["claim"], a["kind"], a["status"]) for a in apart))]
    return out


def build(ctx) -> list[Section]:
    res = ctx.results
    s = Section("overview", "Runs found")
    if not res.runs:
        s.add(Paragraph(f"No run directory was found below {res.root.name}. Write one with "
                        "python -m simulations run EXPERIMENT --trials N --out DIR (DIR below the results directory)."))
        return [s]
    rows, tested = [], []
    for r in res.runs:
        m = r.manifest
        verdict = (r.summary or {}).get("verdict", "unfinished") if r.summary else f"none ({r.state})"
        if r.summary:
            from reports.coverage import informative

            verdict = f"{verdict}, informative: {informative(r.summary)}"
        rows.append((m.get("experiment"), ", ".join(m.get("result_ids", [])), str(r.path.relative_to(res.root)),
                     r.state, m.get("trials"), m.get("root_seed"), m.get("code_version"),
                     r.elapsed,  # simulations.store.RunState.elapsed_text: a live run counts up to now
                     verdict))
        if r.summary:
            tested.append((str(r.path.relative_to(res.root)), verdict, *_tested(r.summary)))
    from reports.results import unfinished_text

    unfinished = [Paragraph(unfinished_text(r)) for r in res.runs if not r.complete]
    s.add(Paragraph("Each run records its parameters, root seed and code version (simulations.store); trial i "
                    "uses the i-th child of SeedSequence(root seed), so any run can be reproduced exactly. "
                    "Statuses: holds / violated / inconclusive are verdicts, given only to runs at every size "
                    "the result requires; below-bound is a measurement below those sizes, never a verdict; a "
                    "floor check can only fail through a bug and does not validate the result."),
          Table(("experiment", "validates", "directory", "status", "trials", "root seed", "code", "time computing",
                 "verdict"),
                tuple(rows)), *unfinished)
    if tested:
        s.add(Heading("What each run tested"),
              Table(("directory", "status", "what was tested", "fraction of the bound", "baselines"), tuple(tested),
                    "Fractions are used size / the size the result requires (from bounds), over the run's cases."))
    s.add(Heading("Multiple testing across this report"), *holm_section(res.runs))
    return [s]
