"""The LaTeX notes end to end: both versions compile cleanly, the brief fits eleven pages (the
module's sections, the attention theorem and the answer key), the PDF has its title, and two runs
of the CLI agree byte for byte.

Tests marked latex need latexmk and pdfinfo (CI installs texlive-latex-base,
texlive-latex-recommended, latexmk and poppler-utils); they are skipped, with that reason, only
where latexmk is missing.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from proofs.cli.files import write_files
from proofs.cli.html import katex_dist
from proofs.cli.usage import UsageError
from proofs.render.figures import plotting_available
from proofs.render.notes import latex_files
from proofs.render.options import RenderOptions

needs_latex = pytest.mark.skipif(
    shutil.which("latexmk") is None or shutil.which("pdfinfo") is None,
    reason="latexmk or pdfinfo is not on PATH (no TeX or poppler-utils installed)",
)


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "proofs", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


def compile_pdf(folder: Path) -> str:
    """latexmk main.tex in folder; its log."""
    run = subprocess.run(
        ["latexmk", "-pdf", "-halt-on-error", "-interaction=nonstopmode", "main.tex"],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    log = (folder / "main.log").read_text(errors="replace")
    assert run.returncode == 0, log[-3000:]
    return log


def pdf_info(folder: Path) -> dict[str, str]:
    out = subprocess.run(
        ["pdfinfo", str(folder / "main.pdf")], capture_output=True, text=True, check=True
    ).stdout
    return {k.strip(): v.strip() for k, _, v in (line.partition(":") for line in out.splitlines())}


# The brief, whose page limit matters most, compiles in the fast suite; the full notes of both
# modules, author editions (their papers' witnesses are long lines of code), in the slow.
@pytest.fixture(
    scope="module",
    params=[
        pytest.param("full", marks=pytest.mark.slow),
        "brief",
        pytest.param("module11", marks=pytest.mark.slow),
    ],
)
def compiled(request, checked_notes, lesson_tables, tmp_path_factory):
    """(version, folder, log) of the compiled notes."""
    folder = tmp_path_factory.mktemp(request.param)
    brief = request.param == "brief"
    edition = "student" if brief else "author"
    module = 11 if request.param == "module11" else 10
    options = RenderOptions(module=module, edition=edition, brief=brief)
    write_files(folder, latex_files(checked_notes, lesson_tables, options))
    if shutil.which("latexmk") is None or shutil.which("pdfinfo") is None:
        pytest.skip("latexmk or pdfinfo is not on PATH (no TeX or poppler-utils installed)")
    return request.param, folder, compile_pdf(folder)


@pytest.mark.latex
@needs_latex
def test_no_overfull_box_no_hyperref_warning_no_error(compiled):
    _, _, log = compiled
    assert "Overfull" not in log
    assert "Package hyperref Warning" not in log
    assert not re.search(r"^! ", log, flags=re.M)
    assert "LaTeX Warning: Reference" not in log  # every \ref resolved


@pytest.mark.latex
@needs_latex
def test_brief_fits_eleven_pages_and_the_pdf_has_its_title(compiled):
    version, folder, _ = compiled
    info = pdf_info(folder)
    title = "Rotary position embeddings" if version == "module11" else "The sinusoidal"
    assert info["Title"].startswith(title)
    if version == "brief":
        assert int(info["Pages"]) <= 11


@pytest.mark.slow
def test_figures_are_vector_graphics_without_dates(checked_notes, lesson_tables):
    if not plotting_available():
        pytest.skip("matplotlib is not installed")
    files = latex_files(checked_notes, lesson_tables, RenderOptions(brief=False))
    figures = {n: d for n, d in files.items() if n.endswith(".pdf")}
    assert set(figures) == {"heatmap.pdf", "circle.pdf", "similarity.pdf", "spectrum.pdf"}
    for data in figures.values():
        assert data.startswith(b"%PDF") and b"CreationDate" not in data
    tex = files["main.tex"].decode()
    for name in figures:
        assert f"{{{name}}}" in tex


def test_without_matplotlib_the_notes_still_build(monkeypatch, checked_notes, lesson_tables):
    monkeypatch.setattr("proofs.render.figures.plotting_available", lambda: False)
    files = latex_files(checked_notes, lesson_tables, RenderOptions(brief=True))
    assert list(files) == ["main.tex"]


@pytest.mark.long(80)
@pytest.mark.slow
def test_two_runs_are_byte_identical_in_every_format(tmp_path):
    env = {**os.environ, "PYTHONHASHSEED": "1"}
    commands = [["latex"], ["latex", "--brief", "--for", "student"], ["markdown"], ["notebook"]]
    # Without KaTeX on NODE_PATH the site cannot be built here.
    with contextlib.suppress(UsageError):
        commands.append(["html", "--katex", str(katex_dist(None))])
    for command in commands:
        first, second = tmp_path / f"{command[0]}-a", tmp_path / f"{command[0]}-b"
        for out, seed in ((first, "1"), (second, "2")):
            run = cli(*command, "--out", str(out), env={**env, "PYTHONHASHSEED": seed})
            assert run.returncode == 0, run.stderr
        names = sorted(p.name for p in first.iterdir())
        assert names == sorted(p.name for p in second.iterdir())
        for name in names:
            assert (first / name).read_bytes() == (second / name).read_bytes(), name
        again = cli(*command, "--out", str(first), env=env)
        assert "wrote" not in again.stdout  # a rerun changes nothing


@pytest.mark.slow
def test_the_cli_refuses_to_overwrite_a_foreign_file(tmp_path):
    (tmp_path / "main.tex").write_text("someone else's notes\n")
    run = cli("latex", "--brief", "--out", str(tmp_path))
    assert run.returncode == 2
    assert "refusing to overwrite" in run.stderr and "Traceback" not in run.stderr
