"""One numeric cross-check per identity of proofs/, on concrete tables, each returning a Table.

Every check runs over all positions and all pairs, vectorised over a chunk of rows at a time so
the temporaries stay small however long the table is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import DTypeLike

from numeric import validate
from numeric.table import Table
from numeric.tables import (
    accuracy_bound,
    frequencies,
    ramp_encoding,
    raw_index_encoding,
    sinusoidal_pe,
)

CHUNK_ROWS = 4096
_U = 2.0**-53  # unit roundoff of float64
# A ramp residual below this is indistinguishable from rounding, so not evidence of a misfit.
RAMP_MISFIT_FLOOR = 1e-12
# A least-squares fit that is exact in real arithmetic lands within this of zero residual.
EXACT_FIT_TOLERANCE = 1e-12


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


def best_linear_shift(table: np.ndarray, k: int) -> tuple[np.ndarray, float]:
    """The least-squares matrix M with M·row[pos] ≈ row[pos + k] over all pos, and its residual.

    table: any (positions, dims) encoding, for instance learned or random vectors; k: an integer
    offset with |k| < positions. The residual is max |M·row[pos] − row[pos + k]| over all pos
    and dims; it is zero (up to rounding) exactly when a pos-independent linear map exists.
    """
    table = np.asarray(table, dtype=np.float64)
    if table.ndim != 2:
        raise ValueError(f"table must be 2-D (positions, dims), got shape {table.shape}")
    k = validate.integer(k, "k")
    n = table.shape[0]
    if abs(k) >= n:
        raise ValueError(f"k must satisfy |k| < {n} (the number of positions), got {k}")
    source, target = (table[: n - k], table[k:]) if k >= 0 else (table[-k:], table[: n + k])
    solution, *_ = np.linalg.lstsq(source, target, rcond=None)
    residual = float(np.abs(source @ solution - target).max())
    return solution.T, residual


def _rotation_matrix(theta: float) -> np.ndarray:
    """The module's R(θ), mapping the (sin, cos) pair at pos to the pair at pos + k."""
    return np.array([[math.cos(theta), math.sin(theta)], [-math.sin(theta), math.cos(theta)]])


def _integer_ks(ks: Iterable[object], limit: int) -> tuple[int, ...]:
    result = tuple(validate.integer(k, "ks") for k in ks)
    for k in result:
        if abs(k) >= limit:
            raise ValueError(f"ks must satisfy |k| < {limit}, got {k}")
    return result


def ramp_table(*, max_len: int = 50, ks: Iterable[int] = (1, 5)) -> Table:
    """The ramp r(pos) = pos/max_len has no pos-independent linear shift; the sinusoidal pair has one.

    For each k: the least-squares scalar a with a·r(pos) ≈ r(pos + k) over all pos, its residual,
    and for contrast the best 2×2 map for the sinusoidal pair at ω = 1 and its distance from R(k).
    """
    max_len = validate.max_len(max_len)
    if max_len < 3:
        raise ValueError(f"max_len must be at least 3 for a least-squares fit, got {max_len}")
    ks = _integer_ks(ks, max_len - 1)
    ramp = ramp_encoding(max_len)
    pair = sinusoidal_pe(max_len, 2)
    rows = []
    for k in ks:
        a, ramp_residual = best_linear_shift(ramp, k)
        m, pair_residual = best_linear_shift(pair, k)
        distance = float(np.abs(m - _rotation_matrix(k)).max())
        ramp_ok = ramp_residual > RAMP_MISFIT_FLOOR if k else ramp_residual <= EXACT_FIT_TOLERANCE
        ok = ramp_ok and pair_residual <= EXACT_FIT_TOLERANCE and distance <= EXACT_FIT_TOLERANCE
        rows.append((k, float(a[0, 0]), ramp_residual, pair_residual, distance, ok))
    return Table(
        title=f"ramp vs sinusoidal pair: best linear map from pos to pos+k over all {max_len} positions",
        columns=("k", "ramp a", "ramp residual", "pair residual", "pair |M − R(k)|", "as claimed"),
        rows=tuple(rows),
        formats=("d", ".6f", ".3e", ".1e", ".1e", ""),
        note=(
            f"claim: for k ≠ 0 the ramp's residual is > {RAMP_MISFIT_FLOOR:g} (no scalar works), "
            f"while the pair's best map is R(k) with residual ≤ {EXACT_FIT_TOLERANCE:g}"
        ),
        passed=all(r[-1] for r in rows),
    )


def ramp_range_table(
    *,
    k: int = 5,
    ranges: Sequence[tuple[int, int]] = (
        (0, 10),
        (0, 50),
        (10, 20),
        (40, 50),
        (1000, 1010),
        (0, 1000),
    ),
) -> Table:
    """How the ramp's best scalar a for r(pos) → r(pos + k) depends on the positions fitted.

    ranges: (first, stop) position ranges, stop exclusive, each with at least two positions.
    a = Σ p(p+k) / Σ p² does not depend on max_len, so the ramp is built just long enough. The
    sinusoidal pair's best map is the same R(k) on every range, shown for contrast.
    """
    k = validate.integer(k, "k")
    if k <= 0:
        raise ValueError(f"k must be a positive integer, got {k}")
    spans = []
    for span in ranges:
        if len(span) != 2:
            raise ValueError(f"ranges must be (first, stop) pairs, got {span!r}")
        first, stop = (validate.integer(v, "ranges") for v in span)
        if not first >= 0 or stop - first < 2:
            raise ValueError(
                f"ranges must be (first, stop) with 0 <= first and stop - first >= 2, got {span!r}"
            )
        spans.append((first, stop))
    if not spans:
        raise ValueError("ranges must not be empty")
    length = max(stop for _, stop in spans) + k
    ramp = ramp_encoding(length)
    pair = sinusoidal_pe(length, 2)
    rotation = _rotation_matrix(k)
    rows = []
    for first, stop in spans:
        a, residual = best_linear_shift(ramp[first : stop + k], k)
        m, _ = best_linear_shift(pair[first : stop + k], k)
        rows.append(
            (f"{first}..{stop - 1}", float(a[0, 0]), residual, float(np.abs(m - rotation).max()))
        )
    a_values = [r[1] for r in rows]
    spread = max(a_values) - min(a_values)
    pair_fixed = all(r[3] <= EXACT_FIT_TOLERANCE for r in rows)
    return Table(
        title=f"ramp: best scalar a for r(pos) → r(pos+{k}) depends on the positions used",
        columns=("positions", "ramp a", "ramp residual", "pair |M − R(k)|"),
        rows=tuple(rows),
        formats=("", ".6f", ".3e", ".1e"),
        note=(
            f"a spreads by {spread:.4f} across the ranges (it tends to 1 as positions grow), "
            "while the sinusoidal pair's best map is R(k) on every range"
        ),
        passed=(spread > RAMP_MISFIT_FLOOR or len(rows) == 1) and pair_fixed,
    )


def table_bounds(table: np.ndarray) -> tuple[float, float]:
    """(min, max) over every entry of the table."""
    table = np.asarray(table)
    if table.size == 0:
        raise ValueError("table must not be empty")
    return float(table.min()), float(table.max())


def bounds_table(
    *,
    max_len: int = 50,
    d_model: int = 8,
    base: float = 10000.0,
    dtype: DTypeLike = np.float64,
    layout: str = "interleaved",
) -> Table:
    """Min and max of the sinusoidal table, beside the ramp and the raw index for contrast."""
    max_len = validate.max_len(max_len)
    if max_len == 0:
        raise ValueError("max_len must be positive for min and max, got 0")
    table = sinusoidal_pe(max_len, d_model, base=base, dtype=dtype, layout=layout)
    rows = []
    for name, encoding in (
        (f"sinusoidal ({max_len}, {d_model})", table),
        ("ramp pos/max_len", ramp_encoding(max_len)),
        ("raw index pos", raw_index_encoding(max_len)),
    ):
        low, high = table_bounds(encoding)
        rows.append((name, low, high, low >= -1.0 and high <= 1.0))
    return Table(
        title=f"bounds over all {max_len} positions",
        columns=("encoding", "min", "max", "within [-1, 1]"),
        rows=tuple(rows),
        note="the sinusoidal table must stay in [-1, 1]; the raw index grows with max_len",
        passed=rows[0][3],
    )


def _row_hashes(table: np.ndarray) -> np.ndarray:
    """A 64-bit hash of each row's values; equal rows (by value) get equal hashes."""
    multipliers = (
        np.random.default_rng(20170612).integers(1, 2**63, table.shape[1], dtype=np.uint64) | 1
    )
    hashes = np.empty(table.shape[0], dtype=np.uint64)
    for a in range(0, table.shape[0], CHUNK_ROWS):
        # + 0.0 turns -0.0 into 0.0, so rows equal by value hash alike.
        bits = (table[a : a + CHUNK_ROWS].astype(np.float64) + 0.0).view(np.uint64)
        bits ^= bits >> np.uint64(29)
        hashes[a : a + CHUNK_ROWS] = (bits * multipliers).sum(axis=1, dtype=np.uint64)
    return hashes


def unique_rows(table: np.ndarray) -> int:
    """The number of distinct rows of a 2-D table, compared by value (-0.0 equals 0.0).

    Uses one 64-bit hash per row, so the extra memory is 8 bytes a row; rows whose hashes
    collide are compared exactly.
    """
    table = np.asarray(table)
    if table.ndim != 2:
        raise ValueError(f"table must be 2-D (positions, dims), got shape {table.shape}")
    if table.shape[0] == 0:
        return 0
    hashes = _row_hashes(table)
    values, inverse, counts = np.unique(hashes, return_inverse=True, return_counts=True)
    distinct = len(values)
    for group in np.flatnonzero(counts > 1):
        members = table[inverse == group].astype(np.float64) + 0.0
        distinct += len(np.unique(members, axis=0)) - 1
    return distinct


def unique_rows_table(
    *,
    max_len: int = 50,
    d_model: int = 8,
    base: float = 10000.0,
    dtype: DTypeLike = np.float64,
    layout: str = "interleaved",
) -> Table:
    """The number of distinct rows of sinusoidal_pe(max_len, d_model): every position its own encoding."""
    table = sinusoidal_pe(max_len, d_model, base=base, dtype=dtype, layout=layout)
    distinct = unique_rows(table)
    return Table(
        title=f"distinct rows of the ({max_len}, {d_model}) {np.dtype(dtype).name} table",
        columns=("rows", "distinct rows"),
        rows=((max_len, distinct),),
        note=f"{distinct} unique rows out of {max_len}",
        passed=distinct == max_len,
    )
