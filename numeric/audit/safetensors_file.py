"""Read one tensor of a .safetensors file, memory-mapped, checking every field before reading.

The format is an 8-byte little-endian header length, a JSON header naming each tensor's dtype,
shape and data_offsets, then the raw little-endian data. The header's length and its number of
tensors are bounded before it is parsed (numeric.audit.limits), and the chosen tensor's
fields are checked one by one, so a malformed file gets a message naming the wrong field. The
data is mapped, not read: no copy of the tensor is made, whatever its dtype (a bfloat16 tensor
is converted a block of rows at a time, numeric.audit.rows).
"""

from __future__ import annotations

import json
import math
import struct
from pathlib import Path

import numpy as np

from numeric.audit.errors import BadShapeError, MissingArrayError, UnreadableFileError
from numeric.audit.limits import (
    MAX_SAFETENSORS_HEADER_BYTES,
    MAX_SAFETENSORS_TENSORS,
    few,
    mib,
)

# The dtypes read, as NumPy stores their raw words, and the format the values are in.
DTYPES = {
    "F64": ("<f8", "float64"),
    "F32": ("<f4", "float32"),
    "F16": ("<f2", "float16"),
    "BF16": ("<u2", "bfloat16"),
}


class _TooManyTensorsError(Exception):
    pass


def _bounded_object(pairs: list[tuple[str, object]]) -> dict:
    if len(pairs) > MAX_SAFETENSORS_TENSORS:
        raise _TooManyTensorsError(len(pairs))
    return dict(pairs)


def _shown(value: object) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_count(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def read_header(path: Path) -> tuple[dict, int]:
    """The JSON header of a .safetensors file (without __metadata__) and where its data starts."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        prefix = handle.read(8)
        if len(prefix) < 8:
            raise UnreadableFileError(
                f"{path.name}: truncated .safetensors file (no 8-byte header length)"
            )
        (length,) = struct.unpack("<Q", prefix)
        if length > MAX_SAFETENSORS_HEADER_BYTES:
            raise UnreadableFileError(
                f"{path.name}: the .safetensors header claims {length} bytes; headers of at "
                f"most {mib(MAX_SAFETENSORS_HEADER_BYTES)} are read"
            )
        if 8 + length > size:
            raise UnreadableFileError(
                f"{path.name}: truncated .safetensors file (the {length}-byte header runs past "
                f"the end of the {size}-byte file)"
            )
        raw = handle.read(length)
    try:
        header = json.loads(raw, object_pairs_hook=_bounded_object)
    except _TooManyTensorsError as many:
        raise UnreadableFileError(
            f"{path.name}: the .safetensors header lists {many.args[0]} entries; files with at "
            f"most {MAX_SAFETENSORS_TENSORS} tensors are read"
        ) from None
    except (ValueError, UnicodeDecodeError, RecursionError):
        raise UnreadableFileError(
            f"{path.name}: the .safetensors header is not valid JSON"
        ) from None
    if not isinstance(header, dict):
        raise UnreadableFileError(f"{path.name}: the .safetensors header is not a JSON object")
    header.pop("__metadata__", None)
    return header, 8 + length


def _entry(path: Path, header: dict, key: str | None) -> tuple[str, dict]:
    keys = sorted(header)
    if key is None:
        if len(keys) != 1:
            raise MissingArrayError(
                f"{path.name} holds {len(keys)} tensors; choose one with key= (--key) "
                f"from {few(keys)}"
            )
        key = keys[0]
    if key not in header:
        raise MissingArrayError(f"{path.name} has no tensor {key!r}; its keys are {few(keys)}")
    entry = header[key]
    if not isinstance(entry, dict):
        raise UnreadableFileError(
            f"{path.name}: tensor {key!r} is described by {_shown(entry)}, not by an object "
            "with dtype, shape and data_offsets"
        )
    return key, entry


def read_safetensors(
    path: Path, key: str | None, dtypes: dict[str, tuple[str, str]] | None = None, ndim: int = 2
) -> tuple[np.ndarray, str]:
    """(the tensor memory-mapped, the format its values are in); BF16 comes as its 16-bit
    words, to be read with numeric.audit.rows.bfloat16_to_float32. dtypes: the safetensors
    dtypes accepted, as (NumPy dtype, format) (default: the floats, DTYPES); ndim: the number
    of dimensions the tensor must have (2: a table; 1: positions)."""
    dtypes = DTYPES if dtypes is None else dtypes
    header, data_start = read_header(path)
    key, entry = _entry(path, header, key)
    where = f"{path.name}: tensor {key!r}"
    dtype = entry.get("dtype")
    if dtype not in dtypes:
        shown = "no dtype" if dtype is None else f"dtype {_shown(dtype)}"
        *most, last = dtypes
        allowed = f"{', '.join(most)} or {last}" if most else last
        raise BadShapeError(f"{where} has {shown}; only {allowed} are allowed")
    shape = entry.get("shape")
    if not isinstance(shape, list) or not all(_is_count(s) for s in shape):
        raise UnreadableFileError(
            f"{where}: shape must be a list of non-negative integers, got "
            f"{'nothing' if shape is None else _shown(shape)}"
        )
    if len(shape) != ndim:
        expected = "2-D (positions, dims)" if ndim == 2 else f"{ndim}-D"
        raise BadShapeError(f"{where} must be {expected}, got shape {shape}")
    offsets = entry.get("data_offsets")
    if not (
        isinstance(offsets, list)
        and len(offsets) == 2
        and all(_is_count(o) for o in offsets)
        and offsets[0] <= offsets[1]
    ):
        raise UnreadableFileError(
            f"{where}: data_offsets must be two integers [begin, end] with 0 <= begin <= end, "
            f"got {'nothing' if offsets is None else _shown(offsets)}"
        )
    raw, stored = dtypes[dtype]
    begin, end = offsets
    needed = math.prod(shape) * np.dtype(raw).itemsize
    if end - begin != needed:
        raise UnreadableFileError(
            f"{where}: a {dtype} tensor of shape {shape} takes {needed} bytes, but its "
            f"data_offsets [{begin}, {end}] hold {end - begin}"
        )
    size = path.stat().st_size
    if data_start + end > size:
        raise UnreadableFileError(
            f"{path.name}: truncated .safetensors file (tensor {key!r} is cut off)"
        )
    if needed == 0:
        return np.zeros(shape, dtype=raw), stored
    return np.memmap(
        path, dtype=raw, mode="r", offset=data_start + begin, shape=tuple(shape)
    ), stored
