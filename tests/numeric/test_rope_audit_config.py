"""A config.json is data to the RoPE audit: bounded, never run, refused in one line when wrong."""

from __future__ import annotations

import json

import pytest

from numeric.rope_audit.config_file import MAX_CONFIG_BYTES, read_config

LLAMA = {"head_dim": 64, "rope_theta": 10000.0, "max_position_embeddings": 2048}


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({**LLAMA, "rope_theta": "10000"}, "rope_theta must be a number"),
        ({**LLAMA, "rope_theta": True}, "rope_theta must be a number"),
        ({**LLAMA, "head_dim": 2**40}, "head_dim must be a positive integer at most 65536"),
        ({**LLAMA, "max_position_embeddings": 10**12}, "at most 2147483648"),
        (
            {**LLAMA, "rope_scaling": {"rope_type": "ntk"}},
            "must be one of default, linear, dynamic",
        ),
        (
            {**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": 1e30}},
            "factor must be a number",
        ),
        (
            {**LLAMA, "rope_scaling": {"rope_type": "linear", "factor": "4"}},
            "factor must be a number",
        ),
        ({**LLAMA, "rope_interleave": "yes"}, "rope_interleave must be true or false"),
        (
            {
                **LLAMA,
                "rope_scaling": {
                    "rope_type": "longrope",
                    "short_factor": [1.0],
                    "long_factor": [1.0],
                },
            },
            "short_factor must be a list of 32 numbers in [2**-20, 2**20]",
        ),
        ({"rope_theta": 10000.0}, "needs head_dim, or hidden_size and num_attention_heads"),
        (
            {"n_embd": 256, "n_head": 4, "rotary_dim": 128},
            "rotary_dim (128) must be at most the head dim (64)",
        ),
    ],
)
def test_bad_fields_are_refused_in_one_line(config, message):
    with pytest.raises(ValueError) as caught:
        read_config(config)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_gpt_j_names_are_read():
    facts = read_config({"n_embd": 256, "n_head": 4, "rotary_dim": 16, "n_positions": 4096})
    layer = facts.layers[None]
    assert (layer.head_dim, layer.rotary_dim, layer.base) == (64, 16, 10000.0)


def test_nested_layer_types_are_all_read_or_one_chosen():
    config = {
        "head_dim": 64,
        "rope_parameters": {
            "full_attention": {"rope_type": "linear", "factor": 8.0, "rope_theta": 1e6},
            "sliding_attention": {"rope_type": "default", "rope_theta": 10000.0},
        },
    }
    assert set(read_config(config).layers) == {"full_attention", "sliding_attention"}
    assert set(read_config(config, layer_type="full_attention").layers) == {"full_attention"}
    with pytest.raises(ValueError, match="layer_type must be one of full_attention"):
        read_config(config, layer_type="global")


def test_files_bounded_and_never_run(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"head_dim": 64, "rope_theta": NaN}')
    with pytest.raises(ValueError, match="NaN, which is not a number JSON allows"):
        read_config(path)
    path.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ValueError, match=r"config\.json: "):
        read_config(path)
    path.write_text("[1, 2]")
    with pytest.raises(ValueError, match="a config must be a JSON object"):
        read_config(path)
    path.write_bytes(b"\xff\xfe")
    with pytest.raises(ValueError, match="not UTF-8"):
        read_config(path)
    path.write_text(json.dumps({**LLAMA, "pad": "x" * (MAX_CONFIG_BYTES + 1)}))
    with pytest.raises(ValueError, match="read up to"):
        read_config(path)
    with pytest.raises(ValueError, match="no such config file"):
        read_config(tmp_path / "missing.json")
