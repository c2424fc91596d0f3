"""SymPy's elementary and special functions on balls, with SymPy's principal branches.

A cut is an open segment of the real or imaginary axis; on it arb's value is SymPy's, and a
ball that straddles it raises IndeterminateError instead of picking a side.
"""

from __future__ import annotations

from collections.abc import Callable

from flint import acb, arb

from proofs.engine.balls import (
    Ball,
    IndeterminateError,
    UndefinedError,
    as_acb,
    is_exact_zero,
    is_exact_zero_ball,
    real,
    show,
)

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
    x = real(z)
    if x is not None and real_fn is not None and real_ok(x):
        return real_fn(x)
    w = as_acb(z)
    re, im = w.real, w.imag
    for axis, lo, hi in cuts:
        along, across = (re, im) if axis == "re" else (im, re)
        if _outside(along, lo, hi):
            continue
        if is_exact_zero(across):
            if _inside(along, lo, hi):
                continue  # on the cut itself: the convention's value, which arb computes
            raise IndeterminateError(f"the argument of {name} straddles a branch point: {show(z)}")
        if across.contains(0):
            raise IndeterminateError(f"the argument of {name} straddles its branch cut: {show(z)}")
    return complex_fn(w)


_REAL_LINE_BEYOND_ONE = (("re", None, -1), ("re", 1, None))
_IMAG_LINE_BEYOND_ONE = (("im", None, -1), ("im", 1, None))
_NEGATIVE_REALS = (("re", None, 0),)


def log(z: Ball) -> Ball:
    x = real(z)
    if x is not None and x < 0:
        return acb((-x).log(), arb.pi())
    return _principal("log", z, _NEGATIVE_REALS, acb.log, arb.log, lambda x: x > 0)


def asin(z: Ball) -> Ball:
    return _principal(
        "asin", z, _REAL_LINE_BEYOND_ONE, acb.asin, arb.asin, lambda x: x >= -1 and x <= 1
    )


def acos(z: Ball) -> Ball:
    return _principal(
        "acos", z, _REAL_LINE_BEYOND_ONE, acb.acos, arb.acos, lambda x: x >= -1 and x <= 1
    )


def atan(z: Ball) -> Ball:
    return _principal("atan", z, _IMAG_LINE_BEYOND_ONE, acb.atan, arb.atan)


def asinh(z: Ball) -> Ball:
    return _principal("asinh", z, _IMAG_LINE_BEYOND_ONE, acb.asinh, arb.asinh)


def acosh(z: Ball) -> Ball:
    return _principal("acosh", z, (("re", None, 1),), acb.acosh, arb.acosh, lambda x: x >= 1)


def atanh(z: Ball) -> Ball:
    return _principal(
        "atanh", z, _REAL_LINE_BEYOND_ONE, acb.atanh, arb.atanh, lambda x: x > -1 and x < 1
    )


def reciprocal_then(
    name: str, f: Callable[[Ball], Ball], at_zero: Callable[[], Ball] | None = None
) -> Callable[[Ball], Ball]:
    """g(z) = f(1/z), mpmath's definition of acot, acoth, asec, acsc, asech and acsch.

    at_zero: SymPy's value at 0 (acot(0) = pi/2, acoth(0) = I*pi/2), None if infinite there.
    """

    def g(z: Ball) -> Ball:
        if z.contains(0):
            if is_exact_zero_ball(z):
                if at_zero is None:
                    raise UndefinedError(f"{name}(0) is infinite")
                return at_zero()
            raise IndeterminateError(f"the argument of {name} is a ball containing 0: {show(z)}")
        return f(1 / z)

    return g


def loggamma(z: Ball) -> Ball:
    return _principal("loggamma", z, _NEGATIVE_REALS, acb.lgamma, arb.lgamma, lambda x: x > 0)


def li(z: Ball) -> Ball:
    # li(x +- i0) differs by 2*pi*i on all of (-oo, 1): the real values on (0, 1) are the mean.
    return _principal("li", z, (("re", None, 1),), acb.li, arb.li, lambda x: x > 0)


def ei(z: Ball) -> Ball:
    return _principal("Ei", z, _NEGATIVE_REALS, acb.ei, arb.ei, lambda x: x > 0 or x < 0)


def real_only(name: str, f: Callable[[arb], arb], ok: Callable[[arb], bool], domain: str):
    def g(z: Ball) -> arb:
        x = real(z)
        if x is None or not ok(x):
            raise IndeterminateError(
                f"{name} is evaluated only at real arguments in {domain}: {show(z)}"
            )
        return f(x)

    return g


def elliptic_k(m: Ball) -> Ball:
    return _principal(
        "elliptic_k",
        m,
        (("re", 1, None),),
        acb.elliptic_k,
        lambda x: acb(x).elliptic_k().real,
        lambda x: x < 1,
    )


def elliptic_e(*args: Ball) -> Ball:
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
    xs = [real(v) for v in (phi, *params)]
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


def elliptic_f(phi: Ball, m: Ball) -> arb:
    phi_x, m_x = _real_path("elliptic_f", phi, m)
    return acb.elliptic_f(acb(phi_x), acb(m_x)).real


def elliptic_pi(*args: Ball) -> arb:
    if len(args) == 2:
        n, m = (real(v) for v in args)
        if n is None or m is None or not (n < 1 and m < 1):
            raise IndeterminateError("elliptic_pi(n, m) is evaluated only for real n < 1, m < 1")
        return acb.elliptic_pi(acb(n), acb(m)).real
    n, phi, m = args
    phi_x, n_x, m_x = _real_path("elliptic_pi", phi, n, m)
    return acb.elliptic_pi_inc(acb(n_x), acb(phi_x), acb(m_x)).real


def zeta(s: Ball, a: Ball | None = None) -> Ball:
    if a is None:
        x = real(s)
        return x.zeta() if x is not None else as_acb(s).zeta()
    ax, sx = real(a), real(s)
    if ax is None or not ax > 0:
        raise IndeterminateError("Hurwitz zeta(s, a) is evaluated only for real a > 0")
    return sx.zeta(ax) if sx is not None else as_acb(s).zeta(acb(ax))
