"""Every printer of the lesson has a handler for every block type (and every piece of running
text), and a new type without one fails here: the printers dispatch on the type
(proofs.render.block_printer)."""

from __future__ import annotations

import dataclasses
import importlib
import os
import pkgutil
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import get_args

import pytest

import proofs.render
from proofs.engine.facts import Part
from proofs.render import (
    html,
    latex_lesson,
    lesson_appendix,
    lesson_blocks,
    markdown_lesson,
    myst,
    notebook,
)
from proofs.render.block_printer import missing_handlers
from proofs.render.lesson_blocks import BLOCK_TYPES, PIECE_TYPES, Lesson, Section

ROOT = Path(__file__).resolve().parent.parent.parent


def printers(types: tuple[type, ...] = BLOCK_TYPES) -> dict[str, object]:
    """Every printer in proofs.render of one of types, by its name: a module-level
    singledispatch function with a handler registered for one of them (str aside: a handler of
    text is not yet a printer of pieces)."""
    found = {}
    for info in pkgutil.iter_modules(proofs.render.__path__, "proofs.render."):
        for value in vars(importlib.import_module(info.name)).values():
            registry = getattr(value, "registry", None)
            if registry is not None and any(t in registry for t in types if t is not str):
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


def test_the_appendix_says_how_every_kind_of_part_was_checked():
    """how_checked (the appendix's tables) has words for every part a theorem can have: a
    chain and each kind of fact (proofs.engine.facts.Part)."""
    missing = [t.__name__ for t in missing_handlers(lesson_appendix.how_checked, get_args(Part))]
    assert not missing, f"how_checked has no handler for {', '.join(missing)}"


def test_the_four_formats_of_prose_each_have_a_piece_printer():
    assert printers(PIECE_TYPES) == {
        "piece_tex": latex_lesson.piece_tex,
        "piece_md": markdown_lesson.piece_md,
        "piece_html": html.piece_html,
        "piece_myst": myst.piece_myst,
    }


@pytest.mark.parametrize("name", sorted(printers()))
def test_every_printer_has_a_handler_for_every_block_type(name):
    printer = printers()[name]
    missing = [t.__name__ for t in missing_handlers(printer, BLOCK_TYPES)]
    assert not missing, f"{name} has no handler for {', '.join(missing)}"


@pytest.mark.parametrize("name", sorted(printers(PIECE_TYPES)))
def test_every_printer_has_a_handler_for_every_piece_type(name):
    printer = printers(PIECE_TYPES)[name]
    missing = [t.__name__ for t in missing_handlers(printer, PIECE_TYPES)]
    assert not missing, f"{name} has no handler for {', '.join(missing)}"


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
    with pytest.raises(
        TypeError, match=rf"^{printer.__name__} has no handler for a block of type Toy$"
    ):
        printer(Toy(), None)


@pytest.mark.parametrize(
    "printer", [latex_lesson.piece_tex, markdown_lesson.piece_md, html.piece_html]
)
def test_a_piece_type_without_a_handler_is_named_when_printed(printer):
    assert missing_handlers(printer, (*PIECE_TYPES, Toy)) == [Toy]
    with pytest.raises(
        TypeError, match=rf"^{printer.__name__} has no handler for a piece of type Toy$"
    ):
        printer(Toy(), {})


def test_toy_types_added_to_the_model_fail_the_check(tmp_path):
    """In a copy of the tree, a toy block type joins lesson_blocks.Block and a toy piece type
    joins lesson_blocks.Piece, with no printer: this file's checks fail there, naming them,
    for every printer (five of blocks, four of pieces)."""
    ignore = shutil.ignore_patterns("__pycache__")
    for folder in ("proofs", "numeric"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=ignore)
    (tmp_path / "tests").mkdir()
    shutil.copy(__file__, tmp_path / "tests" / "test_block_printers.py")
    model = tmp_path / "proofs" / "render" / "lesson_blocks.py"
    text = model.read_text(encoding="utf-8")
    piece, block = "Piece = str | sp.Basic", "Block = (\n"
    assert text.count(piece) == 1 and text.count(block) == 1
    toys = "@dataclass(frozen=True)\nclass ToyPiece:\n    text: str\n\n\n"
    toys += "@dataclass(frozen=True)\nclass ToyBlock:\n    pass\n\n\n"
    text = text.replace(piece, toys + "Piece = ToyPiece | str | sp.Basic")
    model.write_text(text.replace(block, block + "    ToyBlock\n    |"), encoding="utf-8")

    run = subprocess.run(
        [
            # -rN: no short summary, whose lines repeat the failures' (cut to the terminal's
            # width, so their count would depend on COLUMNS).
            *(sys.executable, "-m", "pytest", "-q", "-rN", "-p", "no:cacheprovider"),
            *("tests/test_block_printers.py", "-k", "handler_for_every or every_block_of"),
        ],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 1, run.stdout + run.stderr
    assert "9 failed, 1 passed" in run.stdout, run.stdout  # one per printer
    for kind, toy, printers_of_it in (("block", "ToyBlock", 5), ("piece", "ToyPiece", 4)):
        named = rf"AssertionError: {kind}_\w+ has no handler for {toy}$"
        assert len(re.findall(named, run.stdout, re.M)) == printers_of_it, run.stdout
