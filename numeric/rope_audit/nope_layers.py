"""Layers without RoPE: a config's no_rope_layers read per layer, and what it says of a cache.

transformers' Llama 4, SmolLM3 and Mistral Large 4 attention sets `use_rope =
config.no_rope_layers[layer_idx]` (modeling_llama4.py, Llama4TextAttention), and their config
classes say it: "A `1` at an index position indicates that the corresponding layer will use
RoPE, while a `0` indicates that it's a NoPE layer". Despite its name, 1 means RoPE. The
default (no_rope_layer_interval 4) makes every fourth layer (3, 7, 11, ...) a NoPE layer. A
NoPE layer rotates nothing: what its attention applies is the identity (cos 1, sin 0). So a
cache that rotates, checked against a NoPE layer, is a fault, and so is an identity cache
checked against a layer with RoPE (the list read the wrong way round swaps the two).

A config saved by transformers holds the filled-in list; a missing or empty list says nothing
(Llama4TextConfig then fills in the default, which a config file does not show).

>>> layers = read_rope_layers({"no_rope_layers": [1, 1, 1, 0, 1, 1, 1, 0]})
>>> layers.nope, layers.uses_rope[3]
((3, 7), False)
>>> [f.bug for f in nope_findings(3, layers, rotates=True)]
['no_rope_layers']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral

from numeric.audit.errors import BadValueError
from numeric.audit.findings import Finding
from numeric.rope_audit.findings import listed
from numeric.shown import shown

MAX_LAYERS = 2**16
DECIDED_BY_LAYER = "the layer the cache is for (--layer)"
_FIELD = "no_rope_layers"
_MEANING = (
    "(transformers' Llama 4, SmolLM3: use_rope = no_rope_layers[layer_idx], so 1 means RoPE and "
    "0 a NoPE layer; read the other way round, every layer is swapped)"
)


@dataclass(frozen=True)
class RopeLayers:
    """uses_rope: for each layer, whether it applies RoPE (no_rope_layers[layer] is 1)."""

    uses_rope: tuple[bool, ...]

    @property
    def nope(self) -> tuple[int, ...]:
        """The NoPE layers: no_rope_layers[layer] is 0."""
        return tuple(i for i, uses in enumerate(self.uses_rope) if not uses)


def read_rope_layers(config: Mapping) -> RopeLayers | None:
    """The per-layer RoPE use a config's no_rope_layers gives, or None when it has none.
    Raises ValueError naming the field when it is not a list of 0 and 1, one per layer."""
    value = config.get(_FIELD)
    if value is None or (isinstance(value, list) and not value):
        return None
    if (
        not isinstance(value, list)
        or len(value) > MAX_LAYERS
        or not all(isinstance(v, Integral) and v in (0, 1) for v in value)
    ):
        raise ValueError(
            f"{_FIELD} must be a list of 0 (a NoPE layer) and 1 (a layer with RoPE), at most "
            f"{MAX_LAYERS} long, got {shown(value)}"
        )
    layers = config.get("num_hidden_layers")
    if isinstance(layers, Integral) and not isinstance(layers, bool) and len(value) < layers:
        raise ValueError(
            f"{_FIELD} has {len(value)} entries for {layers} layers (num_hidden_layers): "
            "transformers reads one per layer"
        )
    return RopeLayers(tuple(bool(v) for v in value))


def check_layer(layer: object, rope_layers: RopeLayers | None) -> int | None:
    """layer as a layer index of the config, or BadValueError naming what is allowed."""
    if layer is None:
        return None
    if rope_layers is None:
        raise BadValueError(
            f"layer {shown(layer)} applies to a config with {_FIELD} (Llama 4, SmolLM3); "
            "this one has none, so every layer has the same RoPE"
        )
    count = len(rope_layers.uses_rope)
    if not isinstance(layer, Integral) or isinstance(layer, bool) or not 0 <= layer < count:
        raise BadValueError(f"layer must be an integer from 0 to {count - 1}, got {shown(layer)}")
    return int(layer)


def nope_findings(layer: int | None, rope_layers: RopeLayers | None, *, rotates: bool) -> list:
    """What the config's no_rope_layers says of a cache that rotates (or of an identity cache):
    checked against layer when one is named, else against the layers it matches."""
    if rope_layers is None:
        return []
    nope = rope_layers.nope
    if layer is not None:
        uses = rope_layers.uses_rope[layer]
        if uses and not rotates:
            text = (
                f"the config's {_FIELD}[{layer}] is 1: layer {layer} applies RoPE, but no "
                f"column of the cache rotates {_MEANING}"
            )
            return [Finding("no_rope_layers", text, True)]
        if not uses and rotates:
            text = (
                f"the config's {_FIELD}[{layer}] is 0: layer {layer} is a NoPE layer (no "
                f"rotation), but the cache rotates {_MEANING}"
            )
            return [Finding("no_rope_layers", text, True)]
        if not uses:
            text = (
                f"layer {layer} is a NoPE layer (the config's {_FIELD}[{layer}] is 0): the "
                "identity is what its attention applies"
            )
            return [Finding(None, text, False)]
        return []
    if not nope:
        return []
    if not rotates:
        # The rotary module's cache is never the identity: sound only for a NoPE layer.
        text = (
            f"no column rotates: the identity, which the config's NoPE layers ({_FIELD} 0: "
            f"layers {listed(nope, 8)}) apply and its other layers must not; which layer the "
            "cache is for decides it"
        )
        return [Finding("no_rope_layers", text, False, DECIDED_BY_LAYER)]
    if len(nope) == len(rope_layers.uses_rope):
        text = (
            f"the config's {_FIELD} is 0 for every layer: no layer applies RoPE, but the cache "
            f"rotates {_MEANING}"
        )
        return [Finding("no_rope_layers", text, True)]
    text = (
        f"the config's NoPE layers ({_FIELD} 0: layers {listed(nope, 8)}) apply no RoPE: this "
        f"cache is for the other {len(rope_layers.uses_rope) - len(nope)} layers"
    )
    return [Finding(None, text, False)]
