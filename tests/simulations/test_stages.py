"""simulations.stages: the seeds of a staged search and the refusals that keep it reproducible."""

from __future__ import annotations

import pytest

from simulations import runner, stages


def test_stage_seeds_are_deterministic_distinct_and_stage_0_is_the_root():
    """Catches stage seeds drawn from fresh entropy (not reproducible) or equal across stages (the refinement
    trials would replay stage 0's draws)."""
    seeds = [stages.stage_seed(12, k) for k in range(8)]
    assert seeds[0] == 12 and seeds == [stages.stage_seed(12, k) for k in range(8)]
    assert len(set(seeds)) == 8 and all(0 <= s < 2**63 for s in seeds)
    assert stages.stage_seed(13, 1) != stages.stage_seed(12, 1)
    runner.check_seed(seeds[-1])


def test_a_search_refuses_a_plain_experiment_a_used_directory_and_a_missing_search(tmp_path):
    with pytest.raises(ValueError, match="not staged"):
        stages.run("thm10", 2, tmp_path / "a", seed=1)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x").write_text("")
    with pytest.raises(ValueError, match="not an empty directory"):
        stages.run("thm10_looseness", 2, tmp_path / "b", seed=1)
    with pytest.raises(ValueError, match="not a staged search"):
        stages.resume(tmp_path / "b")
    assert not (tmp_path / "a").exists()


def test_a_staged_search_labels_its_one_progress_line_stage_k_of_at_most_k(monkeypatch):
    """Catches a staged search drawing a fresh, unlabelled bar per stage: each stage's bar is labelled
    "stage k of at most K" (K the search's last possible stage, thm10_looseness's refinements at its
    resolution) and erased when the stage ends, so the stages share one line."""
    from simulations import experiments
    from simulations.experiments import thm10_looseness as loose

    params = experiments.make_params(loose.EXPERIMENT, {})
    last = loose.max_refinements(params.factor, params.resolution)
    assert loose.max_stage(params) == last >= 1
    assert stages.stage_label(loose.EXPERIMENT, params, 2) == f"stage 2 of at most {last}"
    monkeypatch.setattr("sys.stderr.isatty", lambda: True)
    bar = runner._progress(10, 0, stages.stage_label(loose.EXPERIMENT, params, 0))
    try:
        assert bar.desc.startswith(f"stage 0 of at most {last}") and not bar.leave and not bar.disable
    finally:
        bar.close()
    plain = runner._progress(10, 0, False)
    assert plain.disable and plain.leave
    plain.close()


def test_a_staged_search_prints_one_line_per_finished_stage_with_its_cpu(tmp_path, capsys):
    """A search run where no bar shows (stderr not a terminal) still says where it is: one line per finished
    stage on stderr, labelled "stage k of at most K", the last one saying the search ends, each with the CPU
    seconds so far (non-decreasing); none with progress=False. Catches a search silent for its whole run."""
    from simulations.experiments import thm10_looseness as loose

    params = dict(loose.CI_RUN["params"])
    results = stages.run("thm10_looseness", 2, tmp_path / "s", seed=3, overrides=params, workers=1)
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == len(results) >= 2
    cpu = [float(line.rsplit(";", 1)[1].split()[0]) for line in lines]
    for k, line in enumerate(lines):
        assert line.startswith(f"thm10_looseness stage {k} of at most ") and "s CPU so far" in line
    assert "the search ends here" in lines[-1] and cpu == sorted(cpu)
    stages.run("thm10_looseness", 2, tmp_path / "quiet", seed=3, overrides=params, workers=1, progress=False)
    assert capsys.readouterr().err == ""
