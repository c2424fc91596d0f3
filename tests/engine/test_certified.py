"""The certified ball evaluator: branch points, exact Floats, cancellation, conventions, limits."""

from __future__ import annotations

import time

import flint
import mpmath
import pytest
import sympy as sp
from sympy.printing.codeprinter import PrintMethodNotImplementedError
from sympy.printing.pycode import MpmathPrinter

from proofs.engine.ball_operations import supported_functions
from proofs.engine.certified import (
    CertifiedError,
    IndeterminateError,
    UntranslatableError,
    certify_difference,
    is_zero_certified,
    to_arb,
)

x = sp.Symbol("x")
n = sp.Symbol("n")
T = sp.Rational(1, 10**20)  # distance from the special point
EPS = sp.Rational(1, 10**25)  # the size of the error planted in a false claim
q = 1 + T
p = 1 - T

# (name, true lhs, true rhs, false rhs): each false rhs is off by a tiny amount.
NEAR_SPECIAL_POINTS = [
    (
        "acosh near 1",
        sp.acosh(q),
        sp.log(q + sp.sqrt(q**2 - 1)),
        sp.log(q + sp.sqrt(q**2 - 1)) + EPS,
    ),
    (
        "acos near 1",
        sp.acos(p),
        2 * sp.asin(sp.sqrt((1 - p) / 2)),
        2 * sp.asin(sp.sqrt((1 - p) / 2)) + EPS,
    ),
    (
        "asech near 1",
        sp.asech(p),
        sp.log((1 + sp.sqrt(1 - p**2)) / p),
        sp.log((1 + sp.sqrt(1 - p**2)) / p) - EPS,
    ),
    (
        "atanh near 1",
        sp.atanh(p),
        sp.log((1 + p) / (1 - p)) / 2,
        sp.log((1 + p) / (1 - p)) / 2 + EPS,
    ),
    (
        "acoth near 1",
        sp.acoth(q),
        sp.log((q + 1) / (q - 1)) / 2,
        sp.log((q + 1) / (q - 1)) / 2 - EPS,
    ),
    ("log near 1", sp.log(q), 2 * sp.atanh((q - 1) / (q + 1)), T),
    ("loggamma near 1", sp.loggamma(q), sp.loggamma(1 + q) - sp.log(q), -sp.EulerGamma * T),
    ("loggamma near 2", sp.loggamma(1 + q), sp.log(sp.gamma(1 + q)), (1 - sp.EulerGamma) * T),
    ("zeta near 1", sp.zeta(q), sp.zeta(q, 2) + 1, 1 / (q - 1) + sp.EulerGamma),
    ("erfinv near 0", sp.erfinv(T), sp.erfinv(T), sp.sqrt(sp.pi) * T / 2),
    ("li near 1", sp.li(q), sp.Ei(sp.log(q)), sp.EulerGamma + sp.log(sp.log(q))),
    (
        "elliptic_k near 1 (Legendre's relation)",
        sp.elliptic_e(p) * sp.elliptic_k(T)
        + sp.elliptic_e(T) * sp.elliptic_k(p)
        - sp.elliptic_k(p) * sp.elliptic_k(T),
        sp.pi / 2,
        sp.pi / 2 + EPS,
    ),
    ("sinc near 0", sp.sinc(T), sp.sin(T) / T, sp.Integer(1)),
]


@pytest.mark.parametrize(
    ("name", "lhs", "rhs", "wrong"), NEAR_SPECIAL_POINTS, ids=[c[0] for c in NEAR_SPECIAL_POINTS]
)
def test_near_special_points_true_agrees_false_differs(name, lhs, rhs, wrong):
    assert certify_difference(lhs, rhs, {}).status == "agrees", name
    assert certify_difference(lhs, wrong, {}).status == "differs", name


def test_acosh_just_above_1_is_certified_nonzero():
    d = certify_difference(sp.acosh(q), 0, {})
    assert d.status == "differs"
    assert d.lhs.startswith("1.41421356237309504")
    assert d.lhs.endswith("e-10")


def test_erfinv_agrees_with_its_inverse_near_0():
    assert certify_difference(sp.erf(sp.erfinv(T)), T, {}).status == "agrees"
    # SymPy's evalf cannot do erfcinv; erfcinv(1 - t) = erfinv(t) checks it instead.
    assert certify_difference(sp.erfcinv(1 - T), sp.erfinv(T), {}).status == "agrees"
    assert certify_difference(sp.erfinv(2), 0, {}).status == "unknown"


def test_float_is_its_exact_binary_value():
    d = certify_difference(
        sp.Float(0.1) * x, (sp.Rational(1, 10) + sp.Rational(1, 10**17)) * x, {x: 1}
    )
    assert d.status == "differs"
    exact = sp.Rational(3602879701896397, 36028797018963968)
    assert certify_difference(sp.Float(0.1), exact, {}).status == "agrees"
    assert certify_difference(sp.Float(0.1), sp.Rational(1, 10), {}).status == "differs"


def test_sin_of_pi_times_a_huge_integer_agrees_with_zero():
    # n carries no integer assumption, so SymPy keeps sin(pi*n) for the evaluator to do.
    d = certify_difference(sp.sin(sp.pi * n), 0, {n: 10**30})
    assert d.status == "agrees"
    assert (
        certify_difference(sp.sin(sp.pi * n), sp.Rational(1, 10**60), {n: 10**30}).status
        == "differs"
    )


def test_absorbed_argument_is_not_a_difference():
    big = sp.Integer(2) ** 700
    lhs = sp.sin(x + big)
    rhs = sp.sin(x) * sp.cos(big) + sp.cos(x) * sp.sin(big)
    d = certify_difference(lhs, rhs, {x: sp.Rational(1, 3)})
    assert d.status == "agrees"
    assert d.bits > 256  # 2**700 swallows x until the precision exceeds 700 bits


def test_huge_rationals_and_deep_nesting_give_a_decision():
    big = sp.Rational(10**5000 + 1, 10**5000 - 1)
    assert (
        certify_difference(x * big, x * big + sp.Rational(1, 10**30), {x: big}).status == "differs"
    )
    assert certify_difference(x * big, x * big, {x: big}).status == "agrees"
    # Built unevaluated: SymPy's own assumption queries recurse too deeply on such a tower.
    deep = x
    for k in range(300):
        deep = sp.sin(sp.Add(deep, k, evaluate=False), evaluate=False)
    d = certify_difference(deep, sp.Add(deep, 1, evaluate=False), {x: sp.Rational(1, 7)})
    assert d.status == "differs"
    assert certify_difference(deep, deep, {x: sp.Rational(1, 7)}).status == "agrees"


def test_untranslatable_functions_are_unknown_with_their_name():
    f = sp.Function("mystery")
    d = certify_difference(f(x), 0, {x: 1})
    assert d.status == "unknown"
    assert "mystery" in d.reason
    d = certify_difference(sp.besselj(1, x), 0, {x: 1})
    assert d.status == "unknown"
    assert "besselj" in d.reason
    with pytest.raises(UntranslatableError):
        to_arb(sp.Integral(x, (x, 0, 1)), {}, 64)


def test_is_zero_certified():
    assert is_zero_certified(sp.Integer(0)) is True
    assert is_zero_certified(sp.Add(sp.Rational(1, 3), sp.Rational(-1, 3), evaluate=False)) is True
    assert is_zero_certified(sp.Add(sp.Float(0.5), sp.Rational(-1, 2), evaluate=False)) is True
    assert is_zero_certified(sp.Add(sp.Float(0.1), sp.Rational(-1, 10), evaluate=False)) is False
    assert is_zero_certified(sp.exp(-(10**6))) is False
    assert is_zero_certified(sp.Rational(1, 10**5000)) is False
    # True zeros that are not rational: a ball cannot prove them, so None, never True.
    assert is_zero_certified(sp.sqrt(3 + 2 * sp.sqrt(2)) - 1 - sp.sqrt(2)) is None
    two = sp.Pow(sp.sqrt(2), 2, evaluate=False)
    assert is_zero_certified(sp.Add(two, -2, evaluate=False)) is None
    with pytest.raises(ValueError, match="x"):
        is_zero_certified(x)


def test_matrices_are_compared_entrywise():
    lhs = sp.ImmutableMatrix([[sp.sin(x) ** 2 + sp.cos(x) ** 2, x], [sp.exp(sp.I * x), 0]])
    rhs = sp.ImmutableMatrix([[1, x], [sp.cos(x) + sp.I * sp.sin(x), 0]])
    assert certify_difference(lhs, rhs, {x: sp.Rational(2, 3)}).status == "agrees"
    wrong = rhs.subs(x, x + EPS)  # only the entries that mention x change
    d = certify_difference(lhs, wrong, {x: sp.Rational(2, 3)})
    assert d.status == "differs"
    assert d.entry == (0, 1)
    m = to_arb(lhs, {x: sp.Rational(2, 3)}, 128)
    assert isinstance(m, flint.acb_mat)
    assert isinstance(to_arb(sp.ImmutableMatrix([[x, 1]]), {x: 2}, 64), flint.arb_mat)


# Principal branches, on the cuts themselves and off them: the ball's midpoint must match
# SymPy's own value (evalf), which follows mpmath. A wrong branch is off by O(1).
CONVENTIONS = [
    sp.asin(2),
    sp.asin(-2),
    # unevaluated, so SymPy's odd-function rewrites do not move the point off the negative cut
    sp.asin(-2, evaluate=False),
    sp.atanh(-2, evaluate=False),
    sp.atan(-2 * sp.I, evaluate=False),
    sp.asinh(-2 * sp.I, evaluate=False),
    sp.acot(-sp.I / 2, evaluate=False),
    sp.acoth(sp.Rational(-1, 2), evaluate=False),
    sp.acsch(-sp.I / 2, evaluate=False),
    sp.asin(sp.Rational(-3, 2) - sp.I / 10**30, evaluate=False),
    sp.acosh(sp.Rational(-3, 2) + sp.I / 10**30, evaluate=False),
    sp.log(-2 - sp.I / 10**30, evaluate=False),
    sp.acos(2),
    sp.acos(-2),
    sp.atanh(2),
    sp.atanh(-2),
    sp.acosh(-2),
    sp.acosh(sp.Rational(1, 2)),
    sp.acosh(-1),
    sp.asin(1),
    sp.acos(-1),
    sp.atan(2 * sp.I),
    sp.atan(-2 * sp.I),
    sp.asinh(2 * sp.I),
    sp.asinh(-2 * sp.I),
    sp.acot(sp.I / 2),
    sp.acot(-sp.I / 2),
    sp.acot(-1),
    sp.acoth(sp.Rational(1, 2)),
    sp.acoth(sp.Rational(-1, 2)),
    sp.asech(-2),
    sp.asech(2),
    sp.asech(sp.Rational(-1, 2)),
    sp.acsch(sp.I / 2),
    sp.acsch(-sp.I / 2),
    sp.asec(sp.Rational(1, 2)),
    sp.acsc(sp.Rational(1, 2)),
    sp.loggamma(sp.Rational(-5, 2)),
    sp.loggamma(sp.Rational(-1, 2)),
    sp.li(-1),
    sp.li(sp.Rational(1, 2)),
    sp.Ei(-1),
    sp.elliptic_k(2),
    sp.elliptic_e(2),
    sp.log(-2),
    sp.sqrt(-2),
    sp.Pow(-8, sp.Rational(1, 3)),
    sp.Pow(-2, sp.Rational(1, 2) + sp.I),
    sp.atan2(1, -1),
    sp.atan2(-1, -1),
    sp.arg(-1 - sp.I),
    sp.elliptic_f(2, sp.Rational(3, 4)),
    sp.elliptic_e(2, sp.Rational(3, 4)),
    sp.elliptic_pi(sp.Rational(1, 4), sp.Rational(1, 2), sp.Rational(1, 8)),
    sp.elliptic_pi(sp.Rational(1, 4), sp.Rational(1, 8)),
    sp.zeta(2, 3),
    sp.erfinv(sp.Rational(1, 2)),
    sp.sign(-3 + 4 * sp.I),
    sp.factorial(sp.Rational(5, 2)),
    sp.binomial(-3, 2),
    sp.gamma(-sp.Rational(1, 2)),
    sp.asin(2 + sp.I),
    sp.acosh(-2 - sp.I),
    sp.log(-2 - sp.I),
    sp.atanh(3 + sp.I),
    sp.li(-1 + 2 * sp.I),
    sp.loggamma(-sp.Rational(5, 2) + sp.I),
    sp.elliptic_k(2 - sp.I),
    sp.Pow(-2 - sp.I, sp.Rational(1, 3)),
    sp.floor(sp.Rational(5, 2) - sp.Rational(7, 2) * sp.I),
    sp.ceiling(-sp.Rational(5, 2)),
    sp.Min(1, sp.Rational(1, 3)),
    sp.Max(sp.sqrt(2), sp.Rational(3, 2)),
    sp.Abs(3 + 4 * sp.I),
    sp.im(sp.sqrt(-2)),
    sp.conjugate(sp.sqrt(-2)),
    sp.Catalan + sp.GoldenRatio + sp.EulerGamma + sp.E,
    sp.tan(1)
    + sp.cot(1)
    + sp.sec(1)
    + sp.csc(1)
    + sp.coth(1)
    + sp.sech(1)
    + sp.csch(1)
    + sp.tanh(1),
    sp.erfc(2) + sp.erfi(1) + sp.zeta(sp.Rational(1, 2)),
]


@pytest.mark.parametrize("expr", CONVENTIONS, ids=[sp.sstr(e) for e in CONVENTIONS])
def test_branch_conventions_match_sympy(expr):
    ball = to_arb(expr, {}, 200)
    re, im = (ball, flint.arb(0)) if isinstance(ball, flint.arb) else (ball.real, ball.imag)
    with mpmath.workdps(60):
        got = mpmath.mpc(
            mpmath.mpf(re.mid().str(55, radius=False)), mpmath.mpf(im.mid().str(55, radius=False))
        )
        value = expr.evalf(60)
        want = mpmath.mpc(mpmath.mpf(str(sp.re(value))), mpmath.mpf(str(sp.im(value))))
        assert abs(got - want) < mpmath.mpf(10) ** -40 * max(1, abs(want)), sp.sstr(expr)


def test_a_ball_straddling_a_cut_is_never_decided():
    # The imaginary part is exactly 0 but computed as a ball around 0: log cannot pick a side.
    z = -1 + sp.I * (sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1)
    with pytest.raises(IndeterminateError, match="branch cut"):
        to_arb(sp.log(z), {x: sp.Rational(1, 3)}, 128)
    assert certify_difference(sp.log(z), sp.I * sp.pi, {x: sp.Rational(1, 3)}).status == "unknown"
    assert certify_difference(sp.sign(sp.sin(sp.pi * n)), 1, {n: 10**30}).status == "unknown"


def test_sums_products_and_piecewise_follow_sympy():
    i, a, b = sp.symbols("i a b", integer=True)
    for lo, hi in ((1, 5), (5, 1), (3, 2)):
        for kind in (sp.Sum, sp.Product):
            lazy = kind(i + x, (i, a, b))
            want = kind(i + x, (i, lo, hi)).doit().subs(x, sp.Rational(1, 3))
            d = certify_difference(lazy, want, {a: lo, b: hi, x: sp.Rational(1, 3)})
            assert d.status == "agrees", (kind, lo, hi)
    assert certify_difference(sp.Sum(i, (i, a, b)), 0, {a: 0, b: 10**7}).status == "unknown"
    piece = sp.Piecewise((1 / x, x > 0), (0, True))
    assert certify_difference(piece, 0, {x: 0}).status == "agrees"  # 1/x is never evaluated
    undecided = sp.Piecewise((1, sp.sin(sp.pi * n) > 0), (0, True))
    assert certify_difference(undecided, 0, {n: 10**30}).status == "unknown"


def test_poles_and_bad_points():
    assert certify_difference(1 / (x - 1), 0, {x: 1}).status == "unknown"
    assert certify_difference(sp.log(x), 0, {x: 0}).status == "unknown"
    with pytest.raises(ValueError, match="x"):
        to_arb(x, {}, 64)
    with pytest.raises(TypeError, match="x"):
        to_arb(x, {x: "1"}, 64)
    with pytest.raises(ValueError, match="exact"):
        to_arb(x, {x: sp.sqrt(2)}, 64)


def test_flint_precision_is_restored():
    before = flint.ctx.prec
    certify_difference(sp.sin(x + sp.Integer(2) ** 700), 0, {x: 1})
    certify_difference(sp.log(x), 0, {x: 0})
    assert flint.ctx.prec == before


def test_every_function_of_the_brief_is_translated():
    wanted = [
        "Add",
        "Mul",
        "Pow",
        "exp",
        "log",
        "sin",
        "cos",
        "tan",
        "cot",
        "sec",
        "csc",
        "asin",
        "acos",
        "atan",
        "acot",
        "sinh",
        "cosh",
        "tanh",
        "coth",
        "asinh",
        "acosh",
        "atanh",
        "acoth",
        "asech",
        "acsch",
        "Abs",
        "sign",
        "re",
        "im",
        "conjugate",
        "floor",
        "ceiling",
        "Min",
        "Max",
        "Pi",
        "Exp1",
        "ImaginaryUnit",
        "EulerGamma",
        "Catalan",
        "GoldenRatio",
        "Rational",
        "Float",
        "gamma",
        "loggamma",
        "zeta",
        "erf",
        "erfc",
        "erfinv",
        "li",
        "Ei",
        "elliptic_k",
        "elliptic_e",
        "elliptic_f",
        "elliptic_pi",
        "sinc",
        "atan2",
        "factorial",
        "binomial",
        "Piecewise",
        "Sum",
        "Product",
    ]
    assert set(wanted) <= set(supported_functions())


def test_a_passed_deadline_gives_unknown():
    d = certify_difference(sp.sin(x), sp.sin(x), {x: 1}, deadline=time.monotonic() - 1)
    assert d.status == "unknown"
    assert "time" in d.reason


_UNARY = [
    sp.sin,
    sp.cos,
    sp.tan,
    sp.cot,
    sp.exp,
    sp.log,
    sp.sqrt,
    sp.asin,
    sp.acos,
    sp.atan,
    sp.acot,
    sp.asinh,
    sp.acosh,
    sp.atanh,
    sp.acoth,
    sp.asech,
    sp.acsch,
    sp.asec,
    sp.acsc,
    sp.sinh,
    sp.cosh,
    sp.tanh,
    sp.coth,
    sp.loggamma,
    sp.gamma,
    sp.erf,
    sp.li,
    sp.Ei,
    sp.sinc,
    sp.elliptic_k,
    sp.elliptic_e,
    sp.zeta,
    sp.Abs,
    sp.sign,
    sp.arg,
    sp.re,
    sp.im,
    sp.conjugate,
    lambda a: a ** sp.Rational(1, 3),
    lambda a: a ** sp.Rational(-2, 5),
    lambda a: a ** (sp.Rational(1, 2) + sp.I),
]
_BINARY = [sp.Add, sp.Mul, lambda a, b: a - b, lambda a, b: a / b, sp.Pow]


def _random_expr(rng, depth: int) -> sp.Expr:
    if depth == 0:
        return rng.choice([x, n, sp.Rational(rng.randint(-30, 30), rng.randint(1, 9)), sp.I, sp.pi])
    if rng.random() < 0.6:
        return rng.choice(_UNARY)(_random_expr(rng, depth - 1))
    return rng.choice(_BINARY)(_random_expr(rng, depth - 1), _random_expr(rng, depth - 1))


def _random_value(rng) -> sp.Expr:
    """Ordinary points, integers (branch points) and points within 1e-5..1e-30 of a cut."""
    value = sp.Rational(rng.randint(-3000, 3000), 1000)
    if rng.random() < 0.4:
        value += sp.I * sp.Rational(rng.randint(-3000, 3000), 1000)
    if rng.random() < 0.2:
        value = sp.Integer(rng.randint(-3, 3))
    if rng.random() < 0.3:
        tiny = sp.Rational(rng.choice([1, -1]), 10 ** rng.randint(5, 30))
        value = rng.randint(-3, 3) + tiny * rng.choice([1, sp.I])
    return value


def _mpc(ball) -> mpmath.mpc:
    re, im = (ball, flint.arb(0)) if isinstance(ball, flint.arb) else (ball.real, ball.imag)
    return mpmath.mpc(
        mpmath.mpf(re.mid().str(90, radius=False)), mpmath.mpf(im.mid().str(90, radius=False))
    )


@pytest.mark.slow
def test_random_expressions_contain_mpmaths_value():
    """Random compositions at random points, many near cuts: the ball holds mpmath's value.

    mpmath's value counts only where 100 and 200 digits agree (mpmath's own rounding).
    """
    import random

    rng = random.Random(2026)
    compared = 0
    for _ in range(1500):
        expr = _random_expr(rng, rng.randint(1, 3))
        point = {x: _random_value(rng), n: _random_value(rng)}
        try:
            ball = to_arb(expr, point, 300)
        except CertifiedError:
            continue
        try:
            f = sp.lambdify(
                (x, n),
                expr,
                modules="mpmath",
                printer=_ExactIPrinter({"fully_qualified_modules": False, "inline": True}),
            )
        except PrintMethodNotImplementedError:
            continue  # no mpmath translation (li, for one): nothing to compare with
        refs = []
        for dps in (100, 200):
            with mpmath.workdps(dps):
                try:
                    refs.append(mpmath.mpc(f(*(_mp_exact(point[s]) for s in (x, n)))))
                except (ValueError, ZeroDivisionError, TypeError, OverflowError):
                    break
        with mpmath.workdps(100):
            if len(refs) < 2 or abs(refs[0] - refs[1]) > mpmath.mpf(10) ** -80 * max(
                1, abs(refs[1])
            ):
                continue
            want, got = refs[1], _mpc(ball)
            radius = mpmath.mpf(_radius(ball).str(5, radius=False))
            compared += 1
            assert abs(got - want) <= radius + mpmath.mpf(10) ** -80 * max(1, abs(want)), (
                expr,
                point,
            )
    assert compared > 1000


class _ExactIPrinter(MpmathPrinter):
    """lambdify prints I as the Python float 1j: I**I would then be a double-precision value."""

    def _print_ImaginaryUnit(self, expr: sp.Expr) -> str:
        return "mpc(0, 1)"


def _mp_exact(value: sp.Expr) -> mpmath.mpc:
    re, im = value.as_real_imag()
    return mpmath.mpc(mpmath.mpf(re.p) / re.q, mpmath.mpf(im.p) / im.q)


def _radius(ball) -> flint.arb:
    if isinstance(ball, flint.arb):
        return ball.rad()
    return ball.real.rad() + ball.imag.rad()


# Killers for the exact rational path of is_zero_certified (mutation testing of the certifier):
# a wrong exact value would call an exact zero nonzero (a NonZero fact proved for 0) or the reverse.
def _unevaluated(*terms: sp.Expr) -> sp.Expr:
    return sp.Add(*terms, evaluate=False)


@pytest.mark.parametrize(
    "zero",
    [
        _unevaluated(sp.Pow(2, 3, evaluate=False), -8),  # a power, not a product
        _unevaluated(sp.Pow(sp.Rational(1, 2), -3, evaluate=False), -8),  # a negative power
        _unevaluated(sp.Pow(0, 2, evaluate=False), 0),  # 0**2 is 0, not undefined
        _unevaluated(sp.Float(0.5), sp.Rational(-1, 2)),  # a negative binary exponent
        _unevaluated(sp.Float(0.375), sp.Rational(-3, 8)),  # mantissa 3, exponent -3
        _unevaluated(sp.Float(-0.5), sp.Rational(1, 2)),  # the sign of a Float
        _unevaluated(sp.Float(12.0), -12),  # a positive binary exponent
        _unevaluated(sp.Float(1.0), -1),  # exponent 0
        _unevaluated(sp.Float(0.0), 0),  # the Float zero
        _unevaluated(sp.Mul(sp.Rational(1, 2), 4, -3, evaluate=False), 6),  # every factor counts
        _unevaluated(sp.Rational(1, 3), sp.Rational(1, 3), sp.Rational(-2, 3)),  # a repeated term
    ],
)
def test_exact_zeros_are_zero(zero):
    assert is_zero_certified(zero) is True


@pytest.mark.parametrize(
    "nonzero",
    [
        _unevaluated(sp.Pow(2, 3, evaluate=False), -6),
        _unevaluated(sp.Float(0.5), sp.Rational(1, 2)),
        _unevaluated(sp.Float(12.0), -24),
        _unevaluated(sp.Mul(sp.Rational(1, 2), 4, evaluate=False), -4),
    ],
)
def test_exact_nonzeros_are_nonzero(nonzero):
    assert is_zero_certified(nonzero) is False


def test_special_floats_are_never_exact_zeros():
    for special in (sp.Float("inf"), sp.Float("-inf"), sp.Float("nan")):
        assert is_zero_certified(special) is not True
