"""The experiment registry, parameter handling, the laplace_tail floor check and lemma4_2 (LVSUW21 Lemma 4.2)."""

from __future__ import annotations

import numpy as np
import pytest

from simulations import contract, experiments, runner, stats
from simulations.experiments import laplace_tail, lemma4_2


def test_registry_finds_experiments_by_name_and_result_id():
    """Lemma 4.2 is validated by lemma4_2 (its sensitivity); laplace_tail validates no paper result."""
    assert "laplace_tail" in experiments.names()
    assert experiments.get("laplace_tail") is laplace_tail.EXPERIMENT
    assert experiments.get("lvsuw21:lemma4.2") is lemma4_2.EXPERIMENT
    assert experiments.get("lemma4.2") is lemma4_2.EXPERIMENT
    assert experiments.get("simulations.experiments.laplace_tail") is laplace_tail.EXPERIMENT
    rows = {r["name"]: r for r in experiments.catalogue()}
    assert rows["laplace_tail"]["result_ids"] == [] and rows["laplace_tail"]["error"] is None


def test_declared_defaults_equal_the_constructed_params():
    """`simulations list NAME` prints the defaults read from the Params declarations (constructing Params runs its
    checks, which may compute bounds); for every experiment they equal the constructed Params' values (catches a
    default a check or validation would rewrite, and a default_factory not called)."""
    for name in experiments.names():
        module = experiments.get(name)
        assert experiments.default_params(module) == experiments.params_to_dict(module.params()), name


def test_unknown_experiment_and_bad_module_raise_value_error():
    with pytest.raises(ValueError, match="unknown"):
        experiments.get("no_such_experiment")
    with pytest.raises(ValueError, match="declares no EXPERIMENT"):
        experiments.get("simulations.stats")  # a module without the experiment shape


def test_make_params_coerces_and_validates():
    p = experiments.make_params(laplace_tail.EXPERIMENT, {"k": "4", "eps": "0.5"})
    assert p.k == 4 and p.eps == 0.5 and p.beta == 0.05
    assert experiments.params_from_dict(laplace_tail.EXPERIMENT, experiments.params_to_dict(p)) == p
    with pytest.raises(ValueError, match="k="):
        experiments.make_params(laplace_tail.EXPERIMENT, {"k": "2.5"})
    with pytest.raises(ValueError, match="eps"):
        experiments.make_params(laplace_tail.EXPERIMENT, {"eps": "-1"})
    with pytest.raises(ValueError, match="unknown"):
        experiments.make_params(laplace_tail.EXPERIMENT, {"kk": "1"})
    assert experiments.parse_overrides(["a=1", "b = x=y"]) == {"a": "1", "b": " x=y"}
    with pytest.raises(ValueError, match="key=value"):
        experiments.parse_overrides(["novalue"])


def test_laplace_tail_failure_rate_matches_exact_law(tmp_path):
    """4000 trials, k=3, beta=0.2: the failure rate's 99% CP interval contains 1 - (1 - beta/k)^k
    (catches a Laplace scale off by a factor, e.g. Delta/(2 eps), which moves the rate to ~0.5)."""
    r = runner.run("laplace_tail", 4000, tmp_path / "run", seed=31, workers=1, progress=False,
                   overrides={"k": 3, "beta": 0.2, "confidence": 0.99})
    s = r.summary
    assert s["exact_law_consistent"], s
    assert s["exact_failure"] == pytest.approx(1 - (1 - 0.2 / 3) ** 3)
    assert s["verdict"] == stats.FLOOR_CHECK and not s["floor_check_failed"]
    assert s["tail_rule"] in ("inconclusive", "holds")  # nearly tight bound: "violated" would be a false alarm


def test_laplace_tail_floor_check_fails_when_noise_exceeds_the_declared_scale():
    """Records from noise 2.5 times the declared scale Delta/eps (a mechanism with a wrong scale) fail the floor
    check: the tail rule says 'violated' and the exact law is rejected (catches a summarise that ignores the
    records)."""
    params = laplace_tail.Params(k=3, beta=0.2)
    values = laplace_tail.lemma_values(params)
    rng = np.random.default_rng(0)
    z = np.abs(rng.laplace(0, values["laplace_scale"] * 2.5, size=(2000, 3))).max(axis=1)  # noise 2.5x too large
    records = [{"max_abs_error": float(v), "success": bool(v <= values["release_error"])} for v in z]
    s = contract.summarise_run(laplace_tail.EXPERIMENT, records, params)
    assert s["tail_rule"] == "violated" and not s["exact_law_consistent"] and s["floor_check_failed"]
    assert s["verdict"] == stats.FLOOR_CHECK and "FAILED" in s["verdict_text"]


def test_lemma4_2_adversarial_neighbours_reach_but_never_exceed_one_over_n(tmp_path):
    """Exhaustive neighbours of 2 small datasets (3 binary attributes, 2-way marginals, |S| = 3): no pair moves
    f by more than 1/n (status inconclusive: a universal claim), and the search reaches the bound (n max|df|
    >= 0.5: measured 1.0); the negative control held to 1/(2n) must be violated (catches a search that never
    moves f, or a summary blind to the records)."""
    over = {"n": 30, "num_attributes": 3, "k": 2, "support_size": 3}
    r = runner.run("lemma4_2", 2, tmp_path / "ok", seed=4, workers=1, progress=False, overrides=over)
    s = r.summary
    assert s["verdict"] == stats.INCONCLUSIVE and s["pairs"] > 0
    assert 0.5 <= s["max_sensitivity_ratio"] <= 1 + 30 * lemma4_2.LP_TOLERANCE
    r = runner.run("lemma4_2", 2, tmp_path / "bad", seed=4, workers=1, progress=False,
                   overrides={**over, "variant": "half_bound"})
    assert r.summary["verdict"] == stats.VIOLATED and r.summary["negative_control"]


def test_lazy_catalogue_equals_the_imported_one():
    """`simulations list` reads NAME / RESULT_IDS / DESCRIPTION from the sources without importing the experiments:
    the rows equal those of the imported modules (catches a statement misread, e.g. a multi-line DESCRIPTION)."""
    assert experiments.catalogue(lazy=True) == experiments.catalogue()
