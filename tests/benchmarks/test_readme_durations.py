"""README's CPU figures are the ones ``benchmarks/readme_durations.py`` measured on a clean clone: every
"(N s CPU)" a README command line states is within 1.5x of the figure recorded for that exact command in
benchmarks/RESULTS.md ("README commands on a clean clone"), and a command line that states one has a recorded
measurement. Catches a README figure typed by hand (the default thm10 line said 12 s where a clean clone spent
83 s), and a command edited in README without being measured again."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("readme_durations", ROOT / "benchmarks" / "readme_durations.py")
script = importlib.util.module_from_spec(_spec)
sys.modules["readme_durations"] = script  # its dataclasses look their module up
_spec.loader.exec_module(script)

TOLERANCE = 1.5  # the spread of one command's CPU seconds between runs on the shared 2-core machine


def test_every_stated_cpu_figure_is_the_recorded_one_within_tolerance():
    stated = [c for c in script.commands((ROOT / "README.md").read_text(encoding="utf-8")) if c.stated is not None]
    table = script.recorded((ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8"))
    assert stated and table
    missing = [c.text for c in stated if c.text not in table]
    assert not missing, f"README states CPU seconds for commands never measured on a clean clone: {missing}"
    off = [(c.line, c.stated, table[c.text]) for c in stated
           if not (table[c.text] / TOLERANCE <= c.stated <= table[c.text] * TOLERANCE)]
    assert not off, f"README line, stated s CPU, recorded s CPU: {off}"


def test_the_parser_reads_commands_figures_and_the_recorded_table():
    """The parser's own claims: a command's comment gives its figure, prose lines and other blocks do not count,
    and a command's figure is its exit-0 row in the last matching RESULTS.md section that holds one (a section may
    hold some commands only: each branch appends its own)."""
    readme = ("text (5 s CPU)\n```\npython -m a --x 1   # b (12 s CPU), 3 stages\npython -m c   # 1 trial 3.3 s CPU\n"
              ". act && x\n```\n")
    cs = script.commands(readme)
    assert [(c.text, c.stated) for c in cs] == [("python -m a --x 1", 12.0), ("python -m c", None)]
    md = ("## README commands on a clean clone (old)\n| `python -m a` | 1.0 | 1.0 | 0 | - |\n"
          "| `python -m z` | 4.0 | 4.0 | 0 | - |\n"
          "## README commands on a clean clone (new)\n| `python -m a` | 2.5 | 3.0 | 0 | - |\n"
          "| `python -m b` | 9.0 | 9.0 | 1 | - |\n## Something else\n| `python -m y` | 1.0 | 1.0 | 0 | - |\n")
    assert script.recorded(md) == {"python -m a": 2.5, "python -m z": 4.0}
