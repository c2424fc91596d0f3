"""A model configuration (config.json) read as data for the RoPE audit: never run, bounded.

The RoPE fields are read by numeric.rope.rope_config (transformers' rules). Before that, this
module reads the file within a size limit, refuses what JSON allows but a config cannot hold
(NaN, Infinity, nesting deep enough to exhaust the stack), maps the older field names some
models use onto the ones transformers reads (its configs' attribute_map: GPT-J's and CodeGen's
n_embd, n_head, n_positions and rotary_dim; GPT-NeoX's rotary_pct and rotary_emb_base), and
bounds every size so no configuration can make the audit allocate more than a few MB.

How the model pairs components is a fact of its code, not of its RoPE fields; the one field
transformers reads for it is `rope_interleave` (DeepSeek-V3: the cache is cat(freqs, freqs) and
apply_rotary_pos_emb_interleave pairs (2i, 2i + 1)).

>>> facts = read_config({"head_dim": 64, "rope_theta": 10000.0})
>>> facts.layers[None].rotary_dim, facts.convention
(64, None)
>>> read_config({"head_dim": 64, "rope_scaling": {"rope_type": "ntk"}})  # doctest: +ELLIPSIS
Traceback (most recent call last):
numeric.audit.errors.BadValueError: config: rope_scaling.rope_type must be one of default, linear, dynamic, yarn, ..., got 'ntk'
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral, Real
from pathlib import Path

from numeric.audit.errors import BadValueError, InputError, UnreadableFileError
from numeric.audit.regular_file import read_small_file
from numeric.rope.config import RopeConfig, rope_config
from numeric.rope.methods import no_scaling
from numeric.rope_audit.nope_layers import RopeLayers, read_rope_layers
from numeric.shown import shown

MAX_CONFIG_BYTES = 2**24
MAX_HEAD_DIM = 2**16
MAX_POSITIONS = 2**31
MAX_FACTOR = 2.0**20
MAX_BASE = 1e100
_SIZES = ("head_dim", "hidden_size", "num_attention_heads", "n_embd", "n_head", "rotary_dim")
_LENGTHS = ("max_position_embeddings", "original_max_position_embeddings", "n_positions")
_ROPE_KEYS = ("rope_parameters", "rope_scaling", "rope_theta", "head_dim", "hidden_size")


@dataclass(frozen=True)
class ConfigFacts:
    """layers: the RoPE settings per layer type (key None when not nested by layer type);
    convention: "interleaved" when the config sets rope_interleave, else None (the config
    does not say); where: how messages name the config; model_type: the config's, when it is
    a string (numeric.rope_audit.model_pairing reads the pairing of a one-column-per-pair
    cache from it); rope_layers: which layers apply RoPE, from no_rope_layers
    (numeric.rope_audit.nope_layers), or None when the config does not say."""

    layers: dict[str | None, RopeConfig]
    convention: str | None
    where: str
    model_type: str | None = None
    rope_layers: RopeLayers | None = None


def _reject_constant(name: str) -> float:
    raise ValueError(f"the config holds {name}, which is not a number JSON allows")


def load_json(path: str | Path) -> dict:
    """The JSON object in path, within MAX_CONFIG_BYTES, as data; InputError naming what is
    wrong (a named pipe, a device or a directory is named as such, never read)."""
    path = Path(path)
    if not os.path.lexists(path):
        raise UnreadableFileError(f"{path}: no such config file")
    raw = read_small_file(path, MAX_CONFIG_BYTES, "a config")
    try:
        text = raw.decode("utf-8")
        data = json.loads(text, parse_constant=_reject_constant)
    except UnicodeDecodeError:
        raise UnreadableFileError(f"{path.name}: not UTF-8 text") from None
    except RecursionError:
        raise UnreadableFileError(f"{path.name}: nested too deeply to be a config") from None
    except ValueError as error:
        message = " ".join(str(error).split())
        raise UnreadableFileError(f"{path.name}: not valid JSON ({message})") from None
    if not isinstance(data, dict):
        raise UnreadableFileError(
            f"{path.name}: a config must be a JSON object, got {type(data).__name__}"
        )
    return data


def _int_field(config: Mapping, key: str, limit: int) -> int | None:
    value = config.get(key)
    if value is None:
        return None
    if not isinstance(value, Integral) or isinstance(value, bool) or not 0 < value <= limit:
        raise ValueError(f"{key} must be a positive integer at most {limit}, got {shown(value)}")
    return int(value)


def _real_field(config: Mapping, key: str, low: float, high: float) -> float | None:
    value = config.get(key)
    if value is None:
        return None
    if (
        not isinstance(value, Real)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or not low < value <= high
    ):
        raise ValueError(f"{key} must be a number in ({low:g}, {high:g}], got {shown(value)}")
    return float(value)


def _bounded(config: Mapping) -> None:
    """ValueError for a size no model has: they would make the audit allocate without limit."""
    for key in _SIZES:
        _int_field(config, key, MAX_HEAD_DIM if key != "hidden_size" else 2**24)
    for key in _LENGTHS:
        _int_field(config, key, MAX_POSITIONS)
    for where in ("rope_scaling", "rope_parameters"):
        nested = config.get(where)
        if not isinstance(nested, Mapping):
            continue
        inner = [v for v in nested.values() if isinstance(v, Mapping)] or [nested]
        for rope in inner:
            for key, high in (("factor", MAX_FACTOR), ("rope_theta", MAX_BASE)):
                _real_field({f"{where}.{key}": rope.get(key)}, f"{where}.{key}", 0.0, high)
            _int_field(
                {
                    f"{where}.original_max_position_embeddings": rope.get(
                        "original_max_position_embeddings"
                    )
                },
                f"{where}.original_max_position_embeddings",
                MAX_POSITIONS,
            )
    _real_field(config, "rope_theta", 0.0, MAX_BASE)


def _canonical(config: Mapping) -> dict:
    """The config with the older field names mapped onto transformers' own (attribute_map)."""
    out = dict(config)
    for old, new in (
        ("n_embd", "hidden_size"),
        ("n_head", "num_attention_heads"),
        ("n_positions", "max_position_embeddings"),
        ("rotary_emb_base", "rope_theta"),
        ("rotary_pct", "partial_rotary_factor"),
    ):
        if out.get(new) is None and out.get(old) is not None:
            out[new] = out[old]
    width = _int_field(out, "rotary_dim", MAX_HEAD_DIM)
    if width is not None and out.get("partial_rotary_factor") is None:
        heads = _int_field(out, "num_attention_heads", MAX_HEAD_DIM)
        head_dim = _int_field(out, "head_dim", MAX_HEAD_DIM)
        hidden = _int_field(out, "hidden_size", 2**24)
        if head_dim is None and heads and hidden:
            head_dim = hidden // heads
        if head_dim:
            if width > head_dim:
                raise ValueError(f"rotary_dim ({width}) must be at most the head dim ({head_dim})")
            out["partial_rotary_factor"] = width / head_dim
    return _local_base(out)


def _local_base(config: dict) -> dict:
    """A flat config with Gemma 3's rope_local_base_freq (transformers 4's layout) nested by
    layer type as transformers 5 reads it (Gemma3TextConfig.convert_rope_params_to_dict): the
    full-attention layers keep rope_theta and rope_scaling, the sliding-window layers use the
    default frequencies of base rope_local_base_freq.

    >>> _local_base({"rope_theta": 1e6, "rope_local_base_freq": 1e4})["rope_parameters"]
    {'full_attention': {'rope_type': 'default', 'rope_theta': 1000000.0}, 'sliding_attention': {'rope_type': 'default', 'rope_theta': 10000.0}}
    """
    local = config.get("rope_local_base_freq")
    if local is None or _layer_types(config) != [None]:
        return config
    scaling = config.get("rope_scaling") or config.get("rope_parameters") or {}
    if not isinstance(scaling, Mapping):
        return config  # rope_config names the field's error
    default = no_scaling().rope_type
    full = {"rope_type": default, **scaling}
    if "rope_theta" not in full and config.get("rope_theta") is not None:
        full["rope_theta"] = config["rope_theta"]
    out = {k: v for k, v in config.items() if k not in ("rope_scaling", "rope_local_base_freq")}
    out["rope_parameters"] = {
        "full_attention": full,
        "sliding_attention": {"rope_type": default, "rope_theta": local},
    }
    return out


def _layer_types(config: Mapping) -> list[str | None]:
    for key in ("rope_scaling", "rope_parameters"):
        value = config.get(key)
        if isinstance(value, Mapping) and value:
            nested = sorted(k for k, v in value.items() if isinstance(v, Mapping))
            return list(nested) if nested else [None]
    return [None]


def read_config(config: Mapping | str | Path, *, layer_type: str | None = None) -> ConfigFacts:
    """The RoPE settings a config gives, per layer type.

    config: a parsed config.json (dict) or its path; layer_type: read only this entry of a
    config nested by layer type (Gemma 3's "sliding_attention", "full_attention"); None reads
    them all. Raises an InputError with one line naming the file, the field and what is allowed.
    """
    where = "config"
    if isinstance(config, str | Path):
        where = Path(config).name
        config = load_json(config)
    if not isinstance(config, Mapping):
        raise TypeError(f"config must be a dict or a path, got {type(config).__name__}")
    config = _text_config(config)
    try:
        layers, interleave = _settings(config, layer_type)
        rope_layers = read_rope_layers(config)
    except InputError:
        raise
    except ValueError as error:
        # Every check here (and numeric.rope.rope_config's) is of the config's fields: a
        # ValueError names a field the config got wrong.
        raise BadValueError(f"{where}: {error}") from None
    model_type = config.get("model_type")
    return ConfigFacts(
        layers,
        "interleaved" if interleave else None,
        where,
        model_type if isinstance(model_type, str) else None,
        rope_layers,
    )


def _text_config(config: Mapping) -> Mapping:
    """The config whose RoPE fields apply: a multimodal config's text_config (Llama4Config
    nests Llama4TextConfig there) when the top level holds none of them."""
    text = config.get("text_config")
    if isinstance(text, Mapping) and not any(config.get(key) is not None for key in _ROPE_KEYS):
        return text
    return config


def _settings(
    config: Mapping, layer_type: str | None
) -> tuple[dict[str | None, RopeConfig], bool | None]:
    """(the RoPE settings per layer type, rope_interleave), each field checked."""
    _bounded(config)
    canonical = _canonical(config)
    interleave = canonical.get("rope_interleave")
    if interleave is not None and not isinstance(interleave, bool):
        raise ValueError(f"rope_interleave must be true or false, got {shown(interleave)}")
    kinds = _layer_types(canonical)
    if layer_type is not None:
        if kinds == [None]:
            raise ValueError(
                f"layer_type {shown(layer_type)} applies to a config whose rope_parameters are nested "
                "by layer type; this one is not"
            )
        if layer_type not in kinds:
            raise ValueError(
                f"layer_type must be one of {', '.join(kinds)}, got {shown(layer_type)}"
            )
        kinds = [layer_type]
    layers = {kind: rope_config(canonical, layer_type=kind) for kind in kinds}
    for kind, settings in layers.items():
        if settings.head_dim > MAX_HEAD_DIM:
            raise ValueError(
                f"head_dim {settings.head_dim}{'' if kind is None else f' ({kind})'} is above "
                f"{MAX_HEAD_DIM}"
            )
    return layers, interleave
