"""Whole LaTeX documents: a theorem's section, the notes' main.tex, standalone fragments."""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp

from numeric.table import Table
from proofs.engine.derivation import Derivation
from proofs.engine.theorem import TheoremResult
from proofs.render.latex_chains import aligned_block, formula_math, part_tex, theorem_display
from proofs.render.latex_math import latex_math
from proofs.render.latex_tables import table_tex
from proofs.render.tex_prose import tex_text


def theorem_tex(
    result: TheoremResult,
    table: Table | None,
    *,
    figure: str | None = None,
    label: str | None = None,
    skipped: str = "",
) -> str:
    """The body of one theorem: statement, key formulas, parts, remarks, table and figure.

    figure: the file name of a PNG beside the .tex file, or None. skipped: why the theorem's
    figure could not be drawn (one line in the notes), or "".
    """
    th = result.theorem
    out = [rf"\section{{{tex_text(th.title)}}}\label{{{label or 'thm:' + th.name}}}"]
    out.append(
        rf"\noindent\textbf{{Theorem ({tex_text(th.name)}).}} \emph{{{tex_text(th.statement)}}}"
    )
    if th.formulas:
        out.append(
            "\\begin{gather*}\n"
            + " \\\\\n".join(formula_math(f) for f in th.formulas)
            + "\n\\end{gather*}"
        )
    out.append(r"\subsection*{Proof}")
    for number, pr in enumerate(result.parts, 1):
        out.append(part_tex(pr.part, pr.verdict, number, theorem_display(result)))
    counts = sum(pr.verdict.status == "proved" for pr in result.parts)
    out.append(
        rf"\medskip\noindent\textbf{{Status: {result.status}}} ({counts} of {len(result.parts)} parts proved).\hfill$\square$"
    )
    if th.remarks:
        out.append(r"\subsection*{Remarks}")
        out += [tex_text(r) for r in th.remarks]
    if table is not None:
        out.append(r"\subsection*{Numeric cross-check}")
        out.append(rf"Computed independently with NumPy by \texttt{{{tex_text(th.twin)}}}.")
        out.append(table_tex(table))
    if figure is not None:
        out.append(
            "\\begin{center}\n"
            rf"\includegraphics[width=0.8\linewidth]{{{figure}}}"
            "\n\\end{center}"
        )
    elif skipped:
        out.append(rf"\noindent\textit{{Figure skipped: {tex_text(skipped)}.}}")
    return "\n\n".join(out) + "\n"


PREAMBLE = r"""\documentclass[11pt]{article}
\usepackage[margin=2cm]{geometry}
\usepackage{amsmath,amssymb}
\usepackage{booktabs}
\usepackage{graphicx}
\usepackage{microtype}
\usepackage[hidelinks]{hyperref}
\allowdisplaybreaks
\setlength{\parskip}{0.5\baselineskip}
\setlength{\parindent}{0pt}
"""

# Set by main.tex; a fragment compiled on its own adds its own preamble and \end{document}.
MAIN_FLAG = r"\PEnotesMain"


def standalone_fragment(body: str) -> str:
    """body wrapped so the file compiles on its own and can still be \\input by main.tex."""
    head = (
        f"\\ifx{MAIN_FLAG}\\undefined\n{PREAMBLE}"
        "\\def\\PEnotesBegin{\\begin{document}}\\def\\PEnotesEnd{\\end{document}}\n"
        "\\else\n\\let\\PEnotesBegin\\relax\\let\\PEnotesEnd\\relax\n\\fi\n\\PEnotesBegin\n"
    )
    return head + body + "\\PEnotesEnd\n"


def inline_tex(pieces: Sequence[str | sp.Basic]) -> str:
    """A paragraph of prose pieces and SymPy expressions (set as inline math)."""
    return "".join(tex_text(p) if isinstance(p, str) else f"${latex_math(p)}$" for p in pieces)


def main_document(title: str, intro: Sequence[str], fragments: Sequence[str]) -> str:
    """main.tex: title, introduction paragraphs, then one \\input per theorem fragment."""
    inputs = "\n".join(f"\\input{{{name}}}" for name in fragments)
    paragraphs = "\n\n".join(intro)
    return (
        f"\\def{MAIN_FLAG}{{}}\n{PREAMBLE}"
        f"\\title{{{tex_text(title)}}}\n\\author{{pe-proofs}}\n\\date{{}}\n"
        "\\begin{document}\n\\maketitle\n\n"
        f"{paragraphs}\n\n{inputs}\n\\end{{document}}\n"
    )


def result_latex(result: TheoremResult) -> str:
    """A checked theorem for Jupyter: each derivation as display math (MathJax-safe)."""
    return "\n".join(
        aligned_block(pr.part) for pr in result.parts if isinstance(pr.part, Derivation)
    )
