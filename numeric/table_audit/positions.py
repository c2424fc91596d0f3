"""Read the position each row holds from its angles, and describe how positions run down the rows.

A row of a sinusoidal table holds angles ω_i·pos for every pair i. The slowest pair gives pos
without ambiguity over its long period, but coarsely; each faster pair then refines it, as long
as the uncertainty so far is well below that pair's period (a ladder of frequencies, each at
most _RATIO times the one before). The fastest pair sets the final precision: about the angle
noise over ω_max, a millionth of a position in a float32 table.

How positions run: one arithmetic run pos = c + s·r over all rows, or runs that restart (packed
sequences), turn back (a table of |c - r|), rows that all hold one position (padding given a
fixed position) and rows of zeros.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from numeric.table_audit.fit import wrap

_RATIO = 8.0


def ladder(frequency: np.ndarray) -> np.ndarray:
    """Indices of pairs from the slowest to the fastest, each at most _RATIO times faster than
    the one before when such a pair exists."""
    order = [int(i) for i in np.argsort(frequency) if frequency[i] > 0]
    if not order:
        return np.zeros(0, dtype=np.int64)
    steps = [order[0]]
    for k, i in enumerate(order[1:], start=1):
        nxt = order[k + 1] if k + 1 < len(order) else None
        # Take i if the next faster pair would be too far from the last one taken.
        if nxt is None or frequency[nxt] > _RATIO * frequency[steps[-1]]:
            steps.append(i)
    return np.array(steps, dtype=np.int64)


def read_positions_from_angles(
    angles: np.ndarray,
    frequency: np.ndarray,
    near: np.ndarray | None = None,
    sequence: bool = False,
) -> np.ndarray:
    """Positions (one per row of angles) from the angles of ladder pairs, slowest first.

    The slowest pair's reading is taken in [-π/ω, π/ω), or within half its period of `near`,
    or (sequence) continuous down the rows given; the faster pairs then refine it."""
    period = 2 * np.pi / frequency[0]
    position = wrap(angles[:, 0]) / frequency[0]
    if near is not None:
        position = position + period * np.round((near - position) / period)
    elif sequence and len(position) > 1:
        position = np.unwrap(position, period=period)
    for j in range(1, angles.shape[1]):
        position = position + wrap(angles[:, j] - frequency[j] * position) / frequency[j]
    return position


def read_positions(
    values: np.ndarray,
    sin_cols: np.ndarray,
    cos_cols: np.ndarray,
    frequency: np.ndarray,
    phase: np.ndarray | None = None,
    near: np.ndarray | None = None,
    sequence: bool = False,
) -> np.ndarray:
    """The position each row of values holds, read along the ladder of the pairs' frequencies
    (angles less phase, when given: positions of a fitted table in rows); near and sequence
    choose the slowest pair's period (read_positions_from_angles)."""
    steps = ladder(frequency)
    angles = np.arctan2(values[:, sin_cols[steps]], values[:, cos_cols[steps]])
    if phase is not None:
        angles = angles - phase[steps]
    return read_positions_from_angles(angles, frequency[steps], near, sequence)


@dataclass(frozen=True)
class Run:
    """Rows first .. last hold positions start, start + step, ... (step 0: all the same)."""

    first: int
    last: int
    start: float
    step: float

    @property
    def rows(self) -> int:
        return self.last - self.first + 1


def runs(rows: np.ndarray, position: np.ndarray, step: float, tolerance: float) -> list[Run]:
    """Maximal runs of the given rows (increasing; zero rows left out) whose positions advance
    by step a row, stay put, or go back by step (a table of |c - r|); a row that fits none
    starts a run of its own."""
    out: list[Run] = []
    i, count = 0, len(rows)
    while i < count:
        first, start = int(rows[i]), float(position[i])
        kind: float | None = None
        j = i
        while j + 1 < count:
            r, p = int(rows[j + 1]), float(position[j + 1])
            if kind is None:
                kind = next(
                    (
                        k
                        for k in (step, 0.0, -step)
                        if abs(p - (start + k * (r - first))) <= tolerance
                    ),
                    None,
                )
                if kind is None:
                    break
            elif abs(p - (start + kind * (r - first))) > tolerance:
                break
            j += 1
        out.append(Run(first, int(rows[j]), start, step if kind is None else kind))
        i = j + 1
    return out


def positions_held(
    values: np.ndarray, conv: object, near: np.ndarray | None = None, sequence: bool = False
) -> np.ndarray:
    """The position each row of values holds under conv (a numeric.table_audit.measure
    Convention): for a named one, read with its exact frequencies; for fitted sinusoids, the
    row index their angles give (less the angle at row 0). near, sequence: as in
    read_positions."""
    if conv.exact:
        return read_positions(
            values, conv.sin_cols, conv.cos_cols, conv.frequencies(), near=near, sequence=sequence
        )
    sign = -1.0 if np.all(conv.omega < 0) else 1.0
    frequency = np.abs(conv.omega)
    near = None if near is None else sign * near
    held = read_positions(
        values, conv.sin_cols, conv.cos_cols, frequency, conv.phase, near, sequence
    )
    return sign * held


@dataclass(frozen=True)
class Course:
    """How positions run down the rows: the first run that advances, runs that restart the
    count later (packed sequences), runs that turn back (a table of |c - r|), runs of rows that
    all hold one position, the position of row 0 by the first run, and 'abs' when the table
    holds |c + s·r| (it runs down to 0 and back up)."""

    first: Run
    restarts: list[Run]
    turns: list[Run]
    plateaus: list[Run]
    offset: float
    transform: str | None


def course(found: list[Run], step: float) -> Course:
    """The Course of runs of positions (numeric.table_audit.positions.runs; see Course)."""
    moving = [r for r in found if r.step != 0 or r.rows == 1]
    first = moving[0] if moving else found[0]
    restarts, turns = [], []
    for before, run in pairwise(moving):
        if run.step != 0 and run.step == -before.step and run.first == before.last + 1:
            turns.append(run)
        else:
            restarts.append(run)
    transform = None
    if len(turns) == 1 and not restarts:
        before = moving[moving.index(turns[0]) - 1]
        end = before.start + before.step * (before.last - before.first)
        if end == 0 and turns[0].start == abs(step):
            transform = "abs"
    plateaus = [r for r in found if r.step == 0 and r.rows > 1]
    return Course(first, restarts, turns, plateaus, first.start - step * first.first, transform)
