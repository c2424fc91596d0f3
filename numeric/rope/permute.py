"""The per-head permutation between the interleaved and the rotate_half layout.

Within one head of width d, P sends component 2i to i and 2i + 1 to i + d/2, so that
RoPE_rotate_half(P·x, m) = P·RoPE_interleaved(x, m). Converting Meta's interleaved weights to
Hugging Face's rotate_half ones applies P to the rows of W_q head by head with n_heads, and to
the rows of W_k with n_kv_heads (transformers, src/transformers/models/llama/
convert_llama_weights_to_hf.py, write_model.permute: `w.view(n_heads, dim1 // n_heads // 2, 2,
dim2).transpose(1, 2).reshape(dim1, dim2)`). llama.cpp's convert_hf_to_gguf.py LlamaModel.permute
undoes it: `reshape(n_head, 2, rows // n_head // 2, ...).swapaxes(1, 2)`.

>>> rotate_half_order(6).tolist()
[0, 2, 4, 1, 3, 5]
>>> permute_heads(np.arange(8.0)[:, None], 2)[:, 0].tolist()
[0.0, 2.0, 1.0, 3.0, 4.0, 6.0, 5.0, 7.0]
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
from numpy.typing import ArrayLike

from numeric.rope.parameters import MAX_HEAD_DIM
from numeric.shown import shown


def rotate_half_order(head_dim: int) -> np.ndarray:
    """P as a gather: (P·x)[j] = x[order[j]], i.e. order = [0, 2, 4, …, 1, 3, 5, …]."""
    if (
        not isinstance(head_dim, Integral)
        or isinstance(head_dim, bool)
        or not 2 <= head_dim <= MAX_HEAD_DIM
        or head_dim % 2
    ):
        raise ValueError(f"head_dim must be an even integer in [2, 2**16], got {shown(head_dim)}")
    return np.concatenate([np.arange(0, head_dim, 2), np.arange(1, head_dim, 2)])


def _rows(w: ArrayLike, n_heads: int, name: str) -> np.ndarray:
    weights = np.asarray(w)
    if weights.ndim not in (1, 2):
        raise ValueError(
            f"{name} must be 1-D (a bias) or 2-D (rows, columns), got shape {weights.shape}"
        )
    if not isinstance(n_heads, Integral) or isinstance(n_heads, bool) or n_heads < 1:
        raise ValueError(f"n_heads must be a positive integer, got {shown(n_heads)}")
    rows = weights.shape[0]
    if rows % (2 * n_heads):
        raise ValueError(
            f"{name} has {rows} rows, which is not a multiple of 2·n_heads = {2 * n_heads}"
        )
    return weights


def permute_heads(w: ArrayLike, n_heads: int) -> np.ndarray:
    """The rows of w permuted by P within each of n_heads heads (interleaved → rotate_half).

    w: shape (n_heads·head_dim, columns), or a bias of shape (n_heads·head_dim,).
    """
    weights = _rows(w, n_heads, "w")
    rows = weights.shape[0]
    flat = weights.reshape(rows, -1)
    moved = flat.reshape(n_heads, rows // n_heads // 2, 2, -1).transpose(0, 2, 1, 3)
    return moved.reshape(weights.shape)


def unpermute_heads(w: ArrayLike, n_heads: int) -> np.ndarray:
    """The inverse of permute_heads: rotate_half rows back to interleaved, head by head."""
    weights = _rows(w, n_heads, "w")
    rows = weights.shape[0]
    flat = weights.reshape(rows, -1)
    moved = flat.reshape(n_heads, 2, rows // n_heads // 2, -1).transpose(0, 2, 1, 3)
    return moved.reshape(weights.shape)


def convert_qk(
    w_q: ArrayLike, w_k: ArrayLike, *, n_heads: int, n_kv_heads: int
) -> tuple[np.ndarray, np.ndarray]:
    """(W_q, W_k) of an interleaved model as a rotate_half model needs them: W_q permuted with
    n_heads, W_k with n_kv_heads (grouped-query attention: n_kv_heads divides n_heads)."""
    if not isinstance(n_kv_heads, Integral) or isinstance(n_kv_heads, bool) or n_kv_heads < 1:
        raise ValueError(f"n_kv_heads must be a positive integer, got {shown(n_kv_heads)}")
    if isinstance(n_heads, Integral) and n_heads % n_kv_heads:
        raise ValueError(f"n_kv_heads ({n_kv_heads}) must divide n_heads ({n_heads})")
    return permute_heads(w_q, n_heads), permute_heads(w_k, n_kv_heads)
