"""M-RoPE in float64: the twin of proofs/theorems/rope/mrope.py.

Qwen2-VL's chunked sections (16, 24, 24) and Qwen3-VL's interleaved (24, 20, 20) at
head_dim 128, θ = 10⁶:
- text tokens (t = h = w = p) get exactly the 1-D RoPE angles, for every p below max_position;
- the interleaved angles with the pairs (and their frequencies) permuted by σ are the chunked
  angles with the frequencies θ∘σ, exactly;
- with the same frequencies the two layouts give different angles (the largest |cos| gap);
- scores at random (t, h, w) pairs depend on the differences only.
"""

from __future__ import annotations

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.rope.mrope import chunked_axes, interleaved_axes, mrope_angles, pair_order
from numeric.rope.scaling import default_frequencies

_U = 2.0**-53


def _scores(q: np.ndarray, k: np.ndarray, qa: np.ndarray, ka: np.ndarray) -> np.ndarray:
    """⟨G(qa)q, G(ka)k⟩ row by row, pairs (2i, 2i + 1), both sides rotated."""
    qp, kp = q.reshape(-1, 2), k.reshape(-1, 2)

    def turn(p: np.ndarray, a: np.ndarray) -> np.ndarray:
        c, s = np.cos(a), np.sin(a)
        return np.stack([p[:, 0] * c - p[:, 1] * s, p[:, 0] * s + p[:, 1] * c], -1)

    return np.einsum("ric,ric->r", turn(qp, qa), turn(kp, ka))


def rope_mrope_table(
    *, head_dim: int = 128, base: float = 1e6, max_position: int = 4096, seed: int = 0
) -> Table:
    """The M-RoPE checks; see the module docstring."""
    head_dim = validate.d_model(head_dim, "head_dim")
    base = validate.base(base)
    max_position = validate.max_len(max_position, "max_position")
    if head_dim != 128:
        raise ValueError(f"head_dim must be 128 (the sections are Qwen's), got {head_dim}")
    rng = np.random.default_rng(validate.integer(seed, "seed"))
    freqs = default_frequencies(head_dim, base)
    p = np.arange(max_position, dtype=np.float64)
    text = np.stack([p, p, p], axis=1)
    one_d = p[:, None] * freqs
    rows = []
    layouts = {
        "chunked (16, 24, 24)": chunked_axes((16, 24, 24)),
        "interleaved (24, 20, 20)": interleaved_axes((24, 20, 20)),
    }
    for name, axes in layouts.items():
        worst = float(np.max(np.abs(mrope_angles(text, axes, freqs) - one_d)))
        rows.append((f"text tokens are 1-D RoPE, {name}", f"p < {max_position}", worst, 0.0, True))

    sections = (24, 20, 20)
    inter, chunk = interleaved_axes(sections), chunked_axes(sections)
    order = pair_order(inter)
    at = rng.integers(0, max_position, size=(512, 3)).astype(np.float64)
    permuted = mrope_angles(at, inter, freqs)[:, order]
    gap = float(np.max(np.abs(permuted - mrope_angles(at, chunk, freqs[order]))))
    rows.append(("P·interleaved·Pᵀ = chunked with θ∘σ", "512 random (t, h, w)", gap, 0.0, True))
    same = np.abs(np.cos(mrope_angles(at, inter, freqs)) - np.cos(mrope_angles(at, chunk, freqs)))
    rows.append(
        (
            "same θ, the layouts differ: max |cos gap|",
            "512 random (t, h, w)",
            float(same.max()),
            0.5,
            False,
        )
    )

    q, k = rng.standard_normal(head_dim), rng.standard_normal(head_dim)
    size = float(np.linalg.norm(q) * np.linalg.norm(k))
    a = rng.integers(0, max_position // 2, size=(256, 3)).astype(np.float64)
    b = rng.integers(0, max_position // 2, size=(256, 3)).astype(np.float64)
    shift = rng.integers(0, max_position // 2, size=(256, 3)).astype(np.float64)
    worst = 0.0
    for axes in layouts.values():
        s0 = _scores(q, k, mrope_angles(a, axes, freqs), mrope_angles(b, axes, freqs))
        s1 = _scores(
            q, k, mrope_angles(a + shift, axes, freqs), mrope_angles(b + shift, axes, freqs)
        )
        worst = max(worst, float(np.max(np.abs(s0 - s1))) / size)
    tolerance = (8 * _U * max_position + 32 * _U) * head_dim
    rows.append(
        ("score depends on (Δt, Δh, Δw) alone", "256 pairs, shifted", worst, tolerance, True)
    )
    checked = [(*r, (r[2] <= r[3]) == r[4]) for r in rows]
    return Table(
        title=f"M-RoPE, head_dim = {head_dim}, b = {base:g}",
        headline="text tokens get 1-D RoPE, and the section layouts differ by a permutation",
        columns=("claim", "case", "value", "bound", "at most the bound", "as expected"),
        rows=tuple(checked),
        formats=("", "", ".3e", ".3e", "", ""),
        note=f"random positions and q, k (seed {seed}); the gap row must exceed its bound",
        passed=all(r[-1] for r in checked),
    )
