"""The content model shared by the HTML and the PDF renderer: a report is a list of sections, a section a
list of blocks. Section plugins (``reports/sections/*.py``) build these; renderers only lay them out.

Blocks: :class:`Heading`, :class:`Paragraph`, :class:`Formula` (LaTeX with its rendered PNG),
:class:`Table`, :class:`Figure` (a matplotlib PNG), :class:`Badge` (a verdict). All text is plain text
(the HTML renderer escapes it; nothing in a block is markup).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

VERDICT_STATUSES = ("holds", "violated", "inconclusive", "below-bound", "floor check", "caught", "passes", "missed",
                    "fails",
                    "holds on part", "not machine-checkable", "info")


@dataclass(frozen=True)
class Heading:
    text: str
    level: int = 3  # 3 or 4 (sections are level 2)


@dataclass(frozen=True)
class Paragraph:
    text: str


@dataclass(frozen=True)
class Formula:
    """A formula: ``latex`` rendered to ``image`` (PNG) once by :mod:`reports.formula` (``how``:
    mathtext, mathtext over several lines, or an equivalent plain-text form). ``image`` None (a
    block built by hand without rendering) is shown as the formula's text, never with an error."""

    latex: str
    caption: str = ""
    image: Path | None = None
    error: str | None = None  # kept for old callers; the renderers never print it
    how: str = "mathtext"


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]
    rows: tuple[tuple[Any, ...], ...]
    caption: str = ""
    collapsed: bool = False  # HTML: folded under its caption (or its first column's name) until opened
    dense: bool = False      # HTML: a smaller font and tighter cells (the first screen's table of every result)

    def __post_init__(self):
        for r in self.rows:
            if len(r) != len(self.columns):
                raise ValueError(f"table row {r!r} has {len(r)} cells, the header {len(self.columns)}")


@dataclass(frozen=True)
class Figure:
    image: Path
    caption: str = ""


@dataclass(frozen=True)
class Badge:
    """A verdict badge: ``status`` (one of VERDICT_STATUSES, picks the colour) and its one-line text."""

    status: str
    text: str

    def __post_init__(self):
        if self.status not in VERDICT_STATUSES:
            raise ValueError(f"badge status={self.status!r}: allowed {', '.join(VERDICT_STATUSES)}")
        # the badge shows its word: a text that starts by repeating it ("holds: 29/30 ...") drops the repeat
        text = self.text
        if text[:len(self.status)].lower() == self.status and text[len(self.status):len(self.status) + 1] in (":", " ",
            ""):
            text = text[len(self.status) + 1:].lstrip() or text
            object.__setattr__(self, "text", text[:1].upper() + text[1:])


Block = Union[Heading, Paragraph, Formula, Table, Figure, Badge]


@dataclass
class Section:
    """One section of the report; ``key`` is a stable anchor (letters, digits, '-')."""

    key: str
    title: str
    blocks: list = field(default_factory=list)
    order: float = 100.0

    def add(self, *blocks: Block) -> "Section":
        self.blocks.extend(blocks)
        return self


def cell_text(value: Any) -> str:
    """A table cell as text: floats with 4 significant digits, large integers with thousands separators."""
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        if value != value:
            return "nan"
        if abs(value) >= 1e6 or (0 < abs(value) < 1e-3):
            return f"{value:.3e}"
        return f"{value:.4g}"
    return str(value)
