"""The one zero test of the engine: is this expression 0, certified, or can that not be told?

SymPy's ``is_zero`` evaluates numbers in floating point: ``acosh(1 + 10**-20).is_zero`` is True.
Here a number is judged only by exact rational arithmetic, ball arithmetic (proofs.engine.certified)
or exact algebra (a minimal polynomial, an exact tangent); an expression with symbols is judged
by exact cancellation, and by SymPy's assumptions only after every constant in it that SymPy
would have to evaluate is replaced by a symbol carrying what a ball certifies about it.
"""

from __future__ import annotations

import sympy as sp
from flint import arb
from sympy.core.facts import InconsistentAssumptions
from sympy.polys.polyerrors import BasePolynomialError

from proofs.engine import arguments
from proofs.engine.ball_programs import walk
from proofs.engine.balls import PRECISION_CAP
from proofs.engine.certified import CertifiedError, is_zero_certified, to_arb
from proofs.engine.floats import exact_floats
from proofs.engine.strategies import reduce_exactly

# Precision of the ball that confirms an exact-algebra zero of a constant: it must lie within
# 2**-_CONFIRM_BITS of 0, so a wrong algebraic answer would also need a constant that small.
_CONFIRM_BITS = 1024
# Constants bigger than this (in operations) are not given to minimal_polynomial, which can
# take minutes on them.
_ALGEBRA_MAX_OPS = 60
_BALL_BITS = (128, 512, 2048)


def is_zero(expr: sp.Expr) -> bool | None:
    """True if expr is 0 (for every value of its symbols), False if it is nonzero for every
    admissible value, None if that cannot be certified.

    A constant goes to the certified test as it is (Floats are exact there too). In an
    expression with symbols, constants SymPy misjudges are shielded first (shield_misjudged), so
    that the rewriting below cannot evaluate them away: x*exp(acosh(1 + 10**-20)) - x is not 0.
    """
    expr = arguments.expression(expr, "expr")
    if not expr.free_symbols:
        return constant_is_zero(expr)
    (expr,), _ = shield_misjudged(expr)
    expr = exact_floats(expr)
    cheap = sp.cancel(sp.expand(expr))
    if cheap == 0:
        return True
    if not cheap.free_symbols:
        return constant_is_zero(cheap)
    if _nonzero(cheap):
        return False
    reduced = reduce_exactly(cheap)
    if reduced == 0:
        return True
    return False if _nonzero(reduced) else None


def _nonzero(expr: sp.Expr) -> bool:
    """SymPy's assumptions show expr != 0, with its constants certified; common factors (a
    constant times σ in every term) are pulled out first so a constant sum is judged whole."""
    return any(shielded(form).is_zero is False for form in (expr, sp.factor_terms(expr)))


def constant_is_zero(c: sp.Expr) -> bool | None:
    """The certified zero test for a constant: exact arithmetic, balls, then exact algebra."""
    return decide_constant(c)[0]


def decide_constant(c: sp.Expr) -> tuple[bool | None, str]:
    """(constant_is_zero(c), how it was decided) for a constant c."""
    try:
        decided = is_zero_certified(c)
    except (TypeError, ValueError):
        return None, ""
    if decided is not None:
        how = "exact rational arithmetic" if decided else "a ball of lhs - rhs excludes 0"
        return decided, how
    how = algebraic_zero(c)
    return (True, how) if how else (None, "")


def algebraic_zero(c: sp.Expr) -> str | None:
    """How the constant c is shown to be exactly 0 by exact algebra, or None.

    Two methods: c is an algebraic number whose minimal polynomial is x (SymPy picks that
    factor numerically, so a ball must also put c within 2**-1024 of 0); or tan(c) expands
    exactly to 0 by the tangent addition formula, so c is a multiple of pi, and a ball puts
    |c| < 3 < pi.
    """
    if sp.count_ops(c) > _ALGEBRA_MAX_OPS or not _near_zero(c, 2.0**-_CONFIRM_BITS):
        return None
    if c.has(sp.atan, sp.acot, sp.tan, sp.cot):
        if _tangent_is_zero(c) and _near_zero(c, 3.0, absolute=True):
            return "exact tangent: tan(lhs - rhs) = 0 and |lhs - rhs| < π"
        return None
    x = sp.Dummy("x")
    try:
        poly = sp.minimal_polynomial(c, x)
    except (NotImplementedError, ValueError, TypeError, BasePolynomialError, RecursionError):
        return None
    if poly == x:
        return "minimal polynomial: lhs - rhs is algebraic with minimal polynomial x"
    return None


# tan(n·atan(r)) is built by n additions; larger multiples are left undecided.
_MAX_ATAN_MULTIPLE = 64


def _tangent_is_zero(c: sp.Expr) -> bool:
    """tan(c) = 0 exactly, for c a sum of n·atan(r) (n integer, r rational) and rational
    multiples of pi whose tangent SymPy gives exactly, else False.

    tan(c) is carried as a pair (s, t) with tan = s/t, combined by the addition formula
    (s1·t2 + s2·t1, t1·t2 − s1·s2) in exact rationals: the imaginary and real parts of the
    product of the t_j + i·s_j, whose argument is c modulo pi.
    """
    s, t = sp.Integer(0), sp.Integer(1)
    for term in sp.Add.make_args(sp.expand(c)):
        n, rest = term.as_coeff_Mul()
        if isinstance(rest, sp.atan) and rest.args[0].is_Rational and n.is_Integer:
            if abs(n) > _MAX_ATAN_MULTIPLE:
                return False
            step = (sp.sign(n) * rest.args[0], sp.Integer(1))
            for _ in range(abs(int(n))):
                s, t = s * step[1] + step[0] * t, t * step[1] - s * step[0]
            continue
        if rest == sp.pi and n.is_Rational:
            value = sp.tan(n * sp.pi)
            if value.is_Rational:
                step = (value, sp.Integer(1))
            elif value is sp.zoo:
                step = (sp.Integer(1), sp.Integer(0))
            else:
                return False
            s, t = s * step[1] + step[0] * t, t * step[1] - s * step[0]
            continue
        return False
    # (t, s) is a product of nonzero complex numbers t_j + i·s_j, so s = t = 0 cannot happen.
    return s == 0


def _near_zero(c: sp.Expr, bound: float, *, absolute: bool = False) -> bool:
    """A ball of c lies within bound of 0 (absolute), or within 2**-_CONFIRM_BITS (default)."""
    bits = _CONFIRM_BITS + 64 if not absolute else 128
    try:
        ball = to_arb(c, {}, bits)
    except (CertifiedError, ValueError, TypeError, RecursionError):
        return False
    return bool(abs(ball) < arb(bound))


def shielded(expr: sp.Expr) -> sp.Expr:
    """expr with each constant SymPy would evaluate numerically replaced by a Dummy.

    Kept as they are: rationals, I, pi, E and their products and rational powers, whose
    assumptions SymPy derives exactly. Every other constant (sums of numbers, functions of
    numbers) becomes a Dummy that is nonzero, positive or negative only where a ball says so.
    """
    return shield(expr)[0]


def shield(expr: sp.Expr) -> tuple[sp.Expr, dict[sp.Dummy, sp.Expr]]:
    """(shielded(expr), the map from each stand-in Dummy back to its constant)."""
    back: dict[sp.Dummy, sp.Expr] = {}

    def walk(e: sp.Expr) -> sp.Expr:
        if not e.free_symbols:
            if _trusted(e):
                return e
            stand_in = _stand_in(e)
            back[stand_in] = e
            return stand_in
        if not e.args:
            return e
        return e.func(*(walk(a) for a in e.args))

    return walk(expr), back


def _trusted(c: sp.Basic) -> bool:
    if c.is_Rational or c in (sp.I, sp.pi, sp.E):
        return True
    if c.is_Pow:
        return _trusted(c.base) and c.exp.is_Rational
    if c.is_Mul:
        return all(_trusted(a) for a in c.args)
    return False


def _stand_in(c: sp.Expr) -> sp.Expr:
    facts: dict[str, bool] = {}
    for bits in _BALL_BITS:
        try:
            ball = to_arb(c, {}, bits)
        except CertifiedError:
            continue
        except (ValueError, TypeError, RecursionError):
            break
        if isinstance(ball, arb):
            if ball > 0:
                facts = {"positive": True}
                break
            if ball < 0:
                facts = {"negative": True}
                break
        elif not ball.contains(0):
            facts = {"nonzero": True}
            break
    return sp.Dummy("c", **facts)


def shield_misjudged(*exprs: sp.Basic) -> tuple[tuple[sp.Basic, ...], bool]:
    """exprs with every constant whose zero or sign SymPy misjudges replaced by a Dummy, and
    whether any was.

    SymPy judges a constant by evaluating it in floating point: acosh(1 + 10**-20).is_zero is
    True, so rebuilding exp(acosh(1 + 10**-20)) gives 1. Such a constant (the innermost one, where
    one holds another) becomes a Dummy that is nonzero, positive or negative only where a ball
    says so, the same Dummy wherever the constant occurs; then SymPy cannot evaluate it wrongly.
    Matrices are shielded entry by entry.
    """
    entries = [list(e) if isinstance(e, sp.MatrixBase) else [e] for e in exprs]
    misjudged: set[sp.Basic] = set()
    holds: set[sp.Basic] = set()  # nodes that hold a misjudged constant
    try:
        for node in walk([x for part in entries for x in part]):
            if any(a in misjudged or a in holds for a in node.args):
                holds.add(node)
            elif _judged_wrongly(node):
                misjudged.add(node)
    except RecursionError:
        return exprs, False
    if not misjudged:
        return exprs, False
    stand_ins = {c: shielded(c) for c in misjudged}
    out = []
    for e, part in zip(exprs, entries, strict=True):
        shielded_part = [x.xreplace(stand_ins) for x in part]
        out.append(
            sp.ImmutableMatrix(*e.shape, shielded_part)
            if isinstance(e, sp.MatrixBase)
            else shielded_part[0]
        )
    return tuple(out), True


def _judged_wrongly(c: sp.Basic) -> bool:
    """c is a constant that SymPy evaluates to exactly 0, or of which it asserts zero, positive
    or negative (or contradicts itself), where a ball certifies otherwise."""
    if not isinstance(c, sp.Expr) or not c.args or c.free_symbols or _trusted(c):
        return False
    if c.has(sp.Sum, sp.Product, sp.Integral):
        # SymPy leaves these unevaluated and judges them by their terms, which are walked
        # themselves; evaluating a long sum by Euler-Maclaurin costs seconds and decides nothing.
        return False
    try:
        rounded = c.evalf(2) == 0  # SymPy's own floating-point value: acos(1 - 10**-20) is 0
    except (TypeError, ValueError, ArithmeticError):
        rounded = False  # SymPy has no value for c: it cannot have evaluated it wrongly
    try:
        said = [n for n in ("zero", "positive", "negative") if getattr(c, "is_" + n) is True]
    except InconsistentAssumptions:
        return True  # SymPy's judgements of c contradict each other
    if not (rounded or said):
        return False
    if (rounded or "zero" in said) and is_zero_certified(c, budget_bits=PRECISION_CAP) is False:
        return True
    try:
        ball = to_arb(c, {}, 2048)
    except (CertifiedError, ValueError, TypeError):
        return False
    if not isinstance(ball, arb):
        return False
    return ("positive" in said and ball < 0) or ("negative" in said and ball > 0)
