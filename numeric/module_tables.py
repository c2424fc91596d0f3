"""The course module's printed tables and its three exercises, recomputed live as Tables."""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from numeric import validate
from numeric.checks.bounded import table_bounds
from numeric.checks.unique import unique_rows
from numeric.result_table import Table
from numeric.tables import frequencies, sinusoidal_pe

PE_ROWS = (0, 1, 10)  # the rows the module prints
EXERCISE_D_MODEL = 64  # exercise 1's "larger d_model"
EXERCISE_PAIR = 1  # exercise 2's "dims 2-3"
BYTES_PER_ENTRY = 8

_PARAMETER_NAMES = {
    "max_len": "max_len",
    "d_model": "d_model",
    "base": "base",
    "k": "k",
    "positions": "positions",
    "dims": "dims",
    "exercise_k": "exercise_k",
}


def default_dims(d_model: int) -> tuple[int, ...]:
    """Exercise 3's default: the sine dims of up to four pairs spread from low to high i."""
    pairs = d_model // 2
    return tuple(sorted({2 * round(j * (pairs - 1) / 3) for j in range(4)}))


def check_options(
    *,
    max_len: object,
    d_model: object,
    base: object,
    k: object,
    positions: Iterable[object],
    dims: Iterable[object] | None,
    exercise_k: object,
    names: Mapping[str, str] = _PARAMETER_NAMES,
) -> dict[str, object]:
    """Validate the report's options, blaming names[option] in messages; return them normalised.

    Also refuses, before anything is allocated, tables that would not fit in memory.
    """
    max_len = validate.max_len(max_len, names["max_len"])
    if max_len < 2:
        raise ValueError(f"{names['max_len']} must be at least 2, got {max_len}")
    d_model = validate.d_model(d_model, names["d_model"])
    if d_model < 4:
        raise ValueError(
            f"{names['d_model']} must be an even integer >= 4 (exercise 2 uses dims 2-3), got {d_model}"
        )
    base = validate.base(base, names["base"])
    positions = validate.indices(positions, max_len, names["positions"])
    if not positions:
        raise ValueError(f"{names['positions']} must list at least one position")
    dims = default_dims(d_model) if dims is None else validate.indices(dims, d_model, names["dims"])
    if not dims:
        raise ValueError(f"{names['dims']} must list at least one dim")
    shifts = {}
    for option in ("k", "exercise_k"):
        value = validate.finite({"k": k, "exercise_k": exercise_k}[option], names[option])
        if not value.is_integer():
            raise ValueError(
                f"{names[option]} must be an integer (it shifts table rows), got {value:g}"
            )
        value = int(value)
        bad = [p for p in positions if not 0 <= p + value < max_len]
        if bad:
            raise ValueError(
                f"{names[option]}={value} moves {names['positions']} {bad} outside the table "
                f"[0, {max_len}); use a smaller shift or more rows"
            )
        shifts[option] = value
    widest = max(d_model, EXERCISE_D_MODEL)
    validate.fits_in_memory(
        2 * max_len * widest * BYTES_PER_ENTRY,
        f"a ({max_len}, {widest}) table",
        f"use a smaller {names['max_len']} or {names['d_model']}",
    )
    return {
        "max_len": max_len,
        "d_model": d_model,
        "base": base,
        "positions": positions,
        "dims": dims,
        **shifts,
    }


def _pe_rows(table: np.ndarray) -> Table:
    shown = [p for p in PE_ROWS if p < table.shape[0]]
    n, d_model = table.shape
    return Table(
        title=f"PE rows of the ({n}, {d_model}) table",
        columns=("row", *(f"dim {j}" for j in range(d_model))),
        rows=tuple((f"PE({p})", *map(float, table[p])) for p in shown),
        formats=("", *("~.3",) * d_model),
        note="printed as NumPy prints arrays at precision 3, the module's digits",
    )


def _bounds(table: np.ndarray) -> Table:
    low, high = table_bounds(table)
    return Table(
        title=f"min and max over the ({table.shape[0]}, {table.shape[1]}) table",
        columns=("min", "max"),
        rows=((low, high),),
        note="every value stays within [-1, 1]",
        passed=low >= -1.0 and high <= 1.0,
    )


def _unique(table: np.ndarray) -> Table:
    distinct = unique_rows(table)
    return Table(
        title=f"unique rows of the ({table.shape[0]}, {table.shape[1]}) table",
        columns=("unique rows", "rows"),
        rows=((distinct, table.shape[0]),),
        note=f"{distinct} unique rows out of {table.shape[0]}",
        passed=distinct == table.shape[0],
    )


def _rotation(
    table: np.ndarray, omega: float, pair: int, k: int, positions: Sequence[int], title: str
) -> Table:
    theta = k * omega
    rot = np.array([[np.cos(theta), np.sin(theta)], [-np.sin(theta), np.cos(theta)]])
    dims = slice(2 * pair, 2 * pair + 2)
    rows = []
    for pos in positions:
        actual = table[pos + k, dims]
        predicted = rot @ table[pos, dims]
        match = bool(np.allclose(actual, predicted))
        residual = float(np.abs(actual - predicted).max())
        rows.append((pos, *map(float, actual), *map(float, predicted), residual, match))
    return Table(
        title=title,
        columns=(
            "pos",
            "actual sin",
            "actual cos",
            "predicted sin",
            "predicted cos",
            "residual",
            "match",
        ),
        rows=tuple(rows),
        formats=("d", "~.4", "~.4", "~.4", "~.4", ".1e", ""),
        note=f"one R(kω) with k={k}, ω={omega:.6g}, the same at every pos; match = np.allclose",
        passed=all(r[-1] for r in rows),
    )


def _exercise_1(max_len: int, base: float) -> Table:
    table = sinusoidal_pe(max_len, EXERCISE_D_MODEL, base=base)
    distinct = unique_rows(table)
    low, high = table_bounds(table)
    ok = distinct == max_len and low >= -1.0 and high <= 1.0
    return Table(
        title=f"exercise 1: the ({max_len}, {EXERCISE_D_MODEL}) table",
        columns=("rows", "unique rows", "min", "max"),
        rows=((max_len, distinct, low, high),),
        note="all rows unique and all values within [-1, 1]",
        passed=ok,
    )


def _turns_read(table: np.ndarray, pair: int) -> float:
    """Turns of the pair's phase across the table, read off the data (not the formula)."""
    phase = np.unwrap(np.arctan2(table[:, 2 * pair], table[:, 2 * pair + 1]))
    return float((phase[-1] - phase[0]) / (2 * math.pi))


def _exercise_3(table: np.ndarray, omegas: np.ndarray, dims: Sequence[int]) -> Table:
    n = table.shape[0]
    rows = []
    for dim in dims:
        pair = dim // 2
        omega = float(omegas[pair])
        expected = (n - 1) * omega / (2 * math.pi)
        rows.append((dim, pair, omega, 2 * math.pi / omega, expected, _turns_read(table, pair)))
    by_dim = sorted(rows)
    agree = all(abs(r[4] - r[5]) <= 1e-9 * max(1.0, r[4]) for r in rows)
    slower = all(a[5] > b[5] for a, b in itertools.pairwise(by_dim) if a[0] // 2 != b[0] // 2)
    return Table(
        title=f"exercise 3: frequency spectrum across positions 0..{n - 1}",
        columns=(
            "dim",
            "pair i",
            "ω_i",
            "period",
            "turns (formula)",
            "turns (read off the table)",
        ),
        rows=tuple(rows),
        formats=("d", "d", ".6g", ".1f", ".2g", ".2g"),
        note=(
            f"turns of each pair across positions 0 to {n - 1}: (max_len − 1)·ω_i/2π, and the "
            "same read off the table's phase; lower dims turn faster"
        ),
        passed=agree and slower,
    )


def module_report(
    *,
    max_len: int = 50,
    d_model: int = 8,
    base: float = 10000.0,
    k: int = 5,
    positions: Iterable[int] = (0, 3, 7, 12, 20),
    dims: Iterable[int] | None = None,
    exercise_k: int = 3,
) -> list[Table]:
    """Every table the module prints, and its three exercises, computed from numeric.sinusoidal_pe.

    max_len, d_model, base: the main table (the module's is (50, 8), base 10000); k, positions:
    the rotation table's offset and starting positions; dims: exercise 3's dims (default spread
    from low to high i); exercise_k: exercise 2's offset on dims 2-3.
    """
    options = check_options(
        max_len=max_len,
        d_model=d_model,
        base=base,
        k=k,
        positions=positions,
        dims=dims,
        exercise_k=exercise_k,
    )
    n, d, b = options["max_len"], options["d_model"], options["base"]
    table = sinusoidal_pe(n, d, base=b)
    omegas = frequencies(d, base=b)
    return [
        _pe_rows(table),
        _bounds(table),
        _unique(table),
        _rotation(
            table,
            float(omegas[0]),
            0,
            options["k"],
            options["positions"],
            f"rotation by k={options['k']} on dims 0-1",
        ),
        _exercise_1(n, b),
        _rotation(
            table,
            float(omegas[EXERCISE_PAIR]),
            EXERCISE_PAIR,
            options["exercise_k"],
            options["positions"],
            f"exercise 2: rotation by k={options['exercise_k']} on dims 2-3",
        ),
        _exercise_3(table, omegas, options["dims"]),
    ]
