"""Trees the numeric check builds from a claim, built without SymPy evaluating anything.

SymPy evaluates whenever it builds a node: ``x * exp(acosh(1 + 10**-20))`` becomes ``x``, because
SymPy asks whether acosh(1 + 10**-20) is zero, answers in floating point, and gets it wrong. The
certified numeric check must evaluate the tree a user gave, so the two trees it builds from
that tree are built with ``evaluate=False`` and hold the user's own subtrees:

- ``difference(lhs, rhs)``: lhs − rhs, with the terms common to both sides cancelled exactly
  (``differences`` pairs up a claim's entries, and remembers them: the numeric check asks at
  every sampled point);
- ``carried_out(expr)``: a matrix expression (A·B, A + B, Aᵀ) as an explicit matrix.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import sympy as sp

from proofs.engine.ball_programs import walk

# Constants whose value is not a finite number: terms holding them are never cancelled
# (oo + x = oo is true, and cancelling oo would leave x = 0).
_NOT_FINITE = (sp.oo, -sp.oo, sp.zoo, sp.nan)


def difference(lhs: sp.Expr, rhs: sp.Expr) -> sp.Expr:
    """lhs − rhs as one unevaluated tree, with the terms common to both sides cancelled exactly.

    Both sides are read as sums c₁·t₁ + c₂·t₂ + … with rational cᵢ (nested sums, and a rational
    times a sum, are opened up). Terms t that are the same tree are merged by adding their
    coefficients in exact rational arithmetic, and dropped when the sum is 0. Nothing else is
    rewritten, so the result has exactly the value lhs − rhs at every point, and each term left
    is one of the user's own subtrees. A side holding oo, zoo or nan is not cancelled.

    >>> x = sp.Symbol("x")
    >>> difference(x + 10**400, sp.Integer(10**400))
    x
    >>> sorted(map(str, difference(3 * sp.sin(x) + 1, 2 * sp.sin(x)).args))  # in any order
    ['1', 'sin(x)']
    """
    for _ in walk([lhs, rhs]):  # hash bottom-up: deep trees then hash without recursing
        pass
    if lhs.has(*_NOT_FINITE) or rhs.has(*_NOT_FINITE):
        return sp.Add(lhs, sp.Mul(-1, rhs, evaluate=False), evaluate=False)
    coefficients: dict[sp.Expr, sp.Rational] = {}
    _collect(lhs, sp.Integer(1), coefficients)
    _collect(rhs, sp.Integer(-1), coefficients)
    terms = [_times(c, t) for t, c in coefficients.items() if c != 0]
    if not terms:
        return sp.Integer(0)
    return terms[0] if len(terms) == 1 else sp.Add(*terms, evaluate=False)


def differences(lhs: Sequence[sp.Expr], rhs: Sequence[sp.Expr]) -> tuple[sp.Expr, ...]:
    """difference(a, b) for each pair of entries of lhs and rhs, built once per process.

    The trees are kept with their entries as the key: SymPy's == compares trees node by node,
    symbols with their assumptions and Floats with their precision, so only the same claim finds
    them again.

    >>> x = sp.Symbol("x")
    >>> differences([x + 1, x], [sp.Integer(1), x])
    (x, 0)
    """
    left, right = tuple(lhs), tuple(rhs)
    if len(left) != len(right):
        raise ValueError(f"lhs and rhs must have as many entries, got {len(left)} and {len(right)}")
    try:
        return _differences(left, right)
    except RecursionError:  # a first hash of a deep tree: hash it bottom-up, then ask again
        for _ in walk([*left, *right]):
            pass
        return _differences(left, right)


@lru_cache(maxsize=256)
def _differences(left: tuple[sp.Expr, ...], right: tuple[sp.Expr, ...]) -> tuple[sp.Expr, ...]:
    return tuple(difference(a, b) for a, b in zip(left, right, strict=True))


def _collect(expr: sp.Expr, sign: sp.Rational, into: dict[sp.Expr, sp.Rational]) -> None:
    stack = [(expr, sign)]
    while stack:
        node, c = stack.pop()
        if node.is_Add:
            stack.extend((term, c) for term in reversed(node.args))
            continue
        coefficient, rest = _split(node)
        if rest.is_Add:
            stack.append((rest, c * coefficient))
            continue
        into[rest] = into.get(rest, sp.Integer(0)) + c * coefficient


def _split(term: sp.Expr) -> tuple[sp.Rational, sp.Expr]:
    """(c, t) with term = c·t and c rational, read off the tree without rebuilding it."""
    if term.is_Rational:
        return term, sp.Integer(1)
    if term.is_Mul and len(term.args) > 1 and term.args[0].is_Rational:
        rest = term.args[1:]
        return term.args[0], rest[0] if len(rest) == 1 else sp.Mul(*rest, evaluate=False)
    return sp.Integer(1), term


def _times(c: sp.Rational, term: sp.Expr) -> sp.Expr:
    if term == 1:
        return c
    return term if c == 1 else sp.Mul(c, term, evaluate=False)


def carried_out(expr: sp.Basic) -> sp.Basic:
    """expr with its matrix products, sums and transposes multiplied out, entries unevaluated.

    A scalar comes back as it is. Each entry of A·B is the unevaluated sum of the unevaluated
    products A[i, k]·B[k, j]; other matrix expressions (MatrixSymbol, inverses, powers) are made
    explicit by SymPy.
    """
    if isinstance(expr, sp.MatrixBase):
        return sp.ImmutableMatrix(expr)
    if not isinstance(expr, sp.MatrixExpr):
        return expr
    if isinstance(expr, sp.MatMul):
        scalars = [f for f in expr.args if not isinstance(f, sp.MatrixBase | sp.MatrixExpr)]
        product = None
        for factor in expr.args:
            if isinstance(factor, sp.MatrixBase | sp.MatrixExpr):
                value = carried_out(factor)
                product = value if product is None else _product(product, value)
        if scalars:
            product = product.applyfunc(lambda e: sp.Mul(*scalars, e, evaluate=False))
        return sp.ImmutableMatrix(product)
    if isinstance(expr, sp.MatAdd):
        parts = [carried_out(term) for term in expr.args]
        rows, cols = parts[0].shape
        return sp.ImmutableMatrix(
            rows, cols, lambda i, j: sp.Add(*(p[i, j] for p in parts), evaluate=False)
        )
    if isinstance(expr, sp.Transpose):
        return carried_out(expr.arg).T
    return sp.ImmutableMatrix(expr.as_explicit())


def _product(a: sp.MatrixBase, b: sp.MatrixBase) -> sp.ImmutableMatrix:
    def entry(i: int, j: int) -> sp.Expr:
        terms = [sp.Mul(a[i, k], b[k, j], evaluate=False) for k in range(a.shape[1])]
        if len(terms) < 2:
            return terms[0] if terms else sp.Integer(0)
        return sp.Add(*terms, evaluate=False)

    return sp.ImmutableMatrix(a.shape[0], b.shape[1], entry)
