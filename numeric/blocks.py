"""Row blocks: the twins walk a long table a block of rows at a time, so memory stays small."""

from __future__ import annotations

import math
from collections.abc import Iterator

from numeric import validate

# Rows per block: the temporaries of a check on one block of a d_model = 1024 table stay a few MiB.
CHUNK_ROWS = 4096
# Entries per block: wider tables get fewer rows, so a block stays 32 MiB of float64.
CHUNK_ENTRIES = CHUNK_ROWS * 1024


def block_rows(width: int) -> int:
    """Rows per block for a table width entries wide: CHUNK_ROWS, fewer past 1024 columns."""
    return max(1, min(CHUNK_ROWS, CHUNK_ENTRIES // max(width, 1)))


def row_blocks(start: int, stop: int, rows: int = CHUNK_ROWS) -> Iterator[tuple[int, int]]:
    """The half-open row ranges [a, b) that cover [start, stop), each at most rows long."""
    if rows < 1:
        raise ValueError(f"rows must be at least 1, got {rows}")
    for a in range(start, stop, rows):
        yield a, min(a + rows, stop)


def check_positions(max_len: int, start: float = 0.0) -> None:
    """Raise the ValueError sinusoidal_pe(max_len, ..., start=start) raises for positions out of
    range, before a streamed table computes its first block (it is never built whole)."""
    if abs(math.floor(start)) + max_len + 1 > validate.MAX_POSITION:
        raise ValueError(
            "positions start .. start + max_len must stay below 2**31 in magnitude, "
            f"got start={float(start)}"
        )
