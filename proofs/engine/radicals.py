"""Radicals of one positive rational base as powers of one symbol: 10**(2/7) as t**2, t = 10**(1/7).

SymPy takes 10**(1/7) and 10**(2/7) for unrelated numbers, and multiplies, differentiates and
cancels expressions in them slowly; as powers of one symbol t they are polynomials. Exact:
(b**(1/L))**m = b**(m/L) for a positive b, so putting t back gives the same value.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import sympy as sp


def radicals_as_powers(
    exprs: Iterable[sp.Expr],
) -> tuple[dict[sp.Expr, sp.Expr], dict[sp.Symbol, sp.Expr]]:
    """(radicals, back): every b**(p/q) of a positive rational b in exprs written as t**(p·L/q),
    one positive symbol t per base with L the least common denominator, and t -> b**(1/L)."""
    powers: dict[sp.Rational, list[sp.Pow]] = {}
    for e in exprs:
        for p in e.atoms(sp.Pow):
            if p.base.is_Rational and p.base > 0 and p.exp.is_Rational and not p.exp.is_Integer:
                powers.setdefault(p.base, []).append(p)
    radicals, back = {}, {}
    for base, pows in powers.items():
        lcm = math.lcm(*(p.exp.q for p in pows))
        t = sp.Dummy(f"t{base}", positive=True)
        radicals.update({p: t ** (p.exp * lcm) for p in pows})
        back[t] = base ** sp.Rational(1, lcm)
    return radicals, back
