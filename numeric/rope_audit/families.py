"""Name the scaling method and its parameters from the fitted frequencies alone.

Every method is a map θ_i ↦ θ′_i of the default frequencies θ_i = b^(−2i/d), and each method
of the registry (numeric.rope.methods) says how it is recognised: its candidates built from the
configuration (from_config) and from the data (from_cache). Each candidate is accepted only if
its frequencies agree with every fitted one within the fit's bound
(numeric.rope.round_numbers.misfit); the first that agrees is the answer: the configuration's
own method first, then the methods in the registry's order (none, linear, dynamic, NTK-aware,
YaRN, Llama 3, ...); a method that names what the cache leaves open does so (named); when
nothing agrees, the configuration's method may read its parameters off the cache (read_off:
LongRoPE's rescale vector); else the frequencies are geometric with a base that is not round,
or custom. When no candidate agrees as computed, each is tried again with its frequencies
rounded to bfloat16 or float16 first (inv_freq left in a 16-bit buffer: transformers #29496).

One file because it is one decision: every method's candidates are tried against the same
fitted frequencies with the same bound, and the first that fits every pair names the method;
split, the order and the shared bound would drift.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from numeric.rope.config import RopeConfig
from numeric.rope.method import CacheFit, Scaling
from numeric.rope.methods import by_name, no_scaling, scaling_methods
from numeric.rope.parameters import BASE
from numeric.rope.round_numbers import MODEL_ULPS, misfit, rounded_misfit
from numeric.rope.scaling import default_frequencies

__all__ = ["Scaling", "identify_scaling"]
_ROUNDINGS = ("bfloat16", "float16")


def _geometric(theta: np.ndarray, bound: np.ndarray) -> tuple[float, float]:
    """(ln θ_0, ln ratio) of the weighted least-squares line through ln θ_i over every pair."""
    i = np.arange(len(theta)).astype(np.float64)
    w = (theta / (bound + MODEL_ULPS * theta)) ** 2
    slope, intercept = np.polyfit(i, np.log(theta), 1, w=np.sqrt(w))
    return float(intercept), float(slope)


def _head_base(theta: np.ndarray, bound: np.ndarray, d: int) -> float | None:
    """The base of the longest run of leading pairs that is geometric from θ_0 = 1."""
    best = None
    for k in range(1, len(theta)):
        head = slice(0, k + 1)
        with np.errstate(over="ignore"):
            base = float(theta[k] ** (-d / (2 * k)))
        if not BASE.holds(base):
            break
        if misfit(theta[head], bound[head], default_frequencies(d, base)[head]) > 1:
            if best is None:
                best = base
            break
        best = base
    return best


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
    if len(theta) < 2 or np.any(theta <= 0) or not np.all(np.isfinite(theta)):
        return Scaling("custom", None, {}, None)
    usable = config is not None and config.rotary_dim == d
    intercept, slope = _geometric(theta, bound)
    fit = CacheFit(
        theta,
        bound,
        d,
        (config.base,) if usable else (),  # type: ignore[union-attr]
        intercept,
        slope,
        _head_base(theta, bound, d),
    )
    own = config.method.from_config(config, seq_len or 1, fit) if usable else []  # type: ignore[union-attr]
    rest = [c for method in scaling_methods() for c in method.from_cache(fit)]
    chosen = _first_agreeing(theta, bound, own + rest)
    if chosen is None and usable:
        chosen = config.method.read_off(fit, config)  # type: ignore[union-attr]
    if chosen is None:
        return _plain_or_custom(fit)
    if chosen.source == "cache":
        chosen = by_name(chosen.type).named(chosen, d)  # type: ignore[union-attr]
    return chosen


def _plain_or_custom(fit: CacheFit) -> Scaling:
    """Geometric from 1 with a base that is not round, or custom."""
    fitted = fit.fitted
    if fitted is not None:
        model = default_frequencies(fit.d, fitted)
        m = misfit(fit.theta, fit.bound, model)
        if m <= 1:
            return Scaling(no_scaling().name, fitted, {"base_is_round": False}, model, misfit=m)  # type: ignore[union-attr]
    return Scaling("custom", None, {}, None)
