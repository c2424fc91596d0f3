"""Linear scaling (position interpolation): θ′_i = θ_i / s.

transformers' _compute_linear_scaling_rope_parameters (`inv_freq /= factor`). Position
interpolation (Chen et al. 2023, arXiv 2306.15595) divides the positions by s instead: the
angles m·θ_i/s are the same.

Keys: factor, required, a number in [1, 1e18].
Recognised in a cache as geometric from θ_0 = 1/s, s a round factor, else s = 1/θ_0.

>>> [round(float(t), 6) for t in linear_frequencies(4, 10000.0, 4.0)]
[0.25, 0.0025]
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from numeric.rope import exact
from numeric.rope import properties as twin
from numeric.rope.method import CacheFit, Scaling, ScalingMethod
from numeric.rope.parameters import FACTOR, Reading
from numeric.rope.round_numbers import nice_factor
from numeric.rope.scaling import default_frequencies


def linear_frequencies(
    dim: int, base: float, factor: float, *, arithmetic: str = "float64"
) -> np.ndarray:
    """θ_i / s, with s = factor in [1, 1e18]."""
    factor = FACTOR.check(factor, "factor")
    theta = default_frequencies(dim, base, arithmetic=arithmetic)
    return theta / theta.dtype.type(factor)


def _property_rows(at: twin.Sampling) -> list[list]:
    """This method's rows of the rope_scaling twin (numeric.rope.properties)."""
    theta = default_frequencies(128, 10000.0)
    worst = bound = 0.0
    for s in twin.FACTORS:
        scaled = linear_frequencies(128, 10000.0, s)
        for a in range(0, at.max_position, 8192):
            m = np.arange(a, min(a + 8192, at.max_position), dtype=np.float64)[:, None]
            by_frequency, by_position = m * scaled, (m / s) * theta
            gap = max(
                float(np.abs(np.cos(by_frequency) - np.cos(by_position)).max()),
                float(np.abs(np.sin(by_frequency) - np.sin(by_position)).max()),
            )
            worst = max(worst, gap)
            bound = max(bound, 6 * twin.U * float(by_position.max()) + 4 * twin.U)
    return [
        twin.row(
            "linear",
            "R(m·θ/s) = R((m/s)·θ): cos, sin",
            f"s ∈ {twin.FACTORS}, every m < {at.max_position}, d = 128",
            worst,
            bound,
        )
    ]


class Linear(ScalingMethod):
    name = rope_type = "linear"
    label = "linear scaling"
    short = "linear"
    order = 1
    keys = ("factor",)

    def read(self, reading: Reading) -> dict[str, object]:
        return {"factor": reading.required("factor", FACTOR, self.name)}

    def frequencies(self, config, seq_len: int | None, arithmetic: str) -> np.ndarray:
        return linear_frequencies(
            config.rotary_dim, config.base, config.factor, arithmetic=arithmetic
        )

    def exact(self, config, i: int, seq_len: int | None = None) -> mpmath.mpf:
        with mpmath.workdps(exact.DPS + 10):
            return +(exact.theta(i, config.rotary_dim, config.base) / mpmath.mpf(config.factor))

    def from_config(self, config, seq_len: int, fit: CacheFit) -> list[Scaling]:
        model = linear_frequencies(config.rotary_dim, config.base, config.factor)
        params = {"factor": config.factor}
        return [Scaling(self.name, config.base, params, model, source="config")]

    def from_cache(self, fit: CacheFit) -> list[Scaling]:
        if not fit.intercept < 0:
            return []
        factor = nice_factor(math.exp(-fit.intercept), 1e-3)
        found = []
        if factor is not None and 1 < factor <= FACTOR.high:
            found = [
                Scaling(self.name, b, {"factor": factor}, linear_frequencies(fit.d, b, factor))
                for b in fit.geometric_bases
            ]
        # A factor that is not round (4^(64/62) = 4.1803): read off the fastest pair, whose
        # default frequency is 1, and tried after the round ones.
        exact = 1.0 / float(fit.theta[0])
        if 1 + 1e-6 < exact <= FACTOR.high and exact != factor:
            params = {"factor": exact, "factor_is_round": False}
            found += [
                Scaling(self.name, b, params, linear_frequencies(fit.d, b, exact))
                for b in fit.geometric_bases
            ]
        return found

    def figure_curves(self, dim, base, factor, original) -> list[tuple[str, np.ndarray]]:
        return [("linear (position interpolation)", linear_frequencies(dim, base, factor))]

    def property_rows(self, at: twin.Sampling) -> list[list]:
        return _property_rows(at)


METHOD = Linear()
