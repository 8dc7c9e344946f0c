"""BCMNUW20/ABM19/LVSUW21/NB20: the report's first screen, one row per numbered result of the four papers (the
table ``python -m bounds coverage --results DIR`` prints, from :mod:`reports.coverage`): what decides it, the
verdict of the run that answers it (by the one rule stated on the page), whether that verdict is informative and
which opponents also reach it, the audits of its algorithm and its proof checks; then the deciding runs'
commands. Grouped by paper."""

from __future__ import annotations

from bounds.references import PAPERS

from reports.model import Badge, Heading, Paragraph, Section, Table

ORDER = -10
_PAPERS = tuple((key.lower(), key) for key in PAPERS)  # bounds.references: the one list of papers


#: the first screen's "decided by" in the fewest words (the full words are bounds.coverage.DECIDERS)
_DECIDED = {"verdict at its own sizes": "run verdict", "measurement": "measurement", "privacy audit": "audit",
            "proof check": "proof check", "nothing can": "nothing can", "nothing yet": "nothing yet"}


def _short(label: str, width: int = 46) -> str:
    return label if len(label) <= width else label[: width - 3] + "..."


def build(ctx) -> list[Section]:
    from bounds.coverage import DECIDERS
    from reports import coverage as rc

    found = rc.answers(ctx.results)
    root = ctx.results.root
    rows = rc.table_rows(found, root)
    s = Section("answers", "Every numbered result, answered")
    answered = sum(a.run is not None for a in found)
    counts = ", ".join(f"{n} {d}" for d in DECIDERS if (n := sum(a.row.decides == d for a in found)))
    papers = ", ".join(f"{name[0]} {name}" for _, name in _PAPERS)
    s.add(Paragraph(f"{len(found)} numbered results of the four papers ({papers}); {answered} answered by a saved "
                    "run (the rule below)."))
    s.add(Table(("item", "decided by", "verdict", "informative", "answered by"),
                tuple((_short(r[0], 26), _DECIDED.get(r[2], r[2]), r[3], r[4],
                       rc._rel(a.run.path, root) if a.run else "-") for a, r in zip(found, rows)),
                dense=True))
    s.add(Paragraph(f"Decided by: {counts} ('run verdict': a verdict at the result's own sizes). {rc.RULE} A "
                    "verdict is informative only where every opponent run on the same draws fails; 'opponents' "
                    "names those that also reach the guarantee."))
    short = [(a, r) for a, r in zip(found, rows)]
    s.add(Heading("Opponents, audits and proof checks of each result", 4))
    for key, name in _PAPERS:
        mine = [(a, r) for a, r in short if a.row.item.paper == key]
        if not mine:
            continue
        s.add(Heading(name, 4), Table(("item", "opponents", "answered by (of the runs that validate it)", "audit",
                                       "proof checks"), tuple((r[0], r[5], r[6], r[7], r[8]) for _, r in mine)))
    runs = {}
    for a in found:
        if a.run is not None:
            runs.setdefault(rc._rel(a.run.path, root), (a.command, []))[1].append(a.row.item.id)
    if runs:
        s.add(Heading("The deciding runs", 4),
              Table(("run", "answers", "command (from its manifest)"),
                    tuple((k, ", ".join(ids), cmd) for k, (cmd, ids) in sorted(runs.items())), collapsed=True))
    else:
        s.add(Badge("info", "No saved run answers any result yet: write runs with python -m simulations run ... "
                            "--out DIR below the results directory."))
    return [s]
