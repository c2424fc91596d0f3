"""The rules added for the RoPE theorems: each does its one rewrite, only where it is an
identity, and a link they do not need or cannot close is not proved."""

from __future__ import annotations

import doctest
import importlib

import pytest
import sympy as sp

from proofs.engine.derivation import Derivation, Step
from proofs.engine.rules import (
    ALGEBRA,
    COMPLEX_FORM,
    EXPONENTIAL_FORM,
    INTEGER_PARTS,
    POWER_LAWS,
)
from proofs.engine.rules.complex_numbers import complex_form
from proofs.engine.rules.integer_parts import integer_parts
from proofs.engine.rules.powers import exponential_form, power_laws

X = sp.Symbol("x", real=True)
Y = sp.Symbol("y", real=True)
Z = sp.Symbol("z")  # complex
N = sp.Symbol("n", integer=True)
P = sp.Symbol("p", positive=True)


@pytest.mark.parametrize(
    "module",
    [
        "proofs.engine.rules.integer_parts",
        "proofs.engine.rules.powers",
        "proofs.engine.rules.complex_numbers",
    ],
)
def test_the_docstring_examples_run(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0


def _floor(x: sp.Expr) -> sp.Expr:
    return sp.floor(x, evaluate=False)


def test_integer_parts_decides_what_is_certain_and_leaves_the_rest() -> None:
    assert integer_parts(_floor(sp.log(1024) / sp.log(2))) == 10  # exact, though log₂ is an integer
    assert integer_parts(sp.ceiling(sp.log(1025) / sp.log(2), evaluate=False)) == 11
    assert integer_parts(_floor(sp.log(10) / sp.log(2))) == 3  # by a ball
    # cos(π/7) + cos(3π/7) + cos(5π/7) is 1/2 exactly, so this is ⌊1⌋, but no ball can tell 1
    # from 1 − ε: left as it is.
    sevenths = sp.cos(sp.pi / 7) + sp.cos(3 * sp.pi / 7) + sp.cos(5 * sp.pi / 7)
    straddling = _floor(sevenths + sp.Rational(1, 2))
    assert integer_parts(straddling) == straddling
    assert integer_parts(_floor(X)) == _floor(X)
    # An integer term comes out; the rest stays inside.
    assert integer_parts(_floor(N + X)) == sp.Add(N, _floor(X), evaluate=False)


def test_integer_parts_picks_a_max_only_when_it_is_certain() -> None:
    assert integer_parts(sp.Max(sp.pi, sp.Rational(314, 100), evaluate=False)) == sp.pi
    assert integer_parts(sp.Min(sp.pi, sp.Rational(314, 100), evaluate=False)) == sp.Rational(
        314, 100
    )
    close = sp.Max(sp.sqrt(2) ** 2, sp.Integer(2), evaluate=False)
    assert integer_parts(close) in (close, sp.Integer(2))
    assert integer_parts(sp.Max(X, 0, evaluate=False)) == sp.Max(X, 0, evaluate=False)


def test_integer_parts_never_proves_a_wrong_floor() -> None:
    claim = Derivation("claim", "c", (Step(_floor(sp.pi)), Step(sp.Integer(4), by=INTEGER_PARTS)))
    assert claim.verify().status == "refuted"


def test_power_laws_need_positive_bases() -> None:
    a = sp.Symbol("a", real=True)
    # √(x²) is |x|, not x: the base x² of an unknown-sign x is not split.
    root = sp.Pow(X**2, sp.Rational(1, 2), evaluate=False)
    assert power_laws(root) == root
    product = sp.Pow(X * Y, a, evaluate=False)
    assert power_laws(product) == product
    assert power_laws(sp.Pow(P * sp.Symbol("q", positive=True), a, evaluate=False)) == (
        P**a * sp.Symbol("q", positive=True) ** a
    )
    assert power_laws(sp.Pow(sp.Pow(P, a, evaluate=False), 2 / a, evaluate=False)) == P**2


def test_power_laws_do_not_close_a_false_power_identity() -> None:
    a = sp.Symbol("a", real=True)
    wrong = Derivation(
        "claim",
        "c",
        (
            Step(sp.Pow(sp.Pow(P, a, evaluate=False), 2, evaluate=False)),
            Step(P ** (a + 2), by=POWER_LAWS),
        ),
    )
    assert wrong.verify().status != "proved"


def test_exponential_form_writes_hyperbolic_functions_and_adds_exponents() -> None:
    assert exponential_form(sp.sinh(X) + sp.cosh(X)) == sp.exp(X)
    assert exponential_form(sp.exp(X) * sp.exp(Y)) == sp.exp(X + Y)


def test_complex_form_only_over_real_atoms() -> None:
    assert sp.expand(complex_form(sp.exp(sp.I * X)) - sp.cos(X) - sp.I * sp.sin(X)) == 0
    unknown = sp.re(Z * sp.exp(sp.I * X), evaluate=False)
    assert complex_form(unknown).has(sp.re)
    conj = sp.conjugate(Z, evaluate=False)
    assert complex_form(conj) == conj
    # e^{z} with z not i·(real) is not Euler's formula.
    assert complex_form(sp.exp(sp.I * Z)) == sp.exp(sp.I * Z)


@pytest.mark.parametrize(
    ("rule", "lhs", "rhs"),
    [
        (POWER_LAWS, (X + 1) ** 2, X**2 + 2 * X + 1),
        (EXPONENTIAL_FORM, X * (X + 1), X**2 + X),
        (COMPLEX_FORM, (X + Y) ** 2, X**2 + 2 * X * Y + Y**2),
        (INTEGER_PARTS, X * (Y + 1), X * Y + X),
    ],
)
def test_a_new_rule_cited_where_algebra_suffices_is_a_defect(rule, lhs, rhs) -> None:
    verdict = Derivation("claim", "c", (Step(lhs), Step(rhs, by=rule))).verify()
    assert verdict.status == "undecided"
    assert f"closed by algebra, not by the cited {rule.words}" in verdict.reason


def test_a_link_closed_by_a_new_rule_is_reported_with_it() -> None:
    claim = Derivation(
        "claim",
        "c",
        (Step(sp.re(sp.exp(sp.I * X), evaluate=False)), Step(sp.cos(X), by=COMPLEX_FORM)),
    )
    verdict = claim.verify()
    assert verdict.proved and verdict.links[0].closed_by == COMPLEX_FORM.words
    by_algebra = Derivation(
        "claim", "c", (Step(sp.re(sp.exp(sp.I * X), evaluate=False)), Step(sp.cos(X), by=ALGEBRA))
    )
    assert by_algebra.verify().status != "proved"
