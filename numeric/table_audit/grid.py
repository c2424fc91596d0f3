"""A 2-D table: row r of a grid H × W holds position (h, w) = (r // W, r mod W), some columns
encoding h and the others w (the sine-cosine embeddings of image patches: timm, PixArt, MAE).

Such a table is two 1-D tables side by side: the columns of h are constant over each block of W
rows, the columns of w repeat every W rows, exactly. Both facts are checked on every row; the two
1-D tables (H rows of the h columns, W rows of the w columns) are then audited on their own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.audit.rows import Rows

# The inner index's rows are kept in memory to check the repeats: at most this many values.
_MAX_KEPT_VALUES = 2**22
_HEAD_ROWS = 4096


@dataclass(frozen=True)
class Grid:
    """height H and width W; outer_cols encode h = r // W, inner_cols encode w = r mod W."""

    height: int
    width: int
    outer_cols: np.ndarray
    inner_cols: np.ndarray


def _candidates(head: np.ndarray, live: np.ndarray, n: int) -> list[int]:
    """Widths W worth checking: one more than the row where a column first changes."""
    changes = head[1:] != head[:-1]
    first = np.where(changes.any(axis=0), np.argmax(changes, axis=0), -1)[live]
    widths = sorted({int(f) + 1 for f in first if f >= 1})
    return [w for w in widths if 1 < w < n and n % w == 0][:4]


def _check(rows: Rows, width: int, live: np.ndarray) -> Grid | None:
    """The grid of this width, if every live column is constant over each block of W rows or
    repeats every W rows, and both kinds occur."""
    n, d = rows.shape
    if width * d > _MAX_KEPT_VALUES:
        return None
    first_block = rows[0:width]
    blockwise = np.ones(d, dtype=bool)
    periodic = np.ones(d, dtype=bool)
    for start in range(0, n, width):
        block = first_block if start == 0 else rows[start : start + width]
        blockwise &= np.all(block == block[0], axis=0)
        periodic &= np.all(block == first_block, axis=0)
        if not np.any((blockwise | periodic)[live]):
            return None
    if not np.all((blockwise | periodic)[live]):
        return None
    outer = np.flatnonzero(live & blockwise & ~periodic)
    inner = np.flatnonzero(live & periodic & ~blockwise)
    if len(outer) < 2 or len(inner) < 2:
        return None
    return Grid(n // width, width, outer, inner)


def find_grid(rows: Rows, valid: np.ndarray, live: np.ndarray) -> Grid | None:
    """The grid the table's rows follow (module doc), or None."""
    n = rows.shape[0]
    if n < 4 or not valid.all():
        return None
    head = rows[0 : min(n, rows.rows_within(_HEAD_ROWS))]
    for width in _candidates(head, live, n):
        found = _check(rows, width, live)
        if found is not None:
            return found
    return None


def sub_tables(rows: Rows, grid: Grid) -> tuple[np.ndarray, np.ndarray]:
    """(the H rows of the outer columns, the W rows of the inner columns), as read."""
    outer = rows[np.arange(0, rows.shape[0], grid.width)][:, grid.outer_cols]
    inner = rows[0 : grid.width][:, grid.inner_cols]
    return outer, inner


def blocks(grid: Grid, outer_pairs, inner_pairs, width: int) -> tuple[list[str], int | None]:
    """Each column's role ('sin(h)', 'cos(w)', ...) run-length coded: the roles of the blocks
    of equal columns, and their common width (None when they differ)."""
    role = [""] * width
    for cols, pairs, name in (
        (grid.outer_cols, outer_pairs, "h"),
        (grid.inner_cols, inner_pairs, "w"),
    ):
        for s, c in pairs:
            role[int(cols[s])] = f"sin({name})"
            role[int(cols[c])] = f"cos({name})"
    names, widths = [], []
    for r in role:
        if names and names[-1] == r:
            widths[-1] += 1
        else:
            names.append(r)
            widths.append(1)
    return names, (widths[0] if len(set(widths)) == 1 else None)
