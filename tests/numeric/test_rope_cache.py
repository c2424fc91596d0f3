"""Caches against the direct formula: mpmath for "exact", step-by-step float32 for "float32"."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest

from numeric.rope import exact, rope_cache, rope_config, rope_frequencies
from numeric.rope.cache import exact_rotations
from numeric.rope.floats import round_to
from numeric.rope.scaling import default_frequencies

U = 2.0**-53


def test_exact_rotations_within_8u_of_mpmath():
    freqs = default_frequencies(128, 10000.0)
    rng = np.random.default_rng(1)
    positions = np.concatenate(
        [[0, 1, 255, 256, 131071, -131071], rng.integers(-(2**30), 2**30, 30)]
    )
    values = exact_rotations(positions.astype(np.float64), freqs)
    worst = 0
    with mpmath.workdps(40):
        for a, p in enumerate(positions):
            for i in range(0, 64, 3):
                worst = max(
                    worst,
                    abs(mpmath.mpc(values[a, i]) - mpmath.expj(int(p) * mpmath.mpf(freqs[i]))),
                )
    assert worst <= 8 * U


def test_exact_rotations_same_on_runs_and_scattered_positions():
    freqs = default_frequencies(64, 500000.0)
    run = np.arange(1000, 3000, dtype=np.float64)
    scattered = run[::-1].copy()
    assert np.array_equal(exact_rotations(run, freqs)[::-1], exact_rotations(scattered, freqs))


def test_exact_cache_against_mpmath_with_the_true_frequencies():
    freqs = default_frequencies(128, 10000.0)
    positions = np.array([0, 3, 4097, 131071])
    cos, sin = rope_cache(freqs, positions, dtype="float64", arithmetic="exact")
    with mpmath.workdps(40):
        for a, p in enumerate(positions):
            for i in (0, 1, 17, 63):
                angle = p * exact.theta(i, 128, 10000.0)
                # Exact for the float64 θ_i; θ_i itself is within u of the true frequency.
                bound = float(angle) * U + 8 * U
                assert abs(cos[a, i] - mpmath.cos(angle)) <= bound
                assert abs(sin[a, i + 64] - mpmath.sin(angle)) <= bound


def test_layouts_repeat_each_pair_where_the_layout_says():
    freqs = default_frequencies(16, 10000.0)
    half, _ = rope_cache(freqs, 50, layout="rotate_half", dtype="float64", arithmetic="exact")
    inter, _ = rope_cache(freqs, 50, layout="interleaved", dtype="float64", arithmetic="exact")
    assert np.array_equal(half[:, :8], half[:, 8:])  # cat(freqs, freqs)
    assert np.array_equal(inter[:, 0::2], inter[:, 1::2])  # repeat_interleave
    assert np.array_equal(half[:, :8], inter[:, 0::2])


def test_float32_cache_is_the_step_by_step_float32_computation():
    freqs = rope_frequencies({"head_dim": 64, "rope_theta": 10000.0}).inv_freq
    positions = np.array([0, 1, 1000, 16777215, 16777217])
    cos, sin = rope_cache(
        freqs, positions, dtype="float32", arithmetic="float32", attention_factor=1.25
    )
    angles = positions.astype(np.float32)[:, None] * freqs[None, :]  # float32 product
    want_cos = np.cos(angles.astype(np.float64)).astype(np.float32) * np.float32(1.25)
    want_sin = np.sin(angles.astype(np.float64)).astype(np.float32) * np.float32(1.25)
    assert np.array_equal(cos[:, :32], want_cos) and np.array_equal(sin[:, 32:], want_sin)
    # 2^24 + 1 is not a float32: its row is the row of 2^24.
    assert np.array_equal(cos[4], rope_cache(freqs, [2**24], attention_factor=1.25)[0][0])


def test_half_precision_arithmetic_rounds_every_step():
    freqs = default_frequencies(8, 10000.0, arithmetic="float32")
    cos, _ = rope_cache(freqs, [1000], dtype="float64", arithmetic="float16")
    p, f = 1000.0, round_to(freqs, "float16").astype(np.float64)
    angle = round_to(p * f, "float16").astype(np.float64)
    assert np.array_equal(cos[0, :4], round_to(np.cos(angle), "float16").astype(np.float64))


def test_bfloat16_output_holds_bfloat16_values():
    freqs = default_frequencies(32, 10000.0, arithmetic="float32")
    cos, sin = rope_cache(freqs, 300, dtype="bfloat16")
    assert cos.dtype == np.float32
    assert np.all(cos.view(np.uint32) & 0xFFFF == 0) and np.all(sin.view(np.uint32) & 0xFFFF == 0)


def test_rounded_positions_and_frequencies():
    freqs = default_frequencies(32, 10000.0, arithmetic="float32")
    cos, _ = rope_cache(freqs, [256, 257, 70000], dtype="float64", positions_format="bfloat16")
    assert np.array_equal(cos[0], cos[1])
    cos16, _ = rope_cache(freqs, [70000], dtype="float64", positions_format="float16")
    assert np.all(np.isnan(cos16))  # 70000 overflows float16 to inf, as a cast in torch does
    bf, _ = rope_cache(
        freqs, [5000], dtype="float64", arithmetic="exact", inv_freq_format="bfloat16"
    )
    want, _ = rope_cache(round_to(freqs, "bfloat16"), [5000], dtype="float64", arithmetic="exact")
    assert np.array_equal(bf, want)


def test_partial_rotary_cache_width_comes_from_the_config():
    f = rope_frequencies(
        {"hidden_size": 256, "num_attention_heads": 4, "partial_rotary_factor": 0.25}
    )
    assert f.config.rotary_dim == 16
    cos, sin = rope_cache(f.inv_freq, 10)
    assert cos.shape == sin.shape == (10, 16)
    np.testing.assert_allclose(f.inv_freq, 10000.0 ** (-np.arange(0, 16, 2) / 16), rtol=1e-6)


def test_blocks_do_not_change_the_cache():
    freqs = default_frequencies(8, 10000.0)
    whole, _ = rope_cache(freqs, 20000, dtype="float64", arithmetic="exact")
    part, _ = rope_cache(freqs, np.arange(12345, 12400), dtype="float64", arithmetic="exact")
    assert np.array_equal(whole[12345:12400], part)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"inv_freq": [[1.0]]}, "inv_freq must be a non-empty 1-D array"),
        ({"inv_freq": [np.nan]}, "finite non-negative"),
        ({"positions": [1.5]}, "positions must be a count or a 1-D array of integers"),
        ({"positions": [2**31]}, "below 2\\*\\*31"),
        ({"layout": "neox"}, "layout must be 'rotate_half' or 'interleaved'"),
        ({"dtype": "int8"}, "dtype must be one of"),
        ({"arithmetic": "float64"}, "arithmetic must be one of exact, float32, float16, bfloat16"),
        ({"positions_format": "fp16"}, "positions_format must be one of"),
        ({"attention_factor": float("inf")}, "attention_factor must be a finite number"),
        (
            {"inv_freq": [2.0], "positions": [2**30 + 5], "arithmetic": "exact"},
            "must stay below 2\\*\\*31",
        ),
    ],
)
def test_bad_arguments(kwargs, message):
    call = {"inv_freq": [1.0, 0.1], "positions": 4, **kwargs}
    with pytest.raises(ValueError, match=message):
        rope_cache(call.pop("inv_freq"), call.pop("positions"), **call)


def test_config_round_trip_to_a_cache():
    config = rope_config({"head_dim": 128, "rope_theta": 500000.0})
    f = rope_frequencies(config)
    cos, _ = rope_cache(f.inv_freq, 4)
    assert cos.shape == (4, 128) and cos[0].tolist() == [1.0] * 128
