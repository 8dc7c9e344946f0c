"""The README's two set-up commands are exactly what CI runs."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    quick = text.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    return [b.strip() for b in re.findall(r"```\n(.*?)```", quick, re.S)]


def test_readme_gives_exactly_two_setup_commands():
    cmds = _readme_commands()
    assert len(cmds) == 2
    assert "pip install" in cmds[0] and "python -m bounds compute thm10" in cmds[0]
    assert "pytest" in cmds[1]


def test_ci_runs_the_readme_commands_verbatim():
    ci = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line.strip() and not line.startswith("#")]
    for cmd in _readme_commands():
        assert cmd in ci, f"CI does not run the README command: {cmd}"


def test_ci_fails_when_a_command_fails():
    assert "set -euo pipefail" in (ROOT / ".ci" / "run").read_text()
