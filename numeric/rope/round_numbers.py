"""Round numbers: the bases and factors people write in configs, and agreement within bounds.

A fitted base is named only when a round number agrees with the fit within the fit's own
bound; the candidates are listed roundest first, so 10000 is preferred to 10200 when both
agree.
"""

from __future__ import annotations

import math

import numpy as np

from numeric.rope.floats import round_to

# Model frequencies are computed here in float64; an implementation computing them in float32
# is within a few ulps (numeric.rope.scaling): this much room is left for it.
MODEL_ULPS = 8 * 2.0**-24
_MANTISSAS_1 = (1.0, 2.0, 5.0)
_MANTISSAS_2 = (1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 7.5, 8.0)


def round_candidates(value: float) -> list[float]:
    """Round numbers near value, roundest first: 1, 2 or 5 times a power of ten; then other
    common mantissas; then value to two and three significant digits."""
    if not value > 0 or not math.isfinite(value):
        return []
    exponent = math.floor(math.log10(value))
    found: list[float] = []
    for mantissas in (_MANTISSAS_1, _MANTISSAS_2):
        near = sorted(
            (m * 10.0**e for e in (exponent - 1, exponent, exponent + 1) for m in mantissas),
            key=lambda c: abs(math.log(c / value)),
        )
        found += near[:2]
    for digits in (2, 3):
        scale = 10.0 ** (exponent - digits + 1)
        found.append(round(value / scale) * scale)
    unique: list[float] = []
    for c in found:
        if c > 0 and all(not math.isclose(c, u, rel_tol=1e-12) for u in unique):
            unique.append(float(c))
    return unique


def nice_factor(value: float, tolerance: float) -> float | None:
    """value as a multiple of 1/4 or a two-significant-digit number, when within tolerance
    (relative); else None."""
    if not value > 0 or not math.isfinite(value):
        return None
    options = [round(value * 4) / 4]
    exponent = math.floor(math.log10(value))
    options.append(round(value / 10.0 ** (exponent - 1)) * 10.0 ** (exponent - 1))
    for option in options:
        if option > 0 and abs(option - value) <= tolerance * value:
            return float(option)
    return None


def misfit(theta: np.ndarray, bound: np.ndarray, model: np.ndarray) -> float:
    """max over pairs of |θ − model| / (bound + the model's float32 room): ≤ 1 means agreement."""
    room = bound + MODEL_ULPS * np.abs(model) + 1e-300
    return float(np.max(np.abs(theta - model) / room))


def rounded_misfit(theta: np.ndarray, bound: np.ndarray, model: np.ndarray, fmt: str) -> float:
    """misfit against the model's frequencies rounded to fmt after float32, as code that keeps
    inv_freq in a 16-bit buffer holds them (transformers #29496)."""
    held = round_to(np.asarray(model, dtype=np.float32), fmt).astype(np.float64)
    room = bound + 2.0**-24 * np.abs(held) + 1e-300
    return float(np.max(np.abs(theta - held) / room))
