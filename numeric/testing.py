"""Test helpers for engine authors: check a RoPE implementation against the exact mathematics.

assert_rope_matches(apply_rope, config) probes the function with basis vectors
(numeric.audit_rope_function), compares every pair at every position with the exact rotation
the configuration defines (its frequencies and attention factor as transformers computes
them, angles reduced exactly), and fails with one message naming the first pair and position
that differ and the bug class the audit found. The tolerance comes from the dtype: one rounding
of the values the function returns, plus what computing each pair's angle p·θ in float32
costs (m·u₃₂·((8 + 3·|ln θ|)·p·θ + 4), the float32 cap of numeric.audit.grading), so
torch-style float32 code passes and 16-bit angle arithmetic does not.

    def test_my_rope():
        assert_rope_matches(my_apply_rope, "config.json", positions=8192, dtype="float32")
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from numeric.audit.grading import cap
from numeric.audit.precision import rounding_bound
from numeric.rope import rope_frequencies
from numeric.rope.cache import exact_rotations
from numeric.rope.methods import scaling_methods
from numeric.rope_audit.config_file import read_config
from numeric.rope_audit.function import probe_function
from numeric.rope_audit.result import RopeAudit

# Which finding explains a failure best: the configuration's classes first, then structure.
_PRIORITY = (
    "wrong_permutation",
    "interleaved_frequencies_with_rotate_half",
    *(bug for method in scaling_methods() for bug in method.bugs),
    "scaling_mismatch",
    "rotary_width",
    "attention_factor",
    "fp16_cache",
    "bf16_inv_freq",
    "fp16_inv_freq",
    "fp16_positions",
    "bf16_positions",
    "position_offset",
)


def _explanation(audit: RopeAudit) -> tuple[str, str]:
    """(bug class, sentence) of the fault that explains the failure best."""
    for wanted in _PRIORITY:
        for fault in audit.faults:
            if fault["bug"] == wanted:
                return fault["bug"], fault["text"]
    if audit.faults:
        return audit.faults[0]["bug"], audit.faults[0]["text"]
    return "unexplained", audit.findings[-1] if audit.findings else "no finding"


_BITS = {"bfloat16": 8, "float16": 11, "float32": 24, "float64": 53}


def _narrower(audit: RopeAudit, dtype: str) -> tuple[str, str] | None:
    """(bug class, sentence) when the function's results carry fewer bits than x's dtype."""
    held = audit.precision.get("stored")
    if held not in ("float16", "bfloat16") or _BITS[held] >= _BITS[dtype]:
        return None
    bug = "fp16_cache" if held == "float16" else "bf16_cache"
    return bug, (
        f"the rotations carry only {held} precision though x is {dtype}: the cos/sin cache is "
        f"kept in {held} (gpt-neox #1003's class; here {audit.precision.get('grade')})"
    )


def _first_difference(
    probed_cos: np.ndarray,
    probed_sin: np.ndarray,
    positions: np.ndarray,
    theta: np.ndarray,
    m: float,
    precision: str,
) -> tuple[int, int, float, float, complex, complex] | None:
    """(pair, row, error, tolerance, got, want) at the first position where a pair is off."""
    pairs = len(theta)
    got = probed_cos[:, :pairs] + 1j * probed_sin[:, :pairs]
    want = m * exact_rotations(positions.astype(np.float64), theta)
    error = np.maximum(np.abs(got.real - want.real), np.abs(got.imag - want.imag))
    # Each pair at its own angle; two roundings of the stored format (cos or sin, then the
    # product with m).
    angle = np.abs(positions.astype(np.float64))[:, None] * theta
    log_theta = np.log(np.maximum(np.abs(theta), np.finfo(np.float64).tiny))
    rounding = 2 * rounding_bound(precision, max(m, 1e-300))
    tolerance = cap("float32", rounding, m, angle, log_theta)
    off = error > tolerance
    if not off.any():
        return None
    row = int(np.argmax(off.any(axis=1)))
    pair = int(np.argmax(off[row]))
    return (
        pair,
        row,
        float(error[row, pair]),
        float(tolerance[row, pair]),
        got[row, pair],
        want[row, pair],
    )


def assert_rope_matches(
    apply_rope: Callable[[np.ndarray, np.ndarray], np.ndarray],
    config: Mapping | str | Path,
    *,
    positions: object = None,
    dtype: str = "float32",
    layer_type: str | None = None,
    convention: str | None = None,
) -> RopeAudit:
    """Fail (AssertionError, one message) unless apply_rope is the configuration's RoPE.

    apply_rope: apply_rope(x, positions) -> rotated x, NumPy in and out, x of shape (...,
    len(positions), head_dim); config: a Hugging Face config (dict or path to config.json);
    positions: where to probe (a count or the positions; default 0 .. 4095); dtype: the dtype
    of x, which sets the tolerance; layer_type: the entry of a config nested by layer type;
    convention: the pairing the model expects (default: interleaved when the config sets
    rope_interleave, else rotate_half, transformers' layout). Returns the audit when it passes.
    """
    facts = read_config(config, layer_type=layer_type)
    if len(facts.layers) != 1:
        kinds = ", ".join(str(k) for k in facts.layers)
        raise ValueError(f"the config is nested by layer type: give layer_type= one of {kinds}")
    layer = next(iter(facts.layers.values()))
    expected = convention or facts.convention or "rotate_half"
    found, at, audit = probe_function(
        apply_rope,
        head_dim=layer.head_dim,
        positions=positions,
        dtype=dtype,
        config=config,
        layer_type=layer_type,
        convention=expected,
    )
    narrow = _narrower(audit, dtype)
    if audit.sound and narrow is None:
        return audit
    bug, why = narrow if audit.sound and narrow else _explanation(audit)
    reference = rope_frequencies(layer, seq_len=int(at.max()) + 1, arithmetic="float64")
    # The tolerance is the dtype's: one rounding of x's format, then float32 arithmetic.
    precision = "float32" if dtype == "float64" else dtype
    place = ""
    if audit.convention not in (None, expected) or not found.pairs:
        place = f"pair 0 at position {int(at[1])}: "
    elif len(found.pairs) == layer.pairs:
        first = _first_difference(
            found.cos, found.sin, at, reference.inv_freq, reference.attention_factor, precision
        )
        if first is not None:
            pair, row, error, tolerance, got, want = first
            a, b = found.pairs[pair]
            place = (
                f"pair {pair} (components {a} and {b}) at position {int(at[row])}: component {a} "
                f"goes to ({got.real:.6g}, {got.imag:.6g}) on ({a}, {b}), the config's RoPE "
                f"sends it to ({want.real:.6g}, {want.imag:.6g}) (error {error:.2g}, tolerance "
                f"{tolerance:.2g} for {dtype}); "
            )
    raise AssertionError(f"apply_rope is not the config's RoPE: {place}bug class {bug}: {why}")
