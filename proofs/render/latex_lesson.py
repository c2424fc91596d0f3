"""The lesson in LaTeX: one main.tex with the sections, theorems, chains, tables and figures."""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from numeric.result_table import Table, format_cell
from proofs.render.latex_chains import derivation_rows
from proofs.render.latex_math import latex_math
from proofs.render.latex_tables import cell_tex, is_number
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
    TableBlock,
    TheoremStatement,
)
from proofs.render.lesson_parts import NAMES, SUBTITLE
from proofs.render.tex_prose import tex_text
from proofs.render.tex_width import tex_width


def math(expr: sp.Basic, display: Sequence[tuple[sp.Basic, sp.Basic]] = ()) -> str:
    """expr set by the notes' printer with the lesson's names."""
    return latex_math(expr, tuple(display), NAMES)


def inline(pieces: Sequence[Piece], *, pdf_string: bool = False) -> str:
    """Prose and inline math; pdf_string: math wrapped for PDF bookmarks (\\texorpdfstring)."""
    out = []
    for piece in pieces:
        if isinstance(piece, str):
            out.append(tex_text(piece))
        elif isinstance(piece, Ref):
            out.append(f"{piece.kind}~\\ref{{{piece.label}}}")
        elif isinstance(piece, Emph):
            out.append(rf"\emph{{{tex_text(piece.text)}}}")
        elif isinstance(piece, Link):
            out.append(rf"\url{{{piece.url}}}")
        else:
            tex = f"${math(piece)}$"
            plain = str(piece).replace("_", " ")
            out.append(rf"\texorpdfstring{{{tex}}}{{{plain}}}" if pdf_string else tex)
    return "".join(out)


def table_tex(table: Table, caption: str | Sequence[Piece], note: str | None = None) -> str:
    """A live table: its caption in words, the booktabs tabular, and its note."""
    specs = table.formats or ("",) * len(table.columns)
    align = "".join(
        "r" if table.rows and all(is_number(r[c]) or r[c] is None for r in table.rows) else "l"
        for c in range(len(table.columns))
    )
    body = [" & ".join(tex_text(c) for c in table.columns) + r" \\", r"\midrule"]
    body += [
        " & ".join(cell_tex(cell, spec) for cell, spec in zip(row, specs, strict=True)) + r" \\"
        for row in table.rows
    ]
    tabular = (
        f"\\begin{{tabular}}{{{align}}}\n\\toprule\n"
        + "\n".join(body)
        + "\n\\bottomrule\n\\end{tabular}"
    )
    chars = sum(
        max([len(c), *(len(format_cell(r[j], specs[j])) for r in table.rows)]) + 2
        for j, c in enumerate(table.columns)
    )
    if chars > 80:
        tabular = "\\resizebox{\\linewidth}{!}{%\n" + tabular + "}"
    note = tex_text(table.note if note is None else note)
    if table.passed is not None:
        note += (" " if note else "") + (
            "(check passed)" if table.passed else r"\textbf{(check FAILED)}"
        )
    # A minipage keeps the caption, the table and its note on one page.
    return (
        "\\begin{center}\\small\\begin{minipage}{\\linewidth}\\centering\n"
        f"\\textit{{{inline((caption,) if isinstance(caption, str) else caption)}}}\\\\[3pt]\n{tabular}"
        + (f"\\\\[2pt]\n{{\\footnotesize {note}}}" if note else "")
        + "\n\\end{minipage}\\end{center}"
    )


def chain_tex(block: Chain) -> str:
    rows = derivation_rows(block.derivation)
    intro = inline(block.intro) + "\n" if block.intro else ""
    return intro + "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}"


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


def block_tex(block: Block, figure_suffix: str) -> str:
    """One block of the lesson in LaTeX."""
    if isinstance(block, Heading):
        command = {1: "section", 2: "subsection", 3: "subsection*"}[block.level]
        return f"\\{command}{{{inline(block.text, pdf_string=True)}}}"
    if isinstance(block, Para):
        return inline(block.pieces)
    if isinstance(block, Quote):
        return f"\\begin{{quote}}\\itshape ``{inline(block.pieces)}''\\end{{quote}}"
    if isinstance(block, Equations):
        return equations_tex(block.lines, block.display)
    if isinstance(block, Chain):
        return chain_tex(block)
    if isinstance(block, TheoremStatement):
        body = inline(block.pieces)
        if block.formulas:
            body += "\n" + equations_tex(block.formulas, block.display)
        return (
            f"\\begin{{theorem}}[{tex_text(block.title)}]\\label{{{block.label}}}\n"
            f"{body}\n\\end{{theorem}}"
        )
    if isinstance(block, ProofEnd):
        return r"\vspace{-0.5\baselineskip}\hfill$\square$"
    if isinstance(block, TableBlock):
        return table_tex(block.table, block.caption, block.note)
    if isinstance(block, Figure):
        return (
            "\\begin{figure}[htbp]\n\\centering\n"
            f"\\includegraphics[width={block.width}\\linewidth]{{{block.stem}{figure_suffix}}}\n"
            f"\\caption{{{inline(block.caption)}}}\\label{{{block.label}}}\n\\end{{figure}}"
        )
    if isinstance(block, Items):
        env = "enumerate" if block.numbered else "itemize"
        items = "\n".join(f"\\item {inline(item)}" for item in block.items)
        return f"\\begin{{{env}}}\n{items}\n\\end{{{env}}}"
    if isinstance(block, AppendixStart | Code):
        return ""
    raise TypeError(f"cannot print a block of type {type(block).__name__}")


PREAMBLE = r"""\documentclass[FONTSIZE]{article}
\usepackage[margin=MARGIN]{geometry}
\usepackage{amsmath,amssymb,amsthm}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{microtype}
\usepackage[skip=4pt,font=small]{caption}
\usepackage[hidelinks]{hyperref}
\newtheorem{theorem}{Theorem}
\setlength{\parskip}{PARSKIP\baselineskip}
\setlength{\parindent}{0pt}
\renewcommand{\topfraction}{0.9}
\renewcommand{\textfraction}{0.1}
\setlength{\textfloatsep}{10pt plus 2pt minus 2pt}
\setlength{\intextsep}{8pt plus 2pt minus 2pt}
\urlstyle{same}
"""

# The student version is set tighter so it fits in eight pages.
COMPACT = r"""\makeatletter
\renewcommand\section{\@startsection{section}{1}{\z@}{-2ex plus -1ex minus -.2ex}{0.8ex plus .2ex}{\normalfont\large\bfseries}}
\renewcommand\subsection{\@startsection{subsection}{2}{\z@}{-1.5ex plus -.5ex minus -.2ex}{0.5ex plus .2ex}{\normalfont\normalsize\bfseries}}
\makeatother
"""


def lesson_tex(lesson: Lesson, *, brief: bool, figure_suffix: str = ".pdf") -> str:
    """The lesson as one LaTeX document; figures are \\includegraphics of STEM+figure_suffix."""
    title = lesson.title + (" (student version)" if brief else "")
    preamble = (
        PREAMBLE.replace("FONTSIZE", "10pt" if brief else "11pt")
        .replace("MARGIN", "1.6cm" if brief else "2.2cm")
        .replace("PARSKIP", "0.25" if brief else "0.4")
    ) + (COMPACT if brief else "")
    out = [
        preamble
        + f"\\hypersetup{{pdftitle={{{tex_text(title)}}},pdfsubject={{{tex_text(SUBTITLE)}}}}}\n"
        f"\\title{{{tex_text(title)}\\\\[4pt]\\large {tex_text(SUBTITLE)}}}\n\\author{{}}\n\\date{{}}\n"
        "\\begin{document}\n\\maketitle" + ("\\vspace{-2em}" if brief else "\n\\tableofcontents")
    ]
    for section in lesson.sections:
        if section.blocks and isinstance(section.blocks[0], AppendixStart):
            out.append("\\appendix\n\\sloppy")
        out.append(f"\\section{{{tex_text(section.title)}}}\\label{{sec:{section.name}}}")
        out += [t for t in (block_tex(b, figure_suffix) for b in section.blocks) if t]
    out.append("\\end{document}\n")
    return "\n\n".join(out)
