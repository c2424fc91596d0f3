"""Layout a reader never notices: both modules' HTML site and MyST site (built by sphinx-build),
measured in headless Chromium at a desktop's 1200 px and a phone's 390 px.

Every display of math and every table is measured against its container (scrollWidth against
clientWidth). At 1200 px everything fits its column. At 390 px a display or table that cannot
fit is shown smaller or scrolls inside its own box, and never makes the page scroll sideways.
At both widths no word is broken inside a table cell ("interl/eave/d").

Headless Chromium will not open a window narrower than 500 px, so each page is measured in an
iframe of the width measured, which is what a phone's viewport is to the page (its media
queries included). All pages of a site load into one measuring page: one browser start per site
and width. Needs Debian's chromium, KaTeX's dist folder on NODE_PATH, and for the MyST sites the
myst extra; each test is skipped, naming what is missing, elsewhere.
"""

from __future__ import annotations

import html
import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from proofs.cli.files import write_files
from proofs.cli.html import katex_dist
from proofs.cli.usage import UsageError
from proofs.render import notes
from proofs.render.myst_project import EXTENSIONS, myst_files
from proofs.render.options import RenderOptions

pytestmark = [pytest.mark.slow, pytest.mark.browser]

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
)
WIDTHS = (1200, 390)
MODULES = (10, 11)
SPHINX_MISSING = [
    name
    for name in ("sphinx", "sphinx_book_theme", *EXTENSIONS)
    if importlib.util.find_spec(name) is None
]

# Runs in each page (a copy of it beside the original): once the fonts are in and the page has
# fitted its math, it measures every display and table and posts the numbers to the parent.
PROBE = """<script>
window.addEventListener("load", () => document.fonts.ready.then(() => setTimeout(() => {
  const view = document.documentElement.clientWidth;
  const box = (el, container) => {
    const style = getComputedStyle(container);
    return {
      text: el.textContent.replace(/\\s+/g, " ").slice(0, 70),
      content: Math.ceil(el === container ? el.scrollWidth : el.getBoundingClientRect().width),
      room: container.clientWidth,
      scrolls: ["auto", "scroll"].includes(style.overflowX),
      right: Math.floor(container.getBoundingClientRect().right),
      // Content pushed out on the left (a reversed flex row) cannot be scrolled to.
      clipped: Math.min(0, ...[...el.querySelectorAll(".katex")].map((k) =>
        Math.floor(k.getBoundingClientRect().left - container.getBoundingClientRect().left))),
      view,
    };
  };
  const displays = [...document.querySelectorAll(".math.display")].map((el) => box(el, el));
  const tables = [...document.querySelectorAll("table")].map((t) => box(t, t.parentElement));
  // A word broken inside a cell has its letters on two lines (a break at "(" or "·" is not).
  const broken = [];
  document.querySelectorAll("td, th").forEach((cell) => {
    const walk = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
    for (let node = walk.nextNode(); node; node = walk.nextNode()) {
      if (node.parentElement.closest(".katex")) continue;
      for (const m of node.data.matchAll(/[\\p{L}\\p{N}]{2,}/gu)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  });
  const page = document.documentElement;
  parent.postMessage({name: location.pathname.split("/").pop(), displays, tables, broken,
    page: [page.scrollWidth, page.clientWidth]}, "*");
}, 200)));
</script>"""

# The listener is set before any frame loads, so a quick page's report is not missed.
FRAME_PAGE = """<!DOCTYPE html><html><head><script>
const reports = [];
window.addEventListener("message", (event) => {{
  reports.push(event.data);
  document.getElementById("layout-report").textContent = JSON.stringify(reports);
}});
</script></head><body style="margin:0"><pre id="layout-report"></pre>
{frames}
</body></html>"""


def find_katex() -> Path | None:
    try:
        return katex_dist(None)
    except UsageError:
        return None


needs_chromium = pytest.mark.skipif(
    shutil.which("chromium") is None,
    reason="chromium is missing (Debian's /usr/bin/chromium; apt-get install chromium)",
)


def measure(pages: list[Path], width: int, scratch: Path, again: bool = True) -> dict[str, dict]:
    """Each page's report (by name) when shown width pixels wide in Chromium; a page that did
    not report in time (a loaded machine) is measured once more on its own."""
    frames = []
    for page in pages:
        probe = page.with_name(f"_probe_{page.name}")
        probe.write_text(
            page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"),
            encoding="utf-8",
        )
        frames.append(f'<iframe src="{probe.name}" width="{width}" height="1500"></iframe>')
    frame_page = pages[0].with_name(f"_layout_{width}.html")
    frame_page.write_text(FRAME_PAGE.format(frames="\n".join(frames)), encoding="utf-8")
    profile = scratch / f"profile-{width}"
    run = subprocess.run(
        [
            "chromium",
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            f"--window-size={width + 40},1600",
            "--virtual-time-budget=60000",
            "--dump-dom",
            frame_page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    shutil.rmtree(profile, ignore_errors=True)
    found = re.search(r'<pre id="layout-report"[^>]*>(.*?)</pre>', run.stdout, re.S)
    assert found, run.stderr[-2000:]
    reports = {r["name"][len("_probe_") :]: r for r in json.loads(html.unescape(found[1]) or "[]")}
    missing = [p for p in pages if p.name not in reports]
    if missing and again:
        reports.update(measure(missing, width, scratch, again=False))
    assert sorted(reports) == sorted(p.name for p in pages), "a page did not report"
    return reports


def html_site(checked, tables, module: int, root: Path) -> list[Path]:
    dist = find_katex()
    if dist is None:
        pytest.skip("KaTeX is missing (npm install --prefix DIR katex; NODE_PATH=DIR/node_modules)")
    options = RenderOptions(katex=dist, module=module)
    write_files(root, notes.html_files(checked, tables, options))
    return sorted(root.glob("[0-9][0-9]-*.html"))


def myst_site(checked, tables, module: int, root: Path) -> list[Path]:
    if SPHINX_MISSING:
        pytest.skip(f"the myst extra is missing ({', '.join(SPHINX_MISSING)})")
    dist = find_katex()
    if dist is None:
        pytest.skip("KaTeX is missing (npm install --prefix DIR katex; NODE_PATH=DIR/node_modules)")
    write_files(root, myst_files(checked, tables, RenderOptions(katex=dist, module=module)))
    out = root / "_build" / "html"
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", ".", str(out)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    return sorted(out.glob("[0-9][0-9]-*.html"))


@pytest.fixture(scope="module")
def sites(checked_notes, lesson_tables, tmp_path_factory) -> dict[str, list[Path]]:
    """The pages of each site: 'html 10', 'myst 10', 'html 11', 'myst 11'."""
    root = tmp_path_factory.mktemp("layout")
    out = {}
    for module in MODULES:
        out[f"html {module}"] = html_site(
            checked_notes, lesson_tables, module, root / f"html{module}"
        )
        out[f"myst {module}"] = myst_site(
            checked_notes, lesson_tables, module, root / f"myst{module}"
        )
    return out


def overflowing(report: dict, width: int) -> list[str]:
    """What in a page's report is wider than it may be at width: at 1200 px anything wider than
    its container; at 390 px anything wider than its container that does not scroll in its own
    box, or whose box reaches past the page."""
    out = []
    for kind in ("displays", "tables"):
        for box in report[kind]:
            wide = box["content"] > box["room"] + 1
            if width >= 1200 and wide:
                out.append(f"{kind[:-1]} {box['content']} px in {box['room']} px: {box['text']}")
            elif wide and not box["scrolls"]:
                out.append(f"{kind[:-1]} overflows its {box['room']} px: {box['text']}")
            elif box["clipped"] < -1:
                out.append(f"{kind[:-1]} clipped {-box['clipped']} px on the left: {box['text']}")
            elif box["right"] > box["view"] + 1:
                out.append(f"{kind[:-1]} ends past the page at {box['right']} px: {box['text']}")
    scroll, client = report["page"]
    if scroll > client + 1:
        out.append(f"the page scrolls sideways ({scroll} px in {client} px)")
    return out


@needs_chromium
@pytest.mark.parametrize("site", ["html 10", "myst 10", "html 11", "myst 11"])
def test_no_math_or_table_is_wider_than_its_container(sites, site, tmp_path):
    pages = sites[site]
    assert len(pages) >= 6
    for width in WIDTHS:
        reports = measure(pages, width, tmp_path)
        assert sum(len(r["displays"]) for r in reports.values()) > 20
        assert sum(len(r["tables"]) for r in reports.values()) >= 1
        problems = {name: p for name, r in reports.items() if (p := overflowing(r, width))}
        assert not problems, (site, width, problems)
        broken = {name: r["broken"] for name, r in reports.items() if r["broken"]}
        assert not broken, (site, width, "words broken inside table cells", broken)


def test_the_rules_name_what_overflows():
    wide = {"text": "x", "content": 700, "room": 500, "scrolls": True, "right": 520, "view": 600}
    wide["clipped"] = 0
    fits = {**wide, "content": 480}
    report = {"displays": [wide], "tables": [fits], "page": [600, 600]}
    assert overflowing(report, 1200) == ["display 700 px in 500 px: x"]
    assert overflowing(report, 390) == []  # it scrolls inside its own box on a phone
    assert overflowing({**report, "displays": [{**wide, "scrolls": False}]}, 390)
    clipped = {**wide, "content": 480, "clipped": -40}
    assert overflowing({**report, "displays": [clipped]}, 390) == [
        "display clipped 40 px on the left: x"
    ]
    assert overflowing({**report, "page": [700, 600]}, 390) == [
        "the page scrolls sideways (700 px in 600 px)"
    ]
