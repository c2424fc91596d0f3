"""The MyST project built as Sphinx builds it for a course: `sphinx-build -W` with no warning,
a site that loads nothing from the network, and pages that render every formula in Chromium.

Needs the myst extra (Sphinx and its extensions) and KaTeX's dist folder on NODE_PATH; the
browser tests also Debian's chromium. Each test is skipped, naming what is missing, elsewhere.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from proofs.cli.files import write_files
from proofs.cli.html import katex_dist
from proofs.cli.usage import UsageError
from proofs.render.myst_project import EXTENSIONS, myst_files
from proofs.render.options import RenderOptions

SPHINX_PACKAGES = ("sphinx", "sphinx_book_theme", *EXTENSIONS)
MISSING = [name for name in SPHINX_PACKAGES if importlib.util.find_spec(name) is None]

needs_sphinx = pytest.mark.skipif(
    bool(MISSING), reason=f"the myst extra is not installed (missing: {', '.join(MISSING)})"
)
needs_browser = pytest.mark.skipif(
    shutil.which("chromium") is None, reason="chromium is not on PATH"
)


# As tests/render/test_notes_html.py runs it: headless, and kept off the network.
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


def chromium(tmp_path: Path, *args: str) -> str:
    """What headless Chromium prints for args (the DOM, with --dump-dom)."""
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


def build(source: Path) -> tuple[Path, str]:
    """sphinx-build -W over source; the HTML folder and what Sphinx printed on stderr."""
    out = source / "_build" / "html"
    run = subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html", ".", str(out)],
        cwd=source,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "Warning" not in run.stderr, run.stderr  # nor a Python warning from an extension
    return out, run.stderr


def project(checked, tables, root: Path, **options) -> Path:
    dist = find_katex()
    if dist is None:
        pytest.skip("KaTeX is not on NODE_PATH (npm install katex)")
    write_files(root, myst_files(checked, tables, RenderOptions(katex=dist, **options)))
    return root


@pytest.fixture(scope="module")
def student_site(checked_notes, lesson_tables, tmp_path_factory) -> tuple[Path, str]:
    if MISSING:
        pytest.skip(f"the myst extra is not installed (missing: {', '.join(MISSING)})")
    root = project(checked_notes, lesson_tables, tmp_path_factory.mktemp("book"), edition="student")
    return build(root)


@pytest.mark.slow
@pytest.mark.sphinx
@needs_sphinx
def test_sphinx_builds_the_student_project_with_no_warning(student_site):
    html, stderr = student_site
    assert "WARNING" not in stderr and "ERROR" not in stderr
    pages = sorted(p.name for p in html.glob("[0-9][0-9]-*.html"))
    # The student edition ends with the references: the appendix of checks is the author's.
    assert pages[0] == "01-introduction.html" and pages[-1].endswith("references.html")
    assert not [p for p in pages if "author_notes" in p]
    index = (html / "index.html").read_text(encoding="utf-8")
    assert "Course module 10: The sinusoidal positional encoding" in index
    assert "By pe-proofs" not in index


@pytest.mark.slow
@pytest.mark.sphinx
@needs_sphinx
def test_sphinx_builds_module_11_offline_with_katex_under_static(
    checked_notes, lesson_tables, tmp_path
):
    if MISSING:
        pytest.skip(f"the myst extra is not installed (missing: {', '.join(MISSING)})")
    root = project(checked_notes, lesson_tables, tmp_path / "book", module=11)
    assert (root / "_static" / "katex.min.js").is_file()
    assert not [p.name for p in root.glob("*") if p.suffix in (".js", ".css", ".woff2")]
    html, stderr = build(root)
    assert "WARNING" not in stderr and "ERROR" not in stderr
    pages = sorted(p.name for p in html.glob("[0-9][0-9]-*.html"))
    assert pages[0] == "01-introduction.html" and "03-rope.html" in pages and len(pages) >= 6
    assert (html / "_static" / "katex.min.js").is_file()
    for page in html.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.findall(r"<(?:script|link|img)\b[^>]*(?:src|href)=\"https?:", text), page.name
    index = (html / "index.html").read_text(encoding="utf-8")
    assert "Course module 11: Rotary position embeddings" in index


@pytest.mark.slow
@pytest.mark.sphinx
@needs_sphinx
def test_no_page_loads_anything_from_the_network(student_site):
    html, _ = student_site
    for page in html.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        loaded = re.findall(r"<(?:script|link|img)\b[^>]*(?:src|href)=\"(https?:[^\"]*)", text)
        assert not loaded, (page.name, loaded)
        assert "@import" not in text
    for sheet in html.glob("_static/**/*.css"):
        assert not re.search(r"url\(\s*['\"]?https?:", sheet.read_text(encoding="utf-8")), sheet


@pytest.mark.slow
@pytest.mark.sphinx
@needs_sphinx
def test_sphinx_numbers_theorems_and_figures_as_the_lesson_does(student_site):
    html, _ = student_site
    rotation = (html / "07-rotation.html").read_text(encoding="utf-8")
    assert re.search(r"Theorem 4\s*(</span>)?\s*\(A fixed rotation", rotation)
    assert "Figure 2" in rotation
    (exercises,) = (p.read_text(encoding="utf-8") for p in html.glob("[0-9][0-9]-exercises.html"))
    assert exercises.count('class="solution dropdown admonition"') == 3


@pytest.mark.slow
@pytest.mark.sphinx
@pytest.mark.browser
@needs_sphinx
@needs_browser
def test_a_built_page_renders_its_math_and_figures_in_chromium(student_site, tmp_path):
    html, _ = student_site
    dom = chromium(tmp_path, "--dump-dom", (html / "07-rotation.html").as_uri())
    assert 'data-math-errors="0"' in dom and 'data-broken-images="0"' in dom
    assert dom.count('class="katex"') > 20


@pytest.mark.slow
@pytest.mark.sphinx
@pytest.mark.browser
@needs_sphinx
@needs_browser
@pytest.mark.parametrize(("edition", "brief"), [("author", False), ("student", True)])
def test_every_page_of_every_edition_builds_and_renders(
    checked_notes, lesson_tables, tmp_path, edition, brief
):
    root = project(checked_notes, lesson_tables, tmp_path / "book", edition=edition, brief=brief)
    html, stderr = build(root)
    assert "WARNING" not in stderr
    rendered = 0
    for page in sorted(html.glob("*.html")):
        if page.name in ("genindex.html", "search.html", "prf-prf.html"):
            continue
        dom = chromium(tmp_path, "--dump-dom", page.as_uri())
        assert 'data-math-errors="0"' in dom, page.name
        assert 'data-broken-images="0"' in dom, page.name
        rendered += dom.count('class="katex"')
    assert rendered > 200
