"""Verdicts that discriminate: in thm10, thm3_1 and prop4_3 the trivial algorithms run in the same trials as the
paper's algorithm, and the summary's ``informative`` (and thm10's ``separation``) follow from their records, never
from a declaration. Each test runs an experiment small, then edits the trivial algorithms' outcomes in the records
and re-summarises: all trivial algorithms failing makes the verdict informative, any one succeeding makes it not.
Broken by once: ``informative`` set to True regardless of the baselines (as prop4_3 had it) fails every test here;
a trivial algorithm dropped from ``TRIVIAL_ALGORITHMS`` fails the thm10 test's name check."""

from __future__ import annotations

import copy

from simulations import contract, runner
from simulations.experiments import prop4_3, thm3_1, thm10

SEED = 24


def _set(records, path_of, names, value):
    out = copy.deepcopy(records)
    for r in out:
        for name in names:
            node, key = path_of(r, name)
            node[key] = value
    return out


def test_thm10_informative_and_separation_follow_the_trivial_releases():
    params = {"cases": "thresholds:zipf", "num_points": 64, "alpha": 0.5}
    records, summary = runner.evaluate("thm10", 4, seed=SEED, overrides=params)
    case = summary["cases"]["thresholds:zipf"]
    assert set(case["baselines"]) == set(thm10.TRIVIAL_ALGORITHMS)  # every trivial release is judged
    p = thm10.Params(cases=("thresholds:zipf",), num_points=64, alpha=0.5)
    rows = records * 10  # 40 trials: enough for 'succeeds' (40/40) and 'fails' (0/40) against 0.9

    def at(r, name):  # an opponent is judged by its error (Err <= alpha), A_PAP's claim by its flag
        return r["cases"]["thresholds:zipf"], (f"{name}_error" if name != "A_PAP" else "accurate")

    def err(r, _):
        return r["cases"]["thresholds:zipf"], "error"

    ok = _set(_set(_set(rows, at, ["A_PAP"], True), err, ["A_PAP"], 0.0), at, list(thm10.TRIVIAL_ALGORITHMS), 1.0)
    s = contract.summarise_run(thm10.EXPERIMENT, ok, p)
    assert s["informative"] == {"thresholds:zipf": True} and s["cases"]["thresholds:zipf"]["separation"]["separated"]
    assert s["verdict_text"].split(": ", 1)[1].startswith("informative in 1/1")
    for name in thm10.TRIVIAL_ALGORITHMS:  # any one trivial release meeting alpha makes the verdict uninformative
        s = contract.summarise_run(thm10.EXPERIMENT, _set(ok, at, [name], 0.0), p)
        c = s["cases"]["thresholds:zipf"]
        assert not c["informative"] and c["separation"]["trivial_not_failing"] == [name], name
        assert not c["separation"]["separated"]


def test_thm3_1_informative_follows_its_no_public_and_label_blind_learners():
    params = {"cases": "thresholds:uniform", "num_points": 64, "alpha": 0.2, "fractions": "0.5"}
    records, summary = runner.evaluate("thm3_1", 4, seed=SEED, overrides=params)
    assert isinstance(summary["informative"]["thresholds:uniform"], bool)
    p = thm3_1.Params(cases=("thresholds:uniform",), num_points=64, alpha=0.2, fractions=(0.5,))
    rows = records * 10

    def at(r, name):  # an opponent is judged by its excess error (<= alpha), under its record key
        return r["cases"]["thresholds:uniform"]["baselines"][thm3_1.RECORD_KEY.get(name, name)], "excess"

    def informative(rows):
        return contract.summarise_run(thm3_1.EXPERIMENT, rows, p)["informative"]["thresholds:uniform"]

    ok = _set(rows, at, list(thm3_1.OPPONENTS), 1.0)
    ok = _set(ok, lambda r, _: (r["cases"]["thresholds:uniform"], "accurate"), ["x"], True)
    s = contract.summarise_run(thm3_1.EXPERIMENT, ok, p)
    assert s["informative"]["thresholds:uniform"] and s["cases"]["thresholds:uniform"]["separation"]["separated"]
    # non-private ERM is measured beside the opponents, never one: its success does not make the verdict uninformative
    assert informative(_set(ok, at, ["erm_private"], 0.0))
    for name in thm3_1.OPPONENTS:
        assert not informative(_set(ok, at, [name], 0.0)), name


def test_prop4_3_informative_follows_the_trivial_supports():
    params = dict(prop4_3.EXPERIMENT.ci.params)
    records, summary = runner.evaluate("prop4_3", 2, seed=SEED, overrides=params)
    assert set(prop4_3.TRIVIAL_ALGORITHMS) == set(summary["baselines"])
    p = prop4_3.Params(num_attributes=20, k=2, num_workloads=12, alpha=0.2, fractions=(1.0,))
    rows = records * 20
    names = list(prop4_3.TRIVIAL_ALGORITHMS)

    def at(r, name):
        return r, f"{prop4_3.RECORD_KEY.get(name, name)}_error"

    bad = _set(rows, at, names, 1.0)  # every trivial support / release misses alpha
    s = contract.summarise_run(prop4_3.EXPERIMENT, bad, p)
    assert s["informative"] and s["verdict_text"].split(": ", 1)[1].startswith("informative")
    for name in names:
        s = contract.summarise_run(prop4_3.EXPERIMENT, _set(bad, at, [name], 0.0), p)
        assert not s["informative"] and s["baselines"][name]["status"] == contract.SUCCEEDS, name
