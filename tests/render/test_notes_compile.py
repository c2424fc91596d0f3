"""The notes end to end: the CLI writes them, pdflatex compiles them, two runs agree byte for byte.

Every theorem is verified once per session (the checked_notes fixture); main.tex is compiled
once and the standalone fragments together in one latexmk run. Tests marked latex need latexmk (CI installs texlive-latex-base, texlive-latex-recommended and
latexmk); they are skipped, with that reason, only where latexmk is not on PATH.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from proofs import registry
from proofs.cli import verify
from proofs.cli.files import MANIFEST, write_files
from proofs.render import notes as notes_module
from proofs.render.figures import plotting_available, render_figure
from proofs.render.notes import latex_files

needs_latex = pytest.mark.skipif(
    shutil.which("latexmk") is None, reason="latexmk is not on PATH (no TeX installed)"
)


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "proofs", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )


@pytest.fixture(scope="module")
def notes(checked_notes, tmp_path_factory) -> Path:
    """The standalone LaTeX notes of every theorem, written as the CLI writes them."""
    out = tmp_path_factory.mktemp("notes")
    write_files(out, latex_files(checked_notes, standalone=True))
    return out


def latexmk(folder: Path, *names: str) -> dict[str, str]:
    """Compile names in one latexmk run; name -> its log."""
    run = subprocess.run(
        ["latexmk", "-pdf", "-halt-on-error", "-interaction=nonstopmode", *names],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    logs = {
        name: (folder / name.replace(".tex", ".log")).read_text(errors="replace") for name in names
    }
    assert run.returncode == 0, run.stdout[-3000:] + "".join(log[-2000:] for log in logs.values())
    return logs


@pytest.fixture(scope="module")
def main_log(notes) -> str:
    return latexmk(notes, "main.tex")["main.tex"]


def overfull_points(log: str) -> list[float]:
    return [float(p) for p in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]


@pytest.mark.latex
@needs_latex
def test_main_tex_compiles_cleanly(notes, main_log):
    assert "Undefined control sequence" not in main_log
    assert not re.search(r"^! ", main_log, flags=re.M)
    assert (notes / "main.pdf").stat().st_size > 0


@pytest.mark.latex
@needs_latex
def test_nothing_runs_off_the_page(main_log):
    # A few points of slack: TeX reports boxes a hair too wide that no reader sees.
    assert overfull_points(main_log) == [p for p in overfull_points(main_log) if p < 3]


def test_overfull_boxes_are_found_in_a_log():
    log = "Overfull \\hbox (866.9869pt too wide) detected at line 93\n"
    assert overfull_points(log) == [866.9869]


@pytest.mark.latex
@needs_latex
def test_every_standalone_fragment_compiles_on_its_own(notes):
    fragments = sorted(p.name for p in notes.glob("*.tex") if p.name != "main.tex")
    assert len(fragments) == len(registry.names())
    for name, log in latexmk(notes, *fragments).items():
        assert "Undefined control sequence" not in log, name
        assert (notes / name.replace(".tex", ".pdf")).stat().st_size > 0, name


def test_main_tex_has_a_title_an_introduction_and_a_section_per_theorem(notes, checked_notes):
    main = (notes / "main.tex").read_text()
    assert r"\title{" in main and r"\maketitle" in main
    assert "symbolically" in main and "numerically" in main and "seeded random points" in main
    assert main.count(r"\input{") == len(checked_notes)
    for c in checked_notes:
        body = (notes / f"{c.name}.tex").read_text()
        assert body.count(r"\section{") == 1, c.name
        assert r"\subsection*{Numeric cross-check}" in body and r"\toprule" in body, c.name


@pytest.mark.skipif(not plotting_available(), reason="matplotlib is not installed")
def test_figures_are_included_and_reproducible(notes, checked_notes):
    with_figures = [c for c in checked_notes if c.result.theorem.figure]
    assert {c.name for c in with_figures} >= {"dot_product", "bounded"}
    for c in with_figures:
        assert c.figure is not None and c.figure.startswith(b"\x89PNG")
        assert b"tEXt" not in c.figure and b"Matplotlib" not in c.figure
        assert (
            rf"\includegraphics[width=0.8\linewidth]{{{c.name}.png}}"
            in (notes / f"{c.name}.tex").read_text()
        )
        assert (notes / f"{c.name}.png").read_bytes() == c.figure
        # Drawn again, the same bytes.
        assert render_figure(c.result.theorem) == c.figure


def test_without_matplotlib_the_notes_say_the_figure_was_skipped(monkeypatch, checked_notes):
    monkeypatch.setattr(verify, "plotting_available", lambda: False)
    bounded = next(c for c in checked_notes if c.name == "bounded")
    figure, skipped = verify._figure(bounded.result.theorem)
    assert figure is None and "matplotlib is not installed" in skipped
    plain = notes_module.Checked(bounded.result, bounded.table, figure, skipped)
    tex = latex_files([plain], index=False)["bounded.tex"].decode()
    assert r"\includegraphics" not in tex and "Figure skipped: matplotlib" in tex
    page = notes_module.markdown_files([plain], index=False)["bounded.md"].decode()
    assert "*Figure skipped: matplotlib is not installed" in page and "](bounded.png)" not in page


def test_two_runs_are_byte_identical_and_the_second_changes_nothing(tmp_path):
    out = tmp_path / "md"
    env = dict(os.environ, PYTHONHASHSEED="1")
    first = cli("markdown", "--out", str(out), "--theorem", "ramp", env=env)
    assert first.returncode == 0, first.stderr
    snapshot = {p.name: p.read_bytes() for p in out.iterdir()}
    env["PYTHONHASHSEED"] = "2"
    second = cli("markdown", "--out", str(out), "--theorem", "ramp", env=env)
    assert second.returncode == 0, second.stderr
    assert "unchanged" in second.stdout and "wrote" not in second.stdout
    assert {p.name: p.read_bytes() for p in out.iterdir()} == snapshot
    assert set(snapshot) == {"ramp.md", MANIFEST}


@pytest.mark.slow
def test_full_notes_are_deterministic_across_hash_seeds(tmp_path):
    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / seed
        run = cli("latex", "--out", str(out), env=dict(os.environ, PYTHONHASHSEED=seed))
        assert run.returncode == 0, run.stderr
        outputs.append({p.name: p.read_bytes() for p in out.iterdir()})
    assert outputs[0] == outputs[1]


def test_the_cli_refuses_to_overwrite_a_foreign_file(tmp_path):
    (tmp_path / "ramp.md").write_text("my notes")
    run = cli("markdown", "--out", str(tmp_path), "--theorem", "ramp")
    assert run.returncode == 2
    assert run.stderr.strip().startswith("pe-proofs: error: refusing to overwrite")
    assert (tmp_path / "ramp.md").read_text() == "my notes"


def test_unknown_theorem_is_a_one_line_error(tmp_path):
    run = cli("latex", "--out", str(tmp_path), "--theorem", "rotaton")
    assert run.returncode == 2 and "did you mean 'rotation'" in run.stderr
    assert not any(tmp_path.iterdir())
