"""docs/ERRATA.md, and the records as JSON, generated from the errata records (:mod:`bounds.errata`), with the
numbers they cite (``[[fact:NAME.QUANTITY]]``) computed by ``bounds`` here, on use::

    python -m bounds.errata            # print the generated page
    python -m bounds.errata --write    # rewrite docs/ERRATA.md (a test holds the file equal to it)

The record store does not import ``bounds.api``: a fact is a result id and a point, computed only here.
"""
from __future__ import annotations

import numbers
import sys
from dataclasses import asdict
from pathlib import Path

from ..api import compute
from ..references import PAPERS
from . import FACT_PATTERN, ErrataFileError, Erratum, store

ERRATA_MD = Path(__file__).resolve().parents[2] / "docs" / "ERRATA.md"


def fill_facts(text: str) -> str:
    """``text`` with each ``[[fact:NAME.QUANTITY]]`` (or ``NAME.Q1/Q2``, a ratio; ``:SPEC`` a format spec) replaced
    by the number ``bounds`` computes for it."""
    facts, computed = store().facts, {}

    def value(name: str, quantity: str):
        if name not in computed:
            fact = facts[name]
            computed[name] = compute(fact.result, **dict(fact.at))
        try:
            return computed[name][quantity]
        except KeyError:
            raise ErrataFileError(f"fact {name!r}: {facts[name].result} has no quantity {quantity!r}") from None

    def sub(m) -> str:
        name, num, den, spec = m.groups()
        v = value(name, num) if den is None else value(name, num) / value(name, den)
        if spec is None:
            spec = "," if isinstance(v, numbers.Integral) else ".4g"
        try:
            return format(v, spec)
        except (ValueError, TypeError) as exc:
            raise ErrataFileError(f"fact {name!r}: format {spec!r}: {exc}") from None

    return FACT_PATTERN.sub(sub, text)


def as_dict(e: Erratum) -> dict:
    """One record as JSON, its facts filled in."""
    d = asdict(e)
    d["checks"], d["results"] = list(e.checks), list(e.results)
    for k in ("printed", "corrected", "encoded", "verified", "details"):
        d[k] = fill_facts(d[k])
    return d


_HEADER = """# Errata and checked claims

Generated from `bounds/errata/` by `python -m bounds.errata --write`; edit the records there, not this
page (a test holds the two equal). Every printed constant, proof step and statement the workbench
relies on was checked against its proof. An **erratum** says what is printed, what is right, what
the workbench encodes and how it was decided; a **checked and correct** entry says why nobody needs
to re-audit it. Results name their records by id (`python -m bounds show ID`, `compute --json`'s
`errata`); `python -m proofs_checks --errata` lists the records with the verdicts of their checks.
"""


def markdown(e: Erratum) -> str:
    """The docs/ERRATA.md entry of one record."""
    kind = "checked and correct" if e.status == "checked" else f"erratum ({e.severity})"
    lines = [f"### {e.title} [{e.id}]", f"- **Status.** {kind}; results: "
             + (", ".join(f"`{r}`" for r in e.results) or "none encoded") + "."]
    for label, text in (("Where", e.location), ("Printed", e.printed), ("Right", e.corrected),
                        ("Encoded", e.encoded)):
        if text:
            lines.append(f"- **{label}.** {fill_facts(text).rstrip('.')}.")
    decided = fill_facts(e.verified).rstrip(".")
    if e.checks:
        decided += (" (" if decided else "") + "`python -m proofs_checks`: " + ", ".join(
            f"`{c}`" for c in e.checks) + (")" if decided else "")
    lines.append(f"- **Decided by.** {decided}.")
    if e.details:
        lines.append(fill_facts(e.details))
    return "\n".join(lines) + "\n"


def _heading(key: str) -> str:
    p = PAPERS[key]
    files = ", ".join(f"{v} seed {name[:3]}" if v else f"seed {name[:3]}" for name, v in p.files)
    return f"## {key} ({p.authors}, {p.venue}; {files})\n"


def render() -> str:
    """docs/ERRATA.md as the records say it."""
    out = [_HEADER]
    records = store().records
    for key in PAPERS:
        out.append(_heading(key))
        out += [markdown(e) for e in records if e.paper == key]
    return "\n".join(out)


def main(argv=None) -> int:
    from ..cli_common import generated_file, one_line

    try:
        store()
        return generated_file(argv, "bounds.errata", ERRATA_MD, render)
    except ErrataFileError as exc:
        print(f"bounds.errata: error: {one_line(exc)}", file=sys.stderr)
        return 2
