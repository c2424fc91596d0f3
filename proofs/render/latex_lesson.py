"""The lesson in LaTeX: one main.tex with the sections, theorems, chains, tables and figures."""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from numeric.table import Table, format_cell
from proofs.render.latex_chains import derivation_rows
from proofs.render.latex_math import latex_math
from proofs.render.latex_tables import _cell_tex, is_number
from proofs.render.lesson import NAMES, SUBTITLE
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
    Para,
    Piece,
    ProofEnd,
    Quote,
    Ref,
    TableBlock,
    TheoremStatement,
)
from proofs.render.tex_prose import tex_text


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
        else:
            tex = f"${math(piece)}$"
            out.append(rf"\texorpdfstring{{{tex}}}{{{piece}}}" if pdf_string else tex)
    return "".join(out)


def table_tex(table: Table, caption: str) -> str:
    """A live table: its caption in words, the booktabs tabular, and its note."""
    specs = table.formats or ("",) * len(table.columns)
    align = "".join(
        "r" if table.rows and all(is_number(r[c]) or r[c] is None for r in table.rows) else "l"
        for c in range(len(table.columns))
    )
    body = [" & ".join(tex_text(c) for c in table.columns) + r" \\", r"\midrule"]
    body += [
        " & ".join(_cell_tex(cell, spec) for cell, spec in zip(row, specs, strict=True)) + r" \\"
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
    note = tex_text(table.note) if table.note else ""
    if table.passed is not None:
        note += (" " if note else "") + (
            "(check passed)" if table.passed else r"\textbf{(check FAILED)}"
        )
    return (
        "\\begin{center}\\small\n"
        f"\\textit{{{tex_text(caption)}}}\\\\[3pt]\n{tabular}"
        + (f"\\\\[2pt]\n{{\\footnotesize {note}}}" if note else "")
        + "\n\\end{center}"
    )


def chain_tex(block: Chain) -> str:
    rows = derivation_rows(block.derivation)
    intro = inline(block.intro) + "\n" if block.intro else ""
    return intro + "\\begin{align*}\n" + " \\\\\n".join(rows) + "\n\\end{align*}"


def equations_tex(
    lines: Sequence[sp.Basic], display: Sequence[tuple[sp.Basic, sp.Basic]] = ()
) -> str:
    if len(lines) == 1:
        return f"\\[\n{math(lines[0], display)}\n\\]"
    return (
        "\\begin{gather*}\n" + " \\\\\n".join(math(e, display) for e in lines) + "\n\\end{gather*}"
    )


def block_tex(block: Block, figure_suffix: str) -> str:
    """One block of the lesson in LaTeX."""
    if isinstance(block, Heading):
        command = "subsection" if block.level == 2 else "section"
        return f"\\{command}{{{inline(block.text, pdf_string=True)}}}"
    if isinstance(block, Para):
        return inline(block.pieces)
    if isinstance(block, Quote):
        return f"\\begin{{quote}}\\itshape ``{tex_text(block.text)}''\\end{{quote}}"
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
        return table_tex(block.table, block.caption)
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


PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage[margin=2.2cm]{geometry}
\usepackage{amsmath,amssymb,amsthm}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage[T1]{fontenc}
\usepackage{lmodern}
\usepackage{microtype}
\usepackage[hidelinks]{hyperref}
\newtheorem{theorem}{Theorem}
\allowdisplaybreaks
\setlength{\parskip}{0.4\baselineskip}
\setlength{\parindent}{0pt}
\renewcommand{\topfraction}{0.9}
\renewcommand{\textfraction}{0.1}
"""


def lesson_tex(lesson: Lesson, *, brief: bool, figure_suffix: str = ".pdf") -> str:
    """The lesson as one LaTeX document; figures are \\includegraphics of STEM+figure_suffix."""
    title = lesson.title + (" (student version)" if brief else "")
    out = [
        PREAMBLE
        + f"\\hypersetup{{pdftitle={{{tex_text(title)}}},pdfsubject={{{tex_text(SUBTITLE)}}}}}\n"
        f"\\title{{{tex_text(title)}\\\\[4pt]\\large {tex_text(SUBTITLE)}}}\n\\date{{}}\n"
        "\\begin{document}\n\\maketitle" + ("\\vspace{-2em}" if brief else "\n\\tableofcontents")
    ]
    for section in lesson.sections:
        if section.blocks and isinstance(section.blocks[0], AppendixStart):
            out.append("\\appendix")
        out.append(f"\\section{{{tex_text(section.title)}}}\\label{{sec:{section.name}}}")
        out += [t for t in (block_tex(b, figure_suffix) for b in section.blocks) if t]
    out.append("\\end{document}\n")
    return "\n\n".join(out)
