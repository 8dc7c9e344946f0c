"""BCMNUW20 Figure 1 (``simulations.figure1``): the representative domain of a finite class of halfspaces holds exactly
one point in each cell of the line arrangement (Section 2.1), computed by the workbench's Definition 2."""
from __future__ import annotations

import numpy as np

from simulations import figure1 as f1


def test_one_representative_per_cell_of_the_arrangement():
    """4 lines on a 200-point grid: 1 + L + I = 10 cells, 10 representatives; every group is one sign pattern and the
    patterns are distinct. Catches a representative domain that merges or splits cells (e.g. distinct rows in place
    of distinct columns: 4 hypotheses' patterns instead of the points')."""
    a = f1.figure1(4, 1, 200)
    assert a.representatives.size == a.expected_cells == 10
    signs = (a.normals @ a.points.T) >= a.offsets[:, None]
    patterns = {tuple(signs[:, r]) for r in a.representatives}
    assert len(patterns) == a.representatives.size
    for g in range(a.representatives.size):
        cols = signs[:, a.group_of == g]
        assert np.all(cols == cols[:, :1])


def test_never_more_representatives_than_cells():
    """A cell thinner than the grid may hold no point, never two representatives: |X_H~| <= 1 + L + I."""
    for seed in range(1, 6):
        a = f1.figure1(5, seed, 120)
        assert a.representatives.size <= a.expected_cells


def test_command_writes_the_png_and_refuses_bad_input(tmp_path, capsys):
    out = tmp_path / "fig.png"
    assert f1.main(["--out", str(out), "--size", "60"]) == 0 and out.read_bytes()[:4] == b"\x89PNG"
    capsys.readouterr()
    bad = tmp_path / "fig.txt"
    assert f1.main(["--out", str(bad)]) == 2 and not bad.exists()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error:")
    assert f1.main(["--out", str(out), "--lines", "9"]) == 2
