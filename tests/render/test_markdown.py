"""The Markdown backend: MathJax/KaTeX-safe math, Markdown tables, figures beside the text."""

from __future__ import annotations

import re
import struct
import zlib
from functools import cache

import pytest
import sympy as sp

from numeric.table import Table
from proofs import ramp
from proofs.cli import verify
from proofs.render import figures, markdown, notes
from proofs.render.notes import Checked


@cache
def ramp_result():
    return ramp.build().verify()


def math_blocks(text: str) -> list[str]:
    assert text.count("$$") % 2 == 0
    return re.findall(r"\$\$\n(.*?)\n\$\$", text, flags=re.S)


def test_math_is_aligned_and_safe_for_mathjax_and_katex():
    page = markdown.theorem_markdown(ramp_result(), None)
    blocks = math_blocks(page)
    assert blocks
    for block in blocks:
        assert "align*" not in block and r"\label" not in block and r"\parbox" not in block
        assert block.count(r"\begin{aligned}") == block.count(r"\end{aligned}")
        assert "\n\n" not in block  # a blank line would end the block in Markdown


def test_each_link_is_tagged_and_justified_in_a_numbered_list():
    result = ramp_result()
    page = markdown.theorem_markdown(result, None)
    chain = result.theorem.parts[0]
    for j, step in enumerate(chain.steps[1:], 1):
        assert rf"\text{{({j})}}" in page
        assert f"{j}. {markdown.md_text(step.justification)}" in page


def test_table_is_a_markdown_table():
    table = Table(
        "t", ("k", "a|b", "ok"), ((1, 0.25, True), (5, -1.5, False)), ("d", ".2f", ""), passed=True
    )
    lines = markdown.table_markdown(table).splitlines()
    rows = [line for line in lines if line.startswith("|")]
    assert rows[0] == r"| k | a\|b | ok |"
    assert rows[1] == "| ---: | ---: | --- |"
    assert rows[2] == "| 1 | 0.25 | ✓ |" and rows[3] == "| 5 | -1.50 | ✗ |"
    assert "✓ passed" in lines[-1]


def test_prose_specials_are_escaped():
    assert markdown.md_text("a*b_c [x] $5 <t>") == r"a\*b\_c \[x\] \$5 \<t\>"


def test_index_links_every_page_and_sets_formulas_as_math():
    result = ramp_result()
    files = notes.markdown_files([Checked(result, None)])
    index = files["README.md"].decode()
    assert "(ramp.md)" in index and r"\omega_{i}" in index
    assert set(files) == {"README.md", "ramp.md"}


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(b"\x00\x80"))
        + chunk(b"IEND", b"")
    )


def draw(path, **kwargs):
    """A figure function as a theorem would name it."""
    path.write_bytes(tiny_png())


def test_a_theorem_with_a_figure_gets_a_png_beside_its_page():
    pytest.importorskip("matplotlib", reason="figures need the plot extra (matplotlib)")
    result = ramp_result()

    class WithFigure:
        figure = f"{__name__}.draw"
        twin_kwargs: dict = {}  # noqa: RUF012

    png = figures.render_figure(WithFigure())
    assert png == tiny_png()
    files = notes.markdown_files([Checked(result, None, png)])
    assert files["ramp.png"] == png and "](ramp.png)" in files["ramp.md"].decode()
    tex = notes.latex_files([Checked(result, None, png)])
    assert r"\includegraphics[width=0.8\linewidth]{ramp.png}" in tex["ramp.tex"].decode()


def test_theorems_without_a_figure_have_none():
    assert figures.render_figure(ramp.build()) is None


def test_inline_formulas_come_from_sympy():
    assert markdown.inline_markdown(["x is ", sp.Symbol("pos")]) == r"x is $\mathrm{pos}$"


def test_steps_kept_unevaluated_for_display_survive_the_parallel_check():
    # The product a(pos)·r(pos) is the point of ramp's part 4; it must not print as its value.
    # Two theorems, so they are checked in worker processes and come back across a pipe.
    checked, _ = verify.check(["ramp", "unique"])
    page = notes.markdown_files([checked])["ramp.md"].decode()
    assert r"\frac{\mathrm{pos} + k}{\mathrm{pos}} \cdot \frac{\mathrm{pos}}{L}" in page
    fresh = ramp.build()
    for part, built in zip(checked.result.theorem.parts, fresh.parts, strict=True):
        assert getattr(part, "steps", None) == getattr(built, "steps", None)
