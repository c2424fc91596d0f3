"""RoFormer's long-term decay argument (Su et al. 2021, arXiv 2104.09864, §3.4.3), in NumPy.

For a relative distance r = m − n, write the score as Σ_i h_i·e^{i·r·θ_i} with complex pair
products h_i (i = 0 .. d/2 − 1) and set S_j(r) = Σ_{k<j} e^{i·r·θ_k} (S_0 = 0) and h_{d/2} = 0.
Abel summation gives Σ_i h_i·e^{i·r·θ_i} = −Σ_i S_{i+1}(r)·(h_{i+1} − h_i), hence
|score| <= max_i |h_{i+1} − h_i| · Σ_{j=1}^{d/2} |S_j(r)|. The paper plots the average
f(r) = (2/d)·Σ_{j=1}^{d/2} |S_j(r)| and says it decays with r; it is not monotone.

>>> f = decay_average(np.array([0, 18, 19]), 128, 10000.0)
>>> [round(float(v), 4) for v in f]
[32.5, 15.3487, 15.3908]
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from numeric.rope.cache import check_frequencies, exact_rotations
from numeric.rope.scaling import default_frequencies

_ROWS = 4096  # distances handled at a time: (rows, d/2) complex temporaries stay small


def partial_sums(distances: ArrayLike, inv_freq: ArrayLike) -> np.ndarray:
    """S_j(r) for j = 1 .. d/2 (columns) at each integer distance r (rows), complex128."""
    r = np.asarray(distances)
    if r.ndim != 1 or not np.issubdtype(r.dtype, np.integer):
        raise ValueError(f"distances must be a 1-D integer array, got {r.dtype} {r.shape}")
    turns = exact_rotations(r.astype(np.float64), check_frequencies(inv_freq))
    return np.cumsum(turns, axis=1)


def decay_average(distances: ArrayLike, dim: int, base: float) -> np.ndarray:
    """f(r) = (2/d)·Σ_{j=1}^{d/2} |S_j(r)| at each integer distance, θ_k = base^(−2k/d),
    computed a block of distances at a time."""
    r = np.asarray(distances)
    thetas = default_frequencies(dim, base)
    out = np.empty(r.shape, dtype=np.float64)
    for a in range(0, r.size, _ROWS):
        block = r[a : a + _ROWS]
        out[a : a + _ROWS] = np.abs(partial_sums(block, thetas)).sum(axis=1) * (2 / dim)
    return out


def abel_sides(h: ArrayLike, distance: int, inv_freq: ArrayLike) -> tuple[complex, complex]:
    """(Σ_i h_i·e^{i·r·θ_i}, −Σ_i S_{i+1}(r)·(h_{i+1} − h_i)) with h_{d/2} = 0: equal by Abel summation."""
    coefficients = np.asarray(h, dtype=np.complex128)
    freqs = check_frequencies(inv_freq)
    if coefficients.shape != freqs.shape:
        raise ValueError(
            f"h must have one entry per frequency, got {coefficients.shape} and {freqs.shape}"
        )
    turns = exact_rotations(np.array([float(distance)]), freqs)[0]
    direct = complex(np.sum(coefficients * turns))
    sums = np.cumsum(turns)  # S_1 .. S_{d/2}
    steps = np.append(coefficients[1:], 0) - coefficients  # h_{i+1} − h_i, h_{d/2} = 0
    return direct, complex(-np.sum(sums * steps))


def decay_bound(h: ArrayLike, distance: int, inv_freq: ArrayLike) -> float:
    """max_i |h_{i+1} − h_i| · Σ_{j=1}^{d/2} |S_j(r)|: RoFormer's bound on |Σ_i h_i·e^{i·r·θ_i}|."""
    coefficients = np.asarray(h, dtype=np.complex128)
    steps = np.append(coefficients[1:], 0) - coefficients
    sums = partial_sums(np.array([distance]), inv_freq)[0]
    return float(np.abs(steps).max() * np.abs(sums).sum())
