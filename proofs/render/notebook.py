"""The lesson as a Jupyter notebook: a lab. The lesson's prose in Markdown cells, the module's own
code and calls of the public API in code cells, and exercises the student completes, each
followed by a cell that checks the answer with the prover.

The student edition leaves each exercise open ("not answered yet" when run as shipped) and folds
the answers in <details>; the author edition has the solutions filled in. Tables are printed
as computed when the notebook was made; figures are drawn by their code cells. The notebook is
written unexecuted (no outputs), as nbformat 4 JSON with fixed cell ids, so two runs give the
same bytes.
"""

from __future__ import annotations

import json
from dataclasses import replace

from proofs.render.lesson_blocks import (
    Block,
    Code,
    Exercise,
    Figure,
    Lesson,
    NotebookOnly,
    Section,
    Solution,
)
from proofs.render.lesson_editions import solution_blocks
from proofs.render.markdown_lesson import (
    anchor,
    block_md,
    label_pages,
    md_text,
    section_number,
)

SETUP = '''import numpy as np
import sympy as sp
from IPython.display import SVG

import numeric
from proofs import find_shift_map, prove_identity

# The lesson's symbols, with the hypotheses the proofs use.
pos, k = sp.symbols("pos k", real=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
d_model = sp.Symbol("d_model", integer=True, positive=True, even=True)


def R(theta):
    """The module's rotation matrix R(θ)."""
    return sp.Matrix([[sp.cos(theta), sp.sin(theta)], [-sp.sin(theta), sp.cos(theta)]])


def pair(position, w):
    """The pair (sin, cos) at a position and frequency w, as a column."""
    return sp.Matrix([sp.sin(position * w), sp.cos(position * w)])


def report(verdict):
    """Say what the prover found, with the counterexample when there is one."""
    print(verdict.status + ":", verdict.reason)
    if verdict.counterexample is not None:
        print("counterexample", verdict.counterexample.describe())'''

INTRO = (
    "Run the cells from top to bottom. Code cells hold the module's own code and calls of "
    "pe-proofs; each exercise is a cell for you to complete, followed by a cell that checks your "
    "answer with the prover (it says *not answered yet* until you do)."
)


def _cell(kind: str, source: str, number: int) -> dict[str, object]:
    cell: dict[str, object] = {
        "cell_type": kind,
        "id": f"cell-{number}",
        "metadata": {},
        "source": source,
    }
    if kind == "code":
        cell["execution_count"] = None
        cell["outputs"] = []
    return cell


def figure_code(block: Figure, lesson: Lesson) -> str:
    """The code cell that draws a figure and shows it."""
    dotted, kwargs = lesson.figures[block.stem]
    module, _, function = dotted.rpartition(".")
    arguments = "".join(f", {k}={v!r}" for k, v in kwargs.items())
    return (
        f"from {module} import {function}\n\n"
        f'{function}("{block.stem}.svg"{arguments})\nSVG("{block.stem}.svg")'
    )


class _Cells:
    """The cells of one section: prose gathered into Markdown cells, code between."""

    def __init__(self, lesson: Lesson, pages: dict[str, str]) -> None:
        self.lesson = lesson
        self.pages = pages
        self.cells: list[tuple[str, str]] = []
        self.prose: list[str] = []

    def flush(self) -> None:
        if self.prose:
            self.cells.append(("markdown", "\n\n".join(self.prose)))
            self.prose.clear()

    def code(self, source: str) -> None:
        self.flush()
        self.cells.append(("code", source))

    def add(self, block: Block) -> None:
        if isinstance(block, Code):
            self.code(block.source)
        elif isinstance(block, NotebookOnly):
            for inner in block.blocks:
                self.add(inner)
        elif isinstance(block, Exercise):
            self.code(block.source if self.lesson.student else block.answer)
            self.code(block.check)
        elif isinstance(block, Figure):
            self.code(figure_code(block, self.lesson))
            caption = block_md(block, self.pages, ".svg").split("\n\n", 1)[1]
            self.prose.append(f'<a id="{anchor(block.label)}"></a>{caption}')
        elif isinstance(block, Solution) and not self.lesson.student:
            for inner in solution_blocks(block):
                self.add(inner)
        elif isinstance(block, Solution):
            # Folded, as the module folds its answers. A figure of the answer is left out: its
            # drawing would be a cell, and the student draws their own.
            kept = tuple(b for b in block.blocks if not isinstance(b, Figure))
            folded = replace(block, blocks=kept)
            self.prose.append(block_md(folded, self.pages, ".svg", student=True))
        else:
            text = block_md(block, self.pages, ".svg", student=self.lesson.student)
            if text:
                self.prose.append(text)

    def section(self, section: Section) -> list[tuple[str, str]]:
        self.prose.append(f"# {section_number(self.lesson, section)}. {md_text(section.title)}")
        for block in section.blocks:
            self.add(block)
        self.flush()
        return self.cells


def notebook_json(lesson: Lesson) -> str:
    """The whole notebook as nbformat 4 JSON."""
    pages = {label: "" for label in label_pages(lesson, "ipynb")}
    cells = [
        (
            "markdown",
            f"# {md_text(lesson.title)}\n\n*{md_text(lesson.subtitle)}*\n\n{INTRO}",
        ),
        ("code", SETUP),
    ]
    for section in lesson.sections:
        cells += _Cells(lesson, pages).section(section)
    notebook = {
        "cells": [_cell(kind, source, j) for j, (kind, source) in enumerate(cells)],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
