"""Functions of pos written over pos^n·e^{λ·pos}: the normal form behind the shift decision.

Sums and products of polynomials in pos, exp(c·pos), sin(c·pos), cos(c·pos) (and sinh, cosh,
a**(c·pos)) are rewritten as {(n, λ): coefficient}. Functions with distinct (n, λ) are linearly
independent over ℂ on the real line, so two such sums are equal iff their coefficients match.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import sympy as sp

from proofs.engine.zero_test import is_zero

# (n, λ) -> coefficient of pos^n·e^{λ·pos}
ExpPoly = dict[tuple[int, sp.Expr], sp.Expr]


class UnsupportedTermError(Exception):
    """A sub-expression depending on pos that is not in the supported class."""

    def __init__(self, term: sp.Expr) -> None:
        super().__init__(str(term))
        self.term = term


# ---- step 1: rewrite over pos^n·e^{λ·pos} ---------------------------------------------------


def _linear_in(arg: sp.Expr, x: sp.Symbol, whole: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """(a, b) with arg = a·x + b, a and b free of x; UnsupportedTermError otherwise."""
    a = sp.diff(arg, x)
    if a.has(x):
        raise UnsupportedTermError(whole)
    b = sp.expand(arg - a * x)
    if b.has(x):
        raise UnsupportedTermError(whole)
    return sp.expand(a), b


def _add(p: ExpPoly, q: ExpPoly) -> ExpPoly:
    out = dict(p)
    for key, c in q.items():
        out[key] = out.get(key, 0) + c
    return out


def _mul(p: ExpPoly, q: ExpPoly) -> ExpPoly:
    out: ExpPoly = {}
    for (n1, l1), c1 in p.items():
        for (n2, l2), c2 in q.items():
            key = (n1 + n2, sp.expand(l1 + l2))
            out[key] = out.get(key, 0) + c1 * c2
    return out


def _exponentials(
    arg: sp.Expr, x: sp.Symbol, whole: sp.Expr, signs: tuple[tuple[int, sp.Expr], ...]
) -> ExpPoly:
    """Σ weight·e^{s·arg} for (s, weight) in signs, arg linear in x."""
    a, b = _linear_in(arg, x, whole)
    out: ExpPoly = {}
    for s, weight in signs:
        out = _add(out, {(0, sp.expand(s * a)): weight * sp.exp(s * b)})
    return out


def exp_poly(expr: sp.Expr, x: sp.Symbol) -> ExpPoly:
    """expr as {(n, λ): c} meaning Σ c·x^n·e^{λx}; UnsupportedTermError names the first bad term."""
    if not expr.has(x):
        return {(0, sp.Integer(0)): expr}
    if expr == x:
        return {(1, sp.Integer(0)): sp.Integer(1)}
    if isinstance(expr, sp.Add):
        out: ExpPoly = {}
        for arg in expr.args:
            out = _add(out, exp_poly(arg, x))
        return out
    if isinstance(expr, sp.Mul):
        out = {(0, sp.Integer(0)): sp.Integer(1)}
        for arg in expr.args:
            out = _mul(out, exp_poly(arg, x))
        return out
    if isinstance(expr, sp.Pow):
        base, e = expr.args
        if not e.has(x):
            if not (e.is_Integer and e >= 0):
                raise UnsupportedTermError(expr)
            out = {(0, sp.Integer(0)): sp.Integer(1)}
            factor = exp_poly(base, x)
            for _ in range(int(e)):
                out = _mul(out, factor)
            return out
        # a**(c·x + d) = e^{(c·x + d)·log a}, SymPy's own definition of the power.
        if base.has(x) or is_zero(base) is not False:
            raise UnsupportedTermError(expr)
        return _exponentials(e * sp.log(base), x, expr, ((1, sp.Integer(1)),))
    arg = expr.args[0] if len(expr.args) == 1 else None
    half, i2 = sp.Rational(1, 2), 2 * sp.I
    table = {
        sp.exp: ((1, sp.Integer(1)),),
        sp.sin: ((sp.I, 1 / i2), (-sp.I, -1 / i2)),
        sp.cos: ((sp.I, half), (-sp.I, half)),
        sp.sinh: ((1, half), (-1, -half)),
        sp.cosh: ((1, half), (-1, half)),
    }
    if arg is not None and expr.func in table:
        return _exponentials(arg, x, expr, table[expr.func])
    raise UnsupportedTermError(expr)


def _same(a: sp.Expr, b: sp.Expr) -> bool | None:
    """a = b provably (True), a != b provably (False), or unknown (None): the certified test."""
    return is_zero(a - b)


@dataclass(frozen=True)
class Exponents:
    """The distinct exponents λ, merged when provably equal; pairs that might coincide."""

    mapping: dict[sp.Expr, sp.Expr]
    unsure: tuple[tuple[sp.Expr, sp.Expr], ...]

    @staticmethod
    def of(lams: list[sp.Expr]) -> Exponents:
        mapping: dict[sp.Expr, sp.Expr] = {}
        reps: list[sp.Expr] = []
        unsure = []
        for lam in dict.fromkeys(lams):
            verdicts = [(r, _same(lam, r)) for r in reps]
            equal = [r for r, v in verdicts if v]
            if equal:
                mapping[lam] = equal[0]
                continue
            unsure += [(r, lam) for r, v in verdicts if v is None]
            reps.append(lam)
            mapping[lam] = lam
        return Exponents(mapping, tuple(unsure))

    def rep(self, lam: sp.Expr) -> sp.Expr:
        return self.mapping[lam]


def canonical(polys: list[ExpPoly], exps: Exponents) -> list[ExpPoly]:
    out = []
    for p in polys:
        q: ExpPoly = {}
        for (n, lam), c in p.items():
            key = (n, exps.rep(lam))
            q[key] = q.get(key, 0) + c
        out.append({key: sp.expand(c) for key, c in q.items()})
    return out


def shift_poly(p: ExpPoly, k: sp.Expr) -> ExpPoly:
    """The coefficients of f(x + k): c·(x+k)^n·e^{λk}·e^{λx}, binomially expanded."""
    out: ExpPoly = {}
    for (n, lam), c in p.items():
        for m in range(n + 1):
            key = (m, lam)
            out[key] = out.get(key, 0) + c * comb(n, m) * k ** (n - m) * sp.exp(lam * k)
    return {key: sp.expand(c) for key, c in out.items()}
