"""Read a table from .npy (memory-mapped) and .npz files, checking every size before reading.

Headers are parsed by numpy.lib.format (a literal, never code); object arrays are refused from
the header, before any data is read, so no pickle is ever loaded. A .npz member is decompressed
only when its size, read from the zip directory, is within MAX_NPZ_MEMBER_BYTES, and the zip
directory itself only when its entry count and size are within bounds.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path
from typing import BinaryIO

import numpy as np

from numeric.audit.errors import BadShapeError, MissingArrayError, UnreadableFileError
from numeric.audit.limits import (
    MAX_NPZ_DIRECTORY_BYTES,
    MAX_NPZ_MEMBER_BYTES,
    MAX_NPZ_MEMBERS,
    few,
    mib,
)

_MAGIC = b"\x93NUMPY"
_PICKLE_PROTOCOL = b"\x80"
_EOCD = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"
_ZIP64_EOCD = b"PK\x06\x06"


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split())


def _header(handle: BinaryIO, name: str, what: str) -> tuple[tuple[int, ...], bool, np.dtype]:
    """(shape, fortran_order, dtype) from the .npy header at handle's position, checked; what:
    the file ('') or the .npz member ("array 'pe'") it is in, for messages."""
    where = f"{name}: {what}" if what else name
    start = handle.read(len(_MAGIC) + 2)
    if start[: len(_MAGIC)] != _MAGIC:
        if start[:1] == _PICKLE_PROTOCOL:
            raise UnreadableFileError(
                f"{where} is a Python pickle, not a .npy array; pickles are refused"
            )
        raise UnreadableFileError(
            f"{where} is not a .npy file (it does not start with NumPy's magic string)"
        )
    major = start[len(_MAGIC)] if len(start) > len(_MAGIC) else 0
    if major not in (1, 2, 3):
        raise UnreadableFileError(
            f"{where} has .npy format version {major}; versions 1 to 3 are read"
        )
    # Version 3 differs from 2 only in allowing UTF-8 in the header; dtype text is ASCII.
    read = (
        np.lib.format.read_array_header_1_0 if major == 1 else np.lib.format.read_array_header_2_0
    )
    try:
        shape, fortran, dtype = read(handle)
    except (ValueError, SyntaxError, TypeError, OverflowError, EOFError):
        raise UnreadableFileError(
            f"{where} has no readable .npy header (a dict of descr, fortran_order and shape, "
            "written as Python literals)"
        ) from None
    return check_header(shape, dtype, name), bool(fortran), dtype


def check_header(shape: object, dtype: np.dtype, name: str) -> tuple[int, int]:
    """shape as (rows, columns) if it is a 2-D shape and dtype a float16/32/64 (any byte
    order), else ValueError naming what is wrong."""
    if dtype.hasobject:
        raise BadShapeError(f"{name}: object arrays (pickles) are refused")
    if dtype.kind != "f" or dtype.itemsize not in (2, 4, 8):
        raise BadShapeError(
            f"{name} has dtype {dtype}; only float16, float32 or float64 numbers are allowed"
        )
    if not isinstance(shape, tuple) or not all(
        isinstance(s, int) and not isinstance(s, bool) for s in shape
    ):
        raise UnreadableFileError(
            f"{name}: the header's shape {shape!r} is not a tuple of integers"
        )
    if any(s < 0 for s in shape):
        raise UnreadableFileError(f"{name}: the header gives a negative shape {shape}")
    if len(shape) != 2:
        raise BadShapeError(f"{name} must be 2-D (positions, dims), got shape {shape}")
    return shape[0], shape[1]


def read_npy(path: Path) -> np.ndarray:
    """The table in a .npy file, memory-mapped read-only (never read whole)."""
    with open(path, "rb") as handle:
        shape, fortran, dtype = _header(handle, path.name, "")
        offset = handle.tell()
    size = path.stat().st_size
    needed = shape[0] * shape[1] * dtype.itemsize
    if offset + needed > size:
        raise UnreadableFileError(
            f"{path.name}: truncated .npy file: its header gives a {shape} {dtype.name} table "
            f"of {needed} bytes, and {size - offset} bytes follow the header"
        )
    if needed == 0:
        return np.zeros(shape, dtype=dtype)
    order = "F" if fortran else "C"
    return np.memmap(path, dtype=dtype, mode="r", offset=offset, shape=shape, order=order)


def _zip_directory(path: Path) -> tuple[int, int] | None:
    """(entries, directory bytes) from a zip file's end record, or None if there is none
    (zipfile then says what is wrong)."""
    size = path.stat().st_size
    with open(path, "rb") as handle:
        tail_size = min(size, 2**16 + 22)
        handle.seek(size - tail_size)
        tail = handle.read(tail_size)
        at = tail.rfind(_EOCD)
        if at < 0 or at + 22 > len(tail):
            return None
        entries, directory = struct.unpack("<HI", tail[at + 10 : at + 16])
        if entries != 0xFFFF and directory != 0xFFFFFFFF:
            return entries, directory
        locator = tail.rfind(_ZIP64_LOCATOR, 0, at)
        if locator < 0 or locator + 20 > len(tail):
            return None
        (record,) = struct.unpack("<Q", tail[locator + 8 : locator + 16])
        if record + 56 > size:
            return None
        handle.seek(record)
        zip64 = handle.read(56)
    if zip64[:4] != _ZIP64_EOCD:
        return None
    entries64, directory64 = struct.unpack("<QQ", zip64[32:48])
    return entries64, directory64


def _check_directory(path: Path) -> None:
    """UnreadableFileError for a zip directory too long to be read."""
    directory = _zip_directory(path)
    if directory is not None:
        entries, nbytes = directory
        if entries > MAX_NPZ_MEMBERS or nbytes > MAX_NPZ_DIRECTORY_BYTES:
            raise UnreadableFileError(
                f"{path.name} lists {entries} arrays in a {nbytes}-byte zip directory; "
                f"an .npz table file is read only with at most {MAX_NPZ_MEMBERS} arrays "
                f"and {mib(MAX_NPZ_DIRECTORY_BYTES)} of directory"
            )


def _members(archive: zipfile.ZipFile) -> dict[str, str]:
    """Array name -> member name ('pe' -> 'pe.npy')."""
    return {(n[: -len(".npy")] if n.endswith(".npy") else n): n for n in archive.namelist()}


def npz_keys(path: Path) -> frozenset[str]:
    """The names of the arrays in a .npz file, read from its zip directory alone."""
    _check_directory(path)
    try:
        with zipfile.ZipFile(path) as archive:
            return frozenset(_members(archive))
    except (OSError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile) as error:
        raise UnreadableFileError(
            f"{path.name}: not a readable .npz file ({_one_line(error)})"
        ) from None


def read_npz(path: Path, key: str | None) -> np.ndarray:
    """One array of a .npz file, decompressed only if its size from the zip directory is
    within MAX_NPZ_MEMBER_BYTES; key: its name (needed when the file holds several)."""
    _check_directory(path)
    try:
        with zipfile.ZipFile(path) as archive:
            members = _members(archive)
            if key is None:
                if len(members) != 1:
                    raise MissingArrayError(
                        f"{path.name} holds {len(members)} arrays; choose one with key= "
                        f"(--key) from {few(members)}"
                    )
                key = next(iter(members))
            if key not in members:
                raise MissingArrayError(
                    f"{path.name} has no array {key!r}; its keys are {few(members)}"
                )
            info = archive.getinfo(members[key])
            if info.file_size > MAX_NPZ_MEMBER_BYTES:
                raise UnreadableFileError(
                    f"{path.name}: array {key!r} decompresses to {info.file_size} bytes, more "
                    f"than the {mib(MAX_NPZ_MEMBER_BYTES)} an .npz member may take here; "
                    "save it with np.save as .npy, which is memory-mapped"
                )
            with archive.open(info) as member:
                shape, fortran, dtype = _header(member, path.name, f"array {key!r}")
                needed = shape[0] * shape[1] * dtype.itemsize
                # zipfile stops at the member's size from the directory, checked above.
                data = member.read(needed)
    except (OSError, EOFError, zipfile.BadZipFile, zipfile.LargeZipFile) as error:
        raise UnreadableFileError(
            f"{path.name}: not a readable .npz file ({_one_line(error)})"
        ) from None
    except NotImplementedError as error:  # e.g. a compression method zipfile does not have
        raise UnreadableFileError(
            f"{path.name}: not a readable .npz file ({_one_line(error)})"
        ) from None
    if len(data) != needed:
        raise UnreadableFileError(
            f"{path.name}: truncated array {key!r}: its header gives a {shape} {dtype.name} "
            f"table of {needed} bytes, and the member holds {len(data)}"
        )
    values = np.frombuffer(data, dtype=dtype, count=shape[0] * shape[1])
    return values.reshape(shape, order="F" if fortran else "C")
