"""The lesson as a static site: index.html, a page per section, KaTeX shipped beside them.

Math is TeX in <span class="math"> and <div class="math display">, rendered in the browser by
the local copy of KaTeX (katex.min.js, katex.min.css and its woff2 fonts), so no page reaches
the network. After rendering, the page marks <body> with data-math-errors, data-broken-images,
data-overflowing (displays wider than the column) and data-math-scale (the size of inline math
over the size of the text), which the tests read.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence

import numpy as np
import sympy as sp

from numeric.result_table import Cell, format_cell
from proofs.render.block_printer import block_printer
from proofs.render.latex_lesson import math
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
from proofs.render.markdown_lesson import (
    FIGURE_FORMATS,
    PageContext,
    anchor,
    chain_rows,
    label_pages,
    page_name,
    pieces_of,
    section_number,
)

RENDER_SCRIPT = """// A display wider than its column is set smaller, down to 70% of its size (KaTeX sizes
// everything in em); what still does not fit scrolls inside its own box, never the page.
function fitDisplays() {
  document.querySelectorAll(".math.display").forEach((el) => {
    el.style.fontSize = "";
    const over = el.scrollWidth / el.clientWidth;
    if (over > 1) el.style.fontSize = `${Math.max(0.7, 0.97 / over) * 100}%`;
  });
}
document.addEventListener("DOMContentLoaded", () => {
  document.querySelectorAll(".math").forEach((el) => {
    katex.render(el.textContent, el, {
      displayMode: el.classList.contains("display"),
      throwOnError: false,
    });
  });
  fitDisplays();
  document.body.dataset.mathErrors = document.querySelectorAll(".katex-error").length;
  // For the tests: displays wider than the column, and the size of math against the text.
  const wide = [...document.querySelectorAll(".math.display, .table")];
  document.body.dataset.overflowing = wide.filter((e) => e.scrollWidth > e.clientWidth + 1).length;
  const inline = document.querySelector("p .katex");
  const size = (e) => parseFloat(getComputedStyle(e).fontSize);
  document.body.dataset.mathScale = inline ? (size(inline) / size(document.body)).toFixed(2) : "";
});
window.addEventListener("load", () => {
  const broken = [...document.images].filter((img) => !img.complete || img.naturalWidth === 0);
  document.body.dataset.brokenImages = broken.length;
  document.fonts.ready.then(fitDisplays);
});
window.addEventListener("resize", fitDisplays);
"""

STYLE = """body { font-family: Georgia, "Times New Roman", serif; line-height: 1.5; color: #222;
  max-width: 52rem; margin: 2rem auto; padding: 0 1rem; }
h1, h2, h3 { font-family: system-ui, sans-serif; }
nav { font-family: system-ui, sans-serif; font-size: 0.9rem; margin: 1.5rem 0; }
blockquote { font-style: italic; border-left: 3px solid #bbb; margin-left: 0; padding-left: 1rem; }
.theorem { margin: 1rem 0; }
.theorem .statement { font-style: italic; }
/* KaTeX sets math at 1.21em of the text; the notes' serif body wants it the same size. */
.katex { font-size: 1.05em; }
.math.display { overflow-x: auto; overflow-y: hidden; margin: 0.8rem 0; max-width: 100%; }
.math.display .katex-display > .katex { white-space: normal; }
details { margin: 1rem 0; padding: 0.3rem 0.8rem; border-left: 3px solid #bbb; }
summary { cursor: pointer; font-style: italic; }
.table { overflow-x: auto; }
table.prose td, table.prose th { vertical-align: top; text-align: left; }
code { font-size: 0.9em; }
/* The module's code keeps its lines; on a phone a long one scrolls inside its own box. */
pre { overflow-x: auto; max-width: 100%; }
.nowrap { white-space: nowrap; }
/* A URL in the references may break anywhere rather than widen a phone's page. */
p a, li a { overflow-wrap: anywhere; }
.qed { text-align: right; }
table { border-collapse: collapse; margin: 0.5rem auto; font-size: 0.9rem; }
/* A cell wraps between words, never inside one; a table too wide for a phone scrolls in its box. */
th, td { padding: 0.15rem 0.6rem; border-bottom: 1px solid #ddd; overflow-wrap: normal;
  hyphens: manual; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.caption, figcaption { font-size: 0.9rem; text-align: center; }
.note { font-size: 0.85rem; text-align: center; color: #555; }
figure { margin: 1.5rem auto; text-align: center; }
figure img { max-width: 100%; }
"""


def esc(text: str) -> str:
    return html.escape(text, quote=True)


# Punctuation that must not start a line after inline math ("… is not μz." with the period alone).
_TRAILING = re.compile(r"[.,;:!?)\]’”]+")


def is_math(piece: Piece) -> bool:
    """Whether piece is inline math (every other piece is prose, a reference, code or a link)."""
    return not isinstance(piece, str | Ref | Emph | Mono | Link)


piece_html = block_printer("piece_html", "piece")
piece_html.__doc__ = """One piece of running text in HTML (piece_html(piece, pages)); pages: the
page that holds each label."""


@piece_html.register
def _(piece: str, pages: Mapping[str, str]) -> str:
    return esc(piece)


@piece_html.register
def _(piece: Ref, pages: Mapping[str, str]) -> str:
    return f'<a href="{pages.get(piece.label, "")}#{anchor(piece.label)}">{esc(piece.text)}</a>'


@piece_html.register
def _(piece: Emph, pages: Mapping[str, str]) -> str:
    return f"<em>{esc(piece.text)}</em>"


@piece_html.register
def _(piece: Mono, pages: Mapping[str, str]) -> str:
    return f"<code>{esc(piece.text)}</code>"


@piece_html.register
def _(piece: Link, pages: Mapping[str, str]) -> str:
    return f'<a href="{esc(piece.url)}">{esc(piece.url)}</a>'


@piece_html.register
def _(piece: sp.Basic, pages: Mapping[str, str]) -> str:
    return f'<span class="math">{esc(math(piece, fold=True))}</span>'


def inline(pieces: Sequence[Piece], pages: Mapping[str, str]) -> str:
    """Prose, inline math, emphasis, code, links and references."""
    out = []
    for j, piece in enumerate(pieces):
        stick = _TRAILING.match(piece) if isinstance(piece, str) else None
        if stick and j and is_math(pieces[j - 1]):
            # The math before and its punctuation stay on one line.
            out[-1] = f'<span class="nowrap">{out[-1]}{esc(stick.group())}</span>'
            piece = piece[stick.end() :]
        out.append(piece_html(piece, pages))
    return "".join(out)


def display(tex: str) -> str:
    return f'<div class="math display">{esc(tex)}</div>'


def cell_html(cell: Cell, spec: str) -> str:
    if isinstance(cell, bool | np.bool_):
        return "<td>✓</td>" if cell else "<td>✗</td>"
    text = esc(format_cell(cell, spec))
    return f'<td class="num">{text}</td>' if is_number(cell) else f"<td>{text}</td>"


def table_html(block: TableBlock, pages: Mapping[str, str]) -> str:
    table, caption, note = block.table, block.caption, block.note
    specs = table.formats or ("",) * len(table.columns)
    header = [inline(h, pages) for h in block.header] or [esc(c) for c in table.columns]
    head = "".join(f"<th>{h}</th>" for h in header)
    rows = []
    for j, row in enumerate(table.rows):
        cells = [cell_html(c, s) for c, s in zip(row, specs, strict=True)]
        if block.labels:
            cells[0] = f"<td>{inline(block.labels[j], pages)}</td>"
        rows.append("<tr>" + "".join(cells) + "</tr>")
    text = inline(pieces_of(table.note if note is None else note), pages).strip()
    if table.passed is False:
        text += " <strong>(check FAILED)</strong>"
    body = "\n".join(rows)
    caption_html = inline(pieces_of(caption), pages)
    return (
        (f'<p class="caption"><em>{caption_html}</em></p>\n' if caption_html else "")
        + f'<div class="table"><table>\n<thead><tr>{head}</tr></thead>\n'
        f"<tbody>\n{body}\n</tbody>\n</table></div>\n"
        + (f'<p class="note">{text}</p>' if text else "")
    )


def prose_table_html(block: ProseTable, pages: Mapping[str, str]) -> str:
    head = "".join(f"<th>{inline(h, pages)}</th>" for h in block.header)
    body = "\n".join(
        "<tr>" + "".join(f"<td>{inline(c, pages)}</td>" for c in row) + "</tr>"
        for row in block.rows
    )
    return (
        f'<div class="table"><table class="prose">\n<thead><tr>{head}</tr></thead>\n'
        f"<tbody>\n{body}\n</tbody>\n</table></div>"
    )


block_html = block_printer("block_html")
block_html.__doc__ = """One block of the lesson in HTML (block_html(block, context)); a student's
solutions folded in <details>, an empty string for a block the pages do not show."""


@block_html.register
def _(block: Heading, context: PageContext) -> str:
    level = min(block.level + 1, 3)
    return f"<h{level}>{inline(block.text, context.pages)}</h{level}>"


@block_html.register
def _(block: Para, context: PageContext) -> str:
    return f"<p>{inline(block.pieces, context.pages)}</p>"


@block_html.register
def _(block: Quote, context: PageContext) -> str:
    return f"<blockquote>{inline(block.pieces, context.pages)}</blockquote>"


@block_html.register
def _(block: Equations, context: PageContext) -> str:
    return "\n".join(display(math(e, block.display)) for e in block.lines)


@block_html.register
def _(block: Chain, context: PageContext) -> str:
    tex = "\\begin{aligned}\n" + " \\\\\n".join(chain_rows(block)) + "\n\\end{aligned}"
    intro = f"<p>{inline(block.intro, context.pages)}</p>\n" if block.intro else ""
    return intro + display(tex)


@block_html.register
def _(block: TheoremStatement, context: PageContext) -> str:
    formulas = "\n".join(display(math(f, block.display)) for f in block.formulas)
    return (
        f'<div class="theorem" id="{anchor(block.label)}"><p><strong>Theorem {block.number}</strong> '
        f'({esc(block.title)}). <span class="statement">{inline(block.pieces, context.pages)}</span></p>\n'
        f"{formulas}</div>"
    )


@block_html.register
def _(block: ProofEnd, context: PageContext) -> str:
    return '<p class="qed">∎</p>'


@block_html.register
def _(block: TableBlock, context: PageContext) -> str:
    return table_html(block, context.pages)


@block_html.register
def _(block: ProseTable, context: PageContext) -> str:
    return prose_table_html(block, context.pages)


@block_html.register
def _(block: Solution, context: PageContext) -> str:
    """A solution in place (author), or folded in <details> (student)."""
    if not context.options.student:
        shown = solution_blocks(block)
        return "\n".join(t for t in (block_html(b, context) for b in shown) if t)
    body = "\n".join(t for t in (block_html(b, context) for b in block.blocks) if t)
    return f"<details><summary>{esc(block.title)}</summary>\n{body}\n</details>"


@block_html.register
def _(block: Figure, context: PageContext) -> str:
    return (
        f'<figure id="{anchor(block.label)}"><img src="{block.stem}{context.options.figure_suffix("HTML", FIGURE_FORMATS)}" '
        f'alt="Figure {block.number}" width="{round(block.width * 800)}">\n'
        f"<figcaption><strong>Figure {block.number}.</strong> {inline(block.caption, context.pages)}"
        "</figcaption></figure>"
    )


@block_html.register
def _(block: Items, context: PageContext) -> str:
    tag = "ol" if block.numbered else "ul"
    items = "\n".join(f"<li>{inline(item, context.pages)}</li>" for item in block.items)
    return f"<{tag}>\n{items}\n</{tag}>"


@block_html.register
def _(block: Listing, context: PageContext) -> str:
    intro = f"<p>{inline(block.intro, context.pages)}</p>\n" if block.intro else ""
    return (
        f'{intro}<pre class="code"><code>{esc(block.source)}</code></pre>\n'
        f'<p><em>Output:</em></p>\n<pre class="output"><code>{esc(block.output)}</code></pre>'
    )


@block_html.register(AppendixStart)
@block_html.register(Code)
@block_html.register(Exercise)
@block_html.register(NotebookOnly)
def _(block: Block, context: PageContext) -> str:
    return ""  # the appendix is its section's number; code is the notebook's


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


def section_html(lesson: Lesson, section: Section, context: PageContext) -> str:
    """A section's page: its numbered title, its blocks, and links back and on."""
    j = lesson.sections.index(section)
    nav = []
    if j > 0:
        prev = lesson.sections[j - 1]
        nav.append(f'← <a href="{page_name(lesson, prev, "html")}">{esc(prev.title)}</a>')
    nav.append('<a href="index.html">Contents</a>')
    if j + 1 < len(lesson.sections):
        nxt = lesson.sections[j + 1]
        nav.append(f'<a href="{page_name(lesson, nxt, "html")}">{esc(nxt.title)}</a> →')
    blocks = [t for t in (block_html(b, context) for b in section.blocks) if t]
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
        f"<main>\n<h1>{esc(lesson.title)}</h1>\n<p><em>{esc(lesson.subtitle)}</em></p>\n"
        f"<h2>Contents</h2>\n<ul>\n{items}\n</ul>\n</main>"
    )
    return page(lesson.title, body)


def html_pages(lesson: Lesson) -> dict[str, str]:
    """index.html, one page per section, the style sheet and the math script; figures in the
    format of the lesson's options."""
    lesson.options.figure_suffix("HTML", FIGURE_FORMATS)  # a format it cannot show fails first
    context = PageContext(label_pages(lesson, "html"), lesson.options)
    out = {"index.html": index_html(lesson), "style.css": STYLE, "render-math.js": RENDER_SCRIPT}
    for section in lesson.sections:
        out[page_name(lesson, section, "html")] = section_html(lesson, section, context)
    return out
