"""HTML renderer: one self-contained page (images inlined as data URIs) from the content model, through the
Jinja2 template ``templates/report.html.j2`` with autoescaping on (every text of the model is escaped)."""

from __future__ import annotations

import base64
from pathlib import Path

import jinja2

from reports import model

_ENV = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(Path(__file__).resolve().parent / "templates")),
    autoescape=True,  # all templates, whatever their extension
    undefined=jinja2.StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)


def _data_uri(path: Path | None) -> str | None:
    if path is None:
        return None
    return "data:image/png;base64," + base64.b64encode(Path(path).read_bytes()).decode("ascii")


def _kind(block) -> str:
    return type(block).__name__.lower()


def _cell_class(value) -> str:
    """Numbers are right-aligned ("num"); text, short or long, is left-aligned and wraps at spaces ("text")."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "num"
    return "text"


#: a column wants at most this many characters' worth of width
_WANTED_CHARS = 28
# : characters of table text (digits are the widest) across the 1100 px body at each table font size, less the cell
# padding
_LINE_CHARS = {"fit": 120, "wide": 135, "widest": 155}


def table_class(table: model.Table) -> str:
    """``widest`` (the smallest font) for tables of more than 14 columns, ``wide`` for more than 8, else ``fit``."""
    if table.dense:
        return "wide dense"
    return "widest" if len(table.columns) > 14 else "wide" if len(table.columns) > 8 else "fit"


def col_widths(table: model.Table) -> list[int]:
    """Each column's share of the page width in percent (summing to 100): every column first gets its
    longest word (a number or a header word is never broken where the page allows), then the spare width
    goes to the columns whose cells are longer (up to _WANTED_CHARS characters), in proportion to what they
    lack (as the PDF renderer's column fit). With ``table-layout: fixed`` and ``width: 100%`` the table never
    gets wider than the page; what does not fit a column wraps inside it."""
    cells = [[str(c) for c in table.columns]] + [[model.cell_text(v) for v in r] for r in table.rows]
    need, want = [], []
    for j in range(len(table.columns)):
        col = [row[j] for row in cells]
        word = max((len(w) for c in col[1:] for w in c.split()), default=1) + 1.5  # header words may break
        word = max(word, 5.5)
        longest = max((len(c) for c in col[1:]), default=0) + 1.5
        need.append(word)
        want.append(max(word, min(longest, _WANTED_CHARS)))
    line = _LINE_CHARS[table_class(table).split()[0]]
    if sum(need) >= line:
        chars = need
    else:
        lack = [w - n for w, n in zip(want, need)]
        spare = min(line - sum(need), sum(lack))
        chars = [n + spare * d / (sum(lack) or 1) for n, d in zip(need, lack)]
    total = sum(chars)
    shares = [round(100 * c / total, 2) for c in chars]
    return shares


#: HTML tables of more columns are set as stacked parts of at most PART_COLUMNS columns, each repeating column 1
MAX_COLUMNS, PART_COLUMNS = 12, 9
#: HTML tables of more rows are folded (details/summary) until opened
FOLD_ROWS = 30
#: a dense table (the first screen's) of more rows is set as two halves side by side
SIDE_BY_SIDE_ROWS = 20


def parts(table: model.Table) -> list[model.Table]:
    """``table`` as one or more tables of at most PART_COLUMNS columns (the first column repeated in each), so a
    wide table is read at its font size instead of being squeezed into 10-line cells; a long dense table as its
    two halves (set side by side)."""
    n = len(table.columns)
    if table.dense and len(table.rows) > SIDE_BY_SIDE_ROWS:  # two halves side by side: every row on one screen
        half = -(-len(table.rows) // 2)
        return [model.Table(table.columns, table.rows[:half], table.caption, dense=True),
                model.Table(table.columns, table.rows[half:], dense=True)]
    if n <= MAX_COLUMNS:
        return [table]
    rest = list(range(1, n))
    k = -(-len(rest) // (PART_COLUMNS - 1))
    size = -(-len(rest) // k)
    out = []
    for i in range(k):
        cols = [0, *rest[i * size:(i + 1) * size]]
        out.append(model.Table(tuple(table.columns[j] for j in cols), tuple(tuple(r[j] for j in cols)
                                                                          for r in table.rows),
                               (table.caption if i == 0 else "") + f" (part {i + 1} of {k})", table.collapsed))
    return out


def folded(table: model.Table) -> bool:
    """Whether the table is folded until opened: the first screen's (dense) table never is."""
    return not table.dense and (table.collapsed or len(table.rows) > FOLD_ROWS)


def _plain(latex: str) -> str:
    from reports.formula import plain_text

    return plain_text(latex)


def _css_width(path) -> str:
    """A formula PNG (150 dpi) at its print size on a 96-dpi screen: never scaled down to unreadable."""
    from PIL import Image

    with Image.open(path) as im:
        return f"{im.size[0] * 96 / 150:.0f}px"


_ENV.filters["css_width"] = _css_width
_ENV.filters["parts"] = parts
_ENV.filters["folded"] = folded
_ENV.filters["cellclass"] = _cell_class
_ENV.filters["col_widths"] = col_widths
_ENV.filters["table_class"] = table_class
_ENV.filters["plain"] = _plain
_ENV.filters["data_uri"] = _data_uri
_ENV.filters["cell"] = model.cell_text
_ENV.filters["kind"] = _kind


def render(sections: list[model.Section], meta: dict) -> str:
    """The report page as a string."""
    return _ENV.get_template("report.html.j2").render(sections=sections, meta=meta)
