"""The lesson in GitHub-flavoured Markdown: a page per section and a README.md index.

Inline math is $…$ and display math $$…$$ (chains as aligned blocks), set by the same SymPy
printer as the PDF, so the pages render on GitHub, in KaTeX and in Jupyter alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import sympy as sp

from numeric.result_table import Cell, format_cell
from proofs.render.block_printer import block_printer
from proofs.render.latex_chains import derivation_rows
from proofs.render.latex_lesson import math, with_lead
from proofs.render.latex_tables import is_number
from proofs.render.lesson_blocks import (
    AppendixStart,
    Block,
    Chain,
    Code,
    Emph,
    Equations,
    Exercise,
    Figure,
    Heading,
    Items,
    Lesson,
    Link,
    Listing,
    Mono,
    NotebookOnly,
    Para,
    Piece,
    ProofEnd,
    ProseTable,
    Quote,
    Ref,
    Section,
    Solution,
    TableBlock,
    TheoremStatement,
)
from proofs.render.lesson_editions import solution_blocks
from proofs.render.lesson_parts import NAMES
from proofs.render.options import FigureFormat, RenderOptions

# The figures' formats a browser shows, the usual first (HTML and MyST show the same).
FIGURE_FORMATS: tuple[FigureFormat, ...] = ("svg", "png")


def md_text(text: str) -> str:
    """Prose with the characters Markdown (and a $-math renderer) would interpret escaped."""
    return re.sub(r"([\\`*\[\]<>|$])", r"\\\1", text)


def anchor(label: str) -> str:
    """The HTML id of a label (thm:rotation -> thm-rotation)."""
    return label.replace(":", "-")


def section_number(lesson: Lesson, section: Section) -> str:
    """1, 2, … for the lesson's sections; A for the appendix."""
    if section.blocks and isinstance(section.blocks[0], AppendixStart):
        return "A"
    return str(lesson.sections.index(section) + 1)


def page_name(lesson: Lesson, section: Section, ext: str) -> str:
    """The file of a section: NN-name.ext, in the lesson's order."""
    return f"{lesson.sections.index(section) + 1:02d}-{section.name}.{ext}"


def label_pages(lesson: Lesson, ext: str) -> dict[str, str]:
    """label -> the page that holds it (theorems and figures), for links between pages."""
    out = {}
    for section in lesson.sections:
        for block in section.blocks:
            if isinstance(block, TheoremStatement | Figure):
                out[block.label] = page_name(lesson, section, ext)
    return out


piece_md = block_printer("piece_md", "piece")
piece_md.__doc__ = """One piece of running text in Markdown (piece_md(piece, pages)); pages: the
page that holds each label."""


@piece_md.register
def _(piece: str, pages: Mapping[str, str]) -> str:
    return md_text(piece)


@piece_md.register
def _(piece: Ref, pages: Mapping[str, str]) -> str:
    return f"[{piece.text}]({pages.get(piece.label, '')}#{anchor(piece.label)})"


@piece_md.register
def _(piece: Emph, pages: Mapping[str, str]) -> str:
    return f"*{md_text(piece.text).strip()}*" + (" " if piece.text.endswith(" ") else "")


@piece_md.register
def _(piece: Link, pages: Mapping[str, str]) -> str:
    return f"<{piece.url}>"


@piece_md.register
def _(piece: Mono, pages: Mapping[str, str]) -> str:
    return f"`{piece.text}`"


@piece_md.register
def _(piece: sp.Basic, pages: Mapping[str, str]) -> str:
    return f"${math(piece, fold=True)}$"


def inline(pieces: Sequence[Piece], pages: Mapping[str, str]) -> str:
    """Prose, $inline math$, emphasis, links and references."""
    return "".join(piece_md(piece, pages) for piece in pieces)


def display(body: str) -> str:
    return f"$$\n{body}\n$$"


def chain_rows(block: Chain) -> list[str]:
    """The chain's aligned rows for MathJax and KaTeX, its lead (if any) before the first."""
    rows = with_lead(derivation_rows(block.derivation, justify="text", names=NAMES), block.lead)
    return [row.removesuffix(" \\\\*") for row in rows]  # KaTeX has no \\*


def chain_md(block: Chain, pages: Mapping[str, str]) -> str:
    rows = chain_rows(block)
    math_text = display("\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}")
    return (inline(block.intro, pages) + "\n\n" if block.intro else "") + math_text


def cell_md(cell: Cell, spec: str) -> str:
    if isinstance(cell, bool | np.bool_):
        return "✓" if cell else "✗"
    text = format_cell(cell, spec)
    return text.replace("|", "\\|") if not is_number(cell) else text


def pieces_of(text: str | Sequence[Piece]) -> tuple[Piece, ...]:
    return (text,) if isinstance(text, str) else tuple(text)


def table_md(block: TableBlock, pages: Mapping[str, str]) -> str:
    table, caption, note = block.table, block.caption, block.note
    specs = table.formats or ("",) * len(table.columns)
    align = [
        "---:" if table.rows and all(is_number(r[c]) for r in table.rows) else ":---"
        for c in range(len(table.columns))
    ]
    header = [inline(h, pages) for h in block.header] or [
        c.replace("|", "\\|") for c in table.columns
    ]
    caption_md = inline(pieces_of(caption), pages)
    lines = [f"*{caption_md}*", ""] if caption_md else []
    lines += [
        "| " + " | ".join(header) + " |",
        "| " + " | ".join(align) + " |",
    ]
    for j, row in enumerate(table.rows):
        cells = [cell_md(c, s) for c, s in zip(row, specs, strict=True)]
        if block.labels:
            cells[0] = inline(block.labels[j], pages)
        lines.append("| " + " | ".join(cells) + " |")
    text = inline(pieces_of(table.note if note is None else note), pages).strip()
    if table.passed is False:
        text += " **(check FAILED)**"
    if text:
        lines += ["", text]
    return "\n".join(lines)


def prose_table_md(block: ProseTable, pages: Mapping[str, str]) -> str:
    """A pipe table of prose and $math$."""

    def row(cells: Sequence[Sequence[Piece]]) -> str:
        return "| " + " | ".join(inline(c, pages).replace("|", "\\|") for c in cells) + " |"

    lines = [row(block.header), "| " + " | ".join(":---" for _ in block.header) + " |"]
    return "\n".join(lines + [row(r) for r in block.rows])


@dataclass(frozen=True)
class PageContext:
    """What a block's printer needs besides the block: the page that holds each label (for
    links between pages) and the options the lesson was built for."""

    pages: Mapping[str, str]
    options: RenderOptions


block_md = block_printer("block_md")
block_md.__doc__ = """One block of the lesson in Markdown (block_md(block, context)); a student's
solutions folded in <details>, an empty string for a block the pages do not show."""


@block_md.register
def _(block: Heading, context: PageContext) -> str:
    return f"{'#' * min(block.level + 1, 3)} {inline(block.text, context.pages)}"


@block_md.register
def _(block: Para, context: PageContext) -> str:
    return inline(block.pieces, context.pages)


@block_md.register
def _(block: Quote, context: PageContext) -> str:
    return f"> {inline(block.pieces, context.pages)}"


@block_md.register
def _(block: Equations, context: PageContext) -> str:
    return "\n\n".join(display(math(e, block.display)) for e in block.lines)


@block_md.register
def _(block: Chain, context: PageContext) -> str:
    return chain_md(block, context.pages)


@block_md.register
def _(block: TheoremStatement, context: PageContext) -> str:
    head = (
        f'<a id="{anchor(block.label)}"></a>**Theorem {block.number}** '
        f"({md_text(block.title)}). *{inline(block.pieces, context.pages)}*"
    )
    return "\n\n".join([head, *(display(math(f, block.display)) for f in block.formulas)])


@block_md.register
def _(block: ProofEnd, context: PageContext) -> str:
    return '<p align="right">∎</p>'


@block_md.register
def _(block: TableBlock, context: PageContext) -> str:
    return table_md(block, context.pages)


@block_md.register
def _(block: ProseTable, context: PageContext) -> str:
    return prose_table_md(block, context.pages)


@block_md.register
def _(block: Solution, context: PageContext) -> str:
    """A solution in place (author), or folded in <details> (student), as the module folds its
    answers."""
    if not context.options.student:
        shown = solution_blocks(block)
        return "\n\n".join(t for t in (block_md(b, context) for b in shown) if t)
    body = "\n\n".join(t for t in (block_md(b, context) for b in block.blocks) if t)
    return f"<details><summary>{md_text(block.title)}</summary>\n\n{body}\n\n</details>"


@block_md.register
def _(block: Figure, context: PageContext) -> str:
    file = block.stem + context.options.figure_suffix("Markdown", FIGURE_FORMATS)
    return (
        f'<a id="{anchor(block.label)}"></a>![Figure {block.number}]({file})'
        f"\n\n*Figure {block.number}.* {inline(block.caption, context.pages)}"
    )


@block_md.register
def _(block: Items, context: PageContext) -> str:
    return "\n".join(
        (f"{j}. " if block.numbered else "- ") + inline(item, context.pages)
        for j, item in enumerate(block.items, 1)
    )


@block_md.register
def _(block: Listing, context: PageContext) -> str:
    intro = f"{inline(block.intro, context.pages)}\n\n" if block.intro else ""
    return f"{intro}```python\n{block.source}\n```\n\nOutput:\n\n```text\n{block.output}\n```"


@block_md.register(AppendixStart)
@block_md.register(Code)
@block_md.register(Exercise)
@block_md.register(NotebookOnly)
def _(block: Block, context: PageContext) -> str:
    return ""  # the appendix is its section's number; code is the notebook's


def section_md(lesson: Lesson, section: Section, context: PageContext) -> str:
    """A section's page: its numbered title, its blocks, and links back and on."""
    j = lesson.sections.index(section)
    nav = ["[Contents](README.md)"]
    if j > 0:
        prev = lesson.sections[j - 1]
        nav.insert(0, f"← [{md_text(prev.title)}]({page_name(lesson, prev, 'md')})")
    if j + 1 < len(lesson.sections):
        nxt = lesson.sections[j + 1]
        nav.append(f"[{md_text(nxt.title)}]({page_name(lesson, nxt, 'md')}) →")
    body = [f"# {section_number(lesson, section)}. {md_text(section.title)}"]
    body += [t for t in (block_md(b, context) for b in section.blocks) if t]
    body.append(" · ".join(nav))
    return "\n\n".join(body) + "\n"


def index_md(lesson: Lesson) -> str:
    """README.md: the title and the table of contents."""
    lines = [
        f"# {md_text(lesson.title)}",
        "",
        f"*{md_text(lesson.subtitle)}*",
        "",
        "## Contents",
        "",
    ]
    for section in lesson.sections:
        number = section_number(lesson, section)
        lines.append(f"- [{number}. {md_text(section.title)}]({page_name(lesson, section, 'md')})")
    return "\n".join(lines) + "\n"


def markdown_pages(lesson: Lesson) -> dict[str, str]:
    """README.md and one page per section, figures in the format of the lesson's options."""
    lesson.options.figure_suffix("Markdown", FIGURE_FORMATS)  # a format it cannot show fails first
    context = PageContext(label_pages(lesson, "md"), lesson.options)
    out = {"README.md": index_md(lesson)}
    for section in lesson.sections:
        out[page_name(lesson, section, "md")] = section_md(lesson, section, context)
    return out
