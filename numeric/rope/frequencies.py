"""The frequencies and attention factor a configuration gives, as transformers' rope_init_fn does.

One entry point, rope_frequencies(config, seq_len=...), asking the configuration's scaling
method (numeric.rope.methods) for its frequencies and attention factor; the result is what `ROPE_INIT_FUNCTIONS[rope_type](config, seq_len=...)`
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

from numeric.rope.config import RopeConfig, rope_config
from numeric.rope.parameters import SEQ_LEN


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
    seq_len: the current sequence length (an integer in [0, 2**53]), used by the methods that
    depend on it (dynamic NTK's base grows past max_position_embeddings; LongRoPE takes its
    long factors past original_max_position_embeddings); None as at model creation.
    arithmetic: "float32" replays transformers' float32 steps, "float64" evaluates the same
    formulas in float64.
    """
    c = _as_config(config)
    if seq_len is not None:
        seq_len = int(SEQ_LEN.check(seq_len, "seq_len"))
    method = c.method
    inv = method.frequencies(c, seq_len, arithmetic)
    factor, _rule = method.attention(c)
    inv.flags.writeable = False
    return RopeFrequencies(inv, factor, c)
