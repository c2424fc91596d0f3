"""Module 11's student edition compiles to at most 24 pages with no overfull box, every
reference resolved (latexmk and pdfinfo needed; skipped with that reason where missing)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from proofs.cli.files import write_files
from proofs.render.notes import latex_files
from proofs.render.options import RenderOptions

MAX_PAGES = 24


@pytest.mark.slow
@pytest.mark.latex
@pytest.mark.skipif(
    shutil.which("latexmk") is None or shutil.which("pdfinfo") is None,
    reason="latexmk or pdfinfo is not on PATH (no TeX or poppler-utils installed)",
)
def test_the_student_edition_fits_24_pages_cleanly(checked_notes, lesson_tables, tmp_path):
    options = RenderOptions(edition="student", module=11)
    write_files(tmp_path, latex_files(checked_notes, lesson_tables, options))
    run = subprocess.run(
        ["latexmk", "-pdf", "-halt-on-error", "-interaction=nonstopmode", "main.tex"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    log = (tmp_path / "main.log").read_text(errors="replace")
    assert run.returncode == 0, log[-3000:]
    assert "Overfull" not in log
    assert "LaTeX Warning: Reference" not in log
    info = subprocess.run(
        ["pdfinfo", "main.pdf"], cwd=tmp_path, capture_output=True, text=True, check=True
    ).stdout
    pages = int(re.search(r"^Pages:\s+(\d+)", info, flags=re.M).group(1))
    assert pages <= MAX_PAGES, pages
