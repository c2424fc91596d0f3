"""How accurate a table is, graded in words, from its measured error and how that grows.

A table rounded once from exact values is off by at most half an ulp of its format. An
implementation that computes pos·ω in a binary format F first rounds that angle (and ω itself),
which moves an entry by up to a few units of F times the angle: in float32, 1e-4 at position
2000 for the fastest pair, growing linearly. The error a computation in F can make at an angle
θ = |pos|·ω_max is therefore bounded by

    cap_F(θ) = rounding of the stored format + A·u_F·(KAPPA·θ + 4),

u_F the unit roundoff of F and A the amplitude, with KAPPA covering ω's own rounding (the
exponent i·log(base)/span and the power each round once more) with room to spare. The grade is
the narrowest F whose cap covers every row: rounded once, computed in float64, float32 or 16
bits, or none (not a sinusoidal table at the accuracy any format gives).

The measured envelope a + b·θ bounds every row's error (a: the largest error at small angles,
b: the largest growth beyond); the shift identity is checked against the smaller of it and the
float32 cap, so a table computed in 16 bits, whose errors pass the float32 cap, fails it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from numeric.table_audit.precision import EPS

KAPPA = 8.0
_SMALL_ANGLE = 8.0  # rows below this angle set the envelope's constant part
# A float32 error below this is harmless for a model (far below the noise of training).
HARMLESS = 1e-3
GRADES = (
    "rounded once",
    "computed in float64",
    "computed in float32",
    "computed in 16 bits",
    "not sinusoidal",
)


def cap(format_name: str, rounding: float, amplitude: float, angle: np.ndarray) -> np.ndarray:
    """The largest error a computation in format_name makes at these angles (module doc)."""
    u = EPS[format_name] / 2
    return rounding + amplitude * u * (KAPPA * angle + 4)


@dataclass(frozen=True)
class Accuracy:
    """grade: one of GRADES; computed_in: the format of the computation (None when rounded once
    or not sinusoidal); envelope_a, envelope_b: error ≤ a + b·θ on every row; angle_max: the
    largest θ = |pos|·ω_max; max_error and its position."""

    grade: str
    computed_in: str | None
    envelope_a: float
    envelope_b: float
    angle_max: float
    max_error: float
    worst_position: float

    def envelope(self, angle: np.ndarray) -> np.ndarray:
        return self.envelope_a + self.envelope_b * angle

    def reaches(self, error: float, omega_max: float) -> float | None:
        """The position at which the envelope reaches error (None if it never grows)."""
        if self.envelope_b <= 0 or omega_max <= 0 or error <= self.envelope_a:
            return None
        return (error - self.envelope_a) / self.envelope_b / omega_max


def sixteen_bit_format(precision: str) -> str:
    """The 16-bit format a computation most likely used: the one the values are stored in."""
    return "bfloat16" if precision == "bfloat16" else "float16"


def grade(
    errors: np.ndarray,
    angles: np.ndarray,
    positions: np.ndarray,
    rounding: float,
    amplitude: float,
    precision: str,
) -> Accuracy:
    """The grade and envelope of per-row errors (NaN rows ignored) at per-row angles."""
    keep = ~np.isnan(errors)
    e, theta, pos = errors[keep], angles[keep], positions[keep]
    worst = int(np.argmax(e))
    small = theta <= _SMALL_ANGLE
    a = max(rounding, float(e[small].max()) if small.any() else rounding)
    beyond = ~small & (theta > 0)
    b = float(np.max((e[beyond] - a) / theta[beyond], initial=0.0)) if beyond.any() else 0.0
    if e.max() <= rounding:
        name, computed = GRADES[0], None
    elif precision != "float64" and np.all(e <= cap("float64", rounding, amplitude, theta)):
        # A float64 computation rounded once to a coarser format: its own error is far below
        # that rounding, whatever the printed bound says.
        name, computed = GRADES[0], "float64"
    else:
        name, computed = GRADES[4], None
        for label, format_name in (
            (GRADES[1], "float64"),
            (GRADES[2], "float32"),
            (GRADES[3], sixteen_bit_format(precision)),
        ):
            if np.all(e <= cap(format_name, rounding, amplitude, theta)):
                name, computed = label, format_name
                break
    return Accuracy(
        grade=name,
        computed_in=computed,
        envelope_a=a,
        envelope_b=max(b, 0.0),
        angle_max=float(theta.max()),
        max_error=float(e[worst]),
        worst_position=float(pos[worst]),
    )


def shift_envelope(
    accuracy: Accuracy | None, rounding: float, amplitude: float, angle: np.ndarray
) -> np.ndarray:
    """The entry error the shift identity is checked against: the measured envelope, at most
    the float32 cap (module doc); the float32 cap alone when nothing was measured."""
    limit = cap("float32", rounding, amplitude, angle)
    if accuracy is None:
        return limit
    return np.minimum(accuracy.envelope(angle), limit)


def growth_words(accuracy: Accuracy, omega_max: float, amplitude: float) -> str:
    """How the error grows, in words: per 1000 positions, and where it would reach 1e-3."""
    per_thousand = accuracy.envelope_b * omega_max * 1000
    harmless = HARMLESS * amplitude
    at = accuracy.reaches(harmless, omega_max)
    if accuracy.max_error < harmless:
        where = f"; it would reach {harmless:.0e} near position {_round(at)}" if at else ""
        return f"up to {per_thousand:.1g} more per 1000 positions: harmless at this length{where}"
    where = f" from about position {_round(at)}" if at else ""
    return f"up to {per_thousand:.1g} more per 1000 positions: above {harmless:.0e}{where}"


def _round(position: float) -> str:
    """A position to two significant figures, as a whole number."""
    if position < 100:
        return str(round(position))
    digits = 10 ** (math.floor(math.log10(position)) - 1)
    return str(int(round(position / digits) * digits))
