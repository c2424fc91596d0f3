"""The cache against the configuration it is meant to implement: which bug class a difference is.

The configuration's frequencies and attention factor are computed as transformers computes
them at the cache's length (numeric.rope.rope_frequencies, float64); the cache's fitted
frequencies are compared pair by pair, the pair furthest from the config's quoted (the worst, and the first
to differ beside it), and the difference named from what the cache was identified as:
- frequencies of another base are a wrong base (wrong_base), and frequencies computed over
  the head dim where fewer components rotate are named so (frequencies_over_head_dim);
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
from numeric.rope.round_numbers import MODEL_ULPS, misfit
from numeric.rope.scaling import default_frequencies
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
    frequency differs (None when none does); ratio: θ_cache/θ_config at the pair furthest from
    the config's (the worst, which the finding names); expected: the
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


def speed_words(ratio: float) -> str:
    """θ_cache/θ_config in words: a percentage near 1, a multiple beyond 2×.

    >>> speed_words(1.063), speed_words(0.5), speed_words(46.9)
    ('6.3% faster', '2× slower', '46.9× faster')
    """
    if ratio >= 2:
        return f"{ratio:.3g}× faster"
    if ratio <= 0.5:
        return f"{1 / ratio:.3g}× slower"
    if ratio < 1:
        return f"{(1 - ratio) * 100:.3g}% slower"
    return f"{(ratio - 1) * 100:.3g}% faster"


def worst_pair(ratios: np.ndarray, off: np.ndarray) -> int:
    """The differing pair whose frequency is furthest from the other's, as a factor (the
    first of those within a millionth of the furthest: ties are the same factor, fitted).

    >>> worst_pair(np.array([1.0, 1.2, 8.0, 8.0000001]), np.array([False, True, True, True]))
    2
    """
    distance = np.where(off, np.abs(np.log(np.abs(ratios) + 1e-300)), -1.0)
    return int(np.argmax(distance >= distance.max() - 1e-6))


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
            ratios = theta / model
            worst = worst_pair(ratios, off)
            ratio = float(ratios[worst])
            findings.append(
                _scaling_finding(
                    theta, bound, scaling, config, kind, (first, worst), ratio, seq_len
                )
            )
    findings += _attention_finding(attention, config)
    matches = not any(f.fault for f in findings)
    asked = {k: v for k, v in config.scaling_parameters().items() if v is not None}
    asked["type"] = kind
    return ConfigComparison(
        matches, first, ratio, model, expected.attention_factor, asked, tuple(findings)
    )


def _over_head_dim(theta: np.ndarray, bound: np.ndarray, config: RopeConfig) -> bool:
    """Whether the frequencies are b^(−2i/head_dim), the head dim's, where only rotary_dim
    components rotate (partial_rotary_factor < 1): the exponent's denominator is wrong."""
    if config.rotary_dim >= config.head_dim:
        return False
    model = default_frequencies(config.head_dim, config.base)[: len(theta)]
    return misfit(theta, bound, model) <= 1


def _scaling_finding(
    theta: np.ndarray,
    bound: np.ndarray,
    scaling: Scaling,
    config: RopeConfig,
    kind: str,
    pairs: tuple[int, int],
    ratio: float,
    seq_len: int,
) -> Finding:
    first, worst = pairs
    where = f"pair {worst} turns {speed_words(ratio)} than the config's" + (
        f" (the first to differ is pair {first})" if first != worst else ""
    )
    if _over_head_dim(theta, bound, config):
        return Finding(
            "frequencies_over_head_dim",
            f"the frequencies are computed over the head dim: θ_i = {config.base:g}^(−2i/"
            f"{config.head_dim}), where the config rotates {config.rotary_dim} components "
            f"(partial_rotary_factor) and asks for {config.base:g}^(−2i/{config.rotary_dim}); "
            f"{where}",
            True,
        )
    found_base, asked_base = scaling.base, config.base
    if found_base is not None and abs(found_base - asked_base) > 1e-9 * asked_base:
        also = (
            ""
            if scaling.type == kind
            else f" (and {method_name(kind)} read as {method_name(scaling.type)})"
        )
        return Finding(
            "wrong_base",
            f"a wrong base: the cache's frequencies have base {found_base:g}, the config's "
            f"rope_theta is {asked_base:g}{also}; {where}",
            True,
        )
    known = config.method.config_finding(scaling, config, worst, ratio, seq_len, where)
    if known is not None:
        return Finding(known[0], known[1], True)
    found = method_name(scaling.type)
    asked = method_name(kind)
    if scaling.type == kind:
        asked_parameters = config.scaling_parameters()
        differ = [
            f"{k} {_value(scaling.parameters[k])} (the config's {_value(asked_parameters[k])})"
            for k in config.method.keys
            if k in scaling.parameters
            and asked_parameters.get(k) is not None
            and not _same(scaling.parameters[k], asked_parameters[k])
        ]
        detail = f": {', '.join(differ)}" if differ else ""
        text = f"the cache holds {found} with other parameters than the config's{detail}; {where}"
    else:
        text = f"{asked} read as {found}: the config asks for {asked}, the cache holds {found}; {where}"
    return Finding("scaling_mismatch", text, True)


def _value(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _same(a: object, b: object) -> bool:
    """Whether two parameter values agree (numbers within a millionth)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return abs(a - b) <= 1e-6 * max(abs(a), abs(b))
    return a == b


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
