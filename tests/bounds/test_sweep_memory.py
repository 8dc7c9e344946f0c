"""``python -m bounds sweep`` at its 10^6-point cap keeps its peak memory under 500 MB in every output format: the
table and JSON are evaluated and formatted in blocks (bounds.__main__.cmd_sweep) as the CSV is. Measured in a
child process (peak RSS by resource.getrusage(RUSAGE_CHILDREN) in a small parent, so pytest's own size does not
count). Catches the old table and JSON paths, which held every formatted row at once: 1.49 GB and 0.96 GB here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
#: 1000 x 1000 = 10^6 points, the sweep's default cap (bounds.__main__.MAX_POINTS)
ARGS = ["sweep", "lemma4.2", "--private-samples", "1:1000:1000", "--epsilon", "0.1:2:1000", "--beta", "0.05"]
LIMIT_MB = 500


def _peak(fmt: list[str]) -> tuple[int, float, int]:
    """(exit status, peak RSS in MB, bytes written) of the sweep in a child process."""
    code = ("import resource, subprocess, sys\n"
            f"r = subprocess.run([sys.executable, '-m', 'bounds', *{ARGS + fmt!r}], stdout=subprocess.PIPE)\n"
            "print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, len(r.stdout))\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    rc, kb, size = out.stdout.split()
    return int(rc), int(kb) / 1024, int(size)


@pytest.mark.parametrize("fmt", [[], ["--json"], ["--csv"]], ids=["table", "json", "csv"])
def test_sweep_at_its_cap_peaks_under_500_mb(fmt):
    rc, mb, size = _peak(fmt)
    assert rc == 0 and size > 10**7  # a million rows were written
    assert mb < LIMIT_MB, f"peak RSS {mb:.0f} MB"
