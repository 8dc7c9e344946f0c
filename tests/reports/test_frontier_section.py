"""The frontier section on real staged searches (ABM19 Theorem 3.1 and its negative control): one table row per
search read from its last stage, the algorithm's least size with its interval beside the theorem's size and the
strongest opponent's, a plot per search, and the control apart."""

from __future__ import annotations

import pytest

from reports import builder, results
from reports.model import Figure, Table
from reports.sections import frontier as section
from simulations import stages


@pytest.fixture(scope="module")
def searches(tmp_path_factory):
    """Two tiny real staged searches of thm3_1 (30 trials, factor 8: about 5 s). The algorithm's search goes down to
    0.1% of n, where its least size is bracketed and refined over several stages (at 1% it is censored and the search
    stops after one stage, which would let a section that shows every stage pass); the control's to 1%."""
    root = tmp_path_factory.mktemp("results")
    for name, extra in (("algorithm", {"span": 0.001}), ("control", {"variant": "broken", "span": 0.01})):
        stages.run("frontier", 30, root / name, seed=5, workers=1, progress=False,
                   overrides={"result": "thm3_1", "factor": 8.0, "resolution": 1.0, **extra})
    assert len(list((root / "algorithm").glob("stage-*"))) >= 2
    return root


@pytest.fixture(autouse=True)
def _no_mathtext(monkeypatch):
    monkeypatch.setattr(builder, "render_formula", lambda latex, path, fontsize=13: (None, "not rendered in this test"))


def test_the_table_reads_the_last_stage_of_each_search(searches, tmp_path):
    """Catches a section that shows every stage, mixes the control into the frontier table, or prints a least size
    that is not the summary's (the row's least size and theorem's size are the last stage's)."""
    import matplotlib

    matplotlib.use("Agg")
    (tmp_path / "assets").mkdir()
    res = results.load(searches)
    (sec,) = section.build(builder.Context(res, tmp_path / "assets"))
    tables = [b for b in sec.blocks if isinstance(b, Table)]
    main, control = tables
    last = [r for r in section.final_stages(res.runs_of("frontier")) if r.summary["variant"] == "none"]
    assert len(main.rows) == len(last) == 1
    row, sm = main.rows[0], last[0].summary
    assert sm["final"] and row[3] == f"{sm['row']['theorem_size']:,}"
    least = sm["row"]["algorithm_least"]
    assert least is not None and f"{least:,}" in row[4]
    assert row[9] == "holds"
    assert len(control.rows) == 1 and control.rows[0][9] == "violated"
    assert "none holds" in control.rows[0][4]
    figures = [b for b in sec.blocks if isinstance(b, Figure)]
    assert len(figures) == 1 and figures[0].image.exists()
