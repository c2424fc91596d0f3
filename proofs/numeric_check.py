"""The numeric half of a link check: both sides at many seeded points, in high precision.

Each point is evaluated twice, at LOW_DPS and HIGH_DPS significant digits. A true identity's
difference is rounding noise, which shrinks by about 10**-(HIGH_DPS-LOW_DPS) between the two;
a false one's difference is a real number and stays put. Only a difference that is stable
across both precisions counts as a counterexample, so cancellation near zero (sin(n*pi) for
integer n, say) never refutes a true claim, and a claim off by 10**-45 is still caught.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import mpmath
import sympy as sp

from proofs.sampling import sample_points

LOW_DPS = 60
HIGH_DPS = 120
MIN_POINTS = 24
MAX_ATTEMPTS = 200
# Spec tolerance of the design: agreement to 1e-40 relative. Reported beside every check.
RELATIVE_TOLERANCE = mpmath.mpf("1e-40")
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

    def summary(self) -> str:
        """A short human-readable line."""
        if self.passed is None:
            return f"numeric ? ({self.detail})"
        if not self.passed:
            return "numeric ✗ counterexample found"
        return f"numeric ✓ {self.points} points, max rel. diff {self.max_relative:.1e}"


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


def _evaluate(func, args: list[sp.Expr], dps: int):
    with mpmath.workdps(dps):
        values = [_to_mp(a) for a in args]
        result = func(*values)
        return mpmath.mpmathify(result)


def _short(x) -> str:
    return mpmath.nstr(x, 20)


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
        key=lambda s: s.name,
    )
    funcs = [
        (pos, sp.lambdify(symbols, a, modules="mpmath"), sp.lambdify(symbols, b, modules="mpmath"))
        for (pos, a), (_, b) in pairs
    ]
    compared = 0
    worst = mpmath.mpf(0)
    attempts = 0
    stream = sample_points(symbols, seed=seed)
    for point in stream:
        if compared >= points or attempts >= MAX_ATTEMPTS:
            break
        attempts += 1
        args = [point[s] for s in symbols]
        try:
            hi = [
                (pos, _evaluate(f, args, high_dps), _evaluate(g, args, high_dps))
                for pos, f, g in funcs
            ]
            lo = [(_evaluate(f, args, low_dps), _evaluate(g, args, low_dps)) for _, f, g in funcs]
        except (ZeroDivisionError, ValueError, TypeError, OverflowError, ArithmeticError):
            continue  # outside the expression's domain: not evidence either way
        if any(not mpmath.isfinite(v) for _, a, b in hi for v in (a, b)):
            continue
        compared += 1
        for (pos, a_hi, b_hi), (a_lo, b_lo) in zip(hi, lo, strict=True):
            with mpmath.workdps(high_dps):
                d_hi = abs(a_hi - b_hi)
                d_lo = abs(a_lo - b_lo)
                scale = max(abs(a_hi), abs(b_hi))
                rel = d_hi / scale if scale else d_hi
                stable = d_hi > 0 and abs(d_hi - d_lo) <= _STABLE * d_hi
                if stable:
                    cx = Counterexample(
                        point={s.name: _show_exact(point[s]) for s in symbols},
                        lhs=_short(a_hi),
                        rhs=_short(b_hi),
                        difference=mpmath.nstr(a_hi - b_hi, 6),
                        entry=pos,
                    )
                    return NumericResult(False, compared, float(rel), cx)
                if rel > worst and rel <= RELATIVE_TOLERANCE:
                    worst = rel
    if compared < points:
        return NumericResult(
            None,
            compared,
            float(worst),
            detail=f"only {compared} of {points} points could be evaluated",
        )
    return NumericResult(True, compared, float(worst))


def _show_exact(value: sp.Expr) -> str:
    # Integers print exactly; a sampled rational prints to 20 digits (its exact form is 60 long).
    if value.is_Integer:
        return str(value)
    with mpmath.workdps(HIGH_DPS):
        return _short(_to_mp(value))
