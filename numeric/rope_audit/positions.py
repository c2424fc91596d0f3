"""Where the cache's rows really sit: positions rounded to a 16-bit format, and the offset.

Code that casts positions to float16 or bfloat16 before the product (Megatron-LM #535) computes
row p at the position nearest p in that format: 2049 → 2048 in float16, 257 → 256 in
bfloat16, so rows repeat. Each reading of the positions (as given, rounded to float16, rounded
to bfloat16) is fitted, and the one that leaves fewest rows off the line is the cache's.

The offset: row p holds position p + o when every pair's phase at position 0 is θ_i·o
(mod 2π) for one integer o. A phase that no integer explains means the rotation at position 0
is not the identity.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from numeric.rope.floats import round_to
from numeric.rope_audit.phases import PhaseFit, fit_phases, wrap
from numeric.rope_audit.unalias import Oriented, orient

ROUNDINGS = ("float16", "bfloat16")
_MAX_CANDIDATES = 2_000_000
_CHUNK = 4096


@dataclass(frozen=True)
class PositionReading:
    """fit: the phase fit at these positions (θ as fitted, signed and possibly aliased);
    oriented: θ read as positive frequencies with aliases resolved; rounded_to: the format
    the positions were rounded to, or None; effective: the positions the rows were computed
    at (float64)."""

    fit: PhaseFit
    oriented: Oriented
    rounded_to: str | None
    effective: np.ndarray


def read_positions(
    positions: np.ndarray, z: np.ndarray, *, even: bool = False, noise: float = 0.0
) -> PositionReading:
    """The reading of the positions under which the rows fit one line per pair best.

    The frequencies are first fitted at the positions as given, and their aliases resolved
    there (rounded positions break the common step that makes aliases); each rounded reading
    then starts from those frequencies. even: the rotations were rebuilt from cos alone, so
    each θ is known only up to its sign (numeric.rope_audit.unalias.orient); noise: the least
    angle error an entry is assumed to carry (numeric.rope_audit.phases.fit_phases).
    """
    given = positions.astype(np.float64)
    fit = fit_phases(given, z, noise=noise)
    oriented = orient(fit.theta, fit.step, even=even, bound=fit.theta_bound)
    best = PositionReading(fit, oriented, None, given)
    if fit.outliers.sum() == 0:
        return best
    start = -oriented.theta if oriented.reversed else oriented.theta
    for fmt in ROUNDINGS:
        with np.errstate(over="ignore"):
            rounded = round_to(given, fmt).astype(np.float64)
        if not np.all(np.isfinite(rounded)) or np.array_equal(rounded, given):
            continue
        refit = fit_phases(rounded, z, initial=start, noise=noise)
        if refit.outliers.sum() < best.fit.outliers.sum():
            best = PositionReading(
                refit,
                orient(refit.theta, refit.step, even=even, bound=refit.theta_bound),
                fmt,
                rounded,
            )
    return best


def fit_offset(
    theta: np.ndarray, intercept: np.ndarray, bound: np.ndarray, theta_bound: np.ndarray
) -> int | None:
    """The integer o with intercept_i = θ_i·o (mod 2π) for every pair, within the bounds, or
    None when no integer fits. Read from the slowest pair first, then settled on all."""
    usable = theta > 0
    if not usable.any():
        return None
    slowest = int(np.argmin(np.where(usable, theta, np.inf)))
    estimate = intercept[slowest] / theta[slowest]
    spread = bound[slowest] / theta[slowest] + 1
    low, high = math.floor(estimate - spread), math.ceil(estimate + spread)
    if high - low > _MAX_CANDIDATES:
        return None
    best, best_misfit = None, np.inf
    for start in range(low, high + 1, _CHUNK):
        o = np.arange(start, min(start + _CHUNK, high + 1), dtype=np.float64)
        allowed = bound + np.abs(o)[:, None] * theta_bound + 1e-12
        misfit = (np.abs(wrap(intercept - np.outer(o, theta))) / allowed).max(axis=1)
        k = int(np.argmin(misfit))
        if misfit[k] <= 1 and misfit[k] < best_misfit:
            best, best_misfit = int(o[k]), misfit[k]
    return best
