"""NTK-aware scaling: the base grown to b′ = b·s^(d/(d−2)) (bloc97, 2023; YaRN paper §3.1).

No transformers rope_type computes it: a model using it ships b′ as its rope_theta (Code
Llama's 1e6), and its frequencies are the default ones of b′. So a configuration cannot name
it; the audit names it when a cache is geometric from 1 with a base b·s^(d/(d−2)) for a round
b and a round factor s in (1, 1000].

>>> ntk_aware_base(10000.0, 4.0, 128) == 10000.0 * 4.0 ** (128 / 126)
True
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from numeric.rope import exact
from numeric.rope import properties as twin
from numeric.rope.method import CacheFit, Scaling, ScalingMethod
from numeric.rope.parameters import BASE, FACTOR, rotary_dim
from numeric.rope.round_numbers import nice_factor
from numeric.rope.scaling import check_arithmetic, default_frequencies, geometric

_MOST = 1000.0  # the largest factor the audit reads from a cache


def ntk_aware_base(base: float, factor: float, dim: int) -> float:
    """b′ = b·s^(d/(d−2)) in float64, as a config would hold it: base in (1, 1e100], factor
    in [1, 1e18], dim an even integer in [4, 2**16]."""
    dim = rotary_dim(dim)
    if dim == 2:
        raise ValueError("dim must be at least 4 for the NTK-aware base: d/(d−2) needs d > 2")
    return BASE.check(base, "base") * FACTOR.check(factor, "factor") ** (dim / (dim - 2))


def ntk_aware_frequencies(
    dim: int, base: float, factor: float, *, arithmetic: str = "float64"
) -> np.ndarray:
    """θ′_i = b′^(−2i/d) with b′ = ntk_aware_base(base, factor, dim)."""
    return geometric(dim, ntk_aware_base(base, factor, dim), check_arithmetic(arithmetic))


def _property_rows(at: twin.Sampling) -> list[list]:
    """This method's rows of the rope_scaling twin (numeric.rope.properties)."""
    first = last = formula = outside = falling = exactly = 0.0
    falling = -math.inf
    for d, b, s, _ in twin.grid():
        theta = default_frequencies(d, b)
        new = ntk_aware_frequencies(d, b, s)
        ratio = new / theta
        i = np.arange(d // 2)
        first = max(first, abs(new[0] - theta[0]))
        last = max(last, abs(new[-1] / (theta[-1] / s) - 1))
        formula = max(formula, float(np.max(np.abs(ratio / s ** (-2 * i / (d - 2)) - 1))))
        outside = max(outside, float(np.max(np.maximum(1 / s - ratio, ratio - 1) * s)))
        falling = max(falling, twin.falling(ratio))
        exactly = max(exactly, float(np.max(np.abs(new / (theta / s) - 1))))
    cases = f"{twin.cases()} settings"
    return [
        twin.row("NTK-aware", "θ′_0 = θ_0", cases, first, 0.0),
        twin.row("NTK-aware", "θ′_{d/2−1} = θ_{d/2−1}/s (relative)", cases, last, 64 * twin.U),
        twin.row("NTK-aware", "θ′_i/θ_i = s^(−2i/(d−2)) (relative)", cases, formula, 64 * twin.U),
        twin.row(
            "NTK-aware", "1/s <= θ′_i/θ_i <= 1 (excess, relative)", cases, outside, 64 * twin.U
        ),
        twin.row("NTK-aware", "θ′_i/θ_i falls with i: max (next/this − 1)", cases, falling, 0.0),
        twin.row(
            "NTK-aware", "θ′_i = θ_i/s for all i (relative)", cases, exactly, 64 * twin.U, "refuted"
        ),
    ]


class NtkAware(ScalingMethod):
    name = "ntk"
    label = "NTK-aware scaling"
    short = "NTK-aware"
    order = 3

    def frequencies(self, config, seq_len: int | None, arithmetic: str) -> np.ndarray:
        raise ValueError("NTK-aware scaling has no rope_type: a config ships b′ as rope_theta")

    def exact(self, config, i: int, seq_len: int | None = None) -> mpmath.mpf:
        d = config.rotary_dim
        with mpmath.workdps(exact.DPS + 10):
            grown = mpmath.mpf(config.base) * mpmath.mpf(config.factor) ** (mpmath.mpf(d) / (d - 2))
            return exact.theta(i, d, grown)

    def from_cache(self, fit: CacheFit) -> list[Scaling]:
        fitted, d = fit.fitted, fit.d
        if not fitted or d <= 2:
            return []
        found = []
        exponent = math.floor(math.log10(fitted))
        for b0 in [m * 10.0**e for e in range(exponent - 3, exponent + 1) for m in (1, 2, 5)]:
            if not (b0 < fitted * 0.999 and BASE.holds(b0)):
                continue
            s = nice_factor((fitted / b0) ** ((d - 2) / d), 1e-3)
            if s is None or not 1 < s <= _MOST:
                continue
            grown = ntk_aware_base(b0, s, d)
            params = {"factor": s, "base": grown}
            model = geometric(d, grown, np.dtype(np.float64))
            found.append(Scaling(self.name, b0, params, model))
        return found

    def figure_curves(self, dim, base, factor, original) -> list[tuple[str, np.ndarray]]:
        return [(r"NTK-aware, $b' = b\,s^{d/(d-2)}$", ntk_aware_frequencies(dim, base, factor))]

    def property_rows(self, at: twin.Sampling) -> list[list]:
        return _property_rows(at)


METHOD = NtkAware()
