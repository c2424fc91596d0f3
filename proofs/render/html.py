"""The lesson as a static site: index.html, a page per section, KaTeX shipped beside them.

Math is TeX in <span class="math"> and <div class="math display">, rendered in the browser by
the local copy of KaTeX (katex.min.js, katex.min.css and its woff2 fonts), so no page reaches the network. After rendering, the page
marks <body> with data-math-errors and data-broken-images, which the tests read.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import numpy as np

from numeric.result_table import Cell, Table, format_cell
from proofs.render.latex_chains import derivation_rows
from proofs.render.latex_lesson import math
from proofs.render.latex_tables import is_number
from proofs.render.lesson_blocks import (
    AppendixStart,
    Block,
    Chain,
    Code,
    Emph,
    Equations,
    Figure,
    Heading,
    Items,
    Lesson,
    Link,
    Para,
    Piece,
    ProofEnd,
    Quote,
    Ref,
    Section,
    TableBlock,
    TheoremStatement,
)
from proofs.render.lesson_parts import SUBTITLE
from proofs.render.markdown_lesson import anchor, label_pages, page_name, section_number

RENDER_SCRIPT = """document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".math").forEach((el) => {
    katex.render(el.textContent, el, {
      displayMode: el.classList.contains("display"),
      throwOnError: false,
    });
  });
  document.body.dataset.mathErrors = document.querySelectorAll(".katex-error").length;
});
window.addEventListener("load", () => {
  const broken = [...document.images].filter((img) => !img.complete || img.naturalWidth === 0);
  document.body.dataset.brokenImages = broken.length;
});
"""

STYLE = """body { font-family: Georgia, "Times New Roman", serif; line-height: 1.5; color: #222;
  max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
h1, h2, h3 { font-family: system-ui, sans-serif; }
nav { font-family: system-ui, sans-serif; font-size: 0.9rem; margin: 1.5rem 0; }
blockquote { font-style: italic; border-left: 3px solid #bbb; margin-left: 0; padding-left: 1rem; }
.theorem { margin: 1rem 0; }
.theorem .statement { font-style: italic; }
.math.display { overflow-x: auto; overflow-y: hidden; margin: 0.8rem 0; }
.qed { text-align: right; }
table { border-collapse: collapse; margin: 0.5rem auto; font-size: 0.9rem; }
th, td { padding: 0.15rem 0.6rem; border-bottom: 1px solid #ddd; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.caption, figcaption { font-size: 0.9rem; text-align: center; }
.note { font-size: 0.85rem; text-align: center; color: #555; }
figure { margin: 1.5rem auto; text-align: center; }
figure img { max-width: 100%; }
"""


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def inline(pieces: Sequence[Piece], pages: dict[str, str]) -> str:
    out = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(esc(piece))
        elif isinstance(piece, Ref):
            out.append(
                f'<a href="{pages.get(piece.label, "")}#{anchor(piece.label)}">{esc(piece.text)}</a>'
            )
        elif isinstance(piece, Emph):
            out.append(f"<em>{esc(piece.text)}</em>")
        elif isinstance(piece, Link):
            out.append(f'<a href="{esc(piece.url)}">{esc(piece.url)}</a>')
        else:
            out.append(f'<span class="math">{esc(math(piece))}</span>')
    return "".join(out)


def display(tex: str) -> str:
    return f'<div class="math display">{esc(tex)}</div>'


def cell_html(cell: Cell, spec: str) -> str:
    if isinstance(cell, bool | np.bool_):
        return "<td>✓</td>" if cell else "<td>✗</td>"
    text = esc(format_cell(cell, spec))
    return f'<td class="num">{text}</td>' if is_number(cell) else f"<td>{text}</td>"


def table_html(
    table: Table, caption: str | Sequence[Piece], note: str | None, pages: dict[str, str]
) -> str:
    specs = table.formats or ("",) * len(table.columns)
    head = "".join(f"<th>{esc(c)}</th>" for c in table.columns)
    rows = "\n".join(
        "<tr>" + "".join(cell_html(c, s) for c, s in zip(row, specs, strict=True)) + "</tr>"
        for row in table.rows
    )
    text = table.note if note is None else note
    if table.passed is not None:
        text += " (check passed)" if table.passed else " (check FAILED)"
    return (
        f'<p class="caption"><em>{inline((caption,) if isinstance(caption, str) else caption, pages)}</em></p>\n'
        f"<table>\n<thead><tr>{head}</tr></thead>\n"
        f"<tbody>\n{rows}\n</tbody>\n</table>\n"
        + (f'<p class="note">{esc(text.strip())}</p>' if text else "")
    )


def block_html(block: Block, pages: dict[str, str], figure_suffix: str) -> str:
    """One block of the lesson in HTML."""
    if isinstance(block, Heading):
        level = min(block.level + 1, 3)
        return f"<h{level}>{inline(block.text, pages)}</h{level}>"
    if isinstance(block, Para):
        return f"<p>{inline(block.pieces, pages)}</p>"
    if isinstance(block, Quote):
        return f"<blockquote>{inline(block.pieces, pages)}</blockquote>"
    if isinstance(block, Equations):
        return "\n".join(display(math(e, block.display)) for e in block.lines)
    if isinstance(block, Chain):
        rows = derivation_rows(block.derivation, justify="text")
        tex = "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"
        intro = f"<p>{inline(block.intro, pages)}</p>\n" if block.intro else ""
        return intro + display(tex)
    if isinstance(block, TheoremStatement):
        formulas = "\n".join(display(math(f, block.display)) for f in block.formulas)
        return (
            f'<div class="theorem" id="{anchor(block.label)}"><p><strong>Theorem {block.number}</strong> '
            f'({esc(block.title)}). <span class="statement">{inline(block.pieces, pages)}</span></p>\n'
            f"{formulas}</div>"
        )
    if isinstance(block, ProofEnd):
        return '<p class="qed">∎</p>'
    if isinstance(block, TableBlock):
        return table_html(block.table, block.caption, block.note, pages)
    if isinstance(block, Figure):
        return (
            f'<figure id="{anchor(block.label)}"><img src="{block.stem}{figure_suffix}" '
            f'alt="Figure {block.number}" width="{round(block.width * 800)}">\n'
            f"<figcaption><strong>Figure {block.number}.</strong> {inline(block.caption, pages)}"
            "</figcaption></figure>"
        )
    if isinstance(block, Items):
        tag = "ol" if block.numbered else "ul"
        items = "\n".join(f"<li>{inline(item, pages)}</li>" for item in block.items)
        return f"<{tag}>\n{items}\n</{tag}>"
    if isinstance(block, AppendixStart | Code):
        return ""
    raise TypeError(f"cannot print a block of type {type(block).__name__}")


def page(title: str, body: str) -> str:
    """A whole HTML page around body, loading the local KaTeX."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{esc(title)}</title>\n"
        '<link rel="stylesheet" href="katex.min.css">\n'
        '<link rel="stylesheet" href="style.css">\n'
        '<script defer src="katex.min.js"></script>\n'
        '<script defer src="render-math.js"></script>\n'
        f"</head>\n<body>\n{body}\n</body>\n</html>\n"
    )


def section_html(
    lesson: Lesson, section: Section, pages: dict[str, str], figure_suffix: str
) -> str:
    j = lesson.sections.index(section)
    nav = []
    if j > 0:
        prev = lesson.sections[j - 1]
        nav.append(f'← <a href="{page_name(lesson, prev, "html")}">{esc(prev.title)}</a>')
    nav.append('<a href="index.html">Contents</a>')
    if j + 1 < len(lesson.sections):
        nxt = lesson.sections[j + 1]
        nav.append(f'<a href="{page_name(lesson, nxt, "html")}">{esc(nxt.title)}</a> →')
    blocks = [t for t in (block_html(b, pages, figure_suffix) for b in section.blocks) if t]
    body = (
        f"<main>\n<h1>{section_number(lesson, section)}. {esc(section.title)}</h1>\n"
        + "\n".join(blocks)
        + f"\n</main>\n<nav>{' · '.join(nav)}</nav>"
    )
    return page(f"{section.title} — {lesson.title}", body)


def index_html(lesson: Lesson) -> str:
    items = "\n".join(
        f'<li><a href="{page_name(lesson, s, "html")}">{section_number(lesson, s)}. {esc(s.title)}</a></li>'
        for s in lesson.sections
    )
    body = (
        f"<main>\n<h1>{esc(lesson.title)}</h1>\n<p><em>{esc(SUBTITLE)}</em></p>\n"
        f"<h2>Contents</h2>\n<ul>\n{items}\n</ul>\n</main>"
    )
    return page(lesson.title, body)


def html_pages(lesson: Lesson, figure_suffix: str = ".svg") -> dict[str, str]:
    """index.html, one page per section, the style sheet and the math script."""
    pages = label_pages(lesson, "html")
    out = {"index.html": index_html(lesson), "style.css": STYLE, "render-math.js": RENDER_SCRIPT}
    for section in lesson.sections:
        out[page_name(lesson, section, "html")] = section_html(
            lesson, section, pages, figure_suffix
        )
    return out
