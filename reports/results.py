"""Reading a results directory (``reports`` only reads; it never runs a trial).

A results directory holds, anywhere below it:

* run directories written by :mod:`simulations.store` (``manifest.json`` of format ``simulations-run/1``,
  ``records.jsonl``, ``summary.json``), one per ``python -m simulations run ... --out DIR``;
* audit results saved by ``python -m simulations audit TARGET --out DIR`` (``audit-TARGET.json``, format
  ``simulations-audit/1``).

Neither is trusted (:mod:`reports.integrity`): each audit's verdict is recomputed from its saved numbers
(``_violated``; disagreements in ``_problems`` and the result set's ``problems``), and a run directory whose
records disagree is read as ``corrupt`` (no summary, so no verdict) with the reason in ``problems``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from reports import integrity
from simulations import store

AUDIT_FORMAT = "simulations-audit/1"  # simulations.__main__.AUDIT_FORMAT
MAX_DEPTH = 6


@dataclass
class Run:
    """One run directory: where it is, its manifest, its summary (None unless the records support
    it) and its state judged by its records (:meth:`simulations.store.RunDir.inspect`)."""

    path: Path
    manifest: dict
    summary: dict | None
    state: str = "complete"        # simulations.store.STATES
    state_text: str = "complete"

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

    if run.state == "corrupt":
        return f"Run {run.path} is not reported: {run.state_text}."
    staged = stages.is_staged(run.path.parent)
    target = run.path.parent if staged else run.path
    what = f"Stage {run.path.name} of the staged search {run.path.parent}" if staged else f"Run {run.path}"
    return (f"{what} is unfinished ({run.state}) and not reported; finish it with "
            f"`python -m simulations resume {target}`.")


def _walk(root: Path, depth: int = 0):
    if depth > MAX_DEPTH:
        return
    try:
        entries = sorted(root.iterdir())
    except OSError:
        return
    yield root, entries
    for e in entries:
        if e.is_dir() and not e.name.startswith("."):
            yield from _walk(e, depth + 1)


def load(results_dir) -> ResultSet:
    """Every run directory and saved audit below ``results_dir``; ValueError if it is not a directory."""
    root = Path(results_dir)
    if not root.exists():
        raise ValueError(f"--results {str(root)!r} does not exist (write results with python -m simulations run ... --out DIR)")
    if not root.is_dir():
        raise ValueError(f"--results {str(root)!r} is not a directory")
    out = ResultSet(root)
    for folder, entries in _walk(root):
        names = {e.name for e in entries}
        if store.MANIFEST in names:
            try:
                rd = store.RunDir.open(folder)
                st = rd.inspect()
                # a summary counts only if the records support it (complete, nothing corrupt)
                summary = rd.summary() if st.state == "complete" else None
                state, text = st.state, st.describe()
                disagree = integrity.run_problems(folder)
                if disagree and state != "corrupt":  # records that disagree support no summary
                    state, text, summary = "corrupt", "corrupt: " + "; ".join(disagree), None
                out.runs.append(Run(folder, rd.manifest(), summary, state, text))
                if state == "corrupt":
                    out.problems.append(f"{folder}: {text}")
            except (ValueError, OSError, json.JSONDecodeError) as exc:
                out.problems.append(f"{folder}: not a readable run directory ({exc})")
        for e in entries:
            if e.is_file() and e.name.startswith("audit-") and e.suffix == ".json":
                try:
                    data = store.read_json(e)  # untrusted: no link, a regular file, bounded, no NaN
                except (OSError, ValueError) as exc:
                    out.problems.append(f"{e}: unreadable ({exc})")
                    continue
                if isinstance(data, dict) and data.get("format") == AUDIT_FORMAT:
                    violated, problems = integrity.recheck_audit(data)
                    out.audits.append({**data, "_path": str(e), "_violated": violated, "_problems": problems})
                    serious = [p for p in problems if not p.startswith("lacks the counts")]
                    out.problems.extend(f"{e}: {p}" for p in serious)
                else:
                    out.problems.append(f"{e}: not an audit result of format {AUDIT_FORMAT}")
    out.runs.sort(key=lambda r: (r.experiment, str(r.path)))
    out.audits.sort(key=lambda a: (not a.get("expect_private", True), a.get("target", "")))
    return out
