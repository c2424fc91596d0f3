"""Each RoPE scaling method as a map on the frequencies θ_i, computed as transformers computes it.

Sources: transformers 5.24, src/transformers/modeling_rope_utils.py (the _compute_*_parameters
functions named in each docstring) and LlamaRotaryEmbedding.compute_default_rope_parameters in
src/transformers/models/llama/modeling_llama.py. The papers' own statements, where they differ,
are in numeric.rope.papers.

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
>>> yarn_correction_range(32, 1, 128, 10000.0, 4096, truncate=True)
(20, 46)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from numbers import Integral, Real

import numpy as np

ARITHMETICS = ("float64", "float32")


def check_arithmetic(value: object) -> np.dtype:
    """The dtype of arithmetic "float64" or "float32", else raise ValueError."""
    if value not in ARITHMETICS:
        raise ValueError(f"arithmetic must be 'float64' or 'float32', got {value!r}")
    return np.dtype(np.float64 if value == "float64" else np.float32)


def _rotary_dim(dim: object) -> int:
    if not isinstance(dim, Integral) or isinstance(dim, bool) or dim < 2 or dim % 2:
        raise ValueError(f"dim (the rotary width) must be an even integer >= 2, got {dim!r}")
    return int(dim)


def _positive(value: object, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real) or not value > 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return float(value)


def _power(base: float, exponents: np.ndarray) -> np.ndarray:
    """base ** exponents, base rounded to the exponents' dtype first, correctly rounded in float32."""
    if exponents.dtype == np.float32:
        wide = np.float64(np.float32(base)) ** exponents.astype(np.float64)
        return wide.astype(np.float32)
    return np.float64(base) ** exponents


def _exponents(dim: int, dtype: np.dtype) -> np.ndarray:
    """torch.arange(0, dim, 2).float() / dim in the given dtype: 2i/dim, one rounding."""
    return np.arange(0, dim, 2).astype(dtype) / dtype.type(dim)


def _reciprocal_times(t: np.ndarray, c: float) -> np.ndarray:
    """c / t as torch computes it (Tensor.__rtruediv__: t.reciprocal() * c)."""
    one = t.dtype.type(1)
    return (one / t) * t.dtype.type(c)


def default_frequencies(dim: int, base: float, *, arithmetic: str = "float64") -> np.ndarray:
    """θ_i = 1 / base^(2i/dim) for the dim/2 pairs: compute_default_rope_parameters (Llama,
    GPT-NeoX with dim the rotary width), also the first step of every scaled method."""
    dtype = check_arithmetic(arithmetic)
    dim = _rotary_dim(dim)
    base = _positive(base, "base")
    return dtype.type(1) / _power(base, _exponents(dim, dtype))


def linear_frequencies(
    dim: int, base: float, factor: float, *, arithmetic: str = "float64"
) -> np.ndarray:
    """θ_i / s: _compute_linear_scaling_rope_parameters (`inv_freq /= factor`). Position
    interpolation (Chen et al. 2023, arXiv 2306.15595) divides the positions by s instead:
    the angles m·θ_i/s are the same."""
    theta = default_frequencies(dim, base, arithmetic=arithmetic)
    return theta / theta.dtype.type(_positive(factor, "factor"))


def ntk_aware_base(base: float, factor: float, dim: int) -> float:
    """b′ = b·s^(d/(d−2)) (bloc97, 2023; YaRN paper §3.1), in float64 as a config would hold it.

    No transformers rope_type computes it: a model using it ships b′ as its rope_theta
    (Code Llama's 1e6), and the frequencies are default_frequencies(dim, b′).
    """
    dim = _rotary_dim(dim)
    if dim == 2:
        raise ValueError("dim must be at least 4 for the NTK-aware base: d/(d−2) needs d > 2")
    return _positive(base, "base") * _positive(factor, "factor") ** (dim / (dim - 2))


def ntk_aware_frequencies(
    dim: int, base: float, factor: float, *, arithmetic: str = "float64"
) -> np.ndarray:
    """θ′_i = b′^(−2i/d) with b′ = ntk_aware_base(base, factor, dim)."""
    return default_frequencies(dim, ntk_aware_base(base, factor, dim), arithmetic=arithmetic)


def dynamic_ntk_base(
    base: float,
    factor: float,
    dim: int,
    seq_len: int | None,
    max_position_embeddings: int,
    *,
    arithmetic: str = "float64",
) -> float:
    """b·(s·l/L − (s − 1))^(d/(d−2)) with l = max(seq_len, L), L = max_position_embeddings:
    _compute_dynamic_ntk_parameters. seq_len None means L (the base is then b).

    arithmetic "float32" follows the path a forward pass takes once l > L: seq_len is then a
    tensor (dynamic_rope_update passes torch.max(position_ids) + 1), so every step is a
    float32 tensor operation; at l <= L nothing is recomputed and the base is b.
    "float64" evaluates the formula with Python floats, as at initialisation.
    """
    dtype = check_arithmetic(arithmetic)
    dim = _rotary_dim(dim)
    base, factor = _positive(base, "base"), _positive(factor, "factor")
    if not isinstance(max_position_embeddings, Integral) or max_position_embeddings < 1:
        raise ValueError(
            f"max_position_embeddings must be a positive integer, got {max_position_embeddings!r}"
        )
    if seq_len is not None and (not isinstance(seq_len, Integral) or seq_len < 0):
        raise ValueError(f"seq_len must be a non-negative integer or None, got {seq_len!r}")
    if dim == 2:
        raise ValueError("dim must be at least 4 for the dynamic NTK base: d/(d−2) needs d > 2")
    length = max_position_embeddings if seq_len is None else max(seq_len, max_position_embeddings)
    exponent = dim / (dim - 2)
    if dtype == np.float64 or length == max_position_embeddings:
        return base * ((factor * length / max_position_embeddings) - (factor - 1)) ** exponent
    f32 = np.float32
    grown = (f32(factor) * f32(length)) / f32(max_position_embeddings) - f32(factor - 1)
    powered = f32(np.float64(grown) ** exponent)
    return float(f32(base) * powered)


def dynamic_ntk_frequencies(
    dim: int,
    base: float,
    factor: float,
    seq_len: int | None,
    max_position_embeddings: int,
    *,
    arithmetic: str = "float64",
) -> np.ndarray:
    """default_frequencies with the base dynamic_ntk_base(...) at sequence length seq_len."""
    grown = dynamic_ntk_base(
        base, factor, dim, seq_len, max_position_embeddings, arithmetic=arithmetic
    )
    return default_frequencies(dim, grown, arithmetic=arithmetic)


def vllm_41236_dynamic_base(base: float, factor: float, dim: int) -> float:
    """The constant base vLLM's DynamicNTKScalingRotaryEmbedding computed before PR #41277
    (issue vllm #41236): the dynamic formula with l = s·L substituted, b·(s² − s + 1)^(d/(d−2)),
    whatever the sequence length. Kept to show the bug, not to use."""
    dim = _rotary_dim(dim)
    if dim == 2:
        raise ValueError("dim must be at least 4: d/(d−2) needs d > 2")
    factor = _positive(factor, "factor")
    return _positive(base, "base") * (factor * factor - (factor - 1)) ** (dim / (dim - 2))


def yarn_correction_dim(num_rotations: float, dim: int, base: float, original: int) -> float:
    """The (real) pair index at which L/λ_i equals num_rotations: d·ln(L/(2π·n)) / (2·ln b).

    _compute_yarn_parameters.find_correction_dim, float64 as in Python.
    """
    return (dim * math.log(original / (num_rotations * 2 * math.pi))) / (2 * math.log(base))


def yarn_correction_range(
    beta_fast: float, beta_slow: float, dim: int, base: float, original: int, *, truncate: bool
) -> tuple[float, float]:
    """(low, high) of the ramp: the correction dims of beta_fast and beta_slow, floored and
    ceiled when truncate, then clamped to [0, dim − 1] (find_correction_range; note dim − 1,
    not dim/2 − 1)."""
    low = yarn_correction_dim(beta_fast, dim, base, original)
    high = yarn_correction_dim(beta_slow, dim, base, original)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, dim - 1)


def yarn_ramp(low: float, high: float, pairs: int, *, arithmetic: str = "float64") -> np.ndarray:
    """clamp((i − low)/(high − low), 0, 1) for i = 0 .. pairs − 1: linear_ramp_factor, linear in
    the pair index (high is nudged by 0.001 when it equals low, as in the library)."""
    dtype = check_arithmetic(arithmetic)
    if low == high:
        high += 0.001
    linear = (np.arange(pairs).astype(dtype) - dtype.type(low)) / dtype.type(high - low)
    return np.clip(linear, dtype.type(0), dtype.type(1))


def yarn_frequencies(
    dim: int,
    base: float,
    factor: float,
    original_max_position_embeddings: int,
    *,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    truncate: bool = True,
    arithmetic: str = "float64",
) -> np.ndarray:
    """θ′_i = (θ_i/s)·ramp_i + θ_i·(1 − ramp_i), ramp linear in i: _compute_yarn_parameters.

    The same function as jquesnelle/yarn's reference code (scaled_rope, _yarn_find_correction_range
    and _yarn_linear_ramp_mask), which vLLM and llama.cpp copy. The paper's ramp is linear in
    r = L/λ_i instead: numeric.rope.papers.yarn_paper_frequencies.
    """
    dtype = check_arithmetic(arithmetic)
    dim = _rotary_dim(dim)
    base, factor = _positive(base, "base"), _positive(factor, "factor")
    pos_freqs = _power(base, _exponents(dim, dtype))
    extrapolation = dtype.type(1) / pos_freqs
    interpolation = dtype.type(1) / (dtype.type(factor) * pos_freqs)
    low, high = yarn_correction_range(
        beta_fast, beta_slow, dim, base, original_max_position_embeddings, truncate=truncate
    )
    one = dtype.type(1)
    kept = one - yarn_ramp(low, high, dim // 2, arithmetic=arithmetic)
    return interpolation * (one - kept) + extrapolation * kept


def yarn_mscale(scale: float, mscale: float = 1.0) -> float:
    """g(s, μ) = 0.1·μ·ln s + 1, and 1 for s <= 1: get_mscale / DeepSeek's yarn_get_mscale."""
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def yarn_attention_factor(
    factor: float,
    *,
    mscale: float | None = None,
    mscale_all_dim: float | None = None,
    attention_factor: float | None = None,
) -> float:
    """The number cos and sin are multiplied by (logits scale by its square).

    _compute_yarn_parameters: attention_factor if given; else g(s, mscale)/g(s, mscale_all_dim)
    when both are given and non-zero (DeepSeek-V2/V3); else g(s, 1) = 0.1·ln s + 1, the paper's
    √(1/t) (§3.4).
    """
    if attention_factor is not None:
        return float(attention_factor)
    if mscale and mscale_all_dim:
        return float(yarn_mscale(factor, mscale) / yarn_mscale(factor, mscale_all_dim))
    return yarn_mscale(factor)


def deepseek_softmax_scale(factor: float, mscale_all_dim: float | None) -> float:
    """What DeepSeek-V2 multiplies its softmax scale head_dim^(−1/2) by: g(s, mscale_all_dim)²
    when mscale_all_dim is non-zero, else 1 (models/deepseek_v2/modeling_deepseek_v2.py,
    yarn_apply_mscale)."""
    if not mscale_all_dim:
        return 1.0
    g = yarn_mscale(factor, mscale_all_dim)
    return g * g


def llama3_frequencies(
    dim: int,
    base: float,
    factor: float,
    low_freq_factor: float,
    high_freq_factor: float,
    original_max_position_embeddings: int,
    *,
    arithmetic: str = "float64",
) -> np.ndarray:
    """Llama 3.1's map: _compute_llama3_parameters, the vectorised form of Meta's apply_scaling
    (meta-llama/llama-models, models/llama3/reference_impl/model.py).

    With λ_i = 2π/θ_i: θ_i where λ_i < L/high; θ_i/s where λ_i > L/low; otherwise
    (1 − smooth)·θ_i/s + smooth·θ_i with smooth = (L/λ_i − low)/(high − low).
    """
    theta = default_frequencies(dim, base, arithmetic=arithmetic)
    t = theta.dtype.type
    factor = _positive(factor, "factor")
    original = original_max_position_embeddings
    low_wavelen = original / low_freq_factor
    high_wavelen = original / high_freq_factor
    wavelen = _reciprocal_times(theta, 2 * math.pi)
    scaled = np.where(wavelen > t(low_wavelen), theta / t(factor), theta)
    smooth = (_reciprocal_times(wavelen, original) - t(low_freq_factor)) / t(
        high_freq_factor - low_freq_factor
    )
    smoothed = (t(1) - smooth) * scaled / t(factor) + smooth * scaled
    medium = ~(wavelen < t(high_wavelen)) & ~(wavelen > t(low_wavelen))
    return np.where(medium, smoothed, scaled)


def longrope_frequencies(
    dim: int, base: float, factors: Sequence[float], *, arithmetic: str = "float64"
) -> np.ndarray:
    """θ_i / λ_i for a rescale vector λ (short_factor or long_factor): _compute_longrope_parameters
    (`1.0 / (ext_factors * base**inv_freq_shape)`)."""
    dtype = check_arithmetic(arithmetic)
    dim = _rotary_dim(dim)
    rescale = np.asarray(factors, dtype=np.float64)
    if rescale.shape != (dim // 2,) or not np.all(np.isfinite(rescale)) or np.any(rescale <= 0):
        raise ValueError(
            f"factors must be {dim // 2} positive finite numbers, got shape {rescale.shape}"
        )
    powered = _power(_positive(base, "base"), _exponents(dim, dtype))
    return dtype.type(1) / (rescale.astype(dtype) * powered)


def longrope_attention_factor(
    factor: float, original_max_position_embeddings: int, attention_factor: float | None = None
) -> float:
    """√(1 + ln s / ln L), 1 for s <= 1, or attention_factor if given: _compute_longrope_parameters
    (s is `factor`, or max_position_embeddings / original_max_position_embeddings)."""
    if attention_factor is not None:
        return float(attention_factor)
    if factor <= 1.0:
        return 1.0
    return math.sqrt(1 + math.log(factor) / math.log(original_max_position_embeddings))
