"""Each result's section leads with its one-line answer: the verdict of its newest complete run, and whether
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
    "lower-bounds": ("thm13", "thm15"),
    "abm19-thm3-1": ("thm3_1",),
    "abm19-lemma4-4": ("lemma4_4",),
    "abm19-thm4-1": ("thm4_1",),
    "lvsuw21": ("prop4_3", "thm4_4", "lvsuw21_figures", "lemma4_2"),
    "nb20-thm7": ("thm7",),
    "nb20-thm11": ("thm11",),
}
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
            r = real[-1]
            sm = r.summary
            v = _verdict(sm)
            trials = r.manifest.get("trials")
            more = f" (newest of {len(real)} runs)" if len(real) > 1 else ""
            head = f"Answer for {exp} ({trials} trials{more})"
            if v == "floor check":
                text = f"{head}: a check only a bug can fail, so it neither confirms nor refutes the result"
            elif v == "below-bound":
                text = f"{head}: measured below the result's sizes, so no verdict on it; {informative_text(sm)}"
            else:
                text = f"{head}: {informative_text(sm)}"
            out.append(Badge(v if v in _BADGE else "info", text + "."))
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
