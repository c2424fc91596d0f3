"""The shift identity R(kω)·PE[pos] = PE[pos + k], checked on a table itself, pair by pair."""

from __future__ import annotations

import numpy as np

from numeric.checks import rotation_tolerance
from numeric.table_audit.rows import column_index

_ROTATION_ROWS = 4096
_CHUNK_ROWS = 1024  # rows per step: the temporaries stay in cache


def rotation(
    table: np.ndarray,
    valid: np.ndarray,
    sin_cols: np.ndarray,
    cos_cols: np.ndarray,
    omega: np.ndarray,
    omega_sigma: np.ndarray,
    amplitude: float,
    entry_error: float,
) -> dict:
    """The shift identity on the table itself: max |R(kω)·(sin, cos)[p] - (sin, cos)[p+k]| per k.

    ω are the table's own fitted frequencies; the tolerance is numeric.checks.rotation_tolerance
    for entries within entry_error of a true sinusoid, plus the shift of k·ω's uncertainty.
    At most _ROTATION_ROWS rows per k are compared, evenly spread over the table.
    """
    n = table.shape[0]
    ks = [k for k in (1, 5, -3, n // 3) if 0 < abs(k) < n]
    ks = list(dict.fromkeys(ks))
    results = []
    omega_max = float(omega.max()) if len(omega) else 0.0
    sines, cosines = column_index(sin_cols), column_index(cos_cols)
    for k in ks:
        lo, hi = max(0, -k), n - max(0, k)
        p = np.arange(lo, hi)
        p = p[valid[p] & valid[p + k]]
        if len(p) == 0:
            continue
        p = p[np.unique(np.linspace(0, len(p) - 1, min(_ROTATION_ROWS, len(p))).astype(int))]
        cos_t, sin_t = np.cos(k * omega), np.sin(k * omega)
        residual = 0.0
        for a in range(0, len(p), _CHUNK_ROWS):
            rows = p[a : a + _CHUNK_ROWS]
            here, there = np.asarray(table[rows]), np.asarray(table[rows + k])
            s = here[:, sines].astype(np.float64)
            c = here[:, cosines].astype(np.float64)
            residual = max(
                residual,
                float(np.abs(cos_t * s + sin_t * c - there[:, sines]).max()),
                float(np.abs(cos_t * c - sin_t * s - there[:, cosines]).max()),
            )
        drift = 5 * np.sqrt(2) * abs(k) * float(omega_sigma.max()) * amplitude
        tolerance = rotation_tolerance(k, omega_max, entry_error) + drift
        results.append((k, residual, tolerance, len(p)))
    passed = bool(results) and all(r <= t for _, r, t, _ in results)
    # The headline pair is the offset closest to (or furthest past) its own tolerance, so the
    # residual and tolerance shown always belong together.
    worst = max(results, key=lambda r: r[1] / r[2] if r[2] > 0 else np.inf, default=None)
    return {
        "passed": passed,
        "residual": None if worst is None else worst[1],
        "tolerance": None if worst is None else worst[2],
        "worst_k": None if worst is None else worst[0],
        "ks": [k for k, *_ in results],
        "by_k": [{"k": k, "residual": r, "tolerance": t, "rows": m} for k, r, t, m in results],
    }
