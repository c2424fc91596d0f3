"""A RoPE scaling method's parameters: their ranges, and reading them from a configuration.

Every value is held to a stated range, so that no accepted configuration can overflow, divide
by zero or allocate without bound anywhere downstream; anything else is a ValueError naming the
parameter, the value (cut short by numeric.shown) and the range. The ranges shared by every
method are here; each method's own are in its docstring (numeric/rope/methods/).

>>> FACTOR.check(8, "rope_scaling.factor")
8.0
>>> FACTOR.check(0.5, "rope_scaling.factor")
Traceback (most recent call last):
ValueError: rope_scaling.factor must be a finite number in [1, 1e+18], got 0.5
>>> LENGTH.check(2**60, "max_position_embeddings")
Traceback (most recent call last):
ValueError: max_position_embeddings must be an integer in [1, 2**53], got 1152921504606846976
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from numbers import Integral

import numpy as np

from numeric.shown import shown


def _bound_words(x: float) -> str:
    if isinstance(x, int) and x >= 2**10 and x & (x - 1) == 0:
        return f"2**{x.bit_length() - 1}"
    if isinstance(x, float) and x.is_integer() and 2**10 <= x <= 2**64 and math.log2(x) % 1 == 0:
        return f"2**{int(math.log2(x))}"
    if isinstance(x, float) and 0 < x < 1 and math.log2(x) % 1 == 0:
        return f"2**{int(math.log2(x))}"
    return f"{x:g}"


@dataclass(frozen=True)
class Range:
    """The values a parameter may take: numbers (or integers) from low to high, low excluded
    when open_low."""

    low: float
    high: float
    open_low: bool = False
    integer: bool = False

    def __str__(self) -> str:
        kind = "an integer" if self.integer else "a finite number"
        left = "(" if self.open_low else "["
        return f"{kind} in {left}{_bound_words(self.low)}, {_bound_words(self.high)}]"

    def holds(self, value: object) -> bool:
        """Whether value is a number of the right kind inside the range (bools are not numbers)."""
        if isinstance(value, bool | np.bool_):
            return False
        if isinstance(value, np.integer | np.floating):
            value = value.item()  # compared as a Python number: np.float32 vs 1e100 would overflow
        if isinstance(value, Integral):
            pass  # compared exactly, however large
        elif self.integer or not isinstance(value, float) or not math.isfinite(value):
            return False
        above = value > self.low if self.open_low else value >= self.low
        return bool(above and value <= self.high)

    def check(self, value: object, name: str) -> float:
        """value as a float (an int when integer) if it is in the range, else ValueError."""
        if not self.holds(value):
            raise ValueError(f"{name} must be {self}, got {shown(value)}")
        return int(value) if self.integer else float(value)  # type: ignore[arg-type, return-value]


MAX_HEAD_DIM = 2**16
MAX_LENGTH = 2**53
HEAD_DIM = Range(1, MAX_HEAD_DIM, integer=True)
COUNT = Range(1, 2**40, integer=True)  # hidden_size, num_attention_heads
BASE = Range(1.0, 1e100, open_low=True)  # rope_theta
FACTOR = Range(1.0, 1e18)  # the scaling factor s
LENGTH = Range(1, MAX_LENGTH, integer=True)  # max_position_embeddings, original_..., seq_len
SEQ_LEN = Range(0, MAX_LENGTH, integer=True)
SCALE = Range(0.0, 2.0**20, open_low=True)  # attention_factor and other positive multipliers
FRACTION = Range(0.0, 1.0, open_low=True)  # partial_rotary_factor


def rotary_dim(dim: object) -> int:
    """dim if it is an even integer in [2, 2**16] (the rotary width), else ValueError."""
    if not Range(2, MAX_HEAD_DIM, integer=True).holds(dim) or dim % 2:  # type: ignore[operator]
        raise ValueError(
            f"dim (the rotary width) must be an even integer in [2, 2**16], got {shown(dim)}"
        )
    return int(dim)  # type: ignore[call-overload]


@dataclass(frozen=True)
class Reading:
    """Where a method reads its keys: config, the whole configuration; rope, its RoPE dict
    (rope_scaling, rope_parameters or one layer type's entry); where, that dict's name in
    errors; rotary_dim and max_position_embeddings, already read."""

    config: Mapping
    rope: Mapping
    where: str
    rotary_dim: int
    max_position_embeddings: int | None

    def name(self, key: str) -> str:
        """The key as errors name it: rope_scaling.factor."""
        return f"{self.where}.{key}"

    def optional(self, key: str, limits: Range) -> float | None:
        """rope[key] held to limits, or None when absent or null."""
        value = self.rope.get(key)
        return None if value is None else limits.check(value, self.name(key))

    def required(self, key: str, limits: Range, method: str) -> float:
        """rope[key] held to limits; ValueError when absent."""
        if self.rope.get(key) is None:
            raise ValueError(f"{self.name(key)} is required for {method} scaling: {limits}")
        return limits.check(self.rope[key], self.name(key))

    def original_length(self, method: str, limits: Range = LENGTH) -> int:
        """original_max_position_embeddings: the top-level key (Phi-3) wins over the dict's,
        which defaults to max_position_embeddings (transformers' standardize_rope_params)."""
        key = "original_max_position_embeddings"
        if self.config.get(key) is not None:
            return int(limits.check(self.config[key], key))
        if self.rope.get(key) is not None:
            return int(limits.check(self.rope[key], self.name(key)))
        if self.max_position_embeddings is not None:
            return int(limits.check(self.max_position_embeddings, "max_position_embeddings"))
        raise ValueError(
            f"{method} scaling needs {self.name(key)} or max_position_embeddings: {limits}"
        )

    def factor_or_ratio(self, method: str, original: int) -> float:
        """factor, or else max_position_embeddings / original_max_position_embeddings as
        transformers derives it (YaRN, LongRoPE)."""
        if self.rope.get("factor") is not None:
            return FACTOR.check(self.rope["factor"], self.name("factor"))
        if self.max_position_embeddings is not None:
            ratio = self.max_position_embeddings / original
            return FACTOR.check(ratio, "max_position_embeddings / original_max_position_embeddings")
        raise ValueError(
            f"{self.name('factor')} is required for {method} scaling without "
            f"max_position_embeddings: {FACTOR}"
        )
