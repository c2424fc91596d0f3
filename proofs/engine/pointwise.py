"""The numeric half of a link check: both sides at many seeded points, in certified ball arithmetic.

At each exact point (symbol -> Rational, or Rational + I*Rational) both sides are evaluated as
balls that provably contain their exact values (proofs.engine.certified), with the precision
raised until the ball of lhs - rhs either excludes 0, which certifies that the sides differ
there (a counterexample), or lies within TOLERANCE of 0, relative to max(|lhs|, |rhs|, 1):
agreement at that point. A point where neither happens within the precision or time budget
makes the check undecided, never passed; a point where a side has no value is skipped.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import mpmath
import sympy as sp

from proofs.engine import budget
from proofs.engine.certified import TOLERANCE, certify_difference
from proofs.engine.sampling import sample_points, symbol_order

MIN_POINTS = 24
MAX_ATTEMPTS = 200
# The first precision tried, in bits (about 77 digits), and the largest (about 2466 digits).
START_BITS = 256
MAX_BITS = 8192
# Agreement at a point means |lhs - rhs| <= TOLERANCE * max(|lhs|, |rhs|, 1), certified;
# 2**-160 is about 7e-49, below the design's 1e-40.
RELATIVE_TOLERANCE = TOLERANCE


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
    points: how many were compared. max_relative: the largest certified bound on the
    relative difference (a float, for reports). tolerance: the agreement tolerance used.
    """

    passed: bool | None
    points: int
    max_relative: float
    counterexample: Counterexample | None = None
    detail: str = field(default="")
    tolerance: float = RELATIVE_TOLERANCE

    def summary(self) -> str:
        """A short human-readable line."""
        if self.passed is None:
            return f"numeric ? ({self.detail})"
        if not self.passed:
            return "numeric ✗ counterexample found (certified by ball arithmetic)"
        return (
            f"numeric ✓ {self.points} points certified by ball arithmetic, "
            f"max rel. diff ≤ {self.max_relative:.1e}"
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


def _symbols(pairs: list[tuple[sp.Expr, sp.Expr]]) -> list[sp.Symbol]:
    found = set().union(*(a.free_symbols | b.free_symbols for a, b in pairs))
    return sorted(found, key=symbol_order)


def check_numeric(
    lhs: sp.Basic,
    rhs: sp.Basic,
    *,
    seed: int = 0,
    points: int = MIN_POINTS,
    tolerance: float = RELATIVE_TOLERANCE,
) -> NumericResult:
    """Compare lhs and rhs (scalars or same-shape matrices) at seeded points, certified.

    seed: the random stream; points: how many points must be decided; tolerance: the
    relative difference below which a point counts as agreeing (certified by a ball).
    """
    lhs, rhs = sp.sympify(lhs), sp.sympify(rhs)
    left = list(lhs) if isinstance(lhs, sp.MatrixBase) else [lhs]
    right = list(rhs) if isinstance(rhs, sp.MatrixBase) else [rhs]
    if len(left) != len(right):
        raise ValueError(f"lhs and rhs must have the same shape, got {len(left)} and {len(right)}")
    symbols = _symbols(list(zip(left, right, strict=True)))
    # A claim between constants has one point: evaluating it again would show nothing new.
    points = points if symbols else 1
    compared = 0
    uncertain = ""
    worst = 0.0
    attempts = 0
    for point in sample_points(symbols, seed=seed):
        if compared >= points or attempts >= MAX_ATTEMPTS:
            break
        attempts += 1
        with budget.stage("numeric check (ball arithmetic)"):
            decision = certify_difference(
                lhs,
                rhs,
                point,
                start_bits=START_BITS,
                budget_bits=MAX_BITS,
                tolerance=tolerance,
                deadline=budget.deadline(),
            )
        if decision.status == "differs":
            cx = Counterexample(
                point={_label(s, symbols): _show_exact(point[s]) for s in symbols},
                lhs=_decimal(decision.lhs),
                rhs=_decimal(decision.rhs),
                difference=_decimal(decision.difference, 6),
                entry=decision.entry,
            )
            return NumericResult(False, compared, decision.relative, cx, tolerance=tolerance)
        if decision.status == "agrees":
            compared += 1
            worst = max(worst, decision.relative)
            continue
        if decision.cause == "undefined":
            continue  # outside the expression's domain: not evidence either way
        if decision.cause == "untranslatable" or not symbols:
            detail = f"cannot be evaluated numerically with certified bounds ({decision.reason})"
            return NumericResult(None, compared, worst, detail=detail, tolerance=tolerance)
        compared += 1
        uncertain = uncertain or decision.reason
    if uncertain:
        detail = f"a point could not be certified to agree or differ: {uncertain}"
        return NumericResult(None, compared, worst, detail=detail, tolerance=tolerance)
    if compared < points:
        detail = f"only {compared} of {points} points could be evaluated"
        return NumericResult(None, compared, worst, detail=detail, tolerance=tolerance)
    return NumericResult(True, compared, worst, tolerance=tolerance)


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
