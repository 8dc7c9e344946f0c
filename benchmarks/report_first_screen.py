"""The report's first screen in Chromium: a built ``report.html`` opened in headless Chromium at 1,280 x 800 CSS
pixels, its first screen saved as a PNG, and what lies on that screen measured in the page itself, so that the
claim "the first screen answers every numbered result" is checked by a browser rather than assumed.

    python benchmarks/report_first_screen.py REPORT.html [--png FILE] [--width 1280] [--height 800] [--json]

The browser is the first of: ``$CHROMIUM`` (a path), ``chromium``, ``chromium-browser``, ``google-chrome``,
``chrome-headless-shell`` on PATH, or the Chromium that PyPI's ``playwright`` installed (``python -m playwright
install chromium``). None of these is a dependency of the project; without one the script says so and exits 3
(tests/reports/test_first_screen.py is skipped then, naming the reason).

What is measured (a script added to a copy of the page runs after layout and writes its findings into the DOM,
which ``--dump-dom`` prints): the first table of the section "Every numbered result, answered" (its rows, the rows
whose bottom edge lies within the first screen, and the table's columns), the row of BCMNUW20 Theorem 10 (its
verdict, informative and deciding-run cells), the widest element beside the page's width (a horizontal scroll bar
would hide the table's right columns), and the page's title. Exit 0 when every row lies on the first screen and
nothing is wider than the window, 1 otherwise (the findings printed either way).
"""
from __future__ import annotations

import argparse
import html as _html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

#: what the page measures about itself once laid out; the findings go into <pre id="first-screen-probe">
PROBE = r"""
<script>
window.addEventListener("load", function () {
  var H = __HEIGHT__;  // the screen's height: the page's layout does not depend on the window's
  var out = {width: window.innerWidth, height: H, inner_height: window.innerHeight};
  var sec = document.getElementById("answers");
  var table = sec ? sec.querySelector("table") : null;
  out.found = !!table;
  if (table) {
    var tables = Array.prototype.slice.call(sec.querySelectorAll(".side-by-side table"));
    if (!tables.length) tables = [table];  // the first table, or its halves set side by side
    var rows = [];
    tables.forEach(function (t) { rows = rows.concat(Array.prototype.slice.call(t.querySelectorAll("tbody tr"))); });
    out.rows = rows.length;
    out.on_first_screen = rows.filter(function (r) {
      var b = r.getBoundingClientRect();  // shown (not in a closed <details>) and on the screen
      return (!r.checkVisibility || r.checkVisibility()) && b.height > 0 && b.bottom <= H && b.top >= 0; }).length;
    out.columns = Array.prototype.map.call(table.querySelectorAll("thead th"), function (c) { return c.textContent; });
    out.table_top = Math.round(table.getBoundingClientRect().top);
    out.overflowing = tables.filter(function (t) {  // a table wider than its place (the halves would overlap)
      return t.getBoundingClientRect().right > t.parentElement.getBoundingClientRect().right + 1; }).length;
    out.row_heights = rows.map(function (r) { return Math.round(r.getBoundingClientRect().height); });
    rows.forEach(function (r) {
      var c = r.querySelectorAll("td");
      if (c.length > 1 && /^B\d+ Thm 10:/.test(c[0].textContent.trim())) {
        out.thm10 = Array.prototype.map.call(c, function (x) { return x.textContent.trim(); });
      }
    });
  }
  var widest = 0;
  document.querySelectorAll("body *").forEach(function (e) {
    widest = Math.max(widest, e.getBoundingClientRect().right); });
  out.widest_right = Math.round(widest);
  var body = document.body.getBoundingClientRect(), style = getComputedStyle(document.body);
  out.column_right = Math.round(body.right - parseFloat(style.paddingRight));
  out.scroll_width = document.documentElement.scrollWidth;
  var pre = document.createElement("pre");
  pre.id = "first-screen-probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def find_browser() -> tuple[str | None, str]:
    """(path of a Chromium, where it was found) or (None, every place looked at)."""
    env = os.environ.get("CHROMIUM")
    if env and Path(env).is_file():
        return env, "$CHROMIUM"
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome-headless-shell"):
        path = shutil.which(name)
        if path:
            return path, f"{name} on PATH"
    try:  # PyPI's playwright, when its own browser was installed
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            path = p.chromium.executable_path
        if path and Path(path).is_file():
            return path, "playwright's Chromium"
    except Exception:
        pass
    return None, ("no Chromium: $CHROMIUM unset, none of chromium, chromium-browser, google-chrome, "
                  "chrome-headless-shell on PATH, and no browser installed by PyPI's playwright")


def _run(browser: str, args: list[str], url: str, timeout: float) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="first-screen-profile-") as profile:
        argv = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                f"--user-data-dir={profile}", "--run-all-compositor-stages-before-draw",
                "--virtual-time-budget=5000", *args, url]
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout)


def probe(report: Path, browser: str, width: int = 1280, height: int = 800, png: Path | None = None,
          timeout: float = 180.0) -> dict:
    """The findings of PROBE for ``report`` at ``width`` x ``height``, and the first screen saved to ``png``."""
    text = report.read_text(encoding="utf-8")
    if "</body>" not in text:
        raise ValueError(f"{report.name} is not a built report (no </body>)")
    with tempfile.TemporaryDirectory(prefix="first-screen-") as work:
        page = Path(work) / "report.html"
        script = PROBE.replace("__HEIGHT__", str(int(height)))
        page.write_text(text.replace("</body>", script + "</body>", 1), encoding="utf-8")
        size = f"--window-size={width},{height}"
        done = _run(browser, [size, "--dump-dom"], page.as_uri(), timeout)
        m = re.search(r'<pre id="first-screen-probe">(.*?)</pre>', done.stdout, re.S)
        if not m:
            raise RuntimeError(f"the browser printed no findings (exit {done.returncode}): "
                               f"{done.stderr.strip().splitlines()[-1:] or ''}")
        found = json.loads(_html.unescape(m.group(1)))
        if png is not None:  # the first screen as a reader sees it (the page as built, without the probe)
            _run(browser, [size, f"--screenshot={png.resolve()}"], report.resolve().as_uri(), timeout)
            found["png"] = str(png) if png.is_file() else None
    return found


def verdict(found: dict) -> list[str]:
    """What is wrong with the first screen (empty when it answers every numbered result)."""
    bad = []
    if not found.get("found"):
        return ["no table in the section 'Every numbered result, answered'"]
    if found["on_first_screen"] < found["rows"]:
        bad.append(f"{found['on_first_screen']} of {found['rows']} result rows on the first "
                   f"{found['width']}x{found['height']} screen (table starts at {found['table_top']} px)")
    if found.get("overflowing"):
        bad.append(f"{found['overflowing']} of the table's parts are wider than their place on the page")
    if found["widest_right"] > found["column_right"] + 1:
        bad.append(f"something reaches {found['widest_right']} px, right of the page's column "
                   f"({found['column_right']} px)")
    if found["scroll_width"] > found["width"]:
        bad.append(f"the page is {found['scroll_width']} px wide in a {found['width']} px window")
    return bad


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0], allow_abbrev=False)
    p.add_argument("report", type=Path, help="a built report.html")
    p.add_argument("--png", type=Path, default=None, help="save the first screen here")
    p.add_argument("--width", type=int, default=1280)
    p.add_argument("--height", type=int, default=800)
    p.add_argument("--json", action="store_true", help="print the findings as JSON")
    ns = p.parse_args(argv)
    if not ns.report.is_file():
        print(f"error: {ns.report} is not a file", file=sys.stderr)
        return 2
    browser, where = find_browser()
    if browser is None:
        print(f"skipped: {where}", file=sys.stderr)
        return 3
    try:
        found = probe(ns.report, browser, ns.width, ns.height, ns.png)
    except (ValueError, RuntimeError, subprocess.TimeoutExpired) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    found["browser"] = where
    bad = verdict(found)
    if ns.json:
        print(json.dumps({**found, "problems": bad}, indent=1))
    else:
        print(f"{found.get('on_first_screen')} of {found.get('rows')} result rows on the first screen "
              f"({found['width']}x{found['height']}, {where}); Theorem 10's row: {found.get('thm10')}")
        for b in bad:
            print(f"problem: {b}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
