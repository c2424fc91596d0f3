"""Read an encoding table from a file (.npy, .npz, .csv/.txt, .safetensors) without running code
from it, in bounded memory.

open_table gives the table's rows to read a block at a time (numeric.audit.rows), which
is how the audit reads any file; load_table gives a NumPy array; array_keys lists the arrays of
an .npz or .safetensors file without reading them. Every bad file raises an InputError
(numeric.audit.errors, a ValueError) with a one-line message naming the file and what is wrong.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from numeric.audit.errors import BadShapeError, BadValueError, UnreadableFileError
from numeric.audit.limits import MAX_COLUMNS
from numeric.audit.npy_file import npz_keys, read_npy, read_npz
from numeric.audit.regular_file import check_regular_file
from numeric.audit.rows import Rows, bfloat16_to_float32
from numeric.audit.safetensors_file import read_header, read_safetensors
from numeric.audit.text_file import read_text

SUFFIXES = (".npy", ".npz", ".csv", ".txt", ".safetensors")
KEYED = (".npz", ".safetensors")  # files holding named arrays
_FLOATS = "only float16, float32, bfloat16 or float64 numbers are allowed"


def check_array(table: object, what: str = "table") -> np.ndarray:
    """table as a non-empty 2-D array of float16/32/64 or bfloat16 numbers (any byte order),
    else ValueError naming what is wrong. Its values are not read."""
    if not isinstance(table, np.ndarray):
        table = np.asarray(table)
    if table.dtype == object:
        raise BadShapeError(f"{what} holds Python objects; {_FLOATS}")
    if table.ndim != 2:
        raise BadShapeError(f"{what} must be 2-D (positions, dims), got shape {table.shape}")
    if table.size == 0:
        raise BadShapeError(
            f"{what} is empty (shape {table.shape}); it needs at least one row and column"
        )
    if table.shape[1] > MAX_COLUMNS:
        raise BadShapeError(
            f"{what} has {table.shape[1]} columns; tables of at most {MAX_COLUMNS} are read"
        )
    if table.dtype.name != "bfloat16" and (
        table.dtype.kind != "f" or table.dtype.itemsize not in (2, 4, 8)
    ):
        raise BadShapeError(f"{what} has dtype {table.dtype}; {_FLOATS}")
    return table


def first_non_finite(block: np.ndarray) -> tuple[int, int] | None:
    """(row, column) of the first NaN or infinity in block, or None."""
    finite = np.isfinite(block)
    if finite.all():
        return None
    r, c = np.argwhere(~finite)[0]
    return int(r), int(c)


def non_finite_error(what: str, value: float, row: int, column: int) -> BadValueError:
    return BadValueError(f"{what} has a non-finite value ({value}) at row {row}, column {column}")


def check_table(table: object, what: str = "table") -> np.ndarray:
    """table if it is a non-empty 2-D array of finite float16/32/64 (or bfloat16) numbers, else
    ValueError; a memory-mapped table is checked a block of rows at a time."""
    table = check_array(table, what)
    rows = as_rows(table, what)
    for a, _, block in rows.blocks(stored=True):
        found = first_non_finite(block)
        if found is not None:
            r, c = found
            raise non_finite_error(what, block[r, c], a + r, c)
    return table


def as_rows(table: np.ndarray | Rows, what: str = "table") -> Rows:
    """The rows of an array (or Rows as given); a bfloat16 array is read as its 16-bit words."""
    if isinstance(table, Rows):
        return table
    if table.dtype.name == "bfloat16":
        return Rows(table.view(np.uint16), "bfloat16", what=what)
    return Rows(table, what=what)


def _open(path: Path, key: str | None) -> tuple[np.ndarray, str | None]:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise UnreadableFileError(
            f"{path.name}: unsupported file type {suffix!r}; use one of {', '.join(SUFFIXES)}"
        )
    check_regular_file(path)
    if key is not None and suffix not in KEYED:
        raise BadValueError(
            f"key= (--key) applies to .npz and .safetensors files only, not {suffix}"
        )
    try:
        if suffix == ".npy":
            return read_npy(path), None
        if suffix == ".npz":
            return read_npz(path, key), None
        if suffix == ".safetensors":
            return read_safetensors(path, key)
        return read_text(path), None
    except OSError as error:  # the file went away, or the disk failed, while it was read
        raise UnreadableFileError(f"{path}: cannot be read ({error.strerror or error})") from None


def array_keys(path: str | Path) -> frozenset[str]:
    """The names of the arrays in an .npz or .safetensors file, read from its directory or
    header alone (no array is read); empty for other files."""
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in KEYED:
        return frozenset()
    check_regular_file(path)
    if suffix == ".npz":
        return npz_keys(path)
    return frozenset(read_header(path)[0])


def open_table(path: str | Path, *, key: str | None = None) -> Rows:
    """The rows of the table in a file, to be read a block at a time (never whole).

    The file's kind, header and size are checked here; its values (NaN, infinity) as they are
    read. key picks an array in a .npz or .safetensors file.
    """
    path = Path(path)
    array, stored = _open(path, key)
    check_array(array if stored != "bfloat16" else array.view(np.float16), path.name)
    return Rows(array, stored, what=path.name)


def load_table(path: str | Path, *, key: str | None = None) -> np.ndarray:
    """Read a 2-D table of finite floats from path; key picks an array in a .npz or .safetensors file.

    .npy and .safetensors are memory-mapped (never read whole); .csv/.txt take commas,
    semicolons, tabs or spaces; bfloat16 safetensors come back as exact float32. Any bad file
    raises ValueError with a one-line message.
    """
    path = Path(path)
    array, stored = _open(path, key)
    if stored == "bfloat16":
        array = bfloat16_to_float32(array)
    return check_table(array, path.name)
