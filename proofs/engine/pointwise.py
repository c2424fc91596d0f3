"""The numeric half of a link check: both sides at many seeded points, in high precision.

Each point is evaluated twice, at LOW_DPS and HIGH_DPS significant digits. A true identity's
difference is rounding noise, which shrinks by about 10**-(HIGH_DPS-LOW_DPS) between the two;
a false one's difference is a real number and stays put. Only a difference that is stable
across both precisions counts as a counterexample, so cancellation near zero (sin(n*pi) for
integer n, say) never refutes a true claim, and a claim off by 10**-45 is still caught.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import mpmath
import sympy as sp
from sympy.core.evalf import PrecisionExhausted
from sympy.printing.codeprinter import PrintMethodNotImplementedError
from sympy.printing.pycode import MpmathPrinter

from proofs.engine.sampling import sample_points, symbol_order

LOW_DPS = 60
HIGH_DPS = 120
MIN_POINTS = 24
MAX_ATTEMPTS = 200
# Spec tolerance of the design: agreement to 1e-40 relative. Reported beside every check.
RELATIVE_TOLERANCE = mpmath.mpf("1e-40")
# A difference below 10**-(high_dps - _NOISE_DIGITS) relative to max(|lhs|, |rhs|, 1) is taken
# as rounding noise without a second evaluation (at 120 digits: 1e-100, far finer than 1e-40).
_NOISE_DIGITS = 20
# Two evaluations of a real difference agree to this relative amount; noise does not.
_STABLE = mpmath.mpf("1e-6")


@dataclass(frozen=True)
class Counterexample:
    """A point where the two sides differ, with both values (as decimal strings)."""

    point: dict[str, str]
    lhs: str
    rhs: str
    difference: str
    entry: tuple[int, int] | None = None

    def describe(self) -> str:
        """One line: the point, then both values."""
        where = ", ".join(f"{k} = {v}" for k, v in self.point.items()) or "any point"
        at = f" (entry {self.entry[0]},{self.entry[1]})" if self.entry else ""
        return f"at {where}{at}: lhs = {self.lhs}, rhs = {self.rhs} (lhs - rhs = {self.difference})"


@dataclass(frozen=True)
class NumericResult:
    """Outcome of the numeric check of one link.

    passed: True if every evaluated point agreed, False if a counterexample was found,
    None if too few points could be evaluated. points: how many were compared.
    max_relative: the largest relative difference seen at HIGH_DPS (a float, for reports).
    """

    passed: bool | None
    points: int
    max_relative: float
    counterexample: Counterexample | None = None
    detail: str = field(default="")
    noisy: int = 0

    def summary(self) -> str:
        """A short human-readable line."""
        if self.passed is None:
            return f"numeric ? ({self.detail})"
        if not self.passed:
            return "numeric ✗ counterexample found"
        noise = (
            f"; {self.noisy} with rounding noise above 1e-40 (no difference: it changed "
            "with precision, or evalf could not tell it from 0)"
            if self.noisy
            else ""
        )
        return f"numeric ✓ {self.points} points, max rel. diff {self.max_relative:.1e}{noise}"


def _to_mp(value: sp.Expr) -> mpmath.mpf | mpmath.mpc:
    # Sampled values are exact: a Rational, or Rational + I*Rational.
    re, im = (sp.Rational(part) for part in value.as_real_imag())
    r = mpmath.mpf(re.p) / re.q
    if im == 0:
        return r
    return mpmath.mpc(r, mpmath.mpf(im.p) / im.q)


def _entries(expr: sp.Basic) -> list[tuple[tuple[int, int] | None, sp.Expr]]:
    if isinstance(expr, sp.MatrixBase):
        return [((r, c), expr[r, c]) for r in range(expr.rows) for c in range(expr.cols)]
    return [(None, expr)]


def _short(x) -> str:
    return mpmath.nstr(x, 20)


def _integer_limit(value) -> int:
    """A summation limit as an int; a non-integral limit makes the point inadmissible."""
    as_int = int(mpmath.nint(value))
    if value != as_int:
        raise ValueError(f"summation limit {value} is not an integer")
    return as_int


class _SumPrinter(MpmathPrinter):
    """mpmath code in which a Sum with symbolic limits runs over mpf indices.

    SymPy's printer emits range(a, b+1), which fails when the limits arrive as mpmath numbers;
    here the limits are checked to be integers and the index is an exact mpf, so i/d_model
    never falls back to float division.
    """

    def _print_re(self, expr: sp.re) -> str:
        return f"re({self._print(expr.args[0])})"

    def _print_im(self, expr: sp.im) -> str:
        return f"im({self._print(expr.args[0])})"

    def _print_conjugate(self, expr: sp.conjugate) -> str:
        return f"conj({self._print(expr.args[0])})"

    def _print_Sum(self, expr: sp.Sum) -> str:
        loops = " ".join(
            f"for {self._print(i)} in map(mpf, range(_integer_limit({self._print(a)}), "
            f"_integer_limit({self._print(b)}) + 1))"
            for i, a, b in expr.limits
        )
        return f"(builtins.sum({self._print(expr.function)} {loops}))"


@functools.lru_cache(maxsize=256)
def _compile(exprs: tuple[sp.Expr, ...], symbols: tuple[sp.Symbol, ...]):
    # Cached: in a chain, each step is the right side of one link and the left of the next.
    return sp.lambdify(
        symbols,
        list(exprs),
        modules=[{"_integer_limit": _integer_limit}, "mpmath"],
        printer=_SumPrinter({"fully_qualified_modules": False, "inline": True}),
        # cse would hoist terms in a Sum's bound index out of the Sum's loop.
        cse=not any(e.has(sp.Sum) for e in exprs),
        # Two symbols may share a name (x and a real x): give each its own argument.
        dummify=True,
    )


class _Side:
    """All entries of one side of a link, evaluable at a point in any working precision."""

    def __init__(self, exprs: list[sp.Expr], symbols: list[sp.Symbol]) -> None:
        # One function for all entries, with common subexpressions (sin(pos*w), ...) shared.
        self.symbols = symbols
        self.func = _compile(tuple(sp.sympify(e) for e in exprs), tuple(symbols))

    def __call__(self, values: dict[sp.Symbol, object]) -> list:
        """The entries at a point given as mpmath numbers."""
        return [mpmath.mpmathify(v) for v in self.func(*(values[s] for s in self.symbols))]


def _evaluate(
    sides: tuple[_Side, _Side], point: dict[sp.Symbol, sp.Expr], dps: int
) -> tuple[list, list]:
    with mpmath.workdps(dps):
        values = {s: _to_mp(v) for s, v in point.items()}
        return sides[0](values), sides[1](values)


def check_numeric(
    lhs: sp.Basic,
    rhs: sp.Basic,
    *,
    seed: int = 0,
    points: int = MIN_POINTS,
    low_dps: int = LOW_DPS,
    high_dps: int = HIGH_DPS,
) -> NumericResult:
    """Compare lhs and rhs (scalars or same-shape matrices) at seeded points.

    seed: the random stream; points: how many points must be evaluated;
    low_dps/high_dps: the two working precisions in significant digits.
    """
    pairs = list(zip(_entries(lhs), _entries(rhs), strict=True))
    symbols = sorted(
        set().union(
            *(sp.sympify(a).free_symbols | sp.sympify(b).free_symbols for (_, a), (_, b) in pairs)
        ),
        key=symbol_order,
    )
    try:
        sides = (
            _Side([a for (_, a), _ in pairs], symbols),
            _Side([b for _, (_, b) in pairs], symbols),
        )
    except (PrintMethodNotImplementedError, KeyError, NotImplementedError) as exc:
        # No mpmath translation (an unusual function, or zoo in the expression): no evidence.
        what = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return NumericResult(None, 0, 0.0, detail=f"cannot be evaluated numerically ({what})")
    compared = 0
    noisy = 0
    uncertain = 0
    worst = mpmath.mpf(0)
    attempts = 0
    stream = sample_points(symbols, seed=seed)
    for point in stream:
        if compared >= points or attempts >= MAX_ATTEMPTS:
            break
        attempts += 1
        try:
            lhs_hi, rhs_hi = _evaluate(sides, point, high_dps)
            # The second precision only matters where the sides differ by more than the
            # noise floor of the first; an exact or near-exact match needs no second opinion.
            with mpmath.workdps(high_dps):
                # The floor follows the working precision, so a deeper look sees deeper.
                floor = mpmath.mpf(10) ** (_NOISE_DIGITS - high_dps)
                gaps = [
                    (abs(a - b), max(abs(a), abs(b))) for a, b in zip(lhs_hi, rhs_hi, strict=True)
                ]
                close = all(gap <= floor * max(scale, 1) for gap, scale in gaps)
            if not close:
                lhs_lo, rhs_lo = _evaluate(sides, point, low_dps)
        except (ZeroDivisionError, ValueError, TypeError, OverflowError, ArithmeticError):
            continue  # outside the expression's domain: not evidence either way
        if any(not mpmath.isfinite(v) for v in (*lhs_hi, *rhs_hi)):
            continue
        compared += 1
        if close:
            with mpmath.workdps(high_dps):
                worst = max([worst, *(gap / scale for gap, scale in gaps if scale)])
            continue
        for j, ((pos, a), (_, b)) in enumerate(pairs):
            a_hi, b_hi, a_lo, b_lo = lhs_hi[j], rhs_hi[j], lhs_lo[j], rhs_lo[j]
            with mpmath.workdps(high_dps):
                d_hi = abs(a_hi - b_hi)
                d_lo = abs(a_lo - b_lo)
                scale = max(abs(a_hi), abs(b_hi))
                rel = d_hi / scale if scale else d_hi
                stable = d_hi > 0 and abs(d_hi - d_lo) <= _STABLE * d_hi
                certified = _certified_nonzero(a - b, point, high_dps) if stable else False
                if certified is None:
                    uncertain += 1
                elif not certified and rel > RELATIVE_TOLERANCE:
                    noisy += 1
                if certified:
                    cx = Counterexample(
                        point={_label(s, symbols): _show_exact(point[s]) for s in symbols},
                        lhs=_short(a_hi),
                        rhs=_short(b_hi),
                        difference=mpmath.nstr(a_hi - b_hi, 6),
                        entry=pos,
                    )
                    return NumericResult(False, compared, float(rel), cx)
                if rel > worst and rel <= RELATIVE_TOLERANCE:
                    worst = rel
    if uncertain:
        return NumericResult(
            None,
            compared,
            float(worst),
            detail=f"{uncertain} stable difference(s) could not be certified nonzero or zero",
            noisy=noisy,
        )
    if compared < points:
        return NumericResult(
            None,
            compared,
            float(worst),
            detail=f"only {compared} of {points} points could be evaluated",
            noisy=noisy,
        )
    return NumericResult(True, compared, float(worst), noisy=noisy)


def _certified_nonzero(
    difference: sp.Expr, point: dict[sp.Symbol, sp.Expr], dps: int
) -> bool | None:
    """Whether SymPy's accuracy-tracking evalf shows difference != 0 at the exact point.

    Both fixed precisions can lose the same digits: in sin(x + 2**700) the 30-digit x is
    absorbed at 60 and at 120 digits alike, so a true identity looks stably false. evalf
    raises its working precision until its answer is certain; if it cannot tell the value
    from 0 within 2*dps digits, the two sides agree as far as this check can see (False).
    None: evalf could not produce a number at all, so the point proves nothing either way.
    """
    try:
        # doit(): at the point every Sum has integer limits and is finite; evalf alone leaves a
        # multi-index Sum unevaluated, and an unevaluated difference is never certified.
        value = difference.subs(point).doit().evalf(15, maxn=2 * dps, strict=True)
    except PrecisionExhausted:
        return False
    if not value.is_number or value.has(sp.Sum, sp.Integral, sp.Limit):
        return None
    return value.is_zero is False


_HEADLINE_FACTS = (
    "integer",
    "even",
    "odd",
    "real",
    "positive",
    "negative",
    "nonnegative",
    "nonzero",
)


def _label(symbol: sp.Symbol, symbols: list[sp.Symbol]) -> str:
    """The symbol's name, with its assumptions when another symbol has the same name."""
    if sum(s.name == symbol.name for s in symbols) == 1:
        return symbol.name
    facts = [k for k in _HEADLINE_FACTS if symbol.assumptions0.get(k)]
    return f"{symbol.name} ({', '.join(facts) or 'complex'})"


def _show_exact(value: sp.Expr) -> str:
    # Integers print exactly; a sampled rational prints to 20 digits (its exact form is 60 long).
    if value.is_Integer:
        return str(value)
    with mpmath.workdps(HIGH_DPS):
        return _short(_to_mp(value))
