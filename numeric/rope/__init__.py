"""Rotary position embedding (RoPE) in NumPy: frequencies, scaling, caches, layouts.

config: a Hugging Face config's RoPE settings, read as data; methods: the scaling methods, one
file each, found by a registry (method: what a method is; parameters: their ranges; properties:
the grid their stated properties are measured on; round_numbers: the round bases and factors the
audit names); scaling: the default frequencies and the float32 steps every method shares;
papers: the papers' statements where they differ; frequencies: a config's frequencies, from its
method; floats: rounding to float32, float16 and bfloat16; cache: cos/sin
caches as implementations build them; apply: RoPE on vectors in either layout; permute: the
per-head weight permutation between layouts; decay: RoFormer's long-term decay bound;
exact: mpmath values of the shared formulas; claims: the published numbers, recomputed.
"""

from numeric.rope.apply import apply_rope, apply_rope_complex, rope_function
from numeric.rope.cache import rope_cache
from numeric.rope.config import RopeConfig, rope_config
from numeric.rope.frequencies import RopeFrequencies, rope_frequencies
from numeric.rope.permute import convert_qk, permute_heads, rotate_half_order, unpermute_heads

__all__ = [
    "RopeConfig",
    "RopeFrequencies",
    "apply_rope",
    "apply_rope_complex",
    "convert_qk",
    "permute_heads",
    "rope_cache",
    "rope_config",
    "rope_frequencies",
    "rope_function",
    "rotate_half_order",
    "unpermute_heads",
]
