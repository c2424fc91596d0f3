"""The student PDFs fit the course's budget (issue 29): module 10's brief edition in 8 pages,
its full edition in 20, module 11's in 24; each with no overfull box and every reference
resolved. Compiled with latexmk: slow."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from proofs.cli.files import write_files
from proofs.render.notes import latex_files
from proofs.render.options import RenderOptions

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("latexmk") is None or shutil.which("pdfinfo") is None,
        reason="latexmk or pdfinfo is not on PATH (no TeX or poppler-utils installed)",
    ),
]


@pytest.mark.parametrize(
    ("module", "brief", "pages"),
    [(10, True, 8), (10, False, 20), (11, False, 24)],
    ids=["brief", "full", "module11"],
)
def test_the_student_pdf_fits_its_pages(
    checked_notes, lesson_tables, tmp_path, module, brief, pages
):
    options = RenderOptions(module=module, brief=brief, edition="student")
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
        ["pdfinfo", str(tmp_path / "main.pdf")], capture_output=True, text=True, check=True
    ).stdout
    (count,) = [line.split(":")[1] for line in info.splitlines() if line.startswith("Pages:")]
    assert int(count) <= pages
