"""The arithmetic every RoPE scaling method shares, as transformers computes it: the default
frequencies θ_i = b^(−2i/d) and the float32 steps the methods are built from.

Sources: transformers 5.24, src/transformers/modeling_rope_utils.py and
LlamaRotaryEmbedding.compute_default_rope_parameters in
src/transformers/models/llama/modeling_llama.py. Each method's own map is in its file under
numeric/rope/methods; the papers' statements, where they differ, are in numeric.rope.papers.

arithmetic "float32" replays torch's float32 steps one by one: every tensor operation rounds
to float32, a Python number meeting a float32 tensor is rounded to float32 first, `c / t` is
torch's `t.reciprocal() * c`, and `base ** t` is the correctly rounded float32 power. torch's
vectorised float32 power is not always correctly rounded: on 2880 (base, exponent) pairs we
compared (torch 2.13 CPU), 35 powers were one ulp apart, so an inv_freq here can differ from
transformers' by an ulp or two; every other step gives the same bits (tests/numeric/
test_rope_transformers.py). Python-side scalars (correction dimensions, the dynamic base at
creation, attention factors) stay float64, as in the library.
arithmetic "float64" runs the same steps in float64: the map itself, to float64 rounding.

>>> theta = default_frequencies(128, 10000.0)
>>> float(theta[0]), float(theta[1])
(1.0, 0.8659643233600653)
"""

from __future__ import annotations

import numpy as np

from numeric.rope.parameters import BASE, rotary_dim
from numeric.shown import shown

ARITHMETICS = ("float64", "float32")


def check_arithmetic(value: object) -> np.dtype:
    """The dtype of arithmetic "float64" or "float32", else raise ValueError."""
    if value not in ARITHMETICS:
        raise ValueError(f"arithmetic must be 'float64' or 'float32', got {shown(value)}")
    return np.dtype(np.float64 if value == "float64" else np.float32)


def power(base: float, exponents: np.ndarray) -> np.ndarray:
    """base ** exponents, base rounded to the exponents' dtype first, correctly rounded in float32."""
    if exponents.dtype == np.float32:
        wide = np.float64(np.float32(base)) ** exponents.astype(np.float64)
        return wide.astype(np.float32)
    return np.float64(base) ** exponents


def exponents(dim: int, dtype: np.dtype) -> np.ndarray:
    """torch.arange(0, dim, 2).float() / dim in the given dtype: 2i/dim, one rounding."""
    return np.arange(0, dim, 2).astype(dtype) / dtype.type(dim)


def reciprocal_times(t: np.ndarray, c: float) -> np.ndarray:
    """c / t as torch computes it (Tensor.__rtruediv__: t.reciprocal() * c)."""
    one = t.dtype.type(1)
    return (one / t) * t.dtype.type(c)


def geometric(dim: int, base: float, dtype: np.dtype) -> np.ndarray:
    """1 / base^(2i/dim) in dtype, base already checked (it may be a grown base past BASE)."""
    with np.errstate(over="ignore", under="ignore"):
        return dtype.type(1) / power(base, exponents(dim, dtype))


def default_frequencies(dim: int, base: float, *, arithmetic: str = "float64") -> np.ndarray:
    """θ_i = 1 / base^(2i/dim) for the dim/2 pairs: compute_default_rope_parameters (Llama,
    GPT-NeoX with dim the rotary width), also the first step of every scaled method.

    dim: an even integer in [2, 2**16]; base: a number in (1, 1e100].
    """
    dtype = check_arithmetic(arithmetic)
    return geometric(rotary_dim(dim), BASE.check(base, "base"), dtype)
