"""Read the convention from the pairs' fitted frequencies: schedule, base, position step, scale.

Every named schedule starts at ω_0 = 1 and is geometric in the pair index i: the paper's
base^(-2i/d) and tensor2tensor's base^(-i/(d/2-1)). A table's pair frequencies a row are
w_i = s·ω_i for a position step s (1 for positions 0, 1, 2, ...; 0.25 for PixArt's row/4; -1
for rows that run backwards), folded into [0, π] when |s·ω_i| > π (aliased). So log|w_i| is
fitted as a line in i: its intercept gives |s|, its slope the base of each schedule. The fit's
uncertainty comes from the pairs' own scatter around the line (its Birge ratio) on top of their
standard errors, so frequencies an implementation computed in float32 or bfloat16, rounded pair
by pair, widen it as much as they should. This gives candidates only; a candidate is named after
the table is measured against it (numeric.table_audit.identify).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from numeric.audit.precision import rounding_bound, unit_roundoff
from numeric.table_audit.fit import wrap
from numeric.table_audit.schedules import OTHER_SHIFTS, SHIFTS

_SIGMAS = 5.0
# A fitted step within this of a whole number (or its inverse) is that number.
_MAX_INVERSE_STEP = 4096
_ALIAS_MARGIN = 0.95
_NICE_STEP = 1e-7


@dataclass(frozen=True)
class Schedule:
    """candidates: (shift, base) readings to measure (numeric.table_audit.schedules: shift 0 is
    the paper's schedule, 1 tensor2tensor's), the closest first; geometric: whether
    log|w_i| is a line in i (aliased pairs folded); fitted_base: the paper reading's base;
    step: the position step a row (signed; a whole number or its inverse when one fits);
    step_fitted: step as fitted; aliased: pair indices with |step·ω_i| > π."""

    candidates: tuple[tuple[float, float], ...]
    geometric: bool
    fitted_base: float | None
    step: float
    step_fitted: float
    aliased: tuple[int, ...]


def round_number(value: float) -> float:
    """The nearest of 1, 2 or 5 times a power of ten (10000, 500000, 20 ...): bases people pick."""
    exponent = math.floor(math.log10(value))
    candidates = [m * 10.0**e for e in (exponent, exponent + 1) for m in (1, 2, 5)]
    return min(candidates, key=lambda c: abs(math.log(value / c)))


def nice_step(value: float, tolerance: float) -> float:
    """value, or the whole number n or 1/n within tolerance (relative) of it."""
    for candidate in (round(value), 1 / max(round(1 / value), 1)):
        close = candidate > 0 and abs(math.log(value / candidate)) <= tolerance
        if close and (candidate >= 1 or round(1 / candidate) <= _MAX_INVERSE_STEP):
            return float(candidate)
    return value


def _line(i: np.ndarray, y: np.ndarray, s: np.ndarray) -> tuple[float, float, np.ndarray, float]:
    """Weighted least squares y = α + β·i: α, β, their covariance (inflated by the Birge ratio
    when the points scatter more than their errors say) and the Birge ratio."""
    w = 1 / s**2
    design = np.stack([np.ones_like(i), i], axis=1)
    normal = design.T @ (design * w[:, None])
    alpha, beta = np.linalg.solve(normal, design.T @ (w * y))
    covariance = np.linalg.inv(normal)
    residual = (y - alpha - beta * i) / s
    birge = math.sqrt(float(residual @ residual) / max(len(i) - 2, 1)) if len(i) > 2 else 1.0
    return float(alpha), float(beta), covariance * max(1.0, birge) ** 2, birge


def fit_schedule(
    slope: np.ndarray, slope_sigma: np.ndarray, precision: str, descending: bool
) -> Schedule:
    """Candidates for the schedule and the position step from the pairs' signed frequencies a
    row, in pair order (pair 0 the fastest of a named schedule); see the module doc."""
    sign = -1.0 if descending else 1.0
    pairs = len(slope)
    w = np.abs(slope)
    if pairs < 2 or np.any(w <= 0):
        step = sign * float(w[0]) if pairs else sign
        return Schedule((), False, None, nice_step(abs(step), 1e-9) * sign, step, ())
    i = np.arange(pairs, dtype=np.float64)
    y = np.log(w)
    u = max(unit_roundoff(precision), 2.0**-53)
    # An implementation rounds each ω_i itself, by a few units of its format, more for the
    # slow pairs whose exponent i·log(base)/span it also rounds.
    s = np.hypot(slope_sigma / w, 4 * u * (1 + np.abs(y)))
    # The slower half is never aliased unless the step is huge: fit it, then all pairs the
    # fit says are below π a row, and check that the rest fold to where it says they should.
    unaliased = i >= pairs // 2 if pairs >= 4 else np.ones(pairs, dtype=bool)
    for _ in range(2):
        if unaliased.sum() < 2:
            return Schedule((), False, None, sign, sign, ())
        alpha, beta, cov, birge = _line(i[unaliased], y[unaliased], s[unaliased])
        predicted = np.exp(alpha + beta * i)
        unaliased = predicted < _ALIAS_MARGIN * np.pi
    aliased = np.flatnonzero(~unaliased)
    spread = np.sqrt(cov[0, 0] + 2 * i * cov[0, 1] + i * i * cov[1, 1])
    folded = np.abs(wrap(predicted))
    alias_tolerance = _SIGMAS * (predicted * np.hypot(spread, s) + slope_sigma) + 1e-12
    geometric = birge <= 10 and bool(
        np.all(np.abs(w - folded)[aliased] <= alias_tolerance[aliased])
    )
    step_fitted = sign * math.exp(alpha)
    # A step this close to a whole number (or its inverse) is that number: the measurement
    # then says whether it is right.
    alpha_tolerance = max(_SIGMAS * math.sqrt(cov[0, 0]) + 8 * u, _NICE_STEP)
    step = sign * nice_step(math.exp(alpha), alpha_tolerance)
    d = 2 * pairs
    beta_sigma = math.sqrt(cov[1, 1])
    readings = []
    if beta < 0:
        for shift in (*SHIFTS.values(), *OTHER_SHIFTS):
            span = pairs - shift
            if span <= 0:
                continue
            base = math.exp(-beta * span)
            nearest = round_number(base)
            # The base's own uncertainty, and the rounding of the constant an implementation
            # computes from it (log(base)/span) in its format.
            tolerance = _SIGMAS * beta_sigma * span + 8 * u * abs(math.log(nearest)) + 1e-9
            miss = abs(math.log(base / nearest)) / tolerance
            if shift in SHIFTS.values() or miss <= 1:
                readings.append((miss, shift not in SHIFTS.values(), shift, nearest))
    readings.sort()
    return Schedule(
        candidates=tuple((shift, base) for _, _, shift, base in readings),
        geometric=geometric and beta < 0,
        fitted_base=math.exp(-beta * d / 2) if beta < 0 else None,
        step=step,
        step_fitted=step_fitted,
        aliased=tuple(int(a) for a in aliased),
    )


def named_scales(d: int) -> dict[str, float]:
    """The common amplitudes by name: 1, d^-1/2, sqrt(2/d)."""
    return {"1": 1.0, "d^-1/2": d**-0.5, "sqrt(2/d)": math.sqrt(2 / d)}


def fit_scale(amplitude: np.ndarray, precision: str) -> tuple[float, str | None, bool]:
    """(scale, its name or None, whether every pair has that amplitude within rounding)."""
    scale = float(np.median(amplitude))
    tolerance = 4 * rounding_bound(precision, scale) + 1e-12 * scale
    same = bool(np.all(np.abs(amplitude - scale) <= tolerance))
    for name, value in named_scales(2 * len(amplitude)).items():
        if abs(scale - value) <= tolerance:
            return value, name, same
    return scale, None, same
