"""Issue 20: every computer-algebra answer that can be wrong, wrapped into a false identity.

SymPy's doit on sums and products, summation, simplify, trigsimp, nsimplify, limit and integrate
give answers, not certificates. Each case below is a concrete wrong answer of SymPy 1.14 (the
test first checks, independently of the engine, that SymPy still gives it, and that it is
wrong); the claim "expression = SymPy's answer", with a large term added to both sides, must
never come back proved. The numeric half alone settles each one: it refutes the claim wherever
it can evaluate both sides, and it is undecided (never "agrees") where it cannot.
"""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp

from proofs.engine.derivation import prove_identity
from proofs.engine.pointwise import check_numeric

n = sp.Symbol("n", integer=True, positive=True)
j = sp.Symbol("j", integer=True)
k = sp.Symbol("k", integer=True)
x = sp.Symbol("x", real=True)
y = sp.Symbol("y", positive=True)
Q = 1 + sp.Rational(1, 10**20)
U = {"evaluate": False}
BIG = sp.Integer(10) ** 400


def _binomial_sum(weight: sp.Expr) -> sp.Sum:
    return sp.Sum(weight * sp.binomial(n, j) * sp.factorial(n - j), (j, 0, n))


def _value(expr: sp.Expr, point: dict) -> mpmath.mpc:
    """expr at point by mpmath at 60 digits: the tree printed as code, never evaluated by SymPy."""
    f = sp.lambdify(list(point), expr, modules="mpmath")
    values = [sp.Rational(v) for v in point.values()]
    with mpmath.workdps(60):
        return mpmath.mpmathify(f(*(mpmath.mpf(int(v.p)) / int(v.q) for v in values)))


def _exact_sum(s: sp.Sum | sp.Product, at: int) -> sp.Expr:
    """A finite Sum or Product at n = at, term by term in exact arithmetic."""
    body, (index, low, high) = s.function, s.limits[0]
    low, high = int(low.subs(n, at)), int(high.subs(n, at))
    terms = [body.subs({n: at, index: i}) for i in range(low, high + 1)]
    return sp.Add(*terms) if isinstance(s, sp.Sum) else sp.Mul(*terms)


# (name, the expression, how SymPy evaluates it, the answer SymPy 1.14 gives)
CONCRETE = [
    (
        "Sum.doit",
        _binomial_sum(1),
        lambda e: e.doit(),
        sp.E * sp.factorial(n),
    ),
    (
        "summation",
        _binomial_sum(2**j),
        lambda e: sp.summation(e.function, *e.limits),
        sp.exp(2) * sp.factorial(n),
    ),
    (
        "summation-alternating",
        _binomial_sum((-1) ** j),
        lambda e: sp.summation(e.function, *e.limits),
        sp.exp(-1) * sp.factorial(n),
    ),
    (
        "Product.doit",
        sp.Product(sp.sqrt(k - n - 1), (k, 1, n)),
        lambda e: e.doit(),
        sp.sqrt(sp.RisingFactorial(-n, n)),
    ),
    (
        "Product.doit-shifted",
        sp.Product(sp.sqrt(k - 3), (k, 1, n)),
        lambda e: e.doit(),
        sp.sqrt(sp.RisingFactorial(-2, n)),
    ),
]


@pytest.mark.parametrize(
    ("name", "expr", "evaluate", "answer"), CONCRETE, ids=[c[0] for c in CONCRETE]
)
def test_a_wrong_sum_or_product_is_never_proved(name, expr, evaluate, answer) -> None:
    # The case wraps SymPy's own wrong answer; should a later SymPy answer otherwise, the case no
    # longer tests what it is for and must be replaced, not skipped.
    assert evaluate(expr) == answer, f"SymPy {sp.__version__} no longer answers {answer} for {name}"
    # The answer is wrong: the exact finite sum differs from it at some n.
    wrong_at = [m for m in range(1, 6) if sp.N(_exact_sum(expr, m) - answer.subs(n, m), 30) != 0]
    assert wrong_at, f"{name}: SymPy's answer is right after all"
    for lhs, rhs in ((expr, answer), (expr + BIG, answer + BIG), (BIG + answer, BIG + expr)):
        verdict = prove_identity(lhs, rhs, timeout=60)
        assert verdict.status == "refuted", verdict.reason
        assert check_numeric(lhs, rhs).passed is False


def test_a_wrong_simplify_is_never_proved() -> None:
    assert sp.simplify(x * sp.acosh(Q)) == 0  # SymPy 1.14; acosh(Q) is about 1.4e-10
    for lhs, rhs in ((x * sp.acosh(Q), 0), (x * sp.acosh(Q) + BIG, BIG)):
        assert prove_identity(lhs, rhs).status == "refuted"
        assert check_numeric(lhs, rhs).passed is False


def test_a_wrong_trigsimp_is_never_proved() -> None:
    e = sp.exp(sp.acosh(Q), **U)  # about 1 + 1.4e-10, built unevaluated
    lhs = sp.Add(sp.Mul(e, sp.sin(x) ** 2, **U), sp.cos(x) ** 2, **U)
    assert sp.trigsimp(lhs) == 1  # SymPy rebuilds e as exp(0) = 1
    assert abs(_value(lhs, {x: sp.Rational(1, 3)}) - 1) > 1e-12
    for a, b in ((lhs, 1), (sp.Add(lhs, BIG, **U), 1 + BIG)):
        assert prove_identity(a, b).status == "refuted"
        assert check_numeric(a, b).passed is False


@pytest.mark.parametrize(
    "constant",
    [sp.exp(sp.acosh(Q), **U), sp.sqrt(2) + sp.Rational(1, 10**30)],
    ids=["exp-acosh", "sqrt2-plus-tiny"],
)
def test_a_wrong_nsimplify_is_never_proved(constant) -> None:
    answer = sp.nsimplify(constant)
    assert answer in (1, sp.sqrt(2))  # SymPy 1.14 drops the small part
    for lhs, rhs in (
        (sp.Mul(x, constant, **U), x * answer),
        (sp.Add(sp.Mul(x, constant, **U), BIG, **U), x * answer + BIG),
    ):
        assert prove_identity(lhs, rhs).status == "refuted"
        assert check_numeric(lhs, rhs).passed is False


def test_a_wrong_limit_is_never_proved() -> None:
    # sympy/sympy#23525: the one-sided derivative at 0 of a dispersion relation.
    c, m1, m2, a = sp.symbols("C M_1 M_2 a", positive=True)
    t = sp.Symbol("t", real=True)
    omega = sp.sqrt(
        2
        * c
        * (m1 + m2 - sp.sqrt((m1 + m2) ** 2 - m1 * m2 * (2 - 2 * sp.cos(t * a))))
        / (2 * m1 * m2)
    )
    answer = sp.limit(sp.diff(omega, t), t, 0, "+")
    assert answer == 0  # SymPy 1.14; the true limit is a*sqrt(C/(2*(M_1 + M_2)))
    truth = a * sp.sqrt(c / (2 * (m1 + m2)))
    values = {c: 1, m1: 1, m2: sp.Rational(3, 2), a: 1}
    slope = _value(sp.diff(omega, t), {t: sp.Rational(1, 10**8), **values})
    assert abs(slope - _value(truth, values)) < 1e-6
    # The limit itself cannot be evaluated in balls: never proved; its value claim is refuted.
    unevaluated = sp.Limit(sp.diff(omega, t), t, 0, "+")
    assert prove_identity(unevaluated + BIG, answer + BIG, timeout=30).status != "proved"
    assert prove_identity(truth + BIG, answer + BIG).status == "refuted"


@pytest.mark.slow
def test_a_wrong_integral_is_never_proved() -> None:
    # sympy/sympy#29792: the integrand is 1 on [0, 1] when y >= 1, yet SymPy answers -1.
    integrand = sp.sqrt(y - x) * sp.sqrt(1 / (y - x))
    answer = sp.integrate(integrand, (x, 0, 1))
    assert answer == -1  # SymPy 1.14
    f = sp.lambdify(x, integrand.subs(y, 2), modules="mpmath")
    with mpmath.workdps(30):
        assert abs(mpmath.quad(f, [0, 1]) - 1) < 1e-20
    # 2y - 1 for y < 1 (where sqrt(y - x)*sqrt(1/(y - x)) is -1 past x = y), 1 for y >= 1.
    truth = sp.Piecewise((2 * y - 1, y < 1), (1, True))
    unevaluated = sp.Integral(integrand, (x, 0, 1))
    assert prove_identity(unevaluated + BIG, answer + BIG, timeout=30).status != "proved"
    assert prove_identity(truth + BIG, answer + BIG).status == "refuted"
    assert check_numeric(truth + BIG, answer + BIG).passed is False
