"""The cache against the configuration it is meant to implement: which bug class a difference is.

The configuration's frequencies and attention factor are computed as transformers computes
them at the cache's length (numeric.rope.rope_frequencies, float64); the cache's fitted
frequencies are compared pair by pair, and the difference named from what the cache was
identified as:
- the configuration asks for Llama 3 scaling and the cache holds the default frequencies of
  the same base: Llama 3.1's scaling dropped (gibberish past about 29K tokens);
- dynamic NTK built at a length other than the cache's: the base does not follow the
  sequence length (vllm #41236 computed it at s·L whatever the length);
- any other method or parameter: the two methods named ("Llama 3 scaling read as YaRN");
- the attention factor dropped (vllm #48623), applied twice (sglang #33558), or another.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.audit.findings import Finding
from numeric.rope import rope_frequencies
from numeric.rope.config import RopeConfig
from numeric.rope_audit.attention import AttentionReading
from numeric.rope_audit.families import Scaling
from numeric.rope_audit.rounding import MODEL_ULPS

_NAMES = {
    "none": "no scaling",
    "default": "no scaling",
    "linear": "linear scaling",
    "dynamic": "dynamic NTK",
    "ntk": "NTK-aware scaling",
    "yarn": "YaRN",
    "llama3": "Llama 3 scaling",
    "longrope": "LongRoPE",
    "custom": "custom frequencies",
}


def method_name(kind: str) -> str:
    return _NAMES.get(kind, kind)


@dataclass(frozen=True)
class ConfigComparison:
    """matches: the cache implements the configuration; first_pair: the first pair whose
    frequency differs (None when none does) and ratio its θ_cache/θ_config; expected: the
    configuration's frequencies; findings: what differs, named."""

    matches: bool
    first_pair: int | None
    ratio: float | None
    expected: np.ndarray | None
    expected_attention: float
    expected_scaling: dict
    findings: tuple[Finding, ...]

    def to_json(self, where: str, layer_type: str | None) -> dict:
        """The audit's "config" field."""
        return {
            "file": where,
            "layer_type": layer_type,
            "matches": self.matches,
            "first_different_pair": self.first_pair,
            "frequency_ratio": self.ratio,
            "expected_scaling": self.expected_scaling,
            "expected_attention_factor": self.expected_attention,
        }


def _percent(ratio: float) -> str:
    if ratio < 1:
        return f"{(1 - ratio) * 100:.3g}% slower"
    return f"{(ratio - 1) * 100:.3g}% faster"


def compare_config(
    theta: np.ndarray,
    bound: np.ndarray,
    scaling: Scaling,
    attention: AttentionReading,
    config: RopeConfig,
    seq_len: int,
) -> ConfigComparison:
    """Compare the fitted frequencies and attention factor with the configuration's."""
    findings: list[Finding] = []
    kind = "none" if config.scaling == "default" else config.scaling
    expected = rope_frequencies(config, seq_len=seq_len, arithmetic="float64")
    first = ratio = None
    if len(theta) != config.pairs:
        findings.append(
            Finding(
                "rotary_width",
                f"the cache rotates {2 * len(theta)} components per head, the config "
                f"{config.rotary_dim} (head_dim {config.head_dim} × partial_rotary_factor)",
                True,
            )
        )
        model = None
    else:
        model = expected.inv_freq
        room = bound + MODEL_ULPS * model
        off = np.abs(theta - model) > room
        if scaling.rounded_to is not None:
            off[:] = False  # a rounding of the right frequencies is named as a precision fault
        if off.any():
            first = int(np.argmax(off))
            ratio = float(theta[first] / model[first])
            findings.append(_scaling_finding(scaling, config, kind, first, ratio, seq_len))
    findings += _attention_finding(attention)
    matches = not any(f.fault for f in findings)
    asked = {k: v for k, v in config.scaling_parameters().items() if v is not None}
    asked["type"] = kind
    return ConfigComparison(
        matches, first, ratio, model, expected.attention_factor, asked, tuple(findings)
    )


def _scaling_finding(
    scaling: Scaling, config: RopeConfig, kind: str, pair: int, ratio: float, seq_len: int
) -> Finding:
    where = f"pair {pair} turns {_percent(ratio)} than the config's"
    same_base = scaling.base is not None and abs(scaling.base - config.base) <= 1e-9 * config.base
    if kind == "llama3" and scaling.type == "none" and same_base:
        return Finding(
            "llama3_scaling_dropped",
            f"Llama 3.1's frequency scaling is dropped: the cache holds the default frequencies "
            f"of base {config.base:g}, while the config asks for llama3 scaling (factor "
            f"{config.factor:g}); {where}. Models trained with it produce gibberish past about "
            "29K tokens.",
            True,
        )
    if kind == "dynamic" and scaling.type == "dynamic":
        built = scaling.parameters["seq_len"]
        wanted = max(seq_len, config.max_position_embeddings or 0)
        constant = config.factor * (config.max_position_embeddings or 0)
        why = (
            f" (= factor × max_position_embeddings = {constant:g}, the constant base of "
            "vllm #41236)"
            if built == constant
            else ""
        )
        return Finding(
            "dynamic_constant_base",
            f"the dynamic NTK base was computed for length {built}{why}, but the cache's "
            f"positions end at {seq_len - 1} (length {seq_len}), where the base is "
            f"{config.base:g}·(s·l/L − (s − 1))^(d/(d−2)) at l = {wanted}: the base does not "
            f"follow the sequence length; {where}",
            True,
        )
    found = method_name(scaling.type)
    asked = method_name(kind)
    if scaling.type == kind:
        detail = "with other parameters"
        text = f"the cache holds {found} {detail} than the config's; {where}"
    else:
        text = f"{asked} read as {found}: the config asks for {asked}, the cache holds {found}; {where}"
    return Finding("scaling_mismatch", text, True)


def _attention_finding(attention: AttentionReading) -> list[Finding]:
    m, e = attention.value, attention.expected
    if attention.verdict == "as expected" or e is None:
        return []
    if attention.verdict == "dropped":
        return [
            Finding(
                "yarn_factor_dropped",
                f"YaRN's attention factor is dropped: cos and sin carry m = {m:.6g}, the config "
                f"gives {e:.6g} ({attention.rule}), so logits scale by {m * m:.6g} instead of "
                f"{e * e:.6g} (vllm #48623)",
                True,
            )
        ]
    if attention.verdict == "applied twice":
        return [
            Finding(
                "yarn_factor_twice",
                f"YaRN's attention factor is applied twice: cos and sin carry m = {m:.6g} = "
                f"{e:.6g}² ({attention.rule}), so logits scale by {m * m:.6g} instead of "
                f"{e * e:.6g} (sglang #33558: 1.4852 became 2.2058)",
                True,
            )
        ]
    return [
        Finding(
            "attention_factor",
            f"cos and sin carry m = {m:.6g} (logits × {m * m:.6g}); the config gives "
            f"{e:.6g} ({attention.rule})",
            True,
        )
    ]
