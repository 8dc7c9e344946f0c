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
#: a heading starts a new page when less than this height (mm) is left below it
_KEEP_WITH_NEXT_MM = 35


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


#: the least share of a page's height that is filled before a page break, except on a section's last page
MIN_FILL = 1 / 3
#: a table of at most this many rows is never split across pages
KEEP_ROWS = 15


def _filled(doc: _Doc) -> float:
    """The share of the current page's text height already set."""
    return (doc.get_y() - doc.t_margin) / (doc.page_break_trigger - doc.t_margin)


def _at_top(doc: _Doc) -> bool:
    """Nothing has been set on the current page yet (a page break here would leave a blank page)."""
    return doc.get_y() <= doc.t_margin + 0.5


def _caption_height(doc: _Doc, caption: str, size: float = 8) -> float:
    if not caption:
        return 0.0
    doc.set_font("DejaVu", "I", size)
    return doc.multi_cell(0, size * 0.5, caption, dry_run=True, output="HEIGHT") + 1


def _image_fits(doc: _Doc, path: Path, caption: str = "", above: float = 0.0) -> bool:
    """Whether the image (at its print size, at most a page) and its caption fit below ``above`` mm more."""
    from PIL import Image

    with Image.open(path) as im:
        w_px, h_px = im.size
    w = min(w_px * _PX_TO_MM, doc.epw)
    cap = _caption_height(doc, caption)
    h = min(w * h_px / w_px, doc.page_break_trigger - doc.t_margin - cap - 2)
    return doc.get_y() + above + h + cap + 2 <= doc.page_break_trigger


def _image(doc: _Doc, path: Path, max_w: float | None = None, caption: str = "") -> None:
    """An image at its print size (150 dpi), narrowed to the text width and shortened to the page's height
    (with its caption) when larger, never split: it starts a new page when the rest of this one cannot hold
    it with its caption, unless the page is still empty (no blank page)."""
    from PIL import Image

    with Image.open(path) as im:
        w_px, h_px = im.size
    w = min(w_px * _PX_TO_MM, max_w or doc.epw)
    h = w * h_px / w_px
    cap = _caption_height(doc, caption)
    room = doc.page_break_trigger - doc.t_margin - cap - 2
    if h > room:  # taller than a page: scale down, keeping the aspect ratio
        w, h = w * room / h, room
    left = doc.page_break_trigger - doc.get_y() - cap - 2
    if h > left and not _at_top(doc):
        if _filled(doc) < MIN_FILL + 0.05 and left >= 0.6 * h:  # moving it would leave this page near-empty
            w, h = w * left / h, left
        else:
            doc.add_page()
    doc.image(str(path), x=doc.l_margin, w=w, h=h)
    doc.ln(1)
    if caption:
        _text(doc, caption, 8, "I")


def _text(doc: _Doc, text: str, size: float = 9.5, style: str = "", family: str = "DejaVu") -> None:
    doc.set_font(family, style, size)
    doc.multi_cell(0, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
    doc.ln(1)


#: table font sizes tried, largest first, until the widest word of every column fits the page
_TABLE_SIZES = (7.5, 6.5, 5.5, 5.0)


def _col_widths(doc: _Doc, cells: list[list[str]], size: float) -> tuple[list[float], list[float]]:
    """(least, wanted) width in mm of each column at font ``size``: the least fits the column's widest
    word (a number is one word, so it is never split), the wanted its longest cell (capped)."""
    pad = 2 * doc.c_margin + 0.8
    least, wanted = [], []
    for j in range(len(cells[0])):
        col = [row[j] for row in cells]
        doc.set_font("DejaVu", "B", size)
        head = max((doc.get_string_width(w) for w in col[0].split()), default=0.0)
        doc.set_font("DejaVu", "", size)
        words = max((doc.get_string_width(w) for c in col[1:] for w in c.split()), default=0.0)
        full = max((doc.get_string_width(c) for c in col[1:]), default=0.0)
        least.append(max(head, words) + pad)
        wanted.append(max(least[-1], min(full, 70.0) + pad))
    return least, wanted


def _fit(least: list[float], wanted: list[float], width: float) -> list[float]:
    """Column widths summing to at most ``width``: the wanted ones if they fit, else every column its
    least plus a share of the rest in proportion to what it lacks."""
    if sum(wanted) <= width:
        return wanted
    spare = width - sum(least)
    lack = [w - m for w, m in zip(wanted, least)]
    total = sum(lack) or 1.0
    return [m + spare * d / total for m, d in zip(least, lack)]


def _table(doc: _Doc, t: model.Table) -> None:
    """A table whose columns fit the page and never split a word or a number: the font shrinks to at
    most 5 pt; if the columns still do not fit, the table is set in parts, each repeating column 1. A short
    table (at most KEEP_ROWS rows) that would break across pages starts on the next page with its caption, unless
    this page is less than MIN_FILL full (it would be left near-empty)."""
    cells = [[str(c) for c in t.columns]] + [[model.cell_text(v) for v in r] for r in t.rows]
    for size in _TABLE_SIZES:
        least, wanted = _col_widths(doc, cells, size)
        if sum(least) <= doc.epw:
            break
    groups, cur, used = [], [0], least[0]
    for j in range(1, len(least)):
        if used + least[j] > doc.epw and len(cur) > 1:
            groups.append(cur)
            cur, used = [0], least[0]
        cur.append(j)
        used += least[j]
    groups.append(cur)
    widths = [_fit([least[j] for j in cols], [wanted[j] for j in cols], doc.epw - 0.01) for cols in groups]
    if _kept_together(t) and not _at_top(doc) and _filled(doc) >= MIN_FILL:
        with doc.offset_rendering() as dummy:
            _set_table(dummy, t.caption, cells, groups[:1], widths[:1], size)
        if dummy.page_break_triggered:
            doc.add_page()
    _set_table(doc, t.caption, cells, groups, widths, size)


def _set_table(doc, caption: str, cells, groups, widths, size) -> None:
    if caption:
        _text(doc, caption, 8.5, "I")
    doc.set_fill_color(255, 255, 255)  # a badge's colour must not leak into the table's cells
    for k, (cols, w) in enumerate(zip(groups, widths)):
        if len(groups) > 1:
            _text(doc, f"(part {k + 1} of {len(groups)})", 7, "I")
        doc.set_font("DejaVu", "", size)
        with doc.table(text_align="LEFT", line_height=size * 0.5, col_widths=tuple(w), width=sum(w),
                       align="LEFT", headings_style=FontFace(emphasis="BOLD", fill_color=(235, 235, 235)),
                       first_row_as_headings=True) as table:
            for r in cells:
                row = table.row()
                for j in cols:
                    row.cell(r[j])
        doc.ln(2)


def _heading(doc, b: model.Heading) -> None:
    _text(doc, b.text, 11.5 if b.level <= 3 else 10.5, "B")


def _kept_together(t: model.Table) -> bool:
    """A table short enough to be set on one page, never split."""
    return len(t.rows) <= KEEP_ROWS


def render(sections: list[model.Section], meta: dict, path: Path) -> None:
    """Write the PDF for ``sections`` to ``path``."""
    doc = _Doc(meta["title"])
    doc.set_title(meta["title"])
    doc.add_page()
    _text(doc, meta["title"], 16, "B")
    _text(doc, f"Results read from {meta['results']}: {meta['runs']} run directories, {meta['audits']} saved audits.",
          9)
    for p in meta.get("problems", []):
        _text(doc, p, 8, "I")
    _text(doc, "Contents", 11, "B")
    links = [doc.add_link() for _ in sections]
    doc.set_font("DejaVu", "", 9)
    doc.set_text_color(21, 101, 192)
    for i, (s, link) in enumerate(zip(sections, links), 1):  # each entry links to its section's first page
        doc.multi_cell(0, 4.75, f"{i}. {s.title}", link=link, new_x="LMARGIN", new_y="NEXT")
    doc.set_text_color(0, 0, 0)
    for i, (s, link) in enumerate(zip(sections, links), 1):
        if _filled(doc) > 1 - MIN_FILL:  # a section starts a new page only when little room is left
            doc.add_page()
        else:
            doc.ln(6)
        doc.set_link(link, page=doc.page_no(), y=doc.get_y())
        doc.start_section(s.title)
        _text(doc, f"{i}. {s.title}", 14, "B")
        for b, nxt in zip(s.blocks, s.blocks[1:] + [None]):
            if isinstance(b, model.Heading):
                big = isinstance(nxt, (model.Figure, model.Table, model.Formula))
                if big and doc.get_y() > doc.page_break_trigger - _KEEP_WITH_NEXT_MM and not _at_top(doc):
                    doc.add_page()  # a heading never ends a page above its figure or table: it moves with it
                elif isinstance(nxt, (model.Figure, model.Formula)) and nxt.image is not None \
                        and _filled(doc) >= MIN_FILL and not _image_fits(doc, nxt.image, nxt.caption, 10):
                    doc.add_page()  # nor above a figure that moves to the next page
                elif isinstance(nxt, model.Table) and _kept_together(nxt) and _filled(doc) >= MIN_FILL:
                    with doc.offset_rendering() as dummy:  # nor above a short table that moves to the next page
                        _heading(dummy, b)
                        _table(dummy, nxt)
                    if dummy.page_break_triggered:
                        doc.add_page()
                _heading(doc, b)
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
                    _image(doc, b.image, caption=b.caption)
                else:  # a block built without rendering: its readable plain form, never an error
                    from reports.formula import plain_text

                    _text(doc, plain_text(b.latex), 8, family="DejaVuMono")
                    if b.caption:
                        _text(doc, b.caption, 8, "I")
            elif isinstance(b, model.Table):
                _table(doc, b)
            elif isinstance(b, model.Figure):
                _image(doc, b.image, caption=b.caption)
    doc.output(str(path))
