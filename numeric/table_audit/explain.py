"""Which position each row holds: the named run pos = c + s·r, or, for a row that run does not
explain, the position its own angles say, when the table matches there.

A row whose error at c + s·r is beyond what a float32 computation could make (the float32 cap of
numeric.audit.grading) is read on its own: its position from its angles, rounded to the
positions the run uses, and its error measured there. If that error is within the cap, the row
holds that position (a restart of packed sequences, a padding row given a fixed position); if
not, it is not a row of this encoding at any position (or the table was computed in 16 bits,
which numeric.audit.grading grades).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.audit.grading import cap
from numeric.audit.rows import Rows
from numeric.table_audit.measure import Convention, errors_at
from numeric.table_audit.positions import Run, positions_held, runs

_READ_ROWS = 4096
_STANDS_OUT = 16.0  # a row's error this many times the median row's stands out


@dataclass(frozen=True)
class RowPositions:
    """positions and errors per row (NaN: zero rows); explained: rows that hold a position off
    the run; unexplained: rows beyond the float32 cap at every position tried; runs: how the
    positions run down the non-zero rows."""

    positions: np.ndarray
    errors: np.ndarray
    explained: np.ndarray
    unexplained: np.ndarray
    runs: list[Run]


def run_positions(valid: np.ndarray, offset: float, step: float) -> np.ndarray:
    """offset + step·r on non-zero rows, NaN on zero rows."""
    positions = offset + step * np.arange(len(valid), dtype=np.float64)
    positions[~valid] = np.nan
    return positions


def _snap(read: np.ndarray, offset: float, step: float) -> np.ndarray:
    """Read positions on the run's lattice offset + step·m."""
    return offset + step * np.round((read - offset) / step)


def explain_rows(
    table: Rows,
    valid: np.ndarray,
    conv: Convention,
    offset: float,
    step: float,
    errors: np.ndarray,
    rounding: float,
    amplitude: float,
    shown: str = "float32",
) -> RowPositions:
    """The positions the rows hold (module doc); errors: each row's error at offset + step·r;
    shown: the computation the table's first rows show (a row is explained within its cap,
    and never within less than float32's)."""
    allowed = shown if shown in ("float16", "bfloat16") else "float32"
    positions = run_positions(valid, offset, step)
    frequencies = np.abs(conv.frequencies())
    omega_max = float(frequencies.max())
    # Fitted frequencies give the angles only modulo 2π, so a cap at the rows' own angles may
    # be below what the computation made: a row is read on its own when its error also stands
    # out from the other rows'.
    floor = 0.0
    if not conv.exact and valid.any():
        floor = _STANDS_OUT * float(np.nanmedian(errors[valid]))
    limit = np.maximum(cap(allowed, rounding, amplitude, np.abs(positions) * omega_max), floor)
    bad = np.flatnonzero(valid & (errors > limit))
    errors = errors.copy()
    explained = []
    chunk = table.rows_within(_READ_ROWS)
    for a in range(0, len(bad), chunk):
        rows = bad[a : a + chunk]
        values = table[rows]
        held = _snap(positions_held(values, conv, near=positions[rows]), offset, step)
        there = errors_at(values, held, conv)
        within = np.maximum(cap(allowed, rounding, amplitude, np.abs(held) * omega_max), floor)
        fits = (there <= within) & (there < errors[rows])
        positions[rows[fits]] = held[fits]
        errors[rows[fits]] = there[fits]
        explained.append(rows[fits])
    explained = np.concatenate(explained) if explained else np.zeros(0, dtype=np.int64)
    unexplained = np.setdiff1d(bad, explained)
    rows = np.flatnonzero(valid)
    if len(explained):
        found = runs(rows, positions[rows], step, 1e-6 * max(1.0, abs(step)))
    else:
        found = [Run(int(rows[0]), int(rows[-1]), float(positions[rows[0]]), step)]
    return RowPositions(positions, errors, explained, unexplained, found)
