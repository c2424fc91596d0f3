"""The lesson as a Jupyter notebook: its prose in Markdown cells, and code cells that prove each
theorem, recompute each table and draw each figure, so a student runs it top to bottom.

The notebook is written unexecuted (no outputs), as nbformat 4 JSON with fixed cell ids, so two
runs give the same bytes.
"""

from __future__ import annotations

import json

from proofs.render.lesson_blocks import (
    Block,
    Figure,
    Lesson,
    ProofEnd,
    Section,
    TableBlock,
    TheoremStatement,
)
from proofs.render.markdown_lesson import (
    anchor,
    block_md,
    inline,
    label_pages,
    md_text,
    section_number,
)

SETUP = '''from IPython.display import SVG

from numeric.checks.layouts import conventions_table
from numeric.module_tables import module_report
from proofs import registry
from proofs.render.tables import render_tables

# The module's tables, recomputed: PE rows, bounds, uniqueness, rotation, exercises 1-3.
tables = dict(zip(
    ("pe_rows", "bounds", "unique", "rotation", "exercise_1", "exercise_2", "exercise_3"),
    module_report(),
))


def prove(name):
    """Check every step of the theorem called name; print each part's verdict."""
    result = registry.build(name).verify()
    for part in result.parts:
        print(f"{part.verdict.status:>9}  {part.part.title}")
    print(f"Theorem {name}: {result.status}")


def show(table):
    """Print a table as text."""
    print(render_tables([table], "text"))'''


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


def code_for(block: Block, lesson: Lesson, theorem: str) -> str:
    """The code cell that follows block, or "" when none does."""
    if isinstance(block, TableBlock) and block.source:
        return f"show({block.source})"
    if isinstance(block, Figure):
        dotted, kwargs = lesson.figures[block.stem]
        module, _, function = dotted.rpartition(".")
        arguments = "".join(f", {k}={v!r}" for k, v in kwargs.items())
        return (
            f"from {module} import {function}\n\n"
            f'{function}("{block.stem}.svg"{arguments})\nSVG("{block.stem}.svg")'
        )
    if isinstance(block, ProofEnd) and theorem:
        return f'prove("{theorem}")'
    return ""


def section_cells(lesson: Lesson, section: Section, pages: dict[str, str]) -> list[tuple[str, str]]:
    """(kind, source) cells of one section: prose gathered into Markdown cells, code between.

    A table or figure is made by its code cell; the prose keeps its caption.
    """
    cells: list[tuple[str, str]] = []
    prose = [f"# {section_number(lesson, section)}. {md_text(section.title)}"]

    def flush() -> None:
        if prose:
            cells.append(("markdown", "\n\n".join(prose)))
            prose.clear()

    theorem = ""
    for block in section.blocks:
        if isinstance(block, TheoremStatement):
            theorem = block.label.removeprefix("thm:")
        code = code_for(block, lesson, theorem)
        if isinstance(block, Figure):
            flush()
            cells.append(("code", code))
            caption = block_md(block, pages, ".svg").split("\n\n", 1)[1]
            prose.append(f'<a id="{anchor(block.label)}"></a>{caption}')
            continue
        if isinstance(block, TableBlock) and code:
            caption = (block.caption,) if isinstance(block.caption, str) else block.caption
            prose.append(f"*{inline(caption, pages)}*")
        else:
            text = block_md(block, pages, ".svg")
            if text:
                prose.append(text)
        if code:
            flush()
            cells.append(("code", code))
    flush()
    return cells


def notebook_json(lesson: Lesson) -> str:
    """The whole notebook as nbformat 4 JSON."""
    pages = {label: "" for label in label_pages(lesson, "ipynb")}
    cells = [
        ("markdown", f"# {md_text(lesson.title)}\n\nRun the cells from top to bottom."),
        ("code", SETUP),
    ]
    for section in lesson.sections:
        cells += section_cells(lesson, section, pages)
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
