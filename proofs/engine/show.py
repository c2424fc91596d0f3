"""Expressions as one line of text, whatever the size of the numbers in them.

Python refuses to print an int of more than 4300 digits (sys.get_int_max_str_digits); SymPy's
printer then raises ValueError. Here such a number is shown by its size instead.
"""

from __future__ import annotations

import math
import sys

import sympy as sp

_LIMIT = sys.get_int_max_str_digits() or 4300


def show(expr: object) -> str:
    """expr in SymPy's string form, with any integer too long to print shown as <N digits>."""
    try:
        return sp.sstr(expr)
    except ValueError:
        pass
    if not isinstance(expr, sp.Basic):
        return f"<{type(expr).__name__}>"
    big = {}
    for r in expr.atoms(sp.Rational):
        if _digits(r.p) > _LIMIT // 2 or _digits(r.q) > _LIMIT // 2:
            sign = "-" if r < 0 else ""
            text = f"{sign}<{_digits(r.p)}-digit integer>"
            if r.q != 1:
                text += f"/<{_digits(r.q)}-digit integer>"
            big[r] = sp.Symbol(text)
    return sp.sstr(expr.xreplace(big))


def _digits(n: int) -> int:
    n = abs(int(n))
    return 1 if n == 0 else int(n.bit_length() * math.log10(2)) + 1
