"""The scaling maps as their papers state them, where that differs from the reference code.

YaRN (Peng, Quesnelle, Fan, Shippole 2023, arXiv 2309.00071), §3.2 "NTK-by-parts": with
wavelength λ_i = 2π/θ_i and r_i = L/λ_i the number of turns pair i makes over the original
context L, γ(r) = 0 for r < α, 1 for r > β and (r − α)/(β − α) between, and
θ′_i = (1 − γ(r_i))·θ_i/s + γ(r_i)·θ_i, with α = 1 and β = 32 for Llama. The ramp is linear in
r_i, which is exponential in i; the reference code (yarn_frequencies, numeric/rope/methods)
ramps linearly in i between the floor and ceiling of the indices where r_i = β and r_i = α.
§3.4: the attention temperature √(1/t) = 0.1·ln s + 1.

Llama 3's map (its file in numeric/rope/methods) is this formula with α =
low_freq_factor and β = high_freq_factor, and no temperature.

>>> f"{yarn_paper_frequencies(128, 10000.0, 16.0, 4096)[38]:.4e}"
'4.8661e-04'
"""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np

from numeric.rope.scaling import default_frequencies
from numeric.shown import shown


def yarn_paper_ramp(r: np.ndarray, alpha: float, beta: float) -> np.ndarray:
    """γ(r): 0 for r < α, 1 for r > β, (r − α)/(β − α) between (YaRN §3.2)."""
    if not alpha < beta:
        raise ValueError(
            f"alpha must be less than beta, got alpha={shown(alpha)}, beta={shown(beta)}"
        )
    r = np.asarray(r, dtype=np.float64)
    return np.where(r < alpha, 0.0, np.where(r > beta, 1.0, (r - alpha) / (beta - alpha)))


def yarn_paper_frequencies(
    dim: int,
    base: float,
    factor: float,
    original_length: int,
    *,
    alpha: float = 1.0,
    beta: float = 32.0,
) -> np.ndarray:
    """θ′_i = (1 − γ(r_i))·θ_i/s + γ(r_i)·θ_i with r_i = L·θ_i/(2π), in float64 (YaRN §3.2)."""
    if isinstance(factor, bool) or not isinstance(factor, Real) or not factor >= 1:
        raise ValueError(f"factor must be a number >= 1, got {shown(factor)}")
    if (
        isinstance(original_length, bool)
        or not isinstance(original_length, Integral)
        or original_length < 1
    ):
        raise ValueError(
            f"original_length must be a positive integer, got {shown(original_length)}"
        )
    theta = default_frequencies(dim, base)
    gamma = yarn_paper_ramp(original_length * theta / (2 * math.pi), alpha, beta)
    return (1 - gamma) * theta / factor + gamma * theta


def yarn_paper_temperature(factor: float) -> float:
    """√(1/t) = 0.1·ln s + 1 (YaRN §3.4): the factor on cos and sin, so logits scale by its square."""
    if isinstance(factor, bool) or not isinstance(factor, Real) or not factor > 0:
        raise ValueError(f"factor must be a positive number, got {shown(factor)}")
    return 0.1 * math.log(factor) + 1
