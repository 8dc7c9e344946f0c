"""reports.formula: every formula a reader sees is set by mathtext (or an equivalent plain form),
never LaTeX source with an error; wide formulas are broken over lines, never inside braces."""
from __future__ import annotations

import pytest
from PIL import Image

from bounds import get
from bounds.show import forms
from reports import formula


@pytest.mark.parametrize("rid,qname", [("thm10", "public_samples"), ("thm10", "private_samples"),
                                       ("thm4.4", "error"), ("lemma7", "private_samples"),
                                       ("thm13", "first_excess_total_tight")])
def test_bounds_forms_render_with_mathtext_within_the_page_width(tmp_path, rid, qname):
    """Catches the issue-17 report: thm10's explicit m (\\ge) and thm4.4's error (\\mathcal X without
    braces) failed in mathtext; thm10's explicit n was scaled down until unreadable."""
    r = get(rid)
    for form, (text, tex) in forms(r, r.quantity(qname)).items():
        path = tmp_path / f"{form}.png"
        how = formula.render(tex, path, plain=text)
        assert how.startswith("mathtext"), (rid, qname, form, how)
        with Image.open(path) as im:
            assert im.size[0] <= formula.MAX_WIDTH_PX * 1.05, (rid, qname, form, im.size)


def test_break_points_rejoin_to_the_formula_and_never_cut_inside_braces():
    tex = r"a + \frac{b + c}{d} - \sqrt{e + f}, g \leq h"
    pieces = formula.break_points(tex)
    assert "".join(pieces) == tex
    assert all(p.count("{") == p.count("}") for p in pieces)
    assert len(pieces) >= 4


def test_long_fraction_set_inline_keeps_the_value():
    tex = r"\frac{" + " + ".join(f"x_{{{i}}}" for i in range(12)) + r"}{2 \varepsilon}"
    assert formula.inline_long_fractions(tex) == "(" + " + ".join(f"x_{{{i}}}" for i in range(12)) + (r") / (2 "
                                                                                                      r"\varepsilon)")
    assert formula.inline_long_fractions(r"\frac{a}{b}") == r"\frac{a}{b}"


def test_unparseable_latex_falls_back_to_an_equivalent_plain_form(tmp_path):
    """Never source plus an error: a construct mathtext lacks is set as the plain form given."""
    how = formula.render(r"\begin{cases} a \\ b \end{cases}", tmp_path / "f.png", plain="cases(a, b)")
    assert how == "plain text" and (tmp_path / "f.png").is_file()
    assert "\\" not in formula.plain_text(r"\frac{\alpha}{\sqrt{\beta}} \leq \left(x\right)")


def test_symbols_are_set_as_names_and_no_evaluation_clamp_is_shown():
    """Every bound form the report renders (bounds.show.forms, builder.bound_formulas' heading symbol): no
    multi-letter subscript outside braces (mathtext sets ``n_min`` as "n_m in"), no ``log_{h}`` (a log to base
    h), no clamp ``max(-10000000.0, ...)`` from the evaluation code, in the LaTeX and in ``bounds show``'s text.
    Catches sympy's own names (``log_{h}``, ``n_{prime printed}``) and the raw symbol in the heading."""
    import re

    import bounds
    from bounds import show

    assert show.tex_name("n_min") == r"n_{\mathrm{min}}" and show.tex_name("log_h") == r"\log h"
    assert show.tex_name("n_prime_printed") == r"n'_{\mathrm{printed}}"
    raw_sub = re.compile(r"(?<!\\)\b[A-Za-z]+_[A-Za-z]{2,}")  # n_min, log_h outside braces
    for r in bounds.all_results():
        for q in r.quantities:
            head = show.tex_name(q.symbol)
            assert not raw_sub.search(head), head
            for form, (text, tex) in show.forms(r, q).items():
                where = (r.id, q.symbol, form)
                assert "10000000" not in tex and "Max(-1" not in text, where
                assert not re.search(r"log_\{", tex) and not raw_sub.search(tex), where
                assert not re.search(r"_\{[A-Za-z]+ [A-Za-z]+\}", tex), where  # n_{prime printed}


def test_greek_names_are_letters_and_integral_floats_exact():
    """Catches `\\mathrm{kappa}` set as the word kappa and sympy's -1.0 shown for the integer -1 (Theorem 13's
    tight chain); 0.5 and 10.05 stay as they are."""
    tex = formula.normalise(r"-1.0 + \mathrm{kappa} \cdot 0.5 + \mathrm{zeta} + 10.05 + \mathrm{kappa_2}")
    assert tex == r"-1 + \kappa \cdot 0.5 + \zeta + 10.05 + \mathrm{kappa_2}"
    assert formula.plain_text(r"\mathrm{kappa} - 2.0") == "κ - 2"


def test_a_long_root_is_set_as_a_power_so_the_line_can_break_inside_it():
    """A radical's bar cannot be broken: a root longer than LONG_FRACTION characters becomes (x)^{1/2} (the
    same value); short roots stay. Catches Theorem 13's 2,278 px line (a root over most of the formula)."""
    long = "a + " * 30 + "b"
    assert formula.inline_long_roots(r"\sqrt{2} + \sqrt{" + long + "}") == r"\sqrt{2} + (" + long + ")^{1/2}"
