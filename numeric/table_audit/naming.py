"""Name a table's convention by measuring it: each candidate from the fit, against the table.

The fit proposes readings (schedule, round base, position step); each is then measured on the
rows the pair fit kept, at the positions the rows hold under it (read from the rows' angles).
The fitted sinusoids measure how accurate the table is in itself, and so which computation its
values show (rounded once, float64, float32 or 16 bits: numeric.audit.grading). A reading
is named when it explains the table as well as that computation allows, so computation error
never costs a table its name, while a base that is merely close (10181.9 against 10000, or the
paper's schedule against tensor2tensor's, 2.4% apart) is told from the right one. Of the readings
that pass, the closest to the table wins; the other is reported when its frequencies are the same.
A named reading's pairs are then held to it one by one (pairs_off_formula): a pair whose own
fitted frequency is not the schedule's is a wrong base for that pair, not 16-bit arithmetic.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from numeric.audit.grading import KAPPA, LOG_KAPPA, SIXTEEN_BITS, cap, sixteen_bit_format
from numeric.audit.precision import EPS, to_format, unit_roundoff
from numeric.audit.rows import Rows
from numeric.table_audit import schedules
from numeric.table_audit.convention import Schedule
from numeric.table_audit.measure import Convention, errors_at
from numeric.table_audit.orientation import Oriented
from numeric.table_audit.positions import positions_held

_NAMING_MARGIN = 2.0  # a named reading may be off by twice what the computation allows
_SIGMAS = 5.0
_WHOLE = 0.05  # a position offset this close to a whole number is that number
_SAME_FREQUENCIES = 1e-9


@dataclass(frozen=True)
class Named:
    """The convention measured against (named, or the fitted sinusoids), the position of row 0
    and the step a row, the other named reading whose frequencies are the same (d = 8: the
    paper's 10000 is tensor2tensor's 1000), and the 16-bit format the table's frequencies are
    the named ones rounded to, when they are."""

    convention: Convention
    offset: float | None
    step: float
    alternative: str | None
    frequencies_rounded_to: str | None = None
    sample_format: str = "float32"


def fitted_convention(oriented: Oriented, scale: float, scale_name: str | None) -> Convention:
    """The table's own fitted sinusoids: frequencies a row, angles at row 0, amplitudes."""
    return Convention(
        sin_cols=oriented.sin_cols,
        cos_cols=oriented.cos_cols,
        scale=scale,
        scale_name=scale_name,
        omega=oriented.slope,
        phase=oriented.phase,
        amplitude=oriented.amplitude,
    )


def read_offset(
    values: np.ndarray, rows: np.ndarray, conv: Convention, step: float
) -> tuple[float, np.ndarray]:
    """(the position of row 0, the positions the given rows hold), read from their angles."""
    position = positions_held(values, conv, sequence=True)
    offset = float(np.median(position - step * rows))
    if abs(offset - round(offset)) <= _WHOLE:
        offset = float(round(offset))
    return offset, position


def _format_shown(
    errors: np.ndarray, angle: np.ndarray, rounding: float, amplitude: float, precision: str
) -> str | None:
    """The narrowest computation whose error cap covers the fitted sinusoids' errors."""
    if np.all(errors <= rounding):
        return "rounded"
    for name in ("float64", "float32", sixteen_bit_format(precision)):
        if np.all(errors <= cap(name, rounding, amplitude, angle)):
            return name
    return None


def _rounded_to(
    oriented: Oriented, conv: Convention, step: float, precision_u: float
) -> str | None:
    """The 16-bit format the table's own frequencies are the named ones rounded to, if any
    (an implementation that keeps ω_i in float16 or bfloat16, then computes pos·ω in float32)."""
    frequencies = conv.frequencies() * abs(step)
    fitted = np.abs(oriented.slope)
    readable = frequencies < np.pi
    if readable.sum() < 2:
        return None
    for name in ("float16", "bfloat16"):
        rounded = to_format(conv.frequencies(), name) * abs(step)
        allowed = _SIGMAS * oriented.slope_sigma + 8 * precision_u * rounded
        close = np.abs(fitted - rounded) <= allowed
        apart = np.abs(rounded - frequencies) > allowed
        if np.all(close[readable]) and np.any(apart[readable]):
            return name
    return None


def name_convention(
    table: Rows,
    rows: np.ndarray,
    oriented: Oriented,
    schedule: Schedule,
    scale: float,
    scale_name: str | None,
    rounding: float,
    precision: str,
) -> Named:
    """The named convention the table matches on the sample rows, or its fitted sinusoids."""
    fitted = fitted_convention(oriented, scale, scale_name)
    values = table[rows]
    fitted_errors = errors_at(values, rows.astype(np.float64), fitted)
    passing = []
    d = 2 * len(oriented.sin_cols)
    candidates = schedule.candidates or (((0.0, 10000.0),) if d == 2 else ())
    rounded_candidates = []
    for shift, base in candidates:
        conv = replace(
            fitted,
            schedule=schedules.name_of(shift),
            base=base,
            shift=shift,
            omega=None,
            phase=None,
            amplitude=None,
        )
        offset, _ = read_offset(values, rows, conv, schedule.step)
        positions = offset + schedule.step * rows
        angle = np.abs(positions) * float(conv.frequencies().max())
        shown = _format_shown(fitted_errors, angle, rounding, scale, precision)
        if shown is None:
            continue
        errors = errors_at(values, positions, conv)
        allowed = rounding if shown == "rounded" else cap(shown, rounding, scale, angle)
        rms = float(np.sqrt(np.mean(errors**2)))
        if np.all(errors <= _NAMING_MARGIN * allowed):
            passing.append(
                (
                    rms,
                    shift,
                    base,
                    conv,
                    offset,
                    _format_named(errors, angle, rounding, scale, precision),
                )
            )
        else:
            rounded = _rounded_to(oriented, conv, schedule.step, unit_roundoff(precision))
            if rounded is not None:
                rounded_candidates.append((rms, shift, base, conv, offset, rounded))
    if not passing and rounded_candidates:
        rounded_candidates.sort(key=lambda p: p[0])
        _, shift, base, conv, offset, rounded = rounded_candidates[0]
        return Named(conv, offset, schedule.step, None, rounded, rounded)
    if not passing:
        shown = _format_shown(
            fitted_errors,
            np.abs(rows) * float(np.abs(oriented.slope).max()),
            rounding,
            scale,
            precision,
        )
        return Named(fitted, None, 1.0, None, None, shown or "float32")
    passing.sort(key=lambda p: p[0])
    best = passing[0]
    same = [p for p in passing if _same_frequencies(d, (best[1], best[2]), (p[1], p[2]))]
    # Readings of the very same frequencies: the paper's or tensor2tensor's first, base 10000.
    same.sort(key=lambda p: (p[1] not in schedules.SHIFTS.values(), p[2] != 10000.0, abs(p[1])))
    _, shift, base, conv, offset, shown = same[0]
    alternative = None
    for _, other, other_base, *_ in same[1:]:
        if other in schedules.SHIFTS.values():
            alternative = f"{schedules.describe(other)} schedule with base {other_base:g}"
            break
    return Named(conv, offset, schedule.step, alternative, None, shown)


def _format_named(errors, angle, rounding, scale, precision) -> str:
    """The computation the named reading's errors on the sample show (rounded once at best)."""
    return _format_shown(errors, angle, rounding, scale, precision) or sixteen_bit_format(precision)


def _same_frequencies(d: int, a: tuple[float, float], b: tuple[float, float]) -> bool:
    wa = schedules.pieces(d, a[1], a[0]).approx
    wb = schedules.pieces(d, b[1], b[0]).approx
    return bool(np.all(np.abs(np.log(wa / wb)) <= _SAME_FREQUENCIES))


def pairs_off_formula(
    oriented: Oriented, conv: Convention, step: float, precision: str
) -> tuple[dict, ...]:
    """The pairs whose fitted frequency a row is not the named one: each {"pair", "fitted",
    "named"} (radians a position). A pair is off when the two differ by more than five
    standard errors of the fit plus what computing ω in the values' format can move it (the
    grading's KAPPA terms, twice over); pairs turning π or more a row are read aliased and
    left out."""
    named = np.abs(conv.frequencies()) * abs(step)
    fitted = np.abs(oriented.slope)
    u = EPS[sixteen_bit_format(precision) if precision in SIXTEEN_BITS else "float32"]
    with np.errstate(divide="ignore"):
        log_omega = np.abs(np.log(np.maximum(named, np.finfo(np.float64).tiny)))
    allowed = _SIGMAS * oriented.slope_sigma + 2 * u * (KAPPA + LOG_KAPPA * log_omega) * named
    off = (named < np.pi) & (np.abs(fitted - named) > allowed)
    return tuple(
        {
            "pair": int(i),
            "fitted": float(fitted[i] / abs(step)),
            "named": float(named[i] / abs(step)),
        }
        for i in np.flatnonzero(off)
    )


def is_whole(value: float | None) -> bool:
    return value is not None and math.isfinite(value) and value == round(value)
