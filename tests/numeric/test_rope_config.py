"""numeric.rope.rope_config reads a Hugging Face config as data and names every bad field."""

from __future__ import annotations

import pytest

from numeric.rope import RopeConfig, rope_config

LLAMA3 = {
    "hidden_size": 4096,
    "num_attention_heads": 32,
    "rope_theta": 500000.0,
    "max_position_embeddings": 131072,
    "rope_scaling": {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    },
}


def test_llama3_config_is_read_with_head_dim_from_hidden_size():
    c = rope_config(LLAMA3)
    assert (c.head_dim, c.rotary_dim, c.base, c.scaling) == (128, 128, 500000.0, "llama3")
    assert c.scaling_parameters() == {
        "type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 8192,
    }


def test_defaults_follow_transformers():
    c = rope_config({"hidden_size": 64, "num_attention_heads": 2})
    assert c == RopeConfig(head_dim=32, rotary_dim=32, base=10000.0)


def test_rope_parameters_and_legacy_type_and_inner_theta():
    c = rope_config(
        {
            "head_dim": 64,
            "rope_theta": 1.0e4,
            "max_position_embeddings": 4096,
            "rope_parameters": {"type": "dynamic", "factor": 2, "rope_theta": 1.0e6},
        }
    )
    assert (c.scaling, c.factor, c.base, c.max_position_embeddings) == ("dynamic", 2.0, 1e6, 4096)


def test_rope_scaling_wins_over_rope_parameters():
    c = rope_config(
        {
            "head_dim": 64,
            "rope_scaling": {"rope_type": "linear", "factor": 4.0},
            "rope_parameters": {"rope_type": "linear", "factor": 2.0},
        }
    )
    assert c.factor == 4.0


def test_yarn_defaults_and_factor_from_lengths():
    c = rope_config(
        {
            "head_dim": 128,
            "max_position_embeddings": 131072,
            "rope_scaling": {
                "rope_type": "yarn",
                "factor": None,
                "original_max_position_embeddings": 32768,
            },
        }
    )
    assert (c.factor, c.beta_fast, c.beta_slow, c.truncate) == (4.0, 32.0, 1.0, True)
    assert c.mscale is None and c.attention_factor is None


def test_phi3_top_level_original_length_wins():
    short = [1.0] * 48
    c = rope_config(
        {
            "hidden_size": 3072,
            "num_attention_heads": 32,
            "max_position_embeddings": 131072,
            "original_max_position_embeddings": 4096,
            "rope_scaling": {
                "type": "longrope",
                "short_factor": short,
                "long_factor": short,
                "original_max_position_embeddings": 99,
            },
        }
    )
    assert (c.head_dim, c.original_max_position_embeddings, c.factor) == (96, 4096, 32.0)
    assert c.short_factor == tuple(short)


def test_partial_rotary_width():
    c = rope_config({"hidden_size": 256, "num_attention_heads": 4, "partial_rotary_factor": 0.25})
    assert (c.head_dim, c.rotary_dim, c.pairs) == (64, 16, 8)


def test_nested_layer_types_need_a_layer_type():
    config = {
        "head_dim": 128,
        "rope_parameters": {
            "full_attention": {"rope_type": "default", "rope_theta": 1.0e6},
            "sliding_attention": {"rope_type": "default", "rope_theta": 1.0e4},
        },
    }
    assert rope_config(config, layer_type="sliding_attention").base == 1e4
    assert rope_config(config, layer_type="full_attention").base == 1e6
    with pytest.raises(
        ValueError, match="layer_type must be one of full_attention, sliding_attention"
    ):
        rope_config(config)


def _with(scaling: dict, **top) -> dict:
    return {"head_dim": 128, "max_position_embeddings": 4096, **top, "rope_scaling": scaling}


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (_with({"rope_type": "ntk"}), r"rope_scaling.rope_type must be one of default, linear"),
        (_with({"rope_type": "linear"}), r"rope_scaling.factor is required for linear"),
        (
            _with({"rope_type": "linear", "factor": "8"}),
            r"rope_scaling.factor must be a finite number in \[1, 1e\+18\], got '8'",
        ),
        (
            _with({"rope_type": "linear", "factor": 0.5}),
            r"rope_scaling.factor must be a finite number in \[1, 1e\+18\], got 0.5",
        ),
        (
            _with({"rope_type": "linear", "factor": True}),
            r"rope_scaling.factor must be a finite number",
        ),
        (
            _with({"rope_type": "linear", "factor": float("nan")}),
            r"rope_scaling.factor must be a finite number",
        ),
        (
            _with({"rope_type": "yarn", "factor": 4.0, "truncate": "yes"}),
            r"rope_scaling.truncate must be true or false",
        ),
        (
            _with({"rope_type": "yarn", "factor": 4.0, "beta_fast": -1}),
            r"rope_scaling.beta_fast must be a finite number in \[2\*\*-20, 2\*\*20\], got -1",
        ),
        (
            _with(
                {
                    "rope_type": "llama3",
                    "factor": 8.0,
                    "low_freq_factor": 4.0,
                    "high_freq_factor": 1.0,
                }
            ),
            r"high_freq_factor must exceed low_freq_factor",
        ),
        (
            _with({"rope_type": "llama3", "factor": 8.0, "high_freq_factor": 4.0}),
            r"rope_scaling.low_freq_factor is required",
        ),
        (
            _with({"rope_type": "longrope", "short_factor": [1.0] * 64}),
            r"rope_scaling.long_factor is required",
        ),
        (
            _with({"rope_type": "longrope", "short_factor": [1.0] * 3, "long_factor": [1.0] * 64}),
            r"rope_scaling.short_factor must be a list of 64 numbers in \[2\*\*-20, 2\*\*20\]",
        ),
        (
            _with(
                {
                    "rope_type": "longrope",
                    "short_factor": [1.0] * 63 + [0.0],
                    "long_factor": [1.0] * 64,
                }
            ),
            r"rope_scaling.short_factor\[63\] must be a finite number in \[2\*\*-20, 2\*\*20\], got 0.0",
        ),
        (
            {"head_dim": 128, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}},
            r"dynamic scaling needs max_position_embeddings",
        ),
        (
            {"head_dim": 128, "rope_theta": 1},
            r"rope_theta must be a finite number in \(1, 1e\+100\], got 1",
        ),
        (
            {"head_dim": 128, "rope_theta": "1e4"},
            r"rope_theta must be a finite number in \(1, 1e\+100\], got '1e4'",
        ),
        ({"head_dim": 0}, r"head_dim must be an integer in \[1, 2\*\*16\], got 0"),
        ({"head_dim": 12.0}, r"head_dim must be an integer in \[1, 2\*\*16\], got 12.0"),
        ({"hidden_size": 64}, r"needs head_dim, or hidden_size and num_attention_heads"),
        (
            {"head_dim": 10, "partial_rotary_factor": 0.5},
            r"rotary width .* = 5 must be a positive even integer",
        ),
        (
            {"head_dim": 10, "partial_rotary_factor": 1.5},
            r"partial_rotary_factor must be a finite number in \(0, 1\], got 1.5",
        ),
        ({"head_dim": 64, "rope_scaling": "linear"}, r"rope_scaling must be a JSON object"),
        (
            {"head_dim": 64, "max_position_embeddings": -3},
            r"max_position_embeddings must be an integer in \[1, 2\*\*53\], got -3",
        ),
    ],
)
def test_bad_configs_name_the_field(config, message):
    with pytest.raises(ValueError, match=message):
        rope_config(config)


def test_a_config_must_be_a_mapping():
    with pytest.raises(TypeError, match="config must be a dict"):
        rope_config('{"head_dim": 64}')  # type: ignore[arg-type]


def test_a_method_reads_its_own_keys_and_the_others_read_as_none():
    c = rope_config(LLAMA3)
    assert (c.factor, c.low_freq_factor, c.beta_fast, c.short_factor) == (8.0, 1.0, None, None)
    assert c.method.label == "Llama 3 scaling"
    with pytest.raises(AttributeError, match="RopeConfig has no field 'not_a_key'"):
        _ = c.not_a_key
    # A key of the configuration that its method does not read is not kept.
    yarn_keys = rope_config(
        {
            "head_dim": 64,
            "max_position_embeddings": 8192,
            "rope_scaling": {"rope_type": "yarn", "factor": 2.0, "low_freq_factor": 1.0},
        }
    )
    assert yarn_keys.low_freq_factor is None and yarn_keys.beta_fast == 32.0
    assert {k for k, _ in yarn_keys.parameters} == set(yarn_keys.method.keys)
