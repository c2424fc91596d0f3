"""RoPE's layouts in float64: the numeric twin of the rope_layouts theorem.

Rows, in the theorem's order:
- the relative-score identity ⟨R(m)q, R(n)k⟩ = ⟨q, R(n − m)k⟩ for the whole head, at sampled
  (m, n) below max_position, in the rotate_half layout, the interleaved layout and Meta's
  complex form (where it reads Re Σ_i q_i·conj(k_i)·e^{i(m−n)θ_i}), with caches built exactly;
  and with the float32 cache transformers builds, against the bound its rounding allows;
- the conversion: RoPE_rotate_half(P·x, m) = P·RoPE_interleaved(x, m) at every m below
  max_position (exactly: the same operations on the same numbers);
- attention scores unchanged when W_q is permuted per head with n_heads and W_k with n_kv_heads;
- refuted: W_k permuted with n_heads when n_kv_heads < n_heads (n_heads = 4, n_kv_heads = 2,
  head_dim = 4), with the counterexample W_q = [I; I; I; I], W_k = [I; I], x = e_1, m = n = 0;
- refuted: interleaved frequencies [θ0, θ0, θ1, θ1, ...] with rotate_half pairing is relative,
  with the counterexample q = k = e_0, head_dim 4: the scores at (0, 0) and (1, 1) differ.

Scores are compared relative to ‖q‖·‖k‖. Bounds: an exact cache entry is within 8u of cos or
sin (measured: 4.1u, tests/numeric/test_rope_cache.py), so a rotated vector is within
2·(8u + 2u)·‖x‖ and a score within (40u + γ_d)·‖q‖·‖k‖, γ_d = d·u; the difference of two
scores within twice that. The float32 cache's angles m·θ are off by up to |m·θ|·2⁻²⁴ and its
entries by 2⁻²⁵ more, so its score is within 2·(δ_m + δ_n + 2⁻²⁴)·‖q‖·‖k‖ of the exact one.
"""

from __future__ import annotations

import numpy as np

from numeric import validate
from numeric.result_table import Table
from numeric.rope.apply import apply_cache, apply_rope, apply_rope_complex
from numeric.rope.cache import exact_rotations, rope_cache
from numeric.rope.permute import permute_heads, rotate_half_order
from numeric.rope.scaling import default_frequencies

_U = 2.0**-53
_U32 = 2.0**-24
_ROWS = 4096  # positions per block of the conversion check


def score_tolerance(head_dim: int) -> float:
    """Bound on |score − score′| / (‖q‖·‖k‖) for two float64 evaluations of equal exact scores."""
    return 2 * (40 * _U + head_dim * _U)


def sample_pairs(
    count: int, max_position: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """count (m, n) pairs below max_position: the four corners, then uniform random ones."""
    top = max_position - 1
    corners_m = np.array([0, top, 0, top])[: min(4, count)]
    corners_n = np.array([0, 0, top, top])[: min(4, count)]
    m = np.concatenate([corners_m, rng.integers(0, max_position, max(count - 4, 0))])
    n = np.concatenate([corners_n, rng.integers(0, max_position, max(count - 4, 0))])
    return m, n


def _rows_dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.einsum("nd,nd->n", a, b)


def _relative_rows(q, k, m, n, freqs, head_dim) -> list[tuple]:
    norms = np.linalg.norm(q, axis=1) * np.linalg.norm(k, axis=1)
    # ⟨q, R(n − m)k⟩: one rotation of k by the distance, in the layout's own pairing.
    rows = []
    for layout in ("rotate_half", "interleaved"):
        left = _rows_dot(
            apply_rope(q, m, freqs, layout=layout), apply_rope(k, n, freqs, layout=layout)
        )
        right = _rows_dot(q, apply_rope(k, n - m, freqs, layout=layout))
        worst = float(np.max(np.abs(left - right) / norms))
        rows.append(
            (
                f"⟨R(m)q, R(n)k⟩ = ⟨q, R(n−m)k⟩, {layout}",
                f"{m.size} (m, n)",
                worst,
                score_tolerance(head_dim),
                "holds",
            )
        )
    qc = q[:, 0::2] + 1j * q[:, 1::2]
    kc = k[:, 0::2] + 1j * k[:, 1::2]
    left = _rows_dot(apply_rope_complex(q, m, freqs), apply_rope_complex(k, n, freqs))
    turns = exact_rotations((m - n).astype(np.float64), freqs)
    right = np.sum(qc * np.conj(kc) * turns, axis=1).real
    worst = float(np.max(np.abs(left - right) / norms))
    rows.append(
        (
            "complex form: = Re Σ q_i·conj(k_i)·e^{i(m−n)θ_i}",
            f"{m.size} (m, n)",
            worst,
            score_tolerance(head_dim),
            "holds",
        )
    )
    # The float32 cache transformers builds (LlamaRotaryEmbedding.forward), applied in float64,
    # against the exact identity for its own float32 frequencies.
    f32 = freqs.astype(np.float32)
    cos_m, sin_m = rope_cache(f32, m, dtype="float64", arithmetic="float32")
    cos_n, sin_n = rope_cache(f32, n, dtype="float64", arithmetic="float32")
    left = _rows_dot(
        apply_cache(q, cos_m, sin_m, layout="rotate_half"),
        apply_cache(k, cos_n, sin_n, layout="rotate_half"),
    )
    right = _rows_dot(q, apply_rope(k, n - m, f32, layout="rotate_half"))
    top = float(f32.max())
    bounds = 2 * ((m + n) * top * _U32 + _U32) + score_tolerance(head_dim)
    ratio = np.abs(left - right) / norms
    worst_at = int(np.argmax(ratio / bounds))
    rows.append(
        (
            "same, float32 cache as transformers builds it",
            f"{m.size} (m, n); worst at ({m[worst_at]}, {n[worst_at]})",
            float(ratio[worst_at]),
            float(bounds[worst_at]),
            "holds",
        )
    )
    return rows


def _conversion_row(
    freqs: np.ndarray, head_dim: int, max_position: int, rng: np.random.Generator
) -> tuple:
    order = rotate_half_order(head_dim)
    worst = 0.0
    for a in range(0, max_position, _ROWS):
        m = np.arange(a, min(a + _ROWS, max_position))
        x = rng.standard_normal((m.size, head_dim))
        left = apply_rope(x[:, order], m, freqs, layout="rotate_half")
        right = apply_rope(x, m, freqs, layout="interleaved")[:, order]
        worst = max(worst, float(np.abs(left - right).max()))
    return (
        "RoPE_rotate_half(P·x, m) = P·RoPE_interleaved(x, m)",
        f"every m < {max_position}",
        worst,
        0.0,
        "holds",
    )


def attention_scores(
    w_q: np.ndarray,
    w_k: np.ndarray,
    x_m: np.ndarray,
    x_n: np.ndarray,
    m: np.ndarray,
    n: np.ndarray,
    freqs: np.ndarray,
    *,
    n_heads: int,
    n_kv_heads: int,
    layout: str,
) -> np.ndarray:
    """Scores (samples, n_heads): query head h at position m against key head h // (n_heads /
    n_kv_heads) at position n (repeat_kv), q = W_q·x_m and k = W_k·x_n rotated in `layout`."""
    head_dim = w_q.shape[0] // n_heads
    q = (x_m @ w_q.T).reshape(-1, n_heads, head_dim)
    k = (x_n @ w_k.T).reshape(-1, n_kv_heads, head_dim)
    q = apply_rope(q.transpose(1, 0, 2), m, freqs, layout=layout)
    k = apply_rope(k.transpose(1, 0, 2), n, freqs, layout=layout)
    k = np.repeat(k, n_heads // n_kv_heads, axis=0)
    return np.einsum("hsd,hsd->sh", q, k)


def _gqa_rows(rng: np.random.Generator, max_position: int, samples: int) -> list[tuple]:
    rows = []
    for n_heads, n_kv, head_dim, hidden in ((8, 2, 128, 256), (4, 2, 4, 8)):
        freqs = default_frequencies(head_dim, 10000.0)
        w_q = rng.standard_normal((n_heads * head_dim, hidden))
        w_k = rng.standard_normal((n_kv * head_dim, hidden))
        m, n = sample_pairs(samples, max_position, rng)
        x_m, x_n = rng.standard_normal((m.size, hidden)), rng.standard_normal((m.size, hidden))
        before = attention_scores(
            w_q, w_k, x_m, x_n, m, n, freqs, n_heads=n_heads, n_kv_heads=n_kv, layout="interleaved"
        )
        q_norms = np.linalg.norm((x_m @ w_q.T).reshape(-1, n_heads, head_dim), axis=2)
        k_norms = np.repeat(
            np.linalg.norm((x_n @ w_k.T).reshape(-1, n_kv, head_dim), axis=2),
            n_heads // n_kv,
            axis=1,
        )
        norms = q_norms * k_norms
        case = f"n_heads {n_heads}, n_kv_heads {n_kv}, head_dim {head_dim}; {m.size} (m, n)"
        for k_heads, claim, expected in (
            (n_kv, "scores equal after permute(W_q, n_heads), permute(W_k, n_kv_heads)", "holds"),
            (n_heads, "scores equal after permute(W_k, n_heads) (the wrong count)", "refuted"),
        ):
            if expected == "refuted" and n_kv == n_heads:
                continue
            after = attention_scores(
                permute_heads(w_q, n_heads),
                permute_heads(w_k, k_heads),
                x_m,
                x_n,
                m,
                n,
                freqs,
                n_heads=n_heads,
                n_kv_heads=n_kv,
                layout="rotate_half",
            )
            # Matrix products and rotations see permuted copies of the same numbers; only the
            # final sums run in another order: γ_d·‖q‖·‖k‖ for each side.
            worst = float(np.max(np.abs(after - before) / norms))
            rows.append((claim, case, worst, score_tolerance(head_dim), expected))
    # The counterexample: W_q = [I; I; I; I], W_k = [I; I], x = e_1, m = n = 0.
    eye = np.eye(4)
    w_q, w_k, x = np.vstack([eye] * 4), np.vstack([eye] * 2), eye[1][None, :]
    zero = np.array([0])
    freqs = default_frequencies(4, 10000.0)
    right = attention_scores(
        w_q, w_k, x, x, zero, zero, freqs, n_heads=4, n_kv_heads=2, layout="interleaved"
    )
    wrong = attention_scores(
        permute_heads(w_q, 4),
        permute_heads(w_k, 4),
        x,
        x,
        zero,
        zero,
        freqs,
        n_heads=4,
        n_kv_heads=2,
        layout="rotate_half",
    )
    rows.append(
        (
            "counterexample: W_q = [I;I;I;I], W_k = [I;I], x = e_1, m = n = 0",
            f"score {right[0, 0]:g} before, {wrong[0, 0]:g} after",
            float(np.abs(right - wrong).max()),
            score_tolerance(4),
            "refuted",
        )
    )
    return rows


def _mixed_rows(
    rng: np.random.Generator, head_dim: int, max_position: int, samples: int
) -> list[tuple]:
    """Interleaved cache columns [θ0, θ0, θ1, θ1, …] used with rotate_half pairing."""
    freqs = default_frequencies(head_dim, 10000.0)

    def mixed(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        cos, sin = rope_cache(
            freqs, positions, layout="interleaved", dtype="float64", arithmetic="exact"
        )
        return apply_cache(x, cos, sin, layout="rotate_half")

    q, k = rng.standard_normal((samples, head_dim)), rng.standard_normal((samples, head_dim))
    m, n = sample_pairs(samples, max_position // 2, rng)
    shift = rng.integers(1, max_position // 2, samples)
    norms = np.linalg.norm(q, axis=1) * np.linalg.norm(k, axis=1)
    here = _rows_dot(mixed(q, m), mixed(k, n))
    there = _rows_dot(mixed(q, m + shift), mixed(k, n + shift))
    worst = float(np.max(np.abs(here - there) / norms))
    rows = [
        (
            "score(m + s, n + s) = score(m, n), [θ0,θ0,θ1,θ1,…] with rotate_half pairing",
            f"{samples} (m, n, s)",
            worst,
            score_tolerance(head_dim),
            "refuted",
        )
    ]
    e0 = np.zeros((2, 4))
    e0[:, 0] = 1
    small = default_frequencies(4, 10000.0)
    cos, sin = rope_cache(
        small, np.array([0, 1]), layout="interleaved", dtype="float64", arithmetic="exact"
    )
    turned = apply_cache(e0, cos, sin, layout="rotate_half")
    s00, s11 = float(turned[0] @ turned[0]), float(turned[1] @ turned[1])
    rows.append(
        (
            "counterexample: q = k = e_0, head_dim 4, b = 10⁴",
            f"score(0, 0) = {s00:.6g}, score(1, 1) = {s11:.6g}",
            abs(s00 - s11),
            score_tolerance(4),
            "refuted",
        )
    )
    return rows


def rope_layouts_table(
    *,
    head_dim: int = 128,
    base: float = 10000.0,
    max_position: int = 131072,
    samples: int = 2048,
    seed: int = 0,
) -> Table:
    """One row per claim of the rope_layouts theorem; see the module docstring.

    head_dim, base: the head whose identities are checked; max_position: positions m, n lie in
    [0, max_position); samples: (m, n) pairs per sampled row; seed: for q, k, x and weights.
    """
    head_dim = validate.d_model(head_dim, "head_dim")
    base = validate.base(base)
    max_position = validate.max_len(max_position, "max_position")
    if max_position < 4:
        raise ValueError(f"max_position must be at least 4, got {max_position}")
    samples = validate.integer(samples, "samples")
    if samples < 4:
        raise ValueError(f"samples must be at least 4, got {samples}")
    rng = np.random.default_rng(validate.integer(seed, "seed"))
    freqs = default_frequencies(head_dim, base)
    q, k = rng.standard_normal((samples, head_dim)), rng.standard_normal((samples, head_dim))
    m, n = sample_pairs(samples, max_position, rng)
    rows = _relative_rows(q, k, m, n, freqs, head_dim)
    rows.append(_conversion_row(freqs, head_dim, max_position, rng))
    rows += _gqa_rows(rng, max_position, min(samples, 512))
    rows += _mixed_rows(rng, head_dim, max_position, min(samples, 512))
    checked = []
    for claim, case, value, bound, expected in rows:
        ok = value <= bound if expected == "holds" else value > 1e6 * bound
        checked.append((claim, case, value, bound, expected, ok))
    return Table(
        title=f"RoPE layouts, head_dim = {head_dim}, b = {base:g}, positions below {max_position}",
        headline="scores depend on n − m in every layout; the conversion permutes",
        columns=(
            "claim",
            "case",
            "max |difference| / (‖q‖·‖k‖)",
            "bound",
            "expected",
            "as expected",
        ),
        rows=tuple(checked),
        formats=("", "", ".3e", ".3e", "", ""),
        note=(
            f"random q, k, x, weights (seed {seed}); a claim holds when its difference is within "
            "its bound, and is refuted when the difference exceeds a million times it; the "
            "conversion row is an exact equality (bound 0)"
        ),
        passed=all(r[-1] for r in checked),
    )
