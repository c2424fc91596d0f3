"""YaRN ("NTK-by-parts" with an attention temperature), as transformers computes it.

θ′_i = (θ_i/s)·ramp_i + θ_i·(1 − ramp_i), the ramp linear in the pair index i between the
correction dimensions of β_fast and β_slow: _compute_yarn_parameters, the same function as
jquesnelle/yarn's reference code (scaled_rope, _yarn_find_correction_range and
_yarn_linear_ramp_mask), which vLLM and llama.cpp copy. The paper's ramp is linear in
r = L/λ_i instead: numeric.rope.papers.yarn_paper_frequencies. cos and sin are multiplied by
the attention factor g(s, 1) = 0.1·ln s + 1 (the paper's √(1/t), §3.4), DeepSeek's
g(s, mscale)/g(s, mscale_all_dim), or the configuration's attention_factor.

Keys (rope_scaling): factor, a number in [1, 1e18], or else max_position_embeddings /
original_max_position_embeddings (which must then lie in that range too);
original_max_position_embeddings, an integer in [1, 2**53] (default max_position_embeddings);
beta_fast and beta_slow, numbers in [2**-20, 2**20] (default 32 and 1); truncate, true or
false (default true); mscale and mscale_all_dim, numbers in [0, 2**20]; attention_factor, a
number in (0, 2**20].
Recognised in a cache by the ratio θ′_i/θ_i: 1 on the fast pairs, 1/s on the slow ones and
linear in i between; the ramp's ends are what the cache fixes.

One file because it is one method, and a scaling method is one file (numeric.rope.methods):
its NumPy map and helpers, its exact reference, its reading, how the audit recognises it and
names its two attention bugs, its published numbers and its twin rows are all YaRN's.

>>> yarn_correction_range(32, 1, 128, 10000.0, 4096, truncate=True)
(20, 46)
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import mpmath
import numpy as np

from numeric.rope import exact
from numeric.rope import properties as twin
from numeric.rope.apply import apply_rope
from numeric.rope.claims import Claim, claim, rope_claims
from numeric.rope.exact import DPS, yarn_paper
from numeric.rope.method import CacheFit, Scaling, ScalingMethod
from numeric.rope.papers import yarn_paper_frequencies, yarn_paper_ramp
from numeric.rope.parameters import BASE, FACTOR, LENGTH, SCALE, Range, Reading, rotary_dim
from numeric.rope.round_numbers import MODEL_ULPS, nice_factor
from numeric.rope.scaling import check_arithmetic, default_frequencies, exponents, power
from numeric.shown import shown

BETA = Range(2.0**-20, 2.0**20)  # beta_fast, beta_slow: turns over the original length
MSCALE = Range(0.0, 2.0**20)  # mscale, mscale_all_dim
SCALE_FACTOR = Range(0.0, 1e18, open_low=True)  # s in the attention factor (<= 1 gives 1)
_POWERS_OF_TWO = [2**k for k in range(8, 24)]


def yarn_correction_dim(num_rotations: float, dim: int, base: float, original: int) -> float:
    """The (real) pair index at which L/λ_i equals num_rotations: d·ln(L/(2π·n)) / (2·ln b).

    _compute_yarn_parameters.find_correction_dim, float64 as in Python. num_rotations in
    [2**-20, 2**20], dim even in [2, 2**16], base in (1, 1e100], original in [1, 2**53].
    """
    n = BETA.check(num_rotations, "num_rotations")
    dim, base = rotary_dim(dim), BASE.check(base, "base")
    original = LENGTH.check(original, "original_max_position_embeddings")
    return (dim * math.log(original / (n * 2 * math.pi))) / (2 * math.log(base))


def yarn_correction_range(
    beta_fast: float, beta_slow: float, dim: int, base: float, original: int, *, truncate: bool
) -> tuple[float, float]:
    """(low, high) of the ramp: the correction dims of beta_fast and beta_slow, floored and
    ceiled when truncate, then clamped to [0, dim − 1] (find_correction_range; note dim − 1,
    not dim/2 − 1)."""
    low = yarn_correction_dim(beta_fast, dim, base, original)
    high = yarn_correction_dim(beta_slow, dim, base, original)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    return max(low, 0), min(high, dim - 1)


def yarn_ramp(low: float, high: float, pairs: int, *, arithmetic: str = "float64") -> np.ndarray:
    """clamp((i − low)/(high − low), 0, 1) for i = 0 .. pairs − 1: linear_ramp_factor, linear in
    the pair index (high is nudged by 0.001 when it equals low, as in the library). low and
    high finite, pairs an integer in [1, 2**15]."""
    dtype = check_arithmetic(arithmetic)
    ends = Range(-1e300, 1e300)
    low, high = ends.check(low, "low"), ends.check(high, "high")  # Python floats from here
    pairs = int(Range(1, 2**15, integer=True).check(pairs, "pairs"))
    if low == high:
        high += 0.001
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        linear = (np.arange(pairs).astype(dtype) - dtype.type(low)) / dtype.type(high - low)
    return np.clip(np.nan_to_num(linear), dtype.type(0), dtype.type(1))


def yarn_frequencies(
    dim: int,
    base: float,
    factor: float,
    original_max_position_embeddings: int,
    *,
    beta_fast: float = 32.0,
    beta_slow: float = 1.0,
    truncate: bool = True,
    arithmetic: str = "float64",
) -> np.ndarray:
    """θ′_i = (θ_i/s)·ramp_i + θ_i·(1 − ramp_i), ramp linear in i: _compute_yarn_parameters.

    Ranges as in the module docstring; beta_fast and beta_slow in [2**-20, 2**20].
    """
    dtype = check_arithmetic(arithmetic)
    dim = rotary_dim(dim)
    base, factor = BASE.check(base, "base"), FACTOR.check(factor, "factor")
    if not isinstance(truncate, bool):
        raise ValueError(f"truncate must be True or False, got {shown(truncate)}")
    low, high = yarn_correction_range(
        beta_fast, beta_slow, dim, base, original_max_position_embeddings, truncate=truncate
    )
    with np.errstate(under="ignore"):
        pos_freqs = power(base, exponents(dim, dtype))
        extrapolation = dtype.type(1) / pos_freqs
        interpolation = dtype.type(1) / (dtype.type(factor) * pos_freqs)
        one = dtype.type(1)
        kept = one - yarn_ramp(low, high, dim // 2, arithmetic=arithmetic)
        return interpolation * (one - kept) + extrapolation * kept


def yarn_mscale(scale: float, mscale: float = 1.0) -> float:
    """g(s, μ) = 0.1·μ·ln s + 1, and 1 for s <= 1: get_mscale / DeepSeek's yarn_get_mscale.
    scale in (0, 1e18], mscale in [0, 2**20]."""
    scale = SCALE_FACTOR.check(scale, "factor")
    mscale = MSCALE.check(mscale, "mscale")
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


def yarn_attention_factor(
    factor: float,
    *,
    mscale: float | None = None,
    mscale_all_dim: float | None = None,
    attention_factor: float | None = None,
) -> float:
    """The number cos and sin are multiplied by (logits scale by its square).

    _compute_yarn_parameters: attention_factor if given (in (0, 2**20]); else g(s, mscale)/
    g(s, mscale_all_dim) when both are given and non-zero (DeepSeek-V2/V3; each in
    [0, 2**20], so neither g is below 1); else g(s, 1) = 0.1·ln s + 1, the paper's √(1/t) (§3.4).
    """
    if attention_factor is not None:
        return SCALE.check(attention_factor, "attention_factor")
    if mscale is not None:
        MSCALE.check(mscale, "mscale")
    if mscale_all_dim is not None:
        MSCALE.check(mscale_all_dim, "mscale_all_dim")
    if mscale and mscale_all_dim:
        return float(yarn_mscale(factor, mscale) / yarn_mscale(factor, mscale_all_dim))
    return yarn_mscale(factor)


def deepseek_softmax_scale(factor: float, mscale_all_dim: float | None) -> float:
    """What DeepSeek-V2 multiplies its softmax scale head_dim^(−1/2) by: g(s, mscale_all_dim)²
    when mscale_all_dim is non-zero, else 1 (models/deepseek_v2/modeling_deepseek_v2.py,
    yarn_apply_mscale)."""
    if not mscale_all_dim:
        return 1.0
    g = yarn_mscale(factor, mscale_all_dim)
    return g * g


def exact_correction_dim(n: float, d: int, b: float, length: int) -> mpmath.mpf:
    """The real index at which L/λ_i = n: d·ln(L/(2πn)) / (2·ln b), in mpmath."""
    with mpmath.workdps(exact.DPS + 10):
        return (
            d
            * mpmath.log(mpmath.mpf(length) / (mpmath.mpf(n) * 2 * mpmath.pi))
            / (2 * mpmath.log(mpmath.mpf(b)))
        )


def exact_frequency(
    i: int,
    d: int,
    b: float,
    s: float,
    length: int,
    beta_fast: float = 32,
    beta_slow: float = 1,
    truncate: bool = True,
) -> mpmath.mpf:
    """θ′_i of the reference code in mpmath: ramp linear in i between ⌊i(β_fast)⌋ and
    ⌈i(β_slow)⌉ of the exact correction dimensions, clamped to [0, d − 1],
    θ′ = θ/s·ramp + θ·(1 − ramp)."""
    with mpmath.workdps(exact.DPS + 10):
        low = exact_correction_dim(beta_fast, d, b, length)
        high = exact_correction_dim(beta_slow, d, b, length)
        if truncate:
            low, high = mpmath.floor(low), mpmath.ceil(high)
        low, high = max(low, mpmath.mpf(0)), min(high, mpmath.mpf(d - 1))
        if low == high:
            high += mpmath.mpf("0.001")
        ramp = min(max((i - low) / (high - low), mpmath.mpf(0)), mpmath.mpf(1))
        t = exact.theta(i, d, b)
        return +(t / s * ramp + t * (1 - ramp))


def yarn_lengths(low: float, high: float, d: int, b: float, fast=32.0, slow=1.0):
    """The original lengths L for which find_correction_range gives (low, high) with
    truncation: an interval (lo, hi), or None."""

    # floor(i(fast)) = low: low <= i < low + 1; ceil(i(slow)) = high: high - 1 < i <= high,
    # with i(n) = d·ln(L/(2πn)) / (2 ln b) increasing in L.
    def length(index: float, n: float) -> float:
        return 2 * math.pi * n * b ** (2 * index / d)

    lo = max(length(low, fast) if low > 0 else 0.0, length(high - 1, slow))
    hi = min(length(low + 1, fast), length(high, slow) if high < d - 1 else math.inf)
    return (lo, hi) if lo < hi else None


# The settings issue 24 states: b = 10⁴, d = 128, L = 4096, s = 16, α = 1, β = 32, pair 38.
CLAIMED = {
    "dim": 128,
    "base": 10000.0,
    "factor": 16.0,
    "original": 4096,
    "alpha": 1.0,
    "beta": 32.0,
}
CLAIMED_PAIR = 38


def _claims() -> list[Claim]:
    """Issue 24's YaRN numbers at pair 38: the code, the paper, and their ratio."""
    d, b, s, L = CLAIMED["dim"], CLAIMED["base"], CLAIMED["factor"], CLAIMED["original"]
    i = CLAIMED_PAIR
    code64 = yarn_frequencies(d, b, s, L, beta_fast=32, beta_slow=1)[i]
    code32 = yarn_frequencies(d, b, s, L, beta_fast=32, beta_slow=1, arithmetic="float32")[i]
    paper64 = yarn_paper_frequencies(d, b, s, L, alpha=CLAIMED["alpha"], beta=CLAIMED["beta"])[i]
    code = exact_frequency(i, d, b, s, L, 32, 1)
    paper = yarn_paper(i, d, b, s, L, 1, 32)
    with mpmath.workdps(DPS + 10):
        ratio = code / paper
    where = f"pair {i}, b = 10⁴, d = 128, L = 4096, s = 16"
    return [
        claim(
            "yarn_code_pair_38",
            f"YaRN reference code θ′ ({where}, β_fast 32, β_slow 1)",
            "1.4800e-3",
            code64,
            code,
            code32,
        ),
        claim(
            "yarn_paper_pair_38",
            f"YaRN paper §3.2 θ′ ({where}, α 1, β 32)",
            "4.8661e-4",
            paper64,
            paper,
        ),
        claim(
            "yarn_code_over_paper_pair_38",
            "code θ′ / paper θ′ at pair 38",
            "3.04",
            code64 / paper64,
            ratio,
        ),
    ]


def _property_rows(at: twin.Sampling) -> list[list]:
    """This method's rows of the rope_scaling twin (numeric.rope.properties)."""
    rows = []
    for arithmetic, u in (("float64", twin.U), ("float32", twin.U32)):
        within = falling = -math.inf
        steps = 0.0
        for (d, b, s, length), (fast, slow) in itertools.product(
            twin.grid(), ((32.0, 1.0), (4.0, 1.0))
        ):
            theta = default_frequencies(d, b, arithmetic=arithmetic).astype(np.float64)
            new = yarn_frequencies(
                d, b, s, length, beta_fast=fast, beta_slow=slow, arithmetic=arithmetic
            ).astype(np.float64)
            within = max(within, float(np.max(np.maximum(theta / s - new, new - theta) / theta)))
            falling = max(falling, twin.falling(new))
            low, high = yarn_correction_range(fast, slow, d, b, length, truncate=True)
            ramp = yarn_ramp(low, high, d // 2, arithmetic=arithmetic).astype(np.float64)
            steps = max(
                steps, float(np.max(np.abs(np.diff(ramp)))) * (high - low if high > low else 1)
            )
            # Each ramp value is within u of its real value, so a step is within 3u of 1/(high − low).
            step_bound = 1 + 3 * u * max(twin.DIMS)
        cases = f"{2 * twin.cases()} settings (β 32/1 and 4/1), {arithmetic}"
        rows += [
            twin.row(
                "YaRN (code)", "θ_i/s <= θ′_i <= θ_i (excess, relative)", cases, within, 4 * u
            ),
            twin.row("YaRN (code)", "θ′_i falls with i: max (next/this − 1)", cases, falling, 0.0),
            twin.row(
                "YaRN (code)",
                "ramp steps between pairs ≤ 1/(high − low): no jump at the ends (ratio)",
                cases,
                steps,
                step_bound,
            ),
        ]
    jump = 0.0
    falling = -math.inf
    for d, b, s, length in twin.grid():
        new = yarn_paper_frequencies(d, b, s, length)
        falling = max(falling, twin.falling(new))
        for edge in (1.0, 32.0):
            for eps in (1e-3, 1e-6, 1e-9):
                below, above = yarn_paper_ramp(np.array([edge - eps, edge + eps]), 1.0, 32.0)
                jump = max(jump, abs(above - below) / (2 * eps / 31))
    cases = f"{twin.cases()} settings"
    rows += [
        twin.row(
            "YaRN (paper)",
            "γ continuous at r = α, β: |γ(r+ε) − γ(r−ε)| / (2ε/(β−α))",
            "ε = 1e-3, 1e-6, 1e-9",
            jump,
            1 + 1e-6,
        ),
        twin.row("YaRN (paper)", "θ′_i falls with i: max (next/this − 1)", cases, falling, 0.0),
    ]
    # cos and sin scaled by the attention factor m scale every logit by m².
    rng = np.random.default_rng(1)
    freqs = yarn_frequencies(128, 10000.0, 16.0, 4096)
    m = yarn_attention_factor(16.0)
    at_m, at_n = at.m, at.n
    samples = len(at_m)
    q, k = rng.standard_normal((samples, 128)), rng.standard_normal((samples, 128))
    plain = np.einsum("nd,nd->n", apply_rope(q, at_m, freqs), apply_rope(k, at_n, freqs))
    scaled = np.einsum(
        "nd,nd->n",
        apply_rope(q, at_m, freqs, attention_factor=m),
        apply_rope(k, at_n, freqs, attention_factor=m),
    )
    norms = np.linalg.norm(q, axis=1) * np.linalg.norm(k, axis=1)
    cases = f"{samples} (m, n) below {at.max_position}, s = 16, factor {m:.6f}"
    rows += [
        twin.row(
            "YaRN",
            "cos, sin × m ⇒ logits × m²: |scaled − m²·plain| / (m²‖q‖‖k‖)",
            cases,
            np.max(np.abs(scaled - m * m * plain) / (m * m * norms)),
            2 * (48 + 128) * twin.U,
        ),
        twin.row(
            "YaRN",
            "logits × m: |scaled − m·plain| / (m²‖q‖‖k‖)",
            cases,
            np.max(np.abs(scaled - m * plain) / (m * m * norms)),
            2 * (48 + 128) * twin.U,
            "refuted",
        ),
    ]
    claims = {c.name: c for c in rope_claims()}
    code, paper = claims["yarn_code_pair_38"], claims["yarn_paper_pair_38"]
    rows.append(
        twin.row(
            "YaRN",
            "paper §3.2 = code at pair 38: code/paper − 1",
            f"b 1e4, d 128, L 4096, s 16: code {code.float64:.5g} (mpmath {float(code.exact):.10g}), paper {paper.float64:.5g} (mpmath {float(paper.exact):.10g})",
            code.float64 / paper.float64 - 1,
            16 * twin.U,
            "refuted",
        )
    )
    return rows


class Yarn(ScalingMethod):
    name = rope_type = "yarn"
    label = short = "YaRN"
    order = 4
    bugs = ("yarn_factor_dropped", "yarn_factor_twice")
    keys = (
        "factor",
        "original_max_position_embeddings",
        "beta_fast",
        "beta_slow",
        "truncate",
        "mscale",
        "mscale_all_dim",
        "attention_factor",
    )
    attention_verdicts = True

    def read(self, reading: Reading) -> dict[str, object]:
        original = reading.original_length(self.name)
        truncate = reading.rope.get("truncate", True)
        if not isinstance(truncate, bool):
            raise ValueError(
                f"{reading.name('truncate')} must be true or false, got {shown(truncate)}"
            )
        # transformers reads `rope_parameters_dict.get("beta_fast") or 32`: null means 32.
        fast = reading.optional("beta_fast", BETA)
        slow = reading.optional("beta_slow", BETA)
        return {
            "original_max_position_embeddings": original,
            "factor": reading.factor_or_ratio(self.name, original),
            "beta_fast": fast or 32.0,
            "beta_slow": slow or 1.0,
            "truncate": truncate,
            "mscale": reading.optional("mscale", MSCALE),
            "mscale_all_dim": reading.optional("mscale_all_dim", MSCALE),
            "attention_factor": reading.optional("attention_factor", SCALE),
        }

    def frequencies(self, config, seq_len: int | None, arithmetic: str) -> np.ndarray:
        return yarn_frequencies(
            config.rotary_dim,
            config.base,
            config.factor,
            config.original_max_position_embeddings,
            beta_fast=config.beta_fast,
            beta_slow=config.beta_slow,
            truncate=config.truncate,
            arithmetic=arithmetic,
        )

    def attention(self, config) -> tuple[float, str]:
        m = yarn_attention_factor(
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

    def exact(self, config, i: int, seq_len: int | None = None) -> mpmath.mpf:
        return exact_frequency(
            i,
            config.rotary_dim,
            config.base,
            config.factor,
            config.original_max_position_embeddings,
            config.beta_fast,
            config.beta_slow,
            config.truncate,
        )

    def from_config(self, config, seq_len: int, fit: CacheFit) -> list[Scaling]:
        d, b, L = config.rotary_dim, config.base, config.original_max_position_embeddings
        low, high = yarn_correction_range(
            config.beta_fast, config.beta_slow, d, b, L, truncate=config.truncate
        )
        params = {
            "factor": config.factor,
            "beta_fast": config.beta_fast,
            "beta_slow": config.beta_slow,
            "original_max_position_embeddings": L,
            "truncate": config.truncate,
            "ramp": [float(low), float(high)],
        }
        for key in ("mscale", "mscale_all_dim"):
            if getattr(config, key) is not None:
                params[key] = getattr(config, key)
        model = self.frequencies(config, seq_len, "float64")
        return [Scaling(self.name, b, params, model, source="config")]

    def from_cache(self, fit: CacheFit) -> list[Scaling]:
        return [c for b in fit.head_bases for c in self._with_base(fit, b)]

    def _with_base(self, fit: CacheFit, b: float) -> list[Scaling]:
        """YaRN read from the ratio to b's default frequencies: a linear ramp in the pair index."""
        theta, bound = fit.theta, fit.bound
        default = default_frequencies(fit.d, b)
        ratio = theta / default
        room = (bound + MODEL_ULPS * theta) / default
        pairs = len(theta)
        if pairs < 4 or abs(ratio[-1] - ratio[-2]) > room[-1] + room[-2]:
            return []
        s = 1 / ratio[-1]
        if not 1 + 1e-6 < s <= FACTOR.high:
            return []
        ramp = (1 - ratio) / (1 - 1 / s)
        slack = room / (1 - 1 / s)
        zero = np.abs(ramp) <= slack
        one = np.abs(ramp - 1) <= slack
        if not zero[0]:
            return []
        low = int(np.argmin(zero)) - 1 if not zero.all() else pairs - 1
        high = pairs - int(np.argmin(one[::-1])) if not one.all() else 0
        if high <= low:
            return []
        factor = nice_factor(s, max(1e-4, 2 * room[-1] / ratio[-1])) or float(s)
        found = []
        for truncate in (True, False):
            if truncate:
                ends = (float(low), float(high))
            else:
                inside = np.arange(low + 1, high)
                if inside.size < 2:
                    continue
                slope, start = np.polyfit(inside, ramp[inside], 1)
                ends = (float(-start / slope), float((1 - start) / slope))
                if not all(math.isfinite(e) for e in ends):
                    continue
            kept = 1 - yarn_ramp(ends[0], ends[1], pairs)
            model = default / factor * (1 - kept) + default * kept
            params = {"factor": factor, "ramp": [ends[0], ends[1]], "truncate": truncate}
            found.append(Scaling(self.name, b, params, model))
        return found

    def named(self, found: Scaling, d: int) -> Scaling:
        """Without a configuration: β_fast = 32 and β_slow = 1 (transformers' defaults)
        assumed, and L named when a power of two gives the ramp."""
        low, high = found.parameters["ramp"]
        params = dict(found.parameters)
        if not params["truncate"]:
            return found
        span = yarn_lengths(low, high, d, found.base)
        if span is None:
            return found
        lengths = [L for L in _POWERS_OF_TWO if span[0] < L <= span[1]]
        params.update({"beta_fast": 32.0, "beta_slow": 1.0})
        if lengths:
            params["original_max_position_embeddings"] = lengths[0]
        params["original_max_position_embeddings_range"] = [span[0], span[1]]
        assumed = ("beta_fast", "beta_slow", "original_max_position_embeddings")
        return replace(found, parameters=params, assumed=assumed)

    def cache_attention(self, found: Scaling) -> tuple[float, str] | None:
        s = found.parameters["factor"]
        return yarn_mscale(s), f"YaRN's 0.1·ln s + 1 at s = {s:g}"

    def assumed(self, found: Scaling) -> str | None:
        low, high = found.parameters["ramp"]
        span = found.parameters.get("original_max_position_embeddings_range")
        lengths = "" if span is None else f" for L in ({span[0]:.0f}, {span[1]:.0f}]"
        return (
            f"the cache fixes YaRN's ramp (pairs {low:g} to {high:g}), not β_fast, β_slow and "
            f"L apart: transformers' defaults β_fast = 32, β_slow = 1 give it{lengths}; give "
            "the config to check its values"
        )

    def attention_finding(
        self, verdict: str, value: float, expected: float, rule: str
    ) -> tuple[str, str] | None:
        m, e = value, expected
        if verdict == "dropped":
            return (
                "yarn_factor_dropped",
                f"YaRN's attention factor is dropped: cos and sin carry m = {m:.6g}, the config "
                f"gives {e:.6g} ({rule}), so logits scale by {m * m:.6g} instead of "
                f"{e * e:.6g} (vllm #48623)",
            )
        if verdict == "applied twice":
            return (
                "yarn_factor_twice",
                f"YaRN's attention factor is applied twice: cos and sin carry m = {m:.6g} = "
                f"{e:.6g}² ({rule}), so logits scale by {m * m:.6g} instead of "
                f"{e * e:.6g} (sglang #33558: 1.4852 became 2.2058)",
            )
        return None

    def figure_curves(self, dim, base, factor, original) -> list[tuple[str, np.ndarray]]:
        """The code with β 32 and 1, the paper's ramp, and the code with β 4 and 1 (what
        Llama 3's low 1 and high 4 become when read as YaRN)."""
        return [
            (r"YaRN, code ($\beta$ 32, 1)", yarn_frequencies(dim, base, factor, original)),
            (
                r"YaRN, paper §3.2 ($\alpha$ 1, $\beta$ 32)",
                yarn_paper_frequencies(dim, base, factor, original),
            ),
            (
                r"YaRN, code ($\beta$ 4, 1)",
                yarn_frequencies(dim, base, factor, original, beta_fast=4.0, beta_slow=1.0),
            ),
        ]

    def claims(self) -> list[Claim]:
        return _claims()

    def property_rows(self, at: twin.Sampling) -> list[list]:
        return _property_rows(at)


METHOD = Yarn()
