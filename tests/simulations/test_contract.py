"""The contract every registered experiment and audit target keeps, tested over the registries (in the manner of
dp_accounting's shared accountant test): adding a module to ``simulations/experiments`` or
``simulations/audit_targets`` adds it here, with no new test file. Everything is read from the module's
declaration (``EXPERIMENT = contract.Experiment(...)``): no rule here guesses a record's or a summary's keys.

* Every experiment runs small at its declared ``ci`` (``runner.evaluate``, fixed seed) with the paper's algorithm
  and with each of its ``controls``; a control must come out ``violated``.
* Every record a trial writes has exactly the fields and JSON types of the declared ``outcome`` type.
* Every claim a summary holds names its kind (``contract.KINDS``) and its labels are unique; parameters are all
  declared with ``param`` (help and range) and survive the JSON round trip.
* ``informative`` follows from the records: for declared opponents, the outcome fields the outcome type marks as
  theirs (``contract.opponent_field``) are edited in the CI run's records (each made to fail, then each alone made
  to succeed) and re-summarised, and the flag must follow; a lower bound's regime flag names the test that checks
  it against its records (``LowerBoundRegime(tested_by)``, which must exist); ``NoOpponents(why)`` gives
  ``informative: false`` with that reason.
* A verdict follows from the records: re-summarising them gives the same verdict, every claim's status is the
  Clopper-Pearson rule on its own counts, every opponent's status the same rule on its counts, and a control's
  ``violated`` is carried by a violated claim (or by what the declaration's ``control_decided_by`` reads).
* Every audit target runs at its declared ``ci_samples``: a real mechanism must pass, a broken one be caught.

A control or target that does not behave at its CI size is not hidden: it is listed in ``KNOWN_FAILURES`` with
the reason, and the test runs it as a strict xfail (so it fails the day it starts behaving, to be moved out).
Broken by once: a control run with ``variant="none"`` (its summary then says 'inconclusive' or 'holds') fails
``test_negative_control_is_violated``; a target's ``expect_private`` flipped fails ``test_audit_target``; thm11's
constant baseline counted as 0 whatever its records fails the informative check; a record field renamed in a
trial (``constant_error`` -> ``const_error``) fails the outcome check.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import sys
import types
import typing
from pathlib import Path

import pytest

from simulations import audit, contract, experiments, runner, stats
from simulations._experiment import opponent_of
from simulations.experiments import _params

SEED = 20_240_601

#: (registry, name, variant or None) -> why it does not behave at its CI size; shown by -rx
KNOWN_FAILURES: dict[tuple[str, str, str | None], str] = {
    ("audit", "nb20_unvprivcl_first_phase_no_subsampling", None):
        "not caught at 1,000 samples (eps_lb 0): its designed leak (joint event 0.027 vs 0.087, log-ratio 1.17 "
        "against the declared 0.862) needs about 30,000 samples, 142 s of CPU at A_UnvPrivCl's own k (caught there: "
        "eps_lb 1.09, benchmarks/RESULTS.md); no pair of its shape is much cheaper; the leak itself is checked in "
        "tests/simulations/test_nb20_audit.py",
}

#: docs/DESIGN.md's worked example, a real experiment outside the registry (tests/examples), run like the others
WORKED_EXAMPLE = "worked_example.laplace_release"
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
EXPERIMENTS = [row["name"] for row in experiments.catalogue(lazy=True)] + [WORKED_EXAMPLE]


def _mark(key):
    reason = KNOWN_FAILURES.get(key)
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


def _experiment_cases():
    out = []
    for name in EXPERIMENTS:
        exp = experiments.get(name)
        out.append(pytest.param(name, None, id=f"{name}", marks=_mark(("experiment", name, None))))
        for variant in exp.controls:
            out.append(pytest.param(name, variant, id=f"{name}-{variant}",
                                    marks=_mark(("experiment", name, variant))))
    return out


def _params_of(exp, variant):
    overrides = dict(exp.ci.params)
    if variant is not None:
        overrides["variant"] = variant
    return experiments.make_params(exp, overrides)


@pytest.mark.parametrize("name,variant", _experiment_cases())
def test_experiment_runs_small_and_keeps_the_contract(name, variant):
    """The paper's algorithm (variant None) and each negative control run at the declared ci; a control must be
    violated."""
    exp = experiments.get(name)
    params = _params_of(exp, variant)
    records, summary = runner.evaluate(name, exp.ci.trials, seed=SEED, params=params)
    json.dumps(summary, allow_nan=False)
    for i, r in enumerate(records):
        assert contract.record_errors(exp.outcome, r) is None, f"record {i}: {contract.record_errors(exp.outcome, r)}"
    assert summary["verdict"] in stats.STATUSES
    assert summary["variant"] == (variant or contract.NO_VARIANT)
    assert summary["negative_control"] is (variant is not None)
    assert summary["result_ids"] == list(exp.results)
    assert name in (exp.name, WORKED_EXAMPLE)
    if variant is not None:
        assert summary["verdict"] == stats.VIOLATED, summary["verdict_text"]
    claims = contract.find_claims(summary)
    by_label = {}
    for _, c in claims:  # a label names one claim; the same claim shown twice (a summary's headline) is fine
        if c.get("label") is not None:
            by_label.setdefault(c["label"], set()).add((c["successes"], c["trials"], c["target"]))
    assert all(len(v) == 1 for v in by_label.values()), "claim labels must be unique within a summary"
    for path, c in claims:
        assert "kind" in c and c["kind"] in contract.KINDS, f"{path}: a claim names its kind (contract.claim)"
    _check_verdict_follows_the_records(exp, records, summary, params, variant)
    _check_informative(exp, records, summary, params)
    if variant is None:
        _check_no_opponent_weaker_than_the_constant(summary)
        _check_lower_bound_cells_where_the_non_private_release_is_accurate(summary)
    if variant is None and exp.opponent_names:
        _check_informative_follows_the_records(exp, records, params)


def _check_verdict_follows_the_records(exp, records, summary, params, variant):
    """The summary is a function of the records (re-summarised: same verdict and informative), each claim's status
    is the Clopper-Pearson rule on its own counts, and a control's ``violated`` is carried by a claim whose counts
    give violated. Broken by once: a control whose summary says violated whatever its claims (thm13's control read
    by its verdict alone) fails here unless ``control_decided_by`` names what decides it."""
    again = contract.summarise_run(exp, records, params)
    assert again["verdict"] == summary["verdict"] and again["informative"] == summary["informative"]
    claims = contract.find_claims(summary)
    for path, c in claims:
        status = c.get("verdict", c.get("status"))
        if "verdict_confidence" in c:
            assert stats.verdict(c["successes"], c["trials"], c["target"], c["verdict_confidence"],
                                 at_bound=status != stats.BELOW_BOUND).status == status, path
    if variant is not None:
        if exp.control_decided_by is None:
            assert any(c.get("verdict", c.get("status")) == stats.VIOLATED for _, c in claims), \
                "a control's violated must be carried by a violated claim"
        else:
            assert exp.control_decided_by(summary), f"{exp.name}: control_decided_by does not find the violation"


def _check_informative(exp, records, summary, params):
    """``informative`` as the declaration says: every opponent's status is the Clopper-Pearson rule on its own
    counts and ``informative`` is the contract's rule over them; NoOpponents says False with its reason; a lower
    bound's regime flag names an existing test. Broken by once: a summary that declares ``informative: True``
    whatever its baselines (prop4_3 before its trivial supports) fails here."""
    o = exp.opponents
    if isinstance(o, contract.NoOpponents):
        assert summary["informative"] is False and summary["informative_reason"] == o.why
        return
    if isinstance(o, contract.LowerBoundRegime):
        path, _, test = o.tested_by.partition("::")
        assert f"def {test}(" in (Path(__file__).parents[2] / path).read_text(), o.tested_by
        flags = summary["informative"]
        assert isinstance(flags, bool) or all(isinstance(v, bool) for v in flags.values())
        return
    judgement = exp.summarise(records, params)
    outcomes = judgement.opponents
    groups = outcomes.values() if all("status" not in v for v in outcomes.values()) else [outcomes]
    for group in groups:
        for name in exp.opponent_names:
            b = group[name]
            if b is None:  # does not apply to this group
                continue
            again = contract.baseline(b["successes"], b["trials"], b["target"], b["ci_confidence"])
            assert b["status"] == again["status"], name
    assert _informative_flags(summary), "an experiment with opponents states informative"
    strongest = summary["strongest_opponent"]
    for group_best in (strongest.values() if "name" not in strongest else [strongest]):
        assert group_best is None or (group_best["name"] in exp.opponent_names
                                      and group_best["failed"] == (group_best["status"] == contract.FAILS))


def _nodes(value, path=""):
    """Every (path, dict) of a JSON value, nested included."""
    if isinstance(value, dict):
        yield path, value
        for k, v in value.items():
            yield from _nodes(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, f"{path}[{i}]")


def _check_no_opponent_weaker_than_the_constant(summary):
    """An opponent weaker than the data-free constant on the same draws is a defect, not a baseline: every
    ``weaker_than_constant`` list a summary states (``simulations.opponents.summarise_opponents``) is empty.
    Broken by once: thm10's former "A_PAP without private data" (error 1.3-2.0 against the constant's 1.0), see
    test_an_opponent_weaker_than_the_constant_fails_the_contract."""
    for path, node in _nodes(summary):
        weak = node.get("weaker_than_constant")
        assert not weak, f"{path}: opponents weaker than the constant release: {weak}"


def _check_lower_bound_cells_where_the_non_private_release_is_accurate(summary):
    """A lower bound's claim counts only where the non-private release is accurate: every cell that states its
    non-private release (``nonprivate``, a baseline record) and carries a verdict (``prediction`` not below-bound)
    has that release ``succeeds``. Broken by once: thm15's in-regime cells at n = 24, judged while the exact pooled
    answers failed there, see test_a_lower_bound_judged_where_the_non_private_release_fails_breaks_the_contract."""
    for path, node in _nodes(summary):
        pred, nonprivate = node.get("prediction", node.get("lower_bound_prediction")), node.get("nonprivate")
        if isinstance(pred, dict) and isinstance(nonprivate, dict) and pred.get("verdict") in (
                stats.HOLDS, stats.VIOLATED, stats.INCONCLUSIVE):
            assert nonprivate["status"] == contract.SUCCEEDS, \
                f"{path}: a lower bound judged where the non-private release is {nonprivate['status']}"


def test_an_opponent_weaker_than_the_constant_fails_the_contract():
    """thm10's CI records with the public-only release's error raised to 1.5 (as the former "A_PAP without private
    data" had it): the summary lists it as weaker than the constant and the contract check refuses the run."""
    exp = experiments.get("thm10")
    params = _params_of(exp, None)
    records, summary = runner.evaluate("thm10", 8, seed=SEED, params=params)
    _check_no_opponent_weaker_than_the_constant(summary)
    broken = copy.deepcopy(records)
    for r in broken:
        for c in r["cases"].values():
            c["public_only_error"] = 1.5
    again = contract.summarise_run(exp, broken, params)
    with pytest.raises(AssertionError, match="weaker than the constant"):
        _check_no_opponent_weaker_than_the_constant(again)


def test_a_lower_bound_judged_where_the_non_private_release_fails_breaks_the_contract():
    """thm15's CI run judges its cells (the exact pooled answers succeed there); the same summary with a judged
    cell's non-private release marked failing is refused by the contract check."""
    exp = experiments.get("thm15")
    params = _params_of(exp, None)
    _, summary = runner.evaluate("thm15", exp.ci.trials, seed=SEED, params=params)
    _check_lower_bound_cells_where_the_non_private_release_is_accurate(summary)
    judged = [r for r in summary["rows"] if r["prediction"]["verdict"] != stats.BELOW_BOUND]
    assert judged, "the CI run judges a cell"
    broken = copy.deepcopy(summary)
    next(r for r in broken["rows"] if r["prediction"]["verdict"] != stats.BELOW_BOUND)["nonprivate"]["status"] = \
        contract.FAILS
    with pytest.raises(AssertionError, match="non-private release"):
        _check_lower_bound_cells_where_the_non_private_release_is_accurate(broken)


def _informative_flags(summary) -> list[bool]:
    top = summary["informative"]
    return list(top.values()) if isinstance(top, dict) else [top]


# ---------------------------------------------------------------- the opponents' fields, edited by the outcome type


def _edit_value(value, tp, name: str, ok: bool) -> int:
    """Set, inside one JSON ``value`` of type ``tp``, every field the outcome types mark as opponent ``name``'s
    (``contract.opponent_field``): a success flag to ``ok``, an error to 0 (ok) or 10 (not ok). Returns how many
    fields were set."""
    if value is None:
        return 0
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return max((_edit_value(value, a, name, ok) for a in args if a is not type(None)), default=0)
    if origin is dict:
        return sum(_edit_value(v, args[1], name, ok) for v in value.values())
    if origin is tuple and args:
        items = args[:1] * len(value) if len(args) == 2 and args[1] is Ellipsis else args
        return sum(_edit_value(v, t, name, ok) for v, t in zip(value, items))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        hints, count = typing.get_type_hints(tp), 0
        for f in dataclasses.fields(tp):
            if f.name not in value:
                continue
            mark = opponent_of(f)
            if mark and mark[0] == name:
                count += _set(value, f.name, hints[f.name], mark[1], ok)
            else:
                count += _edit_value(value[f.name], hints[f.name], name, ok)
        return count
    return 0


def _set(record: dict, key: str, tp, role: str, ok: bool) -> int:
    if record[key] is None:
        return 0
    if role == "success":
        record[key] = ok
    elif role == "error":
        record[key] = 0.0 if ok else 10.0
    else:  # a nested outcome: its flags and errors
        inner = next(t for t in (tp, *typing.get_args(tp)) if isinstance(t, type) and dataclasses.is_dataclass(t))
        for f, t in typing.get_type_hints(inner).items():
            if t is bool:
                record[key][f] = ok
            elif t is float:
                record[key][f] = 0.0 if ok else 10.0
    return 1


def _check_informative_follows_the_records(exp, records, params):
    """Every opponent made to fail in the records (records repeated to 120 trials, so 0/120 fails and 120/120
    succeeds against any target <= 0.97) makes every ``informative`` flag true; any one of them made to succeed
    makes every flag false. Broken by once: thm11's constant baseline counted as 0 whatever its records (its status
    then consistent with its counts, so the baseline check above passes) fails the second assertion."""
    rows = copy.deepcopy(records) * (-(-120 // len(records)))
    for r in rows:
        for t in exp.opponent_names:
            assert _edit_value(r, exp.outcome, t, False), f"{exp.name}: no outcome of opponent {t} in the records"
    flags = _informative_flags(contract.summarise_run(exp, rows, params))
    assert flags and all(flags), f"{exp.name}: every opponent fails, yet informative is {flags}"
    for t in exp.opponent_names:
        one = copy.deepcopy(rows)
        for r in one:
            _edit_value(r, exp.outcome, t, True)
        flags = _informative_flags(contract.summarise_run(exp, one, params))
        assert not any(flags), f"{exp.name}: {t} succeeds, yet informative is {flags}"


# ---------------------------------------------------------------- declarations


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_experiment_declares_its_parameters_once(name):
    """Every field is declared with ``param`` (help and allowed values), the defaults validate, the CI overrides
    are fields, and parameters survive the JSON round trip of a run directory."""
    exp = experiments.get(name)
    fields = dataclasses.fields(exp.params)
    assert all(_params.field_spec(f) is not None for f in fields), [f.name for f in fields
                                                                     if _params.field_spec(f) is None]
    assert set(_params.param_help(exp.params)) == {f.name for f in fields}
    p = experiments.make_params(exp, exp.ci.params)
    assert experiments.params_from_dict(exp, json.loads(json.dumps(experiments.params_to_dict(p)))) == p
    if exp.controls:
        assert exp.params().variant == contract.NO_VARIANT
        with pytest.raises(ValueError, match="variant="):
            exp.params(variant="no such control")


def test_a_declaration_is_checked_when_it_is_built():
    """One clear ValueError naming the module and the field, for each kind of mistake."""
    from simulations.experiments import thm11

    good = dataclasses.asdict(thm11.EXPERIMENT.ci)
    base = {f.name: getattr(thm11.EXPERIMENT, f.name) for f in dataclasses.fields(contract.Experiment)}
    base.pop("module")
    bad = {"results": ("thm11",), "name": "thm 11", "description": " ", "ci": contract.CiRun(0, good["params"]),
           "opponents": ("nobody",), "controls": {"x": 1}, "outcome": dict, "params": dict,
           "section": "Thm 11"}
    for field, value in bad.items():
        with pytest.raises(ValueError, match=rf"experiment {__name__}: Experiment\.{field}"):
            contract.Experiment(**{**base, field: value})
    with pytest.raises(ValueError, match=r"Experiment\.ci overrides unknown parameters nonsense"):
        contract.Experiment(**{**base, "ci": contract.CiRun(2, {"nonsense": 1})})
    for section in (None, contract.Unsectioned(" ")):  # a section is declared: a key or why there is none
        with pytest.raises(ValueError, match=r"Experiment\.section"):
            contract.Experiment(**{**base, "section": section})


def test_record_fields_and_record_errors_read_the_outcome_type():
    """``record_fields`` gives key -> type; ``record_errors`` finds a missing, an extra and a mistyped key (the
    breaks a trial writing the wrong record would make)."""
    from simulations.experiments import thm11

    fields = contract.record_fields(thm11.EXPERIMENT)
    assert fields == {"cases": dict[str, thm11.Case]}
    assert contract.record_fields(thm11.Case)["constant_error"] is float
    exp = thm11.EXPERIMENT
    records, _ = runner.evaluate("thm11", 1, seed=SEED, params=_params_of(exp, None))
    assert contract.record_errors(exp.outcome, records[0]) is None
    case = records[0]["cases"]["thresholds"]
    renamed = {("const_error" if k == "constant_error" else k): v for k, v in case.items()}
    for broken, why in ((renamed, "not declared"), ({**case, "constant_error": "high"}, "not a number"),
                        ({**case, "rounds": 1.5}, "not an int")):
        assert why in (contract.record_errors(exp.outcome, {"cases": {"thresholds": broken}}) or ""), why


def _audit_cases():
    return [pytest.param(name, id=name, marks=_mark(("audit", name, None))) for name in sorted(audit.targets())]


@pytest.mark.parametrize("name", _audit_cases())
def test_audit_target(name):
    """A real mechanism passes, a broken one is caught, at the target's declared ``ci_samples``."""
    t = audit.get_target(name)
    assert t.ci_samples is not None, f"audit target {name} declares no ci_samples"
    result = audit.run_target(name, samples=t.ci_samples, seed=5)
    assert audit.as_expected(t, result), str(result)


def test_no_registry_module_fails_to_import():
    """A module that cannot be imported would drop out of the tests above silently."""
    assert not [row for row in experiments.catalogue() if row["error"]]
    assert not audit.target_errors()
