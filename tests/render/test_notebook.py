"""The notebook: valid nbformat 4, prose in Markdown cells, code that proves, tabulates and
plots; executed top to bottom with nbclient (slow; needs the notebook extra)."""

from __future__ import annotations

import ast
import json
import os

import pytest

from proofs.render import notes


@pytest.fixture(scope="module")
def notebook(checked_notes, lesson_tables) -> dict:
    return json.loads(notes.notebook_files(checked_notes, lesson_tables)["lesson.ipynb"])


def test_cells_alternate_prose_and_code_that_compiles(notebook):
    cells = notebook["cells"]
    code = [c["source"] for c in cells if c["cell_type"] == "code"]
    for source in code:
        ast.parse(source)
    joined = "\n".join(code)
    for theorem in ("frequencies", "bounded", "unique", "rotation", "ramp", "similarity"):
        assert f'prove("{theorem}")' in joined
    assert 'show(tables["rotation"])' in joined and "heatmap_figure(" in joined
    prose = "\n".join(c["source"] for c in cells if c["cell_type"] == "markdown")
    assert "# 6. The rotation" in prose and "$$" in prose


def test_the_notebook_is_valid_nbformat(notebook):
    nbformat = pytest.importorskip(
        "nbformat", reason="nbformat is not installed (pip install '.[notebook]')"
    )
    nbformat.validate(nbformat.from_dict(notebook))


@pytest.mark.slow
def test_the_notebook_runs_top_to_bottom(notebook, tmp_path):
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
    text = "".join(o.get("text", "") for o in outputs)
    assert "Theorem rotation: proved" in text and "Theorem similarity: proved" in text
    assert (tmp_path / "similarity.svg").is_file()
