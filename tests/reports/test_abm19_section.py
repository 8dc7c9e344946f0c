"""The ABM19 report section reads real (CI-sized) thm3_1, lemma4_4 and thm4_1 runs and the ABM19 audits,
renders their tables and the two plots, and says what is missing when there are no runs."""

from pathlib import Path

import matplotlib
import pytest

from reports import builder, results
from reports.model import Badge, Figure, Paragraph, Table
from reports.sections import abm19
from simulations import runner
from simulations.__main__ import main as cli

matplotlib.use("Agg")


@pytest.fixture(autouse=True)
def _no_mathtext(monkeypatch):
    """Formula images are the builder's business (tested with thm10); skipping them keeps this test fast."""
    monkeypatch.setattr(builder, "render_formula", lambda latex, path, fontsize=13: (None, "not rendered in this test"))


def _sections(root: Path, assets: Path):
    assets.mkdir(parents=True, exist_ok=True)
    return abm19.build(builder.Context(results.load(root), assets))


def test_abm19_sections_render_small_runs(tmp_path):
    root = tmp_path / "results"
    runner.run("thm3_1", 3, root / "t31", seed=1, workers=1, progress=False,
               overrides={"cases": "thresholds:uniform", "num_points": 32, "alpha": 0.3, "fractions": "0.5,0.1"})
    runner.run("lemma4_4", 2, root / "l44", seed=2, workers=1, progress=False,
               overrides={"n_priv": 2000, "n_pubs": "1,2", "num_points": 16, "runout_cases": "10:1"})
    runner.run("thm4_1", 2, root / "t41", seed=3, workers=1, progress=False,
               overrides={"grids": "16,32", "n_pubs": "1,4", "alphas": "0.01,0.00001", "n_priv": 2000})
    assert cli(["audit", "a_sspp", "--samples", "2000", "--out", str(root / "aud")]) == 0
    secs = _sections(root, tmp_path / "assets")
    assert [s.key for s in secs] == ["abm19-thm3-1", "abm19-lemma4-4", "abm19-thm4-1"]
    blocks = [b for s in secs for b in s.blocks]
    assert sum(isinstance(b, Figure) for b in blocks) == 2
    assert sum(isinstance(b, Badge) for b in blocks) >= 3
    tables = [b for b in blocks if isinstance(b, Table)]
    assert any("n_pub (Thm 3.1)" in t.columns for t in tables)
    assert any("least n_pub allowed (Thm 4.1)" in t.columns for t in tables)
    assert any("baseline" in t.columns for t in tables)


def test_abm19_sections_without_runs(tmp_path):
    (tmp_path / "empty").mkdir()
    secs = _sections(tmp_path / "empty", tmp_path / "assets")
    text = " ".join(b.text for s in secs for b in s.blocks if isinstance(b, Paragraph))
    for name in ("thm3_1", "lemma4_4", "thm4_1"):
        assert f"No complete {name} run" in text
    assert "No saved audit" in text
