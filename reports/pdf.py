"""PDF renderer (fpdf2, PyPI only): the same sections as the HTML page, laid out on A4.

Text is set in DejaVu Sans from matplotlib's bundled fonts (Unicode; no system font needed). Formulas
and figures are the PNGs the builder rendered, scaled to the text width.
"""

from __future__ import annotations

from pathlib import Path

from fpdf import FPDF
from fpdf.fonts import FontFace

from reports import model

_COLOURS = {"holds": (46, 125, 50), "passes": (46, 125, 50), "caught": (46, 125, 50),
            "violated": (198, 40, 40), "fails": (198, 40, 40), "missed": (198, 40, 40),
            "inconclusive": (239, 108, 0), "holds on part": (239, 108, 0),
            "not machine-checkable": (84, 110, 122), "info": (84, 110, 122),
            "below-bound": (69, 90, 160), "floor check": (84, 110, 122)}
_PX_TO_MM = 25.4 / 150  # images are rendered at 150 dpi


def _font_dir() -> Path:
    import matplotlib

    return Path(matplotlib.get_data_path()) / "fonts" / "ttf"


class _Doc(FPDF):
    def __init__(self, title: str):
        super().__init__(orientation="P", unit="mm", format="A4")
        self.report_title = title
        d = _font_dir()
        self.add_font("DejaVu", "", str(d / "DejaVuSans.ttf"))
        self.add_font("DejaVu", "B", str(d / "DejaVuSans-Bold.ttf"))
        self.add_font("DejaVu", "I", str(d / "DejaVuSans-Oblique.ttf"))
        self.add_font("DejaVuMono", "", str(d / "DejaVuSansMono.ttf"))
        self.set_auto_page_break(True, margin=15)
        self.set_margins(15, 15, 15)

    def footer(self):
        self.set_y(-12)
        self.set_font("DejaVu", "", 7)
        self.set_text_color(120, 120, 120)
        self.cell(0, 5, f"{self.report_title} - page {self.page_no()}", align="C")
        self.set_text_color(0, 0, 0)


def _image(doc: _Doc, path: Path, max_w: float | None = None) -> None:
    from PIL import Image

    with Image.open(path) as im:
        w_px, h_px = im.size
    w = w_px * _PX_TO_MM
    limit = max_w or doc.epw
    if w > limit:
        w = limit
    h = w * h_px / w_px
    if doc.get_y() + h > doc.page_break_trigger:
        doc.add_page()
    doc.image(str(path), x=doc.l_margin, w=w, h=h)
    doc.ln(1)


def _text(doc: _Doc, text: str, size: float = 9.5, style: str = "", family: str = "DejaVu") -> None:
    doc.set_font(family, style, size)
    doc.multi_cell(0, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
    doc.ln(1)


def _table(doc: _Doc, t: model.Table) -> None:
    if t.caption:
        _text(doc, t.caption, 8.5, "I")
    n = len(t.columns)
    size = 7.5 if n <= 7 else (6.5 if n <= 10 else 5.5)
    doc.set_font("DejaVu", "", size)
    doc.set_fill_color(255, 255, 255)  # a badge's colour must not leak into the table's cells
    with doc.table(text_align="LEFT", line_height=size * 0.5, headings_style=FontFace(emphasis="BOLD",
                   fill_color=(235, 235, 235)), first_row_as_headings=True, width=doc.epw) as table:
        row = table.row()
        for c in t.columns:
            row.cell(str(c))
        for r in t.rows:
            row = table.row()
            for v in r:
                row.cell(model.cell_text(v))
    doc.ln(2)


def render(sections: list[model.Section], meta: dict, path: Path) -> None:
    """Write the PDF for ``sections`` to ``path``."""
    doc = _Doc(meta["title"])
    doc.set_title(meta["title"])
    doc.add_page()
    _text(doc, meta["title"], 16, "B")
    _text(doc, f"Results read from {meta['results']}: {meta['runs']} run directories, {meta['audits']} saved audits.", 9)
    for p in meta.get("problems", []):
        _text(doc, p, 8, "I")
    _text(doc, "Contents", 11, "B")
    for i, s in enumerate(sections, 1):
        _text(doc, f"{i}. {s.title}", 9)
    for i, s in enumerate(sections, 1):
        doc.add_page()
        doc.start_section(s.title)
        _text(doc, f"{i}. {s.title}", 14, "B")
        for b in s.blocks:
            if isinstance(b, model.Heading):
                _text(doc, b.text, 11.5 if b.level <= 3 else 10.5, "B")
            elif isinstance(b, model.Paragraph):
                _text(doc, b.text)
            elif isinstance(b, model.Badge):
                doc.set_font("DejaVu", "B", 9)
                doc.set_fill_color(*_COLOURS.get(b.status, (84, 110, 122)))
                doc.set_text_color(255, 255, 255)
                doc.cell(doc.get_string_width(b.status) + 6, 6, b.status, fill=True, new_x="RIGHT", new_y="TOP")
                doc.set_text_color(0, 0, 0)
                doc.cell(2, 6, "")
                doc.set_font("DejaVu", "", 9)
                doc.multi_cell(0, 4.6, b.text, new_x="LMARGIN", new_y="NEXT")
                doc.ln(1.5)
            elif isinstance(b, model.Formula):
                if b.image is not None:
                    _image(doc, b.image)
                else:
                    _text(doc, b.latex, 7.5, family="DejaVuMono")
                    _text(doc, f"(not rendered: {b.error})", 7.5, "I")
                if b.caption:
                    _text(doc, b.caption, 8, "I")
            elif isinstance(b, model.Table):
                _table(doc, b)
            elif isinstance(b, model.Figure):
                _image(doc, b.image, max_w=doc.epw * 0.9)
                if b.caption:
                    _text(doc, b.caption, 8, "I")
    doc.output(str(path))
