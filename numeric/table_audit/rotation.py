"""The shift identity R(kw)·PE[row] = PE[row + k], checked on a table itself, pair by pair.

Rows k apart hold positions s·k apart (s: the position step), so each pair's (sin, cos) at one
row, rotated by k·w (w = s·ω, the pair's frequency a row), must give the pair at the other. Each
side carries the table's entry error at its own position, the rotated side up to √2 times it,
so the residual may reach (1 + √2)·max(E(pos), E(pos + s·k)), E the table's entry error of
that pair at that position (the float32 cap of numeric.audit.grading for that pair, or the
measured envelope when smaller), plus the rounding of the rotation's own
arithmetic and, for fitted frequencies, the drift k·σ_w of their uncertainty. Row pairs across a
restart of the positions (packed sequences) or a padding row are left out.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from numeric.angles import Frequencies, reduced_angles
from numeric.audit.rows import Rows, column_index

_ROTATION_ROWS = 2048
_CHUNK_ROWS = 1024  # rows per step: the temporaries stay in cache
_U64 = 2.0**-53


def shifts(n: int) -> list[int]:
    """The row shifts checked: 1, 5, -3 and a third of the table."""
    return list(dict.fromkeys(k for k in (1, 5, -3, n // 3) if 0 < abs(k) < n))


def rotation(
    table: Rows,
    positions: np.ndarray,
    step: float,
    sin_cols: np.ndarray,
    cos_cols: np.ndarray,
    turn: Callable[[int], np.ndarray],
    drift: float,
    amplitude: float,
    entry_error: Callable[[np.ndarray], np.ndarray],
) -> dict:
    """The shift identity on the table (module doc). positions: per row (NaN: zero rows);
    turn(k): the angles k·w per pair; drift: the uncertainty of w per unit k, times the
    amplitude; entry_error(positions): the table's entry error there, (rows, pairs)."""
    n = table.shape[0]
    results = []
    for k in shifts(n):
        lo, hi = max(0, -k), n - max(0, k)
        p = np.arange(lo, hi)
        together = np.abs(positions[p + k] - positions[p] - step * k) <= 1e-6 * max(
            abs(step * k), 1
        )
        p = p[together]
        if len(p) == 0:
            continue
        p = p[np.unique(np.linspace(0, len(p) - 1, min(_ROTATION_ROWS, len(p))).astype(int))]
        angle = turn(k)
        cos_t, sin_t = np.cos(angle), np.sin(angle)
        arithmetic = 2 * np.sqrt(2) * _U64 * amplitude * (float(np.abs(angle).max()) + 3)
        worst = (0.0, 1.0, int(p[0]))
        chunk = table.rows_within(_CHUNK_ROWS) // 2
        for a in range(0, len(p), chunk):
            rows = p[a : a + chunk]
            both = table[np.concatenate([rows, rows + k])]
            here, there = both[: len(rows)], both[len(rows) :]
            sines, cosines = column_index(sin_cols), column_index(cos_cols)
            s, c = here[:, sines], here[:, cosines]
            residual = np.maximum(
                np.abs(cos_t * s + sin_t * c - there[:, sines]),
                np.abs(cos_t * c - sin_t * s - there[:, cosines]),
            )
            error = np.maximum(entry_error(positions[rows]), entry_error(positions[rows + k]))
            tolerance = (1 + np.sqrt(2)) * error + arithmetic + 5 * np.sqrt(2) * abs(k) * drift
            j, i = np.unravel_index(int(np.argmax(residual / tolerance)), residual.shape)
            if residual[j, i] / tolerance[j, i] > worst[0] / worst[1]:
                worst = (float(residual[j, i]), float(tolerance[j, i]), int(rows[j]))
        results.append((k, worst[0], worst[1], len(p), float(positions[worst[2]])))
    passed = bool(results) and all(r <= t for _, r, t, _, _ in results)
    # The headline is the shift closest to (or furthest past) its own tolerance, so the
    # residual and tolerance shown always belong together.
    head = max(results, key=lambda r: r[1] / r[2], default=None)
    return {
        "passed": passed,
        "residual": None if head is None else head[1],
        "tolerance": None if head is None else head[2],
        "worst_k": None if head is None else head[0],
        "worst_position": None if head is None else head[4],
        "ks": [k for k, *_ in results],
        "by_k": [
            {"k": k, "residual": r, "tolerance": t, "rows": m, "position": pos}
            for k, r, t, m, pos in results
        ],
    }


def exact_turn(pieces: Frequencies, step: float) -> Callable[[int], np.ndarray]:
    """turn(k) = k·step·ω_i reduced mod 2π accurately when k·step is a whole number."""

    def turn(k: int) -> np.ndarray:
        shift = k * step
        if shift == round(shift):
            return reduced_angles(np.array([[float(shift)]]), pieces)[0]
        return shift * pieces.approx

    return turn
