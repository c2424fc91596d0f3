"""The HTML notes in a real browser: every page renders its math with zero KaTeX errors and
loads every image, and no page asks for anything outside the site.

Needs Debian's chromium and KaTeX's dist folder on NODE_PATH (CI installs both); skipped, naming
what is missing, elsewhere.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from proofs.cli.files import write_files
from proofs.cli.html import katex_dist
from proofs.cli.usage import UsageError
from proofs.render import notes
from proofs.render.options import RenderOptions

# Every test here renders the site or loads it in Chromium: with the slow checks (CI runs them).
pytestmark = pytest.mark.slow

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)


def find_katex() -> Path | None:
    try:
        return katex_dist(None)
    except UsageError:
        return None


needs_browser = pytest.mark.skipif(
    shutil.which("chromium") is None or find_katex() is None,
    reason="chromium is not on PATH, or KaTeX is not on NODE_PATH (npm install katex)",
)


@pytest.fixture(scope="module")
def site(checked_notes, lesson_tables, tmp_path_factory) -> Path:
    dist = find_katex()
    if dist is None:
        pytest.skip("KaTeX is not on NODE_PATH (npm install katex)")
    out = tmp_path_factory.mktemp("site")
    write_files(out, notes.html_files(checked_notes, lesson_tables, RenderOptions(katex=dist)))
    return out


def chromium(tmp_path: Path, *args: str) -> str:
    profile = tmp_path / "profile"
    run = subprocess.run(
        [
            "chromium",
            *CHROMIUM_FLAGS,
            f"--user-data-dir={profile}",
            "--virtual-time-budget=10000",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    shutil.rmtree(profile, ignore_errors=True)
    return run.stdout


def test_pages_reach_nothing_outside_the_site(site):
    for page in site.glob("*.html"):
        text = page.read_text()
        for ref in re.findall(r'(?:src|href)="([^"#]+)', text):
            if ref.startswith("https://"):
                assert page.name.endswith("-references.html"), (page.name, ref)  # cited, not loaded
            else:
                assert (site / ref).is_file(), (page.name, ref)
        assert '<script src="http' not in text and '<link rel="stylesheet" href="http' not in text


@pytest.mark.browser
@needs_browser
def test_a_page_renders_its_math_and_images_in_chromium(site, tmp_path):
    dom = chromium(tmp_path, "--dump-dom", (site / "07-rotation.html").as_uri())
    assert 'data-math-errors="0"' in dom and 'data-broken-images="0"' in dom
    assert dom.count('class="katex"') > 20


@pytest.mark.slow
@pytest.mark.browser
@needs_browser
def test_every_page_renders_its_math_and_images_in_chromium(site, tmp_path):
    pages = sorted(site.glob("*.html"))
    assert len(pages) >= 10
    rendered = 0
    for page in pages:
        dom = chromium(tmp_path, "--dump-dom", page.as_uri())
        assert 'data-math-errors="0"' in dom, page.name
        assert 'data-broken-images="0"' in dom, page.name
        rendered += dom.count('class="katex"')
    assert rendered > 250


@pytest.mark.slow
@pytest.mark.browser
@needs_browser
def test_at_1200_pixels_nothing_overflows_and_math_matches_the_text(site, tmp_path):
    # The pages with the widest chains and tables (a browser start per page is slow).
    wide = ("-ramp.html", "-layouts.html", "-rope.html", "-reference.html", "-appendix.html")
    for page in sorted(p for p in site.glob("*.html") if p.name.endswith(wide)):
        dom = chromium(tmp_path, "--window-size=1200,2000", "--dump-dom", page.as_uri())
        assert 'data-overflowing="0"' in dom, page.name
        scale = re.search(r'data-math-scale="([0-9.]*)"', dom)
        if scale and scale[1]:
            assert 0.95 <= float(scale[1]) <= 1.12, (page.name, scale[1])


def test_tables_and_captions_hold_no_raw_ascii_math(site):
    for page in site.glob("*.html"):
        if "appendix" in page.name:
            continue
        text = re.sub(r'<span class="math">.*?</span>|<code>.*?</code>', "", page.read_text())
        for part in re.findall(
            r"<table.*?</table>|<p class=\"caption\">.*?</p>|<figcaption>.*?</figcaption>",
            text,
            flags=re.S,
        ):
            raw = r"(?<![A-Za-z])(?:[A-Za-zω]_(?:\(|[a-z0-9]\b)|d_model)|\de-\d"
            assert not re.search(raw, part), (page.name, part[:200])


def test_the_student_site_folds_its_answers_and_has_no_author_notes(checked_notes, lesson_tables):
    dist = find_katex()
    if dist is None:
        pytest.skip("KaTeX is not on NODE_PATH (npm install katex)")
    files = notes.html_files(
        checked_notes, lesson_tables, RenderOptions(brief=True, edition="student", katex=dist)
    )
    pages = {n: d.decode() for n, d in files.items() if n.endswith(".html")}
    assert not any("author" in n for n in pages)
    assert "Notes for the course author" not in "".join(pages.values())
    quiz = next(text for n, text in pages.items() if n.endswith("-quiz.html"))
    assert "<details><summary>Answers</summary>" in quiz
    assert quiz.index("<details>") > quiz.index("<ol>")


@pytest.mark.browser
@needs_browser
def test_a_page_screenshot_is_taken(site, tmp_path):
    shot = tmp_path / "rotation.png"
    chromium(
        tmp_path,
        f"--screenshot={shot}",
        "--window-size=1000,1600",
        (site / "07-rotation.html").as_uri(),
    )
    assert shot.read_bytes().startswith(b"\x89PNG") and shot.stat().st_size > 20000
