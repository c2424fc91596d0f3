"""Encodings as NumPy tables: the sinusoidal one (accurate and fast), the ramp and the raw index.

How the sinusoidal table is computed: position P splits as P = q·B + r with B = BLOCK. The
angle-addition identity gives sin(Pω) + i·cos(Pω) = conj(e^{i·qBω}) · (sin(rω) + i·cos(rω)),
so only the block starts and the B offsets need sin and cos; each entry of the table is then
one complex multiply. Those few angles are reduced modulo 2π with error-free products (ω and
2π split into short pieces, numeric.angles), which is what keeps every entry within a few ulps at any
position, where the direct formula loses digits as soon as pos·ω is rounded. Threads fill
disjoint row ranges, and each entry goes through the same operations whichever thread
computes it, so the table is the same bit for bit whatever the thread count.
"""

from __future__ import annotations

import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import pairwise
from numbers import Integral

import numpy as np
from numpy.typing import DTypeLike

from numeric import validate
from numeric.angles import Frequencies, fraction_phase, frequency_pieces, reduced_angles

BLOCK = 256
# Largest error of a float64 entry, measured against numeric.reference (see the tests).
_FLOAT64_ERROR_BOUND = 2e-15
# Below this many output bytes one thread is quicker: starting a thread pool costs ~0.15 ms.
_PARALLEL_BYTES = 2**23
# Most output bytes handed to a thread at a time.
_TASK_BYTES = 2**23
# The complex buffer of the layouts and dtypes not written in place: well inside L2.
_BUFFER_BYTES = 2**19


@lru_cache(maxsize=8)
def _offsets(d_model: int, base: float, schedule: str = "paper") -> np.ndarray:
    """sin(rω_i) + i·cos(rω_i) for the offsets r = 0 .. BLOCK - 1 within a block (read-only)."""
    angles = reduced_angles(
        np.arange(BLOCK, dtype=np.float64)[:, None], frequency_pieces(d_model, base, schedule)
    )
    offsets = np.sin(angles) + 1j * np.cos(angles)
    offsets.flags.writeable = False
    return offsets


def frequencies(d_model: int, *, base: float = 10000.0, schedule: str = "paper") -> np.ndarray:
    """The pair frequencies ω_i, i = 0 .. d_model/2 - 1, correctly rounded.

    schedule "paper": ω_i = base^(-2i/d_model); "tensor2tensor": ω_i = base^(-i/(d_model/2 - 1)).
    """
    d_model = validate.d_model(d_model)
    schedule = validate.schedule(schedule)
    validate.fits_in_memory(4 * d_model * 8, f"{d_model // 2} frequencies")
    return frequency_pieces(d_model, validate.base(base), schedule).approx.copy()


def accuracy_bound(dtype: DTypeLike) -> float:
    """Largest absolute error of an entry of sinusoidal_pe(..., dtype=dtype) against exact values."""
    dtype = validate.dtype(dtype)
    if dtype == np.float64:
        return _FLOAT64_ERROR_BOUND
    # One rounding of a value in [-1, 1]: half an ulp of [0.5, 1), which is eps/4.
    return float(np.finfo(dtype).eps) / 4 + _FLOAT64_ERROR_BOUND


def thread_count(threads: object) -> int:
    """threads as a positive int; None means every core this process may run on."""
    if threads is None:
        if hasattr(os, "sched_getaffinity"):
            return len(os.sched_getaffinity(0))
        return os.cpu_count() or 1
    if not isinstance(threads, Integral) or isinstance(threads, bool):
        raise TypeError(f"threads must be a positive integer or None, got {threads!r}")
    if threads < 1:
        raise ValueError(f"threads must be a positive integer or None, got {threads!r}")
    return int(threads)


def _tasks(first_offset: int, max_len: int, rows_per_task: int) -> list[tuple[int, int]]:
    """Table rows cut into ranges [row0, row1) that end on block boundaries, one per thread task."""
    cuts = range(rows_per_task - first_offset, max_len, rows_per_task)
    bounds = [0, *cuts, max_len]
    return list(pairwise(bounds))


def _segments(first_offset: int, row0: int, row1: int, max_rows: int):
    """Rows [row0, row1) as (row0, row1, block0, block1, offset0) pieces of at most max_rows rows.

    Each piece is either part of one block (its rows offset0, offset0 + 1, ...) or whole blocks.
    """
    row = row0
    while row < row1:
        block, offset = divmod(first_offset + row, BLOCK)
        whole = 0 if offset else min(row1 - row, max_rows) // BLOCK
        if whole:
            yield row, row + whole * BLOCK, block, block + whole, 0
            row += whole * BLOCK
        else:
            end = min(row1, row + BLOCK - offset, row + max_rows)
            yield row, end, block, block + 1, offset
            row = end


@dataclass(frozen=True)
class _Plan:
    """What every task needs: row j of out is position (first_block·BLOCK + first_offset + j) + fraction."""

    out: np.ndarray
    layout: str
    freq: Frequencies
    offsets: np.ndarray
    first_block: int
    first_offset: int
    phase: np.ndarray | None  # fraction·ω_i mod 2π for a non-integer start, else None


def _block_values(plan: _Plan, block0: int, block1: int) -> np.ndarray:
    """cos(qBω_i) - i·sin(qBω_i) for the blocks q = block0 .. block1 - 1 (counted from first_block).

    Elementwise throughout, so a block's values do not depend on which task computes them.
    """
    starts = np.arange(plan.first_block + block0, plan.first_block + block1, dtype=np.float64)
    angles = reduced_angles(starts[:, None] * BLOCK, plan.freq)
    if plan.phase is not None:
        angles += plan.phase
    values = np.empty(angles.shape, dtype=np.complex128)
    np.cos(angles, out=values.real)
    # 0 - sin, not -sin: the same bits as cos - 1j·sin, down to the sign of a zero.
    np.subtract(0.0, np.sin(angles), out=values.imag)
    return values


def _product(blocks: np.ndarray, offsets: np.ndarray, piece, out: np.ndarray) -> np.ndarray:
    """The (rows, pairs) complex values sin + i·cos of one piece, written to out.

    Every call multiplies whole rows, so an entry goes through the same arithmetic whichever
    piece, task or thread it falls in: that is what makes the table independent of the split.
    """
    row0, row1, block0, block1, offset0 = piece
    if block1 - block0 == 1:
        if (row1 - row0) * blocks.shape[1] == 1:
            # NumPy multiplies a lone complex number by another path than its vector loop, and
            # the last bit can differ (half of the rows at d_model = 2): multiply two copies.
            two = np.multiply(np.repeat(blocks[block0], 2), np.repeat(offsets[offset0], 2))
            out[...] = two[:1]
            return out
        return np.multiply(blocks[block0], offsets[offset0 : offset0 + row1 - row0], out=out)
    shape = (block1 - block0, BLOCK, blocks.shape[1])
    np.multiply(blocks[block0:block1, None, :], offsets[None, :, :], out=out.reshape(shape))
    return out


def _write_rows(plan: _Plan, rows: tuple[int, int]) -> None:
    """Fill plan.out[row0:row1] for rows = (row0, row1), block values included (one task)."""
    row0, row1 = rows
    out, offsets = plan.out, plan.offsets
    first = (plan.first_offset + row0) // BLOCK
    blocks = _block_values(plan, first, (plan.first_offset + row1 - 1) // BLOCK + 1)

    def pieces(max_rows: int):
        for r0, r1, block0, block1, offset0 in _segments(plan.first_offset, row0, row1, max_rows):
            yield r0, r1, block0 - first, block1 - first, offset0

    if out.dtype == np.float64 and plan.layout == "interleaved":
        # sin + i·cos stored as a complex128 is exactly the interleaved (sin, cos) row.
        target = out.view(np.complex128)
        for piece in pieces(row1 - row0):
            _product(blocks, offsets, piece, target[piece[0] : piece[1]])
        return
    # Other dtypes and layouts go through a complex buffer small enough to stay in cache, so
    # the detour costs no memory traffic: the table itself is written once.
    pairs = blocks.shape[1]
    buffer_rows = min(max(1, _BUFFER_BYTES // (16 * pairs)), row1 - row0)
    buffer = np.empty((buffer_rows, pairs), dtype=np.complex128)
    for piece in pieces(buffer_rows):
        values = _product(blocks, offsets, piece, buffer[: piece[1] - piece[0]])
        part = slice(piece[0], piece[1])
        if plan.layout == "interleaved":
            out[part] = values.view(np.float64)
        else:
            out[part, :pairs] = values.real
            out[part, pairs:] = values.imag


def sinusoidal_pe(
    max_len: int,
    d_model: int,
    *,
    base: float = 10000.0,
    dtype: DTypeLike = np.float64,
    layout: str = "interleaved",
    start: float = 0,
    schedule: str = "paper",
    threads: int | None = None,
) -> np.ndarray:
    """The sinusoidal positional encoding table, shape (max_len, d_model).

    Row j is position start + j. Pair i has frequency ω_i = base^(-2i/d_model) (schedule
    "paper"), or tensor2tensor's base^(-i/(d_model/2 - 1)) (schedule "tensor2tensor").
    layout "interleaved" (the paper's) puts sin(pos·ω_i) at column 2i and cos at 2i + 1;
    "concatenated" (tensor2tensor, fairseq) puts all sines in the first half, cosines in the second.
    Entries are computed in float64 to within accuracy_bound(float64) of the exact values, then
    rounded once to dtype (float64, float32 or float16). d_model must be even (one sin and one
    cos per pair); positions must stay below 2**31 in magnitude. threads: how many threads
    write the rows (None: one per available core; small tables always use one); the table is
    the same bit for bit whatever the thread count.
    """
    max_len = validate.max_len(max_len)
    d_model = validate.d_model(d_model)
    base = validate.base(base)
    dtype = validate.dtype(dtype)
    layout = validate.layout(layout)
    schedule = validate.schedule(schedule)
    threads = thread_count(threads)
    start = validate.finite(start, "start")
    whole_start = math.floor(start)
    if abs(whole_start) + max_len + 1 > validate.MAX_POSITION:
        raise ValueError(
            f"positions start .. start + max_len must stay below 2**31 in magnitude, got start={start}"
        )
    validate.fits_in_memory(max_len * d_model * dtype.itemsize, f"a ({max_len}, {d_model}) table")
    out = np.empty((max_len, d_model), dtype=dtype)
    if max_len == 0:
        return out
    first_block, first_offset = divmod(whole_start, BLOCK)
    phase = None
    if start != whole_start:
        phase = fraction_phase(start - whole_start, d_model, base, schedule)
    plan = _Plan(
        out,
        layout,
        frequency_pieces(d_model, base, schedule),
        _offsets(d_model, base, schedule),
        first_block,
        first_offset,
        phase,
    )
    # At least a few tasks per thread, so that a thread slowed down by another process is
    # covered by the others; at most _TASK_BYTES each, so the calls stay few and cheap.
    block_count = (whole_start + max_len - 1) // BLOCK - first_block + 1
    blocks_per_task = min(
        _TASK_BYTES // (BLOCK * d_model * dtype.itemsize), -(-block_count // (4 * threads))
    )
    tasks = _tasks(first_offset, max_len, max(1, blocks_per_task) * BLOCK)
    write = partial(_write_rows, plan)
    workers = min(threads, len(tasks)) if out.nbytes >= _PARALLEL_BYTES else 1
    if workers == 1:
        for task in tasks:
            write(task)
        return out
    # NumPy releases the GIL inside the multiply and the copies, so the threads overlap.
    with ThreadPoolExecutor(workers) as pool:
        for _ in pool.map(write, tasks):
            pass  # pool.map re-raises a task's exception here
    return out


def sinusoidal_rows(
    positions: np.ndarray, d_model: int, *, base: float = 10000.0, schedule: str = "paper"
) -> np.ndarray:
    """The float64 interleaved rows of sinusoidal_pe at integer positions, in the order given.

    Bit for bit the rows sinusoidal_pe computes (same block values, offsets and complex
    multiply), but at arbitrary positions: a twin can fetch the rows it compares without the
    table. positions: 1-D integers, each below 2**31 - 1 in magnitude.
    """
    d_model = validate.d_model(d_model)
    base = validate.base(base)
    schedule = validate.schedule(schedule)
    positions = np.asarray(positions)
    if positions.ndim != 1 or not np.issubdtype(positions.dtype, np.integer):
        raise ValueError(
            f"positions must be a 1-D integer array, got {positions.dtype} {positions.shape}"
        )
    positions = positions.astype(np.int64, copy=False)
    low, high = (int(positions.min()), int(positions.max())) if positions.size else (0, -1)
    if max(-low, high) + 2 > validate.MAX_POSITION:
        raise ValueError("positions must stay below 2**31 - 1 in magnitude")
    validate.fits_in_memory(
        3 * positions.size * d_model * 8, f"{positions.size} rows of width {d_model}"
    )
    block = positions // BLOCK
    offset = positions - block * BLOCK
    # Only the blocks the positions fall in need sin and cos, as in _block_values: their
    # whole span when it is short (no sort needed), else the distinct ones.
    if high // BLOCK - low // BLOCK < positions.size:
        starts, which = np.arange(low // BLOCK, high // BLOCK + 1), block - low // BLOCK
    else:
        starts, which = np.unique(block, return_inverse=True)
    angles = reduced_angles(
        starts.astype(np.float64)[:, None] * BLOCK, frequency_pieces(d_model, base, schedule)
    )
    values = np.empty(angles.shape, dtype=np.complex128)
    np.cos(angles, out=values.real)
    np.subtract(0.0, np.sin(angles), out=values.imag)
    out = np.empty((positions.size, d_model), dtype=np.float64)
    # sin + i·cos as complex128 is the interleaved row, as in _write_rows.
    np.multiply(
        np.take(values, which, axis=0),
        np.take(_offsets(d_model, base, schedule), offset, axis=0),
        out=out.view(np.complex128),
    )
    return out


def ramp_encoding(max_len: int, *, dtype: DTypeLike = np.float64) -> np.ndarray:
    """The linear ramp pos / max_len as a (max_len, 1) table: the module's 'simpler' alternative."""
    max_len = validate.max_len(max_len)
    dtype = validate.dtype(dtype)
    validate.fits_in_memory(max_len * (16 + dtype.itemsize), f"a ({max_len}, 1) table")
    return (np.arange(max_len, dtype=np.float64) / max(max_len, 1)).astype(dtype)[:, None]


def raw_index_encoding(max_len: int, *, dtype: DTypeLike = np.float64) -> np.ndarray:
    """The raw position index 0, 1, ..., max_len - 1 as a (max_len, 1) table."""
    max_len = validate.max_len(max_len)
    dtype = validate.dtype(dtype)
    validate.fits_in_memory(max_len * (8 + dtype.itemsize), f"a ({max_len}, 1) table")
    return np.arange(max_len, dtype=np.float64).astype(dtype)[:, None]
