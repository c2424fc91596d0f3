"""Certified evaluation of SymPy expressions in ball arithmetic (python-flint's arb and acb).

Every value computed here is a ball that provably contains the exact value of the expression at
an exact point. Branches follow SymPy's (= mpmath's) principal conventions; a ball that straddles
a branch cut or a discontinuity raises IndeterminateError instead of picking a side, and a
function without a certified translation raises UntranslatableError. Nothing here guesses.

to_arb(expr, point, prec): the ball (or ball matrix) of expr at the point.
certify_difference(lhs, rhs, point): 'differs' (certified), 'agrees' (certified to a tolerance,
which is evidence of equality, not proof) or 'unknown', doubling the precision as needed.
is_zero_certified(constant): True only by exact rational arithmetic, False by a ball, else None.
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Literal

import flint
import sympy as sp
from flint import acb, acb_mat, arb, arb_mat, fmpq, fmpz

Ball = arb | acb

# A Sum or Product with more terms than this is not evaluated (each term is a full evaluation).
MAX_TERMS = 10**6
# binomial(n, k) of integers is computed exactly by SymPy; beyond this size it is not attempted.
_MAX_BINOMIAL = 10**5
_PRECISIONS_START = 256
_PRECISION_CAP = 8192
# 'agrees' certifies |lhs - rhs| <= TOLERANCE * max(|lhs|, |rhs|, 1); 2**-160 is about 7e-49,
# well below the design's 1e-40, so a claim off by more than that is never called agreeing.
TOLERANCE = 2.0**-160


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
_LOCK = threading.RLock()


@contextmanager
def _precision(bits: int) -> Iterator[None]:
    with _LOCK:
        old = flint.ctx.prec
        flint.ctx.prec = bits
        try:
            yield
        finally:
            flint.ctx.prec = old


# ---------------------------------------------------------------- exact numbers as balls


def _rational(value: sp.Rational) -> arb:
    # fmpz/fmpq take Python ints directly, never through str(): 5000-digit rationals work.
    if value.q == 1:
        return arb(fmpz(int(value.p)))
    return arb(fmpq(int(value.p), int(value.q)))


def _float(value: sp.Float) -> arb:
    """A SymPy Float at its exact binary value (Float(0.1) is not 1/10)."""
    sign, man, exp, _ = value._mpf_
    if not man:
        if value._mpf_ == (0, 0, 0, 0):
            return arb(0)
        raise UndefinedError(f"the Float {value} is not a finite number")
    # arb((m, e)) is m * 2**e exactly, whatever the working precision.
    return arb((-int(man) if sign else int(man), int(exp)))


def _point_value(symbol: sp.Symbol, value: object) -> tuple[sp.Expr, sp.Expr]:
    """An exact point value as (real part, imaginary part), each a Rational or a Float."""
    if isinstance(value, bool) or not isinstance(value, int | sp.Expr):
        raise TypeError(
            f"the value of {symbol} must be an int or an exact SymPy number, got {type(value).__name__}"
        )
    value = sp.Integer(value) if isinstance(value, int) else value
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


def _ball_of(part: sp.Expr) -> arb:
    return _rational(part) if part.is_Rational else _float(part)


# ---------------------------------------------------------------- ball helpers


def _is_exact_zero(x: arb) -> bool:
    return x.is_exact() and x.is_zero()


def _is_exact_zero_ball(z: Ball) -> bool:
    """z is exactly 0: a real or complex ball of radius 0 at 0."""
    return z.is_exact() and z.is_zero()


def _show(z: Ball) -> str:
    """A ball in a few digits, for messages (at 8192 bits the full form runs to pages)."""
    if type(z) is arb:
        return z.str(10)
    return f"{z.real.str(10)} + {z.imag.str(10)}*I"


def _real(z: Ball) -> arb | None:
    """z as an arb when it is certainly real (an arb, or an acb with exactly zero imaginary part)."""
    if type(z) is arb:
        return z
    return z.real if _is_exact_zero(z.imag) else None


def _as_acb(z: Ball) -> acb:
    return z if type(z) is acb else acb(z)


def _exact_int(z: Ball) -> int | None:
    """The integer z is, when z is an exact real integer ball; else None."""
    x = _real(z)
    if x is None or not x.is_exact() or not x.is_integer():
        return None
    return int(x.unique_fmpz())


def _disc(radius: arb) -> acb:
    """The complex ball of all numbers of modulus <= radius (its upper bound)."""
    r = arb(0, radius.abs_upper())
    return acb(r, r)


# ---------------------------------------------------------------- branch cuts

# A cut is (axis, lo, hi): the open segment (lo, hi) of the real ("re") or imaginary ("im")
# axis, None for an infinite end. On the cut arb's value is SymPy's (tests/test_certified.py
# compares every function with mpmath there); off the cut's line both are the analytic branch.
Cut = tuple[str, int | None, int | None]


def _outside(x: arb, lo: int | None, hi: int | None) -> bool:
    """x certainly lies outside the closed segment [lo, hi]."""
    return (hi is not None and x > hi) or (lo is not None and x < lo)


def _inside(x: arb, lo: int | None, hi: int | None) -> bool:
    """x certainly lies inside the open segment (lo, hi), or is an exact point of its closure."""
    if x.is_exact():
        return (lo is None or x >= lo) and (hi is None or x <= hi)
    return (lo is None or x > lo) and (hi is None or x < hi)


def _principal(
    name: str,
    z: Ball,
    cuts: tuple[Cut, ...],
    complex_fn: Callable[[acb], acb],
    real_fn: Callable[[arb], arb] | None = None,
    real_ok: Callable[[arb], bool] = lambda x: True,
) -> Ball:
    """f(z) on SymPy's principal branch; IndeterminateError if the ball of z straddles a cut.

    real_fn(x) is used for a real ball x with real_ok(x): there f is real and real_fn exact.
    """
    x = _real(z)
    if x is not None and real_fn is not None and real_ok(x):
        return real_fn(x)
    w = _as_acb(z)
    re, im = w.real, w.imag
    for axis, lo, hi in cuts:
        along, across = (re, im) if axis == "re" else (im, re)
        if _outside(along, lo, hi):
            continue
        if _is_exact_zero(across):
            if _inside(along, lo, hi):
                continue  # on the cut itself: the convention's value, which arb computes
            raise IndeterminateError(f"the argument of {name} straddles a branch point: {_show(z)}")
        if across.contains(0):
            raise IndeterminateError(f"the argument of {name} straddles its branch cut: {_show(z)}")
    return complex_fn(w)


_REAL_LINE_BEYOND_ONE = (("re", None, -1), ("re", 1, None))
_IMAG_LINE_BEYOND_ONE = (("im", None, -1), ("im", 1, None))
_NEGATIVE_REALS = (("re", None, 0),)


def _log(z: Ball) -> Ball:
    x = _real(z)
    if x is not None and x < 0:
        return acb((-x).log(), arb.pi())
    return _principal("log", z, _NEGATIVE_REALS, acb.log, arb.log, lambda x: x > 0)


def _asin(z: Ball) -> Ball:
    return _principal(
        "asin", z, _REAL_LINE_BEYOND_ONE, acb.asin, arb.asin, lambda x: x >= -1 and x <= 1
    )


def _acos(z: Ball) -> Ball:
    return _principal(
        "acos", z, _REAL_LINE_BEYOND_ONE, acb.acos, arb.acos, lambda x: x >= -1 and x <= 1
    )


def _atan(z: Ball) -> Ball:
    return _principal("atan", z, _IMAG_LINE_BEYOND_ONE, acb.atan, arb.atan)


def _asinh(z: Ball) -> Ball:
    return _principal("asinh", z, _IMAG_LINE_BEYOND_ONE, acb.asinh, arb.asinh)


def _acosh(z: Ball) -> Ball:
    return _principal("acosh", z, (("re", None, 1),), acb.acosh, arb.acosh, lambda x: x >= 1)


def _atanh(z: Ball) -> Ball:
    return _principal(
        "atanh", z, _REAL_LINE_BEYOND_ONE, acb.atanh, arb.atanh, lambda x: x > -1 and x < 1
    )


def _reciprocal_then(
    name: str, f: Callable[[Ball], Ball], at_zero: Callable[[], Ball] | None = None
) -> Callable[[Ball], Ball]:
    """g(z) = f(1/z), mpmath's definition of acot, acoth, asec, acsc, asech and acsch.

    at_zero: SymPy's value at 0 (acot(0) = pi/2, acoth(0) = I*pi/2), None if infinite there.
    """

    def g(z: Ball) -> Ball:
        if z.contains(0):
            if _is_exact_zero_ball(z):
                if at_zero is None:
                    raise UndefinedError(f"{name}(0) is infinite")
                return at_zero()
            raise IndeterminateError(f"the argument of {name} is a ball containing 0: {_show(z)}")
        return f(1 / z)

    return g


def _loggamma(z: Ball) -> Ball:
    return _principal("loggamma", z, _NEGATIVE_REALS, acb.lgamma, arb.lgamma, lambda x: x > 0)


def _li(z: Ball) -> Ball:
    # li(x +- i0) differs by 2*pi*i on all of (-oo, 1): the real values on (0, 1) are the mean.
    return _principal("li", z, (("re", None, 1),), acb.li, arb.li, lambda x: x > 0)


def _ei(z: Ball) -> Ball:
    return _principal("Ei", z, _NEGATIVE_REALS, acb.ei, arb.ei, lambda x: x > 0 or x < 0)


def _real_only(name: str, f: Callable[[arb], arb], ok: Callable[[arb], bool], domain: str):
    def g(z: Ball) -> arb:
        x = _real(z)
        if x is None or not ok(x):
            raise IndeterminateError(
                f"{name} is evaluated only at real arguments in {domain}: {_show(z)}"
            )
        return f(x)

    return g


def _real_part_when_real(f: Callable[..., acb], ok: Callable[..., bool]) -> Callable[..., Ball]:
    """f through acb; its value's real part when the arguments are real and ok(*args)."""

    def g(*zs: Ball) -> Ball:
        xs = [_real(z) for z in zs]
        value = f(*(_as_acb(z) for z in zs))
        if all(x is not None for x in xs) and ok(*xs):
            return value.real  # f is real there, so the real part is an enclosure of it
        return value

    return g


def _elliptic_k(m: Ball) -> Ball:
    return _principal(
        "elliptic_k",
        m,
        (("re", 1, None),),
        acb.elliptic_k,
        lambda x: acb(x).elliptic_k().real,
        lambda x: x < 1,
    )


def _elliptic_e(*args: Ball) -> Ball:
    if len(args) == 1:
        return _principal(
            "elliptic_e",
            args[0],
            (("re", 1, None),),
            acb.elliptic_e,
            lambda x: acb(x).elliptic_e().real,
            lambda x: x < 1,
        )
    phi, m = _real_path("elliptic_e", args[0], args[1])
    return acb.elliptic_e_inc(acb(phi), acb(m)).real


def _real_path(name: str, phi: Ball, *params: Ball) -> tuple[arb, ...]:
    """Real phi and parameters p with p*sin(t)**2 < 1 on [0, phi]: the integral is real there."""
    xs = [_real(v) for v in (phi, *params)]
    if any(x is None for x in xs):
        raise IndeterminateError(f"{name} is evaluated only at real arguments")
    phi_x, *ps = xs
    half_pi = arb.pi() / 2
    short = abs(phi_x) < half_pi
    s2 = phi_x.sin() ** 2
    for p in ps:
        if not (p < 1 or (short and p * s2 < 1)):
            raise IndeterminateError(f"{name} is evaluated only where its integrand stays real")
    return tuple(xs)  # type: ignore[return-value]


def _elliptic_f(phi: Ball, m: Ball) -> arb:
    phi_x, m_x = _real_path("elliptic_f", phi, m)
    return acb.elliptic_f(acb(phi_x), acb(m_x)).real


def _elliptic_pi(*args: Ball) -> arb:
    if len(args) == 2:
        n, m = (_real(v) for v in args)
        if n is None or m is None or not (n < 1 and m < 1):
            raise IndeterminateError("elliptic_pi(n, m) is evaluated only for real n < 1, m < 1")
        return acb.elliptic_pi(acb(n), acb(m)).real
    n, phi, m = args
    phi_x, n_x, m_x = _real_path("elliptic_pi", phi, n, m)
    return acb.elliptic_pi_inc(acb(n_x), acb(phi_x), acb(m_x)).real


def _zeta(s: Ball, a: Ball | None = None) -> Ball:
    if a is None:
        x = _real(s)
        return x.zeta() if x is not None else _as_acb(s).zeta()
    ax, sx = _real(a), _real(s)
    if ax is None or not ax > 0:
        raise IndeterminateError("Hurwitz zeta(s, a) is evaluated only for real a > 0")
    return sx.zeta(ax) if sx is not None else _as_acb(s).zeta(acb(ax))


# ---------------------------------------------------------------- powers


def _pow_int(base: Ball, n: int) -> Ball:
    if n < 0 and base.contains(0):
        if _is_exact_zero_ball(base):
            raise UndefinedError("0 raised to a negative power")
        raise IndeterminateError(f"a ball containing 0 raised to the power {n}: {_show(base)}")
    # fmpz, never a Python int: flint turns a large int exponent into an inexact arb.
    return base ** fmpz(n)


def _pow(base: Ball, e: Ball) -> Ball:
    """base**e on SymPy's principal branch exp(e*log(base))."""
    n = _exact_int(e)
    if n is not None:
        return _pow_int(base, n)
    x = _real(base)
    y = _real(e)
    if x is not None and x > 0:
        return x**y if y is not None else acb(x) ** _as_acb(e)
    if base.contains(0):
        return _pow_near_zero(base, e)
    if x is not None:  # a negative real base: arg = pi exactly, the value from above the cut
        magnitude = _pow(-x, e)
        return _as_acb(magnitude) * (_as_acb(e)).exp_pi_i()
    w = _as_acb(base)
    if w.imag.contains(0) and not w.real > 0:
        raise IndeterminateError(f"the base of a power straddles its branch cut: {_show(base)}")
    return w ** _as_acb(e)


def _pow_near_zero(base: Ball, e: Ball) -> Ball:
    """base**e for a base ball containing 0: continuous there when Re(e) > 0, else undecided."""
    re_e = e if type(e) is arb else e.real
    if not re_e > 0:
        if _is_exact_zero_ball(base):
            raise UndefinedError("0 raised to a power whose real part is not positive")
        raise IndeterminateError(f"a ball containing 0 raised to the power {_show(e)}")
    if _is_exact_zero_ball(base):
        return arb(0)
    # |z**e| = |z|**Re(e) * exp(-Im(e)*arg z) <= |z|**Re(e) * exp(pi*|Im(e)|)
    size = base.abs_upper()
    bound = size**re_e
    if type(e) is acb:
        bound = bound * (arb.pi() * abs(e.imag)).exp()
    return _disc(bound)


# ---------------------------------------------------------------- the other functions


def _sign(z: Ball) -> Ball:
    x = _real(z)
    if x is not None:
        if x > 0:
            return arb(1)
        if x < 0:
            return arb(-1)
        if _is_exact_zero(x):
            return arb(0)
        raise IndeterminateError(f"sign of a ball containing 0: {_show(z)}")
    if z.contains(0):
        raise IndeterminateError(f"sign of a ball containing 0: {_show(z)}")
    return z / abs(z)


def _arg(z: Ball) -> Ball:
    x = _real(z)
    if x is not None and _is_exact_zero(x):
        raise UndefinedError("arg(0) is undefined")
    w = _as_acb(z)
    return _atan2(w.imag, w.real)


def _atan2(y: Ball, x: Ball) -> arb:
    ry, rx = _real(y), _real(x)
    if ry is None or rx is None:
        raise IndeterminateError("atan2 is evaluated only at real arguments")
    if rx > 0 or ry > 0 or ry < 0:
        return arb.atan2(ry, rx)  # continuous away from the cut y = 0, x <= 0
    if _is_exact_zero(ry):
        if rx < 0:
            return arb.pi()
        if _is_exact_zero(rx):
            raise UndefinedError("atan2(0, 0) is undefined")
    raise IndeterminateError(f"atan2({_show(y)}, {_show(x)}) straddles its branch cut")


def _integer_part(name: str, f: Callable[[arb], arb]) -> Callable[[Ball], Ball]:
    def g(z: Ball) -> Ball:
        parts = []
        for x in (z,) if type(z) is arb else (z.real, z.imag):
            n = f(x).unique_fmpz()
            if n is None:
                raise IndeterminateError(f"{name} of a ball that straddles an integer: {_show(z)}")
            parts.append(arb(n))
        return parts[0] if len(parts) == 1 else acb(parts[0], parts[1])

    return g


def _extremum(name: str, pick: Callable[[arb, arb], arb]) -> Callable[..., arb]:
    def g(*zs: Ball) -> arb:
        xs = [_real(z) for z in zs]
        if any(x is None for x in xs):
            raise IndeterminateError(f"{name} of a value not known to be real")
        out = xs[0]
        for x in xs[1:]:
            out = pick(out, x)
        return out

    return g


def _binomial(n: Ball, k: Ball) -> arb:
    a, b = _exact_int(n), _exact_int(k)
    if a is None or b is None:
        raise IndeterminateError("binomial is evaluated only at exact integers")
    if max(abs(a), abs(b)) > _MAX_BINOMIAL:
        raise IndeterminateError(f"binomial({a}, {b}) is too large to evaluate exactly")
    return _rational(sp.binomial(sp.Integer(a), sp.Integer(b)))  # SymPy's own convention


def _kronecker(i: Ball, j: Ball) -> arb:
    d = i - j
    if not d.contains(0):
        return arb(0)
    if _is_exact_zero_ball(d):
        return arb(1)
    raise IndeterminateError(f"KroneckerDelta of overlapping balls {_show(i)}, {_show(j)}")


def _add(*xs: Ball) -> Ball:
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


def _mul(*xs: Ball) -> Ball:
    out = xs[0]
    for x in xs[1:]:
        out = out * x
    return out


def _method(name: str) -> Callable[[Ball], Ball]:
    return lambda z: getattr(z, name)()


_FUNCTIONS: dict[type, Callable[..., Ball]] = {
    sp.exp: _method("exp"),
    sp.log: _log,
    sp.sin: _method("sin"),
    sp.cos: _method("cos"),
    sp.tan: _method("tan"),
    sp.cot: _method("cot"),
    sp.sec: _method("sec"),
    sp.csc: _method("csc"),
    sp.sinc: _method("sinc"),
    sp.asin: _asin,
    sp.acos: _acos,
    sp.atan: _atan,
    sp.acot: _reciprocal_then("acot", _atan, lambda: arb.pi() / 2),
    sp.asec: _reciprocal_then("asec", _acos),
    sp.acsc: _reciprocal_then("acsc", _asin),
    sp.sinh: _method("sinh"),
    sp.cosh: _method("cosh"),
    sp.tanh: _method("tanh"),
    sp.coth: _method("coth"),
    sp.sech: _method("sech"),
    sp.csch: _method("csch"),
    sp.asinh: _asinh,
    sp.acosh: _acosh,
    sp.atanh: _atanh,
    sp.acoth: _reciprocal_then("acoth", _atanh, lambda: acb(0, arb.pi() / 2)),
    sp.asech: _reciprocal_then("asech", _acosh),
    sp.acsch: _reciprocal_then("acsch", _asinh),
    sp.Abs: abs,
    sp.sign: _sign,
    sp.re: lambda z: z if type(z) is arb else z.real,
    sp.im: lambda z: arb(0) if type(z) is arb else z.imag,
    sp.conjugate: lambda z: z if type(z) is arb else z.conjugate(),
    sp.arg: _arg,
    sp.floor: _integer_part("floor", arb.floor),
    sp.ceiling: _integer_part("ceiling", arb.ceil),
    sp.Min: _extremum("Min", arb.min),
    sp.Max: _extremum("Max", arb.max),
    sp.gamma: _method("gamma"),
    # factorial(x) is gamma(x + 1), as mpmath and SymPy's evalf define it for non-integers.
    sp.factorial: lambda z: (z + 1).gamma(),
    sp.binomial: _binomial,
    sp.loggamma: _loggamma,
    sp.zeta: _zeta,
    sp.erf: _method("erf"),
    sp.erfc: _method("erfc"),
    sp.erfi: _method("erfi"),
    sp.erfinv: _real_only("erfinv", arb.erfinv, lambda x: x > -1 and x < 1, "(-1, 1)"),
    sp.erfcinv: _real_only("erfcinv", arb.erfcinv, lambda x: x > 0 and x < 2, "(0, 2)"),
    sp.li: _li,
    sp.Ei: _ei,
    sp.elliptic_k: _elliptic_k,
    sp.elliptic_e: _elliptic_e,
    sp.elliptic_f: _elliptic_f,
    sp.elliptic_pi: _elliptic_pi,
    sp.atan2: _atan2,
    sp.KroneckerDelta: _kronecker,
}

_CONSTANTS: dict[type, Callable[[], Ball]] = {
    type(sp.pi): arb.pi,
    type(sp.E): arb.const_e,
    type(sp.EulerGamma): arb.const_euler,
    type(sp.Catalan): arb.const_catalan,
    type(sp.GoldenRatio): lambda: (1 + arb(5).sqrt()) / 2,
    type(sp.I): lambda: acb(0, 1),
}


def supported_functions() -> list[str]:
    """Names of the SymPy functions and constants this module translates."""
    names = [c.__name__ for c in (*_FUNCTIONS, *_CONSTANTS)]
    return sorted({*names, "Add", "Mul", "Pow", "Rational", "Float", "Piecewise", "Sum", "Product"})


# ---------------------------------------------------------------- relations (Piecewise only)


def _ordered(name: str, a: Ball, b: Ball) -> tuple[arb, arb]:
    x, y = _real(a), _real(b)
    if x is None or y is None:
        raise IndeterminateError(f"{name} compares values not known to be real")
    return x, y


def _decided(yes: bool, no: bool, a: Ball, op: str, b: Ball) -> bool:
    if yes:
        return True
    if no:
        return False
    raise IndeterminateError(f"the balls cannot decide {_show(a)} {op} {_show(b)}")


def _lt(a: Ball, b: Ball) -> bool:
    x, y = _ordered("<", a, b)
    return _decided(x < y, x >= y, a, "<", b)


def _le(a: Ball, b: Ball) -> bool:
    x, y = _ordered("<=", a, b)
    return _decided(x <= y, x > y, a, "<=", b)


def _eq(a: Ball, b: Ball) -> bool:
    d = a - b
    return _decided(d.is_exact() and d.is_zero(), not d.contains(0), a, "=", b)


_RELATIONS: dict[type, Callable[..., bool]] = {
    sp.StrictLessThan: _lt,
    sp.LessThan: _le,
    sp.StrictGreaterThan: lambda a, b: _lt(b, a),
    sp.GreaterThan: lambda a, b: _le(b, a),
    sp.Equality: _eq,
    sp.Unequality: lambda a, b: not _eq(a, b),
    sp.And: lambda *bs: all(bs),
    sp.Or: lambda *bs: any(bs),
    sp.Not: lambda b: not b,
}


# ---------------------------------------------------------------- compiled programs


@dataclass
class _Node:
    fn: Callable[..., object]
    args: tuple[int, ...]
    label: str
    constant: bool


class _Program:
    """Expressions compiled to a flat list of ball operations over shared subexpressions.

    inputs: the symbols whose values are passed to run(), in order (slots 0..k-1).
    outputs: the slots holding the compiled expressions' values.
    """

    def __init__(self, exprs: list[sp.Basic], inputs: tuple[sp.Symbol, ...]) -> None:
        self.inputs = inputs
        self.nodes: list[_Node] = []
        self._slots: dict[sp.Basic, int] = {}
        for s in inputs:
            self._slots[s] = len(self.nodes)
            self.nodes.append(_Node(_input_marker, (), s.name, False))
        self.outputs = [self._compile(e) for e in exprs]
        self._constants: dict[int, list[object]] = {}

    # Compilation walks the tree with an explicit stack: hundreds of nesting levels are fine.
    def _compile(self, root: sp.Basic) -> int:
        stack: list[tuple[sp.Basic, bool]] = [(root, False)]
        while stack:
            node, ready = stack.pop()
            if node in self._slots:
                continue
            children = _children(node)
            if not ready:
                stack.append((node, True))
                stack.extend((c, False) for c in children if c not in self._slots)
                continue
            fn, label, extra = self._translate(node)
            args = tuple(self._slots[c] for c in children) + extra
            constant = all(self.nodes[a].constant for a in args)
            self._slots[node] = len(self.nodes)
            self.nodes.append(_Node(fn, args, label, constant))
        return self._slots[root]

    def _translate(self, node: sp.Basic) -> tuple[Callable[..., object], str, tuple[int, ...]]:
        """The operation computing node from its children's values, plus extra argument slots."""
        if isinstance(node, sp.Symbol):
            raise UntranslatableError(f"the symbol {node}", "it has no value at the point")
        if node.is_Rational:
            return (lambda v=node: _rational(v)), "Rational", ()
        if node.is_Float:
            return (lambda v=node: _float(v)), "Float", ()
        kind = type(node)
        if kind in _CONSTANTS:
            return _CONSTANTS[kind], kind.__name__, ()
        if kind is sp.Add:
            return _add, "Add", ()
        if kind is sp.Mul:
            return _mul, "Mul", ()
        if kind is sp.Pow:
            return _compile_pow(node), "Pow", ()
        if kind in _FUNCTIONS:
            return _FUNCTIONS[kind], kind.__name__, ()
        if kind in _RELATIONS:
            return _RELATIONS[kind], kind.__name__, ()
        if node is sp.true or node is sp.false:
            return (lambda v=bool(node): v), str(node), ()
        if kind in (sp.Sum, sp.Product):
            return self._compile_loop(node)
        if kind is sp.Piecewise:
            return self._compile_piecewise(node)
        raise UntranslatableError(kind.__name__)

    def _outer(self, expr: sp.Basic, bound: sp.Symbol | None) -> tuple[sp.Symbol, ...]:
        # Symbols of a lazily evaluated part that come from this program's inputs.
        return tuple(s for s in self.inputs if s in expr.free_symbols and s != bound)

    def _compile_loop(self, node: sp.Sum | sp.Product):
        product = type(node) is sp.Product
        # Sum(f, l1, l2) is Sum(Sum(f, l1), l2): the first limit is the innermost loop.
        if len(node.limits) > 1:
            inner = type(node)(node.function, *node.limits[:-1])
            return self._compile_loop_one(product, inner, node.limits[-1])
        return self._compile_loop_one(product, node.function, node.limits[0])

    def _compile_loop_one(self, product: bool, body: sp.Expr, limit: tuple):
        name = "Product" if product else "Sum"
        if len(limit) != 3:
            raise UntranslatableError(name, "without limits")
        index, a, b = limit
        if any(v.has(sp.oo, -sp.oo, sp.zoo) for v in (a, b)):
            raise UntranslatableError(name, "with an infinite limit")
        outer = self._outer(body, index)
        program = _Program([body], (*outer, index))
        extra = (self._compile(a), self._compile(b), *(self._slots[s] for s in outer))
        return _loop(program, product, name), name, extra

    def _compile_piecewise(self, node: sp.Piecewise):
        # Every piece sees all the Piecewise's symbols; pieces are evaluated only when reached.
        inputs = self._outer(node, None)
        pieces = [
            (
                _Program([cond], inputs) if cond is not sp.true else None,
                _Program([expr], inputs),
            )
            for expr, cond in node.args
        ]
        return _piecewise(pieces), "Piecewise", tuple(self._slots[s] for s in inputs)

    def constants(self, deadline: float | None) -> list[object]:
        """The values of the nodes that depend on no input, at the current precision."""
        prec = flint.ctx.prec
        cached = self._constants.get(prec)
        if cached is None:
            cached = [None] * len(self.nodes)
            for k, node in enumerate(self.nodes):
                if node.constant:
                    cached[k] = _apply(node, [cached[j] for j in node.args], deadline)
            self._constants[prec] = cached
        return cached

    def run(self, values: list[Ball], deadline: float | None) -> list[object]:
        """The outputs at input values given as balls, at the current flint precision."""
        vals = list(self.constants(deadline))
        vals[: len(values)] = values
        for k in range(len(values), len(self.nodes)):
            node = self.nodes[k]
            if not node.constant:
                vals[k] = _apply(node, [vals[j] for j in node.args], deadline)
        return [vals[k] for k in self.outputs]


def _exact_ball(a: object) -> bool:
    return type(a) in (arb, acb) and a.is_exact()


def _input_marker() -> None:
    raise AssertionError("input slots are filled by run()")


def _apply(node: _Node, args: list, deadline: float | None) -> object:
    try:
        value = node.fn(*args, deadline) if node.label in _LAZY else node.fn(*args)
    except (ZeroDivisionError, ValueError, OverflowError) as exc:
        raise IndeterminateError(f"{node.label}: {exc}") from None
    if type(value) is bool or value.is_finite():
        return value
    if node.label not in _LAZY and args and all(_exact_ball(a) for a in args):
        # Exact arguments leave nothing for more precision to resolve: a pole (log(0), 1/0).
        raise UndefinedError(f"{node.label} has no finite value at exact arguments")
    # A pole at the point, or too few bits: only more precision can tell, so retry.
    raise IndeterminateError(f"{node.label} is not finite on the balls at {flint.ctx.prec} bits")


_LAZY = ("Sum", "Product", "Piecewise")


def _children(node: sp.Basic) -> tuple[sp.Basic, ...]:
    # Sums, Products and Piecewise evaluate their parts lazily, as sub-programs.
    if isinstance(node, sp.Sum | sp.Product | sp.Piecewise):
        return ()
    if node.is_Pow and node.exp.is_Rational:
        return (node.base,)
    return node.args


def _compile_pow(node: sp.Pow) -> Callable[..., Ball]:
    e = node.exp
    if e.is_Integer:
        n = int(e)
        return lambda b: _pow_int(b, n)
    if e.is_Rational:
        # exponent ball built at the working precision of each evaluation
        return lambda b: _pow(b, _rational(e))
    return _pow


def _limit(value: Ball, name: str) -> int:
    n = _exact_int(value)
    if n is None:
        raise UndefinedError(f"a limit of the {name} is not an integer: {_show(value)}")
    return n


def _loop(program: _Program, product: bool, name: str):
    def run(a: Ball, b: Ball, *rest) -> Ball:
        *outer, deadline = rest
        lo, hi = _limit(a, name), _limit(b, name)
        invert = hi < lo - 1
        if hi == lo - 1:
            return arb(1 if product else 0)
        if invert:  # SymPy's (Karr's) convention for reversed limits
            lo, hi = hi + 1, lo - 1
        if hi - lo + 1 > MAX_TERMS:
            raise UntranslatableError(name, f"with {hi - lo + 1} terms, more than {MAX_TERMS}")
        total: Ball = arb(1 if product else 0)
        for i in range(lo, hi + 1):
            if deadline is not None and (i - lo) % 1024 == 0 and time.monotonic() > deadline:
                raise OutOfTimeError(f"the deadline passed during a {name}")
            (term,) = program.run([*outer, arb(fmpz(i))], deadline)
            total = total * term if product else total + term
        if invert:
            return 1 / total if product else -total
        return total

    return run


def _piecewise(pieces: list[tuple[_Program | None, _Program]]):
    def run(*rest) -> Ball:
        *values, deadline = rest
        for cond, expr in pieces:
            if cond is None or cond.run(values, deadline)[0]:
                return expr.run(values, deadline)[0]
        raise UndefinedError("no condition of the Piecewise holds")

    return run


# ---------------------------------------------------------------- public API


def _entries(expr: sp.Basic) -> tuple[list[sp.Basic], tuple[int, int] | None]:
    if isinstance(expr, sp.MatrixBase):
        return list(expr), expr.shape
    if isinstance(expr, sp.MatrixExpr):
        raise TypeError("matrix expressions must be explicit matrices (ImmutableMatrix)")
    if isinstance(expr, bool) or not isinstance(expr, sp.Expr | int):
        raise TypeError(f"expected a SymPy expression or Matrix, got {type(expr).__name__}")
    return [sp.Integer(expr) if isinstance(expr, int) else expr], None


def _walk(exprs: list[sp.Basic]) -> Iterator[sp.Basic]:
    """Every node once, children before parents, without recursion.

    SymPy's hash is recursive but cached: hashing each node after its children keeps it shallow,
    so expressions nested hundreds deep can be used as dictionary keys.
    """
    seen: set[int] = set()
    stack: list[tuple[sp.Basic, bool]] = [(e, False) for e in reversed(exprs)]
    while stack:
        node, ready = stack.pop()
        if id(node) in seen:
            continue
        if ready:
            seen.add(id(node))
            hash(node)
            yield node
            continue
        stack.append((node, True))
        stack.extend((a, False) for a in node.args if id(a) not in seen)


def _symbols(exprs: list[sp.Basic]) -> tuple[sp.Symbol, ...]:
    """The free symbols of exprs, in a fixed order (two may share a name)."""
    found: set[sp.Symbol] = set()
    binds = False
    for node in _walk(exprs):
        if isinstance(node, sp.Symbol):
            found.add(node)
        binds = binds or bool(getattr(node, "bound_symbols", ()))
    if binds:  # a Sum's index is bound, not free: SymPy's free_symbols knows which are which
        found = set().union(*(e.free_symbols for e in exprs))
    return tuple(sorted(found, key=lambda s: (s.name, str(sorted(s.assumptions0.items())))))


# Compiled programs, oldest first: a chain evaluates each step as the rhs of one link and the
# lhs of the next, at many points, so compiling once per expression pays.
_CACHE: dict[tuple, _Program] = {}
_CACHE_SIZE = 256


def _compiled(exprs: tuple[sp.Basic, ...]) -> _Program:
    """The program computing exprs; its inputs are their free symbols."""
    with _LOCK:
        try:
            program = _CACHE.get(exprs)
        except RecursionError:  # a first hash of a deep tree: hash it bottom-up, then look again
            for _ in _walk(list(exprs)):
                pass
            program = _CACHE.get(exprs)
        if program is None:
            if len(_CACHE) >= _CACHE_SIZE:
                _CACHE.pop(next(iter(_CACHE)))
            program = _CACHE[exprs] = _Program(list(exprs), _symbols(list(exprs)))
        return program


def _inputs(
    symbols: tuple[sp.Symbol, ...], point: Mapping[sp.Symbol, object]
) -> list[tuple[arb, arb | None]]:
    if not isinstance(point, Mapping):
        raise TypeError(
            f"point must be a mapping from symbols to values, got {type(point).__name__}"
        )
    missing = [s.name for s in symbols if s not in point]
    if missing:
        raise ValueError(f"the point gives no value for {', '.join(missing)}")
    return [_point_value(s, point[s]) for s in symbols]


def _balls(parts: list[tuple]) -> list[Ball]:
    out: list[Ball] = []
    for re, im in parts:
        if im == 0:
            out.append(_ball_of(re))
        else:
            out.append(acb(_ball_of(re), _ball_of(im)))
    return out


def _evaluate(program: _Program, parts: list[tuple], bits: int, deadline: float | None) -> list:
    with _precision(bits):
        return program.run(_balls(parts), deadline)


def to_arb(
    expr: sp.Basic, point: Mapping[sp.Symbol, object], prec: int
) -> Ball | arb_mat | acb_mat:
    """expr at the exact point (symbol -> Integer, Rational, Float or a + I*b) as a ball.

    prec: working precision in bits. A matrix gives an arb_mat (all entries real) or acb_mat.
    Raises UntranslatableError, IndeterminateError (more bits may help), UndefinedError or OutOfTimeError.
    """
    if isinstance(prec, bool) or not isinstance(prec, int) or prec < 2:
        raise ValueError(f"prec must be an int >= 2 (bits), got {prec!r}")
    entries, shape = _entries(expr)
    try:
        program = _compiled(tuple(entries))
        values = _evaluate(program, _inputs(program.inputs, point), prec, None)
    except RecursionError:
        raise UntranslatableError("an expression nested too deeply for SymPy") from None
    if shape is None:
        return values[0]
    rows = [values[r * shape[1] : (r + 1) * shape[1]] for r in range(shape[0])]
    if all(type(v) is arb for v in values):
        return arb_mat(rows)
    return acb_mat([[_as_acb(v) for v in row] for row in rows])


Status = Literal["differs", "agrees", "unknown"]


@dataclass(frozen=True)
class Decision:
    """What ball arithmetic says about lhs - rhs at one exact point.

    status 'differs': certified lhs != rhs there (a ball of lhs - rhs excludes 0).
    status 'agrees': certified |lhs - rhs| <= tolerance * max(|lhs|, |rhs|, 1) there. That is
    evidence, not proof, of equality: a difference below the tolerance looks the same.
    status 'unknown': neither within the precision and time budget; reason says why.
    lhs, rhs: midpoints (decimal); difference: the ball of lhs - rhs; relative: an upper bound
    of |lhs - rhs| / max(|lhs|, |rhs|, 1) (for reports); bits: the last precision used;
    entry: the (row, column) of the deciding matrix entry. cause (for 'unknown'): "undefined"
    when a side has no value at the point, "untranslatable" when a function has no ball
    translation, "" otherwise.
    """

    status: Status
    reason: str
    bits: int = 0
    lhs: str = ""
    rhs: str = ""
    difference: str = ""
    relative: float = math.nan
    entry: tuple[int, int] | None = None
    cause: str = ""


def _text(z: Ball, digits: int = 20) -> str:
    if type(z) is arb:
        return z.mid().str(digits, radius=False)
    return f"{_text(z.real, digits)} + {_text(z.imag, digits)}*I"


def _to_float(x: arb) -> float:
    try:
        return float(x.mid())
    except OverflowError:
        return math.inf


def certify_difference(
    lhs: sp.Basic,
    rhs: sp.Basic,
    point: Mapping[sp.Symbol, object],
    *,
    start_bits: int = _PRECISIONS_START,
    budget_bits: int = _PRECISION_CAP,
    tolerance: float = TOLERANCE,
    deadline: float | None = None,
) -> Decision:
    """Decide lhs - rhs at the exact point by ball arithmetic, doubling the precision as needed.

    'differs' is a certificate that lhs != rhs at the point; 'agrees' only bounds |lhs - rhs|
    (see Decision), so it is evidence of equality, never a proof of it.

    lhs, rhs: SymPy scalars or same-shape matrices (compared entrywise). start_bits/budget_bits:
    the first and the largest precision in bits. tolerance: the relative size below which a
    difference counts as agreement. deadline: a time.monotonic() instant to stop at, or None.
    """
    left, shape = _entries(lhs)
    right, other = _entries(rhs)
    if shape != other:
        raise ValueError(f"lhs and rhs must have the same shape, got {shape} and {other}")
    if not 0 < tolerance < 1:
        raise ValueError(f"tolerance must be in (0, 1), got {tolerance}")
    if not 2 <= start_bits <= budget_bits:
        raise ValueError(
            f"need 2 <= start_bits <= budget_bits, got start_bits={start_bits}, "
            f"budget_bits={budget_bits}"
        )
    cols = shape[1] if shape else 0
    try:
        program = _compiled(tuple(left + right))
        parts = _inputs(program.inputs, point)
    except UntranslatableError as exc:
        return Decision("unknown", str(exc), cause="untranslatable")
    except RecursionError:
        return Decision(
            "unknown", "the expression is nested too deeply to translate", cause="untranslatable"
        )
    bits = start_bits
    reason = ""
    while bits <= budget_bits:
        if deadline is not None and time.monotonic() > deadline:
            return Decision("unknown", f"the time budget ran out before {bits} bits", bits // 2)
        try:
            values = _evaluate(program, parts, bits, deadline)
        except IndeterminateError as exc:
            reason = f"at {bits} bits: {exc}"
            bits *= 2
            continue
        except UndefinedError as exc:
            return Decision("unknown", str(exc), bits, cause="undefined")
        except UntranslatableError as exc:
            return Decision("unknown", str(exc), bits, cause="untranslatable")
        except OutOfTimeError as exc:
            return Decision("unknown", str(exc), bits)
        except RecursionError:
            return Decision("unknown", "the expression is nested too deeply to evaluate", bits)
        with _precision(bits):
            decision, reason = _decide(values, len(left), cols, bits, tolerance)
        if decision is not None:
            return decision
        bits *= 2
    return Decision("unknown", f"not decided within {budget_bits} bits ({reason})", bits // 2)


def _decide(
    values: list, n: int, cols: int, bits: int, tolerance: float
) -> tuple[Decision | None, str]:
    """A Decision when every entry is decided at this precision, else (None, why not).

    values: the n lhs entries then the n rhs entries; cols: the matrix width, 0 for a scalar.
    """
    worst = 0.0
    undecided = ""
    for k in range(n):
        a, b = values[k], values[n + k]
        d = a - b
        entry = divmod(k, cols) if cols else None
        scale = arb.max(arb.max(a.abs_lower(), b.abs_lower()), arb(1))
        bound = d.abs_upper()
        relative = _to_float(bound / scale)
        if not d.contains(0):
            return Decision(
                "differs",
                f"lhs - rhs = {_show(d)} excludes 0 at {bits} bits",
                bits,
                _text(a),
                _text(b),
                _show(d),
                relative,
                entry,
            ), ""
        if bound <= tolerance * scale:
            worst = max(worst, relative)
        elif not undecided:
            where = f" (entry {entry[0]},{entry[1]})" if entry else ""
            undecided = f"lhs - rhs = {_show(d)}{where} contains 0 but is wider than the tolerance"
    if undecided:
        return None, undecided
    where = f"all {n} entries" if n > 1 else "lhs - rhs"
    return Decision(
        "agrees",
        f"{where} certified within {tolerance:.1e} relative at {bits} bits",
        bits,
        _text(values[0]),
        _text(values[n]),
        _show(values[0] - values[n]),
        worst,
    ), ""


def is_zero_certified(expr: sp.Expr, *, budget_bits: int = 2048) -> bool | None:
    """The certified zero test for a constant: True, False, or None (undecided).

    True only when expr is 0 by exact rational arithmetic (its leaves are Integers, Rationals or
    Floats, combined by +, * and integer powers); a ball can never prove that a non-rational
    constant is exactly 0. False when a ball of expr excludes 0 (at up to budget_bits bits).
    None otherwise: sqrt(3 + 2*sqrt(2)) - 1 - sqrt(2) is 0 but comes back None.
    """
    if isinstance(expr, bool) or not isinstance(expr, sp.Expr | int):
        raise TypeError(f"expected a SymPy expression, got {type(expr).__name__}")
    expr = sp.Integer(expr) if isinstance(expr, int) else expr
    try:
        symbols = _symbols([expr])
    except RecursionError:
        return None
    if symbols:
        names = ", ".join(s.name for s in symbols)
        raise ValueError(f"is_zero_certified takes a constant; this one has symbols {names}")
    try:
        exact = _exact_rational(expr)
    except RecursionError:
        exact = None
    if exact is not None:
        return exact == 0
    bits = 128
    while bits <= budget_bits:
        try:
            program = _compiled((expr,))
            (value,) = _evaluate(program, [], bits, None)
        except IndeterminateError:
            bits *= 2
            continue
        except (CertifiedError, RecursionError):
            return None
        with _precision(bits):
            if not value.contains(0):
                return False
        bits *= 2
    return None


# Exact rational evaluation stops at powers this large (2**(10**9) must not be computed).
_MAX_EXACT_EXPONENT = 10**4


def _exact_rational(expr: sp.Expr) -> fmpq | None:
    """expr by exact rational arithmetic, or None if it is not a rational expression."""
    done: dict[sp.Basic, fmpq] = {}
    stack: list[tuple[sp.Basic, bool]] = [(expr, False)]
    while stack:
        node, ready = stack.pop()
        if node in done:
            continue
        if node.is_Rational:
            done[node] = fmpq(int(node.p), int(node.q))
            continue
        if node.is_Float:
            sign, man, exp, _ = node._mpf_
            if not man and node._mpf_ != (0, 0, 0, 0):
                return None
            m = fmpq(-int(man) if sign else int(man))
            done[node] = m * fmpq(2) ** int(exp) if exp >= 0 else m / fmpq(2) ** int(-exp)
            continue
        if node.is_Pow:
            if not node.exp.is_Integer or abs(int(node.exp)) > _MAX_EXACT_EXPONENT:
                return None
            kids = (node.base,)
        elif node.is_Add or node.is_Mul:
            kids = node.args
        else:
            return None
        if not ready:
            stack.append((node, True))
            stack.extend((k, False) for k in kids)
            continue
        if node.is_Pow:
            base, n = done[node.base], int(node.exp)
            if n < 0 and base == 0:
                return None  # 0**-n is zoo, not a number
            done[node] = base**n
        elif node.is_Add:
            done[node] = sum((done[k] for k in kids), fmpq(0))
        else:
            out = fmpq(1)
            for k in kids:
                out *= done[k]
            done[node] = out
    return done[expr]
