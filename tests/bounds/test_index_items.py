"""A registered result names the items of bounds/papers_index.toml it is (``Result.index_items``); the index keeps no
``result`` of its own, so a new result is declared in one place. Breaks caught: an item two results claim, an item
the index does not have, a malformed item id, an index that still carries a ``result``."""
from __future__ import annotations

import dataclasses

import pytest

from bounds import coverage
from bounds.registry import all_results, get


def test_every_declared_item_is_in_the_index_once_and_of_the_results_paper_or_citing_it():
    items = {i.id: i for i in coverage.items()}
    declared = [(i, r) for r in all_results() for i in r.index_items]
    assert len({i for i, _ in declared}) == len(declared) and {i for i, _ in declared} <= set(items)
    for i, r in declared:
        assert items[i].result == r.id
        # an item of the result's own paper, another paper's item that names it ("Lemma 18 (= ABM19 Thm 4.1)"), or
        # a cited theorem a paper states that the workbench registers as a baseline (ABM19's "KLN08 Thm 3.4")
        assert (items[i].paper == r.paper.lower() or r.paper in items[i].item.upper()
                or (r.paper == "baseline" and items[i].kind.startswith("cited"))), (i, r.id)


def test_an_item_claimed_twice_or_unknown_is_refused(monkeypatch):
    ids = {i.id for i in coverage.items()}
    thm10 = get("bcmnuw20:thm10")
    twin = dataclasses.replace(get("bcmnuw20:lemma11"), index_items=thm10.index_items)
    monkeypatch.setattr("bounds.registry.all_results", lambda: [thm10, twin])
    with pytest.raises(ValueError, match="declared by both bcmnuw20:thm10 and bcmnuw20:lemma11"):
        coverage.results_of_items(ids)
    monkeypatch.setattr("bounds.registry.all_results", lambda: [dataclasses.replace(thm10, index_items=("B999",))])
    with pytest.raises(ValueError, match="names B999"):
        coverage.results_of_items(ids)


def test_a_malformed_item_id_is_refused():
    with pytest.raises(ValueError, match="index_items"):
        dataclasses.replace(get("bcmnuw20:thm10"), index_items=("thm10",))


def test_an_index_that_keeps_a_result_is_refused(tmp_path, monkeypatch):
    index = tmp_path / "papers_index.toml"
    index.write_text('[[item]]\nid = "B13"\npaper = "bcmnuw20"\nitem = "Thm 10"\nkind = "thm"\n'
                     'class = "numbered result"\nresult = "bcmnuw20:thm10"\n', encoding="utf-8")
    monkeypatch.setattr(coverage, "INDEX", index)
    coverage.items.cache_clear()
    try:
        with pytest.raises(ValueError, match="the index has no `result`"):
            coverage.items()
    finally:
        coverage.items.cache_clear()


def test_a_registered_result_an_item_is_labelled_with_declares_the_item():
    """An item labelled "Thm 9" of NB20 whose result nb20:thm9 is registered is declared by it: catches a new
    result registered without its ``index_items`` (coverage would show the item as having no result)."""
    registered = {r.id for r in all_results()}
    for item in coverage.items():
        m = coverage._LABEL.match(item.item)
        label_id = f"{item.paper}:{coverage._KIND[m.group(1).lower()]}{m.group(2)}" if m else ""
        if label_id in registered:
            assert item.result == label_id, f"{label_id} does not declare index_items=({item.id!r},)"
