"""The LVSUW21 report section reads real (CI-sized) run directories and bound values, renders
them, and draws Figures 1-3; it finds nothing to report when there are no runs."""

from reports import builder
from reports.model import Heading, Paragraph, Table
from reports.sections import lvsuw21
from simulations import runner


def _text(blocks) -> str:
    parts = []
    for b in blocks:
        if isinstance(b, (Heading, Paragraph)):
            parts.append(b.text)
        elif isinstance(b, Table):
            parts.append(" ".join(b.columns) + " " + " ".join(str(c) for r in b.rows for c in r))
    return "\n".join(parts)


def test_lvsuw21_section_renders_small_runs(tmp_path):
    root = tmp_path / "results"
    runner.run("prop4_3", 2, root / "p", seed=1, workers=1, progress=False,
               overrides={"num_attributes": 12, "k": 2, "num_workloads": 6, "alpha": 0.3,
                                                                 "fractions": "1.0,0.05"})
    runner.run("thm4_4", 1, root / "t", seed=2, workers=1, progress=False, overrides={"iterations": "3,9"})
    runner.run("lvsuw21_figures", 1, root / "f", seed=3, workers=1, progress=False, overrides={
        "eps_values": "0.5,1.0", "T_grid": "8", "tuning_runs": 1, "public_regions": "west", "bias_deltas": "0.0,0.65",
        "fractions": "1.0,0.01"})
    runner.run("lemma4_2", 1, root / "l", seed=4, workers=1, progress=False,
               overrides={"n": 20, "num_attributes": 3, "k": 2, "support_size": 3})
    data = lvsuw21.collect(root)
    assert set(data["runs"]) == {"prop4_3", "thm4_4", "lvsuw21_figures", "lemma4_2"}
    text = _text(lvsuw21.blocks(data))
    assert "Lemma 4.2 (1/n sensitivity" in text and f"{data['runs']['lemma4_2']['summary']['pairs']} pairs" in text
    s = data["runs"]["prop4_3"]["summary"]
    assert f"n = {s['n']}, m = {s['m']}" in text
    assert "Theorem 4.5" in text and "Figures 1-3" in text and "2^12" in text and "mu(supp D^)" in text
    assert "paper's claim" in text and "(T=8)" in text
    assert all(r["eps_infimum"] <= r["eps_closed"] for r in data["thm4_5"])
    paths = lvsuw21.figures(data, tmp_path / "fig")
    assert [p.name for p in paths] == ["lvsuw21_fig1.png", "lvsuw21_fig2.png", "lvsuw21_fig3.png"]
    assert all(p.stat().st_size > 1000 for p in paths)


def test_lvsuw21_section_without_runs(tmp_path):
    data = lvsuw21.collect(tmp_path)
    assert data["runs"] == {}
    assert "No complete run of `prop4_3`" in _text(lvsuw21.blocks(data))
    assert lvsuw21.figures(data, tmp_path / "fig") == []


def test_lvsuw21_section_is_built_by_the_report_builder(tmp_path):
    """The plugin follows the builder's convention: the report has the section, not a failure."""
    root = tmp_path / "results"
    runner.run("thm4_4", 1, root / "t", seed=2, workers=1, progress=False, overrides={"iterations": "3,9"})
    out = builder.build(root, tmp_path / "out")
    html = (tmp_path / "out" / "report.html").read_text()
    assert "LVSUW21: PMW^Pub" in html and "lvsuw21 (failed)" not in html
    assert not [e for e in getattr(out, "errors", []) if "lvsuw21" in e]
