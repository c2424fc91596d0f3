"""Certified enclosures: an exact rational interval [low, high] that provably holds a value.

enclose(value, digits, point) computes the ball of value (at the exact point, if it has symbols)
by flint's arb, raising the precision until the ball is narrow enough, and rounds its ends
outward to `digits` significant decimal digits: low ≤ value ≤ high, with ends that read well
("[1.4800e-3, 1.4801e-3]"). Nothing is typed in: the digits come from the ball. The enclosure
says what ball arithmetic found; a statement built on it (low ≤ value ≤ high) is still checked
on its own by the fact that states it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

import sympy as sp
from flint import arb

from proofs.engine.balls import PRECISION_CAP, PRECISIONS_START, IndeterminateError, precision
from proofs.engine.certified import to_arb

# The ball must be this many times narrower than a unit in the last digit asked for, so that
# rounding outward widens it by at most about one unit on each side.
_NARROWER = 10


@dataclass(frozen=True)
class Enclosure:
    """low ≤ value ≤ high, certified; the ends are exact rationals with `digits` significant
    decimal digits (rounded outward from the ball), so they print as decimals.

    >>> e = Enclosure(sp.Rational(14142, 10**4), sp.Rational(14143, 10**4), 5)
    >>> e.text(), e.sign
    ('[1.4142, 1.4143]', 1)
    """

    low: sp.Rational
    high: sp.Rational
    digits: int

    @property
    def sign(self) -> int:
        """1 if the whole interval is > 0, −1 if it is < 0, 0 if it holds 0."""
        return 1 if self.low > 0 else -1 if self.high < 0 else 0

    def text(self) -> str:
        """The interval as it reads: '[4.4708, 4.4709]', '[1.4800e-3, 1.4801e-3]'."""
        return f"[{decimal(self.low, self.digits)}, {decimal(self.high, self.digits)}]"


def decimal(value: sp.Rational, digits: int) -> str:
    """A terminating decimal exactly, with at least `digits` significant digits (more if it
    needs them), in plain or e-notation.

    >>> decimal(sp.Rational(44708, 10**4), 5), decimal(sp.Rational(-148, 10**6), 3)
    ('4.4708', '-1.48e-4')
    >>> decimal(sp.Rational(1, 10**5), 3), decimal(sp.Rational(100001, 10**5), 5)
    ('1.00e-5', '1.00001')
    """
    q = Fraction(int(value.p), int(value.q))
    if q == 0:
        return "0"
    exponent = _decade(abs(q))
    places = digits
    while (abs(q) / Fraction(10) ** (exponent - places + 1)).denominator != 1:
        places += 1
        if places > 1000:
            raise ValueError(f"{value} is not a terminating decimal")
    mantissa = str(int(abs(q) / Fraction(10) ** (exponent - places + 1)))
    sign = "-" if q < 0 else ""
    if -3 <= exponent < places:
        point = exponent + 1
        if point <= 0:
            return f"{sign}0.{'0' * -point}{mantissa}"
        rest = mantissa[point:]
        return f"{sign}{mantissa[:point]}.{rest}" if rest else f"{sign}{mantissa}"
    body = mantissa[0] + ("." + mantissa[1:] if len(mantissa) > 1 else "")
    return f"{sign}{body}e{exponent}"


def _decade(q: Fraction) -> int:
    """e with 10^e ≤ q < 10^(e+1), for q > 0, exactly."""
    e = len(str(q.numerator)) - len(str(q.denominator))
    while Fraction(10) ** e > q:
        e -= 1
    while Fraction(10) ** (e + 1) <= q:
        e += 1
    return e


def _exact(x: arb) -> Fraction:
    """An exact arb (a midpoint or a radius) as a fraction."""
    man, exp = x.man_exp()
    man, exp = int(man), int(exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def enclose(
    value: sp.Expr,
    digits: int,
    point: Mapping[sp.Symbol, object] | None = None,
    *,
    budget_bits: int = PRECISION_CAP,
) -> Enclosure:
    """A certified enclosure of value (a real number, or real at the exact point) whose ends
    have `digits` significant decimal digits, rounded outward from flint's ball.

    >>> enclose(sp.sqrt(2), 5).text()
    '[1.4142, 1.4143]'
    >>> enclose(sp.pi - 3, 3).text()
    '[0.141, 0.142]'

    A value that is 0, or too close to 0 to fix its first digit within budget_bits, raises
    ValueError, as does a value that is not real or not a number at the point; a value with no
    ball translation raises the engine's CertifiedError.
    """
    if isinstance(digits, bool) or not isinstance(digits, int) or not 1 <= digits <= 50:
        raise ValueError(f"digits must be an int from 1 to 50, got {digits!r}")
    bits = PRECISIONS_START
    while bits <= budget_bits:
        try:
            ball = to_arb(value, point or {}, bits)
        except IndeterminateError:
            bits *= 2
            continue
        if type(ball) is not arb:
            raise ValueError(f"{sp.sstr(value)} is not a real number, so it has no interval")
        with precision(bits):
            mid, rad = _exact(ball.mid()), _exact(ball.rad())
        low, high = mid - rad, mid + rad
        if low > 0 or high < 0:
            unit = Fraction(10) ** (_decade(min(abs(low), abs(high))) - digits + 1)
            if rad * _NARROWER <= unit:
                rounded_low = math.floor(low / unit) * unit
                rounded_high = math.ceil(high / unit) * unit
                return Enclosure(_rational(rounded_low), _rational(rounded_high), digits)
        bits *= 2
    raise ValueError(
        f"{sp.sstr(value)} could not be enclosed to {digits} digits within {budget_bits} bits "
        "(it may be 0)"
    )


def _rational(q: Fraction) -> sp.Rational:
    return sp.Rational(q.numerator, q.denominator)
