"""Shared fixtures for the simulations tests: a slow toy experiment importable by worker processes."""

from __future__ import annotations

import sys
import textwrap

import pytest

SLOW_EXPERIMENT = textwrap.dedent('''
    """Test helper: a trial that sleeps, so a run can be killed mid-way."""
    import time
    from dataclasses import dataclass

    from simulations import contract

    @dataclass(frozen=True)
    class Params:
        sleep: float = 0.005
        p: float = 0.9
        fail_below: float = 0.0

    @dataclass(frozen=True)
    class Outcome:
        u: tuple[float, ...]
        success: bool

    def trial(params, rng):
        time.sleep(params.sleep)
        u = rng.random(3)
        if u[1] < params.fail_below:
            raise ValueError("toy trial failed on purpose")
        return Outcome(u=tuple(u.tolist()), success=bool(u[0] < params.p))

    def summarise(records, params):
        k = sum(r["success"] for r in records)
        c = contract.claim(k, len(records), 0.5, 0.95, label="u[0] < p w.p. >= 1/2")
        return contract.Judgement(claims=[c], text=c["verdict_text"])

    EXPERIMENT = contract.Experiment(
        name="slow_toy", results=(), description="sleeps, then draws a few numbers", params=Params, trial=trial,
        summarise=summarise, outcome=Outcome, ci=contract.CiRun(2), opponents=contract.NoOpponents("a toy"),
        section=contract.Unsectioned("a toy of the tests"))
''')


@pytest.fixture()
def toy_module(tmp_path, monkeypatch):
    """Write the slow toy experiment into a directory on sys.path and PYTHONPATH; returns its module path."""
    pkg = tmp_path / "toy_pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "slow_toy.py").write_text(SLOW_EXPERIMENT)
    monkeypatch.syspath_prepend(str(tmp_path))
    old = __import__("os").environ.get("PYTHONPATH", "")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path) + (":" + old if old else ""))
    yield "toy_pkg.slow_toy"
    for name in [m for m in sys.modules if m.startswith("toy_pkg")]:
        del sys.modules[name]
