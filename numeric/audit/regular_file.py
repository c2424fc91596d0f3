"""Check that a path names a regular file before reading it, and read a small one in bounded
memory, so a named pipe, a device or a directory is named for what it is, never waited on or
read without end.

>>> import tempfile, pathlib
>>> with tempfile.TemporaryDirectory() as folder:
...     check_regular_file(pathlib.Path(folder), "a table")
Traceback (most recent call last):
...
numeric.audit.errors.UnreadableFileError: ...: a directory, not a file; a table is read from a regular file
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from numeric.audit.errors import UnreadableFileError


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


def _not_regular(path: Path, kind: str, reads: str) -> UnreadableFileError:
    link = f"a symbolic link to {os.path.realpath(path)}, " if path.is_symlink() else ""
    return UnreadableFileError(
        f"{path}: {link}{kind}, not a file; {reads} is read from a regular file"
    )


def check_regular_file(path: Path, reads: str = "a table") -> None:
    """UnreadableFileError unless path names a regular file (or a symbolic link to one) we may
    read; reads: what is read from it, for the message."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if path.is_symlink():
            raise UnreadableFileError(
                f"{path}: a symbolic link to {os.readlink(path)}, which does not exist"
            ) from None
        raise UnreadableFileError(f"{path}: no such file") from None
    except PermissionError:
        raise UnreadableFileError(f"{path}: permission denied") from None
    except OSError as error:
        raise UnreadableFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    kind = _kind(mode)
    if kind is not None:
        raise _not_regular(path, kind, reads)
    if not os.access(path, os.R_OK):
        raise UnreadableFileError(f"{path}: permission denied")


def read_small_file(path: Path, limit: int, reads: str) -> bytes:
    """The bytes of the regular file path, at most limit of them, else UnreadableFileError.

    The file is opened without blocking (a named pipe swapped in after the check opens at
    once) and checked again on the open descriptor, so what is read is what was checked.
    """
    check_regular_file(path, reads)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise UnreadableFileError(f"{path}: cannot be read ({error.strerror or error})") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(fd)
        kind = _kind(info.st_mode)
        if kind is not None:
            raise _not_regular(path, kind, reads)
        if info.st_size > limit:
            raise UnreadableFileError(
                f"{path}: {info.st_size} bytes; {reads} is read up to {limit} bytes"
            )
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise UnreadableFileError(f"{path}: grew past {limit} bytes while it was read")
    return data
