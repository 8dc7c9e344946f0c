"""The overview's family-wise statement (Holm over every verdict shown) and its 'what was tested' table,
on runs written by the real engine."""

from __future__ import annotations

import pytest

from reports import results as _results
from reports.model import Badge, Table
from reports.sections import overview
from simulations import runner, stats


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    base = {"cases": "thresholds:zipf", "num_points": 64, "alpha": 0.5, "baselines": False}
    runner.run("thm10", 4, root / "control", seed=11, workers=1, progress=False,
               overrides={**base, "variant": "cover_from_one"})
    runner.run("thm10", 3, root / "below", seed=1, workers=1, progress=False, overrides={**base, "n_max": 100_000})
    runner.run("prop4_3", 3, root / "prop", seed=4, workers=1, progress=False, overrides={
        "num_attributes": 20, "k": 2, "num_workloads": 12, "alpha": 0.2, "fractions": "1.0,0.001"})
    return _results.load(root).runs


def test_holm_family_holds_only_verdicts_each_once(runs):
    """prop4_3's two claims enter the family once each (its ``verdict_detail`` restates the first: it was
    counted twice), with p = the smaller one-sided p-value of an inconclusive verdict; the negative control's
    violated claims and the floor checks are listed apart; the below-bound run's claims stay out. Catches a
    family that counts a restated claim twice, a broken twin's verdicts, or measurements as verdicts."""
    fam, apart = overview.classify(runs)
    assert {f["run"] for f in fam} == {"prop"} and len(fam) == 2
    assert len({f["claim"] for f in fam}) == 2 and not any("verdict_detail" in f["claim"] for f in fam)
    for f in fam:
        pv, ph = stats.verdict_p_values(3, 3, 0.9)
        assert f["status"] == stats.INCONCLUSIVE and f["p"] == pytest.approx(min(pv, ph))
    control = [a for a in apart if a["run"] == "control"]
    assert len(control) == 2 and {a["kind"] for a in control} == {"negative control"}
    assert {a["status"] for a in control} == {stats.VIOLATED}
    blocks = overview.holm_section(runs)
    assert isinstance(blocks[0], Badge) and "Holm" in blocks[0].text and blocks[0].status == "inconclusive"
    assert "none is decided" in blocks[0].text
    tables = [b for b in blocks if isinstance(b, Table)]
    assert len(tables[0].rows) == 2 and len(tables[1].rows) == len(apart)


class _Run:
    def __init__(self, name, summary):
        from pathlib import Path

        self.path, self.summary = Path(name), summary


def test_kinds_and_labels_decide_what_is_counted():
    """Only kind "verdict" (or no kind) is counted; premise checks, algorithm-free draws and floor checks are
    listed apart; a label names the row and a (run, label) pair is counted once; p from the right tail.
    Catches the old family that counted lemma4_4's premise checks and thm7's Binomial draw as verdicts."""
    from simulations import contract

    def c(k, t, **extra):
        return {**contract.claim(k, t, 0.9, 0.95), **extra}

    summary = {"a": c(40, 40, label="A holds on stumps"), "b": c(40, 40, label="A holds on stumps"),
               "premise": c(40, 40, kind="premise", label="Lemma's premise on the draw"),
               "draw": c(5, 40, kind="algorithm-free", label="Binomial count"),
               "v": c(5, 40, label="A fails somewhere"),
               "floor": {"status": stats.FLOOR_CHECK, "passed": True}}
    fam, apart = overview.classify([_Run("r1", summary), _Run("r2", {"x": c(40, 40)})])
    assert [(f["run"], f["claim"]) for f in fam] == [("r1", "A holds on stumps"), ("r1", "A fails somewhere"),
                                                      ("r2", "x")]
    assert fam[0]["p"] == pytest.approx(stats.verdict_p_values(40, 40, 0.9)[1])
    assert fam[1]["status"] == stats.VIOLATED and fam[1]["p"] == pytest.approx(stats.verdict_p_values(5, 40, 0.9)[0])
    assert sorted(a["kind"] for a in apart) == ["algorithm-free", "floor check", "premise"]


def test_what_was_tested_names_the_fraction_and_variant(runs):
    by_name = {r.path.name: r for r in runs}
    what, frac, base = overview._tested(by_name["below"].summary)
    assert frac.startswith("n ") and "m 1-1" in frac and base == "-"
    what, _, _ = overview._tested(by_name["control"].summary)
    assert what.startswith("negative control cover_from_one")


@pytest.fixture(scope="module")
def lower_bound_runs(tmp_path_factory):
    """thm13 in an informative region cell (C_14r = 4 puts n = 512 inside r = 632 at p = 1000, where the exact mean
    is accurate), thm15 in its regime, and lemma4_4 (a premise check beside B's verdict): about 3 s of CPU."""
    from simulations import experiments

    root = tmp_path_factory.mktemp("lower")
    runner.run("thm13", 20, root / "thm13", seed=13, workers=1, progress=False, overrides={
        "p": 1000, "alpha": 0.2, "bias_range": 0.4, "form": "asymptotic", "c_14r": 4, "n_grid": "512", "m_grid": "0",
        "releases": "exact,gaussian,zero"})
    for name, trials in (("thm15", 30), ("lemma4_4", 80)):
        runner.run(name, trials, root / name, seed=15, workers=1, progress=False,
                   overrides=dict(experiments.get(name).ci.params))
    return _results.load(root).runs


def test_holm_family_lists_thm13_and_thm15_and_leaves_premises_apart(lower_bound_runs):
    """On runs written by the real engine: thm13's in-region verdict (the Gaussian release, the one private release
    it judges there) and thm15's verdict enter the family, each claim once; lemma4_4's premise check ("A_SSPP is an
    (alpha, 1/22)-learner") and the floor checks stay apart. Catches a family that drops the lower bounds (their
    claims were once unreadable to it), counts a claim twice, or counts a premise as a verdict."""
    from simulations import contract

    fam, apart = overview.classify(lower_bound_runs)
    runs_in = [f["run"] for f in fam]
    assert {"thm13", "thm15", "lemma4_4"} <= set(runs_in)
    assert len({(f["run"], f["claim"]) for f in fam}) == len(fam)  # each claim once
    assert [f["claim"] for f in fam if f["run"] == "thm13"] == ["Theorem 13 at n=512, m=0: gaussian is not (alpha, "
                                                                 "alpha)-accurate"]
    assert all(f["status"] != stats.BELOW_BOUND for f in fam)
    premises = [a for a in apart if a["kind"] == contract.PREMISE]
    assert premises and all(a["run"] == "lemma4_4" for a in premises)
    assert not any("learner" in f["claim"] and f["run"] == "lemma4_4" and "A_SSPP" in f["claim"] for f in fam)
    blocks = overview.holm_section(lower_bound_runs)
    assert "Holm" in blocks[0].text and f"over all {len(fam)} verdicts" in blocks[0].text
