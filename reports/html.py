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
    """Numbers and short cells never wrap (a number is never split); long text wraps at spaces."""
    text = model.cell_text(value)
    return "num" if (not isinstance(value, str) or len(text) <= 24) else "text"


def _plain(latex: str) -> str:
    from reports.formula import plain_text

    return plain_text(latex)


def _css_width(path) -> str:
    """A formula PNG (150 dpi) at its print size on a 96-dpi screen: never scaled down to unreadable."""
    from PIL import Image

    with Image.open(path) as im:
        return f"{im.size[0] * 96 / 150:.0f}px"


_ENV.filters["css_width"] = _css_width
_ENV.filters["cellclass"] = _cell_class
_ENV.filters["plain"] = _plain
_ENV.filters["data_uri"] = _data_uri
_ENV.filters["cell"] = model.cell_text
_ENV.filters["kind"] = _kind


def render(sections: list[model.Section], meta: dict) -> str:
    """The report page as a string."""
    return _ENV.get_template("report.html.j2").render(sections=sections, meta=meta)
