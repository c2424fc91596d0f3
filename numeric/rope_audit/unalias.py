"""The direction of rotation, and the true frequency of pairs that turn more than π between rows.

Rows g positions apart cannot tell θ from θ + 2πk/g. Every RoPE scaling method keeps the
frequencies decreasing from pair to pair, and geometric among the fast pairs (the scaling
methods change only the slow ones, or all by one factor), so a fast pair's frequency is read
as the alias closest to the geometric continuation of the two slower pairs after it. The
slowest pairs are never aliased (their turn between rows is far below π) and anchor the
continuation. A cache whose slow pairs all turn backwards rotates the other way (sin negated).

A pair whose fitted θ equals the next pair's (a cache that repeats each frequency, θ0, θ0, θ1,
θ1, ...: numeric.rope_audit.findings.repeated_frequencies) is read as the same alias as that
pair, and the continuation runs over the distinct frequencies: read against the duplicate, a
fast pair's alias followed a progression that is not the cache's (cos alone of GPT-J's
frequencies duplicated for rotate_half, rows 5 positions apart, read θ0 = 1 as 1.513).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Oriented:
    """theta: the frequencies, positive for a cache that rotates forwards; reversed: whether
    the cache's angles decrease with position (every θ was negated to read it); moved: the
    pairs read as an alias other than the fitted value."""

    theta: np.ndarray
    reversed: bool
    moved: tuple[int, ...]


def _nearest_alias(value: float, expected: float, period: float, even: bool) -> float:
    """The positive alias of value (value + k·period, and −value + k·period when even) nearest
    expected in ratio; value itself when none is positive."""
    options = []
    for start in (value, -value) if even else (value,):
        k_low = math.floor((expected - start) / period) - 1
        options.append(start + period * np.arange(k_low, k_low + 4))
    candidates = np.concatenate(options)
    candidates = candidates[candidates > 0]
    if candidates.size == 0:
        return float(value)
    return float(candidates[np.argmin(np.abs(np.log(candidates / expected)))])


def orient(
    theta: np.ndarray, step: int, *, even: bool = False, bound: np.ndarray | None = None
) -> Oriented:
    """Read the fitted θ (known modulo 2π/step) as positive decreasing frequencies where the
    slow pairs' progression says so. even: θ is known only up to its sign as well (a cache
    read from cos alone), so −θ and its aliases are candidates too; bound: each fitted θ's
    error bound, within which two neighbouring pairs hold one repeated frequency.

    >>> t = 10000.0 ** (-(np.arange(16) // 2) * 2 / 64)  # θ0, θ0, θ1, θ1, ...
    >>> fitted = np.arccos(np.cos(5 * t)) / 5  # cos alone, rows 5 positions apart
    >>> orient(fitted, 5, even=True, bound=np.full(16, 1e-9)).theta[:6].round(6).tolist()
    [1.0, 1.0, 0.749894, 0.749894, 0.562341, 0.562341]
    >>> orient(fitted, 5, even=True).theta[:6].round(6).tolist()  # read as a progression
    [1.513274, 1.0, 0.749894, 0.749894, 0.694296, 0.562341]
    """
    period = 2 * math.pi / step
    theta = np.asarray(theta, dtype=np.float64).copy()
    if even:
        theta = np.abs(theta)
    # Pairs turning less than a quarter of the alias period per row decide the direction.
    clear = np.abs(theta) < period / 4
    votes = np.sign(theta[clear])
    backwards = bool(votes.size and votes.sum() < 0)
    if backwards:
        theta = -theta
    n = len(theta)
    repeats = np.zeros(n, dtype=bool)
    if bound is not None and n > 1:
        repeats[:-1] = np.abs(theta[:-1] - theta[1:]) <= bound[:-1] + bound[1:]
    moved = []
    distinct: list[float] = []  # the resolved frequencies, slowest first, a repeat once
    for j in range(n - 1, -1, -1):
        expected = None
        if repeats[j]:
            expected = theta[j + 1]
        elif len(distinct) >= 2 and distinct[-1] > 0 and distinct[-2] > 0:
            expected = distinct[-1] * distinct[-1] / distinct[-2]
        # expected underflows to 0 for pairs too slow for a float64 square: nothing to read.
        if expected is not None and math.isfinite(expected) and 0 < expected <= 64 * period:
            best = _nearest_alias(theta[j], expected, period, even)
            if not math.isclose(best, theta[j], rel_tol=0, abs_tol=period / 2):
                moved.append(j)
            theta[j] = best
        if not repeats[j]:
            distinct.append(float(theta[j]))
    return Oriented(theta, backwards, tuple(sorted(moved)))
