"""Fit a table's columns as sinusoids of the row index and pair them: frequencies, phases, amplitudes.

Frequencies come from the data alone: a sinusoid of frequency ω satisfies
x[p+h] + x[p-h] = 2·cos(hω)·x[p], so each column's cos(hω) is a one-parameter least-squares fit,
taken at the smallest stride h where hω is large enough to be read accurately. Columns of equal
frequency are then paired, and each pair's angle atan2(x_a, x_b) is fitted as a line in the row
index over ever longer windows: its slope is ω (its sign says which column is the sine), its
intercept the phase at row 0, and the pair's radius, constant for a true (sin, cos) pair, its
amplitude.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.table_audit.rows import sample_rows

_CENTERS = 512  # rows sampled per stride for the recurrence fit
_WINDOW_ROWS = 2048  # rows sampled per window for the angle fit
_FIRST_WINDOW = 256
_GROWTH = 8  # each window is this much longer: its sampled rows stay safe to unwrap
_TARGET_ANGLE = 0.7  # hω at which the recurrence reads ω well (arccos is steep near 0)


@dataclass(frozen=True)
class PairFit:
    """Per pair i: sine column, cosine column, ω and its standard error, the sine's angle at row 0
    and its standard error, the amplitude, the largest distance of a row from the circle of that
    radius, and the largest angle residual."""

    sin_cols: np.ndarray
    cos_cols: np.ndarray
    omega: np.ndarray
    omega_sigma: np.ndarray
    phase: np.ndarray
    phase_sigma: np.ndarray
    amplitude: np.ndarray
    circle: np.ndarray
    angle_residual: np.ndarray


def wrap(angle: np.ndarray) -> np.ndarray:
    """angle reduced to [-π, π)."""
    return (angle + np.pi) % (2 * np.pi) - np.pi


def _gather(table: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    return np.asarray(table[rows])[:, cols].astype(np.float64)


def column_frequencies(
    table: np.ndarray, valid: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each column's frequency ω (in [0, π]) and its standard error, from the recurrence fit."""
    n = table.shape[0]
    omega = np.full(len(cols), np.nan)
    sigma = np.full(len(cols), np.inf)
    chosen = np.zeros(len(cols), dtype=bool)
    h = 1
    while 2 * h < n and not chosen.all():
        p = np.arange(h, n - h)
        p = p[valid[p - h] & valid[p] & valid[p + h]]
        if len(p) < 8:
            break
        p = p[np.unique(np.linspace(0, len(p) - 1, min(_CENTERS, len(p))).round().astype(int))]
        x0 = _gather(table, p, cols)
        both = _gather(table, p - h, cols) + _gather(table, p + h, cols)
        power = np.einsum("ij,ij->j", x0, x0)
        with np.errstate(invalid="ignore", divide="ignore"):
            c = np.einsum("ij,ij->j", x0, both) / (2 * power)
            spread = np.sqrt(((both - 2 * c * x0) ** 2).sum(0) / max(len(p) - 1, 1))
            c_sigma = spread / (2 * np.sqrt(power))
        angle = np.arccos(np.clip(np.nan_to_num(c, nan=1.0), -1.0, 1.0))
        # arccos' slope 1/sin(angle) blows up near 0, where the error goes as sqrt(2·δc) instead.
        sin_a = np.sin(angle)
        with np.errstate(invalid="ignore", divide="ignore"):
            angle_sigma = np.where(sin_a > np.sqrt(c_sigma), c_sigma / sin_a, np.sqrt(2 * c_sigma))
        # A column not yet read well takes each longer stride: below the target at h, its
        # angle at 2h is below 2·target < π, so the longer stride cannot alias.
        take = ~chosen
        omega[take] = angle[take] / h
        sigma[take] = np.nan_to_num(angle_sigma[take], nan=np.inf) / h
        chosen |= angle >= _TARGET_ANGLE
        h *= 2
    return np.nan_to_num(omega, nan=0.0), sigma


def _line(p: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Least-squares y = intercept + slope·p per column: slope, intercept and their standard errors."""
    mean_p = p.mean()
    centred = p - mean_p
    spp = float(centred @ centred) or 1.0
    slope = centred @ y / spp
    intercept = y.mean(axis=0) - slope * mean_p
    residual = y - intercept - np.outer(p, slope)
    s = np.sqrt((residual**2).sum(0) / max(len(p) - 2, 1))
    return slope, intercept, s / np.sqrt(spp), s * np.sqrt(1 / len(p) + mean_p**2 / spp)


def fit_pairs(
    table: np.ndarray, valid: np.ndarray, a_cols: np.ndarray, b_cols: np.ndarray
) -> PairFit:
    """Fit each column pair (a, b) as A·(sin, cos) or A·(cos, sin) of ω·row + phase (see module doc)."""
    n = table.shape[0]
    first = int(np.argmax(valid))
    omega = phase = sign = None
    length = _FIRST_WINDOW
    while True:
        stop = min(n, first + length)
        rows = sample_rows(valid, stop, _WINDOW_ROWS)
        p = rows.astype(np.float64)
        xa, xb = _gather(table, rows, a_cols), _gather(table, rows, b_cols)
        theta = np.arctan2(xa, xb)
        if omega is None:
            # Consecutive rows: the angle moves by ω < π a row, so plain unwrapping follows it.
            slope, intercept, *_ = _line(p, np.unwrap(theta, axis=0))
            sign = np.where(slope < 0, -1.0, 1.0)
            omega, phase = np.abs(slope), np.where(sign > 0, intercept, np.pi / 2 - intercept)
        angle = np.where(sign > 0, theta, np.pi / 2 - theta)
        residual = wrap(angle - (np.outer(p, omega) + phase))
        d_omega, d_phase, omega_sigma, phase_sigma = _line(p, residual)
        omega, phase = omega + d_omega, phase + d_phase
        if stop == n:
            break
        length *= _GROWTH
    residual = wrap(angle - (np.outer(p, omega) + phase))
    radius = np.hypot(xa, xb)
    amplitude = radius.mean(axis=0)
    sin_cols = np.where(sign > 0, a_cols, b_cols)
    cos_cols = np.where(sign > 0, b_cols, a_cols)
    return PairFit(
        sin_cols=sin_cols,
        cos_cols=cos_cols,
        omega=omega,
        omega_sigma=omega_sigma,
        phase=wrap(phase),
        phase_sigma=phase_sigma,
        amplitude=amplitude,
        circle=np.abs(radius - amplitude).max(axis=0),
        angle_residual=np.abs(residual).max(axis=0),
    )


def _readable(omega: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """omega raised to at least 1e-5 / (last row): a slower column is a constant (cosine) or a
    ramp through 0 (sine) over these rows, and a sinusoid this slow still fits either exactly."""
    return np.maximum(omega, 1e-5 / max(float(rows.max()), 1.0))


def column_phases(
    table: np.ndarray, valid: np.ndarray, cols: np.ndarray, omega: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each column's amplitude and phase φ with x ≈ A·sin(ω·row + φ), fitted on the first rows."""
    rows = sample_rows(
        valid, min(table.shape[0], int(np.argmax(valid)) + _FIRST_WINDOW), _FIRST_WINDOW
    )
    x = _gather(table, rows, cols)
    angle = np.outer(rows.astype(np.float64), _readable(omega, rows))
    s, c = np.sin(angle), np.cos(angle)
    # Per column, the 2x2 normal equations of x ≈ a·sin + b·cos.
    ss, sc, cc = (s * s).sum(0), (s * c).sum(0), (c * c).sum(0)
    xs, xc = (x * s).sum(0), (x * c).sum(0)
    det = ss * cc - sc * sc
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(det > 0, (xs * cc - xc * sc) / det, xs / np.maximum(ss, 1e-300))
        b = np.where(det > 0, (xc * ss - xs * sc) / det, 0.0)
    return np.hypot(a, b), np.arctan2(b, a)


def layout_of(sin_cols: np.ndarray, cos_cols: np.ndarray, width: int) -> str | None:
    """The layout the partner columns follow, if every pair follows the same one; pair order is free."""
    half = width // 2
    if np.all(sin_cols % 2 == 0) and np.all(cos_cols == sin_cols + 1):
        return "interleaved"
    if np.all(sin_cols < half) and np.all(cos_cols == sin_cols + half):
        return "concatenated"
    if np.all(cos_cols < half) and np.all(sin_cols == cos_cols + half):
        return "concatenated_cos_first"
    return None


def layout_columns(layout: str, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(sine columns, cosine columns) of every pair i = 0 .. width//2 - 1 in the given layout."""
    half = width // 2
    i = np.arange(half)
    if layout == "interleaved":
        return 2 * i, 2 * i + 1
    if layout == "concatenated":
        return i, i + half
    return i + half, i


def column_residual(
    table: np.ndarray, valid: np.ndarray, cols: np.ndarray, omega: np.ndarray, sigma: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each column's largest distance from its own fitted sinusoid A·sin(ω·row + φ), on sampled
    rows, and how much of that the uncertainty of ω alone can explain (σ_ω · row · A)."""
    rows = sample_rows(valid, table.shape[0], _WINDOW_ROWS)
    x = _gather(table, rows, cols)
    p = rows.astype(np.float64)
    angle = np.outer(p, _readable(omega, rows))
    s, c = np.sin(angle), np.cos(angle)
    ss, sc, cc = (s * s).sum(0), (s * c).sum(0), (c * c).sum(0)
    xs, xc = (x * s).sum(0), (x * c).sum(0)
    det = ss * cc - sc * sc
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(det > 0, (xs * cc - xc * sc) / det, 0.0)
        b = np.where(det > 0, (xc * ss - xs * sc) / det, 0.0)
    residual = np.abs(x - a * s - b * c).max(axis=0)
    return residual, sigma * p.max() * np.hypot(a, b)
