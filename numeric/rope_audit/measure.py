"""One pass over every row: the cache against the exact cache of what was identified.

Two exact caches are compared with the file, a block of rows at a time:
- intended: the identified configuration's frequencies (float64 formula), at the row's
  position plus the offset, times m: what the cache should hold (max_abs_error);
- as built: the same with what the implementation really held: its frequencies rounded to
  16 bits, its positions rounded to 16 bits, where the audit found that. The difference is
  then only the arithmetic, which the accuracy grade describes.
Each entry's angle is reduced exactly (numeric.rope.cache.exact_rotations), so the exact caches
are within about 1e-16 of the true values. On the way, every value is checked finite, the
amplitude |cos + i·sin| of every entry against m, the layout read from a sample (each pair's
two columns equal, numeric.rope_audit.columns) on every row, and the unrotated columns (sin 0,
cos 1) on every row.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.audit.grading import needed_roundoff
from numeric.rope.cache import exact_rotations
from numeric.rope.floats import round_to
from numeric.rope_audit.columns import Columns, nonfinite_error
from numeric.rope_audit.source import CacheSource

_ROWS = 8192


@dataclass(frozen=True)
class Measured:
    """rows: the rows measured (every row up to numeric.rope_audit.source.MAX_PASS_ROWS);
    per row measured: error_intended, error_built (max over pairs and over cos and sin); amplitude:
    the largest ||z| − m| over entries (None with one array); needed: per row measured, the
    least unit roundoff whose caps cover each pair's error against the as-built cache at its
    own angle (numeric.audit.grading.needed_roundoff); worst_pair_amplitude: per pair,
    the largest ||z| − m|; worst_pair: per pair, the largest error against the intended cache;
    first_beyond: per pair, the first row (of the cache) whose error against the intended
    cache exceeds the tolerance given (−1 where none does); repeat_gap: the largest difference
    between each pair's two columns, and repeat_row the first row where it passes the layout's
    tolerance (None if none); still_moving: unrotated columns (by the sample) that rotate on
    some row; still_not_one: unrotated columns whose cos is not 1 on some row."""

    rows: np.ndarray
    error_intended: np.ndarray
    error_built: np.ndarray
    needed: np.ndarray
    amplitude: float | None
    pair_amplitude: np.ndarray | None
    pair_error: np.ndarray
    first_beyond: np.ndarray
    repeat_gap: float
    repeat_row: int | None
    still_moving: tuple[int, ...]
    still_not_one: tuple[int, ...]


def _errors(cos, sin, exact: np.ndarray) -> np.ndarray:
    """(rows, pairs) max of |cos − Re| and |sin − Im| over the arrays given."""
    found = None
    for values, part in ((cos, exact.real), (sin, exact.imag)):
        if values is None:
            continue
        gap = np.abs(values - part)
        found = gap if found is None else np.maximum(found, gap)
    return found  # type: ignore[return-value]


def _check_block(
    source: CacheSource, block: slice, cos, sin, columns: Columns, tolerance: float
) -> tuple[float, int | None, np.ndarray, np.ndarray]:
    """(repeat gap, first row past tolerance, still columns moving, still columns not 1)."""
    rows = np.arange(block.start, block.stop)
    for values, name in ((cos, "cos"), (sin, "sin")):
        if values is not None and not np.isfinite(values).all():
            raise nonfinite_error(source, rows, values, name)
    gap, first = 0.0, None
    if columns.layout != "freqs":
        for values in (cos, sin):
            if values is None:
                continue
            d = np.abs(values[:, columns.first] - values[:, columns.second]).max(axis=1)
            gap = max(gap, float(d.max()))
            if first is None and (d > tolerance).any():
                first = int(rows[np.argmax(d > tolerance)])
    still = list(columns.still)
    moving = np.zeros(len(still), dtype=bool)
    not_one = np.zeros(len(still), dtype=bool)
    if still:
        if sin is not None:
            moving |= np.any(sin[:, still] != 0, axis=0)
        if cos is not None:
            not_one |= np.any(cos[:, still] != 1, axis=0)
            if sin is None:
                moving |= np.any(cos[:, still] != cos[:1, still], axis=0)
    return gap, first, moving, not_one


def measure(
    source: CacheSource,
    layout: Columns,
    *,
    intended_theta: np.ndarray,
    built_theta: np.ndarray,
    attention: float,
    offset: int,
    positions_rounded_to: str | None,
    sign: float,
    tolerance: np.ndarray | None = None,
    layout_tolerance: float = 0.0,
    rounding: float = 0.0,
) -> Measured:
    """Compare every row of the cache's pair columns with the intended and as-built caches.

    layout: the columns read from a sample (each pair's first column is compared); sign: −1 for a cache rotating backwards (its sin
    negated); tolerance: per row, the error beyond which a pair counts as diverging (None:
    first_beyond is not looked for); layout_tolerance: how far a pair's two columns may differ;
    rounding: what rounding to the stored format allows an entry, for needed (two roundings:
    cos or sin, then the product with m).
    """
    columns = layout.first
    repeat_tolerance = layout_tolerance
    repeat_gap, repeat_row = 0.0, None
    still_moving = np.zeros(len(layout.still), dtype=bool)
    still_not_one = np.zeros(len(layout.still), dtype=bool)
    blocks = source.pass_slices(_ROWS)
    rows = np.concatenate([np.arange(b.start, b.stop) for b in blocks])
    n = len(rows)
    pairs = len(columns)
    intended_err = np.empty(n)
    built_err = np.empty(n)
    needed = np.empty(n)
    log_theta = np.log(np.maximum(np.abs(built_theta), np.finfo(np.float64).tiny))
    pair_error = np.zeros(pairs)
    first = np.full(pairs, -1, dtype=np.int64)
    both = source.cos is not None and source.sin is not None
    pair_amp = np.zeros(pairs) if both else None
    same = np.array_equal(intended_theta, built_theta) and positions_rounded_to is None
    done = 0
    for block in blocks:
        a, b = done, done + block.stop - block.start
        done = b
        cos, sin = source.take(block)
        gap, row, moving, not_one = _check_block(source, block, cos, sin, layout, repeat_tolerance)
        repeat_gap = max(repeat_gap, gap)
        repeat_row = row if repeat_row is None else repeat_row
        still_moving |= moving
        still_not_one |= not_one
        cos = None if cos is None else cos[:, columns]
        sin = None if sin is None else sign * sin[:, columns]
        p = source.positions[block].astype(np.float64) + offset
        exact = attention * exact_rotations(p, intended_theta)
        err = _errors(cos, sin, exact)
        intended_err[a:b] = err.max(axis=1)
        pair_error = np.maximum(pair_error, err.max(axis=0))
        if tolerance is not None:
            beyond = err > tolerance[a:b, None]
            hit = beyond.any(axis=0) & (first < 0)
            if hit.any():
                first[hit] = block.start + np.argmax(beyond[:, hit], axis=0)
        held = p
        if same:
            built_err[a:b] = intended_err[a:b]
        else:
            # The implementation rounds the position id it is given (the row's, plus the offset).
            if positions_rounded_to is not None:
                held = round_to(held, positions_rounded_to).astype(np.float64)
            built = attention * exact_rotations(held, built_theta)
            err = _errors(cos, sin, built)
            built_err[a:b] = err.max(axis=1)
        angles = np.abs(held)[:, None] * np.abs(built_theta)
        needed[a:b] = needed_roundoff(err, angles, log_theta, rounding, attention)
        if both:
            pair_amp = np.maximum(pair_amp, np.abs(np.hypot(cos, sin) - attention).max(axis=0))
    return Measured(
        rows=rows,
        error_intended=intended_err,
        error_built=built_err,
        needed=needed,
        amplitude=None if pair_amp is None else float(pair_amp.max()),
        pair_amplitude=pair_amp,
        pair_error=pair_error,
        first_beyond=first,
        repeat_gap=repeat_gap,
        repeat_row=repeat_row,
        still_moving=tuple(int(c) for c, m in zip(layout.still, still_moving, strict=True) if m),
        still_not_one=tuple(int(c) for c, m in zip(layout.still, still_not_one, strict=True) if m),
    )
