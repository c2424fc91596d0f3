"""A Hugging Face model configuration's RoPE settings, read as data and checked field by field.

The reading follows transformers 5.24 (src/transformers/modeling_rope_utils.py,
RotaryEmbeddingConfigMixin.convert_rope_params_to_dict and standardize_rope_params): the
scaling dict is `rope_scaling` or else `rope_parameters`; its `rope_type` (or legacy `type`)
names the method; `rope_theta` and `partial_rotary_factor` inside it win over the top-level
keys; `original_max_position_embeddings` at the top level (Phi-3) wins over the dict's, which
defaults to `max_position_embeddings`. head_dim is `head_dim`, or hidden_size //
num_attention_heads; the rotary width is int(head_dim · partial_rotary_factor).

Nothing in the configuration is evaluated: each field must already be a number, a list of
numbers or a bool, and a field that is missing, of the wrong kind or out of range raises a
ValueError that names it and says what is allowed.

>>> c = rope_config({"head_dim": 128, "rope_theta": 500000.0, "max_position_embeddings": 131072,
...     "rope_scaling": {"rope_type": "llama3", "factor": 8.0, "low_freq_factor": 1.0,
...     "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}})
>>> c.scaling, c.rotary_dim, c.base, c.original_max_position_embeddings
('llama3', 128, 500000.0, 8192)
>>> rope_config({"hidden_size": 64, "num_attention_heads": 4, "rope_scaling": {"type": "cubic"}})
Traceback (most recent call last):
ValueError: rope_scaling.type must be one of default, linear, dynamic, yarn, llama3, longrope, got 'cubic'
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral, Real

SCALING_TYPES = ("default", "linear", "dynamic", "yarn", "llama3", "longrope")
DEFAULT_THETA = 10000.0  # transformers' RotaryEmbeddingConfigMixin.default_theta


@dataclass(frozen=True)
class RopeConfig:
    """The RoPE settings of one attention layer, with transformers' defaults filled in.

    head_dim: the attention head's width; rotary_dim: how many of its leading components
    rotate (even); base: rope_theta; scaling: one of SCALING_TYPES. The remaining fields are
    the scaling method's parameters under their Hugging Face names, None where the method has
    none: factor (s), max_position_embeddings, original_max_position_embeddings (L),
    beta_fast, beta_slow, truncate, mscale, mscale_all_dim, attention_factor (YaRN,
    LongRoPE), low_freq_factor, high_freq_factor (Llama 3), short_factor, long_factor
    (LongRoPE, one entry per rotary pair).
    """

    head_dim: int
    rotary_dim: int
    base: float
    scaling: str = "default"
    factor: float | None = None
    max_position_embeddings: int | None = None
    original_max_position_embeddings: int | None = None
    beta_fast: float | None = None
    beta_slow: float | None = None
    truncate: bool | None = None
    mscale: float | None = None
    mscale_all_dim: float | None = None
    attention_factor: float | None = None
    low_freq_factor: float | None = None
    high_freq_factor: float | None = None
    short_factor: tuple[float, ...] | None = None
    long_factor: tuple[float, ...] | None = None

    @property
    def pairs(self) -> int:
        """Number of rotated pairs, rotary_dim / 2."""
        return self.rotary_dim // 2

    def scaling_parameters(self) -> dict[str, object]:
        """{"type": scaling, ...} with every parameter the method uses, by its Hugging Face name."""
        names = _PARAMETERS[self.scaling]
        found: dict[str, object] = {"type": self.scaling}
        for name in names:
            value = getattr(self, name)
            found[name] = list(value) if isinstance(value, tuple) else value
        return found


# The parameters each method reads (modeling_rope_utils.py, _compute_*_parameters).
_PARAMETERS: dict[str, tuple[str, ...]] = {
    "default": (),
    "linear": ("factor",),
    "dynamic": ("factor", "max_position_embeddings"),
    "yarn": (
        "factor",
        "original_max_position_embeddings",
        "beta_fast",
        "beta_slow",
        "truncate",
        "mscale",
        "mscale_all_dim",
        "attention_factor",
    ),
    "llama3": ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings"),
    "longrope": (
        "factor",
        "original_max_position_embeddings",
        "attention_factor",
        "short_factor",
        "long_factor",
    ),
}


def _is_number(value: object) -> bool:
    return isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)


def _number(value: object, field: str, *, low: float | None = None, strict: bool = False) -> float:
    """value as a float if it is a finite number (bool excluded) above low, else raise."""
    bound = "" if low is None else (f" > {low:g}" if strict else f" >= {low:g}")
    if not _is_number(value) or (
        low is not None and (value <= low if strict else value < low)  # type: ignore[operator]
    ):
        raise ValueError(f"{field} must be a finite number{bound}, got {value!r}")
    return float(value)  # type: ignore[arg-type]


def _positive_int(value: object, field: str) -> int:
    if not isinstance(value, Integral) or isinstance(value, bool) or value < 1:
        raise ValueError(f"{field} must be a positive integer, got {value!r}")
    return int(value)


def _optional(mapping: Mapping, key: str, field: str, **limits) -> float | None:
    value = mapping.get(key)
    return None if value is None else _number(value, field, **limits)


def _factors(value: object, field: str, pairs: int) -> tuple[float, ...]:
    if not isinstance(value, list | tuple) or len(value) != pairs:
        raise ValueError(
            f"{field} must be a list of {pairs} positive numbers (one per rotary pair), got {value!r}"
        )
    return tuple(_number(v, f"{field}[{j}]", low=0.0, strict=True) for j, v in enumerate(value))


def _scaling_dict(config: Mapping, layer_type: str | None) -> tuple[Mapping, str]:
    """The RoPE dict (rope_scaling, else rope_parameters) and the name to blame in errors."""
    for key in ("rope_scaling", "rope_parameters"):
        value = config.get(key)
        if value is None or (isinstance(value, Mapping) and not value):
            continue
        if not isinstance(value, Mapping):
            raise ValueError(f"{key} must be a JSON object (dict) or null, got {value!r}")
        nested = sorted(k for k, v in value.items() if isinstance(v, Mapping))
        if not nested:
            if layer_type is not None:
                raise ValueError(f"layer_type must be None: {key} is not nested by layer type")
            return value, key
        if layer_type not in nested:
            raise ValueError(
                f"{key} is nested by layer type: layer_type must be one of "
                f"{', '.join(nested)}, got {layer_type!r}"
            )
        return value[layer_type], f"{key}.{layer_type}"
    if layer_type is not None:
        raise ValueError("layer_type must be None: the config has no nested rope_parameters")
    return {}, "rope_scaling"


def rope_config(config: Mapping, *, layer_type: str | None = None) -> RopeConfig:
    """Read the RoPE settings of a Hugging Face model config (a dict, as json.load gives it).

    config: the model's config.json as a dict; layer_type: which entry to read when
    rope_parameters is nested by layer type (Gemma 3's "full_attention", "sliding_attention").
    Raises ValueError naming the first field that is missing, of the wrong kind or out of range.
    """
    if not isinstance(config, Mapping):
        raise TypeError(
            f"config must be a dict (a parsed config.json), got {type(config).__name__}"
        )
    rope, where = _scaling_dict(config, layer_type)
    kind = rope.get("rope_type", rope.get("type", "default"))
    kind_field = f"{where}.{'rope_type' if 'rope_type' in rope else 'type'}"
    if kind not in SCALING_TYPES:
        raise ValueError(f"{kind_field} must be one of {', '.join(SCALING_TYPES)}, got {kind!r}")

    theta_field = f"{where}.rope_theta" if "rope_theta" in rope else "rope_theta"
    base = _number(
        rope.get("rope_theta", config.get("rope_theta", DEFAULT_THETA)),
        theta_field,
        low=1,
        strict=True,
    )
    prf_field = (
        f"{where}.partial_rotary_factor"
        if "partial_rotary_factor" in rope
        else "partial_rotary_factor"
    )
    prf = rope.get("partial_rotary_factor", config.get("partial_rotary_factor"))
    prf = 1.0 if prf is None else _number(prf, prf_field, low=0.0, strict=True)
    if prf > 1:
        raise ValueError(f"{prf_field} must be in (0, 1], got {prf!r}")

    if config.get("head_dim") is not None:
        head_dim = _positive_int(config["head_dim"], "head_dim")
    elif "hidden_size" in config and "num_attention_heads" in config:
        hidden = _positive_int(config["hidden_size"], "hidden_size")
        heads = _positive_int(config["num_attention_heads"], "num_attention_heads")
        head_dim = hidden // heads
        if head_dim < 1:
            raise ValueError(
                f"hidden_size ({hidden}) must be at least num_attention_heads ({heads})"
            )
    else:
        raise ValueError("the config needs head_dim, or hidden_size and num_attention_heads")
    rotary_dim = int(head_dim * prf)
    if rotary_dim < 2 or rotary_dim % 2:
        raise ValueError(
            f"the rotary width int(head_dim · partial_rotary_factor) = int({head_dim} · {prf:g}) "
            f"= {rotary_dim} must be a positive even integer"
        )

    max_pos = config.get("max_position_embeddings")
    max_pos = None if max_pos is None else _positive_int(max_pos, "max_position_embeddings")
    fields: dict[str, object] = {}

    if kind in ("yarn", "llama3", "longrope"):
        if config.get("original_max_position_embeddings") is not None:
            original = _positive_int(
                config["original_max_position_embeddings"], "original_max_position_embeddings"
            )
        elif rope.get("original_max_position_embeddings") is not None:
            original = _positive_int(
                rope["original_max_position_embeddings"],
                f"{where}.original_max_position_embeddings",
            )
        elif max_pos is not None:
            original = max_pos
        else:
            raise ValueError(
                f"{kind} scaling needs {where}.original_max_position_embeddings or max_position_embeddings"
            )
        fields["original_max_position_embeddings"] = original

    factor_field = f"{where}.factor"
    if kind in ("linear", "dynamic", "llama3"):
        if rope.get("factor") is None:
            raise ValueError(f"{factor_field} is required for {kind} scaling: a finite number >= 1")
        fields["factor"] = _number(rope["factor"], factor_field, low=1)
    elif kind in ("yarn", "longrope"):
        if rope.get("factor") is not None:
            fields["factor"] = _number(rope["factor"], factor_field, low=1)
        elif max_pos is not None:
            # transformers: factor = max_position_embeddings / original_max_position_embeddings.
            fields["factor"] = max_pos / fields["original_max_position_embeddings"]  # type: ignore[operator]
        else:
            raise ValueError(
                f"{factor_field} is required for {kind} scaling without max_position_embeddings"
            )

    if kind == "dynamic" and max_pos is None:
        raise ValueError("dynamic scaling needs max_position_embeddings: a positive integer")
    if kind == "yarn":
        # transformers reads `rope_parameters_dict.get("beta_fast") or 32`: 0 and null mean 32.
        fast = _optional(rope, "beta_fast", f"{where}.beta_fast", low=0.0, strict=True)
        slow = _optional(rope, "beta_slow", f"{where}.beta_slow", low=0.0, strict=True)
        fields["beta_fast"] = fast or 32.0
        fields["beta_slow"] = slow or 1.0
        truncate = rope.get("truncate", True)
        if not isinstance(truncate, bool):
            raise ValueError(f"{where}.truncate must be true or false, got {truncate!r}")
        fields["truncate"] = truncate
        fields["mscale"] = _optional(rope, "mscale", f"{where}.mscale")
        fields["mscale_all_dim"] = _optional(rope, "mscale_all_dim", f"{where}.mscale_all_dim")
        fields["attention_factor"] = _optional(
            rope, "attention_factor", f"{where}.attention_factor", low=0.0, strict=True
        )
    elif kind == "llama3":
        for key in ("low_freq_factor", "high_freq_factor"):
            if rope.get(key) is None:
                raise ValueError(f"{where}.{key} is required for llama3 scaling: a positive number")
            fields[key] = _number(rope[key], f"{where}.{key}", low=0.0, strict=True)
        if fields["high_freq_factor"] <= fields["low_freq_factor"]:  # type: ignore[operator]
            raise ValueError(
                f"{where}.high_freq_factor must be greater than low_freq_factor, got "
                f"{fields['high_freq_factor']:g} and {fields['low_freq_factor']:g}"
            )
    elif kind == "longrope":
        for key in ("short_factor", "long_factor"):
            if key not in rope:
                raise ValueError(
                    f"{where}.{key} is required for longrope scaling: {rotary_dim // 2} positive numbers"
                )
            fields[key] = _factors(rope[key], f"{where}.{key}", rotary_dim // 2)
        fields["attention_factor"] = _optional(
            rope, "attention_factor", f"{where}.attention_factor", low=0.0, strict=True
        )

    return RopeConfig(
        head_dim=head_dim,
        rotary_dim=rotary_dim,
        base=base,
        scaling=kind,
        max_position_embeddings=max_pos,
        **fields,  # type: ignore[arg-type]
    )
