"""Rotations read from cos alone or sin alone.

With one array the other is rebuilt from it: |sin| = √(m² − cos²) (or |cos| from sin), its sign
taken from the line fitted so far, and the fit repeated. m is the largest |value| (every pair
reaching ±m somewhere is assumed: a pair that turns less than π/2 over the cache cannot tell
m from θ with sin alone). cos alone cannot tell θ from −θ, nor an offset from its negative: the
direction is taken as forward and the offset as at least 0.
"""

from __future__ import annotations

import numpy as np

from numeric.rope_audit.phases import fit_phases

_ROUNDS = 3


def _rebuilt(known: np.ndarray, m: float, sign: np.ndarray) -> np.ndarray:
    return sign * np.sqrt(np.maximum(m * m - known * known, 0.0))


def _recurrence(positions: np.ndarray, known: np.ndarray) -> np.ndarray:
    """θ from x[r − 1] + x[r + 1] = 2·cos(θg)·x[r] on rows g apart (any sinusoid obeys it),
    in [0, π/g]."""
    gaps = np.diff(positions)
    if not (gaps > 0).any():
        return np.zeros(known.shape[1])
    g = gaps[gaps > 0].min()
    middle = np.flatnonzero((gaps[:-1] == g) & (gaps[1:] == g)) + 1
    if middle.size == 0:
        return np.zeros(known.shape[1])
    x = known[middle]
    around = known[middle - 1] + known[middle + 1]
    num = (x * around).sum(axis=0)
    den = 2 * (x * x).sum(axis=0)
    ratio = np.divide(num, den, out=np.ones_like(num), where=den > 0)
    return np.arccos(np.clip(ratio, -1, 1)) / g


def one_array_rotations(
    positions: np.ndarray, cos: np.ndarray | None, sin: np.ndarray | None, rounding: float
) -> tuple[np.ndarray, float, float]:
    """(z, m, noise): per row and pair m·e^{iφ} rebuilt from the one array given, m, and the
    largest angle error a rebuilt entry can carry: a value off by `rounding` (one rounding of
    its format) moves the angle by up to √(2·rounding/m) where the other array is near 0."""
    known = cos if cos is not None else sin
    assert known is not None
    m = float(np.abs(known).max())
    if m == 0:
        return np.zeros(known.shape, dtype=complex), 0.0, 0.0
    p = positions.astype(np.float64)
    theta = _recurrence(p, known)
    intercept = np.zeros_like(theta)
    for _ in range(_ROUNDS):
        line = np.outer(p, theta) + intercept
        if cos is not None:
            z = cos + 1j * _rebuilt(cos, m, np.where(np.sin(line) < 0, -1.0, 1.0))
        else:
            z = _rebuilt(sin, m, np.where(np.cos(line) < 0, -1.0, 1.0)) + 1j * sin
        fit = fit_phases(p, z)
        theta, intercept = fit.theta, fit.intercept
    return z, m, float(np.sqrt(2 * rounding / m))
