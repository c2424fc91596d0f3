"""Floats at their exact binary value: the engine's one policy for SymPy Floats.

A SymPy Float is a binary number: Float(0.1) is 3602879701896397/36028797018963968, not 1/10.
Every claim is checked with each Float replaced by that exact rational, and a verdict on a claim
that contains a Float says so.
"""

from __future__ import annotations

import sympy as sp

from proofs.engine.rules.rule import rebuild
from proofs.engine.show import show


def exact_floats(expr: sp.Basic) -> sp.Basic:
    """expr with every finite Float replaced by the exact rational it stands for."""
    floats = [f for f in expr.atoms(sp.Float) if f.is_finite]
    if not floats:
        return expr
    return expr.xreplace({f: sp.Rational(f) for f in floats})


def exact_floats_as_written(expr: sp.Basic) -> sp.Basic:
    """expr with every finite Float replaced by its exact rational, every node on the way
    rebuilt without evaluation: what a cited rule is given, so that it does its own work only.

    >>> x = sp.Symbol("x")
    >>> exact_floats_as_written(sp.Mul(sp.Add(1, sp.Float(0.5), evaluate=False), x, evaluate=False))
    x*(1/2 + 1)
    """

    def walk(e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.Float):
            return sp.Rational(e) if e.is_finite else e
        if isinstance(e, sp.MatrixBase):
            rows, cols = e.shape
            return sp.ImmutableMatrix(rows, cols, [walk(x) for x in e])
        if not e.args or not e.has(sp.Float):
            return e
        return rebuild(e, tuple(walk(a) for a in e.args))

    return walk(expr)


def float_note(*exprs: sp.Basic) -> str:
    """The sentence a verdict adds when the claim contains Floats, or ""."""
    floats = sorted(set().union(*(e.atoms(sp.Float) for e in exprs)), key=sp.default_sort_key)
    if not floats:
        return ""
    shown = ", ".join(f"{show(f)} = {show(sp.Rational(f))}" for f in floats[:3])
    more = ", ..." if len(floats) > 3 else ""
    return f" (Floats taken at their exact binary value: {shown}{more})"
