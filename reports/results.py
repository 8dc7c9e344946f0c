"""Reading a results directory (``reports`` only reads; it never runs a trial).

A results directory holds, anywhere below it:

* run directories written by :mod:`simulations.store` (``manifest.json`` of format ``simulations-run/2``,
  ``records.jsonl``, ``summary.json``), one per ``python -m simulations run ... --out DIR``;
* audit results saved by ``python -m simulations audit TARGET --out DIR`` (``audit-TARGET.json``, format
  ``simulations-audit/1``).

Neither is trusted (:mod:`reports.integrity`): each audit's verdict is recomputed from its saved numbers at its
registered target's declaration (``_violated``; disagreements in ``_problems`` and the result set's
``problems``), and a run's summary is recomputed from its records every time (:meth:`simulations.store.RunDir.
inspect`): a run whose records disagree, or whose stored summary is not the one its records give, is read as
``corrupt`` (no summary, so no verdict) with the reason in ``problems``. The tree is read by the one walker,
:func:`simulations.store.walk` (no link followed, no directory read twice; each skip a line in ``problems``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reports import integrity
from simulations import store

AUDIT_FORMAT = "simulations-audit/1"  # simulations.__main__.AUDIT_FORMAT


@dataclass
class Run:
    """One run directory: where it is, its manifest, its summary (recomputed from its records, never read back
    from summary.json; None unless complete and not corrupt) and its state judged by its records
    (:meth:`simulations.store.RunDir.inspect`)."""

    path: Path
    manifest: dict
    summary: dict | None
    state: str = "complete"        # simulations.store.STATES
    state_text: str = "complete"
    elapsed: str = "-"             # the time it has computed, for people (a live run: so far)

    @property
    def experiment(self) -> str:
        return self.manifest.get("experiment", "?")

    @property
    def complete(self) -> bool:
        return self.summary is not None and self.state == "complete"

    def records(self) -> list[dict]:
        """The finished trials' records in index order (read on demand)."""
        trials = self.manifest.get("trials")
        return list(store.RunDir(self.path).read_records(int(trials) if trials else None).values())


@dataclass
class ResultSet:
    root: Path
    runs: list[Run] = field(default_factory=list)
    audits: list[dict] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # unreadable files, reported in the report

    def runs_of(self, experiment: str, complete_only: bool = True) -> list[Run]:
        return [r for r in self.runs if r.experiment == experiment and (r.complete or not complete_only)]


def unfinished_text(run: Run) -> str:
    """Why an unfinished run is not reported and what finishes it: a stage of a staged search is resumed
    through its search's directory (resuming the stage alone would not run the later stages); a corrupt run
    is named with its problem and no advice to resume it."""
    from simulations import stages

    if run.state == "corrupt" or run.state == "complete":
        return f"Run {run.path} is not reported: {run.state_text}."
    if run.state == "running":  # a live process computes it: nothing to resume
        return f"Run {run.path} is not reported yet: {run.state_text} ({run.elapsed})."
    staged = stages.is_staged(run.path.parent)
    target = run.path.parent if staged else run.path
    what = f"Stage {run.path.name} of the staged search {run.path.parent}" if staged else f"Run {run.path}"
    return (f"{what} is unfinished ({run.state}) and not reported; finish it with "
            f"`python -m simulations resume {target}`.")


def _run(folder: Path) -> tuple[Run | None, list[str]]:
    """The run directory ``folder`` judged by its records (:meth:`simulations.store.RunDir.inspect`: the summary
    recomputed from them, a stored one that disagrees flagged), with the problems the report lists."""
    try:
        rd = store.RunDir.open(folder)
        st = rd.inspect()
        run = Run(folder, rd.manifest(), st.summary if st.state == "complete" else None, st.state,
                  st.describe(), st.elapsed_text() if st.sessions else "-")
    except (ValueError, OSError) as exc:
        return None, [f"{folder}: not a readable run directory ({' '.join(str(exc).split())})"]
    if st.state == "corrupt":
        return run, [f"{folder}: {run.state_text}"]
    if st.state == "complete" and st.summary is None:
        run.state_text = f"complete, {st.note or 'not judged'}"
        return run, [f"{folder}: {run.state_text}"]
    return run, []


def _audit(path: Path, out: ResultSet) -> None:
    """A saved audit, judged against its registered target's declaration (:func:`reports.integrity.recheck_audit`)."""
    try:
        data = store.read_json(path)  # untrusted: no link, a regular file, bounded, no NaN, no key twice
    except (OSError, ValueError) as exc:
        out.problems.append(f"{path}: unreadable ({exc})")
        return
    if isinstance(data, dict) and data.get("format") == AUDIT_FORMAT:
        declared, _ = integrity.registered_declaration(data)  # shown as registered, never as the file says
        violated, problems = integrity.recheck_audit(data)
        out.audits.append({**data, **declared, "_path": str(path), "_violated": violated, "_problems": problems})
        serious = [p for p in problems if not p.startswith("lacks the counts")]
        out.problems.extend(f"{path}: {p}" for p in serious)
    else:
        out.problems.append(f"{path}: not an audit result of format {AUDIT_FORMAT}")


def load(results_dir) -> ResultSet:
    """Every run directory and saved audit below ``results_dir`` (found by :func:`simulations.store.walk`: no
    link followed, no directory read twice; what it skips is listed in ``problems``); ValueError if it is not a
    directory."""
    root = Path(results_dir)
    if not root.exists():
        raise ValueError(f"--results {str(root)!r} does not exist (write results with python -m simulations run ... "
                         f"--out DIR)")
    if not root.is_dir():
        raise ValueError(f"--results {str(root)!r} is not a directory")
    out = ResultSet(root)
    for folder, entries in store.walk(root, out.problems):
        names = {e.name for e in entries}
        if store.MANIFEST in names:
            run, problems = _run(folder)
            out.runs.extend([run] if run is not None else [])
            out.problems.extend(problems)
        for e in entries:
            if e.name.startswith("audit-") and e.suffix == ".json" and not e.is_dir():
                _audit(e, out)
    out.runs.sort(key=lambda r: (r.experiment, str(r.path)))
    out.audits.sort(key=lambda a: (not a.get("expect_private", True), a.get("target", "")))
    return out
