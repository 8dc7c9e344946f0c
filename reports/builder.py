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
import shutil
import tempfile
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from reports import model, results as _results
from reports.model import Badge, Figure, Formula, Paragraph, Section


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

    def formula(self, latex: str, caption: str = "", fontsize: int = 13) -> Formula:
        """LaTeX (matplotlib mathtext subset) rendered to a PNG; on failure the block keeps the source and the error."""
        key = (latex, fontsize)
        if key not in self._formulas:
            self._formulas[key] = render_formula(latex, self._next("formula"), fontsize)
        image, error = self._formulas[key]
        return Formula(latex, caption, image, error)

    def figure(self, fig, caption: str = "", stem: str = "figure") -> Figure:
        """Save a matplotlib figure as PNG (150 dpi) and close it."""
        import matplotlib.pyplot as plt

        path = self._next(stem)
        fig.savefig(path, dpi=150, bbox_inches="tight")
        plt.close(fig)
        return Figure(path, caption)


def render_formula(latex: str, path: Path, fontsize: int = 13) -> tuple[Path | None, str | None]:
    """matplotlib mathtext: ``$latex$`` to a PNG at ``path``; (None, error) if mathtext cannot parse it."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import mathtext
    from matplotlib.font_manager import FontProperties

    try:
        mathtext.math_to_image(f"${latex}$", str(path), prop=FontProperties(size=fontsize), dpi=150, format="png")
    except Exception as exc:  # mathtext raises ValueError or ParseException on unsupported LaTeX
        path.unlink(missing_ok=True)
        return None, f"{type(exc).__name__}: {' '.join(str(exc).split())[:200]}"
    return path, None


def plugins() -> list:
    """The section plugin modules, by ORDER then name."""
    import reports.sections as pkg

    mods = []
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name.startswith("_"):
            continue
        mods.append(importlib.import_module(f"{pkg.__name__}.{info.name}"))
    return sorted(mods, key=lambda m: (float(getattr(m, "ORDER", 100.0)), m.__name__))


def build_sections(results: _results.ResultSet, assets: Path) -> tuple[list[Section], list[str]]:
    """Every plugin's sections (in order) and the errors of plugins that raised."""
    import matplotlib

    matplotlib.use("Agg")
    ctx = Context(results, assets)
    sections, errors = [], []
    for mod in plugins():
        name = mod.__name__.rsplit(".", 1)[-1]
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
    sections.sort(key=lambda s: s.order)
    return sections, errors


@dataclass
class BuildResult:
    html: Path
    pdf: Path
    sections: list[Section]
    errors: list[str]


def build(results_dir, out_dir, title: str = "Public-data privacy workbench: validation report") -> BuildResult:
    """Read ``results_dir``, write ``out_dir/report.html`` and ``out_dir/report.pdf`` (both or neither)."""
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
        sections, errors = build_sections(res, assets)
        meta = {"title": title, "results": str(res.root), "runs": len(res.runs), "audits": len(res.audits),
                "problems": list(res.problems)}
        html_tmp, pdf_tmp = work / "report.html", work / "report.pdf"
        html_tmp.write_text(_html.render(sections, meta), encoding="utf-8")
        _pdf.render(sections, meta, pdf_tmp)
        os.replace(html_tmp, out / "report.html")
        os.replace(pdf_tmp, out / "report.pdf")
    except OSError as exc:  # a full disk mid-build: one line; the temporary directory goes away
        raise os_error(exc, out) from None
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return BuildResult(out / "report.html", out / "report.pdf", sections, errors)


__all__ = ["Context", "BuildResult", "build", "build_sections", "plugins", "render_formula", "model"]
