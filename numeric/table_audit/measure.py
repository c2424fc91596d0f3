"""Measure a table against the exact table of a convention, at the positions its rows hold.

The exact rows come from numeric.tables.sinusoidal_rows in float64 (within 2e-15 of the true
values) for integer positions, and from the same exact angle reduction plus the fractional part
for other positions, a block of rows at a time so memory stays bounded; mpmath
(numeric.reference) then re-measures the worst rows and a seeded sample, or every entry when
asked or when the table is float64 and small enough that the float64 yardstick could not resolve
its error. A fitted convention (no named schedule) is measured against its fitted sinusoids.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import mpmath
import numpy as np

from numeric.angles import OMEGA_BITS, Frequencies, reduced_angles
from numeric.audit.grading import needed_roundoff
from numeric.audit.rows import Rows, column_index
from numeric.precision import default_dims
from numeric.table_audit import schedules
from numeric.tables import accuracy_bound, sinusoidal_pe, sinusoidal_rows

YARDSTICK = accuracy_bound(np.float64)  # error of the float64 exact table, per unit amplitude
FULL_MPMATH_ENTRIES = 50_000  # float64 tables up to this size are measured entirely with mpmath
_MAX_INTEGER_POSITION = 2**31 - 3
_REFINE_WORST = 8
_REFINE_RANDOM = 8
_SEED = 13


@dataclass(frozen=True)
class Convention:
    """What a table is measured against: its pairs (table columns, in schedule order) and
    amplitude, and either a named schedule, base and shift (exact: ω_i from
    numeric.table_audit.schedules, the table at the positions given) or fitted frequencies a
    row, angles at row 0 and amplitudes (the table at its row indices)."""

    sin_cols: np.ndarray
    cos_cols: np.ndarray
    scale: float
    scale_name: str | None
    schedule: str | None = None
    base: float | None = None
    shift: float = 0.0
    omega: np.ndarray | None = None
    phase: np.ndarray | None = None
    amplitude: np.ndarray | None = None

    @property
    def exact(self) -> bool:
        """Whether this is an exact named convention (else fitted sinusoids)."""
        return self.schedule is not None

    @property
    def d_model(self) -> int:
        return 2 * len(self.sin_cols)

    @property
    def order(self) -> np.ndarray:
        """Table columns in interleaved order: sine of pair 0, its cosine, sine of pair 1, ..."""
        return np.stack([self.sin_cols, self.cos_cols], axis=1).ravel()

    def pieces(self) -> Frequencies:
        """The named schedule's exact frequencies, split for exact angle reduction."""
        return schedules.pieces(self.d_model, self.base, self.shift)

    def frequencies(self) -> np.ndarray:
        """ω_i per position (named) or per row (fitted)."""
        if self.exact:
            return self.pieces().approx
        return self.omega


@dataclass(frozen=True)
class ErrorMeasure:
    """Per-row max error (NaN on zero rows), the overall max and its row, and how it was measured."""

    per_row: np.ndarray
    max_error: float
    worst_row: int
    method: str
    cross_check: dict | None


def _pieces(omega: np.ndarray) -> Frequencies:
    """Fitted ω split as numeric.angles splits its own, so row·ω is reduced mod 2π accurately."""
    pieces = []
    rest = omega.astype(np.float64)
    for _ in range(2):
        mantissa, exponent = np.frexp(rest)
        piece = np.ldexp(np.round(np.ldexp(mantissa, OMEGA_BITS)), exponent - OMEGA_BITS)
        pieces.append(piece)
        rest = rest - piece
    return Frequencies(omega, pieces[0], pieces[1], rest)


def exact_at(conv: Convention, positions: np.ndarray) -> np.ndarray:
    """The exact rows at the given positions (row indices for a fitted convention), float64,
    in interleaved column order."""
    positions = np.asarray(positions, dtype=np.float64)
    if not conv.exact:
        angle = reduced_angles(positions[:, None], _pieces(conv.omega)) + conv.phase
        out = np.empty((len(positions), conv.d_model))
        out[:, 0::2] = conv.amplitude * np.sin(angle)
        out[:, 1::2] = conv.amplitude * np.cos(angle)
        return out
    whole = np.floor(positions)
    fast = conv.schedule in schedules.SHIFTS and np.all(np.abs(whole) <= _MAX_INTEGER_POSITION)
    if fast and np.array_equal(whole, positions) and _counting(positions):
        # Positions p, p+1, ...: the table's own block recurrence, the fastest path.
        values = sinusoidal_pe(
            len(positions),
            conv.d_model,
            base=conv.base,
            start=int(positions[0]),
            schedule=conv.schedule,
        )
    elif fast and np.array_equal(whole, positions):
        values = sinusoidal_rows(
            whole.astype(np.int64), conv.d_model, base=conv.base, schedule=conv.schedule
        )
    else:
        pieces = conv.pieces()
        angle = reduced_angles(whole[:, None], pieces) + np.outer(positions - whole, pieces.approx)
        values = np.empty((len(positions), conv.d_model))
        values[:, 0::2], values[:, 1::2] = np.sin(angle), np.cos(angle)
    return values if conv.scale == 1.0 else values * conv.scale


def _counting(positions: np.ndarray) -> bool:
    """Whether the positions are p, p+1, p+2, ... (at least two of them)."""
    return len(positions) > 1 and bool(np.all(np.diff(positions) == 1))


def pair_errors_at(values: np.ndarray, positions: np.ndarray, conv: Convention) -> np.ndarray:
    """(rows, pairs): max of |sin − exact| and |cos − exact| of each pair (values: table rows,
    all columns) at the positions."""
    exact = exact_at(conv, positions)
    # Sines against the even columns of the exact rows, cosines against the odd ones: views,
    # not copies, when the layout's columns are evenly spaced (every standard layout).
    sines = np.abs(values[:, column_index(conv.sin_cols)] - exact[:, 0::2])
    cosines = np.abs(values[:, column_index(conv.cos_cols)] - exact[:, 1::2])
    return np.maximum(sines, cosines, out=sines)


def errors_at(values: np.ndarray, positions: np.ndarray, conv: Convention) -> np.ndarray:
    """max |values - exact| of each row (values: table rows, all columns) at the positions."""
    return pair_errors_at(values, positions, conv).max(axis=1)


def _measured_rows(table: Rows, positions: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """(row numbers, their values) a block at a time, rows whose position is NaN left out."""
    n = table.shape[0]
    step = table.block_rows()
    for a in range(0, n, step):
        b = min(a + step, n)
        here = np.flatnonzero(~np.isnan(positions[a:b])) + a
        if len(here):
            yield here, (table[a:b] if len(here) == b - a else table[here])


def row_errors(table: Rows, positions: np.ndarray, conv: Convention) -> np.ndarray:
    """max |table - exact| of each row over the paired columns; NaN where positions is NaN."""
    errors = np.full(table.shape[0], np.nan)
    for here, values in _measured_rows(table, positions):
        errors[here] = errors_at(values, positions[here], conv)
    return errors


def row_needs(
    table: Rows,
    positions: np.ndarray,
    conv: Convention,
    rounding: float,
    amplitude: float,
    sigma: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(errors, needs) per row, in one pass: max |table - exact| over the paired columns (as
    row_errors), and the least unit roundoff whose caps cover each pair's error at the row's
    position (numeric.audit.grading.needed_roundoff); NaN where positions is NaN. sigma: the
    fitted frequencies' and phases' uncertainties per pair, taken off each pair's error before
    its need (a fit's uncertainty is not the table's error)."""
    omega = np.abs(conv.frequencies())
    with np.errstate(divide="ignore"):
        log_omega = np.log(np.maximum(omega, np.finfo(np.float64).tiny))
    errors = np.full(table.shape[0], np.nan)
    needs = np.full(table.shape[0], np.nan)
    for here, values in _measured_rows(table, positions):
        at = np.abs(positions[here])[:, None]
        pair_errors = pair_errors_at(values, positions[here], conv)
        errors[here] = pair_errors.max(axis=1)
        if sigma is not None:
            pair_errors = np.maximum(pair_errors - 5 * amplitude * (at * sigma[0] + sigma[1]), 0)
        needs[here] = needed_roundoff(pair_errors, at * omega, log_omega, rounding, amplitude)
    return errors, needs


def _scale_mp(conv: Convention) -> mpmath.mpf:
    d = mpmath.mpf(conv.d_model)
    exact = {"1": mpmath.mpf(1), "d^-1/2": 1 / mpmath.sqrt(d), "sqrt(2/d)": mpmath.sqrt(2 / d)}
    return exact.get(conv.scale_name, mpmath.mpf(conv.scale))


def mpmath_row_errors(
    table: Rows, rows: np.ndarray, positions: np.ndarray, conv: Convention, dps: int
) -> np.ndarray:
    """max |table - exact| of each given row over the paired columns, against mpmath at dps
    digits; positions: the position of each of those rows."""
    values = table[rows][:, conv.order]
    exact = schedules.reference(
        [float(p) for p in positions],
        list(range(conv.d_model)),
        conv.d_model,
        conv.base,
        conv.shift,
        dps,
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
    table: Rows,
    positions: np.ndarray,
    conv: Convention,
    precision: str,
    exact_dps: int | None,
    per_row: np.ndarray | None = None,
) -> ErrorMeasure:
    """The table's error against conv at the rows' positions (NaN: zero rows): the float64
    yardstick on every row plus mpmath on a sample, or mpmath on every entry (exact_dps given,
    or a float64 table of at most FULL_MPMATH_ENTRIES). per_row: the yardstick's errors, if
    already measured."""
    rows = np.flatnonzero(~np.isnan(positions))
    entries = len(rows) * conv.d_model
    if conv.exact and (
        exact_dps is not None or (precision == "float64" and entries <= FULL_MPMATH_ENTRIES)
    ):
        dps = exact_dps or 40
        per_row = np.full(table.shape[0], np.nan)
        per_row[rows] = mpmath_row_errors(table, rows, positions[rows], conv, dps)
        worst = int(np.nanargmax(per_row))
        return ErrorMeasure(
            per_row, float(per_row[worst]), worst, f"mpmath ({dps} digits) on every entry", None
        )
    per_row = row_errors(table, positions, conv) if per_row is None else per_row.copy()
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
        exact_errors = mpmath_row_errors(table, refined, positions[refined], conv, 40)
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
        entries_checked = len(refined) * conv.d_model
    else:
        exact_errors, float_errors = _entry_check(table, refined, positions[refined], conv)
        worst = int(np.nanargmax(per_row))
        max_error = float(per_row[worst])
        method = (
            f"float64 exact table (within {resolution:.0e}) on every row; "
            f"mpmath cross-check on {len(exact_errors)} entries"
        )
        entries_checked = len(exact_errors)
    disagreement = float(np.abs(exact_errors - float_errors).max())
    cross_check = {
        "entries": entries_checked,
        "max_error_mpmath": float(exact_errors.max()),
        "max_error_float64": float(float_errors.max()),
        "largest_disagreement": disagreement,
        "agrees": disagreement <= resolution,
    }
    return ErrorMeasure(per_row, max_error, worst, method, cross_check)


def _entry_check(
    table: Rows, rows: np.ndarray, positions: np.ndarray, conv: Convention
) -> tuple[np.ndarray, np.ndarray]:
    """|table - exact| by mpmath and by the float64 yardstick at each row's worst entry and at
    the dims numeric.precision.default_dims picks (fastest pairs, then spread out)."""
    dims = default_dims(conv.d_model)
    values = table[rows][:, conv.order]
    float_all = np.abs(values - exact_at(conv, positions))
    exact_errors, float_errors = [], []
    for k, position in enumerate(positions):
        chosen = sorted({int(np.argmax(float_all[k])), *dims})
        exact = schedules.reference(
            [float(position)], chosen, conv.d_model, conv.base, conv.shift, 40
        )[0]
        with mpmath.workdps(60):
            scale = _scale_mp(conv)
            exact_errors += [
                float(abs(mpmath.mpf(float(values[k, j])) - scale * e))
                for j, e in zip(chosen, exact, strict=True)
            ]
        float_errors += [float(float_all[k, j]) for j in chosen]
    return np.array(exact_errors), np.array(float_errors)


def error_bands(per_row: np.ndarray, positions: np.ndarray) -> list[dict]:
    """Max error over |positions| below 10^2, then in [10^k, 10^(k+1)) for each k, as dicts."""
    keep = ~np.isnan(per_row) & ~np.isnan(positions)
    magnitude = np.abs(positions[keep])
    errors = per_row[keep]
    bands = []
    low, high = -np.inf, 100.0
    while len(magnitude):
        inside = (magnitude >= low) & (magnitude < high)
        if inside.any():
            bands.append(
                {
                    "positions": f"{magnitude[inside].min():g}..{magnitude[inside].max():g}",
                    "below": high,
                    "max_error": float(errors[inside].max()),
                }
            )
        if high > magnitude.max():
            break
        low, high = high, high * 10
    return bands
