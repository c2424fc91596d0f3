"""Measure a table against the exact table of its identified convention.

The exact table comes from numeric.tables.sinusoidal_pe in float64 (within 2e-15 of the true
values), a block of rows at a time so memory stays bounded; mpmath (numeric.reference) then
re-measures the worst rows and a seeded sample, or every entry when asked or when the table is
float64 and small enough that the float64 yardstick could not resolve its error.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import numpy as np

from numeric.angles import OMEGA_BITS, Frequencies, reduced_angles
from numeric.precision import default_dims
from numeric.reference import reference_pe
from numeric.tables import accuracy_bound, sinusoidal_pe

YARDSTICK = accuracy_bound(np.float64)  # error of the float64 exact table, per unit amplitude
FULL_MPMATH_ENTRIES = 50_000  # float64 tables up to this size are measured entirely with mpmath
_REFINE_WORST = 8
_REFINE_RANDOM = 8
_SEED = 13


@dataclass(frozen=True)
class Convention:
    """What a table is measured against: its pairs (table columns), amplitude and, either a named
    schedule, base and integer offset (exact, via sinusoidal_pe), or fitted ω and phases."""

    sin_cols: np.ndarray
    cos_cols: np.ndarray
    scale: float
    scale_name: str | None
    schedule: str | None = None
    base: float | None = None
    offset: int | None = None
    omega: np.ndarray | None = None
    phase: np.ndarray | None = None
    amplitude: np.ndarray | None = None

    @property
    def exact(self) -> bool:
        """Whether this is an exact named convention (else fitted sinusoids)."""
        return self.schedule is not None and self.offset is not None

    @property
    def order(self) -> np.ndarray:
        """Table columns in interleaved order: sine of pair 0, its cosine, sine of pair 1, ..."""
        return np.stack([self.sin_cols, self.cos_cols], axis=1).ravel()


@dataclass(frozen=True)
class ErrorMeasure:
    """Per-row max error (NaN on zero rows), the overall max and its row, and how it was measured."""

    per_row: np.ndarray
    max_error: float
    worst_row: int
    method: str
    cross_check: dict | None


def _pieces(omega: np.ndarray) -> Frequencies:
    """Fitted ω split as numeric.tables splits its own, so row·ω is reduced mod 2π accurately."""
    pieces = []
    rest = omega.astype(np.float64)
    for _ in range(2):
        mantissa, exponent = np.frexp(rest)
        piece = np.ldexp(np.round(np.ldexp(mantissa, OMEGA_BITS)), exponent - OMEGA_BITS)
        pieces.append(piece)
        rest = rest - piece
    return Frequencies(omega, pieces[0], pieces[1], rest)


def exact_rows(conv: Convention, row0: int, row1: int) -> np.ndarray:
    """Rows row0 .. row1-1 of the exact table in interleaved column order, float64."""
    pairs = len(conv.sin_cols)
    if conv.exact:
        values = sinusoidal_pe(
            row1 - row0, 2 * pairs, base=conv.base, start=conv.offset + row0, schedule=conv.schedule
        )
        return values if conv.scale == 1.0 else values * conv.scale
    rows = np.arange(row0, row1, dtype=np.float64)[:, None]
    angle = reduced_angles(rows, _pieces(conv.omega)) + conv.phase
    out = np.empty((row1 - row0, 2 * pairs))
    out[:, 0::2] = conv.amplitude * np.sin(angle)
    out[:, 1::2] = conv.amplitude * np.cos(angle)
    return out


def row_errors(table: np.ndarray, valid: np.ndarray, conv: Convention) -> np.ndarray:
    """max |table - exact| of each row over the paired columns, float64 yardstick; NaN on zero rows."""
    n = table.shape[0]
    order = conv.order
    identity = len(order) == table.shape[1] and np.array_equal(order, np.arange(len(order)))
    block = max(64, 2**21 // max(len(order), 1))
    errors = np.empty(n)
    for a in range(0, n, block):
        b = min(a + block, n)
        values = np.asarray(table[a:b])
        if not identity:
            values = values[:, order]
        # In place on the fresh exact block: no float64 copy of the table's rows.
        diff = exact_rows(conv, a, b)
        np.subtract(values, diff, out=diff)
        errors[a:b] = np.abs(diff, out=diff).max(axis=1)
    errors[~valid] = np.nan
    return errors


def _scale_mp(conv: Convention) -> mpmath.mpf:
    d = mpmath.mpf(2 * len(conv.sin_cols))
    exact = {"1": mpmath.mpf(1), "d^-1/2": 1 / mpmath.sqrt(d), "sqrt(2/d)": mpmath.sqrt(2 / d)}
    return exact.get(conv.scale_name, mpmath.mpf(conv.scale))


def mpmath_row_errors(
    table: np.ndarray, rows: np.ndarray, conv: Convention, dps: int
) -> np.ndarray:
    """max |table - exact| of each given row over the paired columns, against mpmath at dps digits."""
    pairs = len(conv.sin_cols)
    order = conv.order
    values = np.asarray(table[rows], dtype=np.float64)[:, order]
    positions = [int(r) + conv.offset for r in rows]
    exact = reference_pe(
        positions, range(2 * pairs), 2 * pairs, base=conv.base, dps=dps, schedule=conv.schedule
    )
    with mpmath.workdps(dps + 20):
        scale = _scale_mp(conv)
        return np.array(
            [
                float(
                    max(abs(mpmath.mpf(float(v)) - scale * e) for v, e in zip(vs, es, strict=True))
                )
                for vs, es in zip(values, exact, strict=True)
            ]
        )


def measure_error(
    table: np.ndarray, valid: np.ndarray, conv: Convention, precision: str, exact_dps: int | None
) -> ErrorMeasure:
    """The table's error against conv: float64 yardstick on every row plus mpmath on a sample,
    or mpmath on every entry (exact_dps given, or a float64 table of at most FULL_MPMATH_ENTRIES)."""
    rows = np.flatnonzero(valid)
    entries = len(rows) * 2 * len(conv.sin_cols)
    if conv.exact and (
        exact_dps is not None or (precision == "float64" and entries <= FULL_MPMATH_ENTRIES)
    ):
        dps = exact_dps or 40
        per_row = np.full(table.shape[0], np.nan)
        per_row[rows] = mpmath_row_errors(table, rows, conv, dps)
        worst = int(np.nanargmax(per_row))
        return ErrorMeasure(
            per_row, float(per_row[worst]), worst, f"mpmath ({dps} digits) on every entry", None
        )
    per_row = row_errors(table, valid, conv)
    if not conv.exact:
        worst = int(np.nanargmax(per_row))
        return ErrorMeasure(
            per_row,
            float(per_row[worst]),
            worst,
            "float64, against the fitted sinusoids (no exact convention)",
            None,
        )
    rng = np.random.default_rng(_SEED)
    top = rows[np.argsort(per_row[rows])[-_REFINE_WORST:]]
    picked = rng.choice(rows, size=min(_REFINE_RANDOM, len(rows)), replace=False)
    refined = np.unique(np.concatenate([top, picked]))
    resolution = YARDSTICK * conv.scale
    if precision == "float64":
        # Here the float64 yardstick's own error is as large as the table's: mpmath decides.
        exact_errors = mpmath_row_errors(table, refined, conv, 40)
        float_errors = per_row[refined].copy()
        others = per_row.copy()
        others[refined] = np.nan
        per_row[refined] = exact_errors
        worst = int(np.nanargmax(per_row))
        max_error = float(per_row[worst])
        # Elsewhere the yardstick reads within `resolution` of the truth.
        if np.any(~np.isnan(others)) and np.nanmax(others) - resolution > max_error:
            worst = int(np.nanargmax(others))
            max_error = float(others[worst] - resolution)
        method = f"float64 exact table on every row (within {resolution:.0e}); mpmath on {len(refined)} rows"
    else:
        exact_errors, float_errors = _entry_check(table, refined, conv)
        worst = int(np.nanargmax(per_row))
        max_error = float(per_row[worst])
        method = (
            f"float64 exact table (within {resolution:.0e}) on every row; "
            f"mpmath cross-check on {len(exact_errors)} entries"
        )
    disagreement = float(np.abs(exact_errors - float_errors).max())
    cross_check = {
        "entries": len(exact_errors) if precision != "float64" else len(refined) * len(conv.order),
        "max_error_mpmath": float(exact_errors.max()),
        "max_error_float64": float(float_errors.max()),
        "largest_disagreement": disagreement,
        "agrees": disagreement <= resolution,
    }
    return ErrorMeasure(per_row, max_error, worst, method, cross_check)


def _entry_check(
    table: np.ndarray, rows: np.ndarray, conv: Convention
) -> tuple[np.ndarray, np.ndarray]:
    """|table - exact| by mpmath and by the float64 yardstick at each row's worst entry and at
    the dims numeric.precision.default_dims picks (fastest pairs, then spread out)."""
    order = conv.order
    dims = default_dims(len(order))
    exact_errors, float_errors = [], []
    for r in rows:
        values = np.asarray(table[r], dtype=np.float64)[order]
        float_error = np.abs(values - exact_rows(conv, int(r), int(r) + 1)[0])
        chosen = sorted({int(np.argmax(float_error)), *dims})
        exact = reference_pe(
            [int(r) + conv.offset], chosen, len(order), base=conv.base, schedule=conv.schedule
        )[0]
        with mpmath.workdps(60):
            scale = _scale_mp(conv)
            exact_errors += [
                float(abs(mpmath.mpf(float(values[j])) - scale * e))
                for j, e in zip(chosen, exact, strict=True)
            ]
        float_errors += [float(float_error[j]) for j in chosen]
    return np.array(exact_errors), np.array(float_errors)


def error_bands(per_row: np.ndarray, offset: int) -> list[dict]:
    """Max error over positions below 10^2, then in [10^k, 10^(k+1)) for each k, as dicts."""
    positions = np.arange(len(per_row)) + offset
    bands = []
    low, high = -np.inf, 100
    while True:
        inside = (positions >= low) & (positions < high) & ~np.isnan(per_row)
        if inside.any():
            first, last = int(positions[inside].min()), int(positions[inside].max())
            bands.append(
                {
                    "positions": f"{first}..{last}",
                    "below": int(high),
                    "max_error": float(per_row[inside].max()),
                }
            )
        if high > positions.max():
            return bands
        low, high = high, high * 10
