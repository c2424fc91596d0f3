"""Read a table of numbers from a text file (.csv, .txt) in bounded memory.

Values are separated by commas, semicolons, tabs or spaces (the first data line tells which);
a UTF-8 byte-order mark, blank lines, '#' comments and one header line of column names are
skipped. Every line is read with a length limit, and the whole table's size is counted in a
first pass before a second one parses it into an array of exactly that size, so neither a long
line nor a long file takes more memory than the limits allow (numeric.audit.limits).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np

from numeric.audit.errors import UnreadableFileError
from numeric.audit.limits import MAX_TEXT_LINE_BYTES, MAX_TEXT_VALUES, mib

_BOM = "\ufeff"
_DELIMITERS = (",", ";", "\t")


def _lines(path: Path) -> Iterator[tuple[int, str]]:
    """(line number, text without comment and surrounding blanks) of each non-empty line."""
    with open(path, "rb") as handle:
        number = 0
        while True:
            raw = handle.readline(MAX_TEXT_LINE_BYTES + 1)
            if not raw:
                return
            number += 1
            if len(raw) > MAX_TEXT_LINE_BYTES:
                raise UnreadableFileError(
                    f"{path.name}: line {number} is longer than {mib(MAX_TEXT_LINE_BYTES)}; "
                    "a table this wide is read from .npy, not text"
                )
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise UnreadableFileError(f"{path.name}: line {number} is not UTF-8 text") from None
            if number == 1:
                text = text.removeprefix(_BOM)
            text = text.split("#", 1)[0].strip()
            if text:
                yield number, text


def _split(text: str, delimiter: str | None) -> list[str]:
    return text.split(delimiter) if delimiter else text.split()


def _numbers(tokens: list[str]) -> np.ndarray | None:
    try:
        return np.array(tokens, dtype=np.float64)
    except ValueError:
        return None


def _bad_token(path: Path, number: int, tokens: list[str]) -> UnreadableFileError:
    for j, token in enumerate(tokens):
        try:
            float(token)
        except ValueError:
            shown = token.strip()[:40] or "an empty value"
            return UnreadableFileError(
                f"{path.name}: line {number}, value {j + 1}: {shown!r} is not a number "
                "(a table of numbers separated by commas, semicolons, tabs or spaces is expected)"
            )
    return UnreadableFileError(f"{path.name}: line {number} is not a row of numbers")


def read_text(path: Path) -> np.ndarray:
    """The table in a text file as float64 (rows: lines; see the module doc)."""
    delimiter: str | None = None
    width = rows = 0
    header: int | None = None
    for number, text in _lines(path):
        if rows == 0:
            delimiter = next((d for d in _DELIMITERS if d in text), None)
            if header is None and _numbers(_split(text, delimiter)) is None:
                header = number  # a line of column names: skipped
                continue
        count = len(_split(text, delimiter))
        width = width or count
        if count != width:
            raise UnreadableFileError(
                f"{path.name}: line {number} has {count} values where the first row has {width}"
            )
        rows += 1
        if rows * width > MAX_TEXT_VALUES:
            raise UnreadableFileError(
                f"{path.name} holds more than {MAX_TEXT_VALUES} values; a text table is read "
                "into memory whole, so save a table this large with np.save as .npy"
            )
    if rows == 0:
        raise UnreadableFileError(
            f"{path.name}: no rows of numbers (the file is empty or all comments)"
        )
    table = np.empty((rows, width), dtype=np.float64)
    r = 0
    for number, text in _lines(path):
        if number == header:
            continue
        tokens = _split(text, delimiter)
        values = _numbers(tokens) if len(tokens) == width else None
        if values is None:
            if len(tokens) != width:
                raise UnreadableFileError(f"{path.name}: line {number} changed while it was read")
            raise _bad_token(path, number, tokens)
        if r == rows:
            raise UnreadableFileError(f"{path.name} changed while it was read")
        table[r] = values
        r += 1
    if r != rows:
        raise UnreadableFileError(f"{path.name} changed while it was read")
    return table
