"""A numeric twin's Table as a booktabs table."""

from __future__ import annotations

import numbers
import re

import numpy as np

from numeric.table import Cell, Table, format_cell
from proofs.render.tex_prose import tex_text


def is_number(cell: Cell) -> bool:
    """True for a numeric table cell (Python or NumPy scalar), False for text and booleans."""
    # NumPy scalars count: a twin may hand over np.int64 or np.float64 cells.
    return isinstance(cell, numbers.Real) and not isinstance(cell, bool | np.bool_)


def _number_tex(text: str) -> str:
    match = re.fullmatch(r"([+-]?\d*\.?\d*)e([+-]?)0*(\d+)", text)
    if match:
        mantissa, sign, exponent = match.groups()
        return rf"${mantissa}\times 10^{{{'-' if sign == '-' else ''}{exponent}}}$"
    return f"${text}$" if re.fullmatch(r"[+-]?[\d.,]+", text) else tex_text(text)


def _cell_tex(cell: Cell, spec: str) -> str:
    if isinstance(cell, bool | np.bool_):
        return r"$\checkmark$" if cell else r"$\times$"
    text = format_cell(cell, spec)
    return _number_tex(text) if is_number(cell) else tex_text(text)


# Tables wider than this many characters are scaled to the text width.
TABLE_CHARS = 78


def table_tex(table: Table) -> str:
    """A numeric Table as a booktabs tabular, with its title above and its note below."""
    specs = table.formats or ("",) * len(table.columns)
    align = "".join(
        "r" if all(is_number(r[c]) or r[c] is None for r in table.rows) and table.rows else "l"
        for c in range(len(table.columns))
    )
    body = [" & ".join(tex_text(c) for c in table.columns) + r" \\", r"\midrule"]
    for row in table.rows:
        body.append(
            " & ".join(_cell_tex(cell, spec) for cell, spec in zip(row, specs, strict=True))
            + r" \\"
        )
    tabular = (
        "\\begin{tabular}{"
        + align
        + "}\n\\toprule\n"
        + "\n".join(body)
        + "\n\\bottomrule\n\\end{tabular}"
    )
    widths = [
        max([len(c), *(len(format_cell(r[j], specs[j])) for r in table.rows)])
        for j, c in enumerate(table.columns)
    ]
    if sum(widths) + 2 * len(widths) > TABLE_CHARS:
        tabular = "\\resizebox{\\linewidth}{!}{%\n" + tabular + "}"
    out = [
        rf"\noindent\textit{{{tex_text(table.title)}}}",
        "\\begin{center}\\small",
        tabular,
        "\\end{center}",
    ]
    if table.note:
        out.append(rf"\noindent{{\small {tex_text(table.note)}}}")
    if table.passed is not None:
        mark = r"$\checkmark$ passed" if table.passed else r"$\times$ failed"
        out.append(rf"\par\noindent{{\small Numeric check: \textbf{{{mark}}}.}}")
    return "\n".join(out)
