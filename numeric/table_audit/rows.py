"""Row facts of a table: which rows and columns are non-zero, evenly spread samples, repeats."""

from __future__ import annotations

import numpy as np


def nonzero_rows(table: np.ndarray, chunk: int = 8192) -> np.ndarray:
    """A boolean per row: True where the row has a non-zero entry."""
    return np.concatenate(
        [np.any(table[a : a + chunk] != 0, axis=1) for a in range(0, table.shape[0], chunk)]
    )


def nonzero_columns(table: np.ndarray, chunk: int = 8192) -> np.ndarray:
    """A boolean per column: True where the column has a non-zero entry."""
    found = np.zeros(table.shape[1], dtype=bool)
    for a in range(0, table.shape[0], chunk):
        found |= np.any(table[a : a + chunk] != 0, axis=0)
    return found


def sample_rows(valid: np.ndarray, stop: int, count: int) -> np.ndarray:
    """Up to count indices of valid rows below stop, evenly spread (all of them when few)."""
    rows = np.flatnonzero(valid[:stop])
    if len(rows) <= count:
        return rows
    return rows[np.unique(np.linspace(0, len(rows) - 1, count).round().astype(np.int64))]


def first_identical_rows(
    table: np.ndarray, valid: np.ndarray, chunk: int = 8192
) -> tuple[int, int] | None:
    """The first two consecutive non-zero rows that are equal, or None."""
    n = table.shape[0]
    for a in range(0, n - 1, chunk):
        b = min(a + chunk + 1, n)
        block = np.asarray(table[a:b])
        same = np.all(block[1:] == block[:-1], axis=1) & valid[a + 1 : b] & valid[a : b - 1]
        if same.any():
            r = a + int(np.argmax(same))
            return r, r + 1
    return None


def column_index(cols: np.ndarray) -> slice | np.ndarray:
    """cols as a slice when they are evenly spaced and increasing (a view, no copy), else as is."""
    if len(cols) > 1 and np.all(np.diff(cols) == cols[1] - cols[0]) and cols[1] > cols[0]:
        return slice(int(cols[0]), int(cols[-1]) + 1, int(cols[1] - cols[0]))
    return cols
