"""Every printer of the lesson has a handler for every block type, and a new block type without
one fails here: the printers dispatch on the block's type (proofs.render.block_printer)."""

from __future__ import annotations

import dataclasses
import importlib
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

import proofs.render
from proofs.render import html, latex_lesson, lesson_blocks, markdown_lesson, myst, notebook
from proofs.render.block_printer import missing_handlers
from proofs.render.lesson_blocks import BLOCK_TYPES, Lesson, Section

ROOT = Path(__file__).resolve().parent.parent.parent


def printers() -> dict[str, object]:
    """Every block printer in proofs.render, by its name: a module-level singledispatch
    function with a handler registered for some block type."""
    found = {}
    for info in pkgutil.iter_modules(proofs.render.__path__, "proofs.render."):
        for value in vars(importlib.import_module(info.name)).values():
            registry = getattr(value, "registry", None)
            if registry is not None and any(t in registry for t in BLOCK_TYPES):
                found[value.__name__] = value
    return found


def test_the_five_formats_each_have_a_block_printer():
    assert printers() == {
        "block_tex": latex_lesson.block_tex,
        "block_md": markdown_lesson.block_md,
        "block_html": html.block_html,
        "block_myst": myst.block_myst,
        "block_cells": notebook.block_cells,
    }


def test_block_types_are_every_block_of_the_lesson_model():
    """Every dataclass of lesson_blocks is a block type, a piece of running text, or the
    section or lesson that holds the blocks: none escapes the printers' check."""
    classes = {
        c
        for c in vars(lesson_blocks).values()
        if isinstance(c, type)
        and dataclasses.is_dataclass(c)
        and c.__module__ == lesson_blocks.__name__
    }
    pieces = set(get_args(lesson_blocks.Piece))
    assert classes == set(BLOCK_TYPES) | (pieces & classes) | {Section, Lesson}


@pytest.mark.parametrize("name", sorted(printers()))
def test_every_printer_has_a_handler_for_every_block_type(name):
    printer = printers()[name]
    assert missing_handlers(printer, BLOCK_TYPES) == [], f"{name} cannot print these"


@dataclasses.dataclass(frozen=True)
class Toy:
    """A block type no printer knows."""


@pytest.mark.parametrize(
    "printer",
    [
        latex_lesson.block_tex,
        markdown_lesson.block_md,
        html.block_html,
        myst.block_myst,
        notebook.block_cells,
    ],
)
def test_a_block_type_without_a_handler_is_named_when_printed(printer):
    assert missing_handlers(printer, (*BLOCK_TYPES, Toy)) == [Toy]
    with pytest.raises(TypeError, match=rf"^{printer.__name__} has no handler for .* type Toy$"):
        printer(Toy(), None)


def test_a_toy_block_type_added_to_the_model_fails_the_check(tmp_path):
    """In a copy of the tree, a toy block type joins lesson_blocks.Block with no printer:
    this file's check fails there, naming it, for every printer."""
    ignore = shutil.ignore_patterns("__pycache__")
    for folder in ("proofs", "numeric"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=ignore)
    (tmp_path / "tests").mkdir()
    shutil.copy(__file__, tmp_path / "tests" / "test_block_printers.py")
    model = tmp_path / "proofs" / "render" / "lesson_blocks.py"
    text = model.read_text(encoding="utf-8")
    toy = (
        '@dataclass(frozen=True)\nclass Toy:\n    """A toy block."""\n\n\nBlock = (\n    Toy\n    |'
    )
    assert text.count("Block = (\n") == 1
    model.write_text(text.replace("Block = (\n", toy, 1), encoding="utf-8")

    run = subprocess.run(
        [
            *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"),
            *("tests/test_block_printers.py", "-k", "handler_for_every or every_block"),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "5 failed, 1 passed" in run.stdout, run.stdout  # one per printer
    assert run.stdout.count("<class 'proofs.render.lesson_blocks.Toy'>") >= 5, run.stdout
