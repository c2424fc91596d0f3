"""A numeric twin's Table as a booktabs table."""

from __future__ import annotations

import numbers
import re

import numpy as np

from numeric.result_table import Cell, format_cell
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


def cell_tex(cell: Cell, spec: str) -> str:
    if isinstance(cell, bool | np.bool_):
        return r"$\checkmark$" if cell else r"$\times$"
    text = format_cell(cell, spec)
    tex = _number_tex(text) if is_number(cell) else tex_text(text)
    # After the previous row's \\ a cell starting with [ would be read as \\[<length>].
    return "{}" + tex if tex.startswith("[") else tex
