"""Read an encoding table from a file (.npy, .npz, .csv/.txt, .safetensors) without running code
from it, in bounded memory.

open_table gives the table's rows to read a block at a time (numeric.table_audit.source), which
is how the audit reads any file; load_table gives a NumPy array. Every bad file raises a
ValueError with a one-line message naming the file and what is wrong with it.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import numpy as np

from numeric.table_audit.limits import MAX_COLUMNS
from numeric.table_audit.npy_file import read_npy, read_npz
from numeric.table_audit.safetensors_file import read_safetensors
from numeric.table_audit.source import Rows, bfloat16_to_float32
from numeric.table_audit.text_file import read_text

SUFFIXES = (".npy", ".npz", ".csv", ".txt", ".safetensors")
_FLOATS = "only float16, float32, bfloat16 or float64 numbers are allowed"


def _kind(mode: int) -> str | None:
    """What a file that is not a regular file is, in words."""
    for test, words in (
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a named pipe (FIFO)"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ):
        if test(mode):
            return words
    return None if stat.S_ISREG(mode) else "not a regular file"


def check_regular_file(path: Path) -> None:
    """ValueError unless path names a regular file (or a symbolic link to one) we may read."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if path.is_symlink():
            raise ValueError(
                f"{path}: a symbolic link to {os.readlink(path)}, which does not exist"
            ) from None
        raise ValueError(f"{path}: no such file") from None
    except PermissionError:
        raise ValueError(f"{path}: permission denied") from None
    except OSError as error:
        raise ValueError(f"{path}: cannot be read ({error.strerror or error})") from None
    kind = _kind(mode)
    if kind is not None:
        link = f"a symbolic link to {os.path.realpath(path)}, " if path.is_symlink() else ""
        raise ValueError(f"{path}: {link}{kind}, not a file; a table is read from a regular file")
    if not os.access(path, os.R_OK):
        raise ValueError(f"{path}: permission denied")


def check_array(table: object, what: str = "table") -> np.ndarray:
    """table as a non-empty 2-D array of float16/32/64 or bfloat16 numbers (any byte order),
    else ValueError naming what is wrong. Its values are not read."""
    if not isinstance(table, np.ndarray):
        table = np.asarray(table)
    if table.dtype == object:
        raise ValueError(f"{what} holds Python objects; {_FLOATS}")
    if table.ndim != 2:
        raise ValueError(f"{what} must be 2-D (positions, dims), got shape {table.shape}")
    if table.size == 0:
        raise ValueError(
            f"{what} is empty (shape {table.shape}); it needs at least one row and column"
        )
    if table.shape[1] > MAX_COLUMNS:
        raise ValueError(
            f"{what} has {table.shape[1]} columns; tables of at most {MAX_COLUMNS} are read"
        )
    if table.dtype.name != "bfloat16" and (
        table.dtype.kind != "f" or table.dtype.itemsize not in (2, 4, 8)
    ):
        raise ValueError(f"{what} has dtype {table.dtype}; {_FLOATS}")
    return table


def first_non_finite(block: np.ndarray) -> tuple[int, int] | None:
    """(row, column) of the first NaN or infinity in block, or None."""
    finite = np.isfinite(block)
    if finite.all():
        return None
    r, c = np.argwhere(~finite)[0]
    return int(r), int(c)


def non_finite_error(what: str, value: float, row: int, column: int) -> ValueError:
    return ValueError(f"{what} has a non-finite value ({value}) at row {row}, column {column}")


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
        raise ValueError(
            f"{path.name}: unsupported file type {suffix!r}; use one of {', '.join(SUFFIXES)}"
        )
    check_regular_file(path)
    if key is not None and suffix not in (".npz", ".safetensors"):
        raise ValueError(f"key= (--key) applies to .npz and .safetensors files only, not {suffix}")
    if suffix == ".npy":
        return read_npy(path), None
    if suffix == ".npz":
        return read_npz(path, key), None
    if suffix == ".safetensors":
        return read_safetensors(path, key)
    return read_text(path), None


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
