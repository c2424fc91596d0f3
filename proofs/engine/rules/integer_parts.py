"""The rule that evaluates floor, ceiling, min and max where their value is certain.

floor(c) = n is an identity once n ≤ c < n + 1 is certain: for a rational c by exact arithmetic,
for log(a)/log(b) (a, b rational) by exact integer powers, for any other constant by a ball of
c (proofs.engine.certified) that lies strictly between n and n + 1. Terms that SymPy's
assumptions make integers come out first, whatever else the argument holds: floor(n + x) =
n + floor(x). min and max of constants are decided the same way. Nothing is guessed: a floor
whose ball straddles an integer is left as it is.
"""

from __future__ import annotations

import math

import sympy as sp
from flint import arb

from proofs.engine.certified import CertifiedError, to_arb
from proofs.engine.rules.normal_form import Atoms
from proofs.engine.rules.rule import CoqPlan, Rule, bottom_up

_BITS = (64, 256, 1024)
# log(a)/log(b) is decided exactly only for a and b of at most this many bits.
_MAX_LOG_BITS = 4096
# ... and only while b^n, computed exactly, has at most this many bits.
_MAX_POWER_BITS = 1 << 20


def _terms(argument: sp.Expr) -> list[sp.Expr]:
    atoms = Atoms()
    return [atoms.expression(t) for t in sp.Add.make_args(atoms.polynomial(argument))]


def _log_ratio(c: sp.Expr) -> tuple[sp.Rational, sp.Rational] | None:
    """(a, b) when c is log(a)/log(b) with a, b positive rationals and b ≠ 1, else None."""
    numerator, denominator = c.as_numer_denom()
    if not (isinstance(numerator, sp.log) and isinstance(denominator, sp.log)):
        return None
    a, b = numerator.args[0], denominator.args[0]
    if not (a.is_Rational and b.is_Rational and a > 0 and b > 0 and b != 1):
        return None
    if max(abs(x.p).bit_length() + x.q.bit_length() for x in (a, b)) > _MAX_LOG_BITS:
        return None
    return a, b


def _log2(x: sp.Rational) -> float:
    """log2 of a positive rational, from its integers (float(x) overflows beyond 2**1024)."""
    return math.log2(int(x.p)) - math.log2(int(x.q))


def _floor_of_log(a: sp.Rational, b: sp.Rational) -> int | None:
    """⌊log(a)/log(b)⌋ by exact powers: the n with b^n ≤ a < b^(n+1) (b > 1), or the mirror;
    None when the powers would be too large to compute (b within 2**-40 of 1).

    >>> _floor_of_log(sp.Integer(3), sp.Integer(2) ** 4000), _floor_of_log(sp.Integer(1000), sp.Integer(10))
    (0, 3)
    """
    if b < 1:
        n = _ceiling_of_log(a, 1 / b)
        return None if n is None else -n
    estimate = _log2(a) / _log2(b) if _log2(b) > 2**-40 else math.inf
    size = int(b.p).bit_length() + int(b.q).bit_length()
    if not math.isfinite(estimate) or (abs(estimate) + 3) * size > _MAX_POWER_BITS:
        return None
    # The float estimate is within 1e-6 of log(a)/log(b); exact powers settle the integer.
    n = math.floor(estimate) - 2
    while b ** (n + 1) <= a:
        n += 1
    while b**n > a:
        n -= 1
    return n


def _ceiling_of_log(a: sp.Rational, b: sp.Rational) -> int | None:
    n = _floor_of_log(a, b)
    if n is None:
        return None
    return n if b**n == a else n + 1


def _ball(c: sp.Expr, bits: int) -> arb | None:
    try:
        value = to_arb(c, {}, bits)
    except (CertifiedError, ValueError, TypeError, RecursionError):
        return None
    return value if isinstance(value, arb) else None


def _integer_value(c: sp.Expr, ceiling: bool) -> int | None:
    """⌊c⌋ (⌈c⌉ if ceiling) for a real constant c when it is certain, else None."""
    if c.is_Rational:
        return int(math.ceil(c) if ceiling else math.floor(c))
    logs = _log_ratio(c)
    if logs is not None:
        n = (_ceiling_of_log if ceiling else _floor_of_log)(*logs)
        if n is not None:
            return n
    for bits in _BITS:
        value = _ball(c, bits)
        if value is None:
            return None
        bound = value.ceil() if ceiling else value.floor()
        # An exact integer ball: the floor of every point of the ball is that integer.
        n = bound.unique_fmpz() if bound.rad() == 0 else None
        if n is not None:
            return int(n)
    return None


def _integer_part(e: sp.floor | sp.ceiling) -> sp.Basic:
    whole, rest = [], []
    for term in _terms(e.args[0]):
        (whole if term.is_integer else rest).append(term)
    remainder = sp.Add(*rest)
    ceiling = isinstance(e, sp.ceiling)
    if not remainder.free_symbols and remainder.is_real is not False:
        n = _integer_value(remainder, ceiling)
        if n is not None:
            parts = [*whole, sp.Integer(n)] if n or not whole else whole
            return sp.Add(*parts, evaluate=False) if len(parts) > 1 else parts[0]
    if not whole:
        return e
    return sp.Add(*whole, e.func(remainder, evaluate=False), evaluate=False)


def _certainly_at_most(x: sp.Expr, y: sp.Expr) -> bool:
    """x ≤ y is certain: exactly for rationals, else by balls of y − x."""
    if x.is_Rational and y.is_Rational:
        return bool(x <= y)
    for bits in _BITS:
        value = _ball(y - x, bits)
        if value is None:
            return False
        if value >= 0:
            return True
        if value < 0:
            return False
    return False


def _extremum(e: sp.Min | sp.Max) -> sp.Basic:
    if e.free_symbols:
        return e
    largest = isinstance(e, sp.Max)
    for candidate in e.args:
        others = [a for a in e.args if a is not candidate]
        if all(
            _certainly_at_most(other, candidate)
            if largest
            else _certainly_at_most(candidate, other)
            for other in others
        ):
            return candidate
    return e


def integer_parts(expr: sp.Basic) -> sp.Basic:
    """floor, ceiling, min and max evaluated where the value is certain (exact arithmetic or a
    certified ball), integer terms taken out of floor and ceiling first.

    >>> n = sp.Symbol("n", integer=True)
    >>> integer_parts(sp.floor(sp.Rational(257, 2), evaluate=False))
    128
    >>> integer_parts(sp.ceiling(sp.log(10002) / sp.log(2), evaluate=False))
    14
    >>> integer_parts(sp.floor(n + sp.Rational(1, 2), evaluate=False))
    n
    >>> integer_parts(sp.Max(sp.Integer(0), sp.floor(sp.pi, evaluate=False), evaluate=False))
    3
    """

    def at(e: sp.Basic) -> sp.Basic:
        if isinstance(e, sp.floor | sp.ceiling):
            return _integer_part(e)
        if isinstance(e, sp.Min | sp.Max):
            return _extremum(e)
        return e

    return bottom_up(expr, at)


# Which terms are integers is SymPy's judgement (the rest is decided by balls): a zero this rule
# reaches is confirmed numerically.
INTEGER_PARTS = Rule(
    "integer_parts",
    "floor, ceiling, min and max of numbers",
    integer_parts,
    exact=False,
    coq="interval",
    coq_plan=CoqPlan.INTEGERS,
)
