"""The linter configured in pyproject.toml ([tool.ruff]) is clean, so CI (which runs the README's pytest command)
runs it. Broken once: an unused import added to a package module fails this test."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_check_is_clean():
    out = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", str(ROOT)], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
