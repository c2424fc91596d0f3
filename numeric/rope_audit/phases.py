"""Each rotary pair's frequency and phase, fitted to its rotation angles at the given positions.

A pair's cache entries are z = cos + i·sin = m·e^{i(θ·p + c)}: the angle of z grows linearly in
the position p. The angle is only known modulo 2π, so the line is unwrapped progressively: a
first θ from neighbouring rows (the angle turned between them is below π), then the fit is
extended over spans four times longer at each step, each new row's angle unwrapped against the
line fitted so far. Rows whose angle stays more than π/4 off the line are left out of the fit
(an implementation computing angles in 16 bits loses them at large positions) and counted.

The fit is least squares with an intercept. Its error bound is deterministic, not statistical:
for residuals bounded by r, the least-squares slope is off by at most
r·Σ|x − x̄| / Σ(x − x̄)², so a frequency is never reported more precisely than its entries allow.

Rows whose positions differ only by multiples of a step g cannot tell θ from θ + 2π/g; such
aliases are resolved afterwards (numeric.rope_audit.unalias).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

_FIRST_ROWS = 64  # rows read for the first estimate
_GROWTH = 4.0  # each step fits a span this many times longer
_INLIER = math.pi / 4  # a row further than this off the line is left out
_REFITS = 2  # full-span refits once the whole range is covered


def wrap(angle: np.ndarray) -> np.ndarray:
    """angle reduced to (−π, π]."""
    return np.pi - np.mod(np.pi - angle, 2 * np.pi)


@dataclass(frozen=True)
class PhaseFit:
    """theta: fitted angle per position of each pair (rad); intercept: the angle at position 0,
    in (−π, π]; theta_bound, intercept_bound: how far the true values can be (from the largest
    residual); residual: per row and pair, the angle minus the line (NaN where left out);
    outliers: per pair, rows left out; step: the common step g of the positions (θ is known
    modulo 2π/g); worst_residual: per pair, the largest |residual| kept."""

    theta: np.ndarray
    intercept: np.ndarray
    theta_bound: np.ndarray
    intercept_bound: np.ndarray
    residual: np.ndarray
    outliers: np.ndarray
    step: int
    worst_residual: np.ndarray


def position_step(positions: np.ndarray) -> int:
    """The greatest common divisor of the gaps between positions (1 when there is one row)."""
    gaps = np.abs(np.diff(np.unique(positions).astype(np.int64)))
    gaps = gaps[gaps > 0]
    if gaps.size == 0:
        return 1
    return int(np.gcd.reduce(gaps))


def _first_estimate(positions: np.ndarray, z: np.ndarray) -> np.ndarray:
    """θ from the turn between neighbouring rows at the smallest gap among the first rows."""
    head = min(len(positions), _FIRST_ROWS)
    p = positions[:head]
    gaps = np.diff(p)
    positive = gaps[gaps > 0]
    if positive.size == 0:
        return np.zeros(z.shape[1])
    smallest = positive.min()
    rows = np.flatnonzero(gaps == smallest)
    turns = z[rows + 1] * np.conj(z[rows])
    size = np.abs(turns)
    unit = np.divide(turns, size, out=np.zeros_like(turns), where=size > 0)
    return np.angle(unit.sum(axis=0)) / smallest


def _line(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per column, the least-squares line y ≈ a + b·x through the rows where w is 1."""
    sw = w.sum(axis=0)
    sx = (w * x).sum(axis=0)
    sy = (w * y).sum(axis=0)
    mx = np.divide(sx, sw, out=np.zeros_like(sx), where=sw > 0)
    my = np.divide(sy, sw, out=np.zeros_like(sy), where=sw > 0)
    dx = (x - mx) * w
    sxx = (dx * (x - mx)).sum(axis=0)
    sxy = (dx * (y - my)).sum(axis=0)
    slope = np.divide(sxy, sxx, out=np.zeros_like(sxy), where=sxx > 0)
    return my - slope * mx, slope


def fit_phases(
    positions: np.ndarray,
    z: np.ndarray,
    initial: np.ndarray | None = None,
    noise: np.ndarray | float = 0.0,
) -> PhaseFit:
    """Fit θ and the phase at position 0 for every column of z.

    positions: (n,) float64, non-decreasing (the positions the rows were computed at, possibly
    repeated); z: (n, pairs) complex, one column per rotary pair (a row where a column has zero
    amplitude is left out of its fit); initial: a first θ per pair, when known (for instance
    with its alias resolved), instead of the turn between neighbouring rows.
    """
    n, pairs = z.shape
    positions = np.asarray(positions, dtype=np.float64)
    angle = np.angle(z)
    usable = np.abs(z) > 0
    reference = positions[0]
    x_all = (positions - reference)[:, None]
    theta = _first_estimate(positions, z) if initial is None else np.array(initial, dtype=float)
    intercept = angle[0].copy()  # the angle at `reference`
    span = positions[-1] - reference
    reach = max(positions[min(n, _FIRST_ROWS) - 1] - reference, 1.0)
    refits = 0
    while True:
        rows = x_all[:, 0] <= reach
        x = x_all[rows]
        predicted = intercept + theta * x
        offset = wrap(angle[rows] - predicted)
        keep = (np.abs(offset) < _INLIER) & usable[rows]
        weight = keep.astype(np.float64)
        intercept, theta = _line(x, predicted + offset, weight)
        if reach >= span:
            refits += 1
            if refits > _REFITS:
                break
        reach = max(reach * _GROWTH, reach + 1.0)
    residual = np.where(keep, wrap(angle - (intercept + theta * x_all)), np.nan)
    worst = np.maximum(np.nanmax(np.abs(residual), axis=0, initial=0.0), noise)
    # The least-squares slope moves by at most r·Σ|x − x̄|/Σ(x − x̄)² for residuals within r.
    sw = weight.sum(axis=0)
    mean = np.divide((weight * x_all).sum(axis=0), sw, out=np.zeros(pairs), where=sw > 0)
    spread = np.abs(x_all - mean) * weight
    sxx = (spread**2).sum(axis=0)
    leverage = np.divide(spread.sum(axis=0), sxx, out=np.full(pairs, np.inf), where=sxx > 0)
    theta_bound = 2 * worst * leverage
    intercept_bound = 2 * worst + np.abs(reference + mean) * theta_bound
    at_zero = wrap(intercept - theta * reference)
    return PhaseFit(
        theta=theta,
        intercept=at_zero,
        theta_bound=theta_bound,
        intercept_bound=intercept_bound,
        residual=residual,
        outliers=(~keep).sum(axis=0),
        step=position_step(positions.astype(np.int64)),
        worst_residual=worst,
    )
