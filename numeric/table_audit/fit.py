"""Fit a table's columns as sinusoids of the row index: frequencies, then each pair's angle line.

Frequencies come from the data alone: a sinusoid of frequency w (radians a row) satisfies
x[r+h] + x[r-h] = 2·cos(hw)·x[r], so each column's cos(hw) is a one-parameter least-squares fit,
taken at the smallest stride h where hw is large enough to be read accurately. Columns of equal
frequency are then paired, and each pair's angle atan2(x_a, x_b) is fitted as a line in the row
index over ever longer windows: its slope is the pair's signed frequency a row, its intercept the
angle at row 0, and the pair's radius, constant for a true (sin, cos) pair, its amplitude.

Both fits are robust: rows that break the pattern (a padding row, a restart of packed sequences,
a row written at another position) are set aside by their residual, so a few of them do not move
the fit. Frequencies above π a row are read folded into [0, π] (aliased), as any sampled
sinusoid is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.audit.rows import Rows

_CENTERS = 512  # rows sampled per stride for the recurrence fit
_WINDOW_ROWS = 2048  # rows sampled per window for the angle fit
_FIRST_WINDOW = 256
_GROWTH = 8  # each window is this much longer: its sampled rows stay safe to unwrap
_TARGET_ANGLE = 0.7  # hw at which the recurrence reads w well (arccos is steep near 0)
_OUTLIER = 8.0  # a residual beyond this many robust standard deviations is set aside
_MAD = 1.4826  # robust standard deviation per median absolute deviation (normal data)
# How fast a kept row's angle residual may grow with its distance in rows from the first
# rows, per radian of the pair's turn: 16 units of float32, what a float32 computation adds.
_GROWTH_NOISE = 16 * 2.0**-24


@dataclass(frozen=True)
class PairFit:
    """Per pair i of columns (a_i, b_i): the signed slope w_i of atan2(x_a, x_b) in radians a row
    and its standard error, the angle at row 0 and its standard error, the amplitude, the largest
    distance of a row from the circle of that radius, the largest angle residual of the rows kept,
    and the rows of the last window that every pair kept."""

    a_cols: np.ndarray
    b_cols: np.ndarray
    slope: np.ndarray
    slope_sigma: np.ndarray
    phase: np.ndarray
    phase_sigma: np.ndarray
    amplitude: np.ndarray
    circle: np.ndarray
    angle_residual: np.ndarray
    inlier_rows: np.ndarray


def wrap(angle: np.ndarray) -> np.ndarray:
    """angle reduced to [-π, π)."""
    return (angle + np.pi) % (2 * np.pi) - np.pi


def gather(table: Rows, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """table[rows][:, cols] as float64."""
    return table[rows][:, cols]


def sample_rows(valid: np.ndarray, stop: int, count: int, start: int = 0) -> np.ndarray:
    """Up to count indices of valid rows in [start, stop), evenly spread (all of them when few)."""
    rows = np.flatnonzero(valid[start:stop]) + start
    if len(rows) <= count:
        return rows
    return rows[np.unique(np.linspace(0, len(rows) - 1, count).round().astype(np.int64))]


def robust_ratio(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per column, c with y ≈ c·x by least squares, refitted once without the points whose
    residual is an outlier; returns c and its standard error."""
    keep = np.ones(x.shape, dtype=bool)
    for attempt in range(2):
        w = keep.astype(np.float64)
        power = np.einsum("ij,ij->j", w * x, x)
        with np.errstate(invalid="ignore", divide="ignore"):
            c = np.einsum("ij,ij->j", w * x, y) / power
            residual = y - c * x
            count = np.maximum(w.sum(0) - 1, 1)
            spread = np.sqrt(np.einsum("ij,ij->j", w * residual, residual) / count)
            sigma = spread / np.sqrt(power)
        if attempt == 1:
            break
        scale = _MAD * np.median(np.abs(residual), axis=0)
        keep = np.abs(residual) <= np.maximum(_OUTLIER * scale, 1e-300)
        if keep.all():
            break
    return c, sigma


def column_frequencies(
    table: Rows, valid: np.ndarray, cols: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each column's frequency w (in [0, π], radians a row) and its standard error."""
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
        count = min(table.rows_within(_CENTERS), len(p))
        p = p[np.unique(np.linspace(0, len(p) - 1, count).round().astype(int))]
        # A column not yet read well takes each longer stride: below the target at h, its
        # angle at 2h is below 2·target < π, so the longer stride cannot alias.
        take = np.flatnonzero(~chosen)
        values = table[np.concatenate([p - h, p, p + h])][:, cols[take]]
        before, x0, after = values[: len(p)], values[len(p) : 2 * len(p)], values[2 * len(p) :]
        both = before + after
        c, c_sigma = robust_ratio(x0, both / 2)
        angle = np.arccos(np.clip(np.nan_to_num(c, nan=1.0), -1.0, 1.0))
        # arccos' slope 1/sin(angle) blows up near 0, where the error goes as sqrt(2·δc) instead.
        sin_a = np.sin(angle)
        with np.errstate(invalid="ignore", divide="ignore"):
            angle_sigma = np.where(sin_a > np.sqrt(c_sigma), c_sigma / sin_a, np.sqrt(2 * c_sigma))
        omega[take] = angle / h
        sigma[take] = np.nan_to_num(angle_sigma, nan=np.inf) / h
        chosen[take] = angle >= _TARGET_ANGLE
        h *= 2
    return np.nan_to_num(omega, nan=0.0), sigma


def constant_offset(table: Rows, valid: np.ndarray, cols: np.ndarray) -> tuple[float, float, int]:
    """A constant K added to every value, read from the columns that turn fast: (K, its
    uncertainty, the pairs of columns it was read from); (0, 0, 0) when no two columns turn
    fast enough to tell K from a slow cosine.

    The columns' recurrence, x[r-1] + x[r+1] = 2cos(w)·x[r] + (2 - 2cos(w))·K, finds the fast
    ones and pairs them by frequency; each true pair's rows then lie on a circle about (K, K),
    x² + y² = 2K·(x + y) + C, which gives K to the table's rounding (the circle does not feel
    an error in the angle, as the recurrence does)."""
    n = table.shape[0]
    p = np.arange(1, n - 1)
    p = p[valid[p - 1] & valid[p] & valid[p + 1]]
    if len(p) < 16 or len(cols) < 2:
        return 0.0, 0.0, 0
    count = min(table.rows_within(_CENTERS), len(p))
    p = p[np.unique(np.linspace(0, len(p) - 1, count).round().astype(int))]
    x0 = gather(table, p, cols)
    both = (gather(table, p - 1, cols) + gather(table, p + 1, cols)) / 2
    # both = c·x + (1 - c)·K per column, by least squares on centred values.
    dx, dy = x0 - x0.mean(0), both - both.mean(0)
    with np.errstate(invalid="ignore", divide="ignore"):
        c = np.einsum("ij,ij->j", dx, dy) / np.einsum("ij,ij->j", dx, dx)
    fast = np.flatnonzero(np.isfinite(c) & (c < 0.8))
    fast = fast[np.argsort(c[fast])]
    estimates, sigmas = [], []
    for a, b in zip(fast[0::2], fast[1::2], strict=False):
        x, y = x0[:, a], x0[:, b]
        s, q = x + y, x * x + y * y
        ds, dq = s - s.mean(), q - q.mean()
        spread = float(ds @ ds)
        if spread <= 0:
            continue
        k = float(ds @ dq) / (2 * spread)
        residual = dq - 2 * k * ds
        rms = float(np.sqrt(residual @ residual / max(len(p) - 2, 1)))
        if rms <= 1e-5 * max(float(q.mean()), 1e-300):
            estimates.append(k)
            sigmas.append(rms / (2 * np.sqrt(spread)))
    if not estimates:
        return 0.0, 0.0, 0
    estimate = float(np.median(estimates))
    scatter = float(np.std(estimates)) if len(estimates) > 1 else 0.0
    return estimate, _OUTLIER * (max(sigmas) + scatter), len(estimates)


def shortest_within(value: float, tolerance: float) -> float:
    """The number with the fewest significant digits within tolerance of value (0.5, not
    0.49999998), or value itself."""
    for digits in range(1, 17):
        rounded = float(f"{value:.{digits}g}")
        if abs(rounded - value) <= tolerance:
            return rounded
    return value


def _masked_line(
    p: np.ndarray, y: np.ndarray, keep: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per column, least-squares y = intercept + slope·p over the kept points: slope,
    intercept and their standard errors."""
    w = keep.astype(np.float64)
    count = np.maximum(w.sum(0), 1)
    mean_p = (w * p[:, None]).sum(0) / count
    mean_y = (w * y).sum(0) / count
    centred = p[:, None] - mean_p
    spp = np.maximum((w * centred**2).sum(0), 1e-300)
    slope = (w * centred * (y - mean_y)).sum(0) / spp
    intercept = mean_y - slope * mean_p
    residual = y - intercept - slope * p[:, None]
    s = np.sqrt((w * residual**2).sum(0) / np.maximum(count - 2, 1))
    return slope, intercept, s / np.sqrt(spp), s * np.sqrt(1 / count + mean_p**2 / spp)


def _longest_run(good: np.ndarray) -> tuple[int, int]:
    """(first, last) index of the longest run of True steps, as row indices (a step joins
    row j to row j + 1); (0, 0) when there is none."""
    best, start, best_span = (0, 0), None, -1
    for j, ok in enumerate([*good, False]):
        if ok and start is None:
            start = j
        elif not ok and start is not None:
            if j - start > best_span:
                best, best_span = (start, j), j - start
            start = None
    return best


def _robust_start(
    p: np.ndarray, theta: np.ndarray, floor: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """Slope, intercept and angle noise of each angle column, and the middle row of the
    stretch they come from: the slope is the median step (consecutive rows move by less than
    π), the noise the steps' spread, and the intercept comes from the longest stretch of rows
    whose every step fits, so rows that break the pattern (even most of them: packed
    sequences, padding given one position) do not move them."""
    gaps = np.diff(p)
    steps = wrap(np.diff(theta, axis=0)) / gaps[:, None]
    slope = np.median(steps[gaps == gaps.min()], axis=0)
    deviation = np.abs(wrap(np.diff(theta, axis=0) - np.outer(gaps, slope)))
    noise = _MAD * np.median(deviation, axis=0) / np.sqrt(2)
    # A step breaks the pattern when it misses by half the pair's turn or more (a row that
    # holds the same position as the last misses by all of it), whatever the noise.
    allowed = np.maximum(np.maximum(_OUTLIER * noise, floor), np.abs(slope) / 2)
    good = (deviation <= allowed).mean(axis=1) >= 0.9
    first, last = _longest_run(good)
    run = slice(first, last + 1)
    if last - first >= 2:
        # The median step is biased when angles are rounded coarsely (a float16 or bfloat16
        # computation); the line through the run's unwrapped angles is not.
        unwrapped = theta[run][0] + np.cumsum(
            np.vstack([np.zeros((1, theta.shape[1])), wrap(np.diff(theta[run], axis=0))]), axis=0
        )
        slope, _, _, _ = _masked_line(p[run], unwrapped, np.ones(unwrapped.shape, dtype=bool))
    reference = theta[first] - slope * p[first]
    intercept = reference + np.median(
        wrap(theta[run] - np.outer(p[run], slope) - reference), axis=0
    )
    return slope, intercept, noise, float(p[run].mean())


def fit_pairs(
    table: Rows, valid: np.ndarray, a_cols: np.ndarray, b_cols: np.ndarray, floor: float
) -> PairFit:
    """Fit each column pair (a, b): the angle atan2(x_a, x_b) as a line in the row (see the
    module doc). floor: the angle noise no residual is set aside below (the rounding of the
    table's values, relative to their amplitude). A row is kept while its residual is within
    the first rows' noise plus what a float32 computation adds farther on."""
    n = table.shape[0]
    first = int(np.argmax(valid))
    slope = phase = None
    length = table.rows_within(_FIRST_WINDOW)
    window = table.rows_within(_WINDOW_ROWS)
    kept = None
    while True:
        stop = min(n, first + length)
        rows = sample_rows(valid, stop, window)
        p = rows.astype(np.float64)
        values = table[rows]
        xa, xb = values[:, a_cols], values[:, b_cols]
        theta = np.arctan2(xa, xb)
        if slope is None:
            slope, phase, noise, centre = _robust_start(p, theta, floor)
        allowed = np.maximum(_OUTLIER * noise, floor) + _GROWTH_NOISE * np.outer(
            np.abs(p - centre), np.abs(slope)
        )
        keep = np.abs(wrap(theta - (np.outer(p, slope) + phase))) <= allowed
        together = keep.mean(axis=1) >= 0.9
        if kept is not None and together.mean() < 0.5:
            # Most of the longer window breaks the pattern (packed sequences, or errors that
            # grow faster than float32's): the fit stays with the rows so far.
            break
        d_slope, d_phase, slope_sigma, phase_sigma = _masked_line(
            p, wrap(theta - (np.outer(p, slope) + phase)), keep
        )
        slope, phase = slope + d_slope, phase + d_phase
        kept = (rows, xa, xb, theta, allowed, slope_sigma, phase_sigma)
        if stop == n:
            break
        length *= _GROWTH
    rows, xa, xb, theta, allowed, slope_sigma, phase_sigma = kept
    residual = wrap(theta - (np.outer(rows.astype(np.float64), slope) + phase))
    keep = np.abs(residual) <= allowed
    radius = np.hypot(xa, xb)
    amplitude = np.median(radius, axis=0)
    return PairFit(
        a_cols=a_cols,
        b_cols=b_cols,
        slope=slope,
        slope_sigma=slope_sigma,
        phase=wrap(phase),
        phase_sigma=phase_sigma,
        amplitude=amplitude,
        circle=_circle(np.abs(radius - amplitude)),
        angle_residual=np.where(keep, np.abs(residual), 0.0).max(axis=0),
        inlier_rows=rows[keep.mean(axis=1) >= 0.9],
    )


def _circle(deviation: np.ndarray) -> np.ndarray:
    """Per pair, the largest distance of a row from the pair's circle, leaving out a few rows
    far off it in some pair (at most one in a hundred): a row written at no position (a
    foreign vector, a corrupted row) is not the pairs' fault, and the row check
    (numeric.table_audit.explain) names it; more such rows count."""
    spread = _MAD * np.median(deviation, axis=0)
    off = np.any(deviation > _OUTLIER * spread, axis=1)
    if 0 < off.sum() <= max(1, len(deviation) // 100) and not off.all():
        deviation = deviation[~off]
    return deviation.max(axis=0)


def column_residual(
    table: Rows, valid: np.ndarray, cols: np.ndarray, omega: np.ndarray, sigma: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each column's largest distance from its own fitted sinusoid A·sin(w·row + φ), on sampled
    rows, and how much of that the uncertainty of w alone can explain (σ_w · row · A)."""
    rows = sample_rows(valid, table.shape[0], table.rows_within(_WINDOW_ROWS))
    x = gather(table, rows, cols)
    p = rows.astype(np.float64)
    angle = np.outer(p, np.maximum(omega, 1e-5 / max(float(rows.max()), 1.0)))
    s, c = np.sin(angle), np.cos(angle)
    ss, sc, cc = (s * s).sum(0), (s * c).sum(0), (c * c).sum(0)
    xs, xc = (x * s).sum(0), (x * c).sum(0)
    det = ss * cc - sc * sc
    with np.errstate(invalid="ignore", divide="ignore"):
        a = np.where(det > 0, (xs * cc - xc * sc) / det, 0.0)
        b = np.where(det > 0, (xc * ss - xs * sc) / det, 0.0)
    residual = np.abs(x - a * s - b * c).max(axis=0)
    return residual, sigma * p.max() * np.hypot(a, b)
