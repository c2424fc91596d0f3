"""A table's rows as float64, a block at a time, in bounded memory, whatever holds them.

An audit reads a table many times: whole passes in blocks of rows and samples of rows. Rows
reads them from an in-memory array, or from the file behind a memory-mapped one with plain
reads (os.pread), so a file larger than memory is read in bounded memory: mapping its pages
instead would count them all in the process's memory, and a kernel that maps files in 2 MiB
pages maps most of a file to read a few hundred rows spread over it. Values come as native
float64 (raw bfloat16 words as the float32 numbers they stand for), optionally cast to a
narrower format first, with a constant taken off and divided by a power of two (see
numeric.table_audit.identify).
"""

from __future__ import annotations

import mmap
import os
from collections.abc import Callable, Iterator

import numpy as np

from numeric.audit.errors import UnreadableFileError
from numeric.audit.limits import MAX_FORTRAN_BYTES, mib

# Bytes of float64 values per block of a whole pass, and per sample of rows: large enough to
# be fast, small enough that a few of them stay far below the audit's memory bound.
BLOCK_BYTES = 2**24
_MIN_SAMPLE = 16
# Rows at most this many bytes apart are read in one call.
_MERGED_BYTES = 2**15


def column_index(cols: np.ndarray) -> slice | np.ndarray:
    """cols as a slice when they are evenly spaced and increasing (a view, no copy), else as is."""
    if len(cols) > 1 and np.all(np.diff(cols) == cols[1] - cols[0]) and cols[1] > cols[0]:
        return slice(int(cols[0]), int(cols[-1]) + 1, int(cols[1] - cols[0]))
    if len(cols) == 1:
        return slice(int(cols[0]), int(cols[0]) + 1)
    return cols


def bfloat16_to_float32(words: np.ndarray) -> np.ndarray:
    """bfloat16 numbers given as their 16-bit words, as the float32 numbers they stand for
    (a bfloat16 is the top half of a float32)."""
    return (np.asarray(words, dtype=np.uint32) << np.uint32(16)).view(np.float32)


class _File:
    """The rows of a C-ordered table stored in a file from byte `offset`, read with os.pread."""

    def __init__(self, path: str, offset: int, dtype: np.dtype, shape: tuple[int, int]) -> None:
        self.path, self.offset, self.dtype, self.shape = path, offset, dtype, shape
        self.row_bytes = shape[1] * dtype.itemsize
        self._fd: int | None = None

    def _read(self, first: int, count: int) -> bytes:
        if self._fd is None:
            self._fd = os.open(self.path, os.O_RDONLY)
        nbytes = count * self.row_bytes
        data = os.pread(self._fd, nbytes, self.offset + first * self.row_bytes)
        if len(data) != nbytes:
            raise UnreadableFileError(
                f"{os.path.basename(self.path)} was cut short while it was read"
            )
        return data

    def rows(self, index: object) -> np.ndarray:
        n = self.shape[0]
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step != 1:
                return self.rows(np.arange(start, stop, step))
            count = max(stop - start, 0)
            data = self._read(start, count) if count else b""
            return np.frombuffer(data, dtype=self.dtype).reshape(count, self.shape[1])
        if np.isscalar(index):
            return self.rows(np.array([index]))[0]
        index = np.asarray(index, dtype=np.int64)
        index = np.where(index < 0, index + n, index)
        if index.size and (index.min() < 0 or index.max() >= n):
            raise IndexError(f"row index out of range for a table of {n} rows")
        out = np.empty((len(index), self.shape[1]), dtype=self.dtype)
        if len(index) == 0:
            return out
        order = np.argsort(index, kind="stable")
        wanted = index[order]
        # Rows close together are read in one call, the rows between them included: a call
        # costs more than reading a few kilobytes.
        gap = max(1, _MERGED_BYTES // self.row_bytes)
        starts = [0, *(np.flatnonzero(np.diff(wanted) > gap) + 1).tolist()]
        ends = [*starts[1:], len(wanted)]
        for a, b in zip(starts, ends, strict=True):
            first, last = int(wanted[a]), int(wanted[b - 1])
            data = np.frombuffer(self._read(first, last - first + 1), dtype=self.dtype)
            span = data.reshape(last - first + 1, self.shape[1])
            out[order[a:b]] = span[wanted[a:b] - first]
        return out

    def __del__(self) -> None:
        if self._fd is not None:
            os.close(self._fd)


def _file_behind(array: np.ndarray) -> _File | None:
    """The file a memory-mapped table reads from, when it is a whole C-ordered map of it."""
    if not (isinstance(array, np.memmap) and isinstance(array.base, mmap.mmap)):
        return None
    filename = getattr(array, "filename", None)
    if filename is None or not array.flags.c_contiguous:
        return None
    return _File(filename, int(array.offset), array.dtype, (array.shape[0], array.shape[1]))


def _in_row_order(array: np.ndarray, what: str) -> np.ndarray:
    """A memory-mapped table stored column by column (Fortran order), copied into row order
    in memory when that is within MAX_FORTRAN_BYTES (its rows are spread over the whole file)."""
    if not (isinstance(array, np.memmap) and not array.flags.c_contiguous):
        return array
    if array.nbytes > MAX_FORTRAN_BYTES:
        raise UnreadableFileError(
            f"{what} is stored column by column (Fortran order) and takes {array.nbytes} bytes; "
            f"such a table is read only up to {mib(MAX_FORTRAN_BYTES)}: save it in row order "
            "with np.save(path, np.ascontiguousarray(table))"
        )
    return np.ascontiguousarray(array)


class Rows:
    """Rows of a 2-D table as float64 copies: rows[i], rows[a:b] or rows[index_array].

    array: the table (an ndarray, an np.memmap, or 16-bit words when stored is 'bfloat16');
    stored: the format the file holds ('float64', 'float32', 'float16' or 'bfloat16');
    cast: a narrower NumPy float type to round every value to (values written in decimal
    that stand for float32 numbers); constant: subtracted from every value; unit: every value
    is divided by it (a power of two, so exactly); what: how error messages name the table.
    """

    def __init__(
        self,
        array: np.ndarray,
        stored: str | None = None,
        *,
        cast: type | None = None,
        constant: float = 0.0,
        unit: float = 1.0,
        what: str = "table",
    ) -> None:
        self.array = _in_row_order(array, what)
        self.shape: tuple[int, int] = (int(array.shape[0]), int(array.shape[1]))
        self.stored = stored or np.dtype(array.dtype).newbyteorder("=").name
        self.cast = cast
        self.constant = float(constant)
        self.unit = float(unit)
        self.what = what
        self._file = _file_behind(self.array)

    def with_(self, **changes: object) -> Rows:
        """The same table read with other cast, constant or unit."""
        options = {"cast": self.cast, "constant": self.constant, "unit": self.unit}
        options.update(changes)
        rows = Rows.__new__(Rows)
        rows.__dict__.update(self.__dict__)
        for name, value in options.items():
            setattr(rows, name, value)
        return rows

    def stored_values(self, index: object) -> np.ndarray:
        """The rows as stored, in a native float type that holds them exactly (bfloat16 as
        float32), before any cast, constant or unit."""
        block = self._file.rows(index) if self._file is not None else np.asarray(self.array[index])
        if self.stored == "bfloat16":
            return bfloat16_to_float32(block)
        return block if block.dtype.isnative else block.astype(block.dtype.newbyteorder("="))

    def raw(self, index: object) -> np.ndarray:
        """The rows as stored, before any cast, constant or unit, as float64 (bfloat16 exact)."""
        return self.stored_values(index).astype(np.float64)

    def __getitem__(self, index: object) -> np.ndarray:
        values = self.raw(index)
        if self.cast is not None:
            values = values.astype(self.cast).astype(np.float64)
        if self.constant:
            values -= self.constant
        if self.unit != 1.0:
            values *= 1.0 / self.unit
        return values

    def rows_within(self, count: int) -> int:
        """count, or fewer rows when count rows of this table would pass BLOCK_BYTES."""
        return max(_MIN_SAMPLE, min(count, BLOCK_BYTES // (8 * max(self.shape[1], 1))))

    def block_rows(self, columns: int | None = None) -> int:
        """Rows per block of a whole pass."""
        return max(1, BLOCK_BYTES // (8 * max(columns or self.shape[1], 1)))

    def blocks(self, stored: bool = False) -> Iterator[tuple[int, int, np.ndarray]]:
        """(a, b, rows a .. b-1) over the whole table, in order: as read, or as stored."""
        n, step = self.shape[0], self.block_rows()
        read: Callable[[object], np.ndarray] = self.stored_values if stored else self.__getitem__
        for a in range(0, n, step):
            b = min(n, a + step)
            yield a, b, read(slice(a, b))
