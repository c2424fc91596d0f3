"""Rotations read from cos alone or sin alone.

With one array the other is rebuilt from it: |sin| = √(m² − cos²) (or |cos| from sin), its sign
taken from the line fitted so far, and the fit repeated. m is the largest |value| (every pair
reaching ±m somewhere is assumed: a pair that turns less than π/2 over the cache cannot tell
m from θ with sin alone). cos alone cannot tell θ from −θ, nor an offset from its negative: the
direction is taken as forward and the offset as at least 0.

That largest |value| is m only where a row falls on a peak (cos at angle kπ, sin at π/2 + kπ);
rows that miss every peak by δ read m·cos δ, so m is known only within [max, max / cos δ]
(peak_slack: sin alone of a float32 cache whose rows miss the peaks by 1e-3 rad reads
m = 0.999999, which is no attention factor). Each rebuilt angle then carries the error of m
as well: sin alone of a pass-through cache every 7th row peaks at 0.9906, and read at
m = 0.9906 the slow pairs' angles come out 1% too fast, with a line fitting them well; so
through_origin fits the amplitude together with the frequencies.
"""

from __future__ import annotations

import numpy as np

from numeric.rope_audit.phases import fit_phases

_ROUNDS = 3
_REFITS = 8


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


def peak_slack(
    positions: np.ndarray,
    theta: np.ndarray,
    intercept: np.ndarray,
    worst_residual: np.ndarray,
    m: float,
    have_cos: bool,
) -> float:
    """How far above m (the largest |value| of one array) the amplitude can be: m·(1/cos δ − 1),
    δ the least distance of a row's fitted angle (plus the fit's largest residual) to a peak of
    the array given.

    >>> p, zero = np.arange(0, 700 * 16, 16.0), np.zeros(1)
    >>> peak_slack(p, np.array([0.01]), zero, zero, 1.0, True)  # row 0 is cos's peak
    0.0
    >>> f"{peak_slack(p, np.array([0.01]), zero, zero, 1.0, False):.2g}"  # sin's: 1.2e-3 off
    '7.7e-07'
    >>> f"{peak_slack(p, np.array([1e-4]), zero, zero, 1.0, False):.2g}"  # turns 1.1 rad in all
    '0.11'
    """
    phase = np.outer(positions.astype(np.float64), theta) + intercept
    if not have_cos:
        phase = phase - np.pi / 2
    r = np.mod(phase, np.pi)
    distance = np.minimum(r, np.pi - r)
    residual = worst_residual[np.isfinite(worst_residual)]
    delta = float(distance.min(initial=np.pi / 2)) + float(residual.max(initial=0.0))
    if delta >= 1.5:
        return float(m)  # no row near a peak: m is barely bounded
    return float(m * (1 / np.cos(delta) - 1))


def through_origin(
    positions: np.ndarray,
    known: np.ndarray,
    m: tuple[float, float],
    theta: np.ndarray,
    have_cos: bool,
) -> tuple[np.ndarray, float]:
    """(θ per pair, amplitude): the least-squares fit of amplitude·cos(θ·p) (·sin with sin
    alone) to the array's own values, through the origin (angle 0 at position 0), by
    Gauss-Newton steps from theta (aliases resolved), the amplitude held in m = (low, high).

    The reading fits angles rebuilt from one array, each line with its own intercept: a slow
    pair's cos barely moves, so its rebuilt angle carries √(2·rounding) of noise and its θ is
    loosely held, and the cache measured against that θ is off by p·Δθ with no fault of its
    arithmetic (transformers' Llama 3.1 cos, every 2nd row); the largest |value| is the
    amplitude only within peak_slack. positions: each row's position with its offset; known:
    the array given (cos when have_cos).

    >>> p = np.arange(0.0, 700.0, 7.0)
    >>> cos = 1.01 * np.cos(np.outer(p, [1e-4, 0.01]))
    >>> theta, m = through_origin(p, cos, (1.0, 1.02), np.array([1.1e-4, 0.0101]), True)
    >>> [float(t) for t in theta.round(9)], round(m, 9)
    ([0.0001, 0.01], 1.01)
    """
    q = positions.astype(np.float64)[:, None]
    wave = np.cos if have_cos else np.sin
    amplitude = m[0]
    for _ in range(_REFITS):
        # One Gauss-Newton step on every θ and the shared amplitude together (they trade:
        # a slow pair's cos is nearly amplitude·(1 − θ²p²/2)).
        angle = q * theta
        shape = wave(angle)
        residual = known - amplitude * shape
        slope = amplitude * q * (-np.sin(angle) if have_cos else np.cos(angle))
        # The normal equations [[diag d, c], [cᵀ, a]]·(Δθ, ΔA) = (g, h), solved through the
        # Schur complement of the diagonal: O(pairs), whatever the width.
        d = (slope * slope).sum(axis=0)
        c = (slope * shape).sum(axis=0)
        g = (slope * residual).sum(axis=0)
        inv_d = np.divide(1.0, d, out=np.zeros_like(d), where=d > 0)
        schur = float((shape * shape).sum() - (c * c * inv_d).sum())
        h = float((shape * residual).sum() - (c * g * inv_d).sum())
        step_a = h / schur if schur > 0 else 0.0
        theta = theta + (g - c * step_a) * inv_d
        amplitude = float(np.clip(amplitude + step_a, m[0], m[1]))
    return theta, amplitude
