"""The frequencies and attention factor a configuration gives, as transformers' rope_init_fn does.

One entry point, rope_frequencies(config, seq_len=...), dispatching on the scaling type to
numeric.rope.scaling; the result is what `ROPE_INIT_FUNCTIONS[rope_type](config, seq_len=...)`
returns in transformers 5.24 (modeling_rope_utils.py), or the model's
compute_default_rope_parameters for "default".

>>> f = rope_frequencies({"head_dim": 64, "rope_theta": 10000.0, "max_position_embeddings": 4096,
...     "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}})
>>> f.inv_freq.dtype, f.inv_freq.shape, round(f.attention_factor, 6)
(dtype('float32'), (32,), 1.138629)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from numeric.rope import scaling
from numeric.rope.config import RopeConfig, rope_config


@dataclass(frozen=True)
class RopeFrequencies:
    """inv_freq: θ′_i for the config's rotary pairs (float32 or float64 by the arithmetic asked);
    attention_factor: the number cos and sin are multiplied by; config: what they came from."""

    inv_freq: np.ndarray
    attention_factor: float
    config: RopeConfig


def _as_config(config: RopeConfig | Mapping) -> RopeConfig:
    if isinstance(config, RopeConfig):
        return config
    return rope_config(config)


def rope_frequencies(
    config: RopeConfig | Mapping, *, seq_len: int | None = None, arithmetic: str = "float32"
) -> RopeFrequencies:
    """θ′_i and the attention factor of a config at sequence length seq_len.

    config: a RopeConfig, or a Hugging Face config dict (read by numeric.rope.rope_config);
    seq_len: the current sequence length, used by "dynamic" (the base grows past
    max_position_embeddings) and "longrope" (long factors past original_max_position_embeddings,
    short ones otherwise, as dynamic_rope_update switches them); None as at model creation.
    arithmetic: "float32" replays transformers' float32 steps, "float64" evaluates the same
    formulas in float64.
    """
    c = _as_config(config)
    if seq_len is not None and (
        not isinstance(seq_len, int) or isinstance(seq_len, bool) or seq_len < 0
    ):
        raise ValueError(f"seq_len must be a non-negative integer or None, got {seq_len!r}")
    dim, base = c.rotary_dim, c.base
    factor = 1.0
    if c.scaling == "default":
        inv = scaling.default_frequencies(dim, base, arithmetic=arithmetic)
    elif c.scaling == "linear":
        inv = scaling.linear_frequencies(dim, base, c.factor, arithmetic=arithmetic)
    elif c.scaling == "dynamic":
        inv = scaling.dynamic_ntk_frequencies(
            dim, base, c.factor, seq_len, c.max_position_embeddings, arithmetic=arithmetic
        )
    elif c.scaling == "yarn":
        inv = scaling.yarn_frequencies(
            dim,
            base,
            c.factor,
            c.original_max_position_embeddings,
            beta_fast=c.beta_fast,
            beta_slow=c.beta_slow,
            truncate=c.truncate,
            arithmetic=arithmetic,
        )
        factor = scaling.yarn_attention_factor(
            c.factor,
            mscale=c.mscale,
            mscale_all_dim=c.mscale_all_dim,
            attention_factor=c.attention_factor,
        )
    elif c.scaling == "llama3":
        inv = scaling.llama3_frequencies(
            dim,
            base,
            c.factor,
            c.low_freq_factor,
            c.high_freq_factor,
            c.original_max_position_embeddings,
            arithmetic=arithmetic,
        )
    else:  # longrope
        long = seq_len is not None and seq_len > c.original_max_position_embeddings
        rescale = c.long_factor if long else c.short_factor
        inv = scaling.longrope_frequencies(dim, base, rescale, arithmetic=arithmetic)
        factor = scaling.longrope_attention_factor(
            c.factor, c.original_max_position_embeddings, c.attention_factor
        )
    inv.flags.writeable = False
    return RopeFrequencies(inv, factor, c)
