"""Negative controls shared by the PMW and A_PAP accuracy tests (tests/algorithms/test_pmw.py, test_pap.py)."""

from __future__ import annotations

import dataclasses
import importlib

import pytest

from algorithms.privacy import NumericSparse

pmw_mod = importlib.import_module("algorithms.query_release.pmw")  # the package attribute pmw is the function


def _tenfold_noise(monkeypatch):
    """Mutant: every NumericSparse noise scale (threshold, comparison, answer) x10."""
    for name in ("threshold_scale", "query_scale", "answer_scale"):
        original = getattr(NumericSparse, name)
        monkeypatch.setattr(NumericSparse, name, property(lambda self, f=original.fget: 10.0 * f(self)))


def _zero_threshold(monkeypatch):
    """Mutant: PMW's NumericSparse threshold T = 0 instead of 2 alpha_mw."""
    original = pmw_mod.pmw_parameters
    monkeypatch.setattr(pmw_mod, "pmw_parameters",
                        lambda *a, **k: dataclasses.replace(original(*a, **k), threshold=0.0))


PMW_MUTANTS = {"noise_x10": _tenfold_noise, "threshold_0": _zero_threshold}


@pytest.fixture(params=sorted(PMW_MUTANTS))
def pmw_mutant(request, monkeypatch):
    """A deliberately broken PMW (for the duration of the test): its noise scales x10, or threshold 0."""
    PMW_MUTANTS[request.param](monkeypatch)
    return request.param
