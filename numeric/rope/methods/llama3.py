"""Llama 3.1's scaling: θ_i kept on the fast pairs, θ_i/s on the slow ones, and between them
a blend linear in θ_i (not in i) from the wavelength L/high to L/low.

transformers' _compute_llama3_parameters, the vectorised form of Meta's apply_scaling
(meta-llama/llama-models, models/llama3/reference_impl/model.py). With λ_i = 2π/θ_i: θ_i where
λ_i < L/high; θ_i/s where λ_i > L/low; otherwise (1 − smooth)·θ_i/s + smooth·θ_i with
smooth = (L/λ_i − low)/(high − low). It is YaRN's paper formula with α = low and β = high,
and no temperature.

Keys (rope_scaling): factor, required, a number in [1, 1e18]; low_freq_factor and
high_freq_factor, required, numbers in [2**-20, 2**20] with high at least low·(1 + 2**-20);
original_max_position_embeddings, an integer in [1, 2**53] (default max_position_embeddings).
Recognised in a cache by the ratio θ′_i/θ_i, linear in θ_i between the two wavelengths (only
those two are fixed by the cache: low_freq_factor 1 is assumed without a configuration).

>>> f = llama3_frequencies(128, 500000.0, 8.0, 1.0, 4.0, 8192)
>>> f"{f[33]:.6e}"
'3.126938e-04'
"""

from __future__ import annotations

import math

import mpmath
import numpy as np

from numeric.rope import exact
from numeric.rope import properties as twin
from numeric.rope.claims import Claim, claim, rope_claims
from numeric.rope.exact import DPS, yarn_paper
from numeric.rope.method import CacheFit, Scaling, ScalingMethod
from numeric.rope.methods import yarn
from numeric.rope.papers import yarn_paper_frequencies
from numeric.rope.parameters import FACTOR, Range, Reading
from numeric.rope.round_numbers import MODEL_ULPS, nice_factor
from numeric.rope.scaling import default_frequencies, reciprocal_times

FREQ_FACTOR = Range(2.0**-20, 2.0**20)  # low_freq_factor, high_freq_factor
ORIGINAL = Range(1.0, 2.0**53)  # L: an integer in a config, a real number read off a cache
_GAP = 2.0**-20  # high_freq_factor >= low_freq_factor·(1 + _GAP): the blend's slope stays finite


def _check_factors(low: object, high: object, where: str = "") -> tuple[float, float]:
    low = FREQ_FACTOR.check(low, f"{where}low_freq_factor")
    high = FREQ_FACTOR.check(high, f"{where}high_freq_factor")
    if not high >= low * (1 + _GAP):
        raise ValueError(
            f"{where}high_freq_factor must exceed low_freq_factor by at least a part in 2**20, "
            f"got {high:g} and {low:g}"
        )
    return low, high


def llama3_frequencies(
    dim: int,
    base: float,
    factor: float,
    low_freq_factor: float,
    high_freq_factor: float,
    original_max_position_embeddings: int,
    *,
    arithmetic: str = "float64",
) -> np.ndarray:
    """Llama 3.1's map (the module docstring), ranges as stated there."""
    theta = default_frequencies(dim, base, arithmetic=arithmetic)
    t = theta.dtype.type
    factor = FACTOR.check(factor, "factor")
    low_freq_factor, high_freq_factor = _check_factors(low_freq_factor, high_freq_factor)
    original = ORIGINAL.check(original_max_position_embeddings, "original_max_position_embeddings")
    low_wavelen = original / low_freq_factor
    high_wavelen = original / high_freq_factor
    with np.errstate(over="ignore", under="ignore"):
        wavelen = reciprocal_times(theta, 2 * math.pi)
        scaled = np.where(wavelen > t(low_wavelen), theta / t(factor), theta)
        smooth = (reciprocal_times(wavelen, original) - t(low_freq_factor)) / t(
            high_freq_factor - low_freq_factor
        )
        smoothed = (t(1) - smooth) * scaled / t(factor) + smooth * scaled
    medium = ~(wavelen < t(high_wavelen)) & ~(wavelen > t(low_wavelen))
    return np.where(medium, smoothed, scaled)


def exact_frequency(
    i: int, d: int, b: float, s: float, low: float, high: float, length: int
) -> mpmath.mpf:
    """θ′_i of Meta's apply_scaling on exact numbers: by the wavelength λ_i against L/high and L/low."""
    with mpmath.workdps(exact.DPS + 10):
        t = exact.theta(i, d, b)
        wavelength = 2 * mpmath.pi / t
        if wavelength < mpmath.mpf(length) / high:
            return t
        if wavelength > mpmath.mpf(length) / low:
            return t / s
        smooth = (length / wavelength - low) / (mpmath.mpf(high) - low)
        return +((1 - smooth) * t / s + smooth * t)


# The settings issue 24 states: b = 5·10⁵, d = 128, L = 8192, s = 8, low 1, high 4, pair 33.
CLAIMED = {"dim": 128, "base": 500000.0, "factor": 8.0, "original": 8192, "low": 1.0, "high": 4.0}
CLAIMED_PAIR = 33


def _claims() -> list[Claim]:
    """Issue 24's Llama 3 numbers at pair 33: Llama 3, transformers' yarn with β_fast = high
    and β_slow = low, how far apart they are, and Llama 3 against YaRN's paper formula."""
    d, b, s, L = CLAIMED["dim"], CLAIMED["base"], CLAIMED["factor"], CLAIMED["original"]
    low, high, i = CLAIMED["low"], CLAIMED["high"], CLAIMED_PAIR
    llama64 = llama3_frequencies(d, b, s, low, high, L)
    llama32 = llama3_frequencies(d, b, s, low, high, L, arithmetic="float32")
    paper64 = yarn_paper_frequencies(d, b, s, L, alpha=low, beta=high)
    yarn64 = yarn.yarn_frequencies(d, b, s, L, beta_fast=high, beta_slow=low)
    yarn32 = yarn.yarn_frequencies(d, b, s, L, beta_fast=high, beta_slow=low, arithmetic="float32")
    llama = exact_frequency(i, d, b, s, low, high, L)
    yarn_exact = yarn.exact_frequency(i, d, b, s, L, high, low)
    with mpmath.workdps(DPS + 10):
        apart = yarn_exact / llama - 1
        same = max(
            abs(
                exact_frequency(j, d, b, s, low, high, L) / yarn_paper(j, d, b, s, L, low, high) - 1
            )
            for j in range(d // 2)
        )
    same64 = float(np.max(np.abs(llama64 / paper64 - 1)))
    where = "b = 5·10⁵, d = 128, L = 8192, s = 8"
    return [
        claim(
            "llama3_pair_33",
            f"Llama 3 θ′ at pair 33 ({where}, low 1, high 4)",
            "",
            llama64[i],
            llama,
            llama32[i],
        ),
        claim(
            "hf_yarn_pair_33",
            f"transformers yarn θ′ at pair 33 ({where}, β_fast 4, β_slow 1)",
            "",
            yarn64[i],
            yarn_exact,
            yarn32[i],
        ),
        claim(
            "hf_yarn_over_llama3_pair_33",
            "yarn θ′ / Llama 3 θ′ − 1 at pair 33 (stated as 38%)",
            "0.38",
            yarn64[i] / llama64[i] - 1,
            apart,
        ),
        claim(
            "llama3_vs_yarn_paper",
            f"max over pairs |Llama 3 θ′ / YaRN-paper θ′ (α = low, β = high) − 1| ({where})",
            "0",
            same64,
            same,
        ),
    ]


def _property_rows(at: twin.Sampling) -> list[list]:
    """This method's rows of the rope_scaling twin (numeric.rope.properties)."""
    same = bound = 0.0
    for d, b, s, length in twin.grid():
        for low, high in ((1.0, 4.0), (1.0, 2.0), (2.0, 8.0)):
            llama = llama3_frequencies(d, b, s, low, high, length)
            paper = yarn_paper_frequencies(d, b, s, length, alpha=low, beta=high)
            gap = float(np.max(np.abs(llama / paper - 1)))
            # smooth = (L/λ − low)/(high − low) is within ~4u·high/(high − low) of its value,
            # and θ′/θ = 1/s + smooth·(1 − 1/s) >= 1/s turns that into up to s times as much.
            tolerance = 8 * twin.U * (1 + s * (1 + high / (high - low)))
            if gap / tolerance >= same / max(bound, 1e-300):
                same, bound = gap, tolerance
    claims = {c.name: c for c in rope_claims()}
    apart = claims["hf_yarn_over_llama3_pair_33"]
    exactly = claims["llama3_vs_yarn_paper"]
    return [
        twin.row(
            "Llama 3",
            "= YaRN paper with α = low, β = high, no temperature (relative)",
            f"{3 * twin.cases()} settings (low, high) ∈ (1, 4), (1, 2), (2, 8); worst against its bound; mpmath at b 5e5, d 128, L 8192, s 8: {float(exactly.exact):.3g}",
            same,
            bound,
        ),
        twin.row(
            "Llama 3",
            "= transformers' yarn with β_fast = high, β_slow = low, at pair 33: yarn/llama3 − 1",
            f"b 5e5, d 128, L 8192, s 8 (mpmath {float(apart.exact):.10g})",
            apart.float64,
            16 * twin.U,
            "refuted",
        ),
    ]


class Llama3(ScalingMethod):
    name = rope_type = "llama3"
    label = "Llama 3 scaling"
    short = "Llama 3"
    order = 5
    bugs = ("llama3_scaling_dropped",)
    keys = ("factor", "low_freq_factor", "high_freq_factor", "original_max_position_embeddings")

    def read(self, reading: Reading) -> dict[str, object]:
        original = reading.original_length(self.name)
        factor = reading.required("factor", FACTOR, self.name)
        low = reading.required("low_freq_factor", FREQ_FACTOR, self.name)
        high = reading.required("high_freq_factor", FREQ_FACTOR, self.name)
        _check_factors(low, high, f"{reading.where}.")
        return {
            "original_max_position_embeddings": original,
            "factor": factor,
            "low_freq_factor": low,
            "high_freq_factor": high,
        }

    def frequencies(self, config, seq_len: int | None, arithmetic: str) -> np.ndarray:
        return llama3_frequencies(
            config.rotary_dim,
            config.base,
            config.factor,
            config.low_freq_factor,
            config.high_freq_factor,
            config.original_max_position_embeddings,
            arithmetic=arithmetic,
        )

    def exact(self, config, i: int, seq_len: int | None = None) -> mpmath.mpf:
        return exact_frequency(
            i,
            config.rotary_dim,
            config.base,
            config.factor,
            config.low_freq_factor,
            config.high_freq_factor,
            config.original_max_position_embeddings,
        )

    def from_config(self, config, seq_len: int, fit: CacheFit) -> list[Scaling]:
        L = config.original_max_position_embeddings
        params = {
            "factor": config.factor,
            "low_freq_factor": config.low_freq_factor,
            "high_freq_factor": config.high_freq_factor,
            "original_max_position_embeddings": L,
            "low_freq_wavelen": L / config.low_freq_factor,
            "high_freq_wavelen": L / config.high_freq_factor,
        }
        model = self.frequencies(config, seq_len, "float64")
        return [Scaling(self.name, config.base, params, model, source="config")]

    def from_cache(self, fit: CacheFit) -> list[Scaling]:
        return [c for b in fit.head_bases for c in self._with_base(fit, b)]

    def _with_base(self, fit: CacheFit, b: float) -> list[Scaling]:
        """Llama 3 read from the ratio: smooth linear in θ_i between two wavelengths."""
        theta, bound, d = fit.theta, fit.bound, fit.d
        default = default_frequencies(d, b)
        ratio = theta / default
        room = (bound + MODEL_ULPS * theta) / default
        if len(theta) < 4 or abs(ratio[-1] - ratio[-2]) > room[-1] + room[-2]:
            return []
        s = 1 / ratio[-1]
        if not 1 + 1e-6 < s <= FACTOR.high:
            return []
        smooth = (ratio - 1 / s) / (1 - 1 / s)
        slack = room / (1 - 1 / s)
        middle = (smooth > slack) & (smooth < 1 - slack)
        if middle.sum() < 2:
            return []
        slope, start = np.polyfit(default[middle], smooth[middle], 1)
        if slope <= 0:
            return []
        low_theta, high_theta = -start / slope, (1 - start) / slope
        if not 0 < low_theta < high_theta:
            return []
        factor = nice_factor(s, max(1e-4, 2 * room[-1] / ratio[-1])) or float(s)
        original = 2 * math.pi / low_theta  # L/low with low = 1
        high = high_theta / low_theta
        if abs(original - round(original)) < 1e-3 * original:
            original = round(original)
        high = nice_factor(high, 1e-3) or float(high)
        if not (ORIGINAL.holds(original) and FREQ_FACTOR.holds(high) and high >= 1 + _GAP):
            return []
        model = llama3_frequencies(d, b, factor, 1.0, high, original)
        params = {
            "factor": factor,
            "low_freq_factor": 1.0,
            "high_freq_factor": high,
            "original_max_position_embeddings": original,
            "low_freq_wavelen": original,
            "high_freq_wavelen": original / high,
        }
        return [Scaling(self.name, b, params, model, assumed=("low_freq_factor",))]

    def assumed(self, found: Scaling) -> str | None:
        p = found.parameters
        return (
            f"the cache fixes Llama 3's wavelengths L/low = {p['low_freq_wavelen']:g} and "
            f"L/high = {p['high_freq_wavelen']:g}, not L, low and high apart: "
            "low_freq_factor 1 (Meta's) assumed"
        )

    def config_finding(
        self, found: Scaling, config, pair: int, ratio: float, seq_len: int, where: str
    ) -> tuple[str, str] | None:
        same_base = found.base is not None and abs(found.base - config.base) <= 1e-9 * config.base
        if found.type != "none" or not same_base:
            return None
        return (
            "llama3_scaling_dropped",
            f"Llama 3.1's frequency scaling is dropped: the cache holds the default frequencies "
            f"of base {config.base:g}, while the config asks for llama3 scaling (factor "
            f"{config.factor:g}); {where}. Models trained with it produce gibberish past about "
            "29K tokens.",
        )

    def figure_curves(self, dim, base, factor, original) -> list[tuple[str, np.ndarray]]:
        curve = llama3_frequencies(dim, base, factor, 1.0, 4.0, original)
        return [("Llama 3 (low 1, high 4)", curve)]

    def claims(self) -> list[Claim]:
        return _claims()

    def property_rows(self, at: twin.Sampling) -> list[list]:
        return _property_rows(at)


METHOD = Llama3()
