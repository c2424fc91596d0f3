"""Balls for exact values: arb/acb from SymPy's exact numbers, the errors of certified evaluation,
and flint's global precision set under a lock.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import flint
import sympy as sp
from flint import acb, arb, fmpq, fmpz

# A value in ball arithmetic: a real ball where the value is certainly real, else a complex one.
Ball = arb | acb

# A Sum or Product with more terms than this is not evaluated (each term is a full evaluation).
MAX_TERMS = 10**6
# binomial(n, k) of integers is computed exactly by SymPy; beyond this size it is not attempted.
MAX_BINOMIAL = 10**5
PRECISIONS_START = 256
PRECISION_CAP = 32768
# At p bits, 'agrees' needs the ball of lhs - rhs to lie within 2**-(p/2 + AGREEMENT_MARGIN) of
# 0: an absolute bound, never one relative to the size of the sides. Half the working bits may
# go to cancellation among large intermediate values (10**400 - 10**400); what is left must show
# the difference small in absolute terms. At 256 bits the bound is 2**-160 (about 7e-49).
AGREEMENT_MARGIN = 32


def agreement_exponent(bits: int) -> int:
    """k such that agreement at this precision certifies |lhs - rhs| <= 2**-k."""
    return bits // 2 + AGREEMENT_MARGIN


def agreement_bound(bits: int) -> arb:
    """The exact ball 2**-agreement_exponent(bits), the most lhs - rhs may be off to agree."""
    return arb((1, -agreement_exponent(bits)))


class CertifiedError(Exception):
    """Why a certified value could not be produced."""


class UntranslatableError(CertifiedError):
    """The expression contains something with no certified ball translation (name says what)."""

    def __init__(self, name: str, detail: str = "") -> None:
        self.name = name
        super().__init__(
            f"no certified translation for {name}" + (f" ({detail})" if detail else "")
        )


class IndeterminateError(CertifiedError):
    """The balls are too wide to decide a branch, a comparison or a pole; more bits may help."""


class UndefinedError(CertifiedError):
    """The expression has no value at the exact point (a pole, 0**-1, log(0), atan2(0, 0), ...)."""


class OutOfTimeError(CertifiedError):
    """The deadline passed during an evaluation."""


# flint's working precision is one global (flint.ctx.prec): every evaluation sets it under this
# lock and restores it, so a caller's own precision survives and two threads do not interleave.
LOCK = threading.RLock()


@contextmanager
def precision(bits: int) -> Iterator[None]:
    with LOCK:
        old = flint.ctx.prec
        flint.ctx.prec = bits
        try:
            yield
        finally:
            flint.ctx.prec = old


# ---------------------------------------------------------------- exact numbers as balls


def rational(value: sp.Rational) -> arb:
    # fmpz/fmpq take Python ints directly, never through str(): 5000-digit rationals work.
    if value.q == 1:
        return arb(fmpz(int(value.p)))
    return arb(fmpq(int(value.p), int(value.q)))


def float(value: sp.Float) -> arb:
    """A SymPy Float at its exact binary value (Float(0.1) is not 1/10)."""
    sign, man, exp, _ = value._mpf_
    if not man:
        if value._mpf_ == (0, 0, 0, 0):
            return arb(0)
        raise UndefinedError(f"the Float {value} is not a finite number")
    # arb((m, e)) is m * 2**e exactly, whatever the working precision.
    return arb((-int(man) if sign else int(man), int(exp)))


def point_value(symbol: sp.Symbol, value: object) -> tuple[sp.Expr, sp.Expr]:
    """An exact point value as (real part, imaginary part), each a Rational or a Float."""
    if isinstance(value, bool) or not isinstance(value, int | sp.Expr):
        raise TypeError(
            f"the value of {symbol} must be an int or an exact SymPy number, got {type(value).__name__}"
        )
    value = sp.Integer(value) if isinstance(value, int) else value
    if value.is_Rational or value.is_Float:
        return value, sp.Integer(0)  # the common case, without as_real_imag's assumptions
    if not value.is_number:
        raise ValueError(f"the value of {symbol} must be a number, got {value}")
    re, im = value.as_real_imag()
    parts = []
    for part in (re, im):
        if part.is_Rational or part.is_Float:
            parts.append(part)
        else:
            raise ValueError(
                f"the value of {symbol} must be exact (Integer, Rational or Float, or a + I*b "
                f"of those), got {value}"
            )
    return parts[0], parts[1]


def ball_of(part: sp.Expr) -> arb:
    return rational(part) if part.is_Rational else float(part)


# ---------------------------------------------------------------- ball helpers


def is_exact_zero(x: arb) -> bool:
    return x.is_exact() and x.is_zero()


def is_exact_zero_ball(z: Ball) -> bool:
    """z is exactly 0: a real or complex ball of radius 0 at 0."""
    return z.is_exact() and z.is_zero()


def show(z: Ball) -> str:
    """A ball in a few digits, for messages (at 8192 bits the full form runs to pages)."""
    if type(z) is arb:
        return z.str(10)
    return f"{z.real.str(10)} + {z.imag.str(10)}*I"


def real(z: Ball) -> arb | None:
    """z as an arb when it is certainly real (an arb, or an acb with exactly zero imaginary part)."""
    if type(z) is arb:
        return z
    return z.real if is_exact_zero(z.imag) else None


def as_acb(z: Ball) -> acb:
    return z if type(z) is acb else acb(z)


def exact_int(z: Ball) -> int | None:
    """The integer z is, when z is an exact real integer ball; else None."""
    x = real(z)
    if x is None or not x.is_exact() or not x.is_integer():
        return None
    return int(x.unique_fmpz())


def disc(radius: arb) -> acb:
    """The complex ball of all numbers of modulus <= radius (its upper bound)."""
    r = arb(0, radius.abs_upper())
    return acb(r, r)
