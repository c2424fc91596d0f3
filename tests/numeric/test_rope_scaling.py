"""The scaling maps against the mpmath formulas written apart from them (numeric.rope.exact)."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from numeric.rope import exact, rope_frequencies
from numeric.rope.methods import dynamic, llama3, longrope, ntk, yarn
from numeric.rope.papers import yarn_paper_frequencies, yarn_paper_ramp, yarn_paper_temperature
from numeric.rope.scaling import default_frequencies

SETTINGS = [
    (128, 10000.0, 16.0, 4096),
    (128, 500000.0, 8.0, 8192),
    (64, 1000000.0, 4.0, 32768),
    (96, 10000.0, 40.0, 2048),
]


def _relative(values: np.ndarray, exact_values: list) -> float:
    return max(abs(float(v) / float(e) - 1) for v, e in zip(values, exact_values, strict=True))


@pytest.mark.parametrize("dim", [2, 16, 96, 128])
@pytest.mark.parametrize("base", [10000.0, 500000.0])
def test_default_frequencies_against_mpmath(dim, base):
    want = [exact.theta(i, dim, base) for i in range(dim // 2)]
    assert _relative(default_frequencies(dim, base), want) < 8e-16
    # float32 as transformers computes it: 2i/d is rounded to float32 (exact when d is a power
    # of two), which ln(b) amplifies, then the power and the reciprocal round once each.
    bound = (math.log(base) + 3) * 2**-24
    assert _relative(default_frequencies(dim, base, arithmetic="float32"), want) < bound


@pytest.mark.parametrize(("dim", "base", "factor", "length"), SETTINGS)
def test_yarn_code_against_mpmath(dim, base, factor, length):
    for fast, slow, truncate in ((32, 1, True), (4, 1, True), (32, 1, False)):
        got = yarn.yarn_frequencies(
            dim, base, factor, length, beta_fast=fast, beta_slow=slow, truncate=truncate
        )
        want = [
            yarn.exact_frequency(i, dim, base, factor, length, fast, slow, truncate)
            for i in range(dim // 2)
        ]
        assert _relative(got, want) < 1e-14


@pytest.mark.parametrize(("dim", "base", "factor", "length"), SETTINGS)
def test_yarn_paper_against_mpmath(dim, base, factor, length):
    got = yarn_paper_frequencies(dim, base, factor, length)
    want = [exact.yarn_paper(i, dim, base, factor, length) for i in range(dim // 2)]
    assert _relative(got, want) < 1e-14


@pytest.mark.parametrize(("dim", "base", "factor", "length"), SETTINGS)
def test_llama3_against_mpmath(dim, base, factor, length):
    got = llama3.llama3_frequencies(dim, base, factor, 1.0, 4.0, length)
    want = [llama3.exact_frequency(i, dim, base, factor, 1.0, 4.0, length) for i in range(dim // 2)]
    assert _relative(got, want) < 1e-13


def test_correction_range_floor_and_ceil_and_clamp():
    # d·ln(L/(2πn))/(2·ln b) at b 1e4, d 128, L 4096: 20.94 for n = 32 and 45.03 for n = 1.
    low = yarn.yarn_correction_dim(32, 128, 10000.0, 4096)
    high = yarn.yarn_correction_dim(1, 128, 10000.0, 4096)
    assert float(yarn.exact_correction_dim(32, 128, 10000.0, 4096)) == pytest.approx(low, rel=1e-15)
    assert yarn.yarn_correction_range(32, 1, 128, 10000.0, 4096, truncate=True) == (20, 46)
    assert yarn.yarn_correction_range(32, 1, 128, 10000.0, 4096, truncate=False) == (low, high)
    # Clamped to [0, dim − 1] (dim, not dim/2): a huge L pushes high past the pairs.
    assert yarn.yarn_correction_range(32, 1, 16, 10.0, 10**9, truncate=True)[1] == 15


def test_yarn_ramp_nudges_equal_ends():
    ramp = yarn.yarn_ramp(3, 3, 6)
    assert ramp.tolist() == [0.0, 0.0, 0.0, 0.0, 1.0, 1.0]


def test_ntk_aware_endpoints_and_ratio():
    theta = default_frequencies(128, 10000.0)
    new = ntk.ntk_aware_frequencies(128, 10000.0, 8.0)
    assert new[0] == theta[0] == 1.0
    assert new[-1] / (theta[-1] / 8) == pytest.approx(1, rel=1e-14)
    i = np.arange(64)
    np.testing.assert_allclose(new / theta, 8.0 ** (-2 * i / 126), rtol=1e-14)
    assert ntk.ntk_aware_base(10000.0, 8.0, 128) == pytest.approx(
        10000 * 8 ** (128 / 126), rel=1e-15
    )


def test_dynamic_base_against_mpmath_and_its_limits():
    for l in (4096, 4097, 10000, 131072):
        got = dynamic.dynamic_ntk_base(10000.0, 2.0, 128, l, 4096)
        assert got == pytest.approx(
            float(dynamic.exact_base(10000.0, 2.0, 128, l, 4096)), rel=1e-14
        )
    assert dynamic.dynamic_ntk_base(10000.0, 2.0, 128, None, 4096) == 10000.0
    assert (
        dynamic.dynamic_ntk_base(10000.0, 2.0, 128, 100, 4096) == 10000.0
    )  # l below L counts as L
    # The float32 forward path: within float32 rounding of the float64 value.
    assert dynamic.dynamic_ntk_base(
        10000.0, 2.0, 128, 10000, 4096, arithmetic="float32"
    ) == pytest.approx(dynamic.dynamic_ntk_base(10000.0, 2.0, 128, 10000, 4096), rel=4 * 2**-24)


def test_vllm_constant_base_is_the_dynamic_base_at_l_equal_sl_only():
    bug = dynamic.vllm_41236_dynamic_base(10000.0, 4.0, 64)
    assert bug == pytest.approx(
        dynamic.dynamic_ntk_base(10000.0, 4.0, 64, 4 * 2048, 2048), rel=1e-15
    )
    assert bug > 2 * dynamic.dynamic_ntk_base(10000.0, 4.0, 64, 2048, 2048)


def test_attention_factors():
    assert (
        yarn.yarn_attention_factor(16.0) == 0.1 * math.log(16) + 1 == yarn_paper_temperature(16.0)
    )
    assert yarn.yarn_attention_factor(0.5) == 1.0
    # DeepSeek: g(s, mscale)/g(s, mscale_all_dim), and only when both are non-zero.
    g = lambda mu: 0.1 * mu * math.log(40) + 1  # noqa: E731
    assert yarn.yarn_attention_factor(40.0, mscale=1.0, mscale_all_dim=0.707) == pytest.approx(
        g(1.0) / g(0.707)
    )
    assert yarn.yarn_attention_factor(40.0, mscale=0.707, mscale_all_dim=0.707) == 1.0
    assert yarn.yarn_attention_factor(40.0, mscale=1.0, mscale_all_dim=0) == g(1.0)
    assert yarn.yarn_attention_factor(40.0, attention_factor=0.5) == 0.5
    assert yarn.deepseek_softmax_scale(40.0, 0.707) == pytest.approx(g(0.707) ** 2)
    assert yarn.deepseek_softmax_scale(40.0, None) == 1.0
    assert longrope.longrope_attention_factor(32.0, 4096) == math.sqrt(
        1 + math.log(32) / math.log(4096)
    )
    assert longrope.longrope_attention_factor(1.0, 4096) == 1.0


def test_longrope_switches_factors_at_the_original_length():
    short, long = [1.0] * 32, [4.0] * 32
    config = {
        "head_dim": 64,
        "max_position_embeddings": 16384,
        "rope_scaling": {
            "rope_type": "longrope",
            "short_factor": short,
            "long_factor": long,
            "original_max_position_embeddings": 4096,
        },
    }
    theta = default_frequencies(64, 10000.0)
    at_l = rope_frequencies(config, seq_len=4096, arithmetic="float64").inv_freq
    past = rope_frequencies(config, seq_len=4097, arithmetic="float64").inv_freq
    np.testing.assert_allclose(at_l, theta, rtol=1e-15)
    np.testing.assert_allclose(past, theta / 4, rtol=1e-15)


def test_paper_ramp_is_zero_below_alpha_and_one_above_beta():
    assert yarn_paper_ramp(np.array([0.5, 1.0, 16.5, 32.0, 40.0]), 1.0, 32.0).tolist() == [
        0.0,
        0.0,
        0.5,
        1.0,
        1.0,
    ]


def test_every_rope_type_dispatches():
    base = {"head_dim": 32, "max_position_embeddings": 8192}
    kinds = {
        "default": {},
        "linear": {"factor": 2.0},
        "dynamic": {"factor": 2.0},
        "yarn": {"factor": 2.0, "original_max_position_embeddings": 4096},
        "llama3": {
            "factor": 2.0,
            "low_freq_factor": 1.0,
            "high_freq_factor": 4.0,
            "original_max_position_embeddings": 4096,
        },
        "longrope": {
            "short_factor": [1.0] * 16,
            "long_factor": [2.0] * 16,
            "original_max_position_embeddings": 4096,
        },
    }
    for kind, extra in kinds.items():
        found = rope_frequencies({**base, "rope_scaling": {"rope_type": kind, **extra}})
        assert found.inv_freq.shape == (16,) and found.inv_freq.dtype == np.float32
        assert found.config.scaling == kind and not found.inv_freq.flags.writeable


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: default_frequencies(7, 1e4), "dim"),
        (lambda: default_frequencies(8, -1.0), "base"),
        (lambda: default_frequencies(8, 1e4, arithmetic="float16"), "arithmetic"),
        (lambda: ntk.ntk_aware_base(1e4, 2.0, 2), "d > 2"),
        (lambda: longrope.longrope_frequencies(8, 1e4, [1.0, 2.0]), "a list of 4 numbers"),
        (lambda: dynamic.dynamic_ntk_base(1e4, 2.0, 8, -1, 10), "seq_len"),
        (lambda: yarn_paper_ramp(np.array([1.0]), 4.0, 1.0), "alpha must be less than beta"),
        (lambda: rope_frequencies({"head_dim": 8}, seq_len=1.5), "seq_len"),
    ],
)
def test_bad_arguments_raise(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def test_exact_formulas_work_at_their_precision():
    with mpmath.workdps(60):
        assert exact.theta(0, 128, 10000.0) == 1


def test_numpy_scalars_are_numbers_too():
    got = yarn.yarn_frequencies(
        np.int64(128), np.float32(10000.0), np.float64(16.0), np.int64(4096)
    )
    assert np.array_equal(got, yarn.yarn_frequencies(128, 10000.0, 16.0, 4096))
    assert yarn_paper_frequencies(
        128, np.float32(10000.0), np.float32(16.0), np.int32(4096)
    ).shape == (64,)
