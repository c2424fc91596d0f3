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

from proofs.engine import derivation, pointwise
from proofs.engine.certified import Decision
from proofs.engine.derivation import Derivation, Step, check_link, prove_identity
from proofs.engine.pointwise import _holding, check_numeric
from proofs.engine.rules import ALGEBRA, PYTHAGOREAN
from proofs.engine.sampling import sample_points, satisfies
from proofs.engine.symbolic import SymbolicResult, _sums_termwise, check_uncited, reduce_to_zero

X = sp.Symbol("x", real=True)
Y = sp.Symbol("y", real=True)
Z = sp.Symbol("z")  # no assumptions: complex
I_ = sp.Symbol("i", integer=True)
J_ = sp.Symbol("j", integer=True)
N = sp.Symbol("n", integer=True, positive=True)


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
    # 0**(-n) would do, but SymPy turns it into zoo**n, which the numeric half cannot print.
    "nonpositive-fails-at-0": 0 ** (INTEGER_DOMAINS["nonpositive"][0] ** 2),
}


@pytest.mark.parametrize("lhs", EDGE_CLAIMS.values(), ids=EDGE_CLAIMS)
def test_claim_false_only_at_the_edge_of_the_domain_is_refuted(lhs: sp.Expr) -> None:
    verdict = prove_identity(lhs, 0)
    assert verdict.status == "refuted", verdict
    assert verdict.counterexample.lhs == "1.0"


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [(sp.Abs(Z) ** 2, Z**2), (sp.Abs(sp.cos(Z)) ** 2 + sp.Abs(sp.sin(Z)) ** 2, 1)],
    ids=["abs-squared", "unit-circle"],
)
def test_claim_true_only_on_the_real_line_is_refuted_for_complex_symbols(
    lhs: sp.Expr, rhs: sp.Expr
) -> None:
    """|z|² = z² and |cos z|² + |sin z|² = 1 hold for every real z; only a non-real z refutes them."""
    verdict = prove_identity(lhs, rhs)
    assert verdict.status == "refuted", verdict
    assert "j" in verdict.counterexample.point["z"]


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


# --- The two cheap rules: identities that close what they are for, and nothing false --------

POINT = {
    X: sp.Rational(3, 10),
    Y: sp.Rational(17, 10),
    Z: sp.Rational(2, 5) + sp.I * sp.Rational(9, 10),
    N: 3,
}
COS_SQUARED = PYTHAGOREAN.rewrite


def SUM_TERMWISE(expr: sp.Expr) -> sp.Expr:
    merged = _sums_termwise(expr)
    return expr if merged is None else merged


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
    # The captured term must not end the scan: the sums after it still count.
    "coefficient-with-bound-index": sp.Sum(I_, (I_, 0, N))
    - I_ * sp.Sum(1, (I_, 0, N))
    + sp.Sum(sp.sin(X * I_), (I_, 0, N)),
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
    assert check_uncited(lhs, rhs).rule == "Pythagorean identity"


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [
        (sp.Sum(1, (I_, 0, N - 1)), N),
        (
            sp.Sum(sp.cos(2 * X * I_), (I_, 0, N)),
            sp.Sum(sp.cos(X * I_) ** 2 - sp.sin(X * I_) ** 2, (I_, 0, N)),
        ),
        (
            3 * sp.Sum(sp.cos(X * I_) ** 2, (I_, 0, N))
            + 3 * sp.Sum(sp.sin(X * I_) ** 2, (I_, 0, N)),
            3 * N + 3,
        ),
        (
            sp.Sum(sp.sin(X * I_) ** 2, (I_, 0, N)),
            sp.Sum(1, (I_, 0, N)) - sp.Sum(sp.cos(X * I_) ** 2, (I_, 0, N)),
        ),
    ],
    ids=["count", "double-angle-inside", "with-coefficients", "three-sums"],
)
def test_sum_rules_close_true_identities_exactly(lhs: sp.Expr, rhs: sp.Expr) -> None:
    """Closed by exact rules (termwise, counting, the trigonometric rules inside the sums),
    never by SymPy's closed forms, whose zeros would need confirmation."""
    result = check_uncited(lhs, rhs)
    assert result.passed is True and result.exact, result


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
    assert check_uncited(lhs, rhs, thorough=False).passed is not True


# --- The numeric half: rejection of inadmissible points, domain gaps, seeds, shapes ---------

N_INT = sp.Symbol("n", integer=True)


def test_true_claim_about_an_imaginary_symbol_is_never_refuted() -> None:
    """|y|² = −y² holds for imaginary y. The generator has no branch for "imaginary", so its
    candidates must be rejected (no point at all): accepting them would refute a true claim."""
    y = sp.Symbol("y", imaginary=True)
    assert list(sample_points([y])) == []
    assert prove_identity(sp.Abs(y) ** 2, -(y**2)).status == "undecided"


@pytest.mark.parametrize(
    "expr", [1 / N_INT, sp.log(N_INT**2)], ids=["division-by-zero", "log-of-zero"]
)
def test_a_point_outside_the_domain_is_skipped_not_the_end_of_the_check(expr: sp.Expr) -> None:
    # n = 0 is drawn (first, with seed 0); it must not stop the comparison at the other points.
    assert 0 in _draws(N_INT, 24)
    result = check_numeric(expr, expr)
    assert result.passed is True
    assert result.points == 24


def test_no_admissible_point_gives_an_honest_none_after_bounded_attempts() -> None:
    # A real upper limit is never an integer: every point is outside the domain.
    claim = sp.Sum(1, (I_, 0, X))
    result = check_numeric(claim, X + 1)
    assert result.passed is None
    assert result.points == 0
    assert result.max_relative == 0.0
    assert "only 0 of 24 points" in result.detail


def test_sides_of_different_shapes_are_refused_not_truncated() -> None:
    with pytest.raises(ValueError):
        check_numeric(sp.Matrix([X, 1]), sp.Matrix([X]))


def test_seed_fixes_the_points_and_another_seed_moves_them() -> None:
    def point(seed: int) -> dict[str, str]:
        return check_numeric(X, X + 1, seed=seed).counterexample.point

    assert point(0) == point(0)
    assert point(0) != point(1)


def test_exact_agreement_reports_a_relative_difference_far_below_the_tolerance() -> None:
    result = check_numeric(X**2 + 1, X**2 + 1)
    assert 0.0 <= result.max_relative < 1e-70


# --- Defaults and input checks of the symbolic half and of Derivation ------------------------


def test_symbolic_check_is_thorough_by_default() -> None:
    """(n+1)!/n! = n+1 needs simplify(): the default must try it, and say so."""
    lhs, rhs = sp.factorial(N + 1) / sp.factorial(N), N + 1
    assert check_uncited(lhs, rhs).rule == "simplify"
    assert reduce_to_zero(lhs - rhs) == ("simplify", 0, True, False)
    assert check_uncited(lhs, rhs, thorough=False).passed is None


def test_derivation_mixing_a_scalar_and_a_matrix_is_refused() -> None:
    with pytest.raises(ValueError, match="mixes shapes"):
        Derivation("claim", "mixed", (Step(X), Step(sp.Matrix([X]))))


def test_every_assumption_is_checked_not_only_the_first_few() -> None:
    """A prime's candidates are odd integers; only the "prime" fact (listed after
    "commutative") rejects 9 or 15. Fermat's 2**(p-1) = 1 mod p is true for odd primes and
    false at 9: a sampler that stopped checking early would refute a true claim."""
    p = sp.Symbol("p", prime=True, odd=True)
    assert all(sp.isprime(v) for v in _draws(p, 60))
    assert prove_identity(sp.Mod(2 ** (p - 1), p), 1).status != "refuted"


# --- The absolute comparison (issue 20): the start precision and the cited link's look ------

U = {"evaluate": False}
# 10**-700 is about 2**-2325: beyond what the deeper look's 2048 bits resolve (2**-1056).
T700 = sp.Rational(1, 10**700)
NEAR_ONE = {
    "rational": sp.Add(1, T700, **U),
    "float": sp.Float(1 + T700, 760),  # a 2525-bit mantissa, binary exponent -2524
}


@pytest.mark.parametrize("q", NEAR_ONE.values(), ids=NEAR_ONE)
def test_the_start_precision_resolves_the_claims_own_numbers(q: sp.Expr) -> None:
    """x·exp(loggamma(q)) = x is false by about 6e-701·x. SymPy evaluates loggamma(q) to 0, so
    the algebra closes the claim, and at 256 or 2048 bits every point agrees. Only a start
    precision sized by the claim's largest number (twice its bits, plus 64) tells them apart:
    numbers a precision ignores must never hide a wrong claim."""
    lhs = sp.Mul(X, sp.exp(sp.loggamma(q, **U), **U), **U)
    assert prove_identity(lhs, X, timeout=60).status == "refuted"


@pytest.mark.parametrize(
    ("number", "bits"),
    [
        (sp.Rational(1, 10**700), 2326),  # the denominator's bits
        (sp.Integer(-(10**700)), 2326),  # the magnitude, whatever the sign
        (sp.Rational(10**700 + 1, 10**700 - 1), 2326),
        (sp.Float(1 + T700, 760), 2525),  # a Float's mantissa, not its exponent
    ],
    ids=["denominator", "negative-integer", "numerator", "float-mantissa"],
)
def test_the_start_precision_holds_every_number_twice_over(number: sp.Expr, bits: int) -> None:
    """The start precision of the numeric check is at least 2·(bits of the largest number) + 64
    for every kind of number in a claim, on either side."""
    assert _holding([X + number]) >= 2 * bits + 64
    assert _holding([X, sp.Mul(number, X, **U)]) >= 2 * bits + 64


@pytest.mark.parametrize("swap", [False, True], ids=["constant-left", "constant-right"])
def test_a_cited_link_on_a_misjudged_constant_gets_the_deeper_look(monkeypatch, swap) -> None:
    """A cited rule works on SymPy's copy, where exp(acosh(1 + 10**-20))**0 may be rebuilt.
    Its zero (pretended here, exact) must stand only where the given trees agree at 2048 bits:
    x·(1 + e**-1000) = x agrees at all 24 points from 256 bits and differs at 2048."""
    monkeypatch.setattr(
        derivation, "check_cited", lambda a, b, by: SymbolicResult(True, "algebra", cited="algebra")
    )
    e = sp.exp(sp.acosh(sp.Add(1, sp.Rational(1, 10**20), **U), **U), **U)
    lhs = sp.Mul(X, sp.Add(1, sp.exp(-1000), **U), sp.Pow(e, 0, **U), **U)
    a, b = (X, lhs) if swap else (lhs, X)
    assert check_numeric(a, b).passed is True
    link = check_link(a, b, by=ALGEBRA)
    assert link.status == "refuted" and link.numeric.passed is False


def test_a_zero_the_deeper_look_cannot_confirm_is_not_proved(monkeypatch) -> None:
    """A zero reached by simplify (pretended here) stands only if the deeper look agrees at every
    point. When the deeper look decides nothing (every 2048-bit point made to answer "unknown"),
    the link is undecided: an undecided confirmation must never leave the first check's "passed"
    in place."""
    monkeypatch.setattr(
        derivation,
        "check_uncited",
        lambda a, b, thorough=True: SymbolicResult(True, "simplify", exact=False),
    )
    real = pointwise.certify_difference

    def undecided_when_deep(lhs, rhs, point, *, start_bits, **kwargs):
        if start_bits >= 2048:
            return Decision("unknown", "made undecided for the test", start_bits)
        return real(lhs, rhs, point, start_bits=start_bits, **kwargs)

    monkeypatch.setattr(pointwise, "certify_difference", undecided_when_deep)
    link = check_link(X**2 - 1, (X - 1) * (X + 1))
    assert link.symbolic.passed is True and link.numeric.passed is None
    assert link.status == "undecided"


def test_a_nonzero_constant_below_the_first_bound_refutes_with_a_counterexample() -> None:
    """x(x + 1) + e**-200 = x² + x: the algebra leaves the constant e**-200 (about 2**-288),
    which the first check's 256 bits take for agreement (within 2**-160). The confirmation at a
    precision that resolves it finds the sides differ: the link is refuted, with the point."""
    lhs, rhs = X * (X + 1) + sp.exp(-200), X**2 + X
    assert check_numeric(lhs, rhs).passed is True
    link = check_link(lhs, rhs)
    assert link.symbolic.passed is False and link.numeric.passed is False
    assert link.status == "refuted" and link.numeric.counterexample is not None
    verdict = prove_identity(lhs, rhs)
    assert verdict.status == "refuted" and verdict.counterexample is not None
