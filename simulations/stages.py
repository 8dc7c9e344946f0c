"""Staged runs: an adaptive search (e.g. bisection on a sample size) as a chain of ordinary fixed-grid runs.

The runner's model is "a fixed grid of independent trials": trial i of a run depends only on (experiment,
params, root seed, i). An adaptive search cannot fit one such run (which sizes to probe next depends on the
outcomes so far), so it runs as *stages*, each an ordinary run directory of the same experiment:

* the experiment declares ``next_stage(params, summary) -> Params | None``: from one stage's
  parameters and summary, the parameters of the next stage (which carry whatever evidence the next stage's
  ``summarise`` needs), or None when the search is finished. It must be a pure function;
* stage k runs in ``OUT/stage-KK`` with root seed :func:`stage_seed` (root, k) (stage 0 uses the root seed
  itself), all with the same number of trials;
* ``OUT/search.json`` (atomic, format :data:`FORMAT`) holds the experiment, the root seed, the trials and
  stage 0's parameters.

So the whole chain is reproducible from (experiment, stage-0 params, root seed, trials): :func:`resume`
re-derives every stage's parameters and seed from the previous stage's summary and refuses a stage directory
that does not match them (edited or from another search). An interrupted search resumes where it stopped:
finished stages are read, an unfinished one is resumed by :func:`simulations.runner.resume`, the rest run.
Each stage is a complete run directory, so ``status``, the reports and ``resume`` of one stage work as for
any run; a stage's summary says whether it is the search's last (``final``).

Public API: :func:`run`, :func:`resume`, :func:`is_staged`, :func:`stage_dirs`, :func:`stage_seed`,
:func:`status`.
"""

from __future__ import annotations

import os
import resource
import sys
from pathlib import Path

import numpy as np

from simulations import experiments, runner, store

FORMAT = "simulations-stages/1"
SEARCH = "search.json"
#: a safety limit on the number of stages of one search (an experiment's own rule stops far earlier)
MAX_STAGES = 32


def is_staged_module(module) -> bool:
    """Whether an experiment runs as stages (it declares ``next_stage``)."""
    return module.next_stage is not None


def is_staged(path: str | os.PathLike) -> bool:
    """Whether ``path`` is the directory of a staged search (holds ``search.json``, which may be a link or
    FIFO that reading then refuses)."""
    return os.path.lexists(Path(path) / SEARCH)


def stage_seed(root_seed: int, stage: int) -> int:
    """The root seed of stage ``stage``: the root itself for stage 0, else 63 bits drawn from
    ``SeedSequence(root_seed, spawn_key=(2**32 + stage,))`` (a stream no trial of stage 0 uses: trial
    indices are below ``runner.MAX_TRIALS``)."""
    root_seed, stage = runner.check_seed(root_seed), int(stage)
    if stage == 0:
        return root_seed
    state = np.random.SeedSequence(root_seed, spawn_key=(2**32 + stage,)).generate_state(1, np.uint64)[0]
    return int(state >> np.uint64(1))


def stage_label(module, params, k: int) -> str:
    """The progress line's label for stage ``k``: "stage k of at most K", K from the experiment's declared
    ``max_stage(params)`` (the index of the search's last possible stage), else MAX_STAGES - 1."""
    last = module.max_stage
    return f"stage {k} of at most {int(last(params)) if callable(last) else MAX_STAGES - 1}"


def stage_dir(out: str | os.PathLike, stage: int) -> Path:
    return Path(out) / f"stage-{int(stage):02d}"


def stage_dirs(out: str | os.PathLike) -> list[Path]:
    """The stage directories that exist, in stage order."""
    found = []
    k = 0
    while stage_dir(out, k).is_dir():
        found.append(stage_dir(out, k))
        k += 1
    return found


def run(experiment: str, trials: int, out: str | os.PathLike, *, seed: int | None = None, params=None,
        overrides: dict | None = None, workers: int | None = None, scheduler=None, chunk_size: int | None = None,
        progress: bool | None = None, max_trials: int | None = None) -> list[runner.RunResult]:
    """Run a staged experiment into a new directory ``out`` (one run directory per stage); returns the
    stages' results, the last one the search's answer. Arguments as :func:`simulations.runner.run`."""
    if not str(out).strip():
        raise ValueError("--out is empty: give a new directory for the search")
    module = experiments.get(experiment)
    if not is_staged_module(module):
        raise ValueError(f"experiment {module.name!r} is not staged (it has no next_stage); use runner.run")
    if params is None:
        params = experiments.make_params(module, overrides)
    elif overrides:
        raise ValueError("give params or overrides, not both")
    trials = runner.check_trials(trials, max_trials)
    seed = runner.fresh_seed() if seed is None else runner.check_seed(seed)
    p = Path(out)
    if p.exists() and (not p.is_dir() or any(p.iterdir())):
        raise ValueError(f"--out {str(p)!r} already exists and is not an empty directory; choose a new one")
    store.check_writable(p, "--out")
    try:
        store.write_json_atomic(p / SEARCH, {
            "format": FORMAT, "experiment": module.name, "module": experiments.module_path(module),
            "result_ids": list(module.results), "root_seed": seed, "trials": int(trials),
            "max_trials": max_trials, "params": experiments.params_to_dict(params), "created_at": store.now()})
    except OSError as exc:
        raise store.os_error(exc, p) from None
    return resume(out, workers=workers, scheduler=scheduler, chunk_size=chunk_size, progress=progress)


def _read_search(out, max_trials: int | None = None) -> dict:
    """search.json read as untrusted (no link, bounded size) and checked: the fields a search needs, of the
    right types, trials within ``max_trials`` (default MAX_TRIALS: a limit saved in the file is not trusted, the
    user repeats it)."""
    path = Path(out) / SEARCH
    if not os.path.lexists(path):
        raise ValueError(f"{str(out)!r} is not a staged search directory (no {SEARCH})")
    search = store.read_json(path)
    if not isinstance(search, dict) or search.get("format") != FORMAT:
        got = search.get("format") if isinstance(search, dict) else type(search).__name__
        raise ValueError(f"{path}: format {got!r}, expected {FORMAT!r}")
    saved = search.get("max_trials")
    if saved is not None and (isinstance(saved, bool) or not isinstance(saved, int) or saved < 1):
        raise ValueError(f"{path}: max_trials={saved!r} must be an integer >= 1")
    store.check_manifest({**search, "format": store.FORMAT}, path, max_trials)
    return search


def resume(out: str | os.PathLike, *, workers: int | None = None, scheduler=None, chunk_size: int | None = None,
           progress: bool | None = None, max_trials: int | None = None,
           experiment: str | None = None) -> list[runner.RunResult]:
    """Continue the staged search in ``out``: read finished stages, resume an unfinished one, run the rest.
    The experiment is looked up by name in the registry (:func:`simulations.runner.resolve_experiment`)."""
    search = _read_search(out, max_trials)
    module = runner.resolve_experiment(search, experiment)
    if not is_staged_module(module):
        raise ValueError(f"experiment {module.name!r} is not staged (it has no next_stage)")
    params = experiments.params_from_dict(module, search["params"])
    root, trials = int(search["root_seed"]), int(search["trials"])
    results: list[runner.RunResult] = []
    for k in range(MAX_STAGES):
        d, seed = stage_dir(out, k), stage_seed(root, k)
        bar = False if progress is False else stage_label(module, params, k)
        if d.is_dir() and any(d.iterdir()):
            m = store.RunDir.open(d, max_trials=max_trials).manifest()
            want = experiments.params_to_dict(params)
            if m.get("params") != want or int(m.get("root_seed", -1)) != seed or int(m.get("trials", -1)) != trials:
                raise ValueError(f"{d}: its parameters, seed or trials differ from the ones the search derives for "
                                 f"stage {k} (edited, or from another search); start a new --out")
            res = runner.resume(d, workers=workers, scheduler=scheduler, chunk_size=chunk_size, progress=bar,
                                experiment=experiment, max_trials=max_trials)
        else:
            res = runner.run(experiments.module_path(module), trials, d, seed=seed, params=params, workers=workers,
                             scheduler=scheduler, chunk_size=chunk_size, progress=bar, max_trials=max_trials)
        results.append(res)
        nxt = module.next_stage(params, res.summary)
        if progress is not False:       # one line per finished stage, also where no bar shows (not a terminal)
            ends = "the search ends here" if nxt is None else "next stage derived"
            print(f"{module.NAME} {stage_label(module, params, k)}: {res.completed}/{res.trials} trials done, "
                  f"{ends}; {_cpu_seconds():.1f} s CPU so far", file=sys.stderr, flush=True)
        if nxt is None:
            return results
        params = nxt
    raise ValueError(f"{out}: the search did not finish within MAX_STAGES={MAX_STAGES} stages")


def _cpu_seconds() -> float:
    """user + system CPU of this process and of its finished children (a process pool's workers count once reaped)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def status(out: str | os.PathLike, *, max_trials: int | None = None, experiment: str | None = None) -> dict:
    """The search's manifest and each existing stage's :func:`simulations.runner.status`."""
    search = _read_search(out, max_trials)
    runner.resolve_experiment(search, experiment)  # a search of an experiment outside the registry is refused
    stages = [runner.status(d, max_trials=max_trials, experiment=experiment) for d in stage_dirs(out)]
    last = stages[-1] if stages else None
    finished = bool(last and last["status"] == "complete" and last["summary"] and last["summary"].get("final"))
    return {**{k: search.get(k) for k in ("experiment", "result_ids", "root_seed", "trials", "params", "created_at")},
            "stages": stages, "finished": finished}
