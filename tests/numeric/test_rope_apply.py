"""apply_rope in both layouts, the conversion permute, and grouped-query attention."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.checks.rope_layouts import attention_scores
from numeric.rope import (
    apply_rope,
    apply_rope_complex,
    convert_qk,
    permute_heads,
    rope_function,
    rotate_half_order,
    unpermute_heads,
)
from numeric.rope.apply import rotate_every_two, rotate_half
from numeric.rope.scaling import default_frequencies

FREQS = default_frequencies(16, 10000.0)


def _direct(x: np.ndarray, p: int, pairs: list[tuple[int, int]], freqs: np.ndarray) -> np.ndarray:
    """RoPE written out pair by pair: (a, b) ↦ (a cos − b sin, b cos + a sin)."""
    out = x.astype(np.float64).copy()
    for i, (a, b) in enumerate(pairs):
        c, s = np.cos(p * freqs[i]), np.sin(p * freqs[i])
        out[a], out[b] = x[a] * c - x[b] * s, x[b] * c + x[a] * s
    return out


@pytest.mark.parametrize("layout", ["rotate_half", "interleaved"])
def test_apply_rope_is_the_pairwise_rotation(layout):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((5, 16))
    positions = np.array([0, 1, 77, 4096, 131071])
    pairs = (
        [(i, i + 8) for i in range(8)]
        if layout == "rotate_half"
        else [(2 * i, 2 * i + 1) for i in range(8)]
    )
    got = apply_rope(x, positions, FREQS, layout=layout)
    want = np.stack([_direct(x[j], int(p), pairs, FREQS) for j, p in enumerate(positions)])
    np.testing.assert_allclose(got, want, atol=1e-10)


def test_rotations_helpers():
    x = np.arange(1.0, 7.0)
    assert rotate_half(x).tolist() == [-4.0, -5.0, -6.0, 1.0, 2.0, 3.0]
    assert rotate_every_two(x).tolist() == [-2.0, 1.0, -4.0, 3.0, -6.0, 5.0]


def test_conversion_permute_is_exact():
    rng = np.random.default_rng(1)
    order = rotate_half_order(16)
    x = rng.standard_normal((1000, 16))
    positions = rng.integers(0, 131072, 1000)
    left = apply_rope(x[:, order], positions, FREQS, layout="rotate_half")
    right = apply_rope(x, positions, FREQS, layout="interleaved")[:, order]
    assert np.array_equal(left, right)


def test_complex_form_is_the_interleaved_layout():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 7, 16))
    positions = np.array([0, 5, 9, 100, 5000, 65536, 131071])
    np.testing.assert_allclose(
        apply_rope_complex(x, positions, FREQS),
        apply_rope(x, positions, FREQS, layout="interleaved"),
        atol=1e-14,
    )


def test_partial_rotary_leaves_the_rest():
    rng = np.random.default_rng(3)
    x = rng.standard_normal((4, 24))
    out = apply_rope(x, np.arange(4), FREQS)
    assert np.array_equal(out[:, 16:], x[:, 16:])
    assert np.array_equal(apply_rope_complex(x, np.arange(4), FREQS)[:, 16:], x[:, 16:])


def test_permute_matches_a_hand_written_permutation_and_inverts():
    rng = np.random.default_rng(4)
    w = rng.standard_normal((3 * 8, 5))
    moved = permute_heads(w, 3)
    order = rotate_half_order(8)
    for h in range(3):
        assert np.array_equal(moved[h * 8 : (h + 1) * 8], w[h * 8 : (h + 1) * 8][order])
    assert np.array_equal(unpermute_heads(moved, 3), w)
    bias = rng.standard_normal(24)
    assert np.array_equal(permute_heads(bias, 3), permute_heads(bias[:, None], 3)[:, 0])


def test_grouped_query_scores_survive_the_right_conversion_and_not_the_wrong_one():
    rng = np.random.default_rng(5)
    n_heads, n_kv, head_dim, hidden = 4, 2, 4, 8
    freqs = default_frequencies(head_dim, 10000.0)
    w_q, w_k = (
        rng.standard_normal((n_heads * head_dim, hidden)),
        rng.standard_normal((n_kv * head_dim, hidden)),
    )
    m, n = rng.integers(0, 131072, 50), rng.integers(0, 131072, 50)
    x_m, x_n = rng.standard_normal((50, hidden)), rng.standard_normal((50, hidden))
    kwargs = {"n_heads": n_heads, "n_kv_heads": n_kv}
    before = attention_scores(w_q, w_k, x_m, x_n, m, n, freqs, layout="interleaved", **kwargs)
    q2, k2 = convert_qk(w_q, w_k, **kwargs)
    after = attention_scores(q2, k2, x_m, x_n, m, n, freqs, layout="rotate_half", **kwargs)
    np.testing.assert_allclose(after, before, atol=1e-12)
    wrong = attention_scores(
        q2, permute_heads(w_k, n_heads), x_m, x_n, m, n, freqs, layout="rotate_half", **kwargs
    )
    assert np.abs(wrong - before).max() > 0.1


def test_rope_function_is_a_black_box_with_fixed_settings():
    rope = rope_function(FREQS, layout="interleaved", attention_factor=2.0)
    x = np.ones((2, 16))
    assert np.array_equal(
        rope(x, np.array([0, 3])),
        apply_rope(x, [0, 3], FREQS, layout="interleaved", attention_factor=2.0),
    )
    assert np.array_equal(rope(x, np.array([0, 0]))[0], 2 * x[0])


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: apply_rope(np.ones((2, 16)), [0, 1, 2], FREQS),
            "x must have shape \\(..., 3, head_dim\\)",
        ),
        (lambda: apply_rope(np.ones((2, 8)), [0, 1], FREQS), "head_dim >= 16"),
        (lambda: apply_rope(np.array([["a"] * 16]), [0], FREQS), "real numbers"),
        (lambda: permute_heads(np.ones((10, 3)), 3), "not a multiple of 2·n_heads = 6"),
        (lambda: permute_heads(np.ones((2, 2, 2)), 1), "1-D \\(a bias\\) or 2-D"),
        (
            lambda: convert_qk(np.ones((16, 2)), np.ones((8, 2)), n_heads=4, n_kv_heads=3),
            "must divide n_heads",
        ),
        (lambda: rotate_half_order(5), "even integer"),
    ],
)
def test_bad_arguments(call, message):
    with pytest.raises(ValueError, match=message):
        call()
