"""README commands on a clean clone: the CPU seconds (user + system of the child processes, children's children
included when they are waited for) of every command in README.md's code blocks, run in README order in a fresh
``git clone`` of the repository at the checkout's HEAD commit with the current interpreter (the shared virtual
environment) and ``PYTHONPATH`` pointing at the clone, so that what runs, README included, is the committed code
and nothing of the working tree.

    python benchmarks/readme_durations.py [--repo DIR] [--only REGEX] [--skip REGEX] [--timeout S] [--save FILE]

Prints one Markdown table row per command (command, CPU s, wall s, exit status, the figure README states), then
the load average. The README's durations come from this table (benchmarks/RESULTS.md, "README commands on a clean
clone"), and tests/benchmarks/test_readme_durations.py holds every "N s CPU" a README command line states within
1.5x of the recorded figure (written "(N s CPU)" in the line's comment, or "(N s CPU, exit K)" for a command whose
documented outcome is exit status K, such as ``proofs_checks --strict`` on a paper with errata), and that every command
line states one. The install line and the test suite are not run (they need a fresh virtual environment; ``.ci/run``
measures the suite). ``&&`` chains are run part by part and counted together.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: the CPU seconds a README command line states for the whole command: "(12 s CPU)" in its comment, "(12 s CPU,
#: exit 1)" when its documented outcome is that exit status (a figure in other words, such as "1 trial 3.3 s CPU",
#: is prose about a part and is not held to the table)
STATED = re.compile(r"\((\d[\d,]*(?:\.\d+)?) s CPU(?:, exit (\d+))?\)")
_COMMENT = re.compile(r"\s+#\s")


@dataclass
class Command:
    line: int        # README line number (1-based)
    text: str        # the command as README writes it, comment removed
    stated: float | None  # the CPU seconds its comment states, if it states them
    exit: int = 0    # the exit status its comment states as its outcome ("(N s CPU, exit K)"), else 0


@dataclass
class Measured:
    command: str
    cpu: float
    wall: float
    status: int
    stated: float | None
    expected: int = 0  # the exit status README states as the command's outcome
    stderr: str = ""   # the last line of its stderr when its exit status is not the expected one


def commands(readme: str) -> list[Command]:
    """Every runnable command line of README's fenced code blocks (``python ...``), with its stated CPU figure."""
    out, inside = [], False
    for k, line in enumerate(readme.splitlines(), 1):
        if line.startswith("```"):
            inside = not inside
            continue
        if not inside or not line.startswith("python "):
            continue
        m = _COMMENT.search(line)
        text, comment = (line[:m.start()], line[m.end():]) if m else (line, "")
        figure = STATED.search(comment)
        out.append(Command(k, text.strip(), float(figure.group(1).replace(",", "")) if figure else None,
                           int(figure.group(2)) if figure and figure.group(2) else 0))
    return out


def _run(cmd: str, cwd: Path, env: dict, timeout: float) -> tuple[float, float, int, str]:
    """CPU seconds, wall seconds, exit status and the last line of stderr of the part that ended the chain."""
    before, start, status, last = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic(), 0, ""
    for part in cmd.split("&&"):
        argv = shlex.split(part)
        if argv and argv[0] == "python":
            argv[0] = sys.executable
        with tempfile.TemporaryFile() as err:
            try:
                status = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=err,
                                        timeout=timeout).returncode
            except subprocess.TimeoutExpired:
                status = -9
            err.seek(0)
            lines = err.read().decode("utf-8", "replace").strip().splitlines()
            last = lines[-1][:400] if lines else ""
        if status != 0:
            break
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return cpu, time.monotonic() - start, status, last


def measure(repo: Path, only: str | None, skip: str | None, timeout: float, save: Path | None) -> list[Measured]:
    # the checkout's own HEAD commit, checked out by name: a clone's default branch is the one the repository's
    # HEAD names, which for a worktree of a shared repository need not be the worktree's branch
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True,
                            check=True).stdout.strip()
    work = Path(tempfile.mkdtemp(prefix="readme-durations-"))
    rows: list[Measured] = []
    try:
        clone = work / "clone"
        subprocess.run(["git", "clone", "-q", "--no-hardlinks", "--no-checkout", str(repo), str(clone)], check=True)
        subprocess.run(["git", "checkout", "-q", "--detach", commit], cwd=clone, check=True)
        head = commit[:7]
        # the commands of the committed README, the one whose code runs
        cmds = [c for c in commands((clone / "README.md").read_text(encoding="utf-8"))
                if (only is None or re.search(only, c.text)) and (skip is None or not re.search(skip, c.text))]
        env = {**os.environ, "PYTHONPATH": str(clone)}
        env.pop("PYTHONSTARTUP", None)
        print(f"clean clone of {head}; {len(cmds)} commands", file=sys.stderr)
        for c in cmds:
            cpu, wall, status, last = _run(c.text, clone, env, timeout)
            rows.append(Measured(c.text, round(cpu, 2), round(wall, 2), status, c.stated, c.exit,
                                 last if status != c.exit else ""))
            print(f"{cpu:8.2f} s CPU {wall:8.2f} s wall exit {status}: {c.text[:100]}", file=sys.stderr)
            if status != c.exit:
                print(f"    not its stated outcome (exit {c.exit}); its stderr ends: {last}", file=sys.stderr)
            if save is not None:  # after every command, so an interrupted run keeps what it measured
                save.write_text(json.dumps({"commit": head, "load_average": os.getloadavg(),
                                            "rows": [asdict(r) for r in rows]}, indent=1))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return rows


def table(rows: list[Measured]) -> str:
    lines = ["| command | CPU s | wall s | exit | README states (s CPU) |", "|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| `{r.command}` | {r.cpu:.1f} | {r.wall:.1f} | {r.status} | "
                     f"{'-' if r.stated is None else f'{r.stated:g}'} |")
    return "\n".join(lines)


def recorded(results_md: str, heading: str = "README commands on a clean clone",
             exits: dict[str, int] | None = None) -> dict[str, float]:
    """{command: CPU seconds} from the tables under RESULTS.md headings that start with ``heading``: per command,
    the last such table that holds it with its expected exit status (``exits[command]``, else 0: a command that
    failed or was stopped is not a measurement; each branch appends its own section, so one table need not hold
    every command)."""
    found: dict[str, float] = {}
    exits = exits or {}
    sections = re.split(r"^## ", results_md, flags=re.M)
    for sec in sections:
        if sec.startswith(heading):
            rows = re.findall(r"^\| `([^`]+)` \| ([\d.]+) \| [\d.]+ \| (-?\d+) \|", sec, re.M)
            found.update({cmd: float(cpu) for cmd, cpu, status in rows if int(status) == exits.get(cmd, 0)})
    return found


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    p.add_argument("--repo", type=Path, default=REPO, help="the repository to clone (default: this checkout)")
    p.add_argument("--only", default=None, help="run only the commands matching this regular expression")
    p.add_argument("--skip", default=None, help="skip the commands matching this regular expression")
    p.add_argument("--timeout", type=float, default=3600.0, help="seconds after which a command is stopped")
    p.add_argument("--save", type=Path, default=None, help="also write the rows as JSON, after each command")
    ns = p.parse_args(argv)
    rows = measure(ns.repo, ns.only, ns.skip, ns.timeout, ns.save)
    print(table(rows))
    print(f"\nload average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0 if all(r.status == r.expected for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
