"""The numeric half of a link check: both sides at many seeded points, in certified ball arithmetic.

At each exact point (symbol -> Rational, or Rational + I*Rational) the difference lhs - rhs, as
the one tree the claim gives (terms common to both sides cancelled exactly, nothing
re-evaluated), is evaluated as a ball that provably contains its exact value
(proofs.engine.certified). The precision is raised until the ball either excludes 0, which
certifies that the sides differ there (a counterexample), or lies within 2**-(p/2 + 32) of 0 at
p bits: agreement at that point, an absolute bound whatever the size of the sides. A point where
neither happens within the precision or time budget makes the check undecided, never passed; a
point where a side has no value is skipped.

The entries A[i, j] of a MatrixSymbol are inputs of their own, sampled as complex numbers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import mpmath
import sympy as sp
from sympy.matrices.expressions.matexpr import MatrixElement

from proofs.engine import arguments, budget
from proofs.engine.balls import (
    PRECISION_CAP,
    PRECISIONS_START,
    agreement_bound,
    agreement_exponent,
)
from proofs.engine.certified import CertifiedError, Decision, certify_difference, to_arb
from proofs.engine.sampling import large_points, sample_points, symbol_order

MIN_POINTS = 24
# After the points agree, this many more with the real and complex inputs 10^4 to 10^8 times
# larger (proofs.engine.sampling.large_points), which can only refute.
PROBES = 4
MAX_ATTEMPTS = 200
# The first precision tried, in bits (about 77 digits), and the largest (about 9864 digits).
# Agreement at p bits certifies |lhs - rhs| <= 2**-(p/2 + 32): 2**-160 (about 7e-49) at the
# first precision, below the design's 1e-40, and smaller at every precision after it. Sides
# as large as e**6000 (sin(omega*pos) at complex omega) need the top of the range.
START_BITS = PRECISIONS_START
MAX_BITS = PRECISION_CAP


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

    passed: True if every evaluated point was certified to agree, False if a point was
    certified to differ (counterexample), None if too few points could be decided.
    points: how many were compared. max_relative: the largest certified bound on
    |lhs - rhs| / max(|lhs|, |rhs|, 1) (a float, for reports). tolerance: the absolute bound
    every agreeing point certified, |lhs - rhs| <= tolerance. max_difference: the largest
    certified bound on |lhs - rhs| over the points (at most tolerance).
    """

    passed: bool | None
    points: int
    max_relative: float
    counterexample: Counterexample | None = None
    detail: str = field(default="")
    tolerance: float = 2.0 ** -agreement_exponent(START_BITS)
    max_difference: float = 0.0

    def summary(self) -> str:
        """A short human-readable line."""
        if self.passed is None:
            return f"numeric ? ({self.detail})"
        if not self.passed:
            return "numeric ✗ counterexample found (certified by ball arithmetic)"
        return (
            f"numeric ✓ {self.points} points certified by ball arithmetic, "
            f"|lhs - rhs| ≤ {self.max_difference:.1e}"
        )


def _midpoint(ball: str) -> str:
    """A ball's text "[m +/- r]" (or "[a +/- r] + [b +/- s]*I") with each ball shown as m."""
    mid = re.sub(r"\[([^\s\]]+) \+/- [^\]]+\]", r"\1", ball)
    return re.sub(r"\[\+/-[^\]]+\]", "0", mid)


def _decimal(ball: str, digits: int = 20) -> str:
    """A ball's midpoint as a short decimal (a complex one as mpmath prints it)."""
    mid = _midpoint(ball)
    re_part, plus, im_part = mid.partition(" + ")
    with mpmath.workdps(digits + 10):
        if plus and im_part.endswith("*I"):
            value = mpmath.mpc(mpmath.mpf(re_part), mpmath.mpf(im_part[:-2]))
        else:
            value = mpmath.mpf(mid)
        return mpmath.nstr(value, digits)


def _inputs(pairs: list[tuple[sp.Expr, sp.Expr]]) -> dict[sp.Symbol, sp.Basic]:
    """Each input of the claim keyed by the symbol its values are sampled for: a free symbol by
    itself, an entry A[i, j] of a MatrixSymbol by a complex symbol named "A[i, j]"."""
    found = {}
    for a, b in pairs:
        for side in (a, b):
            for s in side.free_symbols:
                if isinstance(s, sp.Symbol):
                    found[s] = s
            for e in side.atoms(MatrixElement):
                if e.i.is_Integer and e.j.is_Integer:
                    found[sp.Symbol(f"{e.parent.name}[{e.i},{e.j}]")] = e
    return dict(sorted(found.items(), key=lambda item: symbol_order(item[0])))


def check_numeric(
    lhs: sp.Basic,
    rhs: sp.Basic,
    *,
    seed: int = 0,
    points: int = MIN_POINTS,
    start_bits: int = START_BITS,
) -> NumericResult:
    """Compare lhs and rhs (scalars or same-shape matrices) at seeded points, certified.

    lhs and rhs are evaluated as given: never simplified, rebuilt or re-evaluated by SymPy.
    seed: the random stream; points: how many points must be decided; start_bits: the first
    precision (agreement at p bits certifies |lhs - rhs| <= 2**-(p/2 + 32), so a larger start
    asks for closer agreement, at most MAX_BITS).
    """
    if not START_BITS <= start_bits <= MAX_BITS:
        raise ValueError(f"start_bits must be in [{START_BITS}, {MAX_BITS}], got {start_bits}")
    lhs, rhs = arguments.expression(lhs, "lhs"), arguments.expression(rhs, "rhs")
    left = list(lhs) if isinstance(lhs, sp.MatrixBase) else [lhs]
    right = list(rhs) if isinstance(rhs, sp.MatrixBase) else [rhs]
    if len(left) != len(right):
        raise ValueError(f"lhs and rhs must have the same shape, got {len(left)} and {len(right)}")
    start_bits = max(start_bits, _holding(left + right))
    tolerance = 2.0 ** -agreement_exponent(start_bits)
    inputs = _inputs(list(zip(left, right, strict=True)))
    symbols = list(inputs)
    # A claim between constants has one point: evaluating it again would show nothing new.
    points = points if symbols else 1
    compared = 0
    uncertain = ""
    worst = worst_relative = 0.0
    attempts = 0
    for point in sample_points(symbols, seed=seed):
        if compared >= points or attempts >= MAX_ATTEMPTS:
            break
        attempts += 1
        with budget.stage("numeric check (ball arithmetic)"):
            decision = certify_difference(
                lhs,
                rhs,
                {inputs[s]: value for s, value in point.items()},
                start_bits=start_bits,
                budget_bits=MAX_BITS,
                deadline=budget.deadline(),
            )
        if decision.status == "differs":
            cx = _counterexample(decision, point, symbols)
            return NumericResult(False, compared, decision.relative, cx, tolerance=tolerance)
        if decision.status == "agrees":
            compared += 1
            worst = max(worst, decision.absolute)
            worst_relative = max(worst_relative, decision.relative)
            continue
        if decision.cause == "undefined":
            continue  # outside the expression's domain: not evidence either way
        if decision.cause == "untranslatable" or not symbols:
            detail = f"cannot be evaluated numerically with certified bounds ({decision.reason})"
            return NumericResult(None, compared, worst_relative, detail=detail, tolerance=tolerance)
        compared += 1
        uncertain = uncertain or decision.reason
    if uncertain:
        detail = f"a point could not be certified to agree or differ: {uncertain}"
        return NumericResult(None, compared, worst_relative, detail=detail, tolerance=tolerance)
    if compared < points:
        detail = f"only {compared} of {points} points could be evaluated"
        return NumericResult(None, compared, worst_relative, detail=detail, tolerance=tolerance)
    for point in large_points(symbols, PROBES, seed=seed):
        # Only a certified difference counts here: a point far out that cannot be decided
        # within two precisions is no evidence either way.
        with budget.stage("numeric check (far-out points)"):
            decision = certify_difference(
                lhs,
                rhs,
                {inputs[s]: value for s, value in point.items()},
                start_bits=start_bits,
                budget_bits=min(2 * start_bits, MAX_BITS),
                deadline=budget.deadline(),
            )
        if decision.status == "differs":
            cx = _counterexample(decision, point, symbols)
            return NumericResult(False, compared, decision.relative, cx, tolerance=tolerance)
    return NumericResult(True, compared, worst_relative, tolerance=tolerance, max_difference=worst)


def _counterexample(
    decision: Decision, point: dict[sp.Symbol, sp.Expr], symbols: list[sp.Symbol]
) -> Counterexample:
    return Counterexample(
        point={_label(s, symbols): _show_exact(point[s]) for s in symbols},
        lhs=_decimal(decision.lhs),
        rhs=_decimal(decision.rhs),
        difference=_decimal(decision.difference, 6),
        entry=decision.entry,
    )


def _holding(exprs: list[sp.Basic]) -> int:
    """The first precision that holds every number of exprs twice over (twice its bits, plus 64).

    A number of the claim is rounded to the working precision; a difference that comes from it
    (x*exp(loggamma(1 + 10**-400)) - x is about 6e-401*x) could hide below that rounding, and
    one that comes from its square (cos(acosh(1 + 10**-400)) is 1 - 1e-400) below its square.
    """
    largest = 0
    for e in exprs:
        for number in e.atoms(sp.Rational, sp.Float):
            if number.is_Rational:
                size = max(abs(int(number.p)).bit_length(), int(number.q).bit_length())
            else:
                size = int(number._mpf_[1]).bit_length()
            largest = max(largest, size)
    bits = START_BITS
    while bits < 2 * largest + 64 and bits < MAX_BITS:
        bits *= 2
    return bits


def bits_resolving(c: sp.Expr) -> int | None:
    """The first start precision for check_numeric at which agreement would certify
    |lhs - rhs| < |c|, for a nonzero constant c; None when no precision up to MAX_BITS does."""
    try:
        size = abs(to_arb(c, {}, MAX_BITS // 4))
    except (CertifiedError, ValueError, TypeError, RecursionError):
        return None
    bits = START_BITS
    while bits <= MAX_BITS:
        if agreement_bound(bits) < size:
            return bits
        bits *= 2
    return None


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
    real, imag = (sp.Rational(part) for part in value.as_real_imag())
    with mpmath.workdps(30):
        shown = mpmath.mpf(real.p) / real.q
        if imag:
            shown = mpmath.mpc(shown, mpmath.mpf(imag.p) / imag.q)
        return mpmath.nstr(shown, 20)
