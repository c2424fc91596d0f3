"""The shift maps as float64 arrays: the blocks R(k·ω_i) and the block-diagonal M_k."""

from __future__ import annotations

import numpy as np


def rotation_blocks(k: float, omegas: np.ndarray) -> np.ndarray:
    """The diagonal blocks R(k·ω_i) = [[cos, sin], [−sin, cos]] of M_k, shape (pairs, 2, 2)."""
    theta = k * np.asarray(omegas, dtype=np.float64)
    c, s = np.cos(theta), np.sin(theta)
    return np.stack([np.stack([c, s], axis=-1), np.stack([-s, c], axis=-1)], axis=-2)


def stacked_rotations(k: float, omegas: np.ndarray) -> np.ndarray:
    """M_k as a dense (d_model, d_model) matrix, pairs interleaved."""
    blocks = rotation_blocks(k, omegas)
    d = 2 * blocks.shape[0]
    m = np.zeros((d, d))
    for i, block in enumerate(blocks):
        m[2 * i : 2 * i + 2, 2 * i : 2 * i + 2] = block
    return m
