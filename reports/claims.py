"""The claim rows and lines of a run summary, as the report reads them: defined in :mod:`simulations.claims` (below
the report, so that ``python -m simulations`` prints the same list without importing the report)."""
from simulations.claims import claim_lines, claim_rows, dicts  # noqa: F401  (the report's import path)
