"""The SymPy-to-Coq printer: the terms it writes, and what it refuses, with the reason."""

from __future__ import annotations

import pytest
import sympy as sp

from proofs.engine.coq.printer import (
    APPLICATION,
    Context,
    NotExpressibleError,
    Printer,
    coq_name,
    coq_term,
    omega_arguments,
)

x, y = sp.symbols("x y", real=True)
L = sp.Symbol("L", positive=True)
n = sp.Symbol("n", integer=True)
i = sp.Symbol("i", integer=True, nonnegative=True)
d = sp.Symbol("d_model", integer=True, positive=True, even=True)
W = sp.Integer(10000) ** (-2 * i / d)


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
        (L**x, "Rpower L x"),
        (sp.Max(x, 1), "Rmax 1 x"),
        (sp.cos(sp.sin(x)), "cos (sin x)"),
        # The paper's frequency is Headline's omega, about the pair index and d_model.
        (W, "omega i d_model"),
        (x * W, "x * omega i d_model"),
        (sp.Integer(10000) ** (-2 * (i + 1) / d), "omega (1 + i) d_model"),
        (sp.Integer(10000) ** (2 * i / d), "1 / omega i d_model"),
        (sp.Integer(10000) ** (-i / 4), "omega i 8"),
        # No pair index: a plain power.
        (sp.Integer(10000) ** (-2 / d), "Rpower 10000 (- (2 / d_model))"),
        (sp.Integer(10000) ** (-sp.Rational(6, 7)), "Rpower 10 (4 / 7) / 10000"),
    ],
)
def test_terms(expr: sp.Expr, text: str) -> None:
    assert coq_term(expr) == text


@pytest.mark.parametrize(
    ("expr", "text"),
    [
        (sp.ImmutableMatrix([x, y]), "col [x; y]"),
        (sp.ImmutableMatrix([[x, y]]), "rows [[x; y]]"),
        (sp.ImmutableMatrix([[x]]), "rows [[x]]"),
        (
            sp.ImmutableMatrix([[sp.cos(x), sp.sin(x)], [-sp.sin(x), sp.cos(x)]]),
            "rot_mat x",
        ),
        (
            sp.ImmutableMatrix([[sp.cos(x), -sp.sin(x)], [sp.sin(x), sp.cos(x)]]),
            "rows [[cos x; - sin x]; [sin x; cos x]]",
        ),
        # A product is printed as the product, not carried out.
        (
            sp.MatMul(sp.ImmutableMatrix([[x, y]]), sp.ImmutableMatrix([x, y]), evaluate=False),
            "mmul 2 (rows [[x; y]]) (col [x; y])",
        ),
        (sp.Transpose(sp.ImmutableMatrix([[x, y]])), "mtr (rows [[x; y]])"),
    ],
)
def test_matrices_are_written_as_the_step_writes_them(expr: sp.Basic, text: str) -> None:
    assert coq_term(expr) == text


def test_a_contexts_names_integers_and_sums() -> None:
    m = sp.Symbol("m", integer=True, nonzero=True)
    context = Context(integers=frozenset({m}))
    assert coq_term(2 * sp.pi * m, context) == "2 * PI * IZR m"
    assert coq_term((-1) ** m * sp.sin(x), context) == "(- 1) ^ Z.abs_nat m * sin x"
    pairs = Context(names={d: ("INR (2 * S n)", APPLICATION)}, naturals={d / 2 - 1: "n"})
    sum_ = sp.Sum(sp.cos(x * W), (i, 0, d / 2 - 1))
    assert coq_term(sum_, pairs) == "sum_f_R0 (fun i => cos (x * omega (INR i) (INR (2 * S n)))) n"


def test_canonical_printing_gives_atoms_equal_by_algebra_one_text() -> None:
    printer = Printer(canonical=True)
    first = printer.term(sp.sin((x + y) * L))
    assert printer.term(sp.sin(x * L + y * L)) == first
    # sin and cos of one argument share its text, so rewriting one gives the other's atoms.
    assert printer.term(sp.cos(L * y + L * x)) == first.replace("sin", "cos")
    assert printer.written(sp.sin(x * L + y * L)) == "sin (x * L + y * L)"


def test_omega_needs_a_pair_index() -> None:
    assert omega_arguments(W) == (i, d)
    assert omega_arguments(sp.Integer(10000) ** (-2 * 0 / d)) is None
    assert omega_arguments(sp.Integer(2) ** (-2 * i / d)) is None


@pytest.mark.parametrize(
    ("expr", "reason"),
    [
        (sp.Float(0.5) * x, "not an exact rational"),
        (sp.Sum(sp.sin(x * n), (n, 1, L)), "does not start at 0"),
        (sp.sqrt(x), "not provably ≥ 0"),
        ((-1) ** n, "provably positive base"),
        (x**y, "provably positive base"),
        (sp.tan(x), "tan has no Coq counterpart"),
        (sp.MatrixSymbol("M", 2, 2)[0, 1], "entry of a symbolic matrix"),
        (sp.Symbol("ω"), "not a Coq identifier"),
    ],
)
def test_what_coq_cannot_express_is_refused_with_a_reason(expr: sp.Expr, reason: str) -> None:
    with pytest.raises(NotExpressibleError, match=reason):
        coq_term(expr)


def test_names_coq_reserves_get_a_trailing_underscore() -> None:
    assert coq_name(sp.Symbol("fun")) == "fun_"
    assert coq_name(sp.Symbol("omega")) == "omega_"
    assert coq_name(sp.Symbol("rows")) == "rows_"
    assert coq_name(sp.Symbol("omega_i")) == "omega_i"


def test_a_sum_from_a_numeral_is_written_from_0_over_the_shifted_index() -> None:
    j = sp.Symbol("j", integer=True, positive=True)
    k = sp.Symbol("k", integer=True, nonnegative=True)
    # Σ_{j=1}^{3} sin(x·j) is Σ_{j=0}^{2} sin(x·(1 + j)); an inner Σ up to j − 1 runs to j.
    assert (
        coq_term(sp.Sum(sp.sin(x * j), (j, 1, 3))) == "sum_f_R0 (fun j => sin (x * (1 + INR j))) 2"
    )
    nested = sp.Sum(sp.Sum(sp.cos(x * k), (k, 0, j - 1)) ** 2, (j, 1, 4))
    assert coq_term(nested) == "sum_f_R0 (fun j => sum_f_R0 (fun k => cos (x * INR k)) j ^ 2) 3"
