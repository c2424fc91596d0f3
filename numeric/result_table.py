"""Table: the one data structure every numeric result travels in, to any printer."""

from __future__ import annotations

from dataclasses import dataclass, field

Cell = str | int | float | bool | None


@dataclass(frozen=True)
class Table:
    """A titled table of raw cells.

    title: one line naming what was computed; columns: header names;
    rows: raw values (numbers stay numbers so csv/json keep full precision);
    formats: optional per-column format specs such as ".3f" used by human-facing printers;
    note: a sentence shown under the table; passed: the check's outcome, or None for a plain table;
    headline: what a check's table shows, as one short clause for a verdict line ("" for a
    plain table).
    """

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    formats: tuple[str, ...] = field(default=())
    note: str = ""
    passed: bool | None = None
    headline: str = ""

    def __post_init__(self) -> None:
        width = len(self.columns)
        for row in self.rows:
            if len(row) != width:
                raise ValueError(
                    f"table {self.title!r}: a row has {len(row)} cells, expected {width}"
                )
        if self.formats and len(self.formats) != width:
            raise ValueError(
                f"table {self.title!r}: {len(self.formats)} formats for {width} columns"
            )

    def formatted(self) -> list[list[str]]:
        """The rows as strings, each cell passed through its column's format spec."""
        specs = self.formats or ("",) * len(self.columns)
        return [[format_cell(c, s) for c, s in zip(row, specs, strict=True)] for row in self.rows]


def format_cell(cell: Cell, spec: str = "") -> str:
    """One cell as text: booleans as True/False, None as an empty cell, strings as they are,
    numbers by spec.

    A spec "~.N" prints N decimals with trailing zeros dropped, the way NumPy prints arrays
    (0.54, 1., -0.544), so tables can show a course's printed digits exactly.
    """
    if cell is None:
        return ""
    if isinstance(cell, bool | str) or not spec:
        return str(cell)
    if spec.startswith("~"):
        return format(cell, spec[1:] + "f").rstrip("0")
    return format(cell, spec)
