"""The closest pair of distinct rows of the sinusoidal table, found exactly (no sampling).

Numeric twin of the theorem proofs.theorems.sinusoidal.unique: distinct integer positions never share a row, so the
smallest distance between rows is positive, and this module finds it and the pair attaining it.

How: the first pair of every row is (sin pos, cos pos), a point on the unit circle at angle pos.
The full distance between two rows is at least the chord between their first-pair angles, so
after sorting the rows by that angle only rows whose angles are closer than the current best
distance can beat it (the best starts as the nearest row to row 0, an actual pair). The sweep
compares row j with row j + s of the sorted order for s = 1, 2, ... (all j, a block at a time)
and stops when every gap at offset s already rules a pair out. Long tables are never built:
the sweep keeps the sorted angles and the order (16 bytes a row) and recomputes the rows it
compares with sinusoidal_rows, bit for bit the table's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np
from numpy.typing import DTypeLike

from numeric import validate
from numeric.blocks import CHUNK_ENTRIES, block_rows, check_positions, row_blocks
from numeric.result_table import Table
from numeric.tables import (
    accuracy_bound,
    sinusoidal_pe,
    sinusoidal_rows,
)


@dataclass(frozen=True)
class NearestPair:
    """The smallest Euclidean distance between distinct rows and the row indices p < q attaining it."""

    distance: float
    p: int
    q: int


# Rows(a, b): rows a .. b−1 of a table, however they are obtained.
Rows = Callable[[int, int], np.ndarray]

# Entries per block of compared rows: a block and its temporaries stay a few 2 MiB arrays.
PAIR_BLOCK_ENTRIES = 2**18


def _ring(values: np.ndarray, a: int, b: int, turn: float | None = None) -> np.ndarray:
    """Entries a .. b−1 (0 <= a <= b <= 2n) of values followed by values again (plus turn)."""
    n = len(values)
    head = values[a : min(b, n)]
    if b <= n:
        return head
    tail = values[max(a - n, 0) : b - n]
    return np.concatenate([head, tail if turn is None else tail + turn])


def _sort_by_angle(angle: np.ndarray) -> np.ndarray:
    """The order that sorts the rows by first-pair angle; sorts angle itself in place."""
    order = np.argsort(angle, kind="stable")
    angle.sort()  # the same values as angle[order], without a second array
    return order


def _sweep(angle: np.ndarray, order: np.ndarray, rows: Rows, ring_rows: Rows) -> NearestPair:
    """The closest pair of rows, sweeping offsets s = 1, 2, ... of the angle order.

    angle: the sorted first-pair angles; order: the positions in that order; rows(a, b): the
    rows at positions a .. b−1; ring_rows(a, b): the rows at order indices a .. b−1 (0 <= a <=
    b <= 2n), the order followed by itself. Both are asked for one block at a time.
    """
    n = len(order)
    # Any actual pair bounds the answer from above; row 0 against every other row is a cheap
    # start that lets the sweep below stop after few offsets.
    row0 = rows(0, 1)
    chunk = max(1, PAIR_BLOCK_ENTRIES // row0.shape[1])
    best_sq, best_p, best_q = np.inf, 0, 1
    for a, b in row_blocks(1, n, chunk):
        first = np.sum((rows(a, b) - row0) ** 2, axis=1)
        j = int(np.argmin(first))
        if first[j] < best_sq:
            best_sq, best_q = float(first[j]), a + j
    for s in range(1, n):
        # A pair whose angles are further apart than reach has a chord, hence a distance,
        # of at least the best distance so far (chord = 2·sin(gap/2), increasing on [0, π]).
        reach = 2 * np.arcsin(min(np.sqrt(best_sq), 2.0) / 2)
        gap = min(
            float((_ring(angle, a + s, b + s, 2 * np.pi) - angle[a:b]).min())
            for a, b in row_blocks(0, n, PAIR_BLOCK_ENTRIES)
        )
        if gap >= reach:
            break
        # Blocks in order and a strict < keep the first of equal minima, as one argmin would.
        for a, b in row_blocks(0, n, chunk):
            if s < b - a:
                # The rows s further on overlap this block: fetch the b − a + s rows once.
                window = ring_rows(a, b + s)
                diff = window[s:] - window[: b - a]
            else:
                diff = ring_rows(a + s, b + s) - ring_rows(a, b)
            dist_sq = np.einsum("ij,ij->i", diff, diff)
            j = int(np.argmin(dist_sq))
            if dist_sq[j] < best_sq:
                best_sq = float(dist_sq[j])
                best_p, best_q = sorted((int(order[a + j]), int(order[(a + j + s) % n])))
    return NearestPair(float(np.sqrt(best_sq)), best_p, best_q)


def nearest_pair(table: np.ndarray) -> NearestPair:
    """The closest two distinct rows of an interleaved (max_len, d_model) sinusoidal table.

    Exact up to floating-point rounding: every pair that could be closer than the answer is
    compared. The rows must have (sin, cos) of the position in columns 0 and 1.
    """
    table = np.asarray(table, dtype=np.float64)
    if table.ndim != 2 or table.shape[0] < 2 or table.shape[1] < 2:
        raise ValueError(f"table must have shape (rows >= 2, d_model >= 2), got {table.shape}")
    angle = np.arctan2(table[:, 0], table[:, 1])  # column 0 is sin, column 1 is cos
    order = _sort_by_angle(angle)
    # The rows in angle order, twice round: each offset then compares two slices.
    ring = table[np.concatenate([order, order])]
    return _sweep(angle, order, lambda a, b: table[a:b], lambda a, b: ring[a:b])


def nearest_pair_streamed(max_len: int, d_model: int) -> NearestPair:
    """nearest_pair(sinusoidal_pe(max_len, d_model)) without the table: 16 bytes a row.

    The angles come from the rows a block at a time; the rows the sweep compares are
    recomputed with sinusoidal_rows, bit for bit those of the table.
    """
    max_len = validate.max_len(max_len)
    d_model = validate.d_model(d_model)
    check_positions(max_len)
    if max_len < 2:
        raise ValueError(f"max_len must be at least 2, got {max_len}")
    # The angles and the order, 16 bytes a row, and the sort's buffer beside them.
    validate.fits_in_memory(20 * max_len, f"the angle order of {max_len} rows")

    # sinusoidal_rows, not sinusoidal_pe(start=): a one-row call of the latter at d_model = 2
    # takes NumPy's scalar complex multiply and can differ from the table in the last bit.
    def rows(a: int, b: int) -> np.ndarray:
        return sinusoidal_rows(np.arange(a, b), d_model)

    angle = np.empty(max_len)
    for a, b in row_blocks(0, max_len, block_rows(d_model)):
        block = rows(a, b)
        np.arctan2(block[:, 0], block[:, 1], out=angle[a:b])
    order = _sort_by_angle(angle)
    return _sweep(angle, order, rows, lambda a, b: sinusoidal_rows(_ring(order, a, b), d_model))


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
        # A table whose rows in angle order, twice round, fit in one block is built whole
        # (the sweep then compares slices, quicker); longer ones never are.
        if 2 * n * d_model <= CHUNK_ENTRIES:
            best = nearest_pair(sinusoidal_pe(n, d_model))
        else:
            best = nearest_pair_streamed(n, d_model)
        ok = bool(best.distance > noise)
        passed &= ok
        rows.append((n, d_model, best.distance, best.p, best.q, best.q - best.p, ok))
    return Table(
        title="Smallest distance between distinct rows of the sinusoidal table, and the nearest pair",
        headline="distinct rows of the table stay apart",
        columns=("rows", "d_model", "min distance", "pos p", "pos q", "q − p", "distinct"),
        rows=tuple(rows),
        formats=("", "", ".6g", "", "", "", ""),
        note="The distance depends only on q − p; a positive minimum means no two positions collide.",
        passed=passed,
    )


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
