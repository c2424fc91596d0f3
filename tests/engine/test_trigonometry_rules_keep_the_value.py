"""The trigonometric rules are exact (issue 34, docs/mutation-testing.md): whatever they rewrite,
the value stays. A link citing one closes when both sides, rewritten, are equal by algebra, so a
rewrite that changed a value could close a false link.

Each rule is applied to expressions that reach each of its branches, and the rewrite is compared
with the original at a point where every symbol has an exact value (real symbols at rationals,
integer symbols at integers), both evaluated to 60 digits: the identities hold exactly, so the
two must agree to far better than 10⁻⁴⁰. Where a rule must leave an expression alone (an angle
that is not a multiple of 2π, a coefficient beyond 12), the test says so and why.
"""

from __future__ import annotations

import pytest
import sympy as sp

from proofs.engine.citation import rules_close
from proofs.engine.rules import (
    ANGLE_ADDITION,
    ANGLE_SUBTRACTION,
    COMMON_ANGLE,
    HALF_PERIOD,
    MULTIPLE_ANGLE,
    PARITY,
    PERIOD,
    PYTHAGOREAN,
)
from proofs.engine.rules.trigonometry import (
    angle_addition,
    angle_subtraction,
    common_angle,
    half_period,
    is_integer_multiple,
    multiple_angle,
    parity,
    period,
    pythagorean,
)

X, Y, Z, W = sp.symbols("x y z w", real=True)
K, N = sp.symbols("k n", integer=True)
PI = sp.pi
POINT = {
    X: sp.Rational(7, 10),
    Y: sp.Rational(-13, 10),
    Z: sp.Rational(3, 7),
    W: sp.Rational(11, 9),
    K: sp.Integer(3),
    N: sp.Integer(-2),
}


def _add(*terms: sp.Basic) -> sp.Expr:
    return sp.Add(*terms, evaluate=False)


def _mul(*factors: sp.Basic) -> sp.Expr:
    return sp.Mul(*factors, evaluate=False)


def _f(function: type, argument: sp.Basic) -> sp.Expr:
    return function(argument, evaluate=False)


def _values(e: sp.Basic) -> list[sp.Expr]:
    entries = list(e) if isinstance(e, sp.Tuple | sp.MatrixBase) else [e]
    # A Float is taken at its exact binary value (evalf would stop at the Float's 53 bits).
    exact = [
        entry.xreplace({f: sp.Rational(f) for f in entry.atoms(sp.Float)}) for entry in entries
    ]
    return [sp.N(entry.xreplace(POINT), 60) for entry in exact]


def _keeps_value(rewrite, e: sp.Basic) -> None:
    before, after = _values(e), _values(rewrite(e))
    assert len(before) == len(after)
    for b, a in zip(before, after, strict=True):
        assert abs(b - a) < sp.Float(10) ** -40, (e, rewrite(e))


# Arguments that are sums once multiplied out: two and three terms, terms with minus signs in
# every place, a multiple of a sum, and nine terms (beyond the eight split).
SUMS = [
    _add(X, Y),
    _add(X, -Y),
    _add(-X, Y),
    _add(-X, -Y),
    _add(X, Y, Z),
    _add(X, -Y, -2 * Z),
    _add(-X, Y, -Z),
    _mul(2, _add(X, Y)),
    _mul(_add(X, -Y), Z),
    _add(*(sp.Rational(j, 7) * X for j in range(1, 10))),
    # A Float is its exact binary value: never evaluated to 15 digits on the way.
    _add(X, sp.Float(0.1)),
    _add(sp.Float(-0.3), Y, PI / 6),
]
ADDITION_CASES = [
    _f(function, argument) for function in (sp.sin, sp.cos, sp.sinh, sp.cosh) for argument in SUMS
] + [
    _f(sp.tan, _add(X, Y)),  # not rewritten
    _f(sp.sin, _add(_f(sp.cos, _add(X, -Y)), Z)),  # nested
    _add(_f(sp.sin, _add(X, Y)), _mul(3, _f(sp.cosh, _add(Y, -Z)))),
    sp.ImmutableMatrix([[_f(sp.cos, _add(X, -Y)), _f(sp.sinh, _add(-X, Y))]]),
]


@pytest.mark.parametrize("e", ADDITION_CASES, ids=str)
@pytest.mark.parametrize("rewrite", [angle_addition, angle_subtraction], ids=lambda r: r.__name__)
def test_angle_addition_and_subtraction_keep_the_value(rewrite, e) -> None:
    _keeps_value(rewrite, e)


def test_angle_addition_and_subtraction_write_the_formulas() -> None:
    # By hand: the addition formulas, and for cosh the sign of sinh·sinh is +, for cos −.
    sx, cx, sy, cy = sp.sin(X), sp.cos(X), sp.sin(Y), sp.cos(Y)
    shx, chx, shy, chy = sp.sinh(X), sp.cosh(X), sp.sinh(Y), sp.cosh(Y)
    assert sp.expand(angle_addition(_f(sp.cos, _add(X, Y))) - (cx * cy - sx * sy)) == 0
    assert sp.expand(angle_addition(_f(sp.cosh, _add(X, Y))) - (chx * chy + shx * shy)) == 0
    # With subtraction, −y is split off as y: cos(x − y) = cos x cos y + sin x sin y.
    assert sp.expand(angle_subtraction(_f(sp.cos, _add(X, -Y))) - (cx * cy + sx * sy)) == 0
    assert sp.expand(angle_subtraction(_f(sp.sin, _add(X, -Y))) - (sx * cy - cx * sy)) == 0
    assert sp.expand(angle_subtraction(_f(sp.cosh, _add(X, -Y))) - (chx * chy - shx * shy)) == 0
    assert sp.expand(angle_subtraction(_f(sp.sinh, _add(X, -Y))) - (shx * chy - chx * shy)) == 0
    # Nine terms are left whole.
    nine = _f(sp.sin, SUMS[9])
    assert angle_addition(nine) == nine


PARITY_CASES = [
    _f(function, argument)
    for function in (sp.sin, sp.cos, sp.tan, sp.sinh, sp.cosh, sp.tanh)
    for argument in (-X, _mul(-2, Y), _add(-X, -Y), _add(X, Y))
] + [
    _add(_f(sp.sin, -X), _f(sp.cos, _f(sp.sin, -Y))),
    # A Float angle is its exact binary value: sin(0.1) is never evaluated to 15 digits.
    *(_f(function, sp.Float(-0.1)) for function in (sp.sin, sp.cos, sp.tan, sp.sinh, sp.tanh)),
]


@pytest.mark.parametrize("e", PARITY_CASES, ids=str)
def test_parity_keeps_the_value(e) -> None:
    _keeps_value(parity, e)


PYTHAGOREAN_CASES = [
    sp.cos(X) ** 2,
    sp.cos(X) ** 3,
    sp.cos(X) ** 4 * sp.sin(X),
    sp.cos(X) ** 5 + sp.sin(X) ** 2,
    sp.cosh(X) ** 2,
    sp.cosh(X) ** 3 - sp.sinh(X) ** 2,
    sp.cos(X) ** 2 * sp.cos(Y) ** 3,
    sp.cosh(X) ** 2 * sp.cos(X) ** 2,
    sp.cos(X) ** -2,
    sp.cos(X),
    (sp.sin(X) + sp.cos(X)) ** 2,
    sp.cos(X + Y) ** 2 * 3,
    sp.cos(X) ** sp.Rational(5, 2),
    # A Float angle: sin(0.1) is never evaluated to 15 digits.
    _f(sp.cos, sp.Float(0.1)) ** 2,
    _f(sp.cosh, sp.Float(-0.3)) ** 3,
    sp.sin(X) ** 3,
    sp.Tuple(sp.cos(X) ** 2, sp.cosh(Y) ** 4),
    sp.ImmutableMatrix([[sp.cos(X) ** 2, 1], [sp.cosh(Y) ** 2, sp.cos(Z) ** 6]]),
]


@pytest.mark.parametrize("e", PYTHAGOREAN_CASES, ids=str)
def test_pythagorean_keeps_the_value(e) -> None:
    _keeps_value(pythagorean, e)


def test_pythagorean_writes_cosines_through_sines() -> None:
    # By hand: cos²x = 1 − sin²x, cos³x = (1 − sin²x)·cos x, cosh²x = 1 + sinh²x.
    assert sp.expand(pythagorean(sp.cos(X) ** 2) - (1 - sp.sin(X) ** 2)) == 0
    assert sp.expand(pythagorean(sp.cos(X) ** 3) - (1 - sp.sin(X) ** 2) * sp.cos(X)) == 0
    assert sp.expand(pythagorean(sp.cosh(X) ** 2) - (1 + sp.sinh(X) ** 2)) == 0
    assert pythagorean(sp.sin(X) ** 2) == sp.sin(X) ** 2


# (m, n, whether m is n times an integer), by hand. A real symbol, a non-integer rational, a Float
# and an integer coefficient that n does not divide are never multiples.
INTEGER_MULTIPLES = [
    (sp.Integer(4), 2, True),
    (sp.Integer(3), 2, False),
    (sp.Integer(-6), 2, True),
    (sp.Integer(0), 2, True),
    (sp.Rational(6, 3), 2, True),
    (sp.Rational(1, 2), 1, False),
    (sp.Integer(5), 1, True),
    (4 * K, 2, True),
    (2 * K * N, 2, True),
    (K, 2, False),
    (3 * K, 2, False),
    (K, 1, True),
    (-K, 1, True),
    (K * N, 1, True),
    (2 * Y, 2, False),
    (2 * K * Y, 2, False),
    (Y, 1, False),
    (K / 2, 1, False),
    (sp.Float(4.0), 2, False),
    (sp.Float(2.0) * K, 2, False),
    (sp.Symbol("u"), 1, False),
]


@pytest.mark.parametrize(("m", "n", "multiple"), INTEGER_MULTIPLES, ids=str)
def test_integer_multiples_are_read_off_the_structure(m, n, multiple) -> None:
    assert is_integer_multiple(m, n) is multiple


def test_the_default_is_a_multiple_of_one() -> None:
    assert is_integer_multiple(K) is True
    assert is_integer_multiple(sp.Rational(3, 2)) is False


PERIOD_ARGUMENTS = [
    _add(X, _mul(2, PI, N)),
    _add(X, _mul(2, PI, K, N)),
    _add(X, _mul(4, PI, K), PI / 3),
    _add(X, 2 * PI),
    _add(X, -2 * PI),
    _add(X, 5 * PI),
    _add(X, -PI),
    _add(X, _mul(-7, PI) / 3),
    _add(X, PI),
    _add(X, PI / 2),
    3 * PI / 2,
    13 * PI / 4,
    -PI / 4,
    _mul(2, PI),
    _add(X, _mul(PI, N)),
    _add(X, _mul(3, PI, N)),
    _add(X, _mul(2, PI, Y)),
    _add(X, _mul(2, PI, sp.Rational(1, 3), K)),
    _add(X, _mul(PI, K), _mul(2, PI, N), PI / 5),
    _add(X, _mul(PI, Y)),
    _add(X, _mul(2, PI, X)),
    _add(X, PI**2),
    _mul(PI, _add(K, Y)),
    _add(X, Y),
]
PERIOD_CASES = [_f(function, a) for function in (sp.sin, sp.cos) for a in PERIOD_ARGUMENTS] + [
    _f(sp.tan, _add(X, PI)),
    _f(sp.sinh, _add(X, _mul(2, PI, N))),
    _add(_f(sp.sin, _add(X, 2 * PI)), _f(sp.cos, _add(_f(sp.sin, _add(Y, 3 * PI)), 2 * PI))),
]


@pytest.mark.parametrize("e", PERIOD_CASES, ids=str)
@pytest.mark.parametrize("rewrite", [period, half_period], ids=lambda r: r.__name__)
def test_period_and_half_period_keep_the_value(rewrite, e) -> None:
    _keeps_value(rewrite, e)


def _same(e: sp.Basic, function: type, argument: sp.Expr) -> bool:
    return e.func is function and sp.expand(e.args[0] - argument) == 0


def test_period_and_half_period_do_their_work() -> None:
    # By hand: 2πn comes off, 5π becomes π, −7π/3 becomes 5π/3; nπ gives (−1)ⁿ.
    assert period(_f(sp.sin, _add(X, _mul(2, PI, N)))) == sp.sin(X)
    assert _same(period(_f(sp.cos, _add(X, 5 * PI))), sp.cos, X + PI)
    assert _same(period(_f(sp.sin, _add(X, -7 * PI / 3))), sp.sin, X + 5 * PI / 3)
    assert half_period(_f(sp.sin, _add(X, _mul(PI, N)))) == (-1) ** N * sp.sin(X)
    assert half_period(_f(sp.sin, _mul(PI, N))) == 0
    assert half_period(_f(sp.cos, _mul(PI, N))) == (-1) ** N
    # Not multiples of 2π (or of π): left alone.
    for argument in (_add(X, _mul(PI, N)), _add(X, _mul(2, PI, Y)), _add(X, PI**2)):
        assert period(_f(sp.sin, argument)) == _f(sp.sin, argument)
    for argument in (_add(X, _mul(PI, Y)), _add(X, PI / 2), _add(X, _mul(PI, N) / 2)):
        assert half_period(_f(sp.cos, argument)) == _f(sp.cos, argument)


MULTIPLE_CASES = [
    _f(function, _mul(n, X)) for function in (sp.sin, sp.cos) for n in (2, 3, 4, 5, 7, 12, 13)
] + [
    # A Float angle: sin(0.1) is never evaluated to 15 digits.
    _f(sp.sin, _mul(3, sp.Float(0.1))),
    _f(sp.cos, _mul(2, sp.Float(-0.7))),
    _f(sp.sin, _mul(-3, X)),
    _f(sp.cos, _mul(sp.Rational(5, 2), X)),
    _f(sp.cos, _mul(3, _add(X, Y))),
    _f(sp.sinh, _mul(2, X)),
    _add(_f(sp.sin, _mul(2, X)), _f(sp.cos, _mul(2, _f(sp.sin, _mul(3, Y))))),
]


@pytest.mark.parametrize("e", MULTIPLE_CASES, ids=str)
def test_multiple_angle_keeps_the_value(e) -> None:
    _keeps_value(multiple_angle, e)


def test_multiple_angle_writes_chebyshev() -> None:
    # By hand: sin 3x = 3 sin x − 4 sin³x, cos 3x = 4 cos³x − 3 cos x (after cos² = 1 − sin²);
    # 13 is beyond the limit of 12.
    s, c = sp.sin(X), sp.cos(X)
    three_sin = sp.expand(multiple_angle(_f(sp.sin, 3 * X)).subs(c**2, 1 - s**2))
    assert sp.expand(three_sin - (3 * s - 4 * s**3)) == 0
    three_cos = sp.expand(multiple_angle(_f(sp.cos, 3 * X)).subs(s**2, 1 - c**2))
    assert sp.expand(three_cos - (4 * c**3 - 3 * c)) == 0
    assert multiple_angle(_f(sp.sin, 13 * X)) == _f(sp.sin, 13 * X)


COMMON_CASES = [
    sp.Tuple(sp.sin(X), sp.sin(X / 2)),
    sp.Tuple(sp.cos(X), sp.cos(X / 2)),
    sp.Tuple(sp.sin(2000000 * X), sp.sin(1000000 * X)),
    sp.Tuple(sp.sin(4 * X / 3), sp.cos(2 * X / 3)),
    sp.Tuple(sp.sin(X / 3), sp.cos(X / 2)),
    sp.Tuple(sp.cos(3 * X / 4), sp.sin(X / 2) + sp.cos(X / 4)),
    sp.Tuple(sp.sin(3 * X), sp.cos(2 * X)),
    sp.Tuple(sp.sin(13 * X), sp.sin(X / 2)),
    sp.Tuple(sp.sin(6 * X), sp.sin(4 * X)),
    sp.Tuple(sp.sin(-X), sp.sin(X / 2)),
    sp.Tuple(sp.sin(X) * sp.cos(Y / 3), sp.sin(X / 2) + sp.cos(Y)),
    sp.Tuple(sp.sin(X), sp.sin(2 * X)),
    sp.Tuple(sp.sin(X + Y), sp.sin(2 * X + 2 * Y)),
    sp.Tuple(sp.sin(sp.sqrt(2) * X), sp.sin(X)),
    sp.Tuple(sp.sin(X / 2), sp.sin(X / 2)),
    # Angles with a Float: the common angle 2/3 · 0.1 is never rounded to 53 bits.
    sp.Tuple(
        _f(sp.sin, _mul(sp.Rational(4, 3), sp.Float(0.1))),
        _f(sp.sin, _mul(sp.Rational(2, 3), sp.Float(0.1))),
    ),
    sp.Tuple(
        _f(sp.cos, _mul(sp.Rational(4, 3), sp.Float(0.1), Y)),
        _f(sp.sin, _mul(sp.Rational(2, 3), sp.Float(0.1), Y)),
    ),
]


@pytest.mark.parametrize("e", COMMON_CASES, ids=str)
def test_common_angle_keeps_the_value(e) -> None:
    _keeps_value(common_angle, e)


def test_common_angle_writes_over_the_common_angle() -> None:
    # By hand: sin 6x = 2 sin 3x cos 3x beside sin 4x = 2 sin 2x cos 2x: g = 2, so
    # sin 6x = sin(3·2x) = 3 sin 2x − 4 sin³2x (with cos² = 1 − sin²).
    six, four = common_angle(sp.Tuple(sp.sin(6 * X), sp.sin(4 * X)))
    s2, c2 = sp.sin(2 * X), sp.cos(2 * X)
    assert sp.expand(sp.expand(six).subs(c2**2, 1 - s2**2) - (3 * s2 - 4 * s2**3)) == 0
    assert sp.expand(four - 2 * s2 * c2) == 0
    # Coefficients 3 and 2 have gcd 1; 26 halves exceed 12; one angle alone has no partner.
    for left_alone in [*COMMON_CASES[6:8], sp.Tuple(sp.sin(X / 2), sp.sin(X / 2))]:
        assert common_angle(left_alone) == left_alone


ROUNDED = sp.Rational(2, 3) * sp.Float(0.1)  # a 53-bit Float, not 2/3 · 0.1
# False links, each one value off (by hand): the rules must not close any of them.
FALSE_LINKS = [
    (_f(sp.cos, _add(X, Y)), sp.cos(X) * sp.cos(Y) + sp.sin(X) * sp.sin(Y), ANGLE_ADDITION),
    (
        _f(sp.cosh, _add(X, -Y)),
        sp.cosh(X) * sp.cosh(Y) + sp.sinh(X) * sp.sinh(Y),
        ANGLE_SUBTRACTION,
    ),
    (_f(sp.cos, -X), -sp.cos(X), PARITY),
    (_f(sp.sinh, -X), sp.sinh(X), PARITY),
    (sp.cosh(X) ** 2 - sp.sinh(X) ** 2, sp.Integer(-1), PYTHAGOREAN),
    (_f(sp.sin, _add(X, _mul(PI, N))), sp.sin(X), PERIOD),
    (_f(sp.sin, _add(X, _mul(2, PI, Y))), sp.sin(X), PERIOD),
    (_f(sp.cos, _add(X, _mul(PI, N))), sp.cos(X), HALF_PERIOD),
    (_f(sp.sin, _mul(PI, N)), sp.Integer(1), HALF_PERIOD),
    (_f(sp.sin, _mul(2, X)), sp.sin(X) * sp.cos(X), MULTIPLE_ANGLE),
    (sp.sin(X), 2 * sp.sin(X / 4) * sp.cos(X / 4), COMMON_ANGLE),
    # sin(4/3 · 0.1) + sin(2/3 · 0.1) against the same with 2/3 · 0.1 rounded to 53 bits, which
    # is 2⁻⁵⁶/3 below the exact product (exact rational arithmetic on 0.1's binary value):
    # common_angle once multiplied g·x out and closed it.
    (
        _add(
            _f(sp.sin, _mul(sp.Rational(4, 3), sp.Float(0.1))),
            _f(sp.sin, _mul(sp.Rational(2, 3), sp.Float(0.1))),
        ),
        2 * _f(sp.sin, ROUNDED) * _f(sp.cos, ROUNDED) + _f(sp.sin, ROUNDED),
        COMMON_ANGLE,
    ),
]


@pytest.mark.parametrize(("lhs", "rhs", "rule"), FALSE_LINKS, ids=str)
def test_the_trigonometric_rules_never_close_a_false_link(lhs, rhs, rule) -> None:
    assert not rules_close(lhs, rhs, (rule,))


def test_pythagorean_keeps_the_order_of_non_commuting_factors() -> None:
    # Found by the mutation run (docs/mutation-testing.md): the rule regrouped every term by
    # base, so p·q·p became p²·q for non-commuting p, q, and PYTHAGOREAN closed the false link
    # cos x·p·q·p = cos x·p·p·q. By hand: cos x·p·q·p has no square to rewrite, and
    # cos²x·p·q·p = p·q·p − sin²x·p·q·p.
    p, q = sp.symbols("p q", commutative=False)
    assert pythagorean(sp.cos(X) * p * q * p) == sp.cos(X) * p * q * p
    squared = pythagorean(sp.cos(X) ** 2 * p * q * p)
    assert sp.expand(squared - (p * q * p - sp.sin(X) ** 2 * p * q * p)) == 0
    assert not rules_close(sp.cos(X) * p * q * p, sp.cos(X) * p * p * q, (PYTHAGOREAN,))
