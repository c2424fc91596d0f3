"""2-D axial RoPE: each pair turns with one axis of a patch grid, x (column) or y (row).

An axial layout is an axis per pair (0 for x, 1 for y) and a frequency per pair; the angle of
pair i at grid position (x, y) is (x, y)[axis_i]·θ_i. torchtune's vision RoPE and timm's grid
RoPE are such layouts (numeric.rope_audit.axial reads them from caches).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike


def grid_positions(height: int, width: int, *, offset: float = 0.0) -> np.ndarray:
    """(x, y) of each patch of a height × width grid in row-major order, plus offset: shape
    (height·width, 2).

    >>> grid_positions(2, 3).tolist()
    [[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 1.0]]
    """
    if height < 1 or width < 1:
        raise ValueError(f"the grid must have at least one row and column, got {height}x{width}")
    rows = np.arange(height * width)
    return np.stack([rows % width, rows // width], axis=1).astype(np.float64) + offset


def axial_angles(positions: ArrayLike, axes: ArrayLike, freqs: ArrayLike) -> np.ndarray:
    """angles[r, i] = positions[r, axes[i]]·freqs[i]: shape (rows, pairs).

    >>> axial_angles([[2.0, 3.0]], [0, 1], [1.0, 0.5]).tolist()
    [[2.0, 1.5]]
    """
    pos = np.asarray(positions, dtype=np.float64)
    axes = np.asarray(axes, dtype=np.int64)
    freqs = np.asarray(freqs, dtype=np.float64)
    if pos.ndim != 2 or axes.shape != freqs.shape or axes.ndim != 1:
        raise ValueError("positions must be (rows, axes) and axes, freqs one value per pair")
    if axes.size and (axes.min() < 0 or axes.max() >= pos.shape[1]):
        raise ValueError(f"each pair's axis must be below {pos.shape[1]}")
    return pos[:, axes] * freqs


def split_axes(pairs: int) -> np.ndarray:
    """torchtune's vision RoPE and timm's grid RoPE: the first half of the pairs x, the rest y.

    >>> split_axes(4).tolist()
    [0, 0, 1, 1]
    """
    return np.repeat(np.array([0, 1]), [pairs - pairs // 2, pairs // 2])


def axial_rotate(vectors: ArrayLike, positions: ArrayLike, axes, freqs) -> np.ndarray:
    """Each vector (pairs (2i, 2i + 1)) rotated at each position: shape (positions, pairs, 2)."""
    angles = axial_angles(positions, axes, freqs)
    pairs = np.asarray(vectors, dtype=np.float64).reshape(-1, 2)
    c, s = np.cos(angles), np.sin(angles)
    return np.stack([pairs[:, 0] * c - pairs[:, 1] * s, pairs[:, 0] * s + pairs[:, 1] * c], -1)


def axial_scores(
    q: ArrayLike, k: ArrayLike, query_at: ArrayLike, key_at: ArrayLike, axes, freqs
) -> np.ndarray:
    """score[a, b] = ⟨R(query_at[a])q, R(key_at[b])k⟩: both rotated, then multiplied."""
    rq, rk = axial_rotate(q, query_at, axes, freqs), axial_rotate(k, key_at, axes, freqs)
    return np.einsum("aic,bic->ab", rq, rk)
