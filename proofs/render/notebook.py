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
from collections.abc import Sequence
from dataclasses import dataclass, replace

from proofs.render.block_printer import block_printer
from proofs.render.lesson_blocks import (
    AppendixStart,
    Block,
    Chain,
    Code,
    Equations,
    Exercise,
    Figure,
    Heading,
    Items,
    Lesson,
    Listing,
    NotebookOnly,
    Para,
    ProofEnd,
    ProseTable,
    Quote,
    Section,
    Solution,
    TableBlock,
    TheoremStatement,
)
from proofs.render.lesson_editions import solution_blocks
from proofs.render.markdown_lesson import (
    PageContext,
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

# Module 11's notebook: its own symbols (the query at m, the key at n) and the libraries'
# rotation G, in place of module 10's pos, k and R.
ROPE_SETUP = '''import numpy as np
import sympy as sp
from IPython.display import SVG

import numeric
from proofs import prove_identity

# The lesson's symbols: positions m (the query's) and n (the key's), an angle, one pair of a
# query q and a key kappa, a pair index, the base, the scale factor and YaRN's factor mu.
m, n, theta = sp.symbols("m n theta", real=True)
q = sp.Matrix(sp.symbols("q_1 q_2", real=True))
kappa = sp.Matrix(sp.symbols("kappa_1 kappa_2", real=True))
i = sp.Symbol("i", integer=True, nonnegative=True)
s, b, mu = sp.symbols("s b mu", positive=True)


def G(angle):
    """The rotation of a pair by angle, as the libraries write it."""
    return sp.Matrix([[sp.cos(angle), -sp.sin(angle)], [sp.sin(angle), sp.cos(angle)]])


def report(verdict):
    """Say what the prover found, with the counterexample when there is one."""
    print(verdict.status + ":", verdict.reason)
    if verdict.counterexample is not None:
        print("counterexample", verdict.counterexample.describe())'''
SETUPS = {10: SETUP, 11: ROPE_SETUP}

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


# A cell's kind ("markdown", "code", or ANSWER) and source; notebook_json joins consecutive
# Markdown. An answer is Markdown in a cell of its own: never in the next exercise's cell.
Cell = tuple[str, str]
ANSWER = "answer"


@dataclass(frozen=True)
class CellContext:
    """What a block's cells need besides the block: the lesson (its figures' drawings) and the
    Markdown printer's context (every label on the one page)."""

    lesson: Lesson
    page: PageContext


block_cells = block_printer("block_cells")
block_cells.__doc__ = """One block of the lesson as notebook cells (block_cells(block, context)):
prose as Markdown, code, exercises and figures' drawings as code cells."""


def _prose(block: Block, context: CellContext) -> list[Cell]:
    text = block_md(block, context.page)
    return [("markdown", text)] if text else []


for _kind in (
    AppendixStart,
    Chain,
    Equations,
    Heading,
    Items,
    Para,
    ProofEnd,
    ProseTable,
    Quote,
    TableBlock,
    TheoremStatement,
):
    block_cells.register(_kind, _prose)


@block_cells.register
def _(block: Code, context: CellContext) -> list[Cell]:
    return [("code", block.source)]


@block_cells.register
def _(block: Listing, context: CellContext) -> list[Cell]:
    return []  # the notebook runs the module's code in its own cells ({notebook} blocks)


@block_cells.register
def _(block: NotebookOnly, context: CellContext) -> list[Cell]:
    return [cell for inner in block.blocks for cell in block_cells(inner, context)]


@block_cells.register
def _(block: Exercise, context: CellContext) -> list[Cell]:
    return [
        ("code", block.source if context.lesson.student else block.answer),
        ("code", block.check),
    ]


@block_cells.register
def _(block: Figure, context: CellContext) -> list[Cell]:
    caption = block_md(block, context.page).split("\n\n", 1)[1]
    return [
        ("code", figure_code(block, context.lesson)),
        ("markdown", f'<a id="{anchor(block.label)}"></a>{caption}'),
    ]


@block_cells.register
def _(block: Solution, context: CellContext) -> list[Cell]:
    if not context.lesson.student:
        cells = joined([c for inner in solution_blocks(block) for c in block_cells(inner, context)])
        return [(ANSWER if kind == "markdown" else kind, text) for kind, text in cells]
    # Folded, as the module folds its answers. A figure of the answer cannot be folded with it
    # (its drawing is a code cell): it follows the answer, so the answer's link to it resolves.
    kept = tuple(b for b in block.blocks if not isinstance(b, Figure))
    figures = [c for b in block.blocks if isinstance(b, Figure) for c in block_cells(b, context)]
    answer = [("markdown", block_md(replace(block, blocks=kept), context.page)), *figures]
    return [(ANSWER if kind == "markdown" else kind, text) for kind, text in answer]


def joined(cells: Sequence[Cell]) -> list[Cell]:
    """cells with each run of Markdown cells joined into one (paragraphs apart); an answer
    stays a cell of its own.

    >>> joined([("markdown", "a"), ("markdown", "b"), ("code", "x = 1"), ("markdown", "c")])
    [('markdown', 'a\\n\\nb'), ('code', 'x = 1'), ('markdown', 'c')]
    >>> joined([("markdown", "a"), ("answer", "b"), ("markdown", "c")])
    [('markdown', 'a'), ('answer', 'b'), ('markdown', 'c')]
    """
    out: list[Cell] = []
    for kind, source in cells:
        if kind == "markdown" and out and out[-1][0] == "markdown":
            out[-1] = (kind, out[-1][1] + "\n\n" + source)
        else:
            out.append((kind, source))
    return out


def section_cells(lesson: Lesson, section: Section, context: CellContext) -> list[Cell]:
    """A section's cells: its numbered title and its blocks."""
    title = f"# {section_number(lesson, section)}. {md_text(section.title)}"
    cells = [("markdown", title)]
    cells += [cell for block in section.blocks for cell in block_cells(block, context)]
    return joined(cells)


def notebook_json(lesson: Lesson) -> str:
    """The whole notebook as nbformat 4 JSON."""
    lesson.options.figure_suffix("notebook", ("svg",))  # its cells draw and show SVG
    pages = {label: "" for label in label_pages(lesson, "ipynb")}
    context = CellContext(lesson, PageContext(pages, lesson.options))
    cells = [
        (
            "markdown",
            f"# {md_text(lesson.title)}\n\n*{md_text(lesson.subtitle)}*\n\n{INTRO}",
        ),
        ("code", SETUPS[lesson.options.module]),
    ]
    for section in lesson.sections:
        cells += section_cells(lesson, section, context)
    notebook = {
        "cells": [
            _cell("markdown" if kind == ANSWER else kind, source, j)
            for j, (kind, source) in enumerate(cells)
        ],
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
