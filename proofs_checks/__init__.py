"""Machine checks of the papers' proof steps, and the errata they find.

>>> import proofs_checks
>>> results = proofs_checks.run_all()            # list[CheckResult]: .check, .verdict, .seconds
>>> rows = proofs_checks.run_all_json("nb20")     # JSON-serialisable dicts (what --json prints)
>>> proofs_checks.errata_report(results)          # every erratum record (bounds.errata) with its checks' verdicts
>>> proofs_checks.report_data()                   # all of the above in one JSON-serialisable dict (reports)

Command line: ``python -m proofs_checks [--paper KEY] [--json] [--strict] [--errata] [--list] [--thorough]``.
"""
from .core import (FAILS, HOLDS, NOT_CHECKABLE, PART, Check, CheckResult, Verdict, all_checks, get, report_data,
                   run_all, run_all_json, run_check)
from .errata import ERRATA, Erratum
from .errata import report as errata_report

__all__ = ["run_all", "run_all_json", "report_data", "run_check", "all_checks", "get", "errata_report", "ERRATA", "Erratum",
           "Check", "CheckResult", "Verdict", "HOLDS", "PART", "FAILS", "NOT_CHECKABLE"]
