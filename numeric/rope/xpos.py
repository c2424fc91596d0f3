"""xPos (Sun et al. 2022) as rotary-embedding-torch computes it (`use_xpos=True`).

Pair i of a query at position t is multiplied by ζ_i^((t − L//2)/γ) and of a key by its inverse,
ζ_i = (2i + 0.4·d)/(1.4·d), γ = `xpos_scale_base` (512), L the sequence length.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

SCALE_BASE = 512


def xpos_zeta(head_dim: int) -> np.ndarray:
    """ζ_i = (2i + 0.4·d)/(1.4·d), one per pair.

    >>> xpos_zeta(4).round(4).tolist()
    [0.2857, 0.6429]
    """
    if head_dim < 2 or head_dim % 2:
        raise ValueError(f"head_dim must be a positive even integer, got {head_dim}")
    return (np.arange(0, head_dim, 2) + 0.4 * head_dim) / (1.4 * head_dim)


def xpos_powers(positions: ArrayLike, *, scale_base: float = SCALE_BASE) -> np.ndarray:
    """(t − L//2)/γ for the positions t of one sequence of length L = len(positions)."""
    t = np.asarray(positions, dtype=np.float64)
    return (t - t.size // 2) / scale_base


def xpos_scales(
    positions: ArrayLike, head_dim: int, *, scale_base: float = SCALE_BASE
) -> np.ndarray:
    """The query scale ζ_i^power per position and pair, shape (positions, pairs) (the key's is
    its inverse)."""
    return xpos_zeta(head_dim)[None, :] ** xpos_powers(positions, scale_base=scale_base)[:, None]


def first_fp16_overflow(
    zeta: float, *, scale_base: float = SCALE_BASE, limit: int = 1 << 16
) -> dict:
    """The smallest power numerator u (= t − L//2) at which the key scale ζ^(−u/γ) is infinite
    in float16, two ways: computed exactly and rounded once to float16 ("exact"), and
    rotary-embedding-torch's path (ζ^(u/γ) in float32, cast to float16, then its inverse in
    float16, "library"). None when it stays finite below limit."""
    u = np.arange(limit, dtype=np.float64)
    with np.errstate(over="ignore", divide="ignore"):
        exact = (1.0 / zeta) ** (u / scale_base)
        rounded = exact.astype(np.float16)
        scale16 = (np.float32(zeta) ** (u / scale_base).astype(np.float32)).astype(np.float16)
        library = np.float16(1) / scale16
    out = {}
    for name, values in (("exact", rounded), ("library", library)):
        bad = np.flatnonzero(~np.isfinite(values))
        out[name] = int(bad[0]) if bad.size else None
    return out
