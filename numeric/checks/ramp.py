"""The ramp's numeric twin (proofs/theorems/sinusoidal/ramp.py): pos/max_len has no pos-independent linear shift.

The least-squares map that moves r(pos) to r(pos + k) misses, and what it would have to be
changes with the range of positions; the sinusoidal pair's best map is R(k) on every range.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from numeric import validate
from numeric.linear_shift import EXACT_FIT_TOLERANCE, best_linear_shift
from numeric.result_table import Table
from numeric.tables import (
    ramp_encoding,
    sinusoidal_pe,
)

# A ramp residual below this is indistinguishable from rounding, so not evidence of a misfit.
RAMP_MISFIT_FLOOR = 1e-12


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
        headline="a sinusoidal pair has a linear map from pos to pos + k, the ramp none",
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
