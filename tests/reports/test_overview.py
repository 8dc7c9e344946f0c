"""The overview's family-wise statement (Holm over every verdict shown) and its 'what was tested' table,
on runs written by the real engine."""

from __future__ import annotations

import pytest

from reports import results as _results
from reports.model import Badge, Table
from reports.sections import overview
from simulations import runner, stats


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("results")
    base = {"cases": "thresholds:zipf", "num_points": 64, "alpha": 0.5, "baselines": False}
    runner.run("thm10", 4, root / "control", seed=11, workers=1, progress=False,
               overrides={**base, "variant": "cover_from_one"})
    runner.run("thm10", 3, root / "below", seed=1, workers=1, progress=False, overrides={**base, "n_max": 100_000})
    return _results.load(root).runs


def test_holm_family_holds_only_verdicts_and_their_p_values(runs):
    """The negative control's two violated claims (0/4 cover, 0/4 accuracy) enter the family with p =
    Pr[Bin(4, target) <= 0]; the below-bound run's claims stay out (catches a family that counts
    measurements as verdicts, or p-values from the wrong tail)."""
    fam = overview.family(runs)
    assert {f["run"] for f in fam} == {"control"}
    assert all(f["status"] == stats.VIOLATED for f in fam) and len(fam) == 2
    for f in fam:
        target = 0.95 if f["claim"].endswith("cover") else 0.9
        assert f["p"] == pytest.approx((1 - target) ** 4)
    blocks = overview.holm_section(runs)
    assert isinstance(blocks[0], Badge) and "Holm" in blocks[0].text
    table = blocks[1]
    assert isinstance(table, Table) and len(table.rows) == 2
    # (0.1)^4 * 2 and (0.05)^4 * 2 are both far below 0.05: both verdicts stand
    assert all(row[-1] is True for row in table.rows) and blocks[0].status == "holds"


def test_what_was_tested_names_the_fraction_and_variant(runs):
    by_name = {r.path.name: r for r in runs}
    what, frac, base = overview._tested(by_name["below"].summary)
    assert frac.startswith("n ") and "m 1-1" in frac and base == "-"
    what, _, _ = overview._tested(by_name["control"].summary)
    assert what.startswith("negative control cover_from_one")
