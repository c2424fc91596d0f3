"""Name the convention from fitted pair frequencies, phases and amplitudes: schedule, base, offset, scale.

Named only after fitting: the schedule is whichever of the paper's base^(-2i/d) and
tensor2tensor's base^(-i/(d/2-1)) makes the fitted geometric ratio come from a round base.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from numeric.table_audit.fit import wrap
from numeric.table_audit.precision import EPS, rounding_bound

_SIGMAS = 5.0  # a fit agrees with a model when within this many standard errors
_MAX_OFFSET_CANDIDATES = 200_000
_CANDIDATE_CHUNK = 512


@dataclass(frozen=True)
class Schedule:
    """schedule: 'paper', 'tensor2tensor', 'custom' or None (one pair); base: the named base;
    geometric_base: b with ω_i = b^(-2i/d) when the frequencies are geometric from ω_0 = 1;
    alternative: the other named reading when both bases are round."""

    schedule: str | None
    base: float | None
    geometric_base: float | None
    alternative: str | None = None


def round_number(value: float) -> float:
    """The nearest of 1, 2 or 5 times a power of ten (10000, 500000, 20 ...): bases people pick."""
    exponent = math.floor(math.log10(value))
    candidates = [m * 10.0**e for e in (exponent, exponent + 1) for m in (1, 2, 5)]
    return min(candidates, key=lambda c: abs(math.log(value / c)))


def fit_schedule(omega: np.ndarray, omega_sigma: np.ndarray, precision: str) -> Schedule:
    """Fit log ω_i linear in the pair index i and name the schedule it is, if any."""
    pairs = len(omega)
    if pairs < 2 or np.any(omega <= 0):
        return Schedule(None, None, None)
    i = np.arange(pairs, dtype=np.float64)
    # An implementation may compute ω itself in the table's format (rounding it there).
    s = np.hypot(omega_sigma / omega, 4 * EPS[precision])
    s = np.maximum(s, 1e-15)
    w = 1 / s**2
    design = np.stack([np.ones(pairs), i], axis=1)
    normal = design.T @ (design * w[:, None])
    alpha, beta = np.linalg.solve(normal, design.T @ (w * np.log(omega)))
    covariance = np.linalg.inv(normal)
    residual = np.log(omega) - alpha - beta * i
    geometric = bool(np.all(np.abs(residual) <= _SIGMAS * s))
    from_one = abs(alpha) <= _SIGMAS * math.sqrt(covariance[0, 0]) + 1e-12
    if not (geometric and from_one and beta < 0):
        return Schedule("custom", None, None)
    d = 2 * pairs
    beta_sigma = math.sqrt(covariance[1, 1])
    readings = {}
    for name, span in (("paper", d / 2), ("tensor2tensor", max(pairs - 1, 1))):
        base = math.exp(-beta * span)
        nearest = round_number(base)
        if abs(math.log(base / nearest)) <= max(_SIGMAS * beta_sigma * span, 1e-9):
            readings[name] = float(nearest)
    geometric_base = math.exp(-beta * d / 2)
    if not readings:
        return Schedule("custom", None, geometric_base)
    # Both readings are round only for special d (d = 8: paper 10000 is tensor2tensor 1000).
    order = sorted(readings, key=lambda k: (readings[k] != 10000.0, k != "paper"))
    chosen = order[0]
    alternative = None
    if len(order) > 1:
        other = order[1]
        alternative = f"{other} with base {readings[other]:g}"
    return Schedule(chosen, readings[chosen], geometric_base, alternative)


def fit_offset(
    omega: np.ndarray, phase: np.ndarray, phase_sigma: np.ndarray, precision: str
) -> int | None:
    """The integer o with phase_i = ω_i·o (mod 2π) for every pair, or None when no integer fits."""
    if len(omega) == 0 or np.any(omega <= 0):
        return None
    slowest = int(np.argmin(omega))
    # Read o from the slowest pair, allowing small negative offsets, then settle it on all pairs.
    period = 2 * np.pi / omega[slowest]
    estimate = ((phase[slowest] + np.pi / 4) % (2 * np.pi) - np.pi / 4) / omega[slowest]
    spread = _SIGMAS * phase_sigma[slowest] / omega[slowest] + 1
    low, high = math.floor(estimate - spread), math.ceil(estimate + spread)
    if high - low > _MAX_OFFSET_CANDIDATES or spread > period / 2:
        return None
    allowed = _SIGMAS * phase_sigma + 8 * EPS[precision] * (1 + omega * np.abs(estimate)) + 1e-12
    best, best_misfit = None, np.inf
    for start in range(low, high + 1, _CANDIDATE_CHUNK):
        candidates = np.arange(start, min(start + _CANDIDATE_CHUNK, high + 1), dtype=np.float64)
        misfit = (np.abs(wrap(phase[None, :] - np.outer(candidates, omega))) / allowed).max(axis=1)
        k = int(np.argmin(misfit))
        if misfit[k] <= 1 and misfit[k] < best_misfit:
            best, best_misfit = int(candidates[k]), misfit[k]
    return best


def named_scales(d: int) -> dict[str, float]:
    """The common amplitudes by name: 1, d^-1/2 (x-transformers), sqrt(2/d) (MLX)."""
    return {"1": 1.0, "d^-1/2": d**-0.5, "sqrt(2/d)": math.sqrt(2 / d)}


def fit_scale(amplitude: np.ndarray, precision: str) -> tuple[float, str | None, bool]:
    """(scale, its name or None, whether every pair has that amplitude within rounding)."""
    scale = float(np.median(amplitude))
    tolerance = 4 * rounding_bound(precision, scale) + 1e-12 * scale
    same = bool(np.all(np.abs(amplitude - scale) <= tolerance))
    for name, value in named_scales(2 * len(amplitude)).items():
        if abs(scale - value) <= tolerance:
            return value, name, same
    return scale, None, same
