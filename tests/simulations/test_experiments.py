"""The experiment registry, parameter handling, and the laplace_tail experiment (LVSUW21 Lemma 4.2)."""

from __future__ import annotations

import numpy as np
import pytest

from simulations import experiments, runner, stats
from simulations.experiments import laplace_tail


def test_registry_finds_laplace_tail_by_name_and_result_id():
    assert "laplace_tail" in experiments.names()
    assert experiments.get("laplace_tail") is laplace_tail
    assert experiments.get("lvsuw21:lemma4.2") is laplace_tail
    assert experiments.get("lemma4.2") is laplace_tail
    assert experiments.get("simulations.experiments.laplace_tail") is laplace_tail
    rows = {r["name"]: r for r in experiments.catalogue()}
    assert rows["laplace_tail"]["result_ids"] == ["lvsuw21:lemma4.2"] and rows["laplace_tail"]["error"] is None


def test_unknown_experiment_and_bad_module_raise_value_error():
    with pytest.raises(ValueError, match="unknown"):
        experiments.get("no_such_experiment")
    with pytest.raises(ValueError, match="lacks"):
        experiments.get("simulations.stats")  # a module without the experiment shape


def test_make_params_coerces_and_validates():
    p = experiments.make_params(laplace_tail, {"k": "4", "eps": "0.5"})
    assert p.k == 4 and p.eps == 0.5 and p.beta == 0.05
    assert experiments.params_from_dict(laplace_tail, experiments.params_to_dict(p)) == p
    with pytest.raises(ValueError, match="k="):
        experiments.make_params(laplace_tail, {"k": "2.5"})
    with pytest.raises(ValueError, match="eps"):
        experiments.make_params(laplace_tail, {"eps": "-1"})
    with pytest.raises(ValueError, match="unknown"):
        experiments.make_params(laplace_tail, {"kk": "1"})
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
    assert s["verdict"] in ("inconclusive", "holds")  # nearly tight bound: "violated" would be a false alarm


def test_laplace_tail_verdict_is_violated_when_noise_exceeds_the_declared_scale():
    """Records from noise 2.5 times the declared scale Delta/eps (a mechanism with a wrong scale) give 'violated'
    and fail the exact-law check (catches a summarise that ignores the records)."""
    params = laplace_tail.Params(k=3, beta=0.2)
    values = laplace_tail.lemma_values(params)
    rng = np.random.default_rng(0)
    z = np.abs(rng.laplace(0, values["laplace_scale"] * 2.5, size=(2000, 3))).max(axis=1)  # noise 2.5x too large
    records = [{"max_abs_error": float(v), "success": bool(v <= values["release_error"])} for v in z]
    s = laplace_tail.summarise(records, params)
    assert s["verdict"] == "violated" and not s["exact_law_consistent"]
