"""Make frequencies.json: what transformers' own RoPE code returns, for tests/numeric/test_rope_transformers.py.

Run it in a separate environment, never the project's .venv:
    python3 -m venv /tmp/torchenv
    /tmp/torchenv/bin/pip install /opt/wheels/torch-2.13.0+cpu-cp311-cp311-manylinux_2_28_x86_64.whl transformers==5.24.0
    /tmp/torchenv/bin/python tests/numeric/data/rope_transformers/make_frequencies.py

Each case is a config dict (the input numeric.rope.rope_config reads), the sequence length the
rotary module last saw, the float32 bits of its inv_freq buffer and its attention_scaling, all
read off the module that transformers builds from the config class (LlamaRotaryEmbedding for
every rope_type, GPTNeoXRotaryEmbedding for partial rotary). A few cases also keep the float32
bits of cos and sin at sampled positions, from the module's forward, and one keeps the output
of convert_llama_weights_to_hf's permute (copied here: the script is not in the wheel).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import torch
import transformers
from transformers import GPTNeoXConfig, LlamaConfig
from transformers.models.gpt_neox.modeling_gpt_neox import GPTNeoXRotaryEmbedding
from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

HERE = Path(__file__).resolve().parent
SAMPLED = [0, 1, 2, 255, 256, 257, 4095, 4096, 65535, 131071]

rng = random.Random(0)
LONGROPE_SHORT = [round(1 + 0.2 * rng.random(), 6) for _ in range(48)]
LONGROPE_LONG = [round(1 + 59 * (j / 47) ** 2 + rng.random(), 6) for j in range(48)]


def llama(head_dim: int, theta: float, max_pos: int, scaling: dict | None = None) -> dict:
    config = {
        "hidden_size": head_dim * 4,
        "num_attention_heads": 4,
        "head_dim": head_dim,
        "rope_theta": theta,
        "max_position_embeddings": max_pos,
    }
    if scaling is not None:
        config["rope_scaling"] = scaling
    return config


# (name, model family, config, sequence length the forward pass sees or None, keep the cache)
CASES = [
    ("default_1e4", "llama", llama(128, 10000.0, 4096), None, True),
    ("default_5e5", "llama", llama(128, 500000.0, 8192), None, False),
    (
        "linear_4",
        "llama",
        llama(128, 10000.0, 16384, {"rope_type": "linear", "factor": 4.0}),
        None,
        False,
    ),
    (
        "dynamic_init",
        "llama",
        llama(128, 10000.0, 4096, {"rope_type": "dynamic", "factor": 2.0}),
        None,
        False,
    ),
    (
        "dynamic_10000",
        "llama",
        llama(128, 10000.0, 4096, {"rope_type": "dynamic", "factor": 2.0}),
        10000,
        False,
    ),
    (
        "dynamic_legacy_type",
        "llama",
        llama(64, 10000.0, 2048, {"type": "dynamic", "factor": 4.0}),
        20000,
        False,
    ),
    (
        "yarn_issue_24",
        "llama",
        llama(
            128,
            10000.0,
            65536,
            {"rope_type": "yarn", "factor": 16.0, "original_max_position_embeddings": 4096},
        ),
        None,
        True,
    ),
    (
        "yarn_no_truncate",
        "llama",
        llama(
            128,
            10000.0,
            65536,
            {
                "rope_type": "yarn",
                "factor": 16.0,
                "original_max_position_embeddings": 4096,
                "truncate": False,
            },
        ),
        None,
        False,
    ),
    (
        "yarn_qwen2",
        "llama",
        llama(
            128,
            1000000.0,
            131072,
            {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768},
        ),
        None,
        False,
    ),
    (
        "yarn_mscale",
        "llama",
        llama(
            64,
            10000.0,
            163840,
            {
                "rope_type": "yarn",
                "factor": 40.0,
                "original_max_position_embeddings": 4096,
                "beta_fast": 32,
                "beta_slow": 1,
                "mscale": 1.0,
                "mscale_all_dim": 0.707,
            },
        ),
        None,
        False,
    ),
    (
        "yarn_llama3_settings",
        "llama",
        llama(
            128,
            500000.0,
            65536,
            {
                "rope_type": "yarn",
                "factor": 8.0,
                "original_max_position_embeddings": 8192,
                "beta_fast": 4,
                "beta_slow": 1,
            },
        ),
        None,
        False,
    ),
    (
        "llama3",
        "llama",
        llama(
            128,
            500000.0,
            131072,
            {
                "rope_type": "llama3",
                "factor": 8.0,
                "low_freq_factor": 1.0,
                "high_freq_factor": 4.0,
                "original_max_position_embeddings": 8192,
            },
        ),
        None,
        True,
    ),
    (
        "longrope_short",
        "llama",
        llama(
            96,
            10000.0,
            131072,
            {
                "rope_type": "longrope",
                "short_factor": LONGROPE_SHORT,
                "long_factor": LONGROPE_LONG,
                "original_max_position_embeddings": 4096,
            },
        ),
        None,
        False,
    ),
    (
        "longrope_long",
        "llama",
        llama(
            96,
            10000.0,
            131072,
            {
                "rope_type": "longrope",
                "short_factor": LONGROPE_SHORT,
                "long_factor": LONGROPE_LONG,
                "original_max_position_embeddings": 4096,
            },
        ),
        5000,
        False,
    ),
    (
        "neox_partial",
        "gpt_neox",
        {
            "hidden_size": 256,
            "num_attention_heads": 4,
            "rotary_pct": 0.25,
            "partial_rotary_factor": 0.25,
            "rope_theta": 10000.0,
            "max_position_embeddings": 2048,
        },
        None,
        False,
    ),
]


def bits(t: torch.Tensor) -> list[int]:
    return t.detach().to(torch.float32).contiguous().view(torch.int32).flatten().tolist()


def module(family: str, config: dict):
    if family == "gpt_neox":
        return GPTNeoXRotaryEmbedding(GPTNeoXConfig(**json.loads(json.dumps(config))))
    return LlamaRotaryEmbedding(LlamaConfig(**json.loads(json.dumps(config))))


def permute(w, n_heads, dim1, dim2):
    # transformers, src/transformers/models/llama/convert_llama_weights_to_hf.py, write_model
    return w.view(n_heads, dim1 // n_heads // 2, 2, dim2).transpose(1, 2).reshape(dim1, dim2)


def main() -> None:
    cases = []
    for name, family, config, seq_len, keep_cache in CASES:
        rotary = module(family, config)
        x = torch.zeros(1, dtype=torch.float32)
        if seq_len is not None:
            rotary(x, torch.arange(seq_len)[None, :])
        case = {
            "name": name,
            "family": family,
            "config": config,
            "seq_len": seq_len,
            "inv_freq_bits": bits(rotary.inv_freq),
            "attention_scaling": float(rotary.attention_scaling),
        }
        if keep_cache:
            cos, sin = rotary(x, torch.tensor([SAMPLED]))
            case["positions"] = SAMPLED
            case["cos_bits"] = bits(cos[0])
            case["sin_bits"] = bits(sin[0])
        cases.append(case)
    w = torch.arange(4 * 8 * 3, dtype=torch.float32).reshape(32, 3)
    wk = torch.arange(2 * 8 * 3, dtype=torch.float32).reshape(16, 3)
    out = {
        "made_with": {"torch": torch.__version__, "transformers": transformers.__version__},
        "cases": cases,
        "permute": {
            "n_heads": 4,
            "n_kv_heads": 2,
            "head_dim": 8,
            "q": permute(w, 4, 32, 3).tolist(),
            "k": permute(wk, 2, 16, 3).tolist(),
        },
    }
    (HERE / "frequencies.json").write_text(
        json.dumps(out, indent=None, separators=(",", ":")) + "\n"
    )


if __name__ == "__main__":
    main()
