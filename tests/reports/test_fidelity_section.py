"""The fidelity section (printed vs corrected): every result of ``bounds`` that declares departures has an
example point here, each row's ratio is its value over its reference, and Theorem 10's README row shows
the corrected n against the printed one. Breaks caught: a result with departures added without an example
(silently missing from the report), a ratio inverted, the section running anything but ``bounds``."""
from __future__ import annotations

import pytest

from reports.model import Section, Table
from reports.sections import fidelity


def test_every_result_with_departures_has_a_row_and_ratios_are_value_over_reference():
    rows, missing = fidelity.rows()
    assert missing == []
    assert {r[0] for r in rows} >= {"lemma7", "thm10", "remark10", "pmw", "alg5", "thm7", "lemma9", "thm11",
                                    "lemma6", "claim10"}
    for result, _, label, value, ref, ratio, _ in rows:
        assert ratio == pytest.approx(value / ref, rel=1e-9), (result, label)


def test_thm10_readme_row_is_corrected_over_printed():
    rows, _ = fidelity.rows()
    (row,) = [r for r in rows if r[0] == "thm10" and r[2].startswith("n: corrected")]
    assert row[4] == 417_675_167 and 5.1 < row[5] < 5.3   # the tight Lemma 7 (10.2 before it)


def test_build_gives_one_section_with_two_tables():
    (s,) = fidelity.build(ctx=None)
    assert isinstance(s, Section) and s.key == "fidelity"
    assert sum(isinstance(b, Table) for b in s.blocks) == 2
