"""The errata the proof checks find or verify, and the errata report of ``python -m proofs_checks --errata``.

The records themselves live in :mod:`bounds.errata` (one :class:`~bounds.errata.Erratum` per erratum or
checked statement, read from ``bounds/errata/<paper>.toml``, each naming the checks here that decide it);
``docs/ERRATA.md`` is generated from them. This module adds the checks' verdicts.
"""
from __future__ import annotations

from bounds.errata import ERRATA, Erratum
from bounds.errata.page import as_dict

__all__ = ["ERRATA", "Erratum", "as_dict", "report"]


def report(results=None) -> list[dict]:
    """The errata report: every record (erratum or checked statement) with the verdicts of its checks
    when ``results`` (from :func:`proofs_checks.run_all`) are given."""
    verdicts = {r.check.id: r.verdict.status for r in (results or [])}
    return [{"paper": e.paper, "heading": e.title, "status": e.status, "source": "bounds.errata",
             "errata": [e.id], "checks": {c: verdicts.get(c) for c in e.checks}} for e in ERRATA]
