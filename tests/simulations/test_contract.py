"""The contract every registered experiment and audit target keeps, tested over the registries (in the manner of
dp_accounting's shared accountant test): adding a module to ``simulations/experiments`` or
``simulations/audit_targets`` adds it here, with no new test file.

* Every experiment declares ``CI_RUN`` and runs small (``runner.evaluate``, fixed seed) with the paper's
  algorithm and with each of its ``NEGATIVE_CONTROLS``; a control must come out ``violated``.
* Every claim a summary holds names its kind (``contract.KINDS``) and its labels are unique; parameters are all
  declared with ``param`` (help and range) and survive the JSON round trip.
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
    module, _, summary = _run(name, variant)
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
