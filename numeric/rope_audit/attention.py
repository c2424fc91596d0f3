"""The attention factor m (cos and sin scaled by m, so logits by m²), named against what the
method and the configuration prescribe.

- YaRN: m = 0.1·ln s + 1 (the paper's √(1/t), §3.4), or DeepSeek's g(s, mscale)/g(s,
  mscale_all_dim), or the configuration's attention_factor (numeric.rope.scaling
  .yarn_attention_factor). m = 1 where that is not 1 is the factor dropped (vllm #48623); m
  equal to its square is the factor applied twice (sglang #33558: 1.4852 became 2.2058).
- LongRoPE: √(1 + ln s / ln L), or attention_factor.
- Every other method: 1.
Without a configuration, a YaRN cache with m = 1 cannot be told from DeepSeek's convention
(the factor moved into the softmax scale when mscale = mscale_all_dim): that is left undecided.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from numeric.rope import scaling as methods
from numeric.rope.config import RopeConfig
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
    """(m, the rule) that transformers gives for this configuration."""
    if config.scaling == "yarn":
        m = methods.yarn_attention_factor(
            config.factor,
            mscale=config.mscale,
            mscale_all_dim=config.mscale_all_dim,
            attention_factor=config.attention_factor,
        )
        if config.attention_factor is not None:
            rule = "the config's attention_factor"
        elif config.mscale and config.mscale_all_dim:
            rule = (
                f"DeepSeek's g(s, mscale)/g(s, mscale_all_dim) = g({config.factor:g}, "
                f"{config.mscale:g})/g({config.factor:g}, {config.mscale_all_dim:g})"
            )
        else:
            rule = f"YaRN's 0.1·ln s + 1 at s = {config.factor:g}"
        return m, rule
    if config.scaling == "longrope":
        m = methods.longrope_attention_factor(
            config.factor, config.original_max_position_embeddings, config.attention_factor
        )
        if config.attention_factor is not None:
            return m, "the config's attention_factor"
        return m, (
            f"LongRoPE's √(1 + ln s / ln L) at s = {config.factor:g}, "
            f"L = {config.original_max_position_embeddings}"
        )
    return 1.0, f"{config.scaling} scaling, which scales nothing"


def read_attention(
    value: float, tolerance: float, scaling: Scaling, config: RopeConfig | None
) -> AttentionReading:
    """Name m against the configuration's factor, or the identified method's without one."""

    def near(a: float, b: float) -> bool:
        return abs(a - b) <= tolerance + 2.0**-23 * abs(b)

    yarn = scaling.type == "yarn" or (config is not None and config.scaling == "yarn")
    if config is not None:
        expected, rule = config_attention(config)
    elif scaling.type == "yarn":
        expected = methods.yarn_mscale(scaling.parameters["factor"])
        rule = f"YaRN's 0.1·ln s + 1 at s = {scaling.parameters['factor']:g}"
    elif scaling.type in ("longrope", "custom"):
        return AttentionReading(
            value,
            None,
            "as expected" if near(value, 1) else "undecided",
            ("no rule without the config"),
        )
    else:
        expected, rule = 1.0, f"{scaling.type} scaling, which scales nothing"
    if near(value, expected):
        return AttentionReading(value, expected, "as expected", rule)
    if yarn and near(value, 1.0):
        verdict = "dropped" if config is not None else "undecided"
        return AttentionReading(value, expected, verdict, rule)
    if yarn and near(value, expected * expected):
        return AttentionReading(value, expected, "applied twice", rule)
    if yarn and config is None:
        return AttentionReading(value, expected, "undecided", rule)
    return AttentionReading(value, expected, "unexpected", rule)


def logit_factor(m: float) -> float:
    """m²: what the attention logits are multiplied by."""
    return m * m if math.isfinite(m) else math.nan
