"""Issue 34, items 8, 10 and 11: every RoPE parameter is held to a stated range where the
configuration is read and in the public helpers; out of range is one short ValueError naming
the parameter, the value and the range, never an OverflowError, a ZeroDivisionError or a
huge allocation. Each case below is the issue's own input; before the fix each raised the
exception named in its comment.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from numeric.rope import rope_config, rope_frequencies
from numeric.rope.methods import dynamic, llama3, ntk, yarn
from numeric.rope.permute import rotate_half_order
from numeric.rope.scaling import default_frequencies
from numeric.rope_audit.config_file import read_config


def _yarn(**extra) -> dict:
    return {
        "head_dim": 128,
        "max_position_embeddings": 16384,
        "rope_scaling": {"rope_type": "yarn", "factor": 4.0, **extra},
    }


@pytest.mark.parametrize(
    ("config", "message"),
    [
        # OverflowError: L/(2π·1e-320) is inf, and floor(inf) overflows.
        (
            _yarn(beta_fast=1e-320),
            r"beta_fast must be a finite number in \[2\*\*-20, 2\*\*20\], got 1e-320",
        ),
        (_yarn(beta_slow=1e-320), r"beta_slow must be .*got 1e-320"),
        # ZeroDivisionError: g(e, −10) = 0.1·(−10)·ln e + 1 = 0 divides.
        (
            {
                **_yarn(mscale=1.0, mscale_all_dim=-10),
                "rope_scaling": {
                    "rope_type": "yarn",
                    "factor": math.e,
                    "mscale": 1.0,
                    "mscale_all_dim": -10,
                },
            },
            r"mscale_all_dim must be a finite number in \[0, 2\*\*20\], got -10",
        ),
        # ZeroDivisionError: ln L = ln 1 = 0 divides in √(1 + ln s / ln L).
        (
            {
                "head_dim": 8,
                "max_position_embeddings": 64,
                "rope_scaling": {
                    "rope_type": "longrope",
                    "original_max_position_embeddings": 1,
                    "short_factor": [1.0] * 4,
                    "long_factor": [1.0] * 4,
                },
            },
            r"original_max_position_embeddings must be an integer in \[2, 2\*\*53\], got 1",
        ),
        # OverflowError: (1e200·1e9/L)^(d/(d−2)) exceeds a float.
        (
            {
                "head_dim": 64,
                "max_position_embeddings": 4096,
                "rope_scaling": {"rope_type": "dynamic", "factor": 1e200},
            },
            r"factor must be a finite number in \[1, 1e\+18\], got 1e\+200",
        ),
        # ZeroDivisionError in the exact reference, d/(d−2) at d = 2 (found by
        # test_rope_methods_properties).
        (
            {
                "head_dim": 2,
                "max_position_embeddings": 1,
                "rope_scaling": {"rope_type": "dynamic", "factor": 1.0},
            },
            r"dynamic scaling needs a rotary width of at least 4",
        ),
        # A 4 TiB allocation: inv_freq of 2**39 pairs.
        ({"head_dim": 2**40}, r"head_dim must be an integer in \[1, 2\*\*16\], got 1099511627776"),
        (
            {"hidden_size": 2**40, "num_attention_heads": 1},
            r"hidden_size // num_attention_heads must be an integer in \[1, 2\*\*16\]",
        ),
    ],
)
def test_configs_out_of_range_are_refused_where_read(config, message):
    with pytest.raises(ValueError, match=message):
        rope_config(config)
    # The audit reads the same config (its own, tighter size bounds may speak first): a
    # one-line ValueError naming the same field, where it used to crash with exit 70.
    field = message.split(" must be")[0].split(" ")[0]
    with pytest.raises(ValueError, match=field) as caught:
        read_config(config)
    assert "\n" not in str(caught.value)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: ntk.ntk_aware_base(1e300, 1e300, 4),
            r"base must be a finite number in \(1, 1e\+100\]",
        ),
        (lambda: ntk.ntk_aware_base(1e4, 1e300, 4), r"factor must be .*\[1, 1e\+18\]"),
        (lambda: dynamic.dynamic_ntk_base(1e4, 1e200, 4, 10**9, 4096), r"factor must be"),
        (
            lambda: dynamic.dynamic_ntk_base(1e4, 2.0, 4, 10**400, 4096),
            r"seq_len must be an integer in \[0, 2\*\*53\], got an integer of 1329 bits",
        ),
        (lambda: yarn.yarn_correction_dim(1e-320, 128, 1e4, 4096), r"num_rotations must be"),
        (lambda: yarn.yarn_correction_dim(32, 128, 1.0, 4096), r"base must be"),
        (
            lambda: yarn.yarn_frequencies(128, 1e4, 4.0, 4096, beta_fast=0),
            r"num_rotations must be .*got 0",
        ),
        (
            lambda: yarn.yarn_attention_factor(math.e, mscale=1.0, mscale_all_dim=-10),
            r"mscale_all_dim must be",
        ),
        (lambda: rotate_half_order(2**40), r"head_dim must be an even integer in \[2, 2\*\*16\]"),
        (lambda: default_frequencies(2**40, 1e4), r"dim \(the rotary width\) must be"),
        (
            lambda: llama3.llama3_frequencies(128, 5e5, 8.0, 0, 4.0, 8192),
            r"low_freq_factor must be .*got 0",
        ),
        (
            lambda: llama3.llama3_frequencies(128, 5e5, 8.0, 1.0, 1.0, 8192),
            r"high_freq_factor must exceed low_freq_factor",
        ),
    ],
)
def test_helpers_check_their_ranges(call, message):
    """Each call is one of the issue's crashes, or a size that would allocate without bound."""
    with pytest.raises(ValueError, match=message):
        call()


def test_dynamic_base_stays_b_at_the_original_length_for_any_factor():
    # Item 10: s − (s − 1) is 0 in floats at s = 1e17, so the base came out 0; the formula
    # says b·1^(d/(d−2)) = b exactly at l = L (and for seq_len None, which means L).
    config = {
        "head_dim": 64,
        "max_position_embeddings": 4096,
        "rope_scaling": {"rope_type": "dynamic", "factor": 1e17},
    }
    plain = rope_frequencies({"head_dim": 64}, arithmetic="float64").inv_freq
    for seq_len in (None, 10, 4096):
        got = rope_frequencies(config, seq_len=seq_len, arithmetic="float64").inv_freq
        assert got.tolist() == plain.tolist()
    assert dynamic.dynamic_ntk_base(1e4, 1e17, 64, None, 4096) == 1e4
    # Past L the accurate form 1 + s·(l − L)/L: at l = L + 1, b·(1 + 1e17/4096)^(64/62).
    grown = dynamic.dynamic_ntk_base(1e4, 1e17, 64, 4097, 4096)
    assert grown == pytest.approx(1e4 * (1 + 1e17 / 4096) ** (64 / 62), rel=1e-14)


def test_a_long_value_is_cut_short_in_the_error():
    # Item 11: a short_factor of 200,000 entries gave a 1 MB error line.
    config = {
        "head_dim": 128,
        "max_position_embeddings": 8192,
        "rope_scaling": {
            "rope_type": "longrope",
            "original_max_position_embeddings": 4096,
            "short_factor": [1.0] * 200_000,
            "long_factor": [1.0] * 64,
        },
    }
    with pytest.raises(ValueError) as caught:
        rope_config(config)
    text = str(caught.value)
    assert len(text) < 200 and "\n" not in text
    assert text.endswith("got [1.0, 1.0, 1.0, ...] (200000 entries)")
    with pytest.raises(
        ValueError, match=r"rope_type must be one of .*got 'xxxx.*\(100002 characters\)$"
    ):
        rope_config({"head_dim": 8, "rope_scaling": {"rope_type": "x" * 100_000}})


def test_a_float32_ramp_end_near_its_largest_value_warns_nothing():
    # Found by the slow property test: high − low of a np.float32 low stayed float32 (NEP 50)
    # and overflowed in a cast, a NumPy warning reaching the caller.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ramp = yarn.yarn_ramp(np.float32(3e38), 3.4028235677973366e38, 8)
    assert ramp.tolist() == [0.0] * 8


@pytest.mark.parametrize(
    "config",
    [
        {"head_dim": 64, "rope_interleave": [0] * 200_000},
        {"head_dim": [64] * 200_000},
        {"head_dim": 64, "rope_theta": "9" * 100_000},
        {
            "head_dim": 64,
            "rope_scaling": {"rope_type": "yarn", "factor": 2.0, "truncate": [1] * 10**5},
        },
    ],
)
def test_the_audits_config_reading_cuts_long_values_short(config):
    with pytest.raises(ValueError) as caught:
        read_config(config)
    assert len(str(caught.value)) < 200
