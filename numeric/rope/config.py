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
ValueError that names it, shows its value (cut short) and says what is allowed. The fields
every method shares are read here (head_dim in [1, 2**16], rope_theta in (1, 1e100],
partial_rotary_factor in (0, 1], max_position_embeddings in [1, 2**53]); the scaling dict's
rope_type picks a method from the registry (numeric.rope.methods), which reads its own keys.

>>> c = rope_config({"head_dim": 128, "rope_theta": 10000.0, "max_position_embeddings": 16384,
...     "rope_scaling": {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 4096}})
>>> c.scaling, c.rotary_dim, c.base, c.original_max_position_embeddings, c.beta_fast
('yarn', 128, 10000.0, 4096, 32.0)
>>> rope_config({"hidden_size": 64, "num_attention_heads": 4, "rope_scaling": {"type": "cubic"}})
... # doctest: +ELLIPSIS
Traceback (most recent call last):
ValueError: rope_scaling.type must be one of default, linear, dynamic, yarn, ..., got 'cubic'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from numeric.rope.method import ScalingMethod
from numeric.rope.methods import ABSENT, by_rope_type, rope_types, scaling_methods
from numeric.rope.parameters import BASE, COUNT, FRACTION, HEAD_DIM, LENGTH, Reading
from numeric.shown import shown

DEFAULT_THETA = 10000.0  # transformers' RotaryEmbeddingConfigMixin.default_theta


@dataclass(frozen=True)
class RopeConfig:
    """The RoPE settings of one attention layer, with transformers' defaults filled in.

    head_dim: the attention head's width; rotary_dim: how many of its leading components
    rotate (even); base: rope_theta; scaling: the method's rope_type; max_position_embeddings:
    the top-level key, or None; parameters: the method's own keys and values, read by it
    (numeric.rope.methods), each also an attribute under its Hugging Face name (config.factor,
    config.beta_fast, ...); a key of another method reads as None.
    """

    head_dim: int
    rotary_dim: int
    base: float
    scaling: str = ABSENT
    max_position_embeddings: int | None = None
    parameters: tuple[tuple[str, object], ...] = ()

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)
        for key, value in object.__getattribute__(self, "parameters"):
            if key == name:
                return value
        if any(name in m.keys for m in scaling_methods()):
            return None
        raise AttributeError(f"RopeConfig has no field {name!r}")

    @property
    def pairs(self) -> int:
        """Number of rotated pairs, rotary_dim / 2."""
        return self.rotary_dim // 2

    @property
    def method(self) -> ScalingMethod:
        """The scaling method of the registry this configuration names."""
        found = by_rope_type(self.scaling)
        if found is None:
            raise ValueError(
                f"scaling must be one of {', '.join(rope_types())}, got {shown(self.scaling)}"
            )
        return found

    def scaling_parameters(self) -> dict[str, object]:
        """{"type": scaling, ...} with every parameter the method uses, by its Hugging Face name."""
        found: dict[str, object] = {"type": self.scaling}
        for name in self.method.keys:
            value = getattr(self, name)
            found[name] = list(value) if isinstance(value, tuple) else value
        return found


def _scaling_dict(config: Mapping, layer_type: str | None) -> tuple[Mapping, str]:
    """The RoPE dict (rope_scaling, else rope_parameters) and the name to blame in errors."""
    for key in ("rope_scaling", "rope_parameters"):
        value = config.get(key)
        if value is None or (isinstance(value, Mapping) and not value):
            continue
        if not isinstance(value, Mapping):
            raise ValueError(f"{key} must be a JSON object (dict) or null, got {shown(value)}")
        nested = sorted(str(k) for k, v in value.items() if isinstance(v, Mapping))
        if not nested:
            if layer_type is not None:
                raise ValueError(f"layer_type must be None: {key} is not nested by layer type")
            return value, key
        if layer_type not in nested:
            raise ValueError(
                f"{key} is nested by layer type: layer_type must be one of "
                f"{', '.join(nested)}, got {shown(layer_type)}"
            )
        return value[layer_type], f"{key}.{layer_type}"
    if layer_type is not None:
        raise ValueError("layer_type must be None: the config has no nested rope_parameters")
    return {}, "rope_scaling"


def _method(rope: Mapping, where: str) -> ScalingMethod:
    kind = rope.get("rope_type", rope.get("type", ABSENT))
    found = by_rope_type(kind) if isinstance(kind, str) else None
    if found is None:
        field = f"{where}.{'rope_type' if 'rope_type' in rope else 'type'}"
        raise ValueError(f"{field} must be one of {', '.join(rope_types())}, got {shown(kind)}")
    return found


def _inner_or_top(config: Mapping, rope: Mapping, where: str, key: str) -> tuple[object, str]:
    """A key the RoPE dict may hold over the top level (rope_theta, partial_rotary_factor)."""
    if key in rope:
        return rope[key], f"{where}.{key}"
    return config.get(key), key


def _base(config: Mapping, rope: Mapping, where: str) -> float:
    value, field = _inner_or_top(config, rope, where, "rope_theta")
    return BASE.check(DEFAULT_THETA if value is None else value, field)


def _head_dim(config: Mapping) -> int:
    if config.get("head_dim") is not None:
        return int(HEAD_DIM.check(config["head_dim"], "head_dim"))
    if "hidden_size" not in config or "num_attention_heads" not in config:
        raise ValueError("the config needs head_dim, or hidden_size and num_attention_heads")
    hidden = int(COUNT.check(config["hidden_size"], "hidden_size"))
    heads = int(COUNT.check(config["num_attention_heads"], "num_attention_heads"))
    if hidden < heads:
        raise ValueError(f"hidden_size ({hidden}) must be at least num_attention_heads ({heads})")
    return int(HEAD_DIM.check(hidden // heads, "hidden_size // num_attention_heads"))


def _rotary_dim(config: Mapping, rope: Mapping, where: str, head_dim: int) -> int:
    value, field = _inner_or_top(config, rope, where, "partial_rotary_factor")
    prf = 1.0 if value is None else FRACTION.check(value, field)
    rotary_dim = int(head_dim * prf)
    if rotary_dim < 2 or rotary_dim % 2:
        raise ValueError(
            f"the rotary width int(head_dim · partial_rotary_factor) = int({head_dim} · {prf:g}) "
            f"= {rotary_dim} must be a positive even integer"
        )
    return rotary_dim


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
    method = _method(rope, where)
    base = _base(config, rope, where)
    head_dim = _head_dim(config)
    rotary_dim = _rotary_dim(config, rope, where, head_dim)
    max_pos = config.get("max_position_embeddings")
    max_pos = None if max_pos is None else int(LENGTH.check(max_pos, "max_position_embeddings"))
    fields = method.read(Reading(config, rope, where, rotary_dim, max_pos))
    return RopeConfig(head_dim, rotary_dim, base, method.rope_type, max_pos, tuple(fields.items()))  # type: ignore[arg-type]
