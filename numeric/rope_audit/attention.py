"""The attention factor m (cos and sin scaled by m, so logits by m²), named against what the
method and the configuration prescribe.

Each method of the registry (numeric.rope.methods) gives its rule: with the configuration,
ScalingMethod.attention (YaRN's 0.1·ln s + 1, DeepSeek's g(s, mscale)/g(s, mscale_all_dim) or
attention_factor; LongRoPE's √(1 + ln s / ln L); 1 for the others); without it,
ScalingMethod.cache_attention (None where the cache cannot say, as for LongRoPE). For a method
with attention_verdicts (YaRN), m = 1 where that is not 1 is the factor dropped (vllm #48623);
m equal to its square is the factor applied twice (sglang #33558: 1.4852 became 2.2058).
Without a configuration, a YaRN cache with m = 1 cannot be told from DeepSeek's convention
(the factor moved into the softmax scale when mscale = mscale_all_dim): that is left undecided.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from numeric.rope.config import RopeConfig
from numeric.rope.methods import by_name
from numeric.rope_audit.families import Scaling

VERDICTS = ("as expected", "dropped", "applied twice", "unexpected", "undecided")


@dataclass(frozen=True)
class AttentionReading:
    """value: m read from the cache; expected: what the configuration (or the method) gives,
    or None; verdict: one of VERDICTS; rule: the formula expected comes from, in words."""

    value: float
    expected: float | None
    verdict: str
    rule: str

    @property
    def sound(self) -> bool:
        return self.verdict == "as expected"


def config_attention(config: RopeConfig) -> tuple[float, str]:
    """(m, the rule) that transformers gives for this configuration (its method's attention)."""
    return config.method.attention(config)


def read_attention(
    value: float,
    tolerance: float,
    scaling: Scaling,
    config: RopeConfig | None,
    above: float = 0.0,
) -> AttentionReading:
    """Name m against the configuration's factor, or the identified method's without one.
    above: how much higher than value m may be (one array read alone: its largest |value| is
    m only on a peak); when that leaves the expected factor and its dropped or doubled form
    both possible, the reading is undecided."""

    def near(a: float, b: float, slack: float = above) -> bool:
        room = tolerance + 2.0**-23 * abs(b)
        return -room - slack <= a - b <= room

    method = by_name(scaling.type)
    verdicts = (method is not None and method.attention_verdicts) or (
        config is not None and config.method.attention_verdicts
    )
    rule_without_config = None if method is None else method.cache_attention(scaling)
    if config is not None:
        expected, rule = config_attention(config)
    elif rule_without_config is None:
        return AttentionReading(
            value,
            None,
            "as expected" if near(value, 1) else "undecided",
            ("no rule without the config"),
        )
    else:
        expected, rule = rule_without_config
    if near(value, expected):
        others = (1.0, expected * expected) if verdicts else ()
        if any(near(value, x) and abs(x - expected) > tolerance for x in others):
            return AttentionReading(value, expected, "undecided", rule)
        return AttentionReading(value, expected, "as expected", rule)
    if verdicts and near(value, 1.0):
        verdict = "dropped" if config is not None else "undecided"
        return AttentionReading(value, expected, verdict, rule)
    if verdicts and near(value, expected * expected):
        return AttentionReading(value, expected, "applied twice", rule)
    if verdicts and config is None:
        return AttentionReading(value, expected, "undecided", rule)
    return AttentionReading(value, expected, "unexpected", rule)


def logit_factor(m: float) -> float:
    """m²: what the attention logits are multiplied by."""
    return m * m if math.isfinite(m) else math.nan
