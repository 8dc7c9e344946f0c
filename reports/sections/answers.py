"""BCMNUW20/ABM19/LVSUW21/NB20: the report's first screen, one row per numbered result of the four papers (the
table ``python -m bounds coverage --results DIR`` prints, from :mod:`reports.coverage`): what decides it, the
verdict of the run that answers it (by the one rule stated on the page), whether that verdict is informative and
which opponents also reach it, the audits of its algorithm and its proof checks; then the deciding runs'
commands. Grouped by paper."""

from __future__ import annotations

from reports.model import Badge, Heading, Paragraph, Section, Table

ORDER = -10
_PAPERS = (("bcmnuw20", "BCMNUW20"), ("abm19", "ABM19"), ("lvsuw21", "LVSUW21"), ("nb20", "NB20"))
COLUMNS = ("item", "decided by", "verdict", "informative", "opponents", "run", "audit", "proof checks")


def build(ctx) -> list[Section]:
    from bounds.coverage import DECIDERS
    from reports import coverage as rc

    found = rc.answers(ctx.results)
    root = ctx.results.root
    rows = rc.table_rows(found, root)
    s = Section("answers", "Every numbered result, answered")
    answered = sum(a.run is not None for a in found)
    counts = ", ".join(f"{n} {d}" for d in DECIDERS if (n := sum(a.row.decides == d for a in found)))
    s.add(Paragraph(f"{len(found)} numbered results of the four papers, from the papers' index and the registries "
                    f"(decided by: {counts}); {answered} answered by a saved run. {rc.RULE} A verdict is "
                    "informative only where every opponent run on the same draws fails; 'opponents' names those "
                    "that also reach the guarantee."))
    for key, name in _PAPERS:
        mine = [(a, r) for a, r in zip(found, rows) if a.row.item.paper == key]
        if not mine:
            continue
        s.add(Heading(name, 4), Table(COLUMNS, tuple(tuple(r[0:1] + r[2:]) for _, r in mine)))
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
