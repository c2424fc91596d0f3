"""Tests written against surviving mutants of the step checker (docs/mutation-testing.md).

Each test pins a behaviour that a mutation broke without any other test noticing: the
sampler reaching the edge values where claims typically fail (0, ±1, non-real points), and
the two cheap rewrite rules ("Pythagorean identity", "sum termwise") being identities that
close exactly the claims they are meant for and nothing false.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from proofs.derivation import prove_identity
from proofs.numeric_check import check_numeric
from proofs.sampling import sample_points, satisfies
from proofs.symbolic_check import REDUCTIONS, check_symbolic

X = sp.Symbol("x", real=True)
Y = sp.Symbol("y", real=True)
Z = sp.Symbol("z")  # no assumptions: complex
I_ = sp.Symbol("i", integer=True)
J_ = sp.Symbol("j", integer=True)
N = sp.Symbol("n", integer=True, positive=True)
RULE = dict(REDUCTIONS)


def _draws(symbol: sp.Symbol, count: int = 300) -> list[sp.Expr]:
    stream = sample_points([symbol], seed=0)
    return [next(stream)[symbol] for _ in range(count)]


# --- The sampler reaches the edge values of every integer domain ---------------------------

INTEGER_DOMAINS = {
    "integer": (sp.Symbol("n", integer=True), {-1, 0, 1}),
    "positive": (sp.Symbol("n", integer=True, positive=True), {1, 2}),
    "nonnegative": (sp.Symbol("n", integer=True, nonnegative=True), {0, 1}),
    "negative": (sp.Symbol("n", integer=True, negative=True), {-1, -2}),
    "nonpositive": (sp.Symbol("n", integer=True, nonpositive=True), {0, -1}),
    "even": (sp.Symbol("n", even=True), {-2, 0, 2}),
    "even-nonzero": (sp.Symbol("n", even=True, nonzero=True), {-2, 2}),
    "odd": (sp.Symbol("n", odd=True), {-1, 1}),
}


@pytest.mark.parametrize(("symbol", "edges"), INTEGER_DOMAINS.values(), ids=INTEGER_DOMAINS)
def test_integer_sampler_respects_the_domain_and_reaches_its_edge(
    symbol: sp.Symbol, edges: set[int]
) -> None:
    values = _draws(symbol)
    assert all(v.is_Integer and satisfies(symbol, v) for v in values)
    assert edges <= {int(v) for v in values}


REAL_DOMAINS = {
    "real": (sp.Symbol("x", real=True), (-1, 1)),
    "rational": (sp.Symbol("x", rational=True), (-1, 1)),
    "positive": (sp.Symbol("x", positive=True), (1,)),
    "nonnegative": (sp.Symbol("x", nonnegative=True), (1,)),
    "negative": (sp.Symbol("x", negative=True), (-1,)),
    "nonpositive": (sp.Symbol("x", nonpositive=True), (-1,)),
}


@pytest.mark.parametrize(("symbol", "signs"), REAL_DOMAINS.values(), ids=REAL_DOMAINS)
def test_real_sampler_respects_the_domain_and_spans_scales(
    symbol: sp.Symbol, signs: tuple[int, ...]
) -> None:
    values = _draws(symbol, 100)
    assert all(v.is_Rational and satisfies(symbol, v) for v in values)
    assert {int(sp.sign(v)) for v in values} == set(signs)
    # Both small and large magnitudes: a claim can fail only near 0 or only far out.
    assert min(abs(v) for v in values) < 1 < 10 < max(abs(v) for v in values)


def test_complex_sampler_leaves_the_real_line() -> None:
    values = _draws(Z, 100)
    assert all(v.is_number for v in values)
    parts = [v.as_real_imag() for v in values]
    assert {int(sp.sign(re)) for re, _ in parts} == {-1, 1}
    assert {int(sp.sign(im)) for _, im in parts} == {-1, 1}


# Each claim is false at exactly one edge of its symbol's domain (0**0 = 1) and SymPy cannot
# decide it symbolically: only a sample at that edge refutes it.
EDGE_CLAIMS = {
    "nonnegative-fails-at-0": 0 ** INTEGER_DOMAINS["nonnegative"][0],
    "positive-fails-at-1": 0 ** (INTEGER_DOMAINS["positive"][0] - 1),
    "negative-fails-at-minus-1": 0 ** (-INTEGER_DOMAINS["negative"][0] - 1),
    "nonpositive-fails-at-0": 0 ** (-INTEGER_DOMAINS["nonpositive"][0]),
}


@pytest.mark.parametrize("lhs", EDGE_CLAIMS.values(), ids=EDGE_CLAIMS)
def test_claim_false_only_at_the_edge_of_the_domain_is_refuted(lhs: sp.Expr) -> None:
    verdict = prove_identity(lhs, 0)
    assert verdict.status == "refuted", verdict
    assert verdict.counterexample.lhs == "1.0"


@pytest.mark.parametrize("lhs", [sp.conjugate(Z), sp.re(Z)], ids=["conjugate", "re"])
def test_claim_true_only_on_the_real_line_is_refuted_for_complex_symbols(lhs: sp.Expr) -> None:
    verdict = prove_identity(lhs, Z)
    assert verdict.status == "refuted", verdict


def test_complex_counterexample_is_the_point_that_was_sampled() -> None:
    """The values shown are taken at the sampled point itself, real and imaginary parts."""
    verdict = prove_identity(Z + 1, Z)
    shown = mpmath.mpmathify(verdict.counterexample.point["z"].replace(" ", "").strip("()"))
    sampled = complex(next(sample_points([Z], seed=0))[Z])
    assert mpmath.almosteq(shown, sampled, 1e-15)
    lhs = mpmath.mpmathify(verdict.counterexample.lhs.replace(" ", "").strip("()"))
    assert mpmath.almosteq(lhs, sampled + 1, 1e-15)


def test_numeric_half_alone_refutes_a_claim_false_off_the_real_line() -> None:
    assert check_numeric(sp.Abs(Z) ** 2, Z**2).passed is False
    assert check_numeric(sp.Abs(Z) ** 2, Z * sp.conjugate(Z)).passed is True


# --- The two cheap rules: identities that close what they are for, and nothing false --------

POINT = {X: sp.Rational(3, 10), Y: sp.Rational(17, 10), Z: sp.Rational(2, 5) + sp.I * 0.9, N: 3}
COS_SQUARED = RULE["Pythagorean identity"]
SUM_TERMWISE = RULE["sum termwise"]


def _at_point(expr: sp.Expr) -> sp.Expr:
    # The free i (outside any Sum) gets its own value: it must not be confused with a bound i.
    return sp.N(expr.subs({**POINT, I_: 2}).doit(), 30)


REWRITES = {
    "cos-squared": sp.cos(X) ** 2,
    "cos-cubed": sp.cos(X) ** 3,
    "cos-fourth-times-sin": sp.cos(X) ** 4 * sp.sin(Y),
    "cos-of-sum-squared": sp.cos(X + Y) ** 2 - sp.cos(X) ** 5,
    "cos-negative-power": 1 / sp.cos(X) ** 2,
    "complex-pythagoras": sp.cos(Z) ** 2 + sp.sin(Z) ** 2,
    "sums-different-ranges": sp.Sum(sp.cos(X * I_) ** 2, (I_, 0, N))
    - sp.Sum(sp.cos(X * I_) ** 2, (I_, 1, N)),
    "coefficient-with-bound-index": sp.Sum(I_, (I_, 0, N)) - I_ * sp.Sum(1, (I_, 0, N)),
    "constant-coefficient": 2 * sp.Sum(sp.sin(X * I_), (I_, 0, N))
    - sp.Sum(3 * sp.sin(X * I_), (I_, 0, N)),
    "different-index-names": sp.Sum(sp.cos(X * I_), (I_, 0, N))
    - sp.Sum(sp.cos(X * J_) ** 2, (J_, 0, N)),
    "product-of-sums": sp.Sum(sp.sin(X * I_), (I_, 0, N)) * sp.Sum(sp.cos(X * I_), (I_, 0, N))
    - sp.Sum(sp.sin(X * I_) * sp.cos(X * I_), (I_, 0, N)),
    "sum-of-one": sp.Sum(1, (I_, 0, N - 1)) - N + Y,
}


@pytest.mark.parametrize("rule", [COS_SQUARED, SUM_TERMWISE], ids=["cos-squared", "sum-termwise"])
@pytest.mark.parametrize("expr", REWRITES.values(), ids=REWRITES)
def test_cheap_rule_rewrites_to_an_equal_expression(rule, expr: sp.Expr) -> None:
    """A rule is a rewrite, not a guess: its output has the input's value at a point."""
    assert abs(_at_point(rule(expr)) - _at_point(expr)) < 1e-20


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        (sp.cos(X) ** 2 + sp.sin(X) ** 2, 1),
        (sp.cos(X) ** 3, sp.cos(X) - sp.cos(X) * sp.sin(X) ** 2),
        (sp.cos(X + Y) ** 2 + sp.sin(X + Y) ** 2, 1),
        (sp.cos(Z) ** 2 + sp.sin(Z) ** 2, 1),
    ],
    ids=["pythagoras", "cos-cubed", "angle-sum", "complex"],
)
def test_pythagorean_rule_closes_true_identities_by_itself(lhs: sp.Expr, rhs: sp.Expr) -> None:
    assert check_symbolic(lhs, rhs).rule == "Pythagorean identity"


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        (sp.Sum(1, (I_, 0, N - 1)), N),
        (2 * sp.Sum(sp.sin(X * I_), (I_, 0, N)), sp.Sum(2 * sp.sin(X * I_), (I_, 0, N))),
        (
            sp.Sum(sp.sin(X * I_ + Y), (I_, 0, N)),
            sp.Sum(sp.sin(X * I_) * sp.cos(Y) + sp.cos(X * I_) * sp.sin(Y), (I_, 0, N)),
        ),
    ],
    ids=["count", "constant-factor", "angle-addition-inside"],
)
def test_sum_rule_closes_true_identities_by_itself(lhs: sp.Expr, rhs: sp.Expr) -> None:
    assert check_symbolic(lhs, rhs).rule == "sum termwise"


FALSE_FOR_THE_RULES = {
    "cos-squared-is-1-plus-sin-squared": (sp.cos(X) ** 2, 1 + sp.sin(X) ** 2),
    "cos-squared-is-sin-squared": (sp.cos(X) ** 2, sp.sin(X) ** 2),
    "cos-cubed-is-cos": (sp.cos(X) ** 3, sp.cos(X)),
    "cos-fourth-is-1-minus-sin-fourth": (sp.cos(X) ** 4, 1 - sp.sin(X) ** 4),
    "sums-over-different-ranges": (
        sp.Sum(sp.cos(X * I_) ** 2, (I_, 0, N)),
        sp.Sum(sp.cos(X * I_) ** 2, (I_, 1, N)),
    ),
    "bound-index-captured": (sp.Sum(I_, (I_, 0, N)), I_ * sp.Sum(1, (I_, 0, N))),
    "different-summands": (
        sp.Sum(sp.sin(X * I_) ** 2, (I_, 0, N)),
        sp.Sum(sp.cos(X * I_) ** 2, (I_, 0, N)),
    ),
    "product-of-sums-is-sum-of-products": (
        sp.Sum(sp.sin(X * I_), (I_, 0, N)) * sp.Sum(sp.cos(X * I_), (I_, 0, N)),
        sp.Sum(sp.sin(X * I_) * sp.cos(X * I_), (I_, 0, N)),
    ),
    "count-off-by-one": (sp.Sum(1, (I_, 0, N - 1)), N + 1),
}


@pytest.mark.parametrize(("lhs", "rhs"), FALSE_FOR_THE_RULES.values(), ids=FALSE_FOR_THE_RULES)
def test_cheap_rules_never_reduce_a_false_claim_to_zero(lhs: sp.Expr, rhs: sp.Expr) -> None:
    assert COS_SQUARED(lhs - rhs) != 0
    assert SUM_TERMWISE(lhs - rhs) != 0
    assert check_symbolic(lhs, rhs, thorough=False).passed is not True
