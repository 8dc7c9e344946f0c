"""The report builder's core: discover the section plugins, let each build its sections from the results,
render the same sections to ``report.html`` (Jinja2, autoescaped) and ``report.pdf`` (fpdf2).

Section plugins are the modules of :mod:`reports.sections` (found by listing the package; a later
experiment adds ``reports/sections/<name>.py`` and nothing here changes). A plugin defines

``ORDER: float``
    where its sections go (smaller first);
``build(ctx: Context) -> list[Section]``
    its sections from ``ctx.results`` (empty when it has nothing to show). It uses
    ``ctx.formula(latex)`` and ``ctx.figure(fig)`` for rendered blocks.

A plugin that raises does not stop the report: its place shows the error (and :func:`build` returns
it), so a broken plugin is visible, never silently missing.
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import re
import shutil
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from bounds.references import cite
from reports import model, results as _results
from reports.model import Badge, Figure, Formula, Paragraph, Section


#: the PDF's text width (A4 less 15 mm margins) in inches: figures are drawn at most this wide
MAX_FIGURE_WIDTH_IN = 7.1


@dataclass
class Context:
    """What a section plugin gets: the results, and helpers writing rendered assets to ``assets``."""

    results: _results.ResultSet
    assets: Path
    _count: int = 0
    _formulas: dict = field(default_factory=dict)

    def _next(self, stem: str) -> Path:
        self._count += 1
        return self.assets / f"{self._count:04d}-{stem}.png"

    def formula(self, latex: str, caption: str = "", fontsize: int = 13, plain: str | None = None) -> Formula:
        """LaTeX rendered to a PNG a reader can read (:mod:`reports.formula`: mathtext, broken over
        lines when wide, else ``plain`` (an equivalent plain-text form) set as text)."""
        from reports import formula as _formula

        key = (latex, fontsize, plain)
        if key not in self._formulas:
            path = self._next("formula")
            self._formulas[key] = (path, _formula.render(latex, path, fontsize, plain=plain))
        image, how = self._formulas[key]
        return Formula(latex, caption, image, None, how)

    def bound_formulas(self, result_id: str) -> list[Formula]:
        """Every quantity's asymptotic and explicit form of ``bounds`` result ``result_id``, rendered
        (read from ``bounds``; the one place sections turn a result's forms into formulas)."""
        import bounds
        from bounds import show

        r = bounds.get(result_id)
        out = []
        for q in r.quantities:
            forms = show.forms(r, q)
            for form in ("asymptotic", "explicit"):
                if form in forms:
                    _, tex = forms[form]
                    out.append(self.formula(f"{show.tex_name(q.symbol)} = {tex}" if form == "asymptotic" else tex,
                                            caption=f"{q.name} ({form}): {q.description}"))
        return out

    def figure(self, fig, caption: str = "", stem: str = "figure") -> Figure:
        """Save a matplotlib figure as PNG (150 dpi) and close it. A figure wider than the page's text width
        (MAX_FIGURE_WIDTH_IN) is set at that width first, so its text keeps its size in print instead of being
        scaled down with the picture."""
        import matplotlib.pyplot as plt

        w, h = fig.get_size_inches()
        if w > MAX_FIGURE_WIDTH_IN:
            fig.set_size_inches(MAX_FIGURE_WIDTH_IN, h * max(MAX_FIGURE_WIDTH_IN / w, 0.75))
        path = self._next(stem)
        fig.savefig(path, dpi=150, bbox_inches="tight")
        plt.close(fig)
        return Figure(path, caption)


def render_formula(latex: str, path: Path, fontsize: int = 13, plain: str | None = None) -> tuple[Path, str]:
    """``latex`` as a PNG at ``path`` (:func:`reports.formula.render`); (path, how it was set)."""
    from reports import formula as _formula

    return path, _formula.render(latex, path, fontsize, plain=plain)


def plugins() -> list:
    """The section plugin modules, by ORDER then name."""
    import reports.sections as pkg

    mods = []
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("_"):
            continue
        mods.append(importlib.import_module(f"{pkg.__name__}.{info.name}"))
    return sorted(mods, key=lambda m: (float(getattr(m, "ORDER", 100.0)), m.__name__))


def build_sections(results: _results.ResultSet, assets: Path, bar=None) -> tuple[list[Section], list[str]]:
    """Every plugin's sections (in order) and the errors of plugins that raised; ``bar`` (a tqdm bar) is
    advanced by one per plugin."""
    import matplotlib

    matplotlib.use("Agg")
    ctx = Context(results, assets)
    sections, errors = [], []
    for mod in plugins():
        name = mod.__name__.rsplit(".", 1)[-1]
        if bar is not None:
            bar.set_postfix_str(f"section {name}")
        try:
            built = list(mod.build(ctx) or [])
        except Exception as exc:
            msg = f"section plugin {name} failed: {type(exc).__name__}: {exc}"
            errors.append(msg)
            built = [Section(f"error-{name}", f"{name} (failed)", [
                Badge("fails", msg), Paragraph(traceback.format_exc(limit=4))], getattr(mod, "ORDER", 100.0))]
        for s in built:
            s.order = float(getattr(mod, "ORDER", 100.0)) if s.order == 100.0 else s.order
        sections.extend(built)
        if bar is not None:
            bar.update(1)
    sections.sort(key=lambda s: s.order)
    from bounds.where import sections as declared_sections
    from reports.answers import answer_blocks

    answering = declared_sections()  # each experiment's declared section (bounds/where.json)
    for s in sections:  # each result's section leads with its one-line answer
        if s.key in answering:
            s.blocks[:0] = answer_blocks(results.runs, answering[s.key])
    for s in sections:
        s.title = cite(s.title)
        s.blocks = [_cited(b, results.root) for b in s.blocks]
    return sections, errors


#: an absolute path of this machine in a text (after a space, bracket, quote, '=' or at the start)
_ABSOLUTE = re.compile(r"(?:(?<=^)|(?<=[\s(\[\"'=]))/(?:[\w.+~-]+/)*[\w.+~-]+/?")
_MARKDOWN = (re.compile(r"\*\*([^*]+)\*\*"), re.compile(r"`([^`]*)`"), re.compile(r"^#{1,6}\s+", re.M))


def plain(text: str, root: Path | None = None) -> str:
    """Text as the report prints it: paper file names as paper keys (bounds.references.cite), no Markdown syntax
    (bold, code quotes, heading marks), and no path of this machine: the results directory by its name, any other
    absolute path by its last part."""
    text = cite(text)
    if root is not None:
        base = str(Path(root).resolve())
        for r in {base, str(root)}:
            if r.startswith("/"):
                text = text.replace(r, Path(root).name or ".")
    text = _ABSOLUTE.sub(lambda m: Path(m.group(0)).name or "/", text)
    for pattern in _MARKDOWN:
        text = pattern.sub(lambda m: m.group(1) if m.groups() else "", text)
    return text


def _cited(block, root: Path | None = None):
    """``block`` with its text made :func:`plain`."""
    import dataclasses

    changes = {}
    for f in dataclasses.fields(block):
        v = getattr(block, f.name)
        if isinstance(v, str) and f.name != "latex":
            changes[f.name] = plain(v, root)
        elif f.name in ("rows", "columns"):
            changes[f.name] = tuple(tuple(plain(c, root) if isinstance(c, str) else c for c in r) for r in v) \
                if f.name == "rows" else tuple(plain(c, root) if isinstance(c, str) else c for c in v)
    return dataclasses.replace(block, **changes)


def _meta(title: str, res) -> dict:
    return {"title": title, "results": res.root.name or str(res.root), "runs": len(res.runs),
            "audits": len(res.audits), "problems": [plain(p, res.root) for p in res.problems]}


@dataclass
class BuildResult:
    html: Path
    pdf: Path
    sections: list[Section]
    errors: list[str]
    problems: list[str] = field(default_factory=list)  # result files the report flags (reports.integrity)


def build(results_dir, out_dir, title: str = "Public-data privacy workbench: validation report",
          progress: bool = False) -> BuildResult:
    """Read ``results_dir``, write ``out_dir/report.html`` and ``out_dir/report.pdf`` (both or neither). With
    ``progress``, a progress line on stderr (tqdm): one step per section plugin, then the HTML and the PDF."""
    import sys

    from tqdm import tqdm

    from reports import html as _html, pdf as _pdf

    from simulations.store import check_writable, os_error

    if not str(results_dir).strip():
        raise ValueError("--results is empty: give the directory holding the runs")
    res = _results.load(results_dir)
    out = check_writable(out_dir, "--out")  # before rendering anything
    try:
        work = Path(tempfile.mkdtemp(prefix=".report-", dir=out))
    except OSError as exc:
        raise os_error(exc, out) from None
    try:
        assets = work / "assets"
        assets.mkdir()
        with tqdm(total=len(plugins()) + 2, desc="reports build", unit="step", file=sys.stderr,
                  disable=not progress, mininterval=0.5, dynamic_ncols=True) as bar:
            sections, errors = build_sections(res, assets, bar)
            bar.set_postfix_str("HTML")
            html_text = _html.render(sections, _meta(title, res))
            bar.update(1)
            bar.set_postfix_str("PDF")
            html_tmp, pdf_tmp = work / "report.html", work / "report.pdf"
            html_tmp.write_text(html_text, encoding="utf-8")
            _pdf.render(sections, _meta(title, res), pdf_tmp)
            bar.update(1)
        os.replace(html_tmp, out / "report.html")
        os.replace(pdf_tmp, out / "report.pdf")
    except OSError as exc:  # a full disk mid-build: one line; the temporary directory goes away
        raise os_error(exc, out) from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return BuildResult(out / "report.html", out / "report.pdf", sections, errors, list(res.problems))


__all__ = ["Context", "BuildResult", "build", "build_sections", "plugins", "render_formula", "model"]
