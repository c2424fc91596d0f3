"""How accurate a table or a RoPE cache is, graded in words from the error of each entry.

A table rounded once from exact values is off by at most half an ulp of its format (two
roundings for a RoPE cache: cos or sin, then the product with m). An implementation that
computes pos·ω in a binary format F rounds that angle, and ω itself, which moves an entry of a
pair by up to a few units of F times that pair's angle θ = |pos|·ω. ω's own rounding grows with
how far it is from 1: ω = b^(-2i/d) computed as exp(x) with x = -(2i/d)·ln b carries the
rounding of x, u·|x| = u·|ln ω| in absolute terms, about three times over (ln b, the division,
the product), so its relative error is u·(3·|ln ω| + a few). The error a computation in F can
make on a pair of frequency ω at angle θ is therefore bounded by

    cap_F(θ, ω) = rounding + A·u_F·((KAPPA + LOG_KAPPA·|ln ω|)·θ + 4),

u_F the unit roundoff of F and A the amplitude, with KAPPA covering the angle's own rounding
and the rest of ω's with room to spare. Each entry is held to the cap of its own pair at its own
position: a slow pair is never let off by the larger angle of the fastest one.

The grade is the narrowest F whose caps cover every entry: rounded once, computed in float64,
float32 or 16 bits, or none (not the encoding at the accuracy any format gives). Each row gives
one number, the least unit roundoff u whose caps cover all its entries (needed_roundoff), so a
grade needs one number per row whatever the width.

The measured envelope a + b·θ_max (θ_max the fastest pair's angle) bounds every row's largest
error: a description of how the error grows, in words (growth_words).

>>> import numpy as np
>>> needed = needed_roundoff(np.array([[3e-8, 2e-6]]), np.array([[2000.0, 0.6]]),
...                          np.array([0.0, -8.06]), 3e-8, 1.0)
>>> float(needed[0]) > EPS["float32"] / 2   # the slow pair's 2e-6 is too much for float32
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from numeric.audit.precision import EPS

KAPPA = 8.0
LOG_KAPPA = 3.0
_SMALL_ANGLE = 8.0  # rows below this angle set the envelope's constant part
# An error below this (per unit amplitude) is harmless for a model, far below training noise.
HARMLESS = 1e-3
COMPUTED = (
    "rounded once",
    "computed in float64",
    "computed in float32",
    "computed in 16 bits",
)
SOUND = COMPUTED[:3]
SIXTEEN_BITS = ("float16", "bfloat16")


def _growth(angle: np.ndarray, log_omega: np.ndarray | float) -> np.ndarray:
    return (KAPPA + LOG_KAPPA * np.abs(log_omega)) * angle + 4


def cap(
    format_name: str,
    rounding: float,
    amplitude: float,
    angle: np.ndarray,
    log_omega: np.ndarray | float = 0.0,
) -> np.ndarray:
    """The largest error a computation in format_name makes on a pair at these angles;
    log_omega: ln ω of the pair (0 for the fastest pair, ω = 1; module doc)."""
    return rounding + amplitude * EPS[format_name] / 2 * _growth(angle, log_omega)


def needed_roundoff(
    errors: np.ndarray,
    angles: np.ndarray,
    log_omega: np.ndarray,
    rounding: float,
    amplitude: float,
) -> np.ndarray:
    """Per row, the least unit roundoff u with every entry's error within its pair's cap:
    max over the row's pairs of (error − rounding)/(A·growth); ≤ 0 when rounding explains all.

    errors, angles: (rows, pairs), each pair's error and angle |pos|·ω; log_omega: (pairs,).
    """
    scale = max(amplitude, 1e-300) * _growth(angles, log_omega)
    return np.max((errors - rounding) / scale, axis=1, initial=-np.inf)


def sixteen_bit_format(precision: str) -> str:
    """The 16-bit format a computation most likely used: the one the values are stored in."""
    return "bfloat16" if precision == "bfloat16" else "float16"


@dataclass(frozen=True)
class Accuracy:
    """grade: one of COMPUTED, or the audit's word for none; computed_in: the format of the
    computation (float64 when rounded once from it to float32; None when rounded once and
    the arithmetic cannot be told, or none); envelope_a, envelope_b: every row's largest
    error ≤ a + b·θ at θ = |pos|·omega_max, the fastest pair's angle; max_error and the
    position where it is."""

    grade: str
    computed_in: str | None
    envelope_a: float
    envelope_b: float
    omega_max: float
    max_error: float
    worst_position: float

    @property
    def sound(self) -> bool:
        """Rounded once, or computed in float64 or float32."""
        return self.grade in SOUND

    def envelope(self, angle: np.ndarray) -> np.ndarray:
        return self.envelope_a + self.envelope_b * angle

    def per_thousand(self) -> float:
        """How much the envelope grows every 1000 positions."""
        return self.envelope_b * self.omega_max * 1000

    def reaches(self, error: float) -> float | None:
        """The position at which the envelope reaches error (None if it never grows)."""
        if self.envelope_b <= 0 or self.omega_max <= 0 or error <= self.envelope_a:
            return None
        return (error - self.envelope_a) / self.envelope_b / self.omega_max


def grade(
    errors: np.ndarray,
    needed: np.ndarray,
    positions: np.ndarray,
    omega_max: float,
    rounding: float,
    precision: str,
    sixteen: str,
    unfit: str,
    slack: float = 0.0,
) -> Accuracy:
    """The grade and envelope of a table's rows (NaN rows ignored).

    errors: per row, the largest error; needed: per row, needed_roundoff of its entries;
    positions: the rows' positions; omega_max: the fastest frequency; rounding: what rounding
    to the stored format allows; precision: the format the values carry; sixteen: the 16-bit
    format a 16-bit computation would use; unfit: the grade's word when no format explains the
    errors; slack: the exact reference's own error, within which an entry counts as rounded.
    """
    keep = ~np.isnan(errors)
    e, need, pos = errors[keep], needed[keep], positions[keep]
    theta = np.abs(pos) * omega_max
    worst = int(np.argmax(e))
    small = theta <= _SMALL_ANGLE
    a = max(rounding, float(e[small].max()) if small.any() else rounding)
    beyond = ~small & (theta > 0)
    b = float(np.max((e[beyond] - a) / theta[beyond], initial=0.0)) if beyond.any() else 0.0
    most = float(need.max())
    if e.max() <= rounding + slack:
        name, computed = COMPUTED[0], None
    elif precision != "float64" and most <= EPS["float64"] / 2:
        # A float64 computation rounded once to a coarser format: its own error is far below
        # that rounding, whatever the printed bound says. Below a 16-bit rounding a float32
        # computation's error hides as well: which it was cannot be told.
        name, computed = COMPUTED[0], None if precision in SIXTEEN_BITS else "float64"
    else:
        name, computed = unfit, None
        for label, format_name in (
            (COMPUTED[1], "float64"),
            (COMPUTED[2], "float32"),
            (COMPUTED[3], sixteen),
        ):
            if most <= EPS[format_name] / 2:
                name, computed = label, format_name
                break
    return Accuracy(
        grade=name,
        computed_in=computed,
        envelope_a=a,
        envelope_b=max(b, 0.0),
        omega_max=omega_max,
        max_error=float(e[worst]),
        worst_position=float(pos[worst]),
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
    """A position to two significant figures, as a whole number ('?' when unknown).

    >>> round_position(123456.0), round_position(42.4)
    ('120000', '42')
    """
    if position is None:
        return "?"
    if position < 100:
        return str(round(position))
    digits = 10 ** (math.floor(math.log10(position)) - 1)
    return str(int(round(position / digits) * digits))


def position_words(position: float) -> str:
    """A position as written: a whole number without a decimal point.

    >>> position_words(1999.0), position_words(2.5)
    ('1999', '2.5')
    """
    return str(int(position)) if float(position).is_integer() else f"{position:g}"
