"""The NB20 report section (Theorems 7 and 11) reads CI-sized thm7/thm11 run directories and renders their
rates, the counterexample, the switch and the crossover plot; without runs it says how to make them."""

from reports import builder, results
from reports.model import Heading, Paragraph, Table
from reports.sections import nb20
from simulations import runner


def _text(sections) -> str:
    parts = []
    for s in sections:
        for b in s.blocks:
            if isinstance(b, (Heading, Paragraph)):
                parts.append(b.text)
            elif isinstance(b, Table):
                parts.append(" ".join(b.columns) + " " + " ".join(str(c) for r in b.rows for c in r))
    return "\n".join(parts)


def test_nb20_section_renders_small_runs(tmp_path):
    root = tmp_path / "results"
    runner.run("thm7", 1, root / "t7", seed=1, workers=1, progress=False,
               overrides={"cases": "thresholds", "per_subsample": 1, "num_queries": 10, "counter_reps": 1})
    runner.run("thm11", 1, root / "t11", seed=2, workers=1, progress=False,
               overrides={"cases": "thresholds", "per_subsample": 1, "num_queries": 600})
    (tmp_path / "assets").mkdir()
    ctx = builder.Context(results.load(root), tmp_path / "assets")
    sections = nb20.build(ctx)
    assert [s.key for s in sections] == ["nb20-thm7", "nb20-thm11"]
    text = _text(sections)
    assert "printed 8 log(1/(alpha beta))/alpha" in text and "79228" in text
    assert "below-bound" in text and "switch at m_o" in text
    assert any(b.__class__.__name__ not in ("Heading", "Paragraph", "Table", "Badge") for b in sections[1].blocks)


def test_nb20_section_without_runs(tmp_path):
    ctx = builder.Context(results.load(tmp_path), tmp_path / "assets")
    text = _text(nb20.build(ctx))
    assert "No complete thm7 run" in text and "No complete thm11 run" in text
