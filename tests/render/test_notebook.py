"""The notebook is a lab: prose in Markdown cells, the module's code and public API calls in
code cells, exercises with a check each; the student's runs as shipped with every exercise not
answered yet, the author's with the solutions proved (executed with nbclient: slow)."""

from __future__ import annotations

import ast
import json
import os
import re

import pytest

from proofs.render import notes
from proofs.render.options import RenderOptions

# The notebook is written and executed by nbclient: with the slow checks (CI runs them).
pytestmark = pytest.mark.slow


def notebook_of(checked_notes, lesson_tables, **edition) -> dict:
    return json.loads(
        notes.notebook_files(checked_notes, lesson_tables, RenderOptions(**edition))["lesson.ipynb"]
    )


@pytest.fixture(scope="module")
def student(checked_notes, lesson_tables) -> dict:
    return notebook_of(checked_notes, lesson_tables, brief=True, edition="student")


@pytest.fixture(scope="module")
def author(checked_notes, lesson_tables) -> dict:
    return notebook_of(checked_notes, lesson_tables, edition="author")


def code(notebook: dict) -> str:
    return "\n".join(c["source"] for c in notebook["cells"] if c["cell_type"] == "code")


def test_code_cells_compile_and_use_the_public_api_not_internals(student, author):
    for notebook in (student, author):
        for cell in notebook["cells"]:
            if cell["cell_type"] == "code":
                ast.parse(cell["source"])
        joined = code(notebook)
        for call in (
            "prove_identity(",
            "find_shift_map(",
            "numeric.sinusoidal_pe(",
            "def sinusoidal_pe(",
        ):
            assert call in joined, call
        for internal in ("registry", "run_twin", "module_report", "render_tables", "[PASS]"):
            assert internal not in joined, internal
        prose = "\n".join(c["source"] for c in notebook["cells"] if c["cell_type"] == "markdown")
        assert re.search(r"^# \d+\. The rotation$", prose, flags=re.M) and "$$" in prose


def test_the_student_notebook_leaves_the_exercises_open(student, author):
    assert code(student).count("= None  #") >= 4
    assert "theta = 3 * sp.Rational(1, 10)" not in code(student)
    assert "theta = 3 * sp.Rational(1, 10)" in code(author)
    prose = "\n".join(c["source"] for c in student["cells"] if c["cell_type"] == "markdown")
    assert "<details><summary>Answers</summary>" in prose
    assert "Notes for the course author" not in prose


def test_the_notebook_is_valid_nbformat(student):
    nbformat = pytest.importorskip(
        "nbformat", reason="nbformat is not installed (pip install '.[notebook]')"
    )
    nbformat.validate(nbformat.from_dict(student))


def execute(notebook: dict, tmp_path) -> str:
    nbformat = pytest.importorskip(
        "nbformat", reason="nbformat is not installed (pip install '.[notebook]')"
    )
    nbclient = pytest.importorskip(
        "nbclient", reason="nbclient is not installed (pip install '.[notebook]')"
    )
    nb = nbformat.from_dict(notebook)
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute(env={**os.environ, "MPLBACKEND": "Agg"})
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    return "".join(o.get("text", "") for o in outputs)


@pytest.mark.slow
def test_the_student_notebook_runs_as_shipped_with_every_exercise_open(student, tmp_path):
    text = execute(student, tmp_path)
    for n in (1, 2, 3):
        assert f"Exercise {n}: not answered yet" in text
    assert "refuted" not in text and "proved:" in text
    assert (tmp_path / "circle.svg").is_file()  # the brief's one figure, drawn by its cell


@pytest.mark.slow
def test_the_author_notebook_runs_with_every_solution_proved(author, tmp_path):
    text = execute(author, tmp_path)
    assert "not answered yet" not in text and "refuted" not in text
    assert text.count("proved:") >= 10


@pytest.mark.slow
def test_a_wrong_answer_gets_a_counterexample(student, tmp_path):
    wrong = json.loads(json.dumps(student))
    for cell in wrong["cells"]:
        if cell["cell_type"] == "code" and cell["source"].startswith("# Exercise 2"):
            cell["source"] = cell["source"].replace("theta = None", "theta = sp.Integer(3)")
    text = execute(wrong, tmp_path)
    assert "refuted: the two sides differ at a point" in text
    assert "counterexample at pos = " in text
