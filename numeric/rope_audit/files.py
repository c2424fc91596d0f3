"""A RoPE cache read from files: its cos and sin arrays and the positions of its rows.

The arrays are read with the sinusoidal audit's readers (numeric.table_audit.load.open_table:
.npy, .npz, .csv/.txt, .safetensors, any float dtype including bfloat16, rows read a block at a
time in bounded memory). Which array is which:
- two files, or two keys (`--key cos --key sin`): the first is cos, the second sin;
- one .npz or .safetensors file without a key: its arrays named "cos" and "sin";
- one array alone: sin when its name (the key, else the file's name) says "sin", else cos.
The positions of the rows are a 1-D integer array: the key given, or one named "positions" or
"position_ids" in the (first) file when there is one; otherwise rows are positions 0, 1, 2, ...
"""

from __future__ import annotations

import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from numeric.table_audit.limits import MAX_NPZ_MEMBER_BYTES
from numeric.table_audit.load import check_regular_file, open_table
from numeric.table_audit.safetensors_file import read_header

POSITION_KEYS = ("positions", "position_ids")
_INTEGERS = {"I64": "<i8", "I32": "<i4", "I16": "<i2", "U32": "<u4", "U16": "<u2", "I8": "i1"}


@dataclass(frozen=True)
class RopeFiles:
    """cos, sin: the arrays' rows (either may be None); positions: the rows' positions or
    None (0, 1, 2, ...); what: how messages name the cache; notes: what was read from where."""

    cos: object | None
    sin: object | None
    positions: np.ndarray | None
    what: str
    notes: tuple[str, ...]


def _keyed(path: Path) -> bool:
    return path.suffix.lower() in (".npz", ".safetensors")


def _tries(path: Path, key: str) -> object | None:
    """The array named key in path, or None when the file has no such array."""
    try:
        return open_table(path, key=key)
    except ValueError as error:
        if "has no" in str(error):
            return None
        raise


def holds_cos_and_sin(path: str | Path) -> bool:
    """Whether path is an .npz or .safetensors file with arrays named "cos" and "sin"."""
    path = Path(path)
    if not _keyed(path):
        return False
    check_regular_file(path)
    try:
        return all(_tries(path, k) is not None for k in ("cos", "sin"))
    except ValueError:
        return False


def _role(name: str) -> str:
    lowered = name.lower()
    return "sin" if "sin" in lowered and "cos" not in lowered else "cos"


def _safetensors_integers(path: Path, key: str) -> np.ndarray | None:
    header, start = read_header(path)
    entry = header.get(key)
    if entry is None:
        return None
    dtype, shape = entry.get("dtype"), entry.get("shape")
    if dtype not in _INTEGERS or not isinstance(shape, list) or len(shape) != 1:
        raise ValueError(
            f"{path.name}: tensor {key!r} must be 1-D integers (positions), got {dtype} {shape}"
        )
    count = shape[0]
    begin, end = entry.get("data_offsets", [0, -1])
    itemsize = np.dtype(_INTEGERS[dtype]).itemsize
    if not isinstance(count, int) or end - begin != count * itemsize:
        raise ValueError(f"{path.name}: tensor {key!r} has data_offsets that do not fit its shape")
    if count * itemsize > MAX_NPZ_MEMBER_BYTES or start + end > path.stat().st_size:
        raise ValueError(f"{path.name}: tensor {key!r} is too large or cut off")
    return np.fromfile(path, dtype=_INTEGERS[dtype], count=count, offset=start + begin)


def _npz_integers(path: Path, key: str) -> np.ndarray | None:
    try:
        with zipfile.ZipFile(path) as archive:
            name = f"{key}.npy"
            if name not in archive.namelist():
                return None
            info = archive.getinfo(name)
            if info.file_size > MAX_NPZ_MEMBER_BYTES:
                raise ValueError(f"{path.name}: array {key!r} takes {info.file_size} bytes")
            with archive.open(info) as member:
                values = np.lib.format.read_array(member, allow_pickle=False)
    except (OSError, zipfile.BadZipFile, EOFError) as error:
        raise ValueError(f"{path.name}: not a readable .npz file ({error})") from None
    return values


def _npy_integers(path: Path) -> np.ndarray:
    if path.stat().st_size > MAX_NPZ_MEMBER_BYTES:
        raise ValueError(
            f"{path.name}: a positions file is read up to {MAX_NPZ_MEMBER_BYTES} bytes"
        )
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError) as error:
        raise ValueError(f"{path.name}: not a readable .npy file ({error})") from None


def read_positions(path: str | Path, key: str | None) -> np.ndarray | None:
    """A 1-D integer array from path (key in an .npz or .safetensors file), or None when a
    keyed file has no such array. Bounded in size; never unpickled."""
    path = Path(path)
    check_regular_file(path)
    suffix = path.suffix.lower()
    if suffix == ".safetensors":
        values = _safetensors_integers(path, key or "")
    elif suffix == ".npz":
        values = _npz_integers(path, key or "")
    elif suffix == ".npy":
        values = _npy_integers(path)
    else:
        raise ValueError(f"{path.name}: positions are read from .npy, .npz or .safetensors")
    if values is None:
        return None
    if values.ndim != 1 or values.dtype.kind not in "iu":
        raise ValueError(
            f"{path.name}: positions must be 1-D integers, got {values.dtype} {values.shape}"
        )
    return values.astype(np.int64)


def open_rope(
    files: list[str], keys: list[str] | None = None, positions_key: str | None = None
) -> RopeFiles:
    """The cache in files (module docstring for which array is which)."""
    keys = list(keys or [])
    paths = [Path(f) for f in files]
    notes = []
    if not 1 <= len(paths) <= 2 or len(keys) > 2:
        raise ValueError("a RoPE cache is one or two files, and at most two keys (cos, then sin)")
    if len(paths) == 2:
        if len(keys) == 1:
            raise ValueError("with two files, give a key for each (--key K1 --key K2) or none")
        cos = open_table(paths[0], key=keys[0] if keys else None)
        sin = open_table(paths[1], key=keys[1] if keys else None)
        what = f"{paths[0].name} + {paths[1].name}"
    elif len(keys) == 2:
        cos, sin = (open_table(paths[0], key=k) for k in keys)
        what = f"{paths[0].name} [{keys[0]}, {keys[1]}]"
    elif len(keys) == 1:
        array = open_table(paths[0], key=keys[0])
        role = _role(keys[0])
        cos, sin = (array, None) if role == "cos" else (None, array)
        what = f"{paths[0].name} [{keys[0]}]"
        notes.append(f"{keys[0]!r} read as {role} (its name)")
    elif _keyed(paths[0]) and holds_cos_and_sin(paths[0]):
        cos, sin = (open_table(paths[0], key=k) for k in ("cos", "sin"))
        what = paths[0].name
    else:
        array = open_table(paths[0])
        role = _role(paths[0].stem)
        cos, sin = (array, None) if role == "cos" else (None, array)
        what = paths[0].name
        notes.append(f"{paths[0].name} read as {role} (its name)")
    positions = None
    if positions_key is not None:
        positions = read_positions(paths[0], positions_key)
        if positions is None:
            raise ValueError(f"{paths[0].name} has no array {positions_key!r} of positions")
    elif _keyed(paths[0]):
        for key in POSITION_KEYS:
            positions = read_positions(paths[0], key)
            if positions is not None:
                notes.append(f"row positions from {paths[0].name} [{key}]")
                break
    return RopeFiles(cos, sin, positions, what, tuple(notes))
