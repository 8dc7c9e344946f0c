"""The report builder: builds HTML and PDF from a small real result set (tiny thm10 and looseness runs, saved
audits, a saved proof-check verdict), the PDF opens with the expected sections, user text is escaped,
plugins are discovered, bad input gives one line and exit 2, a failed build leaves nothing behind."""

from __future__ import annotations

import json
import re
import sys
import textwrap

import pytest
from pypdf import PdfReader

from reports import builder
from reports.__main__ import main as cli
from simulations import runner
from simulations.__main__ import main as sim_cli

TITLES = ("Runs found", "BCMNUW20 Theorem 10", "Privacy audits", "Proof checks and errata")
MY_PLUGINS = ("overview", "thm10", "audits", "proof_checks")


@pytest.fixture(scope="module")
def results(tmp_path_factory):
    """A small result set written by the real engines (never hand-made records)."""
    import proofs_checks.core as pc

    root = tmp_path_factory.mktemp("results")
    runner.run("thm10", 3, root / "thm10", seed=1, workers=1, progress=False,
               overrides={"cases": "thresholds:near_threshold,stumps:zipf", "num_points": 64, "stump_dim": 4,
                          "alpha": 0.9, "n_max": 200_000})
    runner.run("thm10_looseness", 2, root / "loose", seed=2, workers=1, progress=False,
               overrides={"cases": "thresholds:near_threshold", "alphas": "0.9,0.7", "num_points": 64,
                          "factor": 8.0, "n_min": 5000, "n_max": 200_000})
    for target in ("pap", "pap_private_cover"):
        assert sim_cli(["audit", target, "--samples", "200", "--out", str(root / "audits")]) == 0
    check = pc.all_checks("bcmnuw20")[0]
    import proofs_checks.bcmnuw20 as bc

    with pytest.MonkeyPatch.context() as mp:  # a fresh clone without the paper texts beside it
        mp.setattr(bc, "PAPERS_DIR", root / "no-papers")
        text_check = next(c for c in pc.all_checks("bcmnuw20") if c.runner is bc.text_runner)
        saved = [pc.run_check(check).to_dict(), pc.run_check(text_check).to_dict()]
    (root / "proofs_checks.json").write_text(json.dumps(saved))
    return root


@pytest.fixture(scope="module")
def built(results, tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    return builder.build(results, out, title="Test <report> & co")


def test_report_builds_and_pdf_has_the_sections(built):
    assert built.html.is_file() and built.pdf.is_file()
    assert not [e for e in built.errors if any(f"plugin {p} " in e for p in MY_PLUGINS)], built.errors
    reader = PdfReader(str(built.pdf))
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    for title in TITLES:
        assert title in text, title
    outline = [o.title for o in reader.outline if not isinstance(o, list)]
    assert any(t.startswith("BCMNUW20 Theorem 10") for t in outline)


def test_html_has_badges_tables_formulas_and_figure(built):
    html = built.html.read_text()
    for title in TITLES:
        assert title in html
    assert 'class="badge' in html and "<table class=" in html
    assert html.count('src="data:image/png;base64,') >= 3  # formulas and the looseness plot
    assert "pap_private_cover" in html and ">caught<" in html
    import proofs_checks.core as pc

    assert pc.all_checks("bcmnuw20")[0].id in html  # the saved proof-check verdict (the fixture saves the first check)


def test_html_escapes_user_text(built):
    html = built.html.read_text()
    assert "Test &lt;report&gt; &amp; co" in html and "<report>" not in html


def test_html_escapes_text_from_result_files(results, tmp_path):
    """A run or audit file with markup in it must come out as text."""
    evil = tmp_path / "results"
    evil.mkdir()
    audit = json.loads((results / "audits" / "audit-pap.json").read_text())
    audit.update(target="pap<script>alert(1)</script>", source="<b>bold</b>")
    (evil / "audit-x.json").write_text(json.dumps(audit))
    proof_checks_file = evil / "proofs_checks.json"
    proof_checks_file.write_text(json.dumps([{"id": "x", "claim": "<i>claim</i>", "verdict": {"status": "holds"}}]))
    r = builder.build(evil, tmp_path / "out")
    html = r.html.read_text()
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert "<b>bold</b>" not in html and "<i>claim</i>" not in html


def test_reports_only_read_and_name_the_missing_proof_check_verdicts(tmp_path, monkeypatch):
    """With no saved verdicts the report names the papers that lack them and the command
    that saves them; it never runs a check (running one here fails the build). Catches the old
    fallback that ran every proof check (about 30 s) inside `reports build`."""
    import proofs_checks.core as pc

    def no_running(*a, **k):
        raise AssertionError("reports ran a proof check")

    monkeypatch.setattr(pc, "run_all", no_running)
    monkeypatch.setattr(pc, "run_check", no_running)
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "proofs_checks.json").write_text(json.dumps(
        [{"id": "nb20:x", "paper": "NB20", "claim": "c", "verdict": {"status": "holds"}}]))
    r = builder.build(tmp_path / "results", tmp_path / "out")
    html = r.html.read_text()
    assert "No saved proof-check verdicts for BCMNUW20, ABM19, LVSUW21:" in html
    assert "python -m proofs_checks --paper abm19 --out" in html and "nb20:x" in html
    assert "No complete thm10 run" in html and "No saved audit" in html


def test_a_new_plugin_is_discovered_without_touching_the_builder(tmp_path, monkeypatch):
    import reports.sections as pkg

    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "zz_extra.py").write_text(textwrap.dedent('''
        from reports.model import Paragraph, Section
        ORDER = 99
        def build(ctx):
            return [Section("extra", "An extra section", [Paragraph("hello")])]
    '''))
    monkeypatch.setattr(pkg, "__path__", list(pkg.__path__) + [str(extra)])
    try:
        (tmp_path / "results").mkdir()
        r = builder.build(tmp_path / "results", tmp_path / "out")
        assert "An extra section" in [s.title for s in r.sections]
        assert "An extra section" in r.html.read_text()
    finally:
        sys.modules.pop("reports.sections.zz_extra", None)


def test_failed_render_leaves_nothing(tmp_path, monkeypatch):
    from reports import pdf

    def boom(*a, **k):
        raise RuntimeError("disk full")

    monkeypatch.setattr(pdf, "render", boom)
    (tmp_path / "results").mkdir()
    with pytest.raises(RuntimeError):
        builder.build(tmp_path / "results", tmp_path / "out")
    assert list((tmp_path / "out").iterdir()) == []


@pytest.mark.parametrize("argv,needle", [
    (["build", "--results", "/nonexistent/dir", "--out", "x"], "does not exist"),
    (["build", "--out", "x"], "--results"),
    (["frobnicate"], "invalid choice"),
])
def test_cli_bad_arguments_one_line_exit_2(argv, needle, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert cli(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and needle in err
    assert not (tmp_path / "x").exists()


# --- the report as a reader sees it --------------------------------------------------------------
RAW_LATEX = re.compile(r"\\(frac|left|right|log|alpha|beta|sqrt|varepsilon|mathcal|tilde)\b|\$")
SPLIT_NUMBER = re.compile(r"^\d{1,3}(,\d{3})*,\d{0,2}$|^,?\d{1,2}$")
HASHED_FILE = re.compile(r"\d{3}_[0-9a-f]{16}")


def test_pdf_pages_rendered_to_images_read_cleanly(built):
    """Every PDF page rasterised (pymupdf): no raw LaTeX, no error text, no hashed file name, no number
    split over two lines of a table cell, and nothing drawn right of the text width (a table or an
    image wider than the page). Catches the issue-17 report: Theorem 10's m as LaTeX + "(not rendered:
    ValueError", "4,000,00|0" in a cell, tables running over the margin."""
    import pymupdf  # [dev] extra
    doc = pymupdf.open(str(built.pdf))
    margin_pt = 15 / 25.4 * 72
    for page in doc:
        text = page.get_text()
        assert not RAW_LATEX.search(text), (page.number, RAW_LATEX.search(text).group(0))
        for bad in ("not rendered", "Traceback", "ParseException", "ParseFatal", "section plugin"):
            assert bad not in text, (page.number, bad)
        assert not HASHED_FILE.search(text), page.number
        lines = [ln.strip() for ln in text.splitlines()]
        for a, b in zip(lines, lines[1:]):
            # a number continued on the next line: "4,000,00" then "0"
            assert not (re.fullmatch(r"\d{1,3}(,\d{3})*,\d{1,2}", a) and re.fullmatch(r"\d{1,2}", b)), (a, b)
        pix = page.get_pixmap(dpi=50)
        right = int(pix.width * (page.rect.width - margin_pt + 2) / page.rect.width)
        strip = [pix.pixel(x, y) for x in range(right, pix.width) for y in range(0, pix.height, 2)]
        assert all(min(c) > 235 for c in strip), f"page {page.number + 1}: something drawn in the right margin"


def test_html_tables_scroll_formulas_are_images_and_nothing_is_raw(built):
    """HTML structure: every table inside a scrolling wrapper, every formula an image at its print
    size, no raw LaTeX or error text in what a reader sees, papers by key not by file name."""
    html = built.html.read_text()
    visible = re.sub(r'(alt|src|style)="[^"]*"', "", html)
    visible = re.sub(r"<style>.*?</style>", "", visible, flags=re.S)
    visible = re.sub(r"<[^>]+>", " ", visible)
    assert not RAW_LATEX.search(visible), RAW_LATEX.search(visible).group(0)
    assert "not rendered" not in visible and not HASHED_FILE.search(visible)
    formulas = re.findall(r'<div class="formula">\s*(<[a-z]+)', html)
    assert formulas and all(f == "<img" for f in formulas)


def test_html_tables_fit_the_page_and_align_text_left(built):
    """No table wider than the page: every table is laid out fixed at the page's width with its columns'
    shares summing to 100%, cells wrap inside their column, text is left-aligned and numbers right-aligned.
    Catches the 22 tables that overflowed the page (hiding the verdict column of "Runs found") and the
    right-aligned text cells."""
    html = built.html.read_text()
    css = re.search(r"<style>(.*?)</style>", html, re.S).group(1)
    assert re.search(r"table \{[^}]*width: 100%;[^}]*table-layout: fixed;", css)
    assert re.search(r"th, td \{[^}]*text-align: left;[^}]*overflow-wrap: anywhere;", css)
    assert re.search(r"td\.num \{[^}]*text-align: right;", css)
    # cells wrap, except in the first screen's two halves (sized by their content, one line a row)
    assert re.sub(r"\.side-by-side td, \.side-by-side th \{ white-space: nowrap; \}", "", css).count("nowrap") == 0
    tables = re.findall(r'<div class="table-wrap"><table class="(fit|wide|widest)(?: dense)?">(.*?)</table>', html,
                        re.S)
    assert tables and len(tables) == html.count("<table")
    for cls, body in tables:
        if "<colgroup>" not in body:  # the first screen's table, in two halves sized by their content
            assert cls == "wide" and '<div class="side-by-side">' in html
            continue
        widths = [float(w) for w in re.findall(r'<col style="width: ([0-9.]+)%">', body)]
        heads = len(re.findall(r"<th>", body.split("</thead>")[0]))
        assert len(widths) == heads and abs(sum(widths) - 100) < 0.5 and min(widths) > 0
        for cls, text in re.findall(r'<td class="(num|text)">([^<]*)</td>', body):
            if cls == "num":
                assert re.fullmatch(r"-?[0-9][0-9,.e+-]*|nan|inf|-inf", text), text


def test_pdf_has_no_cut_plot_no_blank_page_and_a_linked_contents(built):
    """Every page holds something besides its footer; every image lies whole inside the page's margins (never
    cut at the bottom or run off the side); the contents on page 1 link to each section's first page.
    Catches plots that ran off the page, a caption alone on a page, blank pages, and unlinked contents."""
    import pymupdf  # [dev] extra

    doc = pymupdf.open(str(built.pdf))
    margin = 15 / 25.4 * 72 - 1
    for page in doc:
        body = [ln for ln in page.get_text().splitlines() if ln.strip() and " - page " not in ln]
        images = page.get_image_info()
        assert len(body) >= 2 or images, f"page {page.number + 1} is (nearly) blank: {body}"
        for im in images:
            x0, y0, x1, y1 = im["bbox"]
            assert x0 >= margin and y0 >= margin, (page.number + 1, im["bbox"])
            assert x1 <= page.rect.width - margin and y1 <= page.rect.height - margin, (page.number + 1, im["bbox"])
    links = [ln for ln in doc[0].get_links() if ln.get("kind") == pymupdf.LINK_GOTO]
    assert len(links) == len(built.sections)
    for link, section in zip(links, built.sections):
        assert section.title.split(":")[0][:20] in " ".join(doc[link["page"]].get_text().split())


def test_no_false_violated_and_no_reversed_guarantee(built):
    """On a fresh clone (no paper texts) the proof-check section shows no `violated` badge; no guarantee is
    printed as a dataclass with delta first."""
    html = built.html.read_text()
    proofs = html.split('<section id="proof-checks">')[1].split("</section>")[0]
    assert 'class="badge violated"' not in proofs and "not checkable here" in proofs
    assert "ApproxDP(" not in html and "PureDP(" not in html


def test_every_validated_result_with_runs_has_a_plot(built):
    """A report with runs has at least one plot per validated result (the success-rate plot)."""
    titles = {s.title: s for s in built.sections}
    rates = titles["Success rates at a glance"]
    captions = [b.caption for b in rates.blocks if type(b).__name__ == "Figure"]
    assert any(c.startswith("bcmnuw20:thm10:") for c in captions)


def test_thm10_table_shows_every_trivial_release(built):
    """The thm10 run (baselines on, the default) shows a column for each of its five trivial releases, each named
    and described in the caption. Catches the table that showed public-only and private-only alone while the
    summary judged five."""
    from html import escape

    from reports.sections import thm10 as section

    html = built.html.read_text()
    for label, what in section.TRIVIAL_COLUMNS.values():
        assert escape(f"{label} [CI]") in html and escape(what).replace("&#x27;", "&#39;") in html, label
    assert "Not in this run" not in html


ABSOLUTE_PATH = re.compile(r"(?:^|[\s(\[\"'=])(/[\w.+~-]+/[\w.+~-]+)", re.M)
MARKDOWN = re.compile(r"\*\*\S[^*\n]*?\S\*\*|`|^#{1,6} ", re.M)


def _pdf_pages(path):
    import pymupdf  # [dev] extra

    return list(pymupdf.open(str(path)))


def test_built_report_has_no_machine_path_no_markdown_and_formulas_fit(built):
    """What a reader sees (HTML text, alt texts and PDF text): no absolute path of this machine (the results
    directory, the papers' directory), no Markdown syntax (bold marks, code quotes, heading marks), formulas with
    Greek letters and exact integers, none wider than the 1,100 px column or the PDF's text width. Catches the
    pasted RESULTS.md prose, the proof-check section's path to the papers, the 2,278 px Theorem 13 formula and
    `mathrm(kappa)` / `-1.0` in it."""
    html = built.html.read_text()
    visible = re.sub(r'(src|style)="[^"]*"', "", html)
    visible = re.sub(r"<style>.*?</style>", "", visible, flags=re.S)
    visible = re.sub(r"<[^>]+>", " ", visible)
    pdf_text = "\n".join(p.get_text() for p in _pdf_pages(built.pdf))
    for where, text in (("html", visible), ("pdf", pdf_text)):
        assert not ABSOLUTE_PATH.search(text), (where, ABSOLUTE_PATH.search(text).group(0))
        assert not MARKDOWN.search(text), (where, text[MARKDOWN.search(text).start() - 40:][:80])
    alts = re.findall(r'<div class="formula">\s*<img [^>]*alt="([^"]*)"', html)
    assert alts and not [a for a in alts if re.search(r"\bkappa\b|\bzeta\b|mathrm|(?<![\d.])\d+\.0\b", a)]
    widths = [int(w) for w in re.findall(r'<div class="formula">\s*<img [^>]*style="width: (\d+)px"', html)]
    assert widths and max(widths) <= 1100 - 32
    for page in _pdf_pages(built.pdf):
        for im in page.get_image_info():
            assert im["bbox"][2] - im["bbox"][0] <= page.rect.width - 2 * (15 / 25.4 * 72) + 1


def test_no_pdf_page_is_less_than_a_third_full_except_a_sections_last(built):
    """The share of each page's text height that is filled (text, images and table rules, footer excluded),
    measured with pymupdf: at least a third, except on the last page and on a page whose section ends there (the
    next page opens with a section's numbered title). Catches sections and short tables that each took a fresh
    page and left most of the previous one empty."""
    pages = _pdf_pages(built.pdf)
    margin = 15 / 25.4 * 72
    for k, page in enumerate(pages[:-1]):
        bottom = page.rect.height - margin
        ys = [b[3] for b in page.get_text("blocks") if b[1] < bottom]
        ys += [im["bbox"][3] for im in page.get_image_info()]
        ys += [d["rect"].y1 for d in page.get_drawings() if d["rect"].y1 < bottom]
        fill = (max(ys) - margin) / (bottom - margin)
        nxt = next((b[4] for b in pages[k + 1].get_text("blocks")), "")
        assert fill >= 1 / 3 or re.match(r"\d+\.\s", nxt), f"page {k + 1} is {fill:.0%} full"


def _render(tmp_path, sections):
    from reports import pdf

    out = tmp_path / "r.pdf"
    pdf.render(sections, {"title": "t", "results": "runs", "runs": 0, "audits": 0}, out)
    return _pdf_pages(out)


def test_pdf_shrinks_an_image_rather_than_leave_a_page_near_empty(tmp_path):
    """A figure taller than what is left of a page less than a third full is set smaller on that page (moving it
    would leave the page near-empty). Catches the renderer that moved every figure that did not fit (checked to
    fail with that rule removed)."""
    from PIL import Image

    from reports.model import Figure, Paragraph, Section

    png = tmp_path / "tall.png"
    Image.new("RGB", (900, 1250), "grey").save(png)
    pages = _render(tmp_path, [Section("a", "A", [Paragraph("words " * 150), Figure(png, "a tall figure")])])
    fig_page = next(p for p in pages if p.get_image_info())
    assert [b for b in fig_page.get_text("blocks") if "words" in b[4]], "the figure left the text's page near-empty"


def test_pdf_never_splits_a_short_table_across_pages(tmp_path):
    """A 3-row table is set on one page wherever the page ends (the text before it grows word by word through a
    page's end). Catches fpdf splitting a short table 2 + 1 (checked to fail with the keep-together rule removed)."""
    from reports.model import Paragraph, Section, Table

    table = Table(("key", "value"), (("row-one", 1), ("row-two", 2), ("row-three", 3)))
    for words in range(700, 800, 3):
        pages = _render(tmp_path, [Section("b", "B", [Paragraph("words " * words), table])])
        holding = {k for k, p in enumerate(pages) for row in ("row-one", "row-two", "row-three") if row in p.get_text()}
        assert len(holding) == 1, (words, holding)


def test_report_text_is_plain_and_names_no_path_of_this_machine():
    """reports.builder.plain: the results directory by its name, any other absolute path by its last part, no
    Markdown marks; fractions and options untouched."""
    from reports.builder import plain

    text = plain("read from /data/x/runs/thm10 and /home/u/papers; `python -m a --out D` **13.9x** 1/n, a:/b",
                 "/data/x/runs")
    assert text == "read from runs/thm10 and papers; python -m a --out D 13.9x 1/n, a:/b"


# What files read back may hold (they are untrusted): a path of the machine they were made on, Markdown, a heading
LEAKS = {"summary": "papers read from /home/alice/papers/bcmnuw20.md\n### Notes\n**13.9x** faster, see `log`",
         "claim": "**bold claim** with `code`", "source": "/home/alice/work/algorithms/pap.py"}


@pytest.fixture(scope="module")
def leaky(results, tmp_path_factory):
    """The real result set copied and edited as a file read back may be: every saved proof-check verdict's claim
    and summary, and every saved audit's source, hold an absolute path of another machine, Markdown emphasis, code
    quotes and a heading line (LEAKS). The report also holds Theorem 13's explicit formula (2,278 px unbroken) and
    short sections (the audits, the proof checks)."""
    import shutil

    root = tmp_path_factory.mktemp("leaky") / "runs"
    shutil.copytree(results, root)
    saved = json.loads((root / "proofs_checks.json").read_text())
    for v in saved:
        v["claim"] = f"{LEAKS['claim']}: {v.get('claim')}"
        v["verdict"] = {**(v.get("verdict") or {}), "summary": LEAKS["summary"]}
    (root / "proofs_checks.json").write_text(json.dumps(saved))
    for f in (root / "audits").glob("*.json"):
        a = json.loads(f.read_text())
        a["source"] = LEAKS["source"]
        f.write_text(json.dumps(a))
    return builder.build(root, tmp_path_factory.mktemp("leaky-report"))


def _visible_html(html: str) -> str:
    visible = re.sub(r'(src|style)="[^"]*"', "", html)
    visible = re.sub(r"<style>.*?</style>", "", visible, flags=re.S)
    return re.sub(r"<[^>]+>", "\n", visible)


def test_records_holding_paths_and_markdown_are_shown_plain(leaky):
    """The leaky result set's report, HTML (text and alt texts) and PDF text: the leaked words are there (so the
    records were shown), with no absolute path and no Markdown mark (bold, code quote, heading line). Fails with
    the builder's plain-text pass removed (build_sections' ``s.blocks = [_cited(b, results.root) ...]`` made
    ``s.blocks = list(s.blocks)``: "/home/alice/papers/bcmnuw20.md" in the proof-check table, checked once)."""
    html = _visible_html(leaky.html.read_text())
    pdf_text = "\n".join(p.get_text() for p in _pdf_pages(leaky.pdf))
    for where, text in (("html", html), ("pdf", pdf_text)):
        assert "/home/alice" not in text and not ABSOLUTE_PATH.search(text), (where, ABSOLUTE_PATH.search(text))
        assert not MARKDOWN.search(text) and not re.search(r"(^|\s)#{1,6}\s", text), where
        flat = " ".join(text.split())
        for word in ("bcmnuw20.md", "13.9x faster", "bold claim with code", "pap.py"):
            assert word in flat, (where, word)


def test_formulas_fit_the_column_at_their_print_size(leaky):
    """Every formula image is at most the HTML column (1,100 px less padding) at its print size, and in the PDF is
    drawn at its print size (150 dpi), never shrunk to fit. Fails with formula breaking off (reports.formula's
    MAX_WIDTH_PX set to 10,000: Theorem 13's explicit n is 2,278 px wide in HTML and drawn at 0.3x in the PDF,
    checked once)."""
    import base64
    import io

    from PIL import Image

    html = leaky.html.read_text()
    widths = [int(w) for w in re.findall(r'<div class="formula">\s*<img [^>]*style="width: (\d+)px"', html)]
    assert len(widths) >= 10 and max(widths) <= 1100 - 32
    sizes = set()  # the formula PNGs' pixel sizes, read from the page that embeds them
    for data in re.findall(r'<div class="formula">\s*<img [^>]*src="data:image/png;base64,([^"]+)"', html):
        with Image.open(io.BytesIO(base64.b64decode(data))) as im:
            sizes.add(im.size)
    drawn = [(im["width"], im["bbox"][2] - im["bbox"][0]) for page in _pdf_pages(leaky.pdf)
             for im in page.get_image_info() if (im["width"], im["height"]) in sizes]
    assert drawn
    for px, pt in drawn:
        assert pt >= 0.9 * px * 72 / 150, f"a {px} px formula drawn {pt:.0f} pt wide"


def _fills(pages):
    margin = 15 / 25.4 * 72
    out = []
    for page in pages:
        bottom = page.rect.height - margin
        ys = [b[3] for b in page.get_text("blocks") if b[1] < bottom]
        ys += [im["bbox"][3] for im in page.get_image_info()]
        ys += [d["rect"].y1 for d in page.get_drawings() if d["rect"].y1 < bottom]
        out.append((max(ys) - margin) / (bottom - margin))
    return out


def test_a_short_section_shares_its_page_and_no_page_is_under_a_third(leaky):
    """The leaky report's PDF (short audit and proof-check sections): every page but the last is at least a third
    full, as the renderer keeps a section on the page the previous one ended on while a third of it is left, so a
    section's last page is short only at the report's end. Fails with every section on a fresh page (pdf.render's
    ``if _filled(doc) > 1 - MIN_FILL`` made ``if True``: the audits section's page is under a third full, checked
    once)."""
    pages = _pdf_pages(leaky.pdf)
    fills = _fills(pages)
    short = [k + 1 for k, f in enumerate(fills[:-1]) if f < 1 / 3]
    assert not short, f"pages under a third full: {short} ({[f'{fills[k - 1]:.0%}' for k in short]})"
    starts = [sum(1 for b in p.get_text("blocks") if re.match(r"\d+\.\s", b[4])) for p in pages[1:]]
    assert max(starts) >= 2, "no page holds the end of one section and the start of the next"


def test_first_screen_in_chromium_answers_every_numbered_result(built, tmp_path):
    """benchmarks/report_first_screen.py: the built report in headless Chromium at 1,280 x 800: every row of the
    first section's table (one per numbered result) lies on the first screen, no part of it wider than its place,
    nothing right of the page's column, and Theorem 10's row names its verdict and run. Skipped where no Chromium
    is found (the project installs none; PyPI's playwright cannot fetch its browser here). Fails on the report
    before the first screen was laid out for it (the table folded under a summary, after a 3-column contents list:
    0 of 46 rows shown, checked once)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("report_first_screen",
                                                  builder.Path(__file__).resolve().parents[2] / "benchmarks"
                                                  / "report_first_screen.py")
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    browser, where = script.find_browser()
    if browser is None:
        pytest.skip(where)
    found = script.probe(built.html, browser, 1280, 800, png=tmp_path / "first.png")
    assert found["rows"] >= 46 and not script.verdict(found), (script.verdict(found), found)
    assert found["thm10"][2] in ("holds", "violated", "inconclusive", "below-bound") and found["thm10"][4] != "-"
    assert found["png"] and (tmp_path / "first.png").stat().st_size > 10_000
