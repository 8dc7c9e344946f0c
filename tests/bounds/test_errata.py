"""The errata records (bounds.errata, read from bounds/errata/<paper>.toml): docs/ERRATA.md is generated from them,
every id a result, a proof check or a docstring cites exists, and a malformed file is one clear error.

Breaks caught: an edit to docs/ERRATA.md by hand (or a record changed without regenerating), a result
naming an erratum id that does not exist, a record naming a result that does not exist, a file with a wrong
field, type, severity, duplicate id or undeclared fact read as if it were right."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import bounds.errata
from bounds.errata import ERRATA, ErrataFileError, get, load
from bounds.errata.page import ERRATA_MD, fill_facts, main, render
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
    for path in [*(ROOT / "bounds").rglob("*.py"), *(ROOT / "bounds").rglob("*.toml"),
                 *(ROOT / "algorithms").rglob("*.py")]:
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


_GOOD = """paper = "NB20"

[facts.example]
result = "nb20:claim10"
at = { alpha = 0.1, beta = 0.05, vc = 10 }

[[erratum]]
id = "nb20-claim10-x"
title = "a title"
results = ["claim10"]
verified = "n_o = [[fact:example.unlabeled_samples]]"
severity = "gap"
"""


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace('title = "a title"', 'title = "a title'), "not a readable TOML file"),
    (lambda t: t.replace('severity = "gap"', 'severity = "gap"\nsevere = "yes"'), "unknown fields ['severe']"),
    (lambda t: t.replace('"gap"', '"bad"'), "severity 'bad' not in"),
    (lambda t: t.replace('["claim10"]', '"claim10"'), "results is not a list of strings"),
    (lambda t: t.replace('title = "a title"\n', ""), "missing ['title']"),
    (lambda t: t.replace('verified = ', 'location = '), "say how it was decided"),
    (lambda t: t.replace('paper = "NB20"', 'paper = "ABM19"'), "`paper` must be the paper key"),
    (lambda t: t.replace("[[fact:example.", "[[fact:other."), "undeclared fact 'other'"),
    (lambda t: t.replace("vc = 10", 'vc = "10"'), "`at` a table of numbers"),
    (lambda t: t.replace('result = "nb20:claim10"', 'result = "nb20:claim10"\nmodule = "os"'),
     "a fact is a table"),
    (lambda t: t + t[t.index("[[erratum]]"):], "two records share the id"),
])
def test_a_malformed_file_is_one_error_naming_the_file(tmp_path, edit, message):
    """Each fault in a record file, made once into a good file, is refused by the loader with an error naming the
    file (and the record where there is one); the good file itself loads."""
    (tmp_path / "nb20.toml").write_text(_GOOD, encoding="utf-8")
    assert [e.id for e in load(tmp_path).records] == ["nb20-claim10-x"]
    (tmp_path / "nb20.toml").write_text(edit(_GOOD), encoding="utf-8")
    with pytest.raises(ErrataFileError, match="bounds/errata/nb20.toml") as err:
        load(tmp_path)
    assert message in str(err.value)


def test_a_file_not_named_after_a_paper_is_refused(tmp_path):
    (tmp_path / "nb21.toml").write_text(_GOOD, encoding="utf-8")
    with pytest.raises(ErrataFileError, match="not named after a paper"):
        load(tmp_path)


def test_the_command_turns_a_malformed_file_into_one_line_and_status_2(tmp_path, monkeypatch, capsys):
    (tmp_path / "nb20.toml").write_text(_GOOD.replace('"gap"', '"bad"'), encoding="utf-8")
    monkeypatch.setattr(bounds.errata, "DIRECTORY", tmp_path)
    bounds.errata.store.cache_clear()
    try:
        assert main([]) == 2
    finally:
        bounds.errata.store.cache_clear()
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nb20.toml" in err and "severity 'bad'" in err


def test_a_fact_is_computed_by_bounds_and_an_unknown_quantity_refused(tmp_path, monkeypatch):
    """A fact names a result and a point; the quantity is computed, formatted by its spec, and a quantity the result
    does not have is an error (not an empty string)."""
    import bounds as b

    (tmp_path / "nb20.toml").write_text(_GOOD, encoding="utf-8")
    monkeypatch.setattr(bounds.errata, "DIRECTORY", tmp_path)
    bounds.errata.store.cache_clear()
    try:
        n = b.compute("nb20:claim10", alpha=0.1, beta=0.05, vc=10)["unlabeled_samples"]
        assert fill_facts("[[fact:example.unlabeled_samples]]") == f"{n:,}"
        assert fill_facts("[[fact:example.unlabeled_samples/unlabeled_samples:.1f]]") == "1.0"
        with pytest.raises(ErrataFileError, match="no quantity 'nonsense'"):
            fill_facts("[[fact:example.nonsense]]")
    finally:
        bounds.errata.store.cache_clear()
