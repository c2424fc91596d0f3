"""A table's rows as float64, a block at a time, in bounded memory, whatever holds them.

An audit reads a table many times: whole passes in blocks of rows and samples of rows. Rows
reads them from an in-memory array, a memory-mapped file (whose pages it hands back to the
kernel as it goes, so a file larger than memory is read in bounded memory) or raw bfloat16
words, and gives them as native float64, optionally cast to a narrower format first, with a
constant taken off and divided by a power of two (see numeric.table_audit.identify).
"""

from __future__ import annotations

import mmap
from collections.abc import Callable, Iterator

import numpy as np

# Bytes of float64 values per block of a whole pass: large enough to be fast, small enough
# that a few of them stay far below the audit's memory bound.
BLOCK_BYTES = 2**24
# Mapped bytes read between two returns of a file's pages to the kernel.
_DROP_BYTES = 2**26


def bfloat16_to_float32(words: np.ndarray) -> np.ndarray:
    """bfloat16 numbers given as their 16-bit words, as the float32 numbers they stand for
    (a bfloat16 is the top half of a float32)."""
    return (np.asarray(words, dtype=np.uint32) << np.uint32(16)).view(np.float32)


class Rows:
    """Rows of a 2-D table as float64 copies: rows[i], rows[a:b] or rows[index_array].

    array: the table (an ndarray, an np.memmap, or 16-bit words when stored is 'bfloat16');
    stored: the format the file holds ('float64', 'float32', 'float16' or 'bfloat16');
    cast: a narrower NumPy float type to round every value to (values written in decimal
    that stand for float32 numbers); constant: subtracted from every value; unit: every value
    is divided by it (a power of two, so exactly).
    """

    def __init__(
        self,
        array: np.ndarray,
        stored: str | None = None,
        *,
        cast: type | None = None,
        constant: float = 0.0,
        unit: float = 1.0,
    ) -> None:
        self.array = array
        self.shape: tuple[int, int] = (int(array.shape[0]), int(array.shape[1]))
        self.stored = stored or np.dtype(array.dtype).newbyteorder("=").name
        self.cast = cast
        self.constant = float(constant)
        self.unit = float(unit)
        self._mapping = _droppable_mapping(array)
        self._since_drop = 0

    def with_(self, **changes: object) -> Rows:
        """The same table read with other cast, constant or unit."""
        options = {"cast": self.cast, "constant": self.constant, "unit": self.unit}
        options.update(changes)
        return Rows(self.array, self.stored, **options)  # type: ignore[arg-type]

    @property
    def plain(self) -> bool:
        """Whether the values are read as stored (no cast, constant or unit)."""
        return self.cast is None and self.constant == 0.0 and self.unit == 1.0

    def raw(self, index: object) -> np.ndarray:
        """The rows as stored, before any cast, constant or unit, as float64 (bfloat16 exact)."""
        block = np.asarray(self.array[index])
        self._count(block.nbytes)
        if self.stored == "bfloat16":
            return bfloat16_to_float32(block).astype(np.float64)
        return block.astype(np.float64)

    def __getitem__(self, index: object) -> np.ndarray:
        values = self.raw(index)
        if self.cast is not None:
            values = values.astype(self.cast).astype(np.float64)
        if self.constant:
            values -= self.constant
        if self.unit != 1.0:
            values *= 1.0 / self.unit
        return values

    def block_rows(self, columns: int | None = None) -> int:
        """Rows per block of a whole pass."""
        return max(1, BLOCK_BYTES // (8 * max(columns or self.shape[1], 1)))

    def blocks(self, raw: bool = False) -> Iterator[tuple[int, int, np.ndarray]]:
        """(a, b, rows a .. b-1) over the whole table, in order."""
        n, step = self.shape[0], self.block_rows()
        read: Callable[[object], np.ndarray] = self.raw if raw else self.__getitem__
        for a in range(0, n, step):
            b = min(n, a + step)
            yield a, b, read(slice(a, b))

    def _count(self, nbytes: int) -> None:
        if self._mapping is None:
            return
        self._since_drop += nbytes
        if self._since_drop >= _DROP_BYTES:
            # Read-only file pages: dropping them loses nothing, and they are read again
            # from the page cache if needed.
            self._mapping.madvise(mmap.MADV_DONTNEED)
            self._since_drop = 0


def _droppable_mapping(array: np.ndarray) -> mmap.mmap | None:
    """The read-only file mapping behind array, if any (its pages may be dropped safely)."""
    mapping = getattr(array, "_mmap", None)
    if (
        isinstance(array, np.memmap)
        and getattr(array, "mode", None) == "r"
        and isinstance(mapping, mmap.mmap)
        and hasattr(mmap, "MADV_DONTNEED")
    ):
        return mapping
    return None
