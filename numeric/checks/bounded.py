"""Bounds and norms of the sinusoidal table: every entry in [-1, 1], every row of squared norm d_model/2.

Numeric twin of the theorem proofs.theorems.sinusoidal.bounded.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from numpy.typing import DTypeLike

from numeric import validate
from numeric.blocks import block_rows, check_positions, row_blocks
from numeric.result_table import Table
from numeric.tables import (
    accuracy_bound,
    ramp_encoding,
    raw_index_encoding,
    sinusoidal_pe,
)


def bounds_and_norms_table(
    *, max_len: int = 10000, d_models: Iterable[int] = (2, 8, 64, 512)
) -> Table:
    """Per d_model: the extreme entries and the worst |‖PE(pos)‖² − d_model/2| over max_len rows.

    Passes when every entry is within the table's accuracy bound of [-1, 1] and every squared
    norm is within the rounding that bound allows (entries are exact to accuracy_bound(float64)).
    """
    max_len = validate.max_len(max_len, "max_len")
    if max_len == 0:
        raise ValueError("max_len must be at least 1 to have rows to check, got 0")
    dims = tuple(validate.d_model(d, "d_models") for d in d_models)
    if not dims:
        raise ValueError("d_models must name at least one positive even integer, got none")
    check_positions(max_len)
    bound = accuracy_bound(np.float64)
    eps = float(np.finfo(np.float64).eps)
    rows = []
    passed = True
    for d in dims:
        lo, hi, norm_error = np.inf, -np.inf, 0.0
        # A block of rows at a time: memory stays bounded whatever max_len.
        for a, b in row_blocks(0, max_len, block_rows(d)):
            pe = sinusoidal_pe(b - a, d, start=a)
            lo, hi = min(lo, float(pe.min())), max(hi, float(pe.max()))
            norms = np.einsum("ij,ij->i", pe, pe)
            norm_error = max(norm_error, float(np.max(np.abs(norms - d / 2))))
        # Each squared entry is off by at most 2·bound + bound², and summing d of them adds d·eps.
        norm_tolerance = d * (2 * bound + bound**2 + eps)
        ok = lo >= -1 - bound and hi <= 1 + bound and norm_error <= norm_tolerance
        passed &= ok
        rows.append((d, max_len, lo, hi, d / 2, norm_error, norm_tolerance, ok))
    return Table(
        title="Every entry in [-1, 1] and ‖PE(pos)‖² = d_model/2, positions 0 .. max_len − 1",
        headline="every entry lies in [−1, 1] and ‖PE(pos)‖² = d_model/2",
        columns=(
            "d_model",
            "rows",
            "min entry",
            "max entry",
            "d_model/2",
            "max |‖PE‖² − d/2|",
            "tolerance",
            "ok",
        ),
        rows=tuple(rows),
        formats=("", "", ".17g", ".17g", "g", ".2e", ".2e", ""),
        note=f"Entries are exact to {bound:.0e}, so an entry may exceed ±1 by at most that much.",
        passed=passed,
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
    check_positions(max_len)
    blocks = [
        table_bounds(sinusoidal_pe(b - a, d_model, base=base, dtype=dtype, layout=layout, start=a))
        for a, b in row_blocks(0, max_len, block_rows(d_model))
    ]
    sinusoidal = (min(lo for lo, _ in blocks), max(hi for _, hi in blocks))
    rows = []
    for name, (low, high) in (
        (f"sinusoidal ({max_len}, {d_model})", sinusoidal),
        ("ramp pos/max_len", table_bounds(ramp_encoding(max_len))),
        ("raw index pos", table_bounds(raw_index_encoding(max_len))),
    ):
        rows.append((name, low, high, low >= -1.0 and high <= 1.0))
    return Table(
        title=f"bounds over all {max_len} positions",
        columns=("encoding", "min", "max", "within [-1, 1]"),
        rows=tuple(rows),
        note="the sinusoidal table must stay in [-1, 1]; the raw index grows with max_len",
        passed=rows[0][3],
    )
