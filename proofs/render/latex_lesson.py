"""The lesson in LaTeX: one main.tex with the sections, theorems, chains, tables and figures.

One module because it is one printer: one handler per block and piece type (singledispatch),
and the preamble they rely on.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

import sympy as sp

from numeric.result_table import format_cell
from proofs.render.block_printer import block_printer
from proofs.render.latex_chains import derivation_rows
from proofs.render.latex_math import FULL_BUDGET, SIDE_BUDGET, latex_math
from proofs.render.latex_tables import cell_tex, is_number
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
    Solution,
    TableBlock,
    TheoremStatement,
)
from proofs.render.lesson_editions import solution_blocks, with_answer_key
from proofs.render.lesson_parts import NAMES, as_scalar
from proofs.render.options import FigureFormat, RenderOptions
from proofs.render.tex_prose import tex_text
from proofs.render.tex_width import tex_width

# The figures' formats \includegraphics takes, the usual first.
FIGURE_FORMATS: tuple[FigureFormat, ...] = ("pdf", "png")


def math(
    expr: sp.Basic, display: Sequence[tuple[sp.Basic, sp.Basic]] = (), *, fold: bool = False
) -> str:
    """expr set by the notes' printer with the lesson's names; fold: fractions on the line, for
    math inside a sentence."""
    return latex_math(as_scalar(expr), tuple(display), NAMES, fold=fold)


def tex_code(text: str) -> str:
    """Code for \\texttt: every character as itself (specials escaped, no math)."""
    escapes = {
        "_": r"\_",
        "{": r"\{",
        "}": r"\}",
        "\\": r"\textbackslash{}",
        "%": r"\%",
        "&": r"\&",
        "#": r"\#",
        "$": r"\$",
        "^": r"\^{}",
        "~": r"\~{}",
        "\u00a0": "~",
    }
    return "".join(escapes.get(c, c) for c in text)


piece_tex = block_printer("piece_tex", "piece")
piece_tex.__doc__ = """One piece of running text in LaTeX (piece_tex(piece, pdf_string));
pdf_string: math wrapped for PDF bookmarks (\\texorpdfstring)."""


@piece_tex.register
def _(piece: str, pdf_string: bool) -> str:
    return tex_text(piece)


@piece_tex.register
def _(piece: Ref, pdf_string: bool) -> str:
    return f"{piece.kind}~\\ref{{{piece.label}}}"


@piece_tex.register
def _(piece: Emph, pdf_string: bool) -> str:
    return rf"\emph{{{tex_text(piece.text)}}}"


@piece_tex.register
def _(piece: Link, pdf_string: bool) -> str:
    return rf"\url{{{piece.url}}}"


@piece_tex.register
def _(piece: Mono, pdf_string: bool) -> str:
    # A long identifier may break after an inner underscore between two words of three letters
    # or more, one of them four or more (rotate_/half, dynamic_/ntk_/parameters); a short name
    # (d_model, max_len, sinusoidal_pe) is never split.
    code = re.sub(
        r"(?:(?<=[A-Za-z0-9]{4})\\_(?=[A-Za-z0-9]{3})|(?<=[A-Za-z0-9]{3})\\_(?=[A-Za-z0-9]{4}))",
        r"\\_\\allowbreak{}",
        tex_code(piece.text),
    )
    return rf"\texttt{{{code}}}"


@piece_tex.register
def _(piece: sp.Basic, pdf_string: bool) -> str:
    tex = f"${math(piece, fold=True)}$"
    plain = str(piece).replace("_", " ")
    return rf"\texorpdfstring{{{tex}}}{{{plain}}}" if pdf_string else tex


def inline(pieces: Sequence[Piece], *, pdf_string: bool = False) -> str:
    """Prose and inline math; pdf_string: math wrapped for PDF bookmarks (\\texorpdfstring)."""
    return "".join(piece_tex(piece, pdf_string) for piece in pieces)


def _pieces(text: str | Sequence[Piece]) -> tuple[Piece, ...]:
    return (text,) if isinstance(text, str) else tuple(text)


def _column_specs(block: TableBlock, header: list[str]) -> tuple[str, float]:
    """The tabular's column spec, and, for a table set as wide as the line, about how many lines
    tall it is (0 for a table of its natural width): a table of long text wraps its text
    columns (p{…}, shares by their length) rather than shrinking."""
    table = block.table
    specs = table.formats or ("",) * len(table.columns)
    numeric = [
        bool(table.rows) and all(is_number(r[c]) or r[c] is None for r in table.rows)
        for c in range(len(table.columns))
    ]
    lengths = [
        max([len(table.columns[j]), *(len(format_cell(r[j], specs[j])) for r in table.rows)])
        for j in range(len(table.columns))
    ]
    if sum(lengths) + 2 * len(lengths) <= 80:
        return "".join("r" if n else "l" for n in numeric), 0.0
    wide = [j for j, n in enumerate(numeric) if not n and lengths[j] > 16]
    narrow = sum(min(lengths[j], 16) + 2 for j in range(len(lengths)) if j not in wide)
    room = max(0.3, 0.97 - narrow / 95 - 0.02 * len(lengths))
    # Each wrapped column gets a share of the room by its square-root length, so a column of
    # short words is not squeezed under its longest word.
    weights = {j: lengths[j] ** 0.5 for j in wide}
    out = []
    widths = {}
    for j, n in enumerate(numeric):
        if j in wide:
            widths[j] = room * weights[j] / sum(weights.values())
            out.append(f">{{\\raggedright\\arraybackslash}}p{{{widths[j]:.3f}\\linewidth}}")
        else:
            out.append("r" if n else "l")
    # About 110 characters of small type fill a line.
    height = sum(
        max(1, *(len(format_cell(row[j], specs[j])) / (110 * w) + 0.5 for j, w in widths.items()))
        for row in table.rows
    )
    return "".join(out), height


# A table without a caption taller than this many lines (about a page of small type) is set as
# a longtable.
LONG_TABLE_LINES = 40


def _breakable(tex: str) -> str:
    """Text of a table cell that may break after / and _ (math left as it is)."""
    parts = tex.split("$")
    for j in range(0, len(parts), 2):
        parts[j] = re.sub(r"(\\_|/)", r"\1\\allowbreak{}", parts[j])
    return "$".join(parts)


def table_tex(block: TableBlock) -> str:
    """A live table: its caption in words, the booktabs tabular, and its note. The body states
    no check's outcome: a failed check is the only one named (a passed one is the appendix's)."""
    table, caption = block.table, block.caption
    note = block.note
    specs = table.formats or ("",) * len(table.columns)
    header = [inline(h) for h in block.header] or [tex_text(c) for c in table.columns]
    align, height = _column_specs(block, header)
    wrapped = height > 0
    body = [" & ".join(header) + r" \\", r"\midrule"]
    for j, row in enumerate(table.rows):
        cells = [cell_tex(cell, spec) for cell, spec in zip(row, specs, strict=True)]
        if wrapped:  # a path or an identifier may break after / and _ (outside math)
            cells = [_breakable(c) for c in cells]
        if block.labels:
            cells[0] = inline(block.labels[j])
        body.append(" & ".join(cells) + r" \\")
    tabular = (
        f"\\begin{{tabular}}{{@{{}}{align}@{{}}}}\n\\toprule\n"
        + "\n".join(body)
        + "\n\\bottomrule\n\\end{tabular}"
    )
    note_tex = inline(_pieces(table.note if note is None else note))
    if table.passed is False:
        note_tex += (" " if note_tex else "") + r"\textbf{(check FAILED)}"
    caption_tex = inline(_pieces(caption))
    if height > 24 and caption_tex:
        # A tall table of text with a caption floats, so that the page before it fills with the
        # text after; one without (the appendix's, under their headings) stays in place.
        return (
            "\\begin{table}[htbp]\\centering\\footnotesize\n"
            + (f"\\textit{{{caption_tex}}}\\\\[3pt]\n" if caption_tex else "")
            + tabular
            + (f"\\\\[2pt]\n{note_tex}" if note_tex else "")
            + "\n\\end{table}"
        )
    if height > LONG_TABLE_LINES and not caption_tex:
        # Taller than a page (an appendix table of many parts): a longtable breaks between rows
        # and repeats its header, where a minipage would run off the page's foot.
        head = body[0]
        return (
            "{\\footnotesize\\setlength{\\LTpre}{6pt}\\setlength{\\LTpost}{6pt}\n"
            f"\\begin{{longtable}}{{@{{}}{align}@{{}}}}\n\\toprule\n{head}\n\\midrule\n\\endhead\n"
            "\\bottomrule\n\\endlastfoot\n"
            + "\n".join(body[2:])
            + "\n\\end{longtable}"
            + (f"\n{note_tex}" if note_tex else "")
            + "}"
        )
    size = "\\footnotesize" if wrapped else "\\small"
    # A minipage keeps the caption, the table and its note on one page.
    return (
        f"\\begin{{center}}{size}\\begin{{minipage}}{{\\linewidth}}\\centering\n"
        + (f"\\textit{{{caption_tex}}}\\\\[3pt]\n" if caption_tex else "")
        + tabular
        + (f"\\\\[2pt]\n{{\\footnotesize {note_tex}}}" if note_tex else "")
        + "\n\\end{minipage}\\end{center}"
    )


def column_shares(rows: Sequence[Sequence[str]], n: int) -> list[float]:
    """Each column's share of a table's width: its cells' mean length, no share below 0.2 (or
    half an equal share, for more than two and a half columns).

    >>> column_shares([["$d$", "the width of one attention head"]], 2)
    [0.2, 0.8]
    >>> column_shares([["ab", "cd"]], 2)
    [0.5, 0.5]
    """
    mean = [sum(len(row[j]) for row in rows) / max(len(rows), 1) + 1 for j in range(n)]
    floor = min(0.2, 1 / (2 * n))
    narrow = [m / sum(mean) < floor for m in mean]
    rest = sum(m for m, small in zip(mean, narrow, strict=True) if not small)
    room = 1 - floor * sum(narrow)
    return [
        floor if small else round(room * m / rest, 3) for m, small in zip(mean, narrow, strict=True)
    ]


# A prose table of more rows than this may break across pages (a longtable, its header repeated),
# so that a long one (module 11's notation) neither runs off its page nor leaves the page before
# it half empty.
LONG_PROSE_TABLE = 10


def prose_table_tex(block: ProseTable) -> str:
    """A table of prose: columns of equal share of the line, ragged right, small type."""
    n = len(block.header)
    # The columns and the space between them fill the line, and no more; each column's share
    # follows the length of its cells (a column of symbols is narrower than one of meanings).
    shares = column_shares([[inline(c) for c in row] for row in block.rows], n)
    spec = "".join(
        f">{{\\raggedright\\arraybackslash}}p{{{share:.3f}\\dimexpr\\linewidth-{2 * (n - 1)}\\tabcolsep\\relax}}"
        for share in shares
    )
    rows = [" & ".join(rf"\textbf{{{inline(h)}}}" for h in block.header) + r" \\", r"\midrule"]
    body = [" & ".join(inline(c) for c in row) + r" \\" for row in block.rows]
    if len(block.rows) > LONG_PROSE_TABLE:
        return (
            "\\nopagebreak[4]{\\small\\setlength{\\LTpre}{6pt}\\setlength{\\LTpost}{6pt}\n"
            f"\\begin{{longtable}}{{@{{}}{spec}@{{}}}}\n\\toprule\n"
            + "\n".join(rows)
            + "\n\\endhead\n\\bottomrule\n\\endlastfoot\n"
            + "\n".join(body)
            + "\n\\end{longtable}}"
        )
    rows += body
    # The sentence that introduces the table stays on its page.
    return (
        "\\nopagebreak[4]\\begin{center}\\small\n"
        f"\\begin{{tabular}}{{@{{}}{spec}@{{}}}}\n\\toprule\n"
        + "\n".join(rows)
        + "\n\\bottomrule\n\\end{tabular}\n\\end{center}"
    )


def with_lead(rows: list[str], lead: sp.Basic | None) -> list[str]:
    """The chain's rows with its lead before the first ("‖v‖² &= vᵀv"), or on a row of its own
    when the two would not fit on one line (ending in \\\\*: no page break after it)."""
    if lead is None:
        return rows
    first = rows[0].replace("& ", "&= ", 1)
    budget = SIDE_BUDGET if any("&&" in row for row in rows) else 0.9 * FULL_BUDGET
    if tex_width(f"{math(lead)} {first}") > budget:
        return [f"& {math(lead)} \\\\*", first, *rows[1:]]
    return [f"{math(lead)} {first}", *rows[1:]]


SHORT_CHAIN = 3


def chain_tex(block: Chain) -> str:
    rows = with_lead(derivation_rows(block.derivation, names=NAMES), block.lead)
    # A lead on its own row ends in \\* and stays on the page of what follows it; a chain of
    # three rows or fewer is never split across pages (its last line alone on the next).
    end = " \\\\*\n" if len(rows) <= SHORT_CHAIN else " \\\\\n"
    body = end.join(rows).replace("\\\\* \\\\*", "\\\\*").replace("\\\\* \\\\", "\\\\*")
    intro = inline(block.intro) + "\n" if block.intro else ""
    return intro + "\\begin{align*}\n" + body + "\n\\end{align*}"


def equations_tex(
    lines: Sequence[sp.Basic], display: Sequence[tuple[sp.Basic, sp.Basic]] = ()
) -> str:
    """Display math, one formula per line; four or more short ones go two to a line."""
    shown = [math(e, display) for e in lines]
    if len(shown) == 1:
        return f"\\[\n{shown[0]}\n\\]"
    if len(shown) >= 4 and max(tex_width(t) for t in shown) < 200:
        shown = [r" \qquad ".join(shown[j : j + 2]) for j in range(0, len(shown), 2)]
    return "\\begin{gather*}\n" + " \\\\\n".join(shown) + "\n\\end{gather*}"


block_tex = block_printer("block_tex")
block_tex.__doc__ = """One block of the lesson in LaTeX, its figures' files named as options say
(block_tex(block, options)); an empty string for a block the PDF does not show."""


@block_tex.register
def _(block: Heading, options: RenderOptions) -> str:
    command = {1: "section", 2: "subsection", 3: "subsection*"}[block.level]
    return f"\\{command}{{{inline(block.text, pdf_string=True)}}}"


@block_tex.register
def _(block: Para, options: RenderOptions) -> str:
    return inline(block.pieces)


@block_tex.register
def _(block: Quote, options: RenderOptions) -> str:
    return f"\\begin{{quote}}\\itshape ``{inline(block.pieces)}''\\end{{quote}}"


@block_tex.register
def _(block: Equations, options: RenderOptions) -> str:
    return equations_tex(block.lines, block.display)


@block_tex.register
def _(block: Chain, options: RenderOptions) -> str:
    return chain_tex(block)


@block_tex.register
def _(block: TheoremStatement, options: RenderOptions) -> str:
    body = inline(block.pieces)
    if block.formulas:
        body += "\n" + equations_tex(block.formulas, block.display)
    return (
        "\\FloatBarrier\n"
        f"\\begin{{theorem}}[{tex_text(block.title)}]\\label{{{block.label}}}\n"
        f"{body}\n\\end{{theorem}}"
    )


@block_tex.register
def _(block: ProofEnd, options: RenderOptions) -> str:
    return r"\vspace{-0.5\baselineskip}\hfill$\square$"


@block_tex.register
def _(block: TableBlock, options: RenderOptions) -> str:
    return table_tex(block)


@block_tex.register
def _(block: ProseTable, options: RenderOptions) -> str:
    return prose_table_tex(block)


@block_tex.register
def _(block: Solution, options: RenderOptions) -> str:
    return "\n\n".join(t for t in (block_tex(b, options) for b in solution_blocks(block)) if t)


@block_tex.register
def _(block: Figure, options: RenderOptions) -> str:
    file = block.stem + options.figure_suffix("LaTeX", FIGURE_FORMATS)
    return (
        "\\begin{figure}[htbp]\n\\centering\n"
        f"\\includegraphics[width={block.width}\\linewidth]{{{file}}}\n"
        f"\\caption{{{inline(block.caption)}}}\\label{{{block.label}}}\n\\end{{figure}}"
    )


def mostly_code(items: Sequence[Sequence[Piece]]) -> bool:
    """Whether code (Mono) makes up most of a list's text.

    >>> mostly_code([("read as ", Mono("L = 1000; m_max = 1000; base = 4300"), ": holds")])
    True
    >>> mostly_code([("Permute ", Mono("W_k"), " with the number of key heads")])
    False
    """
    code = sum(len(p.text) for item in items for p in item if isinstance(p, Mono))
    text = sum(len(p) for item in items for p in item if isinstance(p, str))
    return code > text


@block_tex.register
def _(block: Items, options: RenderOptions) -> str:
    env = "enumerate" if block.numbered else "itemize"
    items = "\n".join(f"\\item {inline(item)}" for item in block.items)
    listed = f"\\begin{{{env}}}\n{items}\n\\end{{{env}}}"
    # A fixed-width font's spaces do not stretch, so justified lines of code overrun the margin:
    # a list that is mostly code is set ragged right.
    return f"{{\\raggedright\n{listed}\\par}}" if mostly_code(block.items) else listed


@block_tex.register
def _(block: Listing, options: RenderOptions) -> str:
    intro = f"{inline(block.intro)}\n" if block.intro else ""
    # A minipage keeps the code, and its output, each on one page.
    return (
        intro
        + "\n\\noindent\\begin{minipage}{\\linewidth}\\footnotesize\n\\begin{verbatim}\n"
        + block.source
        + "\n\\end{verbatim}\n\\end{minipage}\n\n\\noindent\\textit{Output:}\n\n"
        + "\\noindent\\begin{minipage}{\\linewidth}\\footnotesize\n\\begin{verbatim}\n"
        + block.output
        + "\n\\end{verbatim}\n\\end{minipage}"
    )


@block_tex.register(AppendixStart)
@block_tex.register(Code)
@block_tex.register(Exercise)
@block_tex.register(NotebookOnly)
def _(block: Block, options: RenderOptions) -> str:
    return ""  # the appendix starts at its section's title; code is the notebook's


PREAMBLE = r"""\documentclass[FONTSIZE]{article}
\usepackage[margin=MARGIN]{geometry}
\usepackage{amsmath,amssymb,amsthm}
\allowdisplaybreaks
\usepackage{booktabs,array,longtable}
\usepackage{graphicx}
\usepackage{microtype}
\usepackage[skip=4pt,font=small]{caption}
\usepackage[hidelinks]{hyperref}
% A figure never lands inside a proof: one that waits (for room) is set out before the next
% theorem starts (\FloatBarrier), and none floats above the text it follows (flafter), so none
% is set at the top of a page a proof runs onto. The barrier ends the page (\newpage, not
% placeins' \clearpage): the waiting figure heads the next page with the theorem below it,
% instead of a page of its own.
\usepackage{flafter}
\makeatletter
\newcommand\FloatBarrier{\par\begingroup\let\@elt\relax
  \edef\@tempa{\@botlist\@deferlist\@dbldeferlist}%
  \ifx\@tempa\@empty\endgroup\else\endgroup\newpage\fi}
\makeatother
\newtheorem{theorem}{Theorem}
\setlength{\parskip}{PARSKIP\baselineskip}
\setlength{\parindent}{0pt}
\setlength{\emergencystretch}{1.5em}
\renewcommand{\topfraction}{0.9}
\renewcommand{\textfraction}{0.1}
\setlength{\textfloatsep}{10pt plus 2pt minus 2pt}
\setlength{\intextsep}{8pt plus 2pt minus 2pt}
\urlstyle{same}
\setcounter{tocdepth}{1}
% The contents fit one page: section entries set like dotted subsection entries, no skip between.
\makeatletter
\renewcommand*\l@section[2]{\@dottedtocline{1}{0pt}{1.8em}{#1}{#2}}
\makeatother
"""

# The student version is set tighter so it fits in eight pages.
COMPACT = r"""\makeatletter
\renewcommand\section{\@startsection{section}{1}{\z@}{-2ex plus -1ex minus -.2ex}{0.8ex plus .2ex}{\normalfont\large\bfseries}}
\renewcommand\subsection{\@startsection{subsection}{2}{\z@}{-1.5ex plus -.5ex minus -.2ex}{0.5ex plus .2ex}{\normalfont\normalsize\bfseries}}
\makeatother
"""


def lesson_tex(lesson: Lesson) -> str:
    """The lesson as one LaTeX document; figures are \\includegraphics of STEM.pdf (or the
    format the lesson's options name). The student edition gathers its answers in an answer key
    (lesson_editions)."""
    options = lesson.options
    options.figure_suffix("LaTeX", FIGURE_FORMATS)  # a format it cannot show fails first
    brief = options.brief
    if lesson.student:
        lesson = with_answer_key(lesson)
    preamble = (
        PREAMBLE.replace("FONTSIZE", "10pt" if brief else "11pt")
        .replace("MARGIN", "1.6cm" if brief else "2cm")
        .replace("PARSKIP", "0.25" if brief else "0.4")
    ) + (COMPACT if brief else "")
    title, subtitle = tex_text(lesson.title), tex_text(lesson.subtitle)
    out = [
        preamble + f"\\hypersetup{{pdftitle={{{title}}},pdfsubject={{{subtitle}}}}}\n"
        f"\\title{{{title}\\\\[4pt]\\large {subtitle}}}\n\\author{{}}\n\\date{{}}\n"
        "\\begin{document}\n\\maketitle" + ("\\vspace{-2em}" if brief else "\n\\tableofcontents")
    ]
    for section in lesson.sections:
        if section.blocks and isinstance(section.blocks[0], AppendixStart):
            out.append("\\appendix\n\\sloppy")
        out.append(f"\\section{{{tex_text(section.title)}}}\\label{{sec:{section.name}}}")
        out += [t for t in (block_tex(b, options) for b in section.blocks) if t]
    out.append("\\end{document}\n")
    return "\n\n".join(out)
