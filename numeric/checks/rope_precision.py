"""Exact facts about the floating-point formats RoPE runs in: the twin of rope_precision.

Rows:
- fl_bf16(257) = 256, so positions 257 and 256 get the same cache row in bfloat16;
- fl_fp16(2049) = 2048 and fl_fp16(10002) = 10000;
- every integer up to 2²⁴ is exact in float32 (all checked) and 2²⁴ + 1 is not; likewise up to
  2048 in float16 and 256 in bfloat16;
- with positions cast to float16, the score at (10002, 10000) is the score at (10000, 10000),
  a distance-0 score, not the distance-2 one: refuted that RoPE stays relative;
- inv_freq rounded to bfloat16 (transformers #29496): the phase p·θ̂_i computed in float32 is
  within p·θ_i·(2⁻⁸ + 2⁻²²) of p·θ_i (2⁻⁸ for bfloat16's rounding; the float32 inv_freq, the
  float32 product and their cross terms stay below 2⁻²²); the bound p·θ_i·2⁻⁹ fails: bfloat16
  keeps 8 significant bits, so its unit roundoff is 2⁻⁸, not 2⁻⁹;
- a cache computed in float16 (gpt-neox #1003) is not within float16 rounding of the exact one.

Exact values come from integer arithmetic (numeric.rope.claims.round_integer), independent of
the NumPy rounding under test.
"""

from __future__ import annotations

import numpy as np

from numeric import validate
from numeric.checks.rope_layouts import score_tolerance
from numeric.result_table import Table
from numeric.rope.apply import apply_cache, apply_rope
from numeric.rope.cache import rope_cache
from numeric.rope.claims import round_integer
from numeric.rope.floats import round_to, significand_bits
from numeric.rope.scaling import default_frequencies

_U32 = 2.0**-24


def _rounding_rows() -> list[tuple]:
    rows = []
    for n, fmt in ((257, "bfloat16"), (2049, "float16"), (10002, "float16")):
        got = float(round_to(float(n), fmt))
        want = round_integer(n, significand_bits(fmt))
        rows.append(
            (
                f"fl_{fmt}({n}) = {want}",
                f"NumPy rounding gives {got:g}",
                abs(got - want),
                0.0,
                "holds",
            )
        )
    freqs = default_frequencies(128, 10000.0, arithmetic="float32")
    cos, sin = rope_cache(
        freqs, np.array([256, 257]), dtype="bfloat16", positions_format="bfloat16"
    )
    same = max(float(np.abs(cos[0] - cos[1]).max()), float(np.abs(sin[0] - sin[1]).max()))
    rows.append(
        (
            "bf16 positions: rows 256 and 257 are equal",
            "cache built as transformers does",
            same,
            0.0,
            "holds",
        )
    )
    return rows


def _exact_integer_rows() -> list[tuple]:
    rows = []
    for fmt in ("float32", "float16", "bfloat16"):
        limit = 2 ** significand_bits(fmt)
        worst = 0.0
        for a in range(0, limit + 1, 2**20):
            n = np.arange(a, min(a + 2**20, limit + 1), dtype=np.float64)
            worst = max(worst, float(np.abs(round_to(n, fmt).astype(np.float64) - n).max()))
        miss = float(round_to(float(limit + 1), fmt)) - (limit + 1)
        rows.append(
            (
                f"every integer 0 … 2^{significand_bits(fmt)} is exact in {fmt}",
                f"all {limit + 1}",
                worst,
                0.0,
                "holds",
            )
        )
        rows.append(
            (
                f"2^{significand_bits(fmt)} + 1 is exact in {fmt}",
                f"rounds to {limit + 1 + miss:.0f}",
                abs(miss),
                0.0,
                "refuted",
            )
        )
    return rows


def _fp16_position_rows(rng: np.random.Generator, head_dim: int) -> list[tuple]:
    freqs = default_frequencies(head_dim, 10000.0, arithmetic="float32")
    q, k = rng.standard_normal(head_dim), rng.standard_normal(head_dim)
    at = np.array([10002, 10000])
    # Exact arithmetic but float16 positions: the position rounding alone.
    cos, sin = rope_cache(
        freqs, at, dtype="float64", arithmetic="exact", positions_format="float16"
    )
    rq, rk = (
        apply_cache(np.stack([q, q]), cos, sin, layout="rotate_half"),
        apply_cache(np.stack([k, k]), cos, sin, layout="rotate_half"),
    )
    s_far, s_zero = float(rq[0] @ rk[1]), float(rq[1] @ rk[1])
    norms = float(np.linalg.norm(q) * np.linalg.norm(k))
    distance_two = float(q @ apply_rope(k[None, :], np.array([-2]), freqs)[0])
    return [
        (
            "fp16 positions: score(10002, 10000) = score(10000, 10000)",
            f"the same cache rows; both {s_far:.6g}, ⟨q, k⟩ = {float(q @ k):.6g}",
            abs(s_far - s_zero) / norms,
            0.0,
            "holds",
        ),
        (
            "fp16 positions: score(10002, 10000) = the distance-2 score ⟨q, R(−2)k⟩",
            f"{s_far:.6g} against {distance_two:.6g}",
            abs(s_far - distance_two) / norms,
            score_tolerance(head_dim),
            "refuted",
        ),
    ]


def _phase_rows(head_dim: int, base: float, max_position: int) -> list[tuple]:
    """Phase of a bf16 inv_freq against the exact p·θ_i, relative to p·θ_i, every p < max_position."""
    exact = default_frequencies(head_dim, base)
    rounded = round_to(default_frequencies(head_dim, base, arithmetic="float32"), "bfloat16")
    worst = worst_radians = 0.0
    for a in range(1, max_position, 8192):
        p = np.arange(a, min(a + 8192, max_position), dtype=np.float32)[:, None]
        phase = (p * rounded[None, :]).astype(np.float64)
        true = p.astype(np.float64) * exact[None, :]
        error = np.abs(phase - true)
        worst = max(worst, float(np.max(error / true)))
        worst_radians = max(worst_radians, float(error.max()))
    case = f"every p < {max_position}, d {head_dim}, b {base:g}; up to {worst_radians:.3g} rad"
    return [
        (
            "bf16 inv_freq: |phase − p·θ_i| <= p·θ_i·(2⁻⁸ + 2⁻²²)",
            case,
            worst,
            2.0**-8 + 2.0**-22,
            "holds",
        ),
        (
            "bf16 inv_freq: |phase − p·θ_i| <= p·θ_i·2⁻⁹ (the bound stated in pe-proofs issue 24)",
            case,
            worst,
            2.0**-9,
            "exceeds",
        ),
    ]


def _fp16_cache_row(head_dim: int) -> tuple:
    freqs = default_frequencies(head_dim, 10000.0, arithmetic="float32")
    positions = np.arange(2048)
    half, _ = rope_cache(freqs, positions, dtype="float64", arithmetic="float16")
    exact, _ = rope_cache(freqs, positions, dtype="float64", arithmetic="exact")
    worst = float(np.abs(half - exact).max())
    return (
        "cache computed in float16 is within float16 rounding (2⁻¹¹) of the exact cache",
        "cos, every p < 2048",
        worst,
        2.0**-11,
        "exceeds",
    )


def rope_precision_table(
    *, head_dim: int = 128, base: float = 10000.0, max_position: int = 131072, seed: int = 0
) -> Table:
    """The floating-point facts and their consequences for RoPE; see the module docstring."""
    head_dim = validate.d_model(head_dim, "head_dim")
    base = validate.base(base)
    max_position = validate.max_len(max_position, "max_position")
    if max_position < 2:
        raise ValueError(f"max_position must be at least 2, got {max_position}")
    rng = np.random.default_rng(validate.integer(seed, "seed"))
    rows = (
        _rounding_rows()
        + _exact_integer_rows()
        + _fp16_position_rows(rng, head_dim)
        + _phase_rows(head_dim, base, max_position)
        + [_fp16_cache_row(head_dim)]
    )
    checked = []
    for claim, case, value, bound, expected in rows:
        if expected == "holds":
            ok = value <= bound
        elif expected == "exceeds":
            ok = value > bound
        else:
            ok = value > 0 if bound == 0 else value > 1e6 * bound
        checked.append((claim, case, float(value), float(bound), expected, ok))
    return Table(
        title=f"RoPE and floating point, head_dim = {head_dim}, b = {base:g}",
        headline="positions collide in bf16 and fp16; the bf16 phase bound",
        columns=("claim", "case", "measured", "bound", "expected", "as expected"),
        rows=tuple(checked),
        formats=("", "", ".4g", ".4g", "", ""),
        note=(
            "holds: measured <= bound (0 means exact); refuted: measured > 0 for exact facts, else "
            "above a million times the rounding bound; exceeds: the stated bound is broken"
        ),
        passed=all(r[-1] for r in checked),
    )
