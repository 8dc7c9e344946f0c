"""Hypothesis profiles for the whole suite (a suite that cannot go red by chance).

- ``ci`` (the default, also what CI runs): derandomized, so every run draws the same examples
  and a green suite stays green; no deadline (timings vary with load on shared machines); no
  example database (a failure found elsewhere is not silently replayed); ``print_blob`` so a
  failure prints the line that reproduces it.
- ``explore`` (``python -m pytest --hypothesis-profile=explore --hypothesis-seed=N``): fresh
  random examples from seed N and more of them where a test does not fix ``max_examples``
  itself; run it by hand to look for counterexamples the fixed draws miss. A failure it finds
  is a real finding: fix the code or the declaration, never the profile.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", derandomize=True, deadline=None, database=None, print_blob=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("explore", derandomize=False, deadline=None, max_examples=500,
                          print_blob=True, suppress_health_check=[HealthCheck.too_slow])

#: the profile a run uses unless ``--hypothesis-profile`` names another one
DEFAULT_PROFILE = "ci"
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", DEFAULT_PROFILE))


def pytest_configure(config):
    """``--hypothesis-profile=NAME`` wins over the default loaded above, whichever of this conftest
    and hypothesis' own plugin is configured first."""
    name = config.getoption("hypothesis_profile", default=None)
    if name:
        settings.load_profile(name)
