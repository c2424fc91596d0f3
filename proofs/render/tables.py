"""Printers for numeric Tables: aligned text, CSV blocks, or JSON (stdlib only)."""

from __future__ import annotations

import csv
import io
import json
import math

from numeric.table import Cell, Table

FORMATS = ("text", "csv", "json")
_MARKS = {True: "PASS", False: "FAIL"}


def _is_number(cell: Cell) -> bool:
    return isinstance(cell, int | float) and not isinstance(cell, bool)


def _text(table: Table) -> str:
    cells = table.formatted()
    widths = [max(len(h), *(len(row[j]) for row in cells)) for j, h in enumerate(table.columns)]
    # Numbers right-aligned so their digits line up; words left-aligned.
    numeric = [
        all(_is_number(row[j]) for row in table.rows) and bool(table.rows)
        for j in range(len(widths))
    ]

    def line(values: list[str]) -> str:
        parts = [
            v.rjust(w) if num else v.ljust(w)
            for v, w, num in zip(values, widths, numeric, strict=True)
        ]
        return "  ".join(parts).rstrip()

    title = table.title if table.passed is None else f"{table.title}  [{_MARKS[table.passed]}]"
    out = [title, line(list(table.columns)), "  ".join("-" * w for w in widths)]
    out += [line(row) for row in cells]
    if table.note:
        out.append(table.note)
    return "\n".join(out)


def _json_cell(cell: Cell) -> Cell:
    # JSON has no NaN or infinity; spell them as strings rather than emit invalid JSON.
    if isinstance(cell, float) and not math.isfinite(cell):
        return str(cell)
    return cell


def _json(tables: list[Table]) -> str:
    objects = [
        {
            "title": t.title,
            "columns": list(t.columns),
            "rows": [[_json_cell(c) for c in row] for row in t.rows],
            "note": t.note,
            "passed": t.passed,
        }
        for t in tables
    ]
    return json.dumps(objects, indent=2, ensure_ascii=False, allow_nan=False)


def _csv(tables: list[Table]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    for n, t in enumerate(tables):
        if n:
            writer.writerow([])
        writer.writerow([t.title] if t.passed is None else [t.title, f"passed={t.passed}"])
        writer.writerow(t.columns)
        # Raw cells: repr-exact floats, so the CSV keeps full precision.
        writer.writerows(["" if c is None else c for c in row] for row in t.rows)
        if t.note:
            writer.writerow([f"note: {t.note}"])
    return buffer.getvalue().rstrip("\n")


def render_tables(tables: list[Table], fmt: str) -> str:
    """The tables as one string: fmt 'text' (aligned columns, title, note, PASS/FAIL mark),
    'csv' (one block per table, blank line between) or 'json' (a list of objects)."""
    if fmt not in FORMATS:
        raise ValueError(f"format must be one of text, csv, json, got {fmt!r}")
    if fmt == "json":
        return _json(tables)
    if fmt == "csv":
        return _csv(tables)
    return "\n\n".join(_text(t) for t in tables)
