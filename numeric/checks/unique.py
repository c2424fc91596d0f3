"""The closest pair of distinct rows of the sinusoidal table, found exactly (no sampling).

Numeric twin of the theorem proofs.unique: distinct integer positions never share a row, so the
smallest distance between rows is positive, and this module finds it and the pair attaining it.

How: the first pair of every row is (sin pos, cos pos), a point on the unit circle at angle pos.
The full distance between two rows is at least the chord between their first-pair angles, so
after sorting the rows by that angle only rows whose angles are closer than the current best
distance can beat it (the best starts as the nearest row to row 0, an actual pair). The sweep compares row j with row j + s of the sorted order for
s = 1, 2, ... (all j at once) and stops when every gap at offset s already rules a pair out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import DTypeLike

from numeric import validate
from numeric.blocks import check_positions, row_blocks
from numeric.table import Table
from numeric.tables import (
    accuracy_bound,
    sinusoidal_pe,
)


@dataclass(frozen=True)
class NearestPair:
    """The smallest Euclidean distance between distinct rows and the row indices p < q attaining it."""

    distance: float
    p: int
    q: int


def nearest_pair(table: np.ndarray) -> NearestPair:
    """The closest two distinct rows of an interleaved (max_len, d_model) sinusoidal table.

    Exact up to floating-point rounding: every pair that could be closer than the answer is
    compared. The rows must have (sin, cos) of the position in columns 0 and 1.
    """
    table = np.asarray(table, dtype=np.float64)
    if table.ndim != 2 or table.shape[0] < 2 or table.shape[1] < 2:
        raise ValueError(f"table must have shape (rows >= 2, d_model >= 2), got {table.shape}")
    angle = np.arctan2(table[:, 0], table[:, 1])  # column 0 is sin, column 1 is cos
    order = np.argsort(angle, kind="stable")
    n = len(order)
    # Wrap around the circle: the sorted rows followed by themselves, angles shifted by 2π.
    # Contiguous copies, so each offset below compares two slices instead of gathering rows.
    ring = np.concatenate([order, order])
    ring_rows = table[ring]
    ring_angle = np.concatenate([angle[order], angle[order] + 2 * np.pi])
    # Any actual pair bounds the answer from above; row 0 against every other row is a cheap
    # start that lets the sweep below stop after few offsets.
    first = np.sum((table[1:] - table[0]) ** 2, axis=1)
    j = int(np.argmin(first))
    best_sq, best_p, best_q = float(first[j]), 0, j + 1
    for s in range(1, n):
        gaps = ring_angle[s : s + n] - ring_angle[:n]
        # A pair whose angles are further apart than reach has a chord, hence a distance,
        # of at least the best distance so far (chord = 2·sin(gap/2), increasing on [0, π]).
        reach = 2 * np.arcsin(min(np.sqrt(best_sq), 2.0) / 2)
        if gaps.min() >= reach:
            break
        diff = ring_rows[s : s + n] - ring_rows[:n]
        dist_sq = np.einsum("ij,ij->i", diff, diff)
        j = int(np.argmin(dist_sq))
        if dist_sq[j] < best_sq:
            best_sq = float(dist_sq[j])
            best_p, best_q = sorted((int(ring[j]), int(ring[j + s])))
    best = NearestPair(float(np.sqrt(best_sq)), best_p, best_q)
    return best


# The default table sizes, and the work n²·d_model beyond which a default size is left out: the
# nearest-pair search prunes with the first pair only, which stops working once rows are more
# than 2 apart (d_model above about 64), and then compares all n² pairs.
DEFAULT_SIZES = (50, 1000, 10000)
DEFAULT_WORK = 8e8


def default_sizes(d_model: int) -> tuple[int, ...]:
    """The DEFAULT_SIZES whose search stays within DEFAULT_WORK at d_model (always the smallest)."""
    fits = tuple(n for n in DEFAULT_SIZES if n * n * d_model <= DEFAULT_WORK)
    return fits or DEFAULT_SIZES[:1]


def nearest_rows_table(*, max_lens: Iterable[int] | None = None, d_model: int = 8) -> Table:
    """For each table size, the smallest distance between distinct rows and the pair attaining it.

    Passes when every smallest distance is larger than the table's rounding could fake
    (the positions would then really differ in their encodings). max_lens: the table sizes;
    None for default_sizes(d_model), all of (50, 1000, 10000) up to d_model = 8.
    """
    d_model = validate.d_model(d_model)
    if max_lens is None:
        max_lens = default_sizes(d_model)
    sizes = tuple(validate.max_len(n, "max_lens") for n in max_lens)
    if not sizes or min(sizes) < 2:
        raise ValueError(f"max_lens must be table sizes of at least 2 rows, got {sizes}")
    # Two rows each off by accuracy_bound per entry can appear at most this much closer.
    noise = 2 * accuracy_bound(np.float64) * np.sqrt(d_model)
    rows = []
    passed = True
    for n in sizes:
        best = nearest_pair(sinusoidal_pe(n, d_model))
        ok = bool(best.distance > noise)
        passed &= ok
        rows.append((n, d_model, best.distance, best.p, best.q, best.q - best.p, ok))
    return Table(
        title="Smallest distance between distinct rows of the sinusoidal table, and the nearest pair",
        columns=("rows", "d_model", "min distance", "pos p", "pos q", "q − p", "distinct"),
        rows=tuple(rows),
        formats=("", "", ".6g", "", "", "", ""),
        note="The distance depends only on q − p; a positive minimum means no two positions collide.",
        passed=passed,
    )


# Rows(a, b): rows a .. b−1 of a table, however they are obtained.
Rows = Callable[[int, int], np.ndarray]


def _row_hashes(rows: Rows, n: int) -> np.ndarray:
    """A 64-bit hash of each of the n rows rows(a, b) yields; equal rows (by value) hash alike."""
    hashes = np.empty(n, dtype=np.uint64)
    multipliers = None
    for a, b in row_blocks(0, n):
        block = rows(a, b)
        if multipliers is None:
            rng = np.random.default_rng(20170612)
            multipliers = rng.integers(1, 2**63, block.shape[1], dtype=np.uint64) | 1
        # + 0.0 turns -0.0 into 0.0, so rows equal by value hash alike.
        bits = (block.astype(np.float64) + 0.0).view(np.uint64)
        bits ^= bits >> np.uint64(29)
        hashes[a:b] = (bits * multipliers).sum(axis=1, dtype=np.uint64)
    return hashes


def _distinct_rows(rows: Rows, n: int) -> int:
    """The number of distinct rows among the n rows rows(a, b) yields, a block at a time."""
    if n == 0:
        return 0
    hashes = _row_hashes(rows, n)
    values, inverse, counts = np.unique(hashes, return_inverse=True, return_counts=True)
    distinct = len(values)
    for group in np.flatnonzero(counts > 1):
        members = np.stack([rows(j, j + 1)[0] for j in np.flatnonzero(inverse == group)])
        distinct += len(np.unique(members.astype(np.float64) + 0.0, axis=0)) - 1
    return distinct


def unique_rows(table: np.ndarray) -> int:
    """The number of distinct rows of a 2-D table, compared by value (-0.0 equals 0.0).

    Uses one 64-bit hash per row, so the extra memory is 8 bytes a row; rows whose hashes
    collide are compared exactly.
    """
    table = np.asarray(table)
    if table.ndim != 2:
        raise ValueError(f"table must be 2-D (positions, dims), got shape {table.shape}")
    return _distinct_rows(lambda a, b: table[a:b], table.shape[0])


def unique_rows_table(
    *,
    max_len: int = 50,
    d_model: int = 8,
    base: float = 10000.0,
    dtype: DTypeLike = np.float64,
    layout: str = "interleaved",
) -> Table:
    """The number of distinct rows of sinusoidal_pe(max_len, d_model): every position its own encoding."""
    max_len = validate.max_len(max_len)
    check_positions(max_len)

    def rows(a: int, b: int) -> np.ndarray:
        return sinusoidal_pe(b - a, d_model, base=base, dtype=dtype, layout=layout, start=a)

    distinct = _distinct_rows(rows, max_len)
    return Table(
        title=f"distinct rows of the ({max_len}, {d_model}) {np.dtype(dtype).name} table",
        columns=("rows", "distinct rows"),
        rows=((max_len, distinct),),
        note=f"{distinct} unique rows out of {max_len}",
        passed=distinct == max_len,
    )
