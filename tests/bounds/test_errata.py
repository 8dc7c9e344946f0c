"""The errata records (bounds.errata): docs/ERRATA.md is generated from them, and every id a result,
a proof check or a docstring cites exists.

Breaks caught: an edit to docs/ERRATA.md by hand (or a record changed without regenerating), a result
naming an erratum id that does not exist, a record naming a result that does not exist."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from bounds.errata import ERRATA, ERRATA_MD, get, main, render
from bounds.registry import all_results

ROOT = Path(__file__).resolve().parents[2]


def test_docs_errata_md_is_generated_from_the_records():
    assert ERRATA_MD.read_text(encoding="utf-8") == render(), \
        "docs/ERRATA.md differs from the records: run `python -m bounds.errata --write`"


def test_every_result_names_existing_errata_and_every_record_existing_results():
    shorts = {r.short_id for r in all_results()} | {"pmw"}
    for r in all_results():
        for eid in r.errata:
            assert get(eid).paper == r.paper or r.paper == "baselines", (r.id, eid)
    for e in ERRATA:
        assert e.results and set(e.results) <= shorts, e.id


def test_docstrings_and_notes_cite_existing_ids():
    ids = {e.id for e in ERRATA}
    pattern = re.compile(r"erratum ((?:bcmnuw20|abm19|lvsuw21|nb20)-[A-Za-z0-9_.\-]*[A-Za-z0-9_])")
    for path in list((ROOT / "bounds").rglob("*.py")) + list((ROOT / "algorithms").rglob("*.py")):
        for m in pattern.finditer(path.read_text(encoding="utf-8")):
            assert m.group(1) in ids, (path, m.group(1))


def test_the_stale_pmw_example_is_computed_not_copied():
    """The PMW example of Lemma 7 is computed by bounds when the page is generated."""
    import bounds

    c = bounds.compute("lemma7", alpha=0.5, beta=0.1, epsilon=0.999, delta=1e-6, num_hypotheses=33, domain_size=32)
    assert f"optimised {c['private_samples']:,}" in render()


def test_the_command_refuses_bad_arguments(capsys):
    assert main(["--bogus"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_a_record_without_a_decision_is_refused():
    from bounds.errata import Erratum

    with pytest.raises(ValueError, match="decided"):
        Erratum("nb20-x", "NB20", "t", ("thm7",), severity="gap")
    with pytest.raises(ValueError, match="severity 'none'"):
        Erratum("nb20-x", "NB20", "t", ("thm7",), verified="argument", severity="gap", status="checked")


def test_compute_names_each_values_source_and_the_errata_of_corrected_values():
    """compute's JSON: every quantity has a source (paper, result, step); a corrected value (one with a
    printed reference) carries the result's errata ids. Catches a quantity without a source or a
    corrected value without its errata."""
    import bounds

    c = bounds.compute("lemma4.4", alpha=0.001, private_samples=100, public_samples=2)
    d = c.to_dict()
    assert set(d["sources"]) == set(d["quantities"])
    assert all(s["paper"] == "ABM19" and s["result"] == "Lemma 4.4" and s["step"] for s in d["sources"].values())
    assert "abm19-claim4.6-chernoff" in d["errata"]
    c = bounds.compute("thm11", alpha=0.1, beta=0.05, epsilon=0.5, delta=1e-6, vc=1, num_queries=10**6)
    corrected = {dep.quantity for dep in c.result.departures}
    assert corrected and all("nb20-thm11-m_o" in c.to_dict()["sources"][q]["errata"] for q in corrected)


def test_every_result_of_the_four_papers_has_a_record():
    """Each theorem, lemma, claim, fact, remark and algorithm setting has at least one record (an erratum or a
    'checked and correct' entry), so nobody re-audits its statement. Catches a result added without one."""
    from bounds.errata import for_result

    missing = [r.id for r in all_results() if r.paper in ("BCMNUW20", "ABM19", "LVSUW21", "NB20")
               and not (set(r.errata) | {e.id for e in for_result(r.short_id)})]
    assert missing == []
