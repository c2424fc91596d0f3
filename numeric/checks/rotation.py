"""The rotation theorem's numeric twin (proofs/rotation.py): R(kω_i) maps each pair to pos + k.

The check runs over all positions and all pairs, vectorised over a block of rows at a time so
the temporaries stay small however long the table is, against a tolerance derived from the
table's own accuracy.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import numpy as np
from numpy.typing import DTypeLike

from numeric import validate
from numeric.blocks import CHUNK_ROWS
from numeric.table import Table
from numeric.tables import (
    accuracy_bound,
    frequencies,
    sinusoidal_pe,
)

_U = 2.0**-53  # unit roundoff of float64


def _sin_cos(rows: np.ndarray, layout: str) -> tuple[np.ndarray, np.ndarray]:
    rows = rows.astype(np.float64, copy=False)
    if layout == "interleaved":
        return rows[:, 0::2], rows[:, 1::2]
    half = rows.shape[1] // 2
    return rows[:, :half], rows[:, half:]


def rotation_tolerance(k: float, omega_max: float, table_error: float) -> float:
    """Bound on |R(kω)·PE[pos] − PE[pos+k]| for tables with entry error table_error.

    Each side carries the table's error (the rotated side up to √2 times), R's entries carry
    the rounding of the angle k·ω (which grows with |k·ω|) and of sin/cos, and the product
    adds a few roundings; each rounding is counted at 2u to cover libm's last-bit error.
    """
    return (1 + math.sqrt(2)) * table_error + 2 * math.sqrt(2) * _U * (abs(k) * omega_max + 3)


def _rotation_residual(
    table: np.ndarray, k: float, omega: np.ndarray, base: float, layout: str, schedule: str
) -> tuple[float, int]:
    """max |R(kω)·PE[pos] − PE[pos+k]| over all pos and pairs, and the number of pos compared."""
    n, d_model = table.shape
    theta = k * omega
    cos_t, sin_t = np.cos(theta), np.sin(theta)
    whole = float(k).is_integer()
    lo, hi = (max(0, -int(k)), n - max(0, int(k))) if whole else (0, n)
    worst = 0.0
    for a in range(lo, hi, CHUNK_ROWS):
        b = min(a + CHUNK_ROWS, hi)
        s, c = _sin_cos(table[a:b], layout)
        if whole:
            shifted = table[a + int(k) : b + int(k)]
        else:
            # PE at non-integer positions is not in the table: compute it the same way.
            shifted = sinusoidal_pe(
                b - a,
                d_model,
                base=base,
                dtype=table.dtype,
                layout=layout,
                start=a + k,
                schedule=schedule,
            )
        s_k, c_k = _sin_cos(shifted, layout)
        residual = np.maximum(
            np.abs(cos_t * s + sin_t * c - s_k), np.abs(cos_t * c - sin_t * s - c_k)
        )
        worst = max(worst, float(residual.max()))
    return worst, max(hi - lo, 0)


def rotation_check(
    table: np.ndarray,
    ks: Iterable[float] = (1, 5, -3, 2.5),
    *,
    base: float = 10000.0,
    layout: str = "interleaved",
    schedule: str = "paper",
) -> Table:
    """Rotation identity on a sinusoidal table: R(kω_i)·PE[pos, pair i] = PE[pos + k, pair i].

    table: a sinusoidal_pe table (any dtype) with the given base, layout and frequency schedule,
    row j = position j;
    ks: offsets, negative and non-integer allowed (non-integer k compares against PE computed
    at pos + k). Each k's residual is checked against rotation_tolerance.
    """
    table = np.asarray(table)
    if table.ndim != 2 or table.shape[1] == 0 or table.shape[1] % 2:
        raise ValueError(
            f"table must be 2-D with an even, positive number of columns, got {table.shape}"
        )
    dtype = validate.dtype(table.dtype, "table dtype")
    layout = validate.layout(layout)
    schedule = validate.schedule(schedule)
    base = validate.base(base)
    ks = tuple(validate.finite(k, "ks") for k in ks)
    n, d_model = table.shape
    for k in ks:
        if k.is_integer() and abs(k) >= n:
            raise ValueError(f"integer k must satisfy |k| < max_len = {n}, got {k:g}")
    omega = frequencies(d_model, base=base, schedule=schedule)
    error = accuracy_bound(dtype)
    rows = []
    for k in ks:
        residual, count = _rotation_residual(table, k, omega, base, layout, schedule)
        tol = rotation_tolerance(k, float(omega.max()), error)
        rows.append(
            (k, abs(k) * float(omega.max()), count * (d_model // 2), residual, tol, residual <= tol)
        )
    return Table(
        title=f"rotation: R(kω)·PE[pos] vs PE[pos+k], ({n}, {d_model}) {dtype.name} table",
        columns=("k", "max |kω|", "pairs compared", "max residual", "tolerance", "within"),
        rows=tuple(rows),
        formats=("g", ".4g", "d", ".2e", ".2e", ""),
        note=(
            f"tolerance = (1+√2)·ε + 2√2·u·(|k|·ω_max + 3), with table error ε = {error:.1e} "
            "and u = 2^-53; all positions and all pairs"
        ),
        passed=all(r[-1] for r in rows),
    )


def rotation_table(
    *,
    max_len: int = 2048,
    d_model: int = 8,
    base: float = 10000.0,
    ks: Iterable[float] = (1, 5, -3, 2.5),
    dtype: DTypeLike = np.float64,
    layout: str = "interleaved",
) -> Table:
    """The rotation check on a fresh sinusoidal_pe(max_len, d_model) table (the theorem's numeric twin)."""
    table = sinusoidal_pe(max_len, d_model, base=base, dtype=dtype, layout=layout)
    return rotation_check(table, ks, base=base, layout=layout)
