"""The rotation theorem's numeric twin (proofs/theorems/sinusoidal/rotation.py): R(kω_i) maps each pair to pos + k.

The check runs over all positions and all pairs, vectorised over a block of rows at a time so
the temporaries stay small however long the table is, against a tolerance derived from the
table's own accuracy.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable

import numpy as np
from numpy.typing import DTypeLike

from numeric import validate
from numeric.blocks import block_rows, check_positions, row_blocks
from numeric.result_table import Table
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


# Rows(a, b): rows a .. b−1 of the table (positions start at 0), however they are obtained.
Rows = Callable[[int, int], np.ndarray]


def _pair_residual(
    s: np.ndarray,
    c: np.ndarray,
    shifted: np.ndarray,
    cos_t: np.ndarray,
    sin_t: np.ndarray,
    layout: str,
) -> float:
    s_k, c_k = _sin_cos(shifted, layout)
    residual = np.maximum(np.abs(cos_t * s + sin_t * c - s_k), np.abs(cos_t * c - sin_t * s - c_k))
    return float(residual.max()) if residual.size else 0.0


def rotation_residuals(
    rows: Rows,
    shape: tuple[int, int],
    dtype: np.dtype,
    ks: tuple[float, ...],
    omega: np.ndarray,
    base: float,
    layout: str,
    schedule: str,
) -> list[tuple[float, int]]:
    """For each k, max |R(kω)·PE[pos] − PE[pos+k]| over all pos and pairs, and the pos compared.

    Walks the positions a block at a time: each block's rows, and the rows k further on for every
    integer k, come from one call rows(a, b); non-integer k compares against PE computed at pos + k.
    """
    n, d_model = shape
    whole = [float(k).is_integer() for k in ks]
    shifts = [0] + [int(k) for k, w in zip(ks, whole, strict=True) if w]
    ranges = [
        (max(0, -int(k)), n - max(0, int(k))) if w else (0, n)
        for k, w in zip(ks, whole, strict=True)
    ]
    trig = [(np.cos(k * omega), np.sin(k * omega)) for k in ks]
    worst = [0.0] * len(ks)
    for a, b in row_blocks(0, n, block_rows(d_model)):
        lo, hi = max(0, a + min(shifts)), min(n, b + max(shifts))
        extended = rows(lo, hi)
        here = extended[a - lo : b - lo]
        for j, k in enumerate(ks):
            p, q = max(a, ranges[j][0]), min(b, ranges[j][1])
            if p >= q:
                continue
            s, c = _sin_cos(here[p - a : q - a], layout)
            if whole[j]:
                shifted = extended[p + int(k) - lo : q + int(k) - lo]
            else:
                # PE at non-integer positions is not in the table: compute it the same way.
                shifted = sinusoidal_pe(
                    q - p,
                    d_model,
                    base=base,
                    dtype=dtype,
                    layout=layout,
                    start=p + k,
                    schedule=schedule,
                )
            worst[j] = max(worst[j], _pair_residual(s, c, shifted, *trig[j], layout))
    return [(w, max(hi - lo, 0)) for w, (lo, hi) in zip(worst, ranges, strict=True)]


def _rotation_report(
    residuals: list[tuple[float, int]],
    ks: tuple[float, ...],
    shape: tuple[int, int],
    dtype: np.dtype,
    omega: np.ndarray,
) -> Table:
    n, d_model = shape
    error = accuracy_bound(dtype)
    rows = []
    for k, (residual, count) in zip(ks, residuals, strict=True):
        tol = rotation_tolerance(k, float(omega.max()), error)
        rows.append(
            (k, abs(k) * float(omega.max()), count * (d_model // 2), residual, tol, residual <= tol)
        )
    return Table(
        title=f"rotation: R(kω)·PE[pos] vs PE[pos+k], ({n}, {d_model}) {dtype.name} table",
        headline="R(kω_i)·PE(pos) = PE(pos + k) on the table",
        columns=("k", "max |kω|", "pairs compared", "max residual", "tolerance", "within"),
        rows=tuple(rows),
        formats=("g", ".4g", "d", ".2e", ".2e", ""),
        note=(
            f"tolerance = (1+√2)·ε + 2√2·u·(|k|·ω_max + 3), with table error ε = {error:.1e} "
            "and u = 2^-53; all positions and all pairs"
        ),
        passed=all(r[-1] for r in rows),
    )


def _checked_ks(ks: Iterable[float], n: int) -> tuple[float, ...]:
    ks = tuple(validate.finite(k, "ks") for k in ks)
    for k in ks:
        if k.is_integer() and abs(k) >= n:
            raise ValueError(f"integer k must satisfy |k| < max_len = {n}, got {k:g}")
    return ks


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
    n, d_model = table.shape
    ks = _checked_ks(ks, n)
    omega = frequencies(d_model, base=base, schedule=schedule)
    residuals = rotation_residuals(
        lambda a, b: table[a:b], table.shape, dtype, ks, omega, base, layout, schedule
    )
    return _rotation_report(residuals, ks, table.shape, dtype, omega)


def rotation_table(
    *,
    max_len: int = 2048,
    d_model: int = 8,
    base: float = 10000.0,
    ks: Iterable[float] = (1, 5, -3, 2.5),
    dtype: DTypeLike = np.float64,
    layout: str = "interleaved",
) -> Table:
    """The rotation check on sinusoidal_pe(max_len, d_model) (the theorem's numeric twin).

    The table is never held whole: each block of rows is computed with sinusoidal_pe(start=),
    bit-identical to the same rows of the whole table, and checked before the next is built.
    """
    max_len = validate.max_len(max_len)
    d_model = validate.d_model(d_model)
    base = validate.base(base)
    dtype = validate.dtype(dtype)
    layout = validate.layout(layout)
    ks = _checked_ks(ks, max_len)
    check_positions(max_len + max(0.0, *(abs(k) for k in ks)))
    omega = frequencies(d_model, base=base)

    def rows(a: int, b: int) -> np.ndarray:
        return sinusoidal_pe(b - a, d_model, base=base, dtype=dtype, layout=layout, start=a)

    shape = (max_len, d_model)
    residuals = rotation_residuals(rows, shape, dtype, ks, omega, base, layout, "paper")
    return _rotation_report(residuals, ks, shape, dtype, omega)
