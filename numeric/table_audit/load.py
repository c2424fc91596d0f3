"""Read an encoding table from a file (.npy, .npz, .csv/.txt, .safetensors) without running code from it."""

from __future__ import annotations

import json
import struct
import warnings
import zipfile
from pathlib import Path

import numpy as np

SUFFIXES = (".npy", ".npz", ".csv", ".txt", ".safetensors")
# Rows checked at a time for NaN and inf, so a memory-mapped table is never read whole.
_CHUNK_ROWS = 8192
# safetensors dtypes readable as NumPy floats; BF16 is read from the raw bytes (see _bf16).
_SAFETENSORS_FLOATS = {"F64": np.float64, "F32": np.float32, "F16": np.float16}
_INSTALL_HINT = "pip install 'pe-proofs[safetensors]'"


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def check_table(table: np.ndarray, what: str = "table") -> np.ndarray:
    """Return table if it is a non-empty 2-D array of finite float16/32/64 numbers, else raise ValueError."""
    if not isinstance(table, np.ndarray):
        table = np.asarray(table)
    if table.dtype == object:
        raise ValueError(
            f"{what} holds Python objects; only float16, float32 or float64 numbers are allowed"
        )
    if table.ndim != 2:
        raise ValueError(f"{what} must be 2-D (positions, dims), got shape {table.shape}")
    if table.size == 0:
        raise ValueError(
            f"{what} is empty (shape {table.shape}); it needs at least one row and column"
        )
    if table.dtype not in (np.float16, np.float32, np.float64):
        raise ValueError(
            f"{what} has dtype {table.dtype}; only float16, float32 or float64 numbers are allowed"
        )
    for a in range(0, table.shape[0], _CHUNK_ROWS):
        finite = np.isfinite(table[a : a + _CHUNK_ROWS])
        if not finite.all():
            r, c = np.argwhere(~finite)[0]
            value = table[a + r, c]
            raise ValueError(f"{what} has a non-finite value ({value}) at row {a + r}, column {c}")
    return table


def _npy(path: Path) -> np.ndarray:
    try:
        return np.load(path, allow_pickle=False, mmap_mode="r")
    except ValueError as error:
        if "allow_pickle" in str(error) or "object" in str(error).lower():
            raise ValueError(f"{path.name}: object arrays (pickles) are refused") from None
        raise ValueError(f"{path.name}: not a readable .npy file ({_one_line(error)})") from None
    except (OSError, EOFError) as error:
        raise ValueError(f"{path.name}: not a readable .npy file ({_one_line(error)})") from None


def _npz(path: Path, key: str | None) -> np.ndarray:
    try:
        with np.load(path, allow_pickle=False) as archive:
            keys = list(archive.files)
            if key is None:
                if len(keys) != 1:
                    raise ValueError(
                        f"{path.name} holds {len(keys)} arrays; choose one with key= from {keys}"
                    )
                key = keys[0]
            if key not in keys:
                raise ValueError(f"{path.name} has no array {key!r}; its keys are {keys}")
            return archive[key]
    except ValueError as error:
        if "allow_pickle" in str(error):
            raise ValueError(f"{path.name}: object arrays (pickles) are refused") from None
        if str(error).startswith(path.name):  # our own messages already name the file
            raise ValueError(_one_line(error)) from None
        raise ValueError(f"{path.name}: not a readable .npz file ({_one_line(error)})") from None
    except (OSError, EOFError, zipfile.BadZipFile) as error:
        raise ValueError(f"{path.name}: not a readable .npz file ({_one_line(error)})") from None


def _text(path: Path) -> np.ndarray:
    try:
        with open(path, encoding="utf-8") as handle:
            first = next((line for line in handle if line.strip()), "")
        delimiter = "," if "," in first else None
        # An empty file is reported once, as an error, not also as NumPy's warning on stderr.
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return np.loadtxt(path, delimiter=delimiter, dtype=np.float64, ndmin=2)
    except (ValueError, OSError, UnicodeDecodeError) as error:
        raise ValueError(
            f"{path.name}: not a table of numbers separated by commas or whitespace ({_one_line(error)})"
        ) from None


def _safetensors_header(path: Path) -> tuple[dict, int]:
    """The JSON header of a .safetensors file and where its data starts, checked against the file size."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        prefix = handle.read(8)
        if len(prefix) < 8:
            raise ValueError(f"{path.name}: truncated .safetensors file (no 8-byte header length)")
        (length,) = struct.unpack("<Q", prefix)
        if 8 + length > size:
            raise ValueError(f"{path.name}: truncated .safetensors file (header runs past the end)")
        try:
            header = json.loads(handle.read(length))
        except (ValueError, UnicodeDecodeError):
            raise ValueError(f"{path.name}: the .safetensors header is not valid JSON") from None
    if not isinstance(header, dict):
        raise ValueError(f"{path.name}: the .safetensors header is not a JSON object")
    header.pop("__metadata__", None)
    for name, entry in header.items():
        try:
            _, end = entry["data_offsets"]
        except (TypeError, KeyError, ValueError):
            raise ValueError(f"{path.name}: tensor {name!r} has no valid data_offsets") from None
        if 8 + length + end > size:
            raise ValueError(
                f"{path.name}: truncated .safetensors file (tensor {name!r} is cut off)"
            )
    return header, 8 + length


def _bf16(path: Path, entry: dict, data_start: int) -> np.ndarray:
    """A BF16 tensor as float32: each bfloat16 is the top 16 bits of the float32 it stands for."""
    begin, end = entry["data_offsets"]
    shape = tuple(entry["shape"])
    count = int(np.prod(shape, dtype=np.int64))
    if end - begin != 2 * count:
        raise ValueError(f"{path.name}: BF16 tensor of shape {shape} has {end - begin} bytes")
    raw = np.fromfile(path, dtype="<u2", count=count, offset=data_start + begin)
    return (raw.astype(np.uint32) << np.uint32(16)).view(np.float32).reshape(shape)


def _safetensors(path: Path, key: str | None) -> np.ndarray:
    try:
        from safetensors import safe_open
    except ImportError:
        raise ValueError(
            f"{path.name}: reading .safetensors needs the safetensors package: {_INSTALL_HINT}"
        ) from None
    header, data_start = _safetensors_header(path)
    keys = sorted(header)
    if key is None:
        if len(keys) != 1:
            raise ValueError(
                f"{path.name} holds {len(keys)} tensors; choose one with key= from {keys}"
            )
        key = keys[0]
    if key not in header:
        raise ValueError(f"{path.name} has no tensor {key!r}; its keys are {keys}")
    dtype = header[key].get("dtype")
    if dtype == "BF16":
        return _bf16(path, header[key], data_start)
    if dtype not in _SAFETENSORS_FLOATS:
        raise ValueError(
            f"{path.name}: tensor {key!r} has dtype {dtype}; only F64, F32, F16 or BF16 are allowed"
        )
    try:
        with safe_open(str(path), framework="np") as handle:
            return handle.get_tensor(key)
    except Exception as error:  # the Rust reader raises its own error types
        raise ValueError(
            f"{path.name}: not a readable .safetensors file ({_one_line(error)})"
        ) from None


def load_table(path: str | Path, *, key: str | None = None) -> np.ndarray:
    """Read a 2-D table of finite floats from path; key picks an array in a .npz or .safetensors file.

    .npy is memory-mapped (never read whole); .csv/.txt take commas or whitespace; bfloat16
    safetensors come back as exact float32. Any bad file raises ValueError with a one-line message.
    """
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(
            f"{path.name}: unsupported file type {suffix!r}; use one of {', '.join(SUFFIXES)}"
        )
    if not path.is_file():
        raise ValueError(f"{path}: no such file")
    if key is not None and suffix not in (".npz", ".safetensors"):
        raise ValueError(f"key= applies to .npz and .safetensors files only, not {suffix}")
    if suffix == ".npy":
        table = _npy(path)
    elif suffix == ".npz":
        table = _npz(path, key)
    elif suffix == ".safetensors":
        table = _safetensors(path, key)
    else:
        table = _text(path)
    return check_table(table, path.name)
