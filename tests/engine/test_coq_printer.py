"""The SymPy-to-Coq printer: the terms it writes, and what it refuses, with the reason."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs.engine.coq.printer import NotExpressibleError, coq_name, coq_term

x, y = sp.symbols("x y", real=True)
L = sp.Symbol("L", positive=True)
n = sp.Symbol("n", integer=True)


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        (x + y, "x + y"),
        (x - y, "x - y"),
        (-x * y, "- (x * y)"),
        (x / L, "x / L"),
        (x / L**2, "x / L ^ 2"),
        (sp.Rational(-3, 4) * x, "- (3 * x / 4)"),
        (sp.Rational(1, 2), "1 / 2"),
        ((x + y) ** 3, "(x + y) ^ 3"),
        (x**-2, "1 / x ^ 2"),
        (2 - 2 * sp.cos(x - y), "2 - 2 * cos (x - y)"),
        (sp.sin(x) ** 2, "sin x ^ 2"),
        (sp.pi * x, "PI * x"),
        (sp.exp(x), "exp x"),
        (sp.sqrt(L), "sqrt L"),
        (sp.Integer(10000) ** (-2 * n / L), "Rpower 10000 (- (2 * (n / L)))"),
        (L**x, "Rpower L x"),
        (
            sp.Sum(sp.sin(x * sp.Function("w")(n)), (n, 0, sp.Function("INR")(sp.Symbol("m")))),
            "sum_f_R0 (fun n => sin (x * w n)) m",
        ),
    ],
)
def test_terms(expr: sp.Expr, text: str) -> None:
    assert coq_term(expr) == text


@pytest.mark.parametrize(
    ("expr", "reason"),
    [
        (sp.Float(0.5) * x, "not an exact rational"),
        (sp.Sum(sp.sin(x * n), (n, 0, L)), "not of the form i = 0 .. n"),
        (sp.sqrt(x), "not provably ≥ 0"),
        ((-1) ** n, "provably positive base"),
        (x**y, "provably positive base"),
        (sp.tan(x), "tan has no Coq counterpart"),
        (sp.ImmutableMatrix([[x]]), "entry by entry"),
        (sp.Symbol("ω"), "not a Coq identifier"),
    ],
)
def test_what_coq_cannot_express_is_refused_with_a_reason(expr: sp.Expr, reason: str) -> None:
    with pytest.raises(NotExpressibleError, match=reason):
        coq_term(expr)


def test_names_coq_reserves_get_a_trailing_underscore() -> None:
    assert coq_name(sp.Symbol("fun")) == "fun_"
    assert coq_name(sp.Symbol("omega")) == "omega_"
    assert coq_name(sp.Symbol("omega_i")) == "omega_i"
