"""The rules for real powers: the power laws of positive bases, and exponentials.

For x, y > 0 and real a, c: (x·y)^a = x^a·y^a, (x^a)^c = x^(a·c) and 1^a = 1; an exponent is
put over a common denominator in lowest terms (−2(d/2 − 1)/(d − 2) is −1); and once the products
are multiplied out, x^a·x^c = x^(a + c). The normal form takes x^a and x^(−a) for two atoms and
compares exponents only by ring arithmetic, so these are the rule's work, not algebra's.
sinh x = (eˣ − e⁻ˣ)/2 and cosh x = (eˣ + e⁻ˣ)/2, and e^a·e^b = e^(a + b): the exponential form,
in which SymPy's assumptions see that sinh x ≥ 0 for x ≥ 0.
"""

from __future__ import annotations

import sympy as sp
from flint import arb

from proofs.engine.certified import CertifiedError, to_arb
from proofs.engine.rules.normal_form import Atoms
from proofs.engine.rules.rule import CoqPlan, Rule, bottom_up


def _is_one(e: sp.Expr) -> bool:
    return Atoms().polynomial(e) == 1


def _lowest_terms(exponent: sp.Expr) -> sp.Expr:
    if exponent.is_Rational or not exponent.free_symbols:
        return exponent
    return sp.cancel(sp.together(exponent))


# Real at every real argument where defined (tan at its poles is not defined); re, im and |·|
# are real at every complex argument.
_REAL_ON_REALS = (
    sp.exp,
    sp.sin,
    sp.cos,
    sp.tan,
    sp.cot,
    sp.sec,
    sp.csc,
    sp.atan,
    sp.acot,
    sp.sinh,
    sp.cosh,
    sp.tanh,
    sp.coth,
    sp.sech,
    sp.csch,
    sp.asinh,
    sp.floor,
    sp.ceiling,
    sp.sign,
    sp.Min,
    sp.Max,
)
_REAL_EVERYWHERE = (sp.re, sp.im, sp.Abs, sp.arg)
# A constant's sign or range is read off a ball of it at these precisions.
_BALL_BITS = (64, 256)


def _ball(c: sp.Expr) -> arb | None:
    """A real ball certified to hold the constant c, or None (no ball, or not a real one)."""
    for bits in _BALL_BITS:
        try:
            value = to_arb(c, {}, bits)
        except (CertifiedError, ValueError, TypeError, ArithmeticError, RecursionError):
            return None
        if isinstance(value, arb) and value.rad() < 2**-16:
            return value
    return None


def _real_where_defined(e: sp.Expr) -> bool:
    """e is real at every real point where it is defined, proved from its structure: each
    symbol declared real, each number real, sums, products and integer powers of such, real
    powers of positive numbers, the functions real on the reals, the logarithm of a positive
    number, and asin or acos of a constant certified in [−1, 1] (d/(d − 2) at d = 2 is not
    defined, so SymPy's assumptions cannot call it real).

    >>> y = sp.Symbol("y", real=True)
    >>> _real_where_defined(y / (y - 2)), _real_where_defined(sp.asin(sp.Rational(1, 2)) * y)
    (True, True)
    >>> _real_where_defined(sp.asin(2) * y), _real_where_defined((-1) ** sp.Rational(1, 3) * y)
    (False, False)
    """
    if isinstance(e, sp.Symbol):
        return e.is_real is True
    if isinstance(e, sp.Rational | sp.NumberSymbol):
        return True
    if isinstance(e, sp.Float):
        return e.is_finite is True
    if isinstance(e, sp.Add | sp.Mul):
        return all(_real_where_defined(a) for a in e.args)
    if isinstance(e, sp.Pow):
        if e.exp.is_Integer:
            return _real_where_defined(e.base)
        return _positive(e.base) and _real_where_defined(e.exp)
    if isinstance(e, _REAL_EVERYWHERE):
        return True
    if isinstance(e, _REAL_ON_REALS):
        return all(_real_where_defined(a) for a in e.args)
    if isinstance(e, sp.log) and len(e.args) == 1:
        return _positive(e.args[0])
    if isinstance(e, sp.asin | sp.acos):
        return _within_one(e.args[0])
    return False


def _within_one(c: sp.Expr) -> bool:
    """c is a constant certified to lie in [−1, 1]."""
    if c.is_Rational:
        return bool(abs(c) <= 1)
    if c.free_symbols or not _real_where_defined(c):
        return False
    value = _ball(c)
    return value is not None and bool(abs(value) <= 1)


def _positive(e: sp.Expr) -> bool:
    """e > 0 wherever it is defined, proved from its structure: a positive number, a symbol
    declared positive, sums and products of such, a real power of such, exp of a real, or a real
    constant whose certified ball lies above 0.

    >>> y = sp.Symbol("y", real=True)
    >>> _positive(2 * sp.exp(y) + sp.pi), _positive(2 - sp.sqrt(3)), _positive(y**2)
    (True, True, False)
    """
    if isinstance(e, sp.Symbol):
        return e.is_positive is True
    if isinstance(e, sp.Rational | sp.Float):
        return bool(e > 0) and e.is_finite is True
    if isinstance(e, sp.Add | sp.Mul) and all(_positive(a) for a in e.args):
        return True
    if isinstance(e, sp.Pow) and _positive(e.base) and _real_where_defined(e.exp):
        return True
    if isinstance(e, sp.exp | sp.cosh) and _real_where_defined(e.args[0]):
        return True
    if e.free_symbols or not _real_where_defined(e):
        return False
    value = _ball(e)
    return value is not None and bool(value > 0)


def _power(base: sp.Expr, exponent: sp.Expr) -> sp.Expr:
    """base^exponent by the power laws (the exponent real wherever it is defined)."""
    if _is_one(base):
        return sp.Integer(1)
    integer = Atoms().polynomial(exponent)
    if integer.is_Integer:
        return sp.Pow(base, integer)
    # (x·y)^a = x^a·y^a needs every factor positive, not only the product: ((−2)(−3))^½ is √6.
    if isinstance(base, sp.Mul) and all(_positive(f) for f in base.args):
        return sp.Mul(*(_power(f, exponent) for f in base.args), evaluate=False)
    if isinstance(base, sp.Pow) and _positive(base.base) and _real_where_defined(base.exp):
        return _power(base.base, base.exp * exponent)
    exponent = _lowest_terms(exponent)
    if exponent == 1:
        return base
    return sp.Pow(base, exponent, evaluate=False)


def power_laws(expr: sp.Basic) -> sp.Basic:
    """(x·y)^a = x^a·y^a, (x^a)^c = x^(a·c), 1^a = 1 for positive x, y and real exponents,
    every exponent in lowest terms; then x^a·x^c = x^(a + c) in the products multiplied out.

    >>> b, s = sp.symbols("b s", positive=True)
    >>> d = sp.Symbol("d", positive=True)
    >>> power_laws(sp.Pow(b * s ** (d / (d - 2)), -2 * (d / 2 - 1) / d, evaluate=False))
    b**((2 - d)/d)/s
    >>> power_laws(sp.Pow(sp.Add(1, 0, evaluate=False), d, evaluate=False))
    1
    >>> k = sp.Symbol("k", integer=True)
    >>> power_laws(sp.Pow(2, -k, evaluate=False) * (2**k * d + 1))
    d + 2**(-k)
    """

    def at(e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.Pow) and not e.exp.is_Integer and _real_where_defined(e.exp):
            return _power(e.base, e.exp)
        return e

    return _multiplied_out(bottom_up(expr, at))


def _powers_merged(term: sp.Expr) -> sp.Expr:
    """One product with its powers of each positive base multiplied into one: x^a·x^c = x^(a + c)."""
    exponents: dict[sp.Expr, list[sp.Expr]] = {}
    rest = []
    for factor in sp.Mul.make_args(term):
        base, exponent = factor.as_base_exp()
        if _positive(base) and _real_where_defined(exponent):
            exponents.setdefault(base, []).append(exponent)
        else:
            rest.append(factor)
    merged = [_power(base, sp.Add(*found)) for base, found in exponents.items()]
    return sp.Mul(*rest, *merged)


def _multiplied_out(expr: sp.Basic) -> sp.Basic:
    """expr multiplied out over its atoms, the powers of one base in each product merged."""
    if isinstance(expr, sp.MatrixBase):
        rows, cols = expr.shape
        return sp.ImmutableMatrix(rows, cols, [_multiplied_out(e) for e in expr])
    if not isinstance(expr, sp.Expr) or not expr.has(sp.Pow):
        return expr
    atoms = Atoms()
    terms = sp.Add.make_args(atoms.polynomial(expr))
    return sp.Add(*(_powers_merged(atoms.expression(t)) for t in terms))


def _merged(term: sp.Expr) -> sp.Expr:
    """One product with its exponentials multiplied into one: e^a·e^b = e^(a + b). (SymPy
    builds an integer power of an exponential as one exponential: (e^a)^2 is e^(2a).)"""
    arguments, rest = [], []
    for factor in sp.Mul.make_args(term):
        if isinstance(factor, sp.exp):
            arguments.append(factor.args[0])
        else:
            rest.append(factor)
    if len(arguments) < 2:
        return term
    atoms = Atoms()
    argument = atoms.expression(atoms.polynomial(sp.Add(*arguments)))
    return sp.Mul(*rest, sp.exp(argument), evaluate=False)


def exponential_form(expr: sp.Basic) -> sp.Basic:
    """sinh x = (eˣ − e⁻ˣ)/2, cosh x = (eˣ + e⁻ˣ)/2, then the products multiplied out and
    e^a·e^b = e^(a + b) in each.

    >>> x, y = sp.symbols("x y", real=True)
    >>> exponential_form(2 * sp.exp(-x) * sp.sinh(x))
    1 - exp(-2*x)
    """

    def at(e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.sinh | sp.cosh):
            x = e.args[0]
            sign = -1 if isinstance(e, sp.sinh) else 1
            return (sp.exp(x) + sign * sp.exp(-x)) / 2
        return e

    rewritten = bottom_up(expr, at)
    if not rewritten.has(sp.exp) or isinstance(rewritten, sp.MatrixBase):
        return rewritten
    atoms = Atoms()
    polynomial = atoms.polynomial(rewritten)
    return sp.Add(*(_merged(atoms.expression(t)) for t in sp.Add.make_args(polynomial)))


# Whether a base is positive is SymPy's judgement, which for a number may come from a
# low-precision evaluation: a zero the power laws reach is confirmed numerically.
POWER_LAWS = Rule(
    "power_laws",
    "power laws",
    power_laws,
    exact=False,
    coq="rewrite ?Rpower_mult, ?Rpower_mult_distr; field",
    coq_plan=CoqPlan.POWER_LAWS,
)
EXPONENTIAL_FORM = Rule(
    "exponential_form",
    "exponential form",
    exponential_form,
    coq="unfold sinh, cosh; rewrite <- ?exp_plus; field",
    coq_plan=CoqPlan.EXPONENTIAL,
)
