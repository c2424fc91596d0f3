"""What a citation closes, asked of proofs.engine.citation directly (issue 34,
docs/mutation-testing.md): its own answer, before any numeric check, must never close a false
link. Every expected answer is set by hand; each false link below differs from a true one by one
thing the citation must see (a shape, a range, a hypothesis, a binding, a step).
"""

from __future__ import annotations

import pytest
import sympy as sp

from proofs.engine.citation import (
    Lemma,
    Termwise,
    assumption_failure,
    capture,
    check_citation,
    closes,
    lemma_closes,
    lemmas_of,
    rules_close,
    rules_of,
    substitute,
    termwise_closes,
    words,
)
from proofs.engine.derivation import Derivation, Step
from proofs.engine.rules import (
    ALGEBRA,
    ANGLE_ADDITION,
    CANCEL,
    COMMON_ANGLE,
    PARITY,
    PYTHAGOREAN,
)

X, Y = sp.symbols("x y", real=True)
U = sp.Symbol("u")
I_ = sp.Symbol("i", integer=True)
J = sp.Symbol("j", integer=True)
INN = sp.Symbol("i", integer=True, nonnegative=True)
N = sp.Symbol("n", integer=True)
NP = sp.Symbol("n", integer=True, positive=True)
E = sp.Symbol("e", even=True)
R = sp.Symbol("r", real=True)

# A proved chain (sin²a + cos²a = 1) and one with three steps.
SQUARE = Derivation("square", "s", (Step(sp.sin(R) ** 2 + sp.cos(R) ** 2), Step(1, by=PYTHAGOREAN)))
THREE = Derivation(
    "three",
    "t",
    (
        Step(sp.sin(R + Y)),
        Step(sp.sin(R) * sp.cos(Y) + sp.cos(R) * sp.sin(Y), by=ANGLE_ADDITION),
        Step(sp.cos(Y) * sp.sin(R) + sp.sin(Y) * sp.cos(R), by=ALGEBRA),
    ),
)


def test_check_citation_takes_rules_tuples_lemmas_and_termwise_only() -> None:
    for good in (ALGEBRA, (PARITY, ALGEBRA), Lemma(SQUARE), Termwise(ALGEBRA)):
        check_citation(good, "by")
    with pytest.raises(ValueError, match="empty tuple"):
        check_citation((), "by")
    with pytest.raises(TypeError, match=r"by\[1\] must be a Rule, got str"):
        check_citation((ALGEBRA, "parity"), "by")
    with pytest.raises(TypeError, match="by must be a Rule, a tuple of Rules"):
        check_citation("algebra", "by")
    with pytest.raises(TypeError, match="inner"):
        Termwise(Termwise(ALGEBRA))


def test_words_rules_and_lemmas_of_each_kind_of_citation() -> None:
    assert words(None) == ""
    assert words(PARITY) == "parity"
    assert words((PARITY, ALGEBRA)) == "parity, algebra"
    assert words(Lemma(SQUARE)) == "lemma square"
    assert words(Termwise(Lemma(SQUARE))) == "termwise: lemma square"
    assert words(Termwise((PARITY, ALGEBRA))) == "termwise: parity, algebra"
    assert rules_of(PARITY) == (PARITY,)
    assert rules_of((PARITY, ALGEBRA)) == (PARITY, ALGEBRA)
    assert rules_of(Termwise(PARITY)) == (PARITY,)
    assert rules_of(Lemma(SQUARE)) == ()
    assert lemmas_of(Lemma(SQUARE)) == (SQUARE,)
    assert lemmas_of(Termwise(Lemma(SQUARE))) == (SQUARE,)
    assert lemmas_of(PARITY) == () and lemmas_of(None) == ()


def test_substitute_replaces_bound_symbols_only_and_evaluates_only_when_asked() -> None:
    assert substitute(sp.cos(U * X), {}) == sp.cos(U * X)
    kept = substitute(sp.cos(U * X), {U: -U})
    assert kept.args[0].args[0] == -U  # cos((−u)·x): the product not re-evaluated
    assert substitute(sp.cos(U * X), {U: -U}, arithmetic=True) == sp.cos(-U * X, evaluate=False)
    assert substitute(sp.sin(U) + Y, {U: 2}) == sp.sin(2) + Y
    assert substitute(sp.sin(Y), {U: 2}) == sp.sin(Y)
    matrix = sp.ImmutableMatrix([[U, Y], [U * Y, 1]])
    assert substitute(matrix, {U: 3}) == sp.ImmutableMatrix([[3, Y], [3 * Y, 1]])
    assert substitute(sp.Integer(5), {U: 3}) == 5
    # Arithmetic evaluates sums and products, never a function application.
    assert substitute(U + U, {U: Y}, arithmetic=True) == 2 * Y
    two_pi = substitute(sp.sin(Y + U, evaluate=False), {U: 2 * sp.pi}, arithmetic=True)
    assert isinstance(two_pi, sp.sin)


@pytest.mark.parametrize(
    ("symbol", "value", "fails"),
    [
        (INN, sp.Integer(2), False),
        (INN, 2, False),
        (INN, sp.Integer(-1), True),
        (INN, -1, True),
        (INN, sp.Rational(1, 2), True),
        (INN, Y, True),
        (I_, J + 1, False),
        (R, Y, False),
        (R, sp.I, True),
        (R, U, True),  # unknown realness is not real
        (U, sp.I, False),
        (E, sp.Integer(4), False),
        (E, sp.Integer(3), True),
        (INN, True, True),  # a bool is no expression
        (INN, 2.0, True),
    ],
    ids=str,
)
def test_a_binding_meets_every_assumption_of_its_symbol_or_says_which(symbol, value, fails) -> None:
    assert bool(assumption_failure(symbol, value)) is fails


def test_assumption_failure_names_the_assumption() -> None:
    failure = assumption_failure(INN, sp.Integer(-1))
    assert failure.startswith("-1 is not ") and failure.endswith(" as i is")
    assert "is not a SymPy expression" in assumption_failure(INN, 2.0)


def test_capture_finds_bound_symbols_and_captured_values() -> None:
    summed = sp.Sum(I_ * U, (I_, 0, N))
    assert capture(summed, {U: N + 1}) == ""
    assert capture(summed, {U: I_}) == "the binding u := i puts i inside a sum over i"
    assert "is bound inside" in capture(summed, {I_: 2})
    assert capture(sp.sin(U) + summed, {Y: I_}) == ""  # y is not in the sum
    assert capture(sp.sin(U), {U: I_}) == ""  # no sum at all


def test_rules_close_true_and_false_links() -> None:
    assert rules_close(sp.sin(X) ** 2 + sp.cos(X) ** 2, sp.Integer(1), (PYTHAGOREAN,))
    assert not rules_close(sp.sin(X) ** 2 + sp.cos(X) ** 2, sp.Integer(2), (PYTHAGOREAN,))
    # Every rule of a sequence applies, in order.
    minus = sp.sin(sp.Add(-X, -Y, evaluate=False), evaluate=False)
    expanded = -(sp.sin(X) * sp.cos(Y) + sp.cos(X) * sp.sin(Y))
    assert rules_close(minus, expanded, (PARITY, ANGLE_ADDITION))
    assert not rules_close(minus, -expanded, (PARITY, ANGLE_ADDITION))
    # A joint rule sees both sides: sin x beside sin(x/2).
    assert rules_close(sp.sin(X), 2 * sp.sin(X / 2) * sp.cos(X / 2), (COMMON_ANGLE,))
    assert not rules_close(sp.sin(X), 2 * sp.sin(X / 2) * sp.sin(X / 2), (COMMON_ANGLE,))


def test_field_rules_clear_denominators_and_compare_every_entry() -> None:
    field = (CANCEL,)
    assert CANCEL.field
    assert rules_close(1 / X + 1 / Y, (X + Y) / (X * Y), field)
    assert not rules_close(1 / X + 1 / Y, (X + Y) / (X + Y), field)
    m = sp.ImmutableMatrix([[1 / X, 1], [X / X**2, 2]])
    assert rules_close(m, sp.ImmutableMatrix([[1 / X, 1], [1 / X, 2]]), field)
    # One entry off, in every place: never closed.
    for j in range(4):
        other = list(m)
        other[j] = other[j] + 1
        assert not rules_close(m, sp.ImmutableMatrix(2, 2, other), field)
    assert not rules_close(m, sp.ImmutableMatrix([[1 / X, 1, 0], [1 / X, 2, 0]]), field)
    assert not rules_close(m, 1 / X, field)
    assert not rules_close(1 / X, m, field)
    # A 1×1 matrix is its entry.
    assert rules_close(sp.ImmutableMatrix([[1 / X + 1]]), (1 + X) / X, field)
    assert not rules_close(sp.ImmutableMatrix([[1 / X + 1]]), (2 + X) / X, field)
    a = sp.MatrixSymbol("A", 2, 2)
    assert not rules_close(a, m, field)
    assert rules_close(a, a, field)


def test_matrices_and_scalars_are_never_the_same() -> None:
    m = sp.ImmutableMatrix([[X, 0], [0, X]])
    assert not rules_close(m, X, (ALGEBRA,))
    assert not rules_close(X, m, (ALGEBRA,))
    assert not rules_close(sp.ImmutableMatrix([[X, 0]]), sp.ImmutableMatrix([[X], [0]]), (ALGEBRA,))
    assert not rules_close(sp.MatrixSymbol("A", 2, 2), sp.MatrixSymbol("A", 2, 3), (ALGEBRA,))
    assert rules_close(sp.ImmutableMatrix([[X + X]]), 2 * X, (ALGEBRA,))
    assert rules_close(m, sp.ImmutableMatrix([[X, 0], [0, X]]), (ALGEBRA,))


def test_a_lemma_closes_exactly_between_two_of_its_steps() -> None:
    lemma = Lemma(THREE, {R: X})
    steps = [sp.sin(X + Y), sp.sin(X) * sp.cos(Y) + sp.cos(X) * sp.sin(Y)]
    assert lemma_closes(steps[0], steps[1], lemma) == ""
    assert lemma_closes(steps[1], steps[0], lemma) == ""
    assert closes(steps[0], steps[1], lemma) == ""
    # One side no step of the lemma, either side.
    assert lemma_closes(steps[0], sp.cos(X + Y), lemma) == "the right side is no step of the lemma"
    assert lemma_closes(sp.cos(X + Y), steps[1], lemma) == "the left side is no step of the lemma"
    assert closes(sp.cos(X + Y), steps[0], lemma) != ""
    # Unbound, the lemma's steps are in its own symbol r.
    assert lemma_closes(steps[0], steps[1], Lemma(THREE)) != ""
    # The binding must meet the symbol's hypotheses: r is real, i·y is not.
    assert "does not apply" in lemma_closes(
        sp.sin(sp.I * Y + Y), sp.Integer(0), Lemma(THREE, {R: sp.I * Y})
    )


def test_a_lemma_binding_that_captures_an_index_never_closes() -> None:
    # Σ_{i=0}^{n} (i + u) with u := i is not Σ 2i: the binding would be captured.
    chain = Derivation(
        "sum", "s", (Step(sp.Sum(I_ + U, (I_, 0, N))), Step(sp.Sum(U + I_, (I_, 0, N)), by=ALGEBRA))
    )
    captured = Lemma(chain, {U: I_})
    assert "does not apply" in lemma_closes(
        sp.Sum(2 * I_, (I_, 0, N)), sp.Sum(2 * I_, (I_, 0, N)), captured
    )


def _sum(f: sp.Expr, i: sp.Symbol = INN, low: sp.Expr = 0, high: sp.Expr = NP) -> sp.Sum:
    return sp.Sum(f, (i, low, high))


def test_termwise_closes_sums_over_one_range_whose_summands_close() -> None:
    square = sp.sin(INN * X) ** 2 + sp.cos(INN * X) ** 2
    by_lemma = Termwise(Lemma(SQUARE, {R: INN * X}))
    assert termwise_closes(_sum(square), _sum(1), by_lemma) == ""
    assert closes(_sum(square), _sum(1), by_lemma) == ""
    assert termwise_closes(_sum(square), _sum(1), Termwise(PYTHAGOREAN)) == ""
    # A 1×1 matrix of a sum is the sum.
    assert termwise_closes(sp.ImmutableMatrix([[_sum(square)]]), _sum(1), by_lemma) == ""
    # The summands must close.
    assert termwise_closes(_sum(square), _sum(2), Termwise(PYTHAGOREAN)) != ""
    assert termwise_closes(_sum(square), _sum(2), by_lemma) != ""


@pytest.mark.parametrize(
    ("a", "b", "reason"),
    [
        (sp.sin(X) ** 2 + sp.cos(X) ** 2, _sum(1), "both sides must be sums"),
        (_sum(1), sp.Integer(1), "both sides must be sums"),
        (
            sp.Sum(sp.sin(X) ** 2 + sp.cos(X) ** 2, (INN, 0, NP), (J, 0, 1)),
            sp.Sum(1, (INN, 0, NP), (J, 0, 1)),
            "only single sums",
        ),
        (
            _sum(sp.sin(X) ** 2 + sp.cos(X) ** 2),
            sp.Sum(1, (INN, 0, NP), (J, 0, 1)),
            "only single sums",
        ),
        (_sum(sp.sin(X) ** 2 + sp.cos(X) ** 2), _sum(1, high=NP + 1), "different ranges"),
        (_sum(sp.sin(X) ** 2 + sp.cos(X) ** 2), _sum(1, low=1), "different ranges"),
        # The index of a sum with a nonnegative index must start at an integer ≥ 0.
        (_sum(sp.sin(X) ** 2 + sp.cos(X) ** 2, low=-1), _sum(1, low=-1), "≥ 0"),
        (_sum(sp.sin(X) ** 2 + sp.cos(X) ** 2, low=N), _sum(1, low=N), "≥ 0"),
        # An integer index needs an integer lower limit and an integer count.
        (
            _sum(sp.sin(X) ** 2 + sp.cos(X) ** 2, I_, sp.Rational(1, 2), N),
            _sum(1, I_, sp.Rational(1, 2), N),
            "an integer",
        ),
        (_sum(sp.sin(X) ** 2 + sp.cos(X) ** 2, I_, 0, Y), _sum(1, I_, 0, Y), "an integer"),
        (_sum(sp.sin(X) ** 2 + sp.cos(X) ** 2, I_, 0, N / 2), _sum(1, I_, 0, N / 2), "an integer"),
    ],
    ids=str,
)
def test_termwise_refuses_what_it_cannot_compare(a, b, reason) -> None:
    assert reason in termwise_closes(a, b, Termwise(PYTHAGOREAN))


def test_termwise_counts_of_terms_that_are_integers_by_structure() -> None:
    f = sp.sin(X) ** 2 + sp.cos(X) ** 2
    for high in (N, N + 3, 2 * N, N * J, E / 2, sp.Integer(7)):
        assert (
            termwise_closes(_sum(f, I_, 0, high), _sum(1, I_, 0, high), Termwise(PYTHAGOREAN)) == ""
        )
    for high in (Y, N / 3, Y / 2, N + Y, sp.Rational(7, 2), N * Y, sp.sin(N)):
        assert "an integer" in termwise_closes(
            _sum(f, I_, 0, high), _sum(1, I_, 0, high), Termwise(PYTHAGOREAN)
        )


def test_termwise_renames_the_index_without_capturing() -> None:
    f = sp.sin(X) ** 2 + sp.cos(X) ** 2
    # Σ_i f = Σ_j 1 over one range: the index is renamed.
    assert termwise_closes(_sum(f * INN), _sum(INN, INN), Termwise(PYTHAGOREAN)) == ""
    j_nonneg = sp.Symbol("j", integer=True, nonnegative=True)
    assert termwise_closes(_sum(f * INN), _sum(j_nonneg, j_nonneg), Termwise(PYTHAGOREAN)) == ""
    # Renaming j to i where the right side holds a free i would capture it.
    assert "capture" in termwise_closes(_sum(f * INN), _sum(INN, j_nonneg), Termwise(PYTHAGOREAN))
    # An inner sum over i inside the right summand: renaming j to i there is a capture.
    inner = sp.Sum(j_nonneg * INN, (INN, 0, 1))
    assert "renaming" in termwise_closes(
        _sum(2 * f * sp.Sum(INN * INN, (INN, 0, 1))),
        _sum(2 * inner, j_nonneg),
        Termwise(PYTHAGOREAN),
    )


def test_closes_dispatches_each_kind_of_citation() -> None:
    assert closes(sp.sin(X) ** 2 + sp.cos(X) ** 2, sp.Integer(1), PYTHAGOREAN) == ""
    assert closes(sp.sin(X) ** 2 + sp.cos(X) ** 2, sp.Integer(1), (ALGEBRA, PYTHAGOREAN)) == ""
    assert closes(sp.sin(X) ** 2 + sp.cos(X) ** 2, sp.Integer(1), ALGEBRA) != ""
    assert closes(sp.sin(X) ** 2, sp.Integer(1), PYTHAGOREAN) == "the rewritten sides differ"
    assert closes(_sum(1), _sum(2), Termwise(ALGEBRA)) != ""
    assert closes(sp.Integer(1), sp.Integer(2), Lemma(SQUARE)) != ""
