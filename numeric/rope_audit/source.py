"""A cos/sin cache as the audit reads it: either array or both, the positions of its rows, and
the number format its values carry, read a block of rows at a time.

The arrays may be NumPy arrays, memory-mapped files or any object with `shape` whose rows can
be indexed by a slice or an index array (the sinusoidal audit's row readers); values come out
as float64. The format the values carry is read from the values: a float32 array whose values
are all bfloat16 numbers carries bfloat16.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from numeric.audit.errors import BadShapeError, BadValueError, InputError
from numeric.audit.precision import decimal_precision, sample_values
from numeric.rope.floats import round_to

_BLOCK_BYTES = 2**24  # float64 bytes per array per block of a whole pass
# A whole pass reads every row up to this many; a longer cache is read in evenly spread runs of
# rows adding up to this many (the first and last rows included), so no audit runs unbounded.
MAX_PASS_ROWS = 2**21
_SAMPLE_ROWS = 4096  # rows read to tell the format before a whole pass confirms it
MAX_POSITION = 2**31
_FORMATS = ("bfloat16", "float16", "float32", "float64")


def _dtype_name(array: object) -> str:
    stored = getattr(array, "stored", None)
    if isinstance(stored, str):
        return stored
    return np.dtype(array.dtype).newbyteorder("=").name  # type: ignore[attr-defined]


def _read(array: object, index: object, native: bool = False) -> np.ndarray:
    values = array[index]  # type: ignore[index]
    if native and isinstance(values, np.ndarray) and values.dtype.kind == "f":
        return np.asarray(values)
    return np.asarray(values, dtype=np.float64)


def _holds(values: np.ndarray, fmt: str) -> bool:
    """Whether every value is exactly a number of format fmt."""
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.array_equal(round_to(values, fmt).astype(np.float64), values))


@dataclass
class CacheSource:
    """cos, sin: (rows, columns) arrays, one of them possibly None; positions: (rows,) int64,
    the position each row was computed at; what: how messages name the cache."""

    cos: object | None
    sin: object | None
    positions: np.ndarray
    what: str = "cache"

    @property
    def arrays(self) -> tuple[object, ...]:
        return tuple(a for a in (self.cos, self.sin) if a is not None)

    @property
    def rows(self) -> int:
        return int(self.arrays[0].shape[0])  # type: ignore[attr-defined]

    @property
    def width(self) -> int:
        return int(self.arrays[0].shape[1])  # type: ignore[attr-defined]

    @property
    def stored(self) -> str:
        """The widest dtype the arrays are stored in."""
        names = [_dtype_name(a) for a in self.arrays]
        return max(names, key=lambda k: _FORMATS.index(k) if k in _FORMATS else 99)

    def block_rows(self) -> int:
        return max(1, _BLOCK_BYTES // (8 * max(self.width, 1)))

    def pass_slices(self, rows_per_block: int | None = None) -> list[slice]:
        """The blocks of rows a whole pass reads: all of them up to MAX_PASS_ROWS rows, else
        evenly spread runs adding up to about that many."""
        n, step = self.rows, rows_per_block or self.block_rows()
        if n <= MAX_PASS_ROWS:
            return [slice(a, min(n, a + step)) for a in range(0, n, step)]
        runs = max(2, MAX_PASS_ROWS // step)
        starts = np.unique(np.linspace(0, n - step, runs).round().astype(np.int64))
        return [slice(int(a), int(a) + step) for a in starts]

    def passed_rows(self) -> int:
        """How many rows a whole pass reads."""
        return sum(s.stop - s.start for s in self.pass_slices())

    def take(
        self, index: object, native: bool = False
    ) -> tuple[np.ndarray | None, np.ndarray | None]:
        """(cos, sin) of the rows index (a slice or an index array), None where absent: float64,
        or with native, NumPy float arrays in their own dtype (exact comparisons are cheaper)."""
        return (
            None if self.cos is None else _read(self.cos, index, native),
            None if self.sin is None else _read(self.sin, index, native),
        )

    def blocks(
        self, native: bool = False
    ) -> Iterator[tuple[int, int, np.ndarray | None, np.ndarray | None]]:
        """(a, b, cos rows a .. b − 1, sin rows a .. b − 1) over a whole pass, in order."""
        for rows in self.pass_slices():
            cos, sin = self.take(rows, native)
            yield rows.start, rows.stop, cos, sin

    def precision(self, sample: tuple[np.ndarray | None, ...] | None = None) -> str:
        """The narrowest of bfloat16, float16, float32 and float64 that holds every value:
        tried on a sample of rows (sample: their (cos, sin), when already read), then
        confirmed on a whole pass for a format narrower than the stored one; for float64
        values that none holds, the format they are written from in decimal, if any."""
        stored = self.stored
        narrower = [f for f in _FORMATS if _FORMATS.index(f) < _FORMATS.index(stored)]
        if stored == "float16":
            narrower = []
        if sample is None:
            sample = self.take(slice(0, None, max(1, self.rows // _SAMPLE_ROWS)))
        sample = [v for v in sample if v is not None]
        for fmt in narrower:
            if all(_holds(v, fmt) for v in sample) and all(
                _holds(v, fmt) for _, _, c, s in self.blocks() for v in (c, s) if v is not None
            ):
                return fmt
        if stored == "float64":
            # Text holds decimals: float32 values written with the digits that identify them
            # (%.9g) are float32, not float64 (numeric.audit.precision.decimal_precision).
            values = sample_values(np.concatenate([np.asarray(v).ravel() for v in sample]))
            written, cast = decimal_precision(values)
            if cast is not None:
                return written
        return stored


def _check_array(array: object, name: str) -> None:
    shape = getattr(array, "shape", None)
    if shape is None or len(shape) != 2:
        raise BadShapeError(f"{name} must be 2-D (positions, rotary columns), got shape {shape}")
    if shape[0] < 2 or shape[1] < 1:
        raise BadShapeError(f"{name} must have at least 2 rows and 1 column, got shape {shape}")
    kind = _dtype_name(array)
    if kind not in _FORMATS:
        raise BadShapeError(
            f"{name} has dtype {kind}; only float16, bfloat16, float32 or float64 are allowed"
        )


def check_positions(positions: object, rows: int) -> np.ndarray:
    """positions as (rows,) int64, strictly increasing, below 2**31 in size; None means 0 .. rows − 1."""
    if positions is None:
        return np.arange(rows, dtype=np.int64)
    found = np.asarray(positions)
    if found.ndim != 1 or found.shape[0] != rows:
        raise BadShapeError(
            f"positions must be 1-D with one entry per row ({rows}), got shape {found.shape}"
        )
    if found.dtype.kind == "f":
        if not np.all(np.isfinite(found)) or not np.array_equal(found, np.round(found)):
            raise BadValueError("positions must be whole numbers")
    elif found.dtype.kind not in "iu":
        raise BadShapeError(f"positions must be integers, got dtype {found.dtype}")
    found = found.astype(np.int64)
    if found.size and int(np.abs(found).max()) >= MAX_POSITION:
        raise BadValueError("positions must stay below 2**31 in magnitude")
    if np.any(np.diff(found) <= 0):
        raise BadValueError("positions must be strictly increasing (one row per position)")
    return found


def cache_source(
    cos: object | None, sin: object | None, positions: object = None, what: str = "cache"
) -> CacheSource:
    """Check the arrays' shapes and dtypes (not their values yet) and the positions; what: the
    cache's name, which messages start with (unless it is the default "cache")."""
    try:
        return _checked(cos, sin, positions, what)
    except InputError as error:
        if what == "cache":
            raise
        raise type(error)(f"{what}: {error}") from None


def _checked(cos: object | None, sin: object | None, positions: object, what: str) -> CacheSource:
    if cos is None and sin is None:
        raise BadValueError("give cos, sin or both")
    # Lists and other array-likes become arrays; row readers (with shape) are read as they are.
    cos, sin = (a if a is None or hasattr(a, "shape") else np.asarray(a) for a in (cos, sin))
    for array, name in ((cos, "cos"), (sin, "sin")):
        if array is not None:
            _check_array(array, name)
    if cos is not None and sin is not None and tuple(cos.shape) != tuple(sin.shape):  # type: ignore[attr-defined]
        raise BadShapeError(
            f"cos and sin must have the same shape, got {tuple(cos.shape)} and {tuple(sin.shape)}"  # type: ignore[attr-defined]
        )
    source = CacheSource(cos, sin, np.empty(0, dtype=np.int64), what)
    source.positions = check_positions(positions, source.rows)
    return source
