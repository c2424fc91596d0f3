"""One pass over a table's rows: every value finite, the largest magnitude, the format the values
fit, which rows and columns are non-zero, and which rows repeat an earlier one.

Repeats are found by a 64-bit hash per row (8 bytes a row), and rows with equal hashes are then
compared value by value, a block at a time, so the pass needs memory for a block, never for the
table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.audit.load import first_non_finite, non_finite_error
from numeric.audit.precision import fits, narrower_formats
from numeric.audit.rows import Rows

_HASH_SEED = 20170612
_HASHED_COLUMNS = 64


@dataclass(frozen=True)
class Scan:
    """What one pass over the rows found (see the module doc). valid: per row, not all zeros;
    live: per column, not all zeros; fitting: per narrower format, whether it holds every value;
    identical: the first two consecutive non-zero rows that are equal; distinct: the number of
    distinct non-zero rows."""

    max_abs: float
    fitting: dict[str, bool]
    valid: np.ndarray
    live: np.ndarray
    identical: tuple[int, int] | None
    distinct: int


def _hashes(block: np.ndarray, multipliers: np.ndarray, columns: slice) -> np.ndarray:
    """A hash of each row from some of its columns (equal rows hash alike; rows that share a
    hash are compared in full afterwards)."""
    # + 0.0 turns -0.0 into 0.0, so rows equal by value hash alike.
    bits = (block[:, columns].astype(np.float64) + 0.0).view(np.uint64)
    bits ^= bits >> np.uint64(29)
    return (bits * multipliers).sum(axis=1, dtype=np.uint64)


def _distinct(rows: Rows, hashes: np.ndarray, valid: np.ndarray) -> int:
    """Distinct non-zero rows: distinct hashes, each group of equal hashes checked by value
    against its first row (a member that differs counts as one more distinct row)."""
    index = np.flatnonzero(valid)
    if len(index) == 0:
        return 0
    _, first, inverse = np.unique(hashes[index], return_index=True, return_inverse=True)
    distinct = len(first)
    repeated = np.flatnonzero(np.arange(len(index)) != first[inverse])
    step = rows.block_rows() // 2
    for a in range(0, len(repeated), step):
        members = repeated[a : a + step]
        same = np.all(rows.raw(index[members]) == rows.raw(index[first[inverse[members]]]), axis=1)
        distinct += int(np.sum(~same))
    return distinct


def _first_repeat(
    block: np.ndarray, a: int, valid: np.ndarray, previous: np.ndarray | None
) -> tuple[int, int] | None:
    """The first row of block (rows a, a+1, ...) equal to the row before it, both non-zero."""
    if previous is not None and valid[a - 1] and valid[a] and np.array_equal(previous[0], block[0]):
        return a - 1, a
    same = np.all(block[1:] == block[:-1], axis=1) & valid[a : a + len(block) - 1]
    same &= valid[a + 1 : a + len(block)]
    if same.any():
        r = a + int(np.argmax(same))
        return r, r + 1
    return None


def scan(rows: Rows, what: str = "table") -> Scan:
    """One pass over rows as stored (see the module doc); ValueError at the first NaN or inf."""
    n, width = rows.shape
    candidates = list(narrower_formats(rows.stored))
    fitting = dict.fromkeys(candidates, True)
    valid = np.zeros(n, dtype=bool)
    live = np.zeros(width, dtype=bool)
    hashes = np.zeros(n, dtype=np.uint64)
    columns = slice(None, None, max(1, width // _HASHED_COLUMNS))
    hashed = len(range(width)[columns])
    multipliers = np.random.default_rng(_HASH_SEED).integers(1, 2**63, hashed, dtype=np.uint64) | 1
    max_abs, identical, previous = 0.0, None, None
    for a, b, block in rows.blocks(stored=True):
        found = first_non_finite(block)
        if found is not None:
            r, c = found
            raise non_finite_error(what, block[r, c], a + r, c)
        max_abs = max(max_abs, float(np.abs(block).max()))
        for name in candidates:
            if fitting[name] and not fits(block, name):
                fitting[name] = False
        nonzero = block != 0
        valid[a:b] = nonzero.any(axis=1)
        live |= nonzero.any(axis=0)
        hashes[a:b] = _hashes(block, multipliers, columns)
        if identical is None:
            identical = _first_repeat(block, a, valid, previous)
        previous = block[-1:]
    return Scan(
        max_abs=max_abs,
        fitting=fitting,
        valid=valid,
        live=live,
        identical=identical,
        distinct=_distinct(rows, hashes, valid),
    )


def nonzero_rows_and_columns(rows: Rows) -> tuple[np.ndarray, np.ndarray]:
    """Per row and per column of the values as read (after a constant is taken off): not all zero."""
    valid = np.zeros(rows.shape[0], dtype=bool)
    live = np.zeros(rows.shape[1], dtype=bool)
    for a, b, block in rows.blocks():
        nonzero = block != 0
        valid[a:b] = nonzero.any(axis=1)
        live |= nonzero.any(axis=0)
    return valid, live
