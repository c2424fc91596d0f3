"""RoPE applied to vectors, in both layouts and in Meta's complex form.

For each rotary pair (a, b) of components with angle φ = m·θ_i, RoPE maps (x_a, x_b) to
(x_a cos φ − x_b sin φ, x_b cos φ + x_a sin φ). The layouts differ only in which components
pair up: "rotate_half" pairs i with i + n (transformers' rotate_half, Llama and GPT-NeoX),
"interleaved" pairs 2i with 2i + 1 (GPT-J's rotate_every_two; Meta's view_as_complex).
Components past the rotary width pass through unchanged (partial rotary, GPT-NeoX).

>>> x = np.array([[1.0, 0.0, 0.0, 0.0]])
>>> apply_rope(x, [1], [1.0, 0.0], layout="interleaved").round(6).tolist()
[[0.540302, 0.841471, 0.0, 0.0]]
>>> apply_rope(x, [1], [1.0, 0.0], layout="rotate_half").round(6).tolist()
[[0.540302, 0.0, 0.841471, 0.0]]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import ArrayLike

from numeric.rope.cache import (
    check_frequencies,
    check_layout,
    check_positions,
    exact_rotations,
    rope_cache,
)


def rotate_half(x: np.ndarray) -> np.ndarray:
    """cat(−x₂, x₁) over the last axis, x₁ and x₂ its halves (transformers' rotate_half)."""
    half = x.shape[-1] // 2
    return np.concatenate([-x[..., half:], x[..., :half]], axis=-1)


def rotate_every_two(x: np.ndarray) -> np.ndarray:
    """(−x_(2i+1), x_(2i)) in place of each pair (GPT-J's rotate_every_two)."""
    pairs = x.reshape(*x.shape[:-1], -1, 2)
    return np.stack([-pairs[..., 1], pairs[..., 0]], axis=-1).reshape(x.shape)


def _check_vectors(x: ArrayLike, width: int, count: int) -> np.ndarray:
    values = np.asarray(x)
    if values.dtype.kind not in "fiu":
        raise ValueError(f"x must hold real numbers, got dtype {values.dtype}")
    if values.ndim < 2 or values.shape[-2] != count or values.shape[-1] < width:
        raise ValueError(
            f"x must have shape (..., {count}, head_dim) with head_dim >= {width} "
            f"(one row per position), got {values.shape}"
        )
    return values


def apply_cache(x: ArrayLike, cos: np.ndarray, sin: np.ndarray, *, layout: str) -> np.ndarray:
    """x·cos + rotate(x)·sin on the first cos.shape[-1] components of x, the rest unchanged.

    x: shape (..., positions, head_dim); cos, sin: the cache rows of those positions, shape
    (positions, rotary_dim), in the layout's column order (rope_cache). Computed in the
    result type of x and the cache (transformers' apply_rotary_pos_emb, GPT-J's
    apply_rotary_pos_emb).
    """
    layout = check_layout(layout)
    width = cos.shape[-1]
    values = _check_vectors(x, width, cos.shape[0])
    rotary = values[..., :width]
    turned = rotate_half(rotary) if layout == "rotate_half" else rotate_every_two(rotary)
    out = rotary * cos + turned * sin
    if width == values.shape[-1]:
        return out
    return np.concatenate([out, values[..., width:].astype(out.dtype)], axis=-1)


def apply_rope(
    x: ArrayLike,
    positions: ArrayLike,
    inv_freq: ArrayLike,
    *,
    layout: str = "rotate_half",
    attention_factor: float = 1.0,
    arithmetic: str = "exact",
    dtype: str = "float64",
) -> np.ndarray:
    """RoPE of the rows of x at the given positions.

    x: shape (..., len(positions), head_dim); positions: 1-D integers; inv_freq: θ_i of the
    rotary pairs (rotary_dim = 2·len(inv_freq) <= head_dim); layout, attention_factor,
    arithmetic and dtype: as for numeric.rope.rope_cache, whose cache is applied.
    """
    cos, sin = rope_cache(
        inv_freq,
        check_positions(positions),
        layout=layout,
        dtype=dtype,
        arithmetic=arithmetic,
        attention_factor=attention_factor,
    )
    return apply_cache(x, cos, sin, layout=layout)


def apply_rope_complex(
    x: ArrayLike, positions: ArrayLike, inv_freq: ArrayLike, *, attention_factor: float = 1.0
) -> np.ndarray:
    """Meta's complex form: pairs (2i, 2i + 1) as complex numbers times e^{i·m·θ_i}.

    llama/model.py apply_rotary_emb: view_as_real(view_as_complex(x) · freqs_cis), in float64
    with freqs_cis = e^{i·m·θ_i} from exact angles. Equal to apply_rope(..., layout=
    "interleaved") up to float64 rounding.
    """
    freqs = check_frequencies(inv_freq)
    pos = check_positions(positions)
    width = 2 * freqs.size
    values = _check_vectors(x, width, pos.size).astype(np.float64)
    turns = exact_rotations(pos.astype(np.float64), freqs) * attention_factor
    pairs = values[..., :width].reshape(*values.shape[:-1], -1, 2)
    turned = (pairs[..., 0] + 1j * pairs[..., 1]) * turns
    out = np.stack([turned.real, turned.imag], axis=-1).reshape(*values.shape[:-1], width)
    return np.concatenate([out, values[..., width:]], axis=-1)


def rope_function(
    inv_freq: ArrayLike,
    *,
    layout: str = "rotate_half",
    attention_factor: float = 1.0,
    arithmetic: str = "exact",
    dtype: str = "float64",
) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """A black-box `apply_rope(x, positions) -> rotated x` with these settings fixed.

    The shape of callable an audit probes: x of shape (..., len(positions), head_dim).
    """
    freqs = check_frequencies(inv_freq)
    layout = check_layout(layout)

    def rope(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        return apply_rope(
            x,
            positions,
            freqs,
            layout=layout,
            attention_factor=attention_factor,
            arithmetic=arithmetic,
            dtype=dtype,
        )

    return rope
