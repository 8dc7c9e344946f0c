"""Overview: every run directory found in the results, with its experiment, status, seed, code version
and verdict (the summary's own ``verdict_text``)."""

from __future__ import annotations

from reports.model import Paragraph, Section, Table

ORDER = 0


def build(ctx) -> list[Section]:
    res = ctx.results
    s = Section("overview", "Runs found")
    if not res.runs:
        s.add(Paragraph(f"No run directory was found below {res.root}. Write one with "
                        "`python -m simulations run EXPERIMENT --trials N --out DIR` (DIR below the results directory)."))
        return [s]
    rows = []
    for r in res.runs:
        m = r.manifest
        verdict = (r.summary or {}).get("verdict", "unfinished") if r.summary else r.state_text
        elapsed = sum((x.get("elapsed_seconds") or 0.0) for x in m.get("sessions", []))
        rows.append((m.get("experiment"), ", ".join(m.get("result_ids", [])), str(r.path.relative_to(res.root)),
                     r.state, m.get("trials"), m.get("root_seed"), m.get("code_version"), round(elapsed, 1),
                     verdict))
    s.add(Paragraph("Each run records its parameters, root seed and code version (simulations.store); trial i "
                    "uses the i-th child of SeedSequence(root seed), so any run can be reproduced exactly."),
          Table(("experiment", "validates", "directory", "status", "trials", "root seed", "code", "seconds", "verdict"),
                tuple(rows)))
    return [s]
