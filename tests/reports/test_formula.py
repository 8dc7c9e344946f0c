"""reports.formula: every formula a reader sees is set by mathtext (or an equivalent plain form),
never LaTeX source with an error; wide formulas are broken over lines, never inside braces."""
from __future__ import annotations

import pytest
from PIL import Image

from bounds import get
from bounds.show import forms
from reports import formula


@pytest.mark.parametrize("rid,qname", [("thm10", "public_samples"), ("thm10", "private_samples"),
                                       ("thm4.4", "error"), ("lemma7", "private_samples")])
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
    assert formula.inline_long_fractions(tex) == "(" + " + ".join(f"x_{{{i}}}" for i in range(12)) + r") / (2 \varepsilon)"
    assert formula.inline_long_fractions(r"\frac{a}{b}") == r"\frac{a}{b}"


def test_unparseable_latex_falls_back_to_an_equivalent_plain_form(tmp_path):
    """Never source plus an error: a construct mathtext lacks is set as the plain form given."""
    how = formula.render(r"\begin{cases} a \\ b \end{cases}", tmp_path / "f.png", plain="cases(a, b)")
    assert how == "plain text" and (tmp_path / "f.png").is_file()
    assert "\\" not in formula.plain_text(r"\frac{\alpha}{\sqrt{\beta}} \leq \left(x\right)")
