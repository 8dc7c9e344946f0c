"""Privacy audits: every audit saved with ``python -m simulations audit TARGET --out DIR`` (or ``audit --all``;
JUO20 test events, Clopper-Pearson at the stated confidence). A real mechanism passes when eps_lb <= declared
eps; a deliberately broken variant is caught when eps_lb > declared eps. Each row also shows the minimal
detectable eps (exact binomial power 0.9) and whether the audit had power (simulations.audit)."""

from __future__ import annotations

from reports.model import Badge, Paragraph, Section, Table

ORDER = 50


def outcome(a: dict) -> str:
    """passes / fails for real mechanisms, caught / missed for broken variants, judged from the audit's
    numbers as the report recomputed them (reports.integrity.recheck_audit), never from its saved flag;
    "fails" for an audit whose numbers could not be judged or disagree with its own flag."""
    if "_violated" in a:
        violated = a["_violated"]
        if violated is None:
            return "fails"
    else:  # a dict built by hand, not read by reports.results
        from reports.integrity import recheck_audit

        violated = recheck_audit(a)[0]
        if violated is None:
            return "fails"
    if a.get("_problems") and any("but its numbers give" in p or "differs from" in p for p in a["_problems"]):
        return "fails" if a.get("expect_private", True) else "missed"
    if a.get("expect_private", True):
        return "fails" if violated else "passes"
    return "caught" if violated else "missed"


def audit_table(audits: list[dict], caption: str = "") -> Table:
    rows = tuple((a.get("target"), a.get("source"), "real" if a.get("expect_private", True) else "broken",
                  a.get("declared_eps"), a.get("declared_delta"), a.get("eps_lower_bound"),
                  a.get("minimal_detectable_eps"), _power(a), a.get("samples"),
                  a.get("confidence"), a.get("seed"), outcome(a)) for a in audits)
    return Table(("target", "source", "kind", "declared eps", "declared delta", "eps lower bound",
                  "minimal detectable eps", "power", "samples/neighbour", "confidence", "seed", "outcome"), rows,
                 caption)


def _power(a: dict) -> str:
    """'no power' when the minimal detectable eps exceeds twice the claim; '?' for audits saved before it existed."""
    if "no_power" not in a:
        return "?"
    return "no power" if a["no_power"] else "has power"


def build(ctx) -> list[Section]:
    audits = ctx.results.audits
    s = Section("audits", "Privacy audits")
    if not audits:
        s.add(Paragraph("No saved audit found. Save one with `python -m simulations audit TARGET --out DIR` "
                        "(DIR below the results directory)."))
        return [s]
    outcomes = [outcome(a) for a in audits]
    bad = [a["target"] for a, o in zip(audits, outcomes) if o in ("fails", "missed")]
    forged = [(a, p) for a in audits for p in a.get("_problems", []) if not p.startswith("lacks the counts")]
    if bad:
        s.add(Badge("violated", f"unexpected audit outcome for: {', '.join(map(str, bad))}"))
    else:
        s.add(Badge("holds", f"all {len(audits)} audits as expected: real mechanisms pass, broken variants are caught"))
    s.add(Paragraph("eps lower bound = max(0, log((1 - delta - FNR_u)/FPR_u), log((1 - delta - FPR_u)/FNR_u)) from "
                    "one-sided Clopper-Pearson upper bounds on the evaluation half (simulations.audit). It refutes "
                    "the declared eps at the stated confidence when it exceeds it. The minimal detectable eps is the "
                    "least true eps the audit flags with probability 0.9 at its evaluation size (exact binomial sums, "
                    "best event); 'no power' marks audits where it exceeds twice the claim: their pass says little. "
                    "Every outcome is recomputed here from the audit's saved counts, never read from its saved "
                    "'violated' flag."),
          audit_table(audits))
    for a, p in forged:
        s.add(Badge("fails", f"{a.get('target')}: the saved file {p}"))
    return [s]
