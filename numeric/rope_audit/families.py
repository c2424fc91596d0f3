"""Name the scaling method and its parameters from the fitted frequencies alone.

Every method is a map θ_i ↦ θ′_i of the default frequencies θ_i = b^(−2i/d) (numeric.rope.scaling
holds them as transformers computes them). Candidates are built from the data, then each is
accepted only if its frequencies agree with every fitted one within the fit's bound
(numeric.rope_audit.rounding.misfit); the first that agrees, in the order below, is the answer:
- none: geometric from θ_0 = 1 with a round base;
- linear: geometric from θ_0 = 1/s;
- ntk: geometric from 1 with base b·s^(d/(d−2)), b round and s a round factor;
- dynamic: the same base at a sequence length l (needs the configuration's b, s and L);
- yarn: the ratio θ′_i/θ_i is 1 on the fast pairs, 1/s on the slow ones and linear in i between
  (the ramp's ends low and high are what the cache fixes; β_fast, β_slow and L are read from
  the configuration, or the defaults 32 and 1 assumed and L named from them);
- llama3: the same ratio, linear in θ_i (not i) between the wavelengths L/high and L/low (only
  those two wavelengths are fixed by the cache; with low_freq_factor assumed 1 without a
  configuration);
- longrope: θ′_i = θ_i/λ_i: with the configuration's base, λ is read off and compared with its
  short and long factors (without a configuration, any base fits some λ: not named);
- custom: nothing agrees.
When no candidate agrees as computed, each is tried again with its frequencies rounded to
bfloat16 or float16 first (inv_freq left in a 16-bit buffer: transformers #29496).

One file because it is one decision: every family's test (none, linear, NTK-aware, dynamic, YaRN,
Llama 3, LongRoPE) is tried against the same fitted frequencies with the same bound, and the
first that fits every pair names the method; split, the order and the shared bound would drift.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from numeric.rope import scaling as methods
from numeric.rope.config import RopeConfig
from numeric.rope_audit.rounding import (
    MODEL_ULPS,
    misfit,
    nice_factor,
    round_candidates,
    rounded_misfit,
)

TYPES = ("none", "linear", "dynamic", "ntk", "yarn", "llama3", "longrope", "custom")
_ROUNDINGS = ("bfloat16", "float16")
_POWERS_OF_TWO = [2**k for k in range(8, 24)]


@dataclass(frozen=True)
class Scaling:
    """type: one of TYPES; base: b (the configuration's rope_theta); parameters: the method's
    parameters by their Hugging Face names (plus what the cache fixes: yarn's "ramp", llama3's
    wavelengths, dynamic's "seq_len", ntk's scaled "base"); theta: the model's frequencies in
    float64; rounded_to: the 16-bit format the frequencies were rounded to, or None; assumed:
    parameters the cache does not fix, set to a default; misfit: the largest |θ − model| in
    units of its bound; source: "config" when the configuration's own method and parameters
    agree with the cache, "cache" when read from the cache alone."""

    type: str
    base: float | None
    parameters: dict = field(default_factory=dict)
    theta: np.ndarray | None = None
    rounded_to: str | None = None
    assumed: tuple[str, ...] = ()
    misfit: float = math.inf
    source: str = "cache"

    def to_json(self) -> dict:
        """{"type": ..., parameters...}: the scaling field of the audit's JSON."""
        return {"type": self.type, **self.parameters}


def _default(d: int, base: float) -> np.ndarray:
    return methods.default_frequencies(d, base)


def _geometric(theta: np.ndarray, bound: np.ndarray, pairs: slice) -> tuple[float, float]:
    """(ln θ_0, ln ratio) of the weighted least-squares line through ln θ_i over these pairs."""
    t, b = theta[pairs], bound[pairs]
    i = np.arange(len(theta))[pairs].astype(np.float64)
    w = (t / (b + MODEL_ULPS * t)) ** 2
    if len(t) == 1:
        return float(np.log(t[0])), 0.0
    slope, intercept = np.polyfit(i, np.log(t), 1, w=np.sqrt(w))
    return float(intercept), float(slope)


def _head_base(theta: np.ndarray, bound: np.ndarray, d: int) -> float | None:
    """The base of the longest run of leading pairs that is geometric from θ_0 = 1."""
    best = None
    for k in range(1, len(theta)):
        head = slice(0, k + 1)
        base = float(theta[k] ** (-d / (2 * k)))
        if not (base > 1 and math.isfinite(base)):
            break
        if misfit(theta[head], bound[head], _default(d, base)[head]) > 1:
            if best is None:
                best = base
            break
        best = base
    return best


def _none_linear_ntk(theta, bound, d, bases) -> list[Scaling]:
    intercept, slope = _geometric(theta, bound, slice(None))
    fitted = math.exp(-slope * d / 2) if slope < 0 else None
    found = []
    for b in bases + (round_candidates(fitted) if fitted else []):
        found.append(Scaling("none", b, {}, _default(d, b)))
    first = math.exp(intercept)
    factor = nice_factor(1 / first, 1e-3) if first < 1 else None
    if factor is not None and factor > 1:
        for b in bases + (round_candidates(fitted) if fitted else []):
            model = methods.linear_frequencies(d, b, factor)
            found.append(Scaling("linear", b, {"factor": factor}, model))
    if fitted and d > 2:
        exponent = math.floor(math.log10(fitted))
        for b0 in [m * 10.0**e for e in range(exponent - 3, exponent + 1) for m in (1, 2, 5)]:
            if not b0 < fitted * 0.999:
                continue
            s = nice_factor((fitted / b0) ** ((d - 2) / d), 1e-3)
            if s is None or not 1 < s <= 1000:
                continue
            grown = methods.ntk_aware_base(b0, s, d)
            found.append(Scaling("ntk", b0, {"factor": s, "base": grown}, _default(d, grown)))
    return found


def _yarn(theta, bound, d, b) -> list[Scaling]:
    """YaRN read from the ratio to b's default frequencies: a linear ramp in the pair index."""
    default = _default(d, b)
    ratio = theta / default
    room = (bound + MODEL_ULPS * theta) / default
    pairs = len(theta)
    if pairs < 4 or abs(ratio[-1] - ratio[-2]) > room[-1] + room[-2]:
        return []
    s = 1 / ratio[-1]
    if s <= 1 + 1e-6:
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
        kept = 1 - methods.yarn_ramp(ends[0], ends[1], pairs)
        model = default / factor * (1 - kept) + default * kept
        params = {"factor": factor, "ramp": [ends[0], ends[1]], "truncate": truncate}
        found.append(Scaling("yarn", b, params, model))
    return found


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


def _name_yarn_length(found: Scaling, d: int) -> Scaling:
    """Without a configuration: β_fast = 32 and β_slow = 1 (transformers' defaults) assumed,
    and L named when a power of two gives the ramp."""
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


def _llama3(theta, bound, d, b) -> list[Scaling]:
    """Llama 3 read from the ratio: smooth linear in θ_i between two wavelengths."""
    default = _default(d, b)
    ratio = theta / default
    room = (bound + MODEL_ULPS * theta) / default
    if len(theta) < 4 or abs(ratio[-1] - ratio[-2]) > room[-1] + room[-2]:
        return []
    s = 1 / ratio[-1]
    if s <= 1 + 1e-6:
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
    model = methods.llama3_frequencies(d, b, factor, 1.0, high, original)
    params = {
        "factor": factor,
        "low_freq_factor": 1.0,
        "high_freq_factor": high,
        "original_max_position_embeddings": original,
        "low_freq_wavelen": original,
        "high_freq_wavelen": original / high,
    }
    return [Scaling("llama3", b, params, model, assumed=("low_freq_factor",))]


def _from_config(config: RopeConfig, seq_len: int, theta, bound) -> list[Scaling]:
    """The configuration's own method and parameters, and what its known bugs would give."""
    d, b = config.rotary_dim, config.base
    kind = config.scaling
    found = []
    if kind == "default":
        found.append(Scaling("none", b, {}, _default(d, b), source="config"))
    elif kind == "linear":
        model = methods.linear_frequencies(d, b, config.factor)
        found.append(Scaling("linear", b, {"factor": config.factor}, model, source="config"))
    elif kind == "dynamic":
        _intercept, slope = _geometric(theta, bound, slice(None))
        length = seq_len
        if slope < 0 and d > 2:
            grown = math.exp(-slope * d / 2)
            s, L = config.factor, config.max_position_embeddings
            grown_ratio = (grown / b) ** ((d - 2) / d)
            estimate = L * (grown_ratio + s - 1) / s
            if math.isfinite(estimate) and estimate > L:
                length = round(estimate)
        for l in dict.fromkeys((seq_len, length)):
            model = methods.dynamic_ntk_frequencies(
                d, b, config.factor, l, config.max_position_embeddings
            )
            grown = methods.dynamic_ntk_base(b, config.factor, d, l, config.max_position_embeddings)
            params = {
                "factor": config.factor,
                "original_max_position_embeddings": config.max_position_embeddings,
                "seq_len": max(l, config.max_position_embeddings),
                "base": grown,
            }
            found.append(Scaling("dynamic", b, params, model, source="config"))
    elif kind == "yarn":
        model = methods.yarn_frequencies(
            d,
            b,
            config.factor,
            config.original_max_position_embeddings,
            beta_fast=config.beta_fast,
            beta_slow=config.beta_slow,
            truncate=config.truncate,
        )
        low, high = methods.yarn_correction_range(
            config.beta_fast,
            config.beta_slow,
            d,
            b,
            config.original_max_position_embeddings,
            truncate=config.truncate,
        )
        params = {
            "factor": config.factor,
            "beta_fast": config.beta_fast,
            "beta_slow": config.beta_slow,
            "original_max_position_embeddings": config.original_max_position_embeddings,
            "truncate": config.truncate,
            "ramp": [float(low), float(high)],
        }
        for key in ("mscale", "mscale_all_dim"):
            if getattr(config, key) is not None:
                params[key] = getattr(config, key)
        found.append(Scaling("yarn", b, params, model, source="config"))
    elif kind == "llama3":
        model = methods.llama3_frequencies(
            d,
            b,
            config.factor,
            config.low_freq_factor,
            config.high_freq_factor,
            config.original_max_position_embeddings,
        )
        L = config.original_max_position_embeddings
        params = {
            "factor": config.factor,
            "low_freq_factor": config.low_freq_factor,
            "high_freq_factor": config.high_freq_factor,
            "original_max_position_embeddings": L,
            "low_freq_wavelen": L / config.low_freq_factor,
            "high_freq_wavelen": L / config.high_freq_factor,
        }
        found.append(Scaling("llama3", b, params, model, source="config"))
    elif kind == "longrope":
        for which in ("short_factor", "long_factor"):
            factors = getattr(config, which)
            model = methods.longrope_frequencies(d, b, factors)
            params = {
                "factor": config.factor,
                "original_max_position_embeddings": config.original_max_position_embeddings,
                "factors_used": which,
                "rescale": list(factors),
            }
            found.append(Scaling("longrope", b, params, model, source="config"))
    return found


def _longrope_read(theta: np.ndarray, d: int, b: float) -> Scaling:
    """λ_i = θ_i(b)/θ′_i read off with the configuration's base b (no other list matched)."""
    rescale = _default(d, b) / theta
    return Scaling("longrope", b, {"rescale": rescale.tolist()}, theta.copy(), misfit=0.0)


def _first_agreeing(theta, bound, candidates: list[Scaling]) -> Scaling | None:
    """The first candidate that agrees as computed; else the first that agrees once its
    frequencies are rounded to bfloat16, then float16."""
    for c in candidates:
        m = misfit(theta, bound, c.theta)
        if m <= 1:
            return replace(c, misfit=m)
    for fmt in _ROUNDINGS:
        for c in candidates:
            m = rounded_misfit(theta, bound, c.theta, fmt)
            if m <= 1:
                return replace(c, rounded_to=fmt, misfit=m)
    return None


def identify_scaling(
    theta: np.ndarray,
    bound: np.ndarray,
    *,
    config: RopeConfig | None = None,
    seq_len: int | None = None,
) -> Scaling:
    """The scaling method whose frequencies agree with the fitted θ within bound.

    theta, bound: per pair, fitted frequencies and how far the true ones can be; config: the
    configuration whose own method is tried first, and whose base the others are tried with;
    seq_len: the length the cache covers (its largest position + 1), for dynamic and longrope.
    """
    theta = np.asarray(theta, dtype=np.float64)
    bound = np.asarray(bound, dtype=np.float64)
    d = 2 * len(theta)
    if len(theta) < 2 or np.any(theta <= 0):
        return Scaling("custom", None, {}, None)
    usable = config is not None and config.rotary_dim == d
    bases = [config.base] if usable else []
    own = _from_config(config, seq_len or 1, theta, bound) if usable else []
    rest = _none_linear_ntk(theta, bound, d, bases)
    head = _head_base(theta, bound, d)
    for b in bases + (round_candidates(head) if head else []):
        rest += _yarn(theta, bound, d, b) + _llama3(theta, bound, d, b)
    order = {name: k for k, name in enumerate(TYPES)}
    rest.sort(key=lambda c: order[c.type])
    chosen = _first_agreeing(theta, bound, own + rest)
    if chosen is None and usable and config.scaling == "longrope":
        read = _longrope_read(theta, d, config.base)
        if np.all(np.asarray(read.parameters["rescale"]) >= 1 - 1e-6):
            chosen = read
    if chosen is None:
        return _plain_or_custom(theta, bound, d)
    if chosen.type == "yarn" and chosen.source == "cache":
        chosen = _name_yarn_length(chosen, d)
    return chosen


def _plain_or_custom(theta: np.ndarray, bound: np.ndarray, d: int) -> Scaling:
    """Geometric from 1 with a base that is not round, or custom."""
    _intercept, slope = _geometric(theta, bound, slice(None))
    if slope < 0:
        fitted = math.exp(-slope * d / 2)
        model = _default(d, fitted)
        m = misfit(theta, bound, model)
        if m <= 1:
            return Scaling("none", fitted, {"base_is_round": False}, model, misfit=m)
    return Scaling("custom", None, {}, None)
