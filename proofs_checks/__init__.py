"""Machine checks of the papers' proof steps, and the errata they find.

>>> import proofs_checks
>>> results = proofs_checks.run_all()            # list[CheckResult]: .check, .verdict, .seconds
>>> rows = proofs_checks.run_all_json("nb20")     # JSON-serialisable dicts (what --json prints)
>>> proofs_checks.errata_report(results)          # every erratum record (bounds.errata) with its checks' verdicts
>>> proofs_checks.report_data()                   # all of the above in one JSON-serialisable dict (reports)

Command line: ``python -m proofs_checks [--paper KEY] [--json] [--strict] [--errata] [--list] [--thorough]``.
The names below are imported on first use, so ``--list`` (which reads proofs_checks/checks.json) starts fast.
"""
__all__ = ["run_all", "run_all_json", "report_data", "run_check", "all_checks", "get", "errata_report", "ERRATA",
           "Erratum",
           "Check", "CheckResult", "Verdict", "HOLDS", "PART", "FAILS", "NOT_CHECKABLE", "PROVED", "SAMPLED"]
_FROM_ERRATA = {"ERRATA": "ERRATA", "Erratum": "Erratum", "errata_report": "report"}


def __getattr__(name):
    if name in __all__:
        import importlib

        if name in _FROM_ERRATA:
            value = getattr(importlib.import_module(f"{__name__}.errata"), _FROM_ERRATA[name])
        else:
            value = getattr(importlib.import_module(f"{__name__}.core"), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
