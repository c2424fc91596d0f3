"""Printers for numeric Tables: aligned text, CSV (one table per file), or JSON (stdlib only)."""

from __future__ import annotations

import csv
import io
import textwrap
from collections.abc import Sequence

from numeric.result_table import Cell, Table
from proofs.render.json_text import dumps

FORMATS = ("text", "csv", "json")
NOTE_WIDTH = 100
_MARKS = {True: "PASS", False: "FAIL"}


def _is_number(cell: Cell) -> bool:
    return isinstance(cell, int | float) and not isinstance(cell, bool)


def aligned_columns(rows: Sequence[Sequence[str]], right: set[int]) -> tuple[list[str], list[int]]:
    """The rows as lines of columns two spaces apart, the columns in right right-aligned (so
    the digits of numbers line up), the others left-aligned; and the column widths.

    >>> aligned_columns([("a", "1"), ("bcd", "10")], {1})
    (['a     1', 'bcd  10'], [3, 2])
    """
    widths = [max(len(row[j]) for row in rows) for j in range(len(rows[0]))]
    lines = [
        "  ".join(
            v.rjust(w) if j in right else v.ljust(w)
            for j, (v, w) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        for row in rows
    ]
    return lines, widths


def _text(table: Table) -> str:
    cells = table.formatted()
    numeric = {
        j
        for j in range(len(table.columns))
        if table.rows and all(_is_number(row[j]) for row in table.rows)
    }
    lines, widths = aligned_columns([list(table.columns), *cells], numeric)
    title = table.title if table.passed is None else f"{table.title}  [{_MARKS[table.passed]}]"
    out = [title, lines[0], "  ".join("-" * w for w in widths), *lines[1:]]
    if table.note:
        # Prose, unlike the rows: wrapped to a terminal's usual width.
        out += textwrap.wrap(table.note, width=NOTE_WIDTH, break_on_hyphens=False)
    return "\n".join(out)


def table_object(table: Table) -> dict[str, object]:
    """One table as an object for json_text.dumps (which spells NumPy values and NaN as JSON
    allows): title, columns, rows, note, passed."""
    return {
        "title": table.title,
        "columns": list(table.columns),
        "rows": [list(row) for row in table.rows],
        "note": table.note,
        "passed": table.passed,
    }


def _json(tables: list[Table]) -> str:
    return dumps([table_object(t) for t in tables])


def table_csv(table: Table) -> str:
    """One table as CSV a reader loads as is: the header row, then the raw cells (floats keep
    every digit); no title or note rows."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows(["" if c is None else c for c in row] for row in table.rows)
    return buffer.getvalue()


def render_tables(tables: list[Table], fmt: str) -> str:
    """The tables as one string: fmt 'text' (aligned columns, title, note, PASS/FAIL mark),
    'json' (a list of objects) or 'csv' (exactly one table: CSV holds one table per file)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of text, csv, json, got {fmt!r}")
    if fmt == "json":
        return _json(tables)
    if fmt == "csv":
        if len(tables) != 1:
            raise ValueError(f"CSV holds one table per file, got {len(tables)} tables")
        return table_csv(tables[0]).rstrip("\n")
    return "\n\n".join(_text(t) for t in tables)
