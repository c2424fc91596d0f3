"""M-RoPE (Qwen2-VL and successors): each pair turns with one of three positions, temporal t,
height h or width w, chosen by `mrope_section`.

Chunked (Qwen2-VL, `apply_multimodal_rotary_pos_emb`): the first s_t pairs read t, the next s_h
read h, the last s_w read w. Interleaved (Qwen3-VL, `apply_interleaved_mrope`): pair i reads h
if i ≡ 1 (mod 3) and i < 3·s_h, w if i ≡ 2 (mod 3) and i < 3·s_w, and t otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

AXES = ("t", "h", "w")


def check_sections(sections: Sequence[int]) -> tuple[int, int, int]:
    """sections if three nonnegative ints; TypeError/ValueError otherwise."""
    found = tuple(sections)
    if len(found) != 3 or not all(isinstance(s, int) and not isinstance(s, bool) for s in found):
        raise TypeError(f"mrope_section must be three ints (t, h, w), got {sections!r}")
    if min(found) < 0 or sum(found) == 0:
        raise ValueError(f"mrope_section must be nonnegative with a positive sum, got {found}")
    return found


def chunked_axes(sections: Sequence[int]) -> np.ndarray:
    """The axis (0 = t, 1 = h, 2 = w) of each pair, sections one after another.

    >>> chunked_axes((2, 1, 1)).tolist()
    [0, 0, 1, 2]
    """
    return np.repeat(np.arange(3), check_sections(sections))


def interleaved_axes(sections: Sequence[int]) -> np.ndarray:
    """Qwen3-VL's interleaving of the axes over sum(sections) pairs.

    >>> interleaved_axes((2, 2, 2)).tolist()
    [0, 1, 2, 0, 1, 2]
    >>> interleaved_axes((3, 1, 1)).tolist()
    [0, 1, 2, 0, 0]
    """
    found = check_sections(sections)
    i = np.arange(sum(found))
    axes = np.zeros(i.size, dtype=np.int64)
    for axis in (1, 2):
        axes[(i % 3 == axis) & (i < 3 * found[axis])] = axis
    return axes


def pair_order(axes: ArrayLike) -> np.ndarray:
    """σ sorting pairs by axis, stably: pair j of the chunked layout is pair σ(j) of `axes`.

    >>> pair_order(interleaved_axes((2, 2, 2))).tolist()
    [0, 3, 1, 4, 2, 5]
    """
    return np.argsort(np.asarray(axes), kind="stable")


def mrope_angles(positions: ArrayLike, axes: ArrayLike, freqs: ArrayLike) -> np.ndarray:
    """angles[r, i] = positions[r, axes[i]]·freqs[i] for (t, h, w) positions: shape (rows, pairs)."""
    pos = np.asarray(positions, dtype=np.float64)
    axes = np.asarray(axes, dtype=np.int64)
    if pos.ndim != 2 or pos.shape[1] != 3:
        raise ValueError(f"positions must be (rows, 3) for (t, h, w), got shape {pos.shape}")
    return pos[:, axes] * np.asarray(freqs, dtype=np.float64)
