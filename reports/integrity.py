"""What the report checks itself before it shows a result file: saved audits are re-judged from their
saved numbers (never from their ``violated`` flag), and run directories whose records disagree are flagged.

Result files are untrusted input (a forged or hand-edited file must show as a problem, never as a pass):

* :func:`recheck_audit` recomputes an audit's verdict from its saved counts and lists every saved number that
  disagrees; it judges against the declaration the audit's target registers (:func:`registered_declaration`),
  never the one written in the file. Both are the run store's rule for an audit file
  (``simulations._audit_judge``, imported through :mod:`simulations.store`).
* :func:`run_problems` lists a run directory's internal disagreements: the run store's own check,
  ``simulations.store.integrity_problems(path)``.
"""

from __future__ import annotations

# recheck_audit and registered_declaration: reports.results and reports.sections.audits call them from here
from simulations.store import integrity_problems, recheck_audit, registered_declaration  # noqa: F401


def run_problems(path) -> list[str]:
    """A run directory's internal disagreements, one line each (empty: none found): the run store's own check,
    :func:`simulations.store.integrity_problems` (the summary recomputed from the records, their digest and
    types, a stored summary that disagrees)."""
    return list(integrity_problems(path))
