"""The Theorem 10 section on a staged looseness search: only the last stage is reported (it combines every stage's
counts), with the interval table, the fits in p and d and the plot against p beside the bound and Theorem 13."""

from __future__ import annotations


import pytest

from reports import builder, results
from reports.model import Figure, Table
from reports.sections import thm10 as section
from simulations import stages


@pytest.fixture(scope="module")
def search(tmp_path_factory):
    """A tiny real staged search: stumps p = 2, 4 and thresholds, alpha = 0.9, n only (about 5 s)."""
    root = tmp_path_factory.mktemp("results")
    stages.run("thm10_looseness", 30, root / "shapes", seed=3, workers=1, progress=False,
               overrides={"cases": "stumps:uniform,thresholds:uniform", "stump_dims": "2,4", "alphas": "0.9",
                          "num_points": 64, "n_min": 3000, "n_max": 3_000_000, "m_search": False, "factor": 4.0,
                          "resolution": 0.5})
    return root


def test_only_the_last_stage_of_a_search_is_reported(search):
    """Catches a report that shows every stage (the same at-bound counts and intervals several times)."""
    runs = results.load(search).runs_of(section.LOOSENESS)
    dirs = stages.stage_dirs(search / "shapes")
    assert len(runs) == len(dirs) >= 2
    (shown,) = section.final_stages(runs)
    assert shown.path == dirs[-1] and shown.summary["final"]


@pytest.fixture(autouse=True)
def _no_mathtext(monkeypatch):
    """Formula images are the builder's business (tested with thm10 in test_reports); skipping them keeps this fast."""
    monkeypatch.setattr(builder, "render_formula", lambda latex, path, fontsize=13: (None, "not rendered in this test"))


def test_section_has_the_interval_table_the_p_and_d_fits_and_the_plot_against_p(search, tmp_path):
    """Catches a section that drops the interval or resolution columns, the fits in p and d, or the plot in p."""
    import matplotlib

    matplotlib.use("Agg")
    (tmp_path / "assets").mkdir()
    (sec,) = section.build(builder.Context(results.load(search), tmp_path / "assets"))
    tables = [b for b in sec.blocks if isinstance(b, Table)]
    headers = [h for t in tables for h in t.columns]
    assert {"least n interval (L, U]", "n resolution", "least n / optimised n"} <= set(headers)
    captions = " ".join(t.caption for t in tables)
    assert "Shape in dual VC dimension p" in captions and "Shape in VC dimension d" in captions
    figures = [b for b in sec.blocks if isinstance(b, Figure)]
    assert any("Theorem 13's lower bound at its hidden constant 1" in f.caption for f in figures)
    assert any(str(r[1]).endswith("stumps:uniform|p=4") for t in tables for r in t.rows)
