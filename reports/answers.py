"""Each result's section leads with its one-line answer: the verdict of the complete run the first screen's rule
picks (:data:`reports.coverage.RULE`: a verdict at the result's own sizes first, then the latest recorded), and whether
that verdict is informative, i.e. whether every trivial baseline run in the same trials fails where the
algorithm holds (the summary's ``informative``, computed by the experiment from its baselines, never
declared), naming the baselines that also reach the verdict. Negative controls get their own line (a broken
variant is expected to come out violated).

The builder puts :func:`answer_blocks` first in every section named in :data:`SECTION_EXPERIMENTS`.
"""

from __future__ import annotations

from reports.model import Badge

#: section key -> the experiments whose runs it reports (a section plugin's own choice of runs)
SECTION_EXPERIMENTS = {
    "thm10": ("thm10", "thm10_looseness"),
    "frontier": ("frontier",),
    "lower-bounds": ("thm13", "thm15"),
    "abm19-thm3-1": ("thm3_1",),
    "abm19-lemma4-4": ("lemma4_4",),
    "abm19-thm4-1": ("thm4_1",),
    "lvsuw21": ("prop4_3", "thm4_4", "lvsuw21_figures", "lemma4_2", "lvsuw21_public_check"),
    "nb20-thm7": ("thm7", "nb20_lemmas", "nb20_lemma9"),
    "nb20-thm11": ("thm11",),
}
#: experiments no section answers for, each with why (every other experiment of the catalogue is in a section)
UNSECTIONED = {"laplace_tail": "a floor check of the Laplace mechanism that every algorithm's noise rests on; it "
                               "validates no paper result (RESULT_IDS is empty) and only a bug can fail it"}
_BADGE = {"holds", "violated", "inconclusive", "below-bound", "floor check"}


def _is_control(summary: dict) -> bool:
    neg = summary.get("negative_control")
    return neg is True or (summary.get("variant") not in (None, "none") and bool(neg))


def _succeeding_baselines(summary: dict) -> list[str]:
    """Names of the trivial baselines whose record says ``succeeds`` anywhere in the summary."""
    from reports.claims import dicts

    out = set()
    for _, node in dicts(summary):
        base = node.get("baselines")
        if isinstance(base, dict):
            out.update(k for k, b in base.items() if isinstance(b, dict) and b.get("status") == "succeeds")
    return sorted(out)


def informative_text(summary: dict) -> str:
    """Whether the verdict can tell the algorithm from its trivial baselines, in words."""
    info = summary.get("informative")
    if info is False and summary.get("informative_reason"):
        return f"not informative: {summary['informative_reason']}"
    cases = summary.get("cases")
    if info is None and isinstance(cases, dict):  # stated per case (thm10: cases.<case>.informative)
        per = {k: c["informative"] for k, c in cases.items() if isinstance(c, dict) and "informative" in c}
        info = per or None
    also = _succeeding_baselines(summary)
    also_text = f" ({', '.join(also)} also reach it)" if also else ""
    if isinstance(info, bool):
        return ("informative: every trivial baseline fails where the algorithm is judged" if info
                else f"not informative: a trivial baseline does as well{also_text}" if also
                else "not informative: no trivial baseline is shown to fail")
    if isinstance(info, dict) and info:
        yes = sorted(k for k, v in info.items() if v is True)
        if len(yes) == len(info):
            return "informative in every case: every trivial baseline fails"
        if not yes:
            return (f"not informative in any case: a trivial baseline does as well{also_text}" if also else
                    "not informative in any case: no trivial baseline is shown to fail")
        return f"informative in {len(yes)} of {len(info)} cases ({', '.join(yes)}){also_text}"
    if also:
        return f"not informative: {', '.join(also)} also reach the verdict"
    return "informative: not stated (the run has no trivial baseline to compare with)"


def separation_text(summary: dict) -> str:
    """Where the algorithm separates from the trivial ones, from the summary: the cases in which it succeeds (by the
    baselines' rule) while every trivial algorithm fails (``separation.separated`` or ``separated`` per case), or,
    for a search of least sizes, the sizes at which it holds and a trivial release does not ("" if not stated)."""
    cases = summary.get("cases")
    per = {}
    if isinstance(cases, dict):
        for k, c in cases.items():
            if isinstance(c, dict) and isinstance(c.get("separation"), dict):
                per[k] = bool(c["separation"].get("separated"))
            elif isinstance(c, dict) and isinstance(c.get("separated"), bool):
                per[k] = c["separated"]
    if per:
        yes = [k for k, v in per.items() if v]
        return ("the algorithm succeeds where every trivial algorithm fails in "
                + (f"{len(yes)} of {len(per)} cases ({', '.join(yes)})" if yes else f"none of its {len(per)} cases"))
    at = []
    for r in summary.get("rows") or ():
        for name, t in ((r.get("trivial_least_sizes") or {}) if isinstance(r, dict) else {}).items():
            if isinstance(t, dict):
                where = t.get("separates_at")
                at.append(f"{r.get('key', '?')}: from {name} at {t.get('searched', 'size')} "
                          f"{', '.join(f'{x:g}' for x in where) if where else 'no probed size'}")
    return ("the algorithm holds where a trivial release does not at: " + "; ".join(at)) if at else ""


def _verdict(summary: dict) -> str:
    v = summary.get("verdict")
    return v if isinstance(v, str) else "?"


def answer_blocks(runs, experiments) -> list:
    """One badge per experiment with a complete run: its newest run's verdict, trial count and whether it is
    informative; one per negative-control run: caught or not."""
    out = []
    for exp in experiments:
        done = [r for r in runs if r.experiment == exp and r.complete]
        real = [r for r in done if not _is_control(r.summary)]
        if real:
            from reports.coverage import pick

            r = pick(real)  # the first screen's rule: a verdict at its sizes first, then the latest recorded
            sm = r.summary
            v = _verdict(sm)
            trials = r.manifest.get("trials")
            more = (f", {r.path.name}: of {len(real)} runs the one the first screen's rule picks"
                    if len(real) > 1 else "")
            head = f"Answer for {exp} ({trials} trials{more})"
            if v == "floor check":
                text = f"{head}: a check only a bug can fail, so it neither confirms nor refutes the result"
            elif v == "below-bound":
                text = f"{head}: measured below the result's sizes, so no verdict on it; {informative_text(sm)}"
            else:
                text = f"{head}: {informative_text(sm)}"
            sep = separation_text(sm)
            out.append(Badge(v if v in _BADGE else "info", text + (f"; {sep}" if sep else "") + "."))
        for r in done:
            if _is_control(r.summary):
                v = _verdict(r.summary)
                caught = v == "violated"
                what = r.summary.get("variant") or "broken variant"
                out.append(Badge("caught" if caught else "missed",
                                 f"Negative control {exp} ({what}, {r.path.name}): "
                                 + ("violated, as a broken variant must be." if caught
                                    else f"{v} at {r.manifest.get('trials')} trials, where a broken variant must "
                                         "come out violated.")))
    return out
