"""RoPE's rotations form a group, and a KV-cache shift is exact: the twin of rope_group.

Rows:
- R(a)·R(b) = R(a + b) for the whole head: RoPE by a, then by b, against RoPE by a + b, at
  sampled a, b in (−max_position, max_position), both layouts, caches built exactly;
- re-rotating cached keys: keys rotated to their positions n < max_position, then by Δ,
  against keys rotated to n + Δ, for every n (streamed) and each Δ (llama.cpp's context shift
  moves the kept keys back by the number of discarded tokens);
- the same shift done in float32 as an engine does it (float32 cache, float32 arithmetic), with
  the bound its rounding allows: angles m·θ off by |m·θ|·2⁻²⁴, entries and products by a few
  2⁻²⁴.

Differences are relative to ‖x‖. An exact cache entry is within 8u of cos or sin, so one
rotation of x is within 2·(8u + 2u)·‖x‖; three rotations (two chained, one direct) give 60u.
In float32 a rotation by p is within √2·(|p|·θ_max·2⁻²⁴ + 2⁻²⁴)·‖x‖ + 2·2⁻²⁴·‖x‖.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.rope.apply import apply_cache, apply_rope
from numeric.rope.cache import rope_cache
from numeric.rope.scaling import default_frequencies

_U = 2.0**-53
_U32 = 2.0**-24
_ROWS = 4096
GROUP_TOLERANCE = 60 * _U


def float32_rotation_bound(positions: np.ndarray, top_frequency: float) -> np.ndarray:
    """Bound on ‖RoPE₃₂(x, p) − RoPE(x, p)‖ / ‖x‖ for a float32 cache and float32 arithmetic."""
    return np.sqrt(2) * (np.abs(positions) * top_frequency * _U32 + _U32) + 2 * _U32


def _rotate32(x: np.ndarray, positions: np.ndarray, freqs32: np.ndarray) -> np.ndarray:
    """RoPE in float32 throughout: the cache transformers builds, applied in float32."""
    cos, sin = rope_cache(freqs32, positions, dtype="float32", arithmetic="float32")
    return apply_cache(x.astype(np.float32), cos, sin, layout="rotate_half")


def _shift(x: np.ndarray, delta: int, freqs: np.ndarray, arithmetic: str) -> np.ndarray:
    """Every row of x rotated by the one distance delta (one cache row, broadcast)."""
    dtype = "float64" if arithmetic == "exact" else "float32"
    cos, sin = rope_cache(freqs, np.array([delta]), dtype=dtype, arithmetic=arithmetic)
    shape = (x.shape[0], cos.shape[1])
    return apply_cache(
        x.astype(dtype),
        np.broadcast_to(cos, shape),
        np.broadcast_to(sin, shape),
        layout="rotate_half",
    )


def rope_group_table(
    *,
    head_dim: int = 128,
    base: float = 10000.0,
    max_position: int = 131072,
    samples: int = 2048,
    shifts: Iterable[int] = (1, -4096, -131000),
    seed: int = 0,
) -> Table:
    """The composition law and the KV-cache shift; see the module docstring.

    shifts: the Δ by which cached keys are re-rotated (n + Δ may be negative).
    """
    head_dim = validate.d_model(head_dim, "head_dim")
    base = validate.base(base)
    max_position = validate.max_len(max_position, "max_position")
    if max_position < 2:
        raise ValueError(f"max_position must be at least 2, got {max_position}")
    samples = validate.integer(samples, "samples")
    if samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    shifts = tuple(validate.integer(s, "shifts") for s in shifts)
    if any(abs(s) >= validate.MAX_POSITION - max_position for s in shifts):
        raise ValueError("shifts must keep n + Δ below 2**31 in magnitude")
    rng = np.random.default_rng(validate.integer(seed, "seed"))
    freqs = default_frequencies(head_dim, base)
    rows = []

    a = rng.integers(-max_position + 1, max_position, samples)
    b = rng.integers(-max_position + 1, max_position, samples)
    x = rng.standard_normal((samples, head_dim))
    norms = np.linalg.norm(x, axis=1)[:, None]
    for layout in ("rotate_half", "interleaved"):
        chained = apply_rope(apply_rope(x, a, freqs, layout=layout), b, freqs, layout=layout)
        direct = apply_rope(x, a + b, freqs, layout=layout)
        worst = float(np.max(np.abs(chained - direct) / norms))
        rows.append(
            (
                f"R(b)·R(a)·x = R(a + b)·x, {layout}",
                f"{samples} (a, b), |a|, |b| < {max_position}",
                worst,
                GROUP_TOLERANCE,
                "holds",
            )
        )

    freqs32 = freqs.astype(np.float32)
    top = float(freqs32.max())
    found = {delta: [0.0, 0.0, 0.0, 0.0] for delta in shifts}  # worst, worst32, its bound, ratio
    for start in range(0, max_position, _ROWS):
        n = np.arange(start, min(start + _ROWS, max_position))
        keys = rng.standard_normal((n.size, head_dim))
        size = np.linalg.norm(keys, axis=1)
        cached = apply_rope(keys, n, freqs)
        cached32 = _rotate32(keys, n, freqs32)
        for delta in shifts:
            at = np.full(n.size, delta)
            moved = _shift(cached, delta, freqs, "exact")
            worst = float(
                np.max(np.abs(moved - apply_rope(keys, n + delta, freqs)) / size[:, None])
            )
            # float32: keys cached in float32, shifted in float32, against the exact rotation
            # with the same float32 frequencies.
            moved32 = _shift(cached32, delta, freqs32, "float32")
            error = np.max(np.abs(moved32 - apply_rope(keys, n + delta, freqs32)), axis=1) / size
            bound = float32_rotation_bound(n, top) * (1 + 4 * _U32) + float32_rotation_bound(
                at, top
            )
            j = int(np.argmax(error / bound))
            record = found[delta]
            record[0] = max(record[0], worst)
            if error[j] / bound[j] >= record[3]:
                record[1:] = [float(error[j]), float(bound[j]), float(error[j] / bound[j])]
    for delta in shifts:
        worst, worst32, bound32, _ = found[delta]
        rows.append(
            (
                f"re-rotate cached keys by Δ = {delta}",
                f"every n < {max_position}",
                worst,
                GROUP_TOLERANCE,
                "holds",
            )
        )
        rows.append(
            (
                f"same in float32 (Δ = {delta})",
                f"every n < {max_position}; worst against its bound",
                worst32,
                bound32,
                "holds",
            )
        )
    checked = [(*r, r[2] <= r[3]) for r in rows]
    return Table(
        title=f"RoPE group law and KV-cache shift, head_dim = {head_dim}, b = {base:g}",
        headline="a cached key rotated by Δ is the key at the new position",
        columns=("claim", "case", "max |difference| / ‖x‖", "bound", "expected", "as expected"),
        rows=tuple(checked),
        formats=("", "", ".3e", ".3e", "", ""),
        note=(
            f"random x and keys (seed {seed}); float64 rows against 60u (u = 2^-53); "
            "float32 rows against the rounding bound of the module docstring"
        ),
        passed=all(r[-1] for r in checked),
    )
