"""A RoPE cache read from files: its cos and sin arrays and the positions of its rows.

The arrays are read with the audit core's readers (numeric.audit.load.open_table:
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

from numeric.audit.errors import (
    BadShapeError,
    BadValueError,
    MissingArrayError,
    UnreadableFileError,
)
from numeric.audit.limits import MAX_NPZ_MEMBER_BYTES
from numeric.audit.load import KEYED, array_keys, open_table
from numeric.audit.regular_file import check_regular_file
from numeric.audit.safetensors_file import read_safetensors

POSITION_KEYS = ("positions", "position_ids")
_INTEGERS = {
    name: (raw, raw)
    for name, raw in (
        ("I64", "<i8"),
        ("I32", "<i4"),
        ("I16", "<i2"),
        ("U32", "<u4"),
        ("U16", "<u2"),
        ("I8", "i1"),
    )
}


@dataclass(frozen=True)
class RopeFiles:
    """cos, sin: the arrays' rows (either may be None); positions: the rows' positions or
    None (0, 1, 2, ...); what: how messages name the cache; notes: what was read from where."""

    cos: object | None
    sin: object | None
    positions: np.ndarray | None
    what: str
    notes: tuple[str, ...]


def holds_cos_and_sin(path: str | Path) -> bool:
    """Whether path is an .npz or .safetensors file with arrays named "cos" and "sin" (read
    from its directory or header; a file that cannot be read holds neither)."""
    try:
        return {"cos", "sin"} <= array_keys(path)
    except UnreadableFileError:
        return False


def _role(name: str) -> str:
    lowered = name.lower()
    return "sin" if "sin" in lowered and "cos" not in lowered else "cos"


def _safetensors_integers(path: Path, key: str) -> np.ndarray:
    values, _ = read_safetensors(path, key, _INTEGERS, ndim=1)
    if values.nbytes > MAX_NPZ_MEMBER_BYTES:
        raise UnreadableFileError(
            f"{path.name}: tensor {key!r} takes {values.nbytes} bytes; positions are read up "
            f"to {MAX_NPZ_MEMBER_BYTES}"
        )
    return np.array(values)


def _npz_integers(path: Path, key: str) -> np.ndarray:
    try:
        with zipfile.ZipFile(path) as archive:
            info = archive.getinfo(f"{key}.npy")
            if info.file_size > MAX_NPZ_MEMBER_BYTES:
                raise UnreadableFileError(
                    f"{path.name}: array {key!r} takes {info.file_size} bytes; positions are "
                    f"read up to {MAX_NPZ_MEMBER_BYTES}"
                )
            with archive.open(info) as member:
                return np.lib.format.read_array(member, allow_pickle=False)
    except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile) as error:
        # NumPy's header parser says what is wrong with the member in a ValueError.
        message = " ".join(str(error).split())[:200]
        raise UnreadableFileError(
            f"{path.name}: array {key!r} is not readable ({message})"
        ) from None


def _npy_integers(path: Path) -> np.ndarray:
    if path.stat().st_size > MAX_NPZ_MEMBER_BYTES:
        raise UnreadableFileError(
            f"{path.name}: a positions file is read up to {MAX_NPZ_MEMBER_BYTES} bytes"
        )
    try:
        return np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError) as error:
        message = " ".join(str(error).split())[:200]
        raise UnreadableFileError(f"{path.name}: not a readable .npy file ({message})") from None


def read_positions(path: str | Path, key: str | None) -> np.ndarray:
    """A 1-D integer array from path (key in an .npz or .safetensors file); MissingArrayError
    when a keyed file has no such array. Bounded in size; never unpickled."""
    path = Path(path)
    check_regular_file(path, "positions")
    suffix = path.suffix.lower()
    if suffix in KEYED and (key or "") not in array_keys(path):
        raise MissingArrayError(f"{path.name} has no array {key!r} of positions")
    if suffix == ".safetensors":
        values = _safetensors_integers(path, key or "")
    elif suffix == ".npz":
        values = _npz_integers(path, key or "")
    elif suffix == ".npy":
        values = _npy_integers(path)
    else:
        raise UnreadableFileError(
            f"{path.name}: positions are read from .npy, .npz or .safetensors"
        )
    if values.ndim != 1 or values.dtype.kind not in "iu":
        raise BadShapeError(
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
        raise BadValueError(
            "a RoPE cache is one or two files, and at most two keys (cos, then sin)"
        )
    # The first file's array names, from its directory or header: each array is then read once.
    keys_first = array_keys(paths[0])
    if len(paths) == 2:
        if len(keys) == 1:
            raise BadValueError("with two files, give a key for each (--key K1 --key K2) or none")
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
    elif {"cos", "sin"} <= keys_first:
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
    else:
        key = next((k for k in POSITION_KEYS if k in keys_first), None)
        if key is not None:
            positions = read_positions(paths[0], key)
            notes.append(f"row positions from {paths[0].name} [{key}]")
    return RopeFiles(cos, sin, positions, what, tuple(notes))
