"""The cache against the configuration it is meant to implement: which bug class a difference is.

The configuration's frequencies and attention factor are computed as transformers computes
them at the cache's length (numeric.rope.rope_frequencies, float64); the cache's fitted
frequencies are compared pair by pair, and the difference named from what the cache was
identified as:
- a difference the configuration's method knows as a bug is named by it (ScalingMethod
  .config_finding: Llama 3.1's scaling dropped, dynamic NTK's base computed at another length);
- any other method or parameter: the two methods named ("Llama 3 scaling read as YaRN");
- the attention factor: named by the method when it knows the bug (ScalingMethod
  .attention_finding: YaRN's factor dropped, vllm #48623, or applied twice, sglang #33558),
  else "attention_factor".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numeric.audit.findings import Finding
from numeric.rope import rope_frequencies
from numeric.rope.config import RopeConfig
from numeric.rope.methods import by_name
from numeric.rope.round_numbers import MODEL_ULPS
from numeric.rope_audit.attention import AttentionReading
from numeric.rope_audit.families import Scaling


def method_name(kind: str) -> str:
    """The method of this name in a sentence ("Llama 3 scaling"); "custom frequencies" for
    a cache no method fits."""
    method = by_name(kind)
    if method is not None:
        return method.label
    return "custom frequencies" if kind == "custom" else kind


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
    kind = config.method.name
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
    findings += _attention_finding(attention, config)
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
    known = config.method.config_finding(scaling, config, pair, ratio, seq_len, where)
    if known is not None:
        return Finding(known[0], known[1], True)
    found = method_name(scaling.type)
    asked = method_name(kind)
    if scaling.type == kind:
        detail = "with other parameters"
        text = f"the cache holds {found} {detail} than the config's; {where}"
    else:
        text = f"{asked} read as {found}: the config asks for {asked}, the cache holds {found}; {where}"
    return Finding("scaling_mismatch", text, True)


def _attention_finding(attention: AttentionReading, config: RopeConfig) -> list[Finding]:
    m, e = attention.value, attention.expected
    if attention.verdict == "as expected" or e is None:
        return []
    known = config.method.attention_finding(attention.verdict, m, e, attention.rule)
    if known is not None:
        return [Finding(known[0], known[1], True)]
    return [
        Finding(
            "attention_factor",
            f"cos and sin carry m = {m:.6g} (logits × {m * m:.6g}); the config gives "
            f"{e:.6g} ({attention.rule})",
            True,
        )
    ]
