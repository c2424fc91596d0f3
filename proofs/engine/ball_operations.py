"""Powers, signs, integer parts, extrema and the other operations on balls, the table that maps
each SymPy head to its ball function, and the relations a Piecewise condition may use.
"""

from __future__ import annotations

from collections.abc import Callable

import sympy as sp
from flint import acb, arb, fmpz

from proofs.engine.ball_functions import (
    acos,
    acosh,
    asin,
    asinh,
    atan,
    atanh,
    ei,
    elliptic_e,
    elliptic_f,
    elliptic_k,
    elliptic_pi,
    li,
    log,
    loggamma,
    real_only,
    reciprocal_then,
    zeta,
)
from proofs.engine.balls import (
    MAX_BINOMIAL,
    Ball,
    IndeterminateError,
    UndefinedError,
    UntranslatableError,
    as_acb,
    disc,
    exact_int,
    is_exact_zero,
    is_exact_zero_ball,
    rational,
    real,
    show,
)

# ---------------------------------------------------------------- powers


def pow_int(base: Ball, n: int) -> Ball:
    if n < 0 and base.contains(0):
        if is_exact_zero_ball(base):
            raise UndefinedError("0 raised to a negative power")
        raise IndeterminateError(f"a ball containing 0 raised to the power {n}: {show(base)}")
    # fmpz, never a Python int: flint turns a large int exponent into an inexact arb.
    return base ** fmpz(n)


def pow(base: Ball, e: Ball) -> Ball:
    """base**e on SymPy's principal branch exp(e*log(base))."""
    n = exact_int(e)
    if n is not None:
        return pow_int(base, n)
    x = real(base)
    y = real(e)
    if x is not None and x > 0:
        return x**y if y is not None else acb(x) ** as_acb(e)
    if base.contains(0):
        return _pow_near_zero(base, e)
    if x is not None:  # a negative real base: arg = pi exactly, the value from above the cut
        magnitude = pow(-x, e)
        return as_acb(magnitude) * (as_acb(e)).exp_pi_i()
    w = as_acb(base)
    if w.imag.contains(0) and not w.real > 0:
        raise IndeterminateError(f"the base of a power straddles its branch cut: {show(base)}")
    return w ** as_acb(e)


def _pow_near_zero(base: Ball, e: Ball) -> Ball:
    """base**e for a base ball containing 0: continuous there when Re(e) > 0, else undecided."""
    re_e = e if type(e) is arb else e.real
    if not re_e > 0:
        if is_exact_zero_ball(base):
            raise UndefinedError("0 raised to a power whose real part is not positive")
        raise IndeterminateError(f"a ball containing 0 raised to the power {show(e)}")
    if is_exact_zero_ball(base):
        return arb(0)
    # |z**e| = |z|**Re(e) * exp(-Im(e)*arg z) <= |z|**Re(e) * exp(pi*|Im(e)|)
    size = base.abs_upper()
    bound = size**re_e
    if type(e) is acb:
        bound = bound * (arb.pi() * abs(e.imag)).exp()
    return disc(bound)


# ---------------------------------------------------------------- the other functions


def _sign(z: Ball) -> Ball:
    x = real(z)
    if x is not None:
        if x > 0:
            return arb(1)
        if x < 0:
            return arb(-1)
        if is_exact_zero(x):
            return arb(0)
        raise IndeterminateError(f"sign of a ball containing 0: {show(z)}")
    if z.contains(0):
        raise IndeterminateError(f"sign of a ball containing 0: {show(z)}")
    return z / abs(z)


def _arg(z: Ball) -> Ball:
    x = real(z)
    if x is not None and is_exact_zero(x):
        raise UndefinedError("arg(0) is undefined")
    w = as_acb(z)
    return _atan2(w.imag, w.real)


def _atan2(y: Ball, x: Ball) -> arb:
    ry, rx = real(y), real(x)
    if ry is None or rx is None:
        raise IndeterminateError("atan2 is evaluated only at real arguments")
    if rx > 0 or ry > 0 or ry < 0:
        return arb.atan2(ry, rx)  # continuous away from the cut y = 0, x <= 0
    if is_exact_zero(ry):
        if rx < 0:
            return arb.pi()
        if is_exact_zero(rx):
            raise UndefinedError("atan2(0, 0) is undefined")
    raise IndeterminateError(f"atan2({show(y)}, {show(x)}) straddles its branch cut")


def _integer_part(name: str, f: Callable[[arb], arb]) -> Callable[[Ball], Ball]:
    def g(z: Ball) -> Ball:
        parts = []
        for x in (z,) if type(z) is arb else (z.real, z.imag):
            n = f(x).unique_fmpz()
            if n is None:
                raise IndeterminateError(f"{name} of a ball that straddles an integer: {show(z)}")
            parts.append(arb(n))
        return parts[0] if len(parts) == 1 else acb(parts[0], parts[1])

    return g


def _extremum(name: str, pick: Callable[[arb, arb], arb]) -> Callable[..., arb]:
    def g(*zs: Ball) -> arb:
        xs = [real(z) for z in zs]
        if any(x is None for x in xs):
            raise IndeterminateError(f"{name} of a value not known to be real")
        out = xs[0]
        for x in xs[1:]:
            out = pick(out, x)
        return out

    return g


def _binomial(n: Ball, k: Ball) -> arb:
    a, b = exact_int(n), exact_int(k)
    if a is None or b is None:
        raise IndeterminateError("binomial is evaluated only at exact integers")
    if max(abs(a), abs(b)) > MAX_BINOMIAL:
        raise IndeterminateError(f"binomial({a}, {b}) is too large to evaluate exactly")
    return rational(sp.binomial(sp.Integer(a), sp.Integer(b)))  # SymPy's own convention


def _factorial_power(name: str, step: int) -> Callable[[Ball, Ball], Ball]:
    """RisingFactorial (step 1) or FallingFactorial (step -1) at an exact integer count k, by
    SymPy's convention: x(x + step)...(k factors), and 1/((x - step)...(|k| factors)) for k < 0."""

    def g(z: Ball, k: Ball) -> Ball:
        count = exact_int(k)
        if count is None:
            raise UntranslatableError(name, "at a count that is not an exact integer")
        if abs(count) > MAX_BINOMIAL:
            raise UntranslatableError(name, f"with {abs(count)} factors, more than {MAX_BINOMIAL}")
        out: Ball = arb(1)
        if count >= 0:
            for i in range(count):
                out = out * (z + step * i)
            return out
        for i in range(1, 1 - count):
            out = out * (z - step * i)
        return 1 / out

    return g


def _kronecker(i: Ball, j: Ball) -> arb:
    d = i - j
    if not d.contains(0):
        return arb(0)
    if is_exact_zero_ball(d):
        return arb(1)
    raise IndeterminateError(f"KroneckerDelta of overlapping balls {show(i)}, {show(j)}")


def add(*xs: Ball) -> Ball:
    out = xs[0]
    for x in xs[1:]:
        out = out + x
    return out


def mul(*xs: Ball) -> Ball:
    out = xs[0]
    for x in xs[1:]:
        out = out * x
    return out


def _method(name: str) -> Callable[[Ball], Ball]:
    return lambda z: getattr(z, name)()


FUNCTIONS: dict[type, Callable[..., Ball]] = {
    sp.exp: _method("exp"),
    sp.log: log,
    sp.sin: _method("sin"),
    sp.cos: _method("cos"),
    sp.tan: _method("tan"),
    sp.cot: _method("cot"),
    sp.sec: _method("sec"),
    sp.csc: _method("csc"),
    sp.sinc: _method("sinc"),
    sp.asin: asin,
    sp.acos: acos,
    sp.atan: atan,
    sp.acot: reciprocal_then("acot", atan, lambda: arb.pi() / 2),
    sp.asec: reciprocal_then("asec", acos),
    sp.acsc: reciprocal_then("acsc", asin),
    sp.sinh: _method("sinh"),
    sp.cosh: _method("cosh"),
    sp.tanh: _method("tanh"),
    sp.coth: _method("coth"),
    sp.sech: _method("sech"),
    sp.csch: _method("csch"),
    sp.asinh: asinh,
    sp.acosh: acosh,
    sp.atanh: atanh,
    sp.acoth: reciprocal_then("acoth", atanh, lambda: acb(0, arb.pi() / 2)),
    sp.asech: reciprocal_then("asech", acosh),
    sp.acsch: reciprocal_then("acsch", asinh),
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
    sp.RisingFactorial: _factorial_power("RisingFactorial", 1),
    sp.FallingFactorial: _factorial_power("FallingFactorial", -1),
    sp.loggamma: loggamma,
    sp.zeta: zeta,
    sp.erf: _method("erf"),
    sp.erfc: _method("erfc"),
    sp.erfi: _method("erfi"),
    sp.erfinv: real_only("erfinv", arb.erfinv, lambda x: x > -1 and x < 1, "(-1, 1)"),
    sp.erfcinv: real_only("erfcinv", arb.erfcinv, lambda x: x > 0 and x < 2, "(0, 2)"),
    sp.li: li,
    sp.Ei: ei,
    sp.elliptic_k: elliptic_k,
    sp.elliptic_e: elliptic_e,
    sp.elliptic_f: elliptic_f,
    sp.elliptic_pi: elliptic_pi,
    sp.atan2: _atan2,
    sp.KroneckerDelta: _kronecker,
}

CONSTANTS: dict[type, Callable[[], Ball]] = {
    type(sp.pi): arb.pi,
    type(sp.E): arb.const_e,
    type(sp.EulerGamma): arb.const_euler,
    type(sp.Catalan): arb.const_catalan,
    type(sp.GoldenRatio): lambda: (1 + arb(5).sqrt()) / 2,
    type(sp.I): lambda: acb(0, 1),
}


def supported_functions() -> list[str]:
    """Names of the SymPy functions and constants this module translates."""
    names = [c.__name__ for c in (*FUNCTIONS, *CONSTANTS)]
    return sorted({*names, "Add", "Mul", "Pow", "Rational", "Float", "Piecewise", "Sum", "Product"})


# ---------------------------------------------------------------- relations (Piecewise only)


def _ordered(name: str, a: Ball, b: Ball) -> tuple[arb, arb]:
    x, y = real(a), real(b)
    if x is None or y is None:
        raise IndeterminateError(f"{name} compares values not known to be real")
    return x, y


def _decided(yes: bool, no: bool, a: Ball, op: str, b: Ball) -> bool:
    if yes:
        return True
    if no:
        return False
    raise IndeterminateError(f"the balls cannot decide {show(a)} {op} {show(b)}")


def _lt(a: Ball, b: Ball) -> bool:
    x, y = _ordered("<", a, b)
    return _decided(x < y, x >= y, a, "<", b)


def _le(a: Ball, b: Ball) -> bool:
    x, y = _ordered("<=", a, b)
    return _decided(x <= y, x > y, a, "<=", b)


def _eq(a: Ball, b: Ball) -> bool:
    d = a - b
    return _decided(d.is_exact() and d.is_zero(), not d.contains(0), a, "=", b)


RELATIONS: dict[type, Callable[..., bool]] = {
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
