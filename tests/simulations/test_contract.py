"""The contract every registered experiment and audit target keeps, tested over the registries (in the manner of
dp_accounting's shared accountant test): adding a module to ``simulations/experiments`` or
``simulations/audit_targets`` adds it here, with no new test file.

* Every experiment declares ``CI_RUN`` and runs small (``runner.evaluate``, fixed seed) with the paper's
  algorithm and with each of its ``NEGATIVE_CONTROLS``; a control must come out ``violated``.
* Every claim a summary holds names its kind (``contract.KINDS``) and its labels are unique; parameters are all
  declared with ``param`` (help and range) and survive the JSON round trip.
* Every summary states ``informative`` and it follows from the records: a module with ``TRIVIAL_ALGORITHMS`` has
  their outcomes edited in its CI run's records (each made to fail, then each alone made to succeed) and is
  re-summarised, and the flag must follow; a lower bound's regime flag names the test that checks it against
  its records (``INFORMATIVE_TESTED_BY``, which must exist); a module that judges no trivial algorithm says why
  (``NO_TRIVIAL_ALGORITHMS``) and states ``informative: false``.
* A verdict follows from the records: re-summarising them gives the same verdict, every claim's status is the
  Clopper-Pearson rule on its own counts, and a control's ``violated`` is carried by a violated claim (or, for
  ``CONTROL_DECIDED_BY`` modules, by the record it names).
* Every audit target runs at its declared ``ci_samples``: a real mechanism must pass, a broken one be caught.

A control or target that does not behave at its CI size is not hidden: it is listed in ``KNOWN_FAILURES`` with
the reason, and the test runs it as a strict xfail (so it fails the day it starts behaving, to be moved out).
Broken by once: a control run with ``variant="none"`` (its summary then says 'inconclusive' or 'holds') fails
``test_negative_control_is_violated``; a target's ``expect_private`` flipped fails ``test_audit_target``.
"""

from __future__ import annotations

import dataclasses
import json

import pytest

from simulations import audit, contract, experiments, runner, stats
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

EXPERIMENTS = [row["name"] for row in experiments.catalogue(lazy=True)]


def _mark(key):
    reason = KNOWN_FAILURES.get(key)
    return [pytest.mark.xfail(strict=True, reason=reason)] if reason else []


def _experiment_cases():
    out = []
    for name in EXPERIMENTS:
        module = experiments.get(name)
        out.append(pytest.param(name, None, id=f"{name}", marks=_mark(("experiment", name, None))))
        for variant in experiments.controls(module):
            out.append(pytest.param(name, variant, id=f"{name}-{variant}",
                                    marks=_mark(("experiment", name, variant))))
    return out


def _run(name: str, variant: str | None):
    module = experiments.get(name)
    ci = module.CI_RUN
    overrides = dict(ci["params"])
    if variant is not None:
        overrides["variant"] = variant
    records, summary = runner.evaluate(name, ci["trials"], seed=SEED, overrides=overrides)
    return module, records, summary


@pytest.mark.parametrize("name,variant", _experiment_cases())
def test_experiment_runs_small_and_keeps_the_contract(name, variant):
    """The paper's algorithm (variant None) and each negative control run at CI_RUN; a control must be violated."""
    module, records, summary = _run(name, variant)
    json.dumps(summary, allow_nan=False)
    assert summary["verdict"] in stats.STATUSES
    if experiments.controls(module):
        assert summary["variant"] == (variant or contract.NO_VARIANT)
    if variant is not None:
        assert summary["verdict"] == stats.VIOLATED, summary["verdict_text"]
    _check_informative(module, summary)
    claims = contract.find_claims(summary)
    by_label = {}
    for _, c in claims:  # a label names one claim; the same claim shown twice (a summary's headline) is fine
        if c.get("label") is not None:
            by_label.setdefault(c["label"], set()).add((c["successes"], c["trials"], c["target"]))
    assert all(len(v) == 1 for v in by_label.values()), "claim labels must be unique within a summary"
    for path, c in claims:
        assert contract.claim_kind(c) in contract.KINDS, path
        assert "kind" in c, f"{path}: a claim made today names its kind (contract.claim)"
    _check_verdict_follows_the_records(module, records, summary, variant)
    if variant is None and _trivial(module):
        _check_informative_follows_the_records(module, records, name)


def _trivial(module) -> tuple:
    return tuple(getattr(module, "TRIVIAL_ALGORITHMS", None) or ())


def _params_of(module, variant):
    overrides = dict(module.CI_RUN["params"])
    if variant is not None:
        overrides["variant"] = variant
    return experiments.make_params(module, overrides)


def _check_verdict_follows_the_records(module, records, summary, variant):
    """The summary is a function of the records (re-summarised: same verdict and informative), each claim's status
    is the Clopper-Pearson rule on its own counts, and a control's ``violated`` is carried by a claim whose counts
    give violated. Broken by once: a control whose summary says violated whatever its claims (thm13's control read
    by its verdict alone) fails here unless ``CONTROL_DECIDED_BY`` names what decides it."""
    again = module.summarise(records, _params_of(module, variant))
    assert again["verdict"] == summary["verdict"] and again.get("informative") == summary.get("informative")
    claims = contract.find_claims(summary)
    for path, c in claims:
        status = c.get("verdict", c.get("status"))
        if "verdict_confidence" in c:
            assert stats.verdict(c["successes"], c["trials"], c["target"], c["verdict_confidence"],
                                 at_bound=status != stats.BELOW_BOUND).status == status, path
    if variant is not None:
        decided_by = getattr(module, "CONTROL_DECIDED_BY", None)
        if decided_by is None:
            assert any(c.get("verdict", c.get("status")) == stats.VIOLATED for _, c in claims), \
                "a control's violated must be carried by a violated claim"
        else:
            assert decided_by(summary), f"{module.NAME}: CONTROL_DECIDED_BY does not find the violation"


_SUCCESS, _FAILURE = (True, 0.0), (False, 10.0)


def _edit(node, name, outcome, inside=False):
    """Set, in one record, every outcome of the trivial algorithm ``name``: its flags (``<name>_accurate``,
    ``accurate`` under ``<name>``, or ``<name>`` under a dict of flags) and its errors (``<name>_error``,
    ``error`` under ``<name>``, or ``<name>`` under a dict of errors). Returns how many fields were set."""
    flag, error = outcome
    count = 0
    if isinstance(node, dict):
        for k, v in list(node.items()):
            mine = inside or k == name or k.startswith(f"{name}_")
            if isinstance(v, dict):
                count += _edit(v, name, outcome, inside=inside or k == name)
            elif mine and isinstance(v, bool) and (inside or k in (name, f"{name}_accurate")) and \
                    (not inside or k in ("accurate", "ok")):
                node[k] = flag
                count += 1
            elif mine and isinstance(v, float) and (k in (name, f"{name}_error") or (inside and k == "error")):
                node[k] = error
                count += 1
    elif isinstance(node, list):
        for v in node:
            count += _edit(v, name, outcome, inside)
    return count


def _informative_flags(summary) -> list[bool]:
    top = summary["informative"]
    return list(top.values()) if isinstance(top, dict) else [top]


def _check_informative_follows_the_records(module, records, name):
    """Every trivial algorithm made to fail in the records (records repeated to 120 trials, so 0/120 fails and
    120/120 succeeds against any target <= 0.97) makes every ``informative`` flag true; any one of them made to
    succeed makes every flag false. Broken by once: thm11's constant baseline counted as 0 whatever its records
    (its status then consistent with its counts, so the baseline check above passes) fails the second assertion."""
    import copy

    trivial = _trivial(module)
    params = _params_of(module, None)
    rows = copy.deepcopy(records) * (-(-120 // len(records)))
    for r in rows:
        for t in trivial:
            assert _edit(r, t, _FAILURE), f"{name}: no outcome of trivial algorithm {t} in the records"
    flags = _informative_flags(module.summarise(rows, params))
    assert flags and all(flags), f"{name}: every trivial algorithm fails, yet informative is {flags}"
    for t in trivial:
        one = copy.deepcopy(rows)
        for r in one:
            _edit(r, t, _SUCCESS)
        flags = _informative_flags(module.summarise(one, params))
        assert not any(flags), f"{name}: {t} succeeds, yet informative is {flags}"


def _judged_against_baselines(node, path="summary"):
    """Every (path, dict) of a summary holding both ``baselines`` (records with a status) and ``informative``."""
    if isinstance(node, dict):
        if isinstance(node.get("baselines"), dict) and isinstance(node.get("informative"), bool):
            yield path, node
        for k, v in node.items():
            yield from _judged_against_baselines(v, f"{path}.{k}")


def _check_informative(module, summary):
    """``informative`` follows from the baselines' records: each baseline's status is the Clopper-Pearson rule on
    its own counts, and ``informative`` is true exactly when every trivial algorithm (``TRIVIAL_ALGORITHMS`` where
    the module declares them, else every baseline) fails. A module that declares trivial algorithms states
    ``informative`` at the top of its summary. Broken by once: a summary that declares ``informative: True``
    whatever its baselines (prop4_3 before its trivial supports) fails here."""
    trivial = getattr(module, "TRIVIAL_ALGORITHMS", None)
    found = list(_judged_against_baselines(summary))
    for path, node in found:
        base = node["baselines"]
        for name, b in base.items():
            if "status" in b:
                again = contract.baseline(b["successes"], b["trials"], b["target"], b["ci_confidence"])
                assert b["status"] == again["status"], f"{path}.baselines.{name}"
        names = [k for k in (trivial or base) if k in base]
        assert names, f"{path}: no trivial algorithm among the baselines"
        assert node["informative"] == contract.informative({k: base[k] for k in names}), path
    if trivial:
        assert found and "informative" in summary, "an experiment with TRIVIAL_ALGORITHMS states informative"
    assert "informative" in summary, "every summary states informative (simulations.contract)"
    reason = getattr(module, "NO_TRIVIAL_ALGORITHMS", None)
    if reason:
        assert summary["informative"] is False and summary["informative_reason"] == reason


@pytest.mark.parametrize("name", EXPERIMENTS)
def test_experiment_declares_its_parameters_once(name):
    """Every field is declared with ``param`` (help and allowed values), the defaults validate, the CI overrides
    are fields, and parameters survive the JSON round trip of a run directory."""
    module = experiments.get(name)
    assert hasattr(module, "CI_RUN") and set(module.CI_RUN) <= {"trials", "params"}, "declare CI_RUN"
    fields = dataclasses.fields(module.Params)
    assert all(_params.field_spec(f) is not None for f in fields), [f.name for f in fields
                                                                     if _params.field_spec(f) is None]
    assert set(module.PARAM_HELP) == {f.name for f in fields}
    p = experiments.make_params(module, module.CI_RUN["params"])
    assert experiments.params_from_dict(module, json.loads(json.dumps(experiments.params_to_dict(p)))) == p
    declared = [k for k in ("TRIVIAL_ALGORITHMS", "INFORMATIVE_TESTED_BY", "NO_TRIVIAL_ALGORITHMS")
                if getattr(module, k, None)]
    assert declared, "declare TRIVIAL_ALGORITHMS, INFORMATIVE_TESTED_BY or NO_TRIVIAL_ALGORITHMS"
    tested_by = getattr(module, "INFORMATIVE_TESTED_BY", None)
    if tested_by:
        from pathlib import Path

        path, _, test = tested_by.partition("::")
        assert f"def {test}(" in (Path(__file__).parents[2] / path).read_text(), tested_by
    if experiments.controls(module):
        assert module.Params().variant == contract.NO_VARIANT
        with pytest.raises(ValueError, match="variant="):
            module.Params(variant="no such control")


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
