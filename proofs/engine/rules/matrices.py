"""The matrix rules: carry out a product (and a transpose) of explicit matrices."""

from __future__ import annotations

import functools

import sympy as sp

from proofs.engine.rules.rule import CoqPlan, Diagnosis, Round, Rule


def explicit(expr: sp.Basic) -> sp.Basic:
    """expr with every product, sum and transpose of explicit matrices carried out.

    >>> a, b = sp.symbols("a b")
    >>> explicit(sp.MatMul(sp.ImmutableMatrix([[a, b]]), sp.ImmutableMatrix([a, b]), evaluate=False))
    Matrix([[a**2 + b**2]])
    """
    if isinstance(expr, sp.MatrixBase):
        return sp.ImmutableMatrix(expr)
    if not isinstance(expr, sp.MatrixExpr):
        return expr
    return _carry_out(expr)


@functools.lru_cache(maxsize=512)
def _carry_out(expr: sp.MatrixExpr) -> sp.ImmutableMatrix:
    # Factor by factor, innermost first; as_explicit() would build and evaluate a Sum per entry,
    # about ten times slower.
    if isinstance(expr, sp.MatMul):
        scalar, product = sp.Integer(1), None
        for factor in expr.args:
            if isinstance(factor, sp.MatrixBase | sp.MatrixExpr):
                value = explicit(factor)
                product = value if product is None else product * value
            else:
                scalar *= factor
        return sp.ImmutableMatrix(scalar * product)
    if isinstance(expr, sp.MatAdd):
        return sp.ImmutableMatrix(sp.Add(*(explicit(term) for term in expr.args)))
    if isinstance(expr, sp.Transpose):
        return explicit(expr.arg).T
    return sp.ImmutableMatrix(expr.as_explicit())


def _walk(expr: sp.Basic, at: type) -> sp.Basic:
    """Carry out the outermost matrix expressions of type `at` found in expr (a Tuple of sides)."""
    if isinstance(expr, at) or (isinstance(expr, sp.MatAdd) and expr.has(at)):
        return explicit(expr)
    if isinstance(expr, sp.Tuple):
        return sp.Tuple(*(_walk(a, at) for a in expr.args))
    return expr


def matrix_product(expr: sp.Basic) -> sp.Basic:
    """A product of explicit matrices, carried out (with any transposes inside it).

    >>> x = sp.Symbol("x")
    >>> matrix_product(sp.MatMul(sp.ImmutableMatrix([[1, x]]), sp.ImmutableMatrix([x, 1]), evaluate=False))
    Matrix([[2*x]])
    """
    return _walk(expr, sp.MatMul)


def transpose(expr: sp.Basic) -> sp.Basic:
    """The transpose of an explicit matrix, carried out: rows become columns.

    >>> x = sp.Symbol("x")
    >>> transpose(sp.Transpose(sp.ImmutableMatrix([[1, x]])))
    Matrix([
    [1],
    [x]])
    """
    return _walk(expr, sp.Transpose)


MATRIX_PRODUCT = Rule(
    "matrix_product",
    "matrix product",
    matrix_product,
    search=Round(1, 10),
    diagnosis=Diagnosis(alone=10, then=((160, "parity"), (170, "pythagorean"))),
    coq="mat_unfold",
    coq_plan=CoqPlan.MATRIX,
)
TRANSPOSE = Rule(
    "transpose",
    "transpose",
    transpose,
    search=Round(1, 20),
    diagnosis=Diagnosis(alone=20),
    coq="mat_unfold",
    coq_plan=CoqPlan.MATRIX,
)
