"""The direction of rotation, and the true frequency of pairs that turn more than π between rows.

Rows g positions apart cannot tell θ from θ + 2πk/g. Every RoPE scaling method keeps the
frequencies decreasing from pair to pair, and geometric among the fast pairs (the scaling
methods change only the slow ones, or all by one factor), so a fast pair's frequency is read
as the alias closest to the geometric continuation of the two slower pairs after it. The
slowest pairs are never aliased (their turn between rows is far below π) and anchor the
continuation. A cache whose slow pairs all turn backwards rotates the other way (sin negated).
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


def orient(theta: np.ndarray, step: int, *, even: bool = False) -> Oriented:
    """Read the fitted θ (known modulo 2π/step) as positive decreasing frequencies where the
    slow pairs' progression says so. even: θ is known only up to its sign as well (a cache
    read from cos alone), so −θ and its aliases are candidates too."""
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
    moved = []
    n = len(theta)
    for j in range(n - 3, -1, -1):
        slower, slowest = theta[j + 1], theta[j + 2]
        if not (slower > 0 and slowest > 0):
            continue
        expected = slower * slower / slowest
        # expected underflows to 0 for pairs too slow for a float64 square: nothing to read.
        if not math.isfinite(expected) or expected <= 0 or expected > 64 * period:
            continue
        options = []
        for start in (theta[j], -theta[j]) if even else (theta[j],):
            k_low = math.floor((expected - start) / period) - 1
            options.append(start + period * np.arange(k_low, k_low + 4))
        options = np.concatenate(options)
        options = options[options > 0]
        if options.size == 0:
            continue
        best = options[np.argmin(np.abs(np.log(options / expected)))]
        if not math.isclose(best, theta[j], rel_tol=0, abs_tol=period / 2):
            moved.append(j)
        theta[j] = best
    return Oriented(theta, backwards, tuple(sorted(moved)))
