"""The grid on which each scaling method's stated properties are measured, and the row format.

The numeric twin of the rope_scaling theorem (numeric.checks.rope_scaling) asks every method of
the registry for its rows (ScalingMethod.property_rows); each row is measured here over
d ∈ {64, 128}, b ∈ {10⁴, 5·10⁵}, s ∈ {2, 4, 8, 16, 40}, L ∈ {2048, 4096, 8192}. A row "holds"
when the measured deviation from the claim is within its rounding bound (U = 2⁻⁵³ in float64,
U32 = 2⁻²⁴ in float32), and is "refuted" when it exceeds a million times that bound.

>>> cases(), row("linear", "θ′ = θ/s", "all", 0.0, U)[-1]
(60, 'holds')
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

U = 2.0**-53
U32 = 2.0**-24
DIMS = (64, 128)
BASES = (10000.0, 500000.0)
FACTORS = (2.0, 4.0, 8.0, 16.0, 40.0)
LENGTHS = (2048, 4096, 8192)


@dataclass(frozen=True)
class Sampling:
    """How far the rows that apply RoPE look: max_position, and (m, n) position pairs below it."""

    max_position: int
    m: np.ndarray
    n: np.ndarray


def grid() -> Iterator[tuple[int, float, float, int]]:
    """Every (d, b, s, L) of the grid."""
    return itertools.product(DIMS, BASES, FACTORS, LENGTHS)


def cases() -> int:
    """How many settings the grid holds."""
    return len(DIMS) * len(BASES) * len(FACTORS) * len(LENGTHS)


def row(method: str, claim: str, where: str, measured: float, bound: float, expected="holds"):
    """[method, claim, cases, measured, bound, expected ("holds" or "refuted")]."""
    return [method, claim, where, float(measured), float(bound), expected]


def falling(values: np.ndarray) -> float:
    """max_i (v_{i+1}/v_i − 1): negative when v falls strictly with i."""
    return float(np.max(values[1:] / values[:-1] - 1))
