"""How a cache's arithmetic was done, graded from its error and how that grows with the angle.

The sinusoidal audit's precision model and words (numeric.table_audit.accuracy): a cache rounded
once from exact values is within half an ulp of its format; code that computes the angle p·θ in
a format F rounds it (and θ), which moves an entry by up to a few units of F times the angle, at
most cap_F(φ) at φ = |p|·θ_max (numeric.table_audit.accuracy.cap, with m for the amplitude and
two roundings of the stored format: cos or sin, then the product with m). The grade is the
narrowest F whose cap covers every row's error against the as-built exact cache
(numeric.rope_audit.measure): rounded once, computed in float64, float32 or 16 bits, or not a
RoPE cache at any format's accuracy. The measured envelope a + b·φ says how the error grows:
per 1000 positions, and where it would reach 1e-3.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from numeric.table_audit import accuracy as tables
from numeric.table_audit.precision import EPS, rounding_bound

HARMLESS = tables.HARMLESS
_SMALL_ANGLE = 8.0
GRADES = (*tables.GRADES[:4], "not a RoPE cache")
SOUND_GRADES = GRADES[:3]


def cap(fmt: str, rounding: float, amplitude: float, angle: np.ndarray) -> np.ndarray:
    """The largest error a computation in fmt makes at these angles: the sinusoidal audit's
    cap with two roundings of the stored format (module docstring)."""
    return tables.cap(fmt, 2 * rounding, amplitude, angle)


@dataclass(frozen=True)
class Accuracy:
    """grade: one of GRADES; computed_in: the format of the arithmetic (None when rounded once
    or not RoPE); envelope_a, envelope_b: error <= a + b·φ on every row; theta_max: the fastest
    frequency; max_error and worst_position: the largest error against the as-built cache."""

    grade: str
    computed_in: str | None
    envelope_a: float
    envelope_b: float
    theta_max: float
    max_error: float
    worst_position: int

    @property
    def sound(self) -> bool:
        return self.grade in SOUND_GRADES

    def per_thousand(self) -> float:
        """How much the error bound grows every 1000 positions."""
        return self.envelope_b * self.theta_max * 1000

    def reaches(self, error: float) -> float | None:
        """The position where the envelope reaches error, or None if it never grows."""
        if self.envelope_b <= 0 or self.theta_max <= 0 or error <= self.envelope_a:
            return None
        return (error - self.envelope_a) / self.envelope_b / self.theta_max


def grade(
    errors: np.ndarray,
    positions: np.ndarray,
    theta_max: float,
    amplitude: float,
    precision: str,
    sixteen: str,
) -> Accuracy:
    """The grade and envelope of per-row errors at these positions.

    precision: the format the values carry; sixteen: the 16-bit format a 16-bit computation
    would have used ("float16" or "bfloat16").
    """
    angles = np.abs(positions.astype(np.float64)) * theta_max
    rounding = rounding_bound(precision, max(amplitude, 1e-300))
    worst = int(np.argmax(errors))
    small = angles <= _SMALL_ANGLE
    a = max(rounding, float(errors[small].max()) if small.any() else rounding)
    beyond = angles > _SMALL_ANGLE
    b = float(np.max((errors[beyond] - a) / angles[beyond], initial=0.0)) if beyond.any() else 0.0
    if errors.max() <= rounding + 8 * EPS["float64"] * amplitude:
        name, computed = GRADES[0], None
    elif precision in ("float16", "bfloat16") and np.all(
        errors <= cap("float64", rounding, amplitude, angles)
    ):
        # Stored in 16 bits from wider arithmetic: the arithmetic's own error (float32 or
        # float64) is below the 16-bit rounding, so which it was cannot be told.
        name, computed = GRADES[0], None
    else:
        name, computed = GRADES[4], None
        for label, fmt in ((GRADES[1], "float64"), (GRADES[2], "float32"), (GRADES[3], sixteen)):
            if np.all(errors <= cap(fmt, rounding, amplitude, angles)):
                name, computed = label, fmt
                break
    return Accuracy(
        grade=name,
        computed_in=computed,
        envelope_a=a,
        envelope_b=max(b, 0.0),
        theta_max=theta_max,
        max_error=float(errors[worst]),
        worst_position=int(positions[worst]),
    )


def growth_words(accuracy: Accuracy, amplitude: float) -> str:
    """How the error grows, in words: per 1000 positions, and where it would reach 1e-3."""
    per = accuracy.per_thousand()
    harmless = HARMLESS * amplitude
    at = accuracy.reaches(harmless)
    if accuracy.max_error < harmless:
        where = f"; it would reach {harmless:.0e} near position {round_position(at)}" if at else ""
        return f"up to {per:.1g} more per 1000 positions: harmless at this length{where}"
    where = f" from about position {round_position(at)}" if at and at >= 1 else ""
    return f"up to {per:.1g} more per 1000 positions: above {harmless:.0e}{where}"


def round_position(position: float | None) -> str:
    """A position to two significant figures, as a whole number."""
    if position is None:
        return "?"
    if position < 100:
        return str(round(position))
    digits = 10 ** (math.floor(math.log10(position)) - 1)
    return str(int(round(position / digits) * digits))
