"""Which column of each pair is the sine, and whether the rows run forwards or backwards.

A pair (x_a, x_b) turns one way as the row grows. Read with x_a as the sine, its angle is
ω·pos(r) with positions rising; read with x_b as the sine, ω·pos(r) with positions falling (a
relative-position table whose row r holds position c - r). Only one reading makes every pair's
angle at row 0 the same position: the other adds π/2 to every angle, which no single position
gives to pairs of different frequencies. So both readings are tried and the one whose angles at
row 0 agree on a position is kept.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.table_audit.fit import PairFit, wrap
from numeric.table_audit.positions import ladder, read_positions_from_angles

# Pairs that turn faster than this a row may be aliased; their phases are not compared.
_MAX_READ_SLOPE = 1.0


@dataclass(frozen=True)
class Oriented:
    """Per pair, with the sine told from the cosine: columns, the signed frequency a row
    (negative: rows run backwards), the angle of (sin, cos) at row 0, their standard errors,
    the amplitude, and the layout the columns follow."""

    sin_cols: np.ndarray
    cos_cols: np.ndarray
    slope: np.ndarray
    slope_sigma: np.ndarray
    phase: np.ndarray
    phase_sigma: np.ndarray
    amplitude: np.ndarray
    layout: str | None
    descending: bool


def layout_of(sin_cols: np.ndarray, cos_cols: np.ndarray, width: int) -> str | None:
    """The layout the (sine, cosine) columns follow, if every pair follows the same one."""
    half = width // 2
    if np.all(sin_cols % 2 == 0) and np.all(cos_cols == sin_cols + 1):
        return "interleaved"
    if np.all(cos_cols % 2 == 0) and np.all(sin_cols == cos_cols + 1):
        return "interleaved_cos_first"
    if np.all(sin_cols < half) and np.all(cos_cols == sin_cols + half):
        return "concatenated"
    if np.all(cos_cols < half) and np.all(sin_cols == cos_cols + half):
        return "concatenated_cos_first"
    return None


def _reading(pairs: PairFit, direction: float, sine_first: bool | None) -> tuple[np.ndarray, ...]:
    """Columns, signed slopes and phases with the sine chosen: the first column of every pair
    (sine_first), the second, or per pair so that every pair turns `direction` (None)."""
    if sine_first is None:
        swap = np.sign(pairs.slope) != direction
    else:
        swap = np.full(len(pairs.slope), not sine_first)
    sin_cols = np.where(swap, pairs.b_cols, pairs.a_cols)
    cos_cols = np.where(swap, pairs.a_cols, pairs.b_cols)
    # atan2(x_b, x_a) = π/2 - atan2(x_a, x_b).
    slope = np.where(swap, -pairs.slope, pairs.slope)
    phase = wrap(np.where(swap, np.pi / 2 - pairs.phase, pairs.phase))
    return sin_cols, cos_cols, slope, phase


def phase_misfit(phase: np.ndarray, frequency: np.ndarray) -> float:
    """How far the angles at row 0 are from one position: the median over pairs of
    |angle - ω·position| for the position read from them (numeric.table_audit.positions)."""
    steps = ladder(frequency)
    if len(steps) < 2:
        return float("nan")
    position = read_positions_from_angles(phase[None, steps], frequency[steps])[0]
    return float(np.median(np.abs(wrap(phase - frequency * position))))


def orient(pairs: PairFit, width: int, structured: bool = False) -> Oriented:
    """The reading (sine column of each pair, direction of the rows) of the module doc.

    structured: the pairs follow one column structure, so one column of every pair is the sine
    (the same one); a pair that then turns the other way is aliased (it turns by more than π a
    row), not swapped."""
    readable = (np.abs(pairs.slope) <= _MAX_READ_SLOPE) & (pairs.slope != 0)
    frequency = np.abs(pairs.slope)[readable]
    choices = []
    options = ((None, 1.0), (None, -1.0)) if not structured else ((True, 0.0), (False, 0.0))
    for sine_first, direction in options:
        if sine_first is not None:
            turns = np.where(sine_first, pairs.slope, -pairs.slope)[readable]
            direction = 1.0 if np.sum(np.sign(turns)) >= 0 else -1.0
        sin_cols, cos_cols, slope, phase = _reading(pairs, direction, sine_first)
        misfit = phase_misfit(phase[readable], frequency)
        layout = layout_of(sin_cols, cos_cols, width)
        # Ties (one readable pair) go to rising rows and a known layout.
        key = (np.nan_to_num(misfit, nan=0.0), layout is None, direction < 0)
        choices.append((key, direction, sin_cols, cos_cols, slope, phase, layout))
    _, direction, sin_cols, cos_cols, slope, phase, layout = min(choices, key=lambda c: c[0])
    return Oriented(
        sin_cols=sin_cols,
        cos_cols=cos_cols,
        slope=slope,
        slope_sigma=pairs.slope_sigma,
        phase=phase,
        phase_sigma=pairs.phase_sigma,
        amplitude=pairs.amplitude,
        layout=layout,
        descending=direction < 0,
    )
