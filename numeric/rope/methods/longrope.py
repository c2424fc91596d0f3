"""LongRoPE (Phi-3): θ′_i = θ_i / λ_i with a rescale vector λ, one entry per rotary pair.

transformers' _compute_longrope_parameters (`1.0 / (ext_factors * base**inv_freq_shape)`):
λ is long_factor past original_max_position_embeddings and short_factor otherwise (as
dynamic_rope_update switches them), and cos and sin are multiplied by √(1 + ln s / ln L)
(1 for s <= 1), or by attention_factor when given.

Keys (rope_scaling): short_factor and long_factor, required, lists of rotary_dim/2 numbers in
[2**-20, 2**20]; factor, a number in [1, 1e18], or else max_position_embeddings /
original_max_position_embeddings; original_max_position_embeddings, an integer in [2, 2**53]
(ln L divides; the top-level key wins, as Phi-3 writes it; default max_position_embeddings);
attention_factor, a number in (0, 2**20].
Recognised only with its configuration: any base fits some rescale vector, so the cache alone
cannot name it; with the configuration's base, λ is read off and compared with its lists.

>>> longrope_frequencies(4, 10000.0, [1.0, 2.0]).tolist()
[1.0, 0.005]
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import mpmath
import numpy as np

from numeric.rope import exact
from numeric.rope import properties as twin
from numeric.rope.method import CacheFit, Scaling, ScalingMethod
from numeric.rope.parameters import BASE, SCALE, Range, Reading, rotary_dim
from numeric.rope.scaling import check_arithmetic, default_frequencies, exponents, power
from numeric.shown import shown

RESCALE = Range(2.0**-20, 2.0**20)  # each entry of short_factor and long_factor
ORIGINAL = Range(2, 2**53, integer=True)  # L: ln L divides in the attention factor
SCALE_FACTOR = Range(0.0, 1e18, open_low=True)  # s in the attention factor (<= 1 gives 1)


def rescale_vector(value: object, name: str, pairs: int) -> tuple[float, ...]:
    """value as `pairs` numbers in RESCALE, else ValueError naming the entry."""
    if not isinstance(value, list | tuple | np.ndarray) or len(value) != pairs:
        raise ValueError(
            f"{name} must be a list of {pairs} numbers in [2**-20, 2**20] (one per rotary "
            f"pair), got {shown(value)}"
        )
    return tuple(RESCALE.check(v, f"{name}[{j}]") for j, v in enumerate(value))


def longrope_frequencies(
    dim: int, base: float, factors: Sequence[float], *, arithmetic: str = "float64"
) -> np.ndarray:
    """θ_i / λ_i for a rescale vector λ (short_factor or long_factor) of dim/2 entries."""
    dtype = check_arithmetic(arithmetic)
    dim = rotary_dim(dim)
    rescale = np.asarray(rescale_vector(factors, "factors", dim // 2), dtype=np.float64)
    with np.errstate(under="ignore"):
        powered = power(BASE.check(base, "base"), exponents(dim, dtype))
        return dtype.type(1) / (rescale.astype(dtype) * powered)


def longrope_attention_factor(
    factor: float, original_max_position_embeddings: int, attention_factor: float | None = None
) -> float:
    """√(1 + ln s / ln L), 1 for s <= 1, or attention_factor if given (s is `factor`, or
    max_position_embeddings / original_max_position_embeddings); s in (0, 1e18], L in
    [2, 2**53], attention_factor in (0, 2**20]."""
    if attention_factor is not None:
        return SCALE.check(attention_factor, "attention_factor")
    factor = SCALE_FACTOR.check(factor, "factor")
    original = ORIGINAL.check(original_max_position_embeddings, "original_max_position_embeddings")
    if factor <= 1.0:
        return 1.0
    return math.sqrt(1 + math.log(factor) / math.log(original))


def _property_rows(at: twin.Sampling) -> list[list]:
    """This method's rows of the rope_scaling twin (numeric.rope.properties)."""
    rng = np.random.default_rng(2)
    worst = factor_gap = 0.0
    for d, b, s, length in twin.grid():
        rescale = 1 + 40 * rng.random(d // 2)
        theta = default_frequencies(d, b)
        worst = max(
            worst,
            float(np.max(np.abs(longrope_frequencies(d, b, rescale) / (theta / rescale) - 1))),
        )
        stated = math.sqrt(1 + math.log(s) / math.log(length))
        factor_gap = max(factor_gap, abs(longrope_attention_factor(s, length) / stated - 1))
    return [
        twin.row(
            "LongRoPE",
            "θ′_i = θ_i/λ_i (relative)",
            f"{twin.cases()} settings, random λ in [1, 41)",
            worst,
            8 * twin.U,
        ),
        twin.row(
            "LongRoPE",
            "attention factor = √(1 + ln s / ln L) (relative)",
            f"{twin.cases()} settings",
            factor_gap,
            4 * twin.U,
        ),
    ]


class LongRope(ScalingMethod):
    name = rope_type = "longrope"
    label = short = "LongRoPE"
    order = 6
    keys = (
        "factor",
        "original_max_position_embeddings",
        "attention_factor",
        "short_factor",
        "long_factor",
    )
    needs_config = "a LongRoPE rescale vector fits any base"

    def read(self, reading: Reading) -> dict[str, object]:
        original = reading.original_length(self.name, ORIGINAL)
        fields: dict[str, object] = {
            "original_max_position_embeddings": original,
            "factor": reading.factor_or_ratio(self.name, original),
        }
        pairs = reading.rotary_dim // 2
        for key in ("short_factor", "long_factor"):
            if key not in reading.rope:
                raise ValueError(
                    f"{reading.name(key)} is required for longrope scaling: {pairs} numbers "
                    "in [2**-20, 2**20]"
                )
            fields[key] = rescale_vector(reading.rope[key], reading.name(key), pairs)
        fields["attention_factor"] = reading.optional("attention_factor", SCALE)
        return fields

    def _rescale(self, config, seq_len: int | None) -> tuple[float, ...]:
        long = seq_len is not None and seq_len > config.original_max_position_embeddings
        return config.long_factor if long else config.short_factor

    def frequencies(self, config, seq_len: int | None, arithmetic: str) -> np.ndarray:
        rescale = self._rescale(config, seq_len)
        return longrope_frequencies(config.rotary_dim, config.base, rescale, arithmetic=arithmetic)

    def attention(self, config) -> tuple[float, str]:
        m = longrope_attention_factor(
            config.factor, config.original_max_position_embeddings, config.attention_factor
        )
        if config.attention_factor is not None:
            return m, "the config's attention_factor"
        return m, (
            f"LongRoPE's √(1 + ln s / ln L) at s = {config.factor:g}, "
            f"L = {config.original_max_position_embeddings}"
        )

    def exact(self, config, i: int, seq_len: int | None = None) -> mpmath.mpf:
        rescale = self._rescale(config, seq_len)[i]
        with mpmath.workdps(exact.DPS + 10):
            return +(exact.theta(i, config.rotary_dim, config.base) / mpmath.mpf(rescale))

    def from_config(self, config, seq_len: int, fit: CacheFit) -> list[Scaling]:
        found = []
        for which in ("short_factor", "long_factor"):
            factors = getattr(config, which)
            model = longrope_frequencies(config.rotary_dim, config.base, factors)
            params = {
                "factor": config.factor,
                "original_max_position_embeddings": config.original_max_position_embeddings,
                "factors_used": which,
                "rescale": list(factors),
            }
            found.append(Scaling(self.name, config.base, params, model, source="config"))
        return found

    def read_off(self, fit: CacheFit, config) -> Scaling | None:
        """λ_i = θ_i(b)/θ′_i read off with the configuration's base b, when every λ_i >= 1."""
        rescale = default_frequencies(fit.d, config.base) / fit.theta
        if not np.all(rescale >= 1 - 1e-6):
            return None
        return Scaling(
            self.name, config.base, {"rescale": rescale.tolist()}, fit.theta.copy(), misfit=0.0
        )

    def cache_attention(self, found: Scaling) -> tuple[float, str] | None:
        return None

    def property_rows(self, at: twin.Sampling) -> list[list]:
        return _property_rows(at)


METHOD = LongRope()
