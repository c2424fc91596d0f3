"""Audit and Comparison: the results of numeric.audit and numeric.compare, as JSON and as short text."""

from __future__ import annotations

import textwrap
from dataclasses import asdict, dataclass

import numpy as np

WIDTH = 100


def plain(value: object) -> object:
    """value with NumPy scalars and arrays turned into Python numbers and lists, recursively."""
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, np.ndarray):
        return [plain(v) for v in value.tolist()]
    if isinstance(value, np.bool_):
        return bool(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def _wrapped(items: tuple[str, ...]) -> list[str]:
    lines = []
    for item in items:
        lines += textwrap.wrap(item, WIDTH, initial_indent="  - ", subsequent_indent="    ")
    return lines


@dataclass(frozen=True)
class Audit:
    """What a positional-encoding table is and how accurate it is (see numeric.table_audit.audit).

    pairs: (sine column, cosine column) per pair, in the layout's order; frequencies: fitted ω
    per pair; position_offset: row r holds position r + offset; max_abs_error: over non-zero rows,
    against the exact table of the identified convention, at worst_position; expected_error: what
    one rounding to the table's precision allows; rotation: the shift identity on the table itself.
    """

    shape: tuple[int, int]
    dtype: str
    precision: str
    sinusoidal: bool
    layout: str | None
    schedule: str | None
    base: float | None
    frequencies: tuple[float, ...]
    scale: float | None
    scale_name: str | None
    position_offset: int | None
    zero_rows: tuple[int, ...]
    zero_columns: tuple[int, ...]
    pairs: tuple[tuple[int, int], ...]
    pairs_share_frequency: bool
    max_abs_error: float | None
    worst_position: int | None
    expected_error: float
    error_by_position: tuple[dict, ...]
    error_method: str
    cross_check: dict | None
    distinct_rows: int
    identical_rows: tuple[int, int] | None
    rotation: dict
    findings: tuple[str, ...]

    @property
    def clean(self) -> bool:
        """A sinusoidal encoding whose pairs share a frequency and that passes the rotation check."""
        return self.sinusoidal and self.pairs_share_frequency and bool(self.rotation["passed"])

    def to_json(self) -> dict:
        """Every field as JSON-ready Python values (no NumPy scalars)."""
        return plain(asdict(self))

    def report_lines(self) -> list[str]:
        """A short human report, each line at most 100 columns."""
        n, d = self.shape
        lines = [f"audit of a ({n}, {d}) {self.dtype} table; values are {self.precision} numbers"]
        if self.pairs_share_frequency:
            scale = self.scale_name or f"{self.scale:.6g}"
            start = "?" if self.position_offset is None else str(self.position_offset)
            base = "" if self.base is None else f", base {self.base:g}"
            lines.append(
                f"convention: layout {self.layout}, schedule {self.schedule}{base}, "
                f"scale {scale}, row 0 = position {start}"
            )
        if self.max_abs_error is not None:
            lines.append(
                f"max error {self.max_abs_error:.2e} at position {self.worst_position} "
                f"(one {self.precision} rounding allows {self.expected_error:.1e})"
            )
        lines.append(
            f"sinusoidal within {self.precision} precision: {'yes' if self.sinusoidal else 'no'}"
        )
        if self.error_by_position:
            bands = "  ".join(
                f"<{b['below']:.0e}: {b['max_error']:.1e}" for b in self.error_by_position
            )
            lines += textwrap.wrap(f"by position: {bands}", WIDTH, subsequent_indent="  ")
        r = self.rotation
        if r["ks"]:
            ks = ", ".join(str(k) for k in r["ks"])
            text = (
                f"rotation R(kω)·PE[p] = PE[p+k] for k = {ks}: "
                f"{'passed' if r['passed'] else 'FAILED'} (worst at k = {r['worst_k']}: "
                f"residual {r['residual']:.1e}, tolerance {r['tolerance']:.1e})"
            )
            lines += textwrap.wrap(text, WIDTH, subsequent_indent="  ")
        lines.append(f"distinct rows: {self.distinct_rows} of {n}")
        lines.append("findings:")
        return lines + _wrapped(self.findings)


@dataclass(frozen=True)
class Comparison:
    """Whether B = scale·A·Pᵀ with rows shifted by offset (B row r = A row r + offset).

    permutation: B column j is scale × A column permutation[j]; first_difference: where the
    tables part (row and column of B, the two values, the magnitude) when they do not match.
    """

    same: bool
    permutation: tuple[int, ...] | None
    scale: float | None
    offset: int | None
    max_difference: float | None
    tolerance: float
    first_difference: dict | None
    findings: tuple[str, ...]

    def to_json(self) -> dict:
        """Every field as JSON-ready Python values (no NumPy scalars)."""
        return plain(asdict(self))

    def report_lines(self) -> list[str]:
        """A short human report, each line at most 100 columns."""
        head = "same encoding" if self.same else "different encodings"
        if self.max_difference is not None:
            head += f" (max difference {self.max_difference:.1e}, tolerance {self.tolerance:.1e})"
        lines = [head]
        return lines + _wrapped(self.findings)
