"""`python -m bounds show` prints each form as sympy renders it, from bounds/forms.json (sympy's import is most of
the command's cost otherwise): the file must equal a fresh rendering of every form of every result, and `show`
must print the same text from it as from sympy. Breaks caught: a formula, symbol name or renderer changed without
`python -m bounds.show --write`, a result or quantity added or removed without it, the file edited by hand, `show`
taking a form from another quantity's or result's entry."""
from __future__ import annotations

import bounds.show as show
from bounds.registry import all_results, get


def test_forms_file_equals_sympys_fresh_rendering():
    fresh = show.forms_json(show.rendered_forms())
    stored = show.FORMS_JSON.read_text(encoding="utf-8")
    assert stored == fresh, "bounds/forms.json is stale: run `python -m bounds.show --write` and commit it"


def test_show_prints_the_same_from_the_file_as_from_sympy(monkeypatch):
    ids = ["bcmnuw20:thm10", "bcmnuw20:lemma7", "baselines:uc", all_results()[0].id]
    from_file = {rid: (show.render_show(get(rid)), show.render_show(get(rid), latex=False)) for rid in ids}
    assert all(show.stored_forms(get(rid)) for rid in ids)
    monkeypatch.setattr(show, "_STORED", {})  # nothing stored: every form rendered by sympy on the spot
    for rid in ids:
        assert (show.render_show(get(rid)), show.render_show(get(rid), latex=False)) == from_file[rid], rid
