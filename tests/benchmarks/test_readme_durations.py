"""README's CPU figures are the ones ``benchmarks/readme_durations.py`` measured on a clean clone: every README
command line states its CPU as "(N s CPU)", within 1.5x of the figure recorded for that exact command in
benchmarks/RESULTS.md ("README commands on a clean clone"), and every one has a recorded measurement. Catches a
README figure typed by hand (the default thm10 line said 12 s where a clean clone spent 83 s; a figure set to half
or twice the recorded one fails), a command edited in README without being measured again, and a new command
added with an estimate ("about 3 CPU min") instead of a measurement."""

import importlib.util
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("readme_durations", ROOT / "benchmarks" / "readme_durations.py")
script = importlib.util.module_from_spec(_spec)
sys.modules["readme_durations"] = script  # its dataclasses look their module up
_spec.loader.exec_module(script)

TOLERANCE = 1.5  # the spread of one command's CPU seconds between runs on the shared 2-core machine


#: README commands not yet measured on a clean clone (their comments give estimates in other words); this list only
#: falls: a command in it that states "(N s CPU)" fails the test below, so it leaves the list once measured
NOT_YET_MEASURED = (
    "python benchmarks/bench_mbi_adult.py --seeds 3 --aim-seeds 1",
)


def test_every_readme_command_states_its_cpu():
    commands = script.commands((ROOT / "README.md").read_text(encoding="utf-8"))
    assert commands
    unstated = [(c.line, c.text) for c in commands if c.stated is None and c.text not in NOT_YET_MEASURED]
    assert not unstated, f"README command lines without a measured '(N s CPU)' figure: {unstated}"
    texts = {c.text: c for c in commands}
    stale = [t for t in NOT_YET_MEASURED if t not in texts or texts[t].stated is not None]
    assert not stale, f"NOT_YET_MEASURED names commands README no longer has or that state a figure now: {stale}"


def test_every_stated_cpu_figure_is_the_recorded_one_within_tolerance():
    stated = [c for c in script.commands((ROOT / "README.md").read_text(encoding="utf-8")) if c.stated is not None]
    table = script.recorded((ROOT / "benchmarks" / "RESULTS.md").read_text(encoding="utf-8"),
                            exits={c.text: c.exit for c in stated})
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
              "python -m d --strict   # (1,200 s CPU, exit 1)\n. act && x\n```\n")
    cs = script.commands(readme)
    assert [(c.text, c.stated, c.exit) for c in cs] == [("python -m a --x 1", 12.0, 0), ("python -m c", None, 0),
                                                        ("python -m d --strict", 1200.0, 1)]
    md = ("## README commands on a clean clone (old)\n| `python -m a` | 1.0 | 1.0 | 0 | - |\n"
          "| `python -m z` | 4.0 | 4.0 | 0 | - |\n"
          "## README commands on a clean clone (new)\n| `python -m a` | 2.5 | 3.0 | 0 | - |\n"
          "| `python -m b` | 9.0 | 9.0 | 1 | - |\n## Something else\n| `python -m y` | 1.0 | 1.0 | 0 | - |\n")
    assert script.recorded(md) == {"python -m a": 2.5, "python -m z": 4.0}
    # a command whose stated outcome is exit 1 counts its exit-1 row, and not an exit-0 one
    assert script.recorded(md, exits={"python -m b": 1, "python -m z": 1}) == {"python -m a": 2.5, "python -m b": 9.0}
