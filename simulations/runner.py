"""The Monte-Carlo runner: one root seed, one child seed per trial, three backends, crash-safe and resumable.

Seeding: trial i uses ``trial_rng(root_seed, i) = default_rng(SeedSequence(root_seed, spawn_key=(i,)))``,
which is the generator of the i-th child of ``SeedSequence(root_seed).spawn(...)``. A trial's
record therefore depends only on (experiment, params, root_seed, i): results are identical for any
number of workers, any backend, any order, and across ``resume``.

Backends: ``"serial"`` (in this process), ``"process"`` (a local ``ProcessPoolExecutor``, the default,
``workers`` processes), ``"dask"`` (a Dask distributed scheduler at ``scheduler``; dask is imported
only then; the workers must be able to import the experiment module). Work is sent in chunks of
consecutive indices so per-task overhead stays low; each chunk's records are appended to the store
(flushed and fsynced) as soon as it returns, so a kill loses at most the chunks in flight.

Run directories are untrusted input: ``resume`` and ``status`` look the experiment up by the manifest's
name in the registry (:func:`resolve_experiment`), never import a module path the manifest names (a run
of an experiment outside the registry is resumed by naming its module: ``experiment=`` /
``--experiment``); every record line carries the manifest's digest of (experiment, params, root seed),
and a directory whose records disagree with it is refused (:mod:`simulations.store`).

Process-pool workers die with the process that started them: each sets ``PR_SET_PDEATHSIG`` (Linux) and
polls its parent, so a ``kill -9`` of the main process leaves no worker computing. A Dask scheduler lost
mid-run is one line; the finished trials are on disk and ``resume`` continues.

Public API: :func:`run`, :func:`resume`, :func:`status`, :func:`evaluate` (in memory), :func:`trial_rng`,
:func:`run_chunk`, :func:`resolve_experiment`.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

import numpy as np

from simulations import contract, experiments, store
from simulations._scheduler import check_scheduler_address, connect  # noqa: F401  (runner is the import path)

BACKENDS = ("serial", "process", "dask")
MAX_CHUNK = 256
MAX_TRIALS = store.MAX_TRIALS  # the store's limit, named here for the command line


def trial_rng(root_seed: int, index: int) -> np.random.Generator:
    """The generator of trial ``index``: the ``index``-th child of ``SeedSequence(root_seed)``."""
    return np.random.default_rng(np.random.SeedSequence(root_seed, spawn_key=(int(index),)))


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed={seed!r} must be an integer >= 0")
    return int(seed)


def fresh_seed() -> int:
    """A root seed from OS entropy (recorded in the manifest, so the run can be reproduced)."""
    return int(np.random.SeedSequence().entropy)


def code_version() -> str:
    """``git describe --always --dirty`` of the checkout holding this package, else the installed package version."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=here, capture_output=True,
                             text=True, timeout=10)
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        from importlib.metadata import version

        return f"pubpriv-workbench {version('pubpriv-workbench')}"
    except Exception:
        return "unknown"


# ---------------------------------------------------------------- the unit of work


def run_chunk(module_path: str, params_dict: dict, root_seed: int, indices: Sequence[int],
              digest: str | None = None) -> list[tuple[int, str]]:
    """Run trials ``indices`` of the experiment at ``module_path``; returns [(index, records.jsonl line)],
    each line carrying the run's ``digest``.

    Top-level and argument-only (no closures) so process pools and Dask workers can pickle it; the
    JSON encoding happens here, so a non-serialisable record fails in the worker with its index.
    """
    module = experiments.get(module_path)
    params = experiments.params_from_dict(module, params_dict)
    return [(int(i), store.encode_record(i, contract.as_record(module.trial(params, trial_rng(root_seed, i))), digest))
            for i in indices]


class TrialError(ValueError):
    """A trial raised: one line naming the error (the finished trials stay on disk)."""


def _submit_args(spec: tuple, batch) -> tuple:
    """``run_chunk``'s arguments for one batch: spec is (module_path, params_dict, root_seed[, digest])."""
    return (*spec[:3], batch, *spec[3:])


_PR_SET_PDEATHSIG = 1


def _watch_parent(parent: int) -> None:
    """Exit this worker as soon as ``parent`` (the process that started the pool) is gone."""
    while True:
        time.sleep(0.5)
        if os.getppid() != parent:
            try:
                os.kill(parent, 0)
                continue  # a forkserver's child: reparented, yet the main process lives
            except ProcessLookupError:
                os._exit(1)
            except PermissionError:
                continue


def _worker_init(parent: int) -> None:
    """Pool worker start-up: die with the main process. PR_SET_PDEATHSIG (Linux) sends SIGKILL when the
    parent ends, even while a compiled kernel holds the GIL; a polling thread covers other systems and a
    parent that died before this ran."""
    import signal
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:
            pass
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="watch-parent").start()


def chunks(indices: Sequence[int], workers: int, chunk_size: int | None = None) -> list[list[int]]:
    """Split ``indices`` into chunks: about 16 per worker, at most MAX_CHUNK trials each (unless chunk_size is
    given)."""
    indices = list(indices)
    if not indices:
        return []
    if chunk_size is None:
        chunk_size = max(1, min(MAX_CHUNK, math.ceil(len(indices) / (16 * max(1, workers)))))
    if chunk_size < 1:
        raise ValueError(f"chunk_size={chunk_size!r} must be an integer >= 1")
    return [indices[k:k + chunk_size] for k in range(0, len(indices), chunk_size)]


def _serial(spec: tuple, batches: list[list[int]]) -> Iterator[list[tuple[int, str]]]:
    for batch in batches:
        yield run_chunk(*_submit_args(spec, batch))


def _process(spec: tuple, batches: list[list[int]], workers: int) -> Iterator[list[tuple[int, str]]]:
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(max_workers=workers, initializer=_worker_init, initargs=(os.getpid(),)) as pool:
        pending = {pool.submit(run_chunk, *_submit_args(spec, b)) for b in batches}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield fut.result()
        finally:
            for fut in pending:
                fut.cancel()


def _dask(spec: tuple, batches: list[list[int]], client) -> Iterator[list[tuple[int, str]]]:
    from distributed import as_completed

    futures = [client.submit(run_chunk, *_submit_args(spec, b), pure=False) for b in batches]
    try:
        with client.as_current():  # as_completed looks the client up; ours is not the global default
            finished = as_completed(futures)
        for fut in finished:
            try:
                yield fut.result()
            except (OSError, TimeoutError) as exc:  # CommClosedError and friends: the scheduler is gone
                raise LostScheduler(f"lost the Dask scheduler ({type(exc).__name__}: "
                                    f"{' '.join(str(exc).split())[:160]})") from None
            except Exception as exc:
                if type(exc).__name__ in ("CancelledError", "FutureCancelledError", "CommClosedError"):
                    raise LostScheduler(f"lost the Dask scheduler ({type(exc).__name__})") from None
                raise
    finally:
        unfinished = [f for f in futures if not f.done()]
        if unfinished:
            try:
                client.cancel(unfinished)
            except Exception:  # the scheduler is gone: nothing to cancel
                pass


class LostScheduler(ValueError):
    """The Dask scheduler went away mid-run (one line; the run is resumable)."""


def execute(spec: tuple, indices: Sequence[int], *, backend: str, workers: int, scheduler=None,
            chunk_size: int | None = None) -> Iterator[list[tuple[int, str]]]:
    """Yield batches of (index, line) as they finish, for the trials ``indices`` of ``spec = (module_path, params_dict,
    root_seed)``."""
    if backend not in BACKENDS:
        raise ValueError(f"backend={backend!r} must be one of {BACKENDS}")
    if backend == "dask":
        if not hasattr(scheduler, "submit"):
            raise ValueError(f"scheduler={scheduler!r} must be a distributed.Client here (see connect)")
        n_workers = max(1, len(scheduler.scheduler_info().get("workers", {})))
        return _dask(spec, chunks(indices, n_workers, chunk_size), scheduler)
    batches = chunks(indices, workers, chunk_size)
    if backend == "serial":
        return _serial(spec, batches)
    return _process(spec, batches, workers)


# ---------------------------------------------------------------- runs


@dataclass(frozen=True)
class RunResult:
    """What :func:`run` and :func:`resume` return."""

    path: Path
    trials: int
    completed: int
    summary: dict | None


def _progress(total: int, initial: int, enabled: bool | str | None):
    """A tqdm bar over the trials; ``enabled`` a string labels it (e.g. "stage 2 of at most 5": a staged
    search's bars then share one line, each erased when its stage ends) and shows it as None would."""
    from tqdm import tqdm

    label = enabled if isinstance(enabled, str) else None
    if enabled is None or label is not None:
        enabled = sys.stderr.isatty()
    return tqdm(total=total, initial=initial, disable=not enabled, unit="trial", dynamic_ncols=True,
                desc=label, leave=label is None)


def _choose_backend(workers: int, scheduler) -> str:
    if scheduler is not None:
        return "dask"
    return "serial" if workers == 1 else "process"


def _check_workers(workers) -> int:
    if workers is None:
        return max(1, os.cpu_count() or 1)
    if isinstance(workers, bool) or not isinstance(workers, (int, np.integer)) or workers < 1:
        raise ValueError(f"workers={workers!r} must be an integer >= 1")
    return int(workers)


def _describe_scheduler(scheduler) -> str:
    if isinstance(scheduler, str):
        return scheduler
    address = getattr(getattr(scheduler, "scheduler", None), "address", None)
    return str(address or scheduler)


def summarise_stored(module, records: list[dict], params, run_dir: store.RunDir) -> dict:
    """:func:`simulations.store.recompute_summary` of records read back from ``run_dir`` (the one recomputation)."""
    return store.recompute_summary(module, records, params, run_dir.records_path)


#: the experiment module of a run directory, looked up by the manifest's name in the registry (never by a module path
#: the directory names); defined by the store's judging half, which looks it up to recompute a run's summary
resolve_experiment = store.resolve_experiment


def _drive(run_dir: store.RunDir, *, workers, scheduler, chunk_size, progress, backend=None,
           experiment=None) -> RunResult:
    """Run the missing trials of ``run_dir`` under its lock, append their records, summarise when all
    are done. A write error (disk full, permissions) becomes one StoreError naming the path and the
    cause; the finished trials stay on disk and ``resume`` continues after the cause is fixed."""
    run_dir.acquire_lock()
    try:
        return _drive_locked(run_dir, workers=workers, scheduler=scheduler, chunk_size=chunk_size,
                             progress=progress, backend=backend, experiment=experiment)
    finally:
        run_dir.release_lock()


def _resume_hint(run_dir: store.RunDir) -> str:
    return (f"the finished trials are saved; fix the cause (e.g. free space), then "
            f"python -m simulations resume {run_dir.path}")


def _drive_locked(run_dir: store.RunDir, *, workers, scheduler, chunk_size, progress, backend=None,
                  experiment=None) -> RunResult:
    manifest = run_dir.manifest()
    module = resolve_experiment(manifest, experiment)
    state = run_dir.inspect(experiment)  # digest, records, their types, a stored summary: recomputed, not trusted
    blocking = [p for p in state.problems if p != state.orphan_summary]  # missing trials are re-run, then summarised
    if blocking:
        more = f" (and {len(blocking) - 1} more problems)" if len(blocking) > 1 else ""
        raise store.StoreError(f"{run_dir.path} is corrupt: {blocking[0]}{more}; not resumed")
    params = experiments.params_from_dict(module, manifest["params"])
    digest = store.expected_digest(manifest)
    spec = (experiments.module_path(module), experiments.params_to_dict(params), int(manifest["root_seed"]), digest)
    total = int(manifest["trials"])
    workers = _check_workers(workers)
    backend = backend or _choose_backend(workers, scheduler)
    done = set(run_dir.read_records(total))  # a corrupt line, a foreign digest or an index out of range: refuse
    missing = [i for i in range(total) if i not in done]
    store.check_writable(run_dir.path, "run directory")  # before computing anything

    session = {"started_at": store.now(), "finished_at": None, "elapsed_seconds": None, "backend": backend,
               "workers": workers if backend != "dask" else None,
               "scheduler": _describe_scheduler(scheduler) if backend == "dask" else None,
               "code_version": code_version(), "trials_run": 0}
    sessions = manifest.get("sessions", []) + [session]
    try:
        run_dir.update_manifest(sessions=sessions, status="running")
    except OSError as exc:
        raise store.os_error(exc, run_dir.manifest_path, "nothing was computed") from None
    t0 = time.perf_counter()
    ran = 0
    try:
        with run_dir.appender() as out, _progress(total, len(done), progress) as bar:
            for batch in execute(spec, missing, backend=backend, workers=workers, scheduler=scheduler,
                                 chunk_size=chunk_size):
                out.write(line for _, line in batch)
                ran += len(batch)
                bar.update(len(batch))
    except BaseException as exc:  # record the interrupted session (finished trials are already on disk), re-raise
        session.update(finished_at=store.now(), elapsed_seconds=time.perf_counter() - t0, trials_run=ran,
                       interrupted=f"{type(exc).__name__}: {exc}")
        try:
            run_dir.update_manifest(sessions=sessions, status="interrupted")
        except OSError:
            pass  # the disk is full: the manifest keeps "running", which status shows as stale
        if isinstance(exc, OSError):
            raise store.os_error(exc, run_dir.records_path, _resume_hint(run_dir)) from None
        if isinstance(exc, LostScheduler):
            raise LostScheduler(f"{exc}; {ran + len(done)} of {total} trials are saved; resume with "
                                f"python -m simulations resume {run_dir.path}") from None
        if isinstance(exc, Exception) and not isinstance(exc, store.StoreError):
            raise TrialError(f"a trial of {module.name} failed: {type(exc).__name__}: "
                             f"{' '.join(str(exc).split())[:300]}") from exc
        raise
    elapsed = time.perf_counter() - t0
    session.update(finished_at=store.now(), elapsed_seconds=elapsed, trials_run=ran)
    records = run_dir.read_records(total)
    summary = None
    try:
        if len(records) == total:
            summary = summarise_stored(module, [records[i] for i in range(total)], params, run_dir)
            run_dir.write_summary(summary)
            run_dir.update_manifest(sessions=sessions, status="complete", finished_at=session["finished_at"])
        else:  # pragma: no cover - only if a backend lost work without raising
            run_dir.update_manifest(sessions=sessions, status="running")
    except OSError as exc:
        raise store.os_error(exc, run_dir.path, "every trial is saved; resume writes the summary") from None
    return RunResult(run_dir.path, total, len(records), summary)


@contextlib.contextmanager
def _client(scheduler):
    """None for local backends; a Client given as such; a new Client (closed afterwards) for an address."""
    if scheduler is None or hasattr(scheduler, "submit"):
        yield scheduler
        return
    client = connect(scheduler)
    try:
        yield client
    finally:
        client.close()


def check_trials(trials, max_trials: int | None = None) -> int:
    """``trials`` as an int in [1, max_trials] (default MAX_TRIALS); ValueError naming the override."""
    limit = MAX_TRIALS if max_trials is None else max_trials
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1:
        raise ValueError(f"max_trials={max_trials!r} must be an integer >= 1")
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
        raise ValueError(f"trials={trials!r} must be an integer >= 1")
    if trials > limit:
        raise ValueError(f"trials={trials:,} is above the limit of {limit:,} trials per run (memory and one "
                         f"record line per trial); raise it with --max-trials {trials} if you mean it")
    return int(trials)


def run(experiment: str, trials: int, out: str | os.PathLike, *, seed: int | None = None, params=None,
        overrides: dict | None = None, workers: int | None = None, scheduler=None, chunk_size: int | None = None,
        progress: bool | None = None, backend: str | None = None, max_trials: int | None = None) -> RunResult:
    """Run ``trials`` trials of ``experiment`` into a new run directory ``out`` and summarise them.

    ``experiment``: a name, result id or module path (:func:`simulations.experiments.get`).
    ``params``: an instance of the module's Params, or ``overrides`` (key -> value or string) on its defaults.
    ``seed``: root seed (int >= 0; drawn from OS entropy and recorded when None).
    ``workers``: local processes (default: CPU count; 1 runs serially in this process).
    ``scheduler``: a Dask scheduler address (or a ``distributed.Client``) to run on instead; connected
    before the run directory is created, so a bad address leaves nothing behind.
    ``progress``: show a tqdm bar (default: only when stderr is a terminal; a string: that label on it, shown
    as by default, the bar erased when the run ends).
    ``max_trials``: the limit on ``trials`` (default MAX_TRIALS).
    Raises ValueError on bad arguments before anything is written; StoreError (a ValueError) if
    ``out`` cannot be written, before anything is computed.
    """
    if not str(out).strip():
        raise ValueError("--out is empty: give a new directory for the run")
    module = experiments.get(experiment)
    if params is None:
        params = experiments.make_params(module, overrides)
    elif overrides:
        raise ValueError("give params or overrides, not both")
    elif not isinstance(params, module.params):
        raise ValueError(f"params must be an instance of {module.module}.Params, got {type(params).__name__}")
    trials = check_trials(trials, max_trials)
    if isinstance(scheduler, str):
        check_scheduler_address(scheduler)
    seed = fresh_seed() if seed is None else check_seed(seed)
    workers = _check_workers(workers)
    if chunk_size is not None and (not isinstance(chunk_size, int) or chunk_size < 1):
        raise ValueError(f"chunk_size={chunk_size!r} must be an integer >= 1")
    manifest = {
        "experiment": module.name,
        "module": experiments.module_path(module),
        "result_ids": list(module.results),
        "params": experiments.params_to_dict(params),
        "root_seed": seed,
        "digest": store.params_digest(module.name, experiments.params_to_dict(params), seed),
        "trials": int(trials),
        "code_version": code_version(),
        "created_at": store.now(),
        "finished_at": None,
        "status": "running",
        "sessions": [],
    }
    existed = Path(out).exists()
    with _client(scheduler) as client:
        run_dir = store.RunDir.create(out, manifest)  # takes the lock; _drive releases it
        try:
            return _drive(run_dir, workers=workers, scheduler=client, chunk_size=chunk_size, progress=progress,
                          backend=backend, experiment=experiments.module_path(module))
        except TrialError:
            _remove_if_empty(run_dir, existed)
            raise


def _remove_if_empty(run_dir: store.RunDir, existed: bool) -> None:
    """A new run whose first trial failed leaves nothing behind (no record: nothing to resume)."""
    try:
        if run_dir.records_path.stat().st_size:
            return
        for p in (run_dir.records_path, run_dir.manifest_path, run_dir.summary_path, run_dir.lock_path):
            p.unlink(missing_ok=True)
        if not existed:
            run_dir.path.rmdir()
    except OSError:
        pass


def resume(out: str | os.PathLike, *, workers: int | None = None, scheduler=None, chunk_size: int | None = None,
           progress: bool | None = None, backend: str | None = None, experiment: str | None = None,
           max_trials: int | None = None) -> RunResult:
    """Run only the trials missing from the run directory ``out`` (same seed, same parameters), then summarise.
    ``experiment``: the module of a run outside the registry (:func:`resolve_experiment`); ``max_trials``:
    accept a manifest with more trials than MAX_TRIALS."""
    run_dir = store.RunDir.open(out, max_trials=max_trials)
    resolve_experiment(run_dir.manifest(), experiment)  # refuse before taking the lock
    if isinstance(scheduler, str):
        check_scheduler_address(scheduler)
    run_dir.acquire_lock()  # refuse before connecting to anything if another process runs it
    try:
        with _client(scheduler) as client:
            return _drive(run_dir, workers=workers, scheduler=client, chunk_size=chunk_size,
                          progress=progress, backend=backend, experiment=experiment)
    finally:
        run_dir.release_lock()


def evaluate(experiment: str, trials: int, *, seed: int, params=None, overrides: dict | None = None,
             workers: int = 1, scheduler=None, chunk_size: int | None = None) -> tuple[list[dict], dict]:
    """Run ``trials`` trials in memory, no run directory: ``(records in index order, summary)``.

    For searches that try many parameter settings (e.g. the least n and m at which a guarantee holds);
    same seeding as :func:`run`, so ``evaluate(...)`` gives the records ``run(...)`` would store.
    """
    module = experiments.get(experiment)
    if params is None:
        params = experiments.make_params(module, overrides)
    elif overrides:
        raise ValueError("give params or overrides, not both")
    if isinstance(trials, bool) or not isinstance(trials, (int, np.integer)) or trials < 1:
        raise ValueError(f"trials={trials!r} must be an integer >= 1")
    seed = check_seed(seed)
    workers = _check_workers(workers)
    spec = (experiments.module_path(module), experiments.params_to_dict(params), seed)
    found: dict[int, dict] = {}
    with _client(scheduler) as client:
        for batch in execute(spec, range(trials), backend=_choose_backend(workers, client), workers=workers,
                             scheduler=client, chunk_size=chunk_size):
            for index, line in batch:
                found[index] = json.loads(line)["record"]
    records = [found[i] for i in range(trials)]
    return records, store.recompute_summary(module, records, params)


def status(out: str | os.PathLike, *, experiment: str | None = None, max_trials: int | None = None) -> dict:
    """The state of a run directory judged by its records (:meth:`store.RunDir.inspect`): manifest
    fields, ``state`` (complete / running / stale / interrupted / corrupt) with ``state_text`` and
    ``problems``, completed / missing counts from the valid records, the time computed (a live run's up to
    now: ``elapsed_text``), and the summary recomputed from the records every time, never read back from
    summary.json (marked partial when the run is not complete; none when corrupt, or when the experiment
    cannot be looked up: ``note`` says why). The experiment is looked up by name (:func:`resolve_experiment`)."""
    run_dir = store.RunDir.open(out, max_trials=max_trials)
    m = run_dir.manifest()
    st = run_dir.inspect(experiment)
    info = {k: m.get(k) for k in ("experiment", "result_ids", "params", "root_seed", "trials", "code_version",
                                  "created_at", "finished_at")}
    info["status"] = st.state
    info["manifest_status"] = st.manifest_status
    info["state_text"] = st.describe()
    info["problems"] = st.problems
    info["note"] = st.note
    info["lock_holder"] = st.holder
    info["completed"] = st.completed
    info["missing"] = st.missing
    info["elapsed_seconds"], info["elapsed_covers"] = st.elapsed()
    info["elapsed_text"] = st.elapsed_text()
    info["summary_partial"] = st.partial
    info["summary"] = st.summary  # recomputed from the records, never read back from summary.json
    return info
