"""The notes end to end: the CLI writes them, pdflatex compiles them, two runs agree byte for byte.

Tests marked latex need latexmk (CI installs texlive-latex-base, texlive-latex-recommended and
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

from proofs.files import MANIFEST

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
def notes(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("notes")
    run = cli("latex", "--out", str(out), "--standalone")
    assert run.returncode == 0, run.stderr
    return out


def latexmk(folder: Path, name: str) -> str:
    run = subprocess.run(
        ["latexmk", "-pdf", "-halt-on-error", "-interaction=nonstopmode", name],
        cwd=folder,
        capture_output=True,
        text=True,
        check=False,
    )
    log = (folder / name.replace(".tex", ".log")).read_text(errors="replace")
    assert run.returncode == 0, log[-3000:]
    return log


def overfull_points(log: str) -> list[float]:
    return [float(p) for p in re.findall(r"Overfull \\hbox \(([\d.]+)pt too wide\)", log)]


@pytest.mark.latex
@needs_latex
def test_main_tex_compiles_cleanly(notes):
    log = latexmk(notes, "main.tex")
    assert "Undefined control sequence" not in log
    assert not re.search(r"^! ", log, flags=re.M)
    assert (notes / "main.pdf").stat().st_size > 0


@pytest.mark.latex
@needs_latex
@pytest.mark.xfail(
    reason="long sums (dot_product, layouts, rope, group) are not yet broken across lines",
    strict=False,
)
def test_nothing_runs_off_the_page(notes):
    log = latexmk(notes, "main.tex")
    assert all(p < 5 for p in overfull_points(log)), overfull_points(log)


@pytest.mark.latex
@needs_latex
def test_every_standalone_fragment_compiles_on_its_own(notes):
    fragments = sorted(p.name for p in notes.glob("*.tex") if p.name != "main.tex")
    assert fragments
    for name in fragments:
        log = latexmk(notes, name)
        assert "Undefined control sequence" not in log, name


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
