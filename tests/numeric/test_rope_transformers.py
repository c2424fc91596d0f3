"""numeric.rope against what transformers' own RoPE code returned (data/rope_transformers).

frequencies.json was made by make_frequencies.py beside it, with torch 2.13 (CPU) and
transformers 5.24 in a separate environment. The float32 replay agrees with the library to
the bit except where torch's vectorised float32 power is one ulp off the correctly rounded
power: at most 2 entries of an inv_freq, by at most 2 ulps (the power's ulp, then a product
and a reciprocal). torch's float32 cos and sin are within an ulp of the correctly rounded
values, so the sampled caches agree within 2 ulps (one more for the attention factor).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from numeric.rope import permute_heads, rope_cache, rope_frequencies

DATA = json.loads(
    (Path(__file__).parent / "data" / "rope_transformers" / "frequencies.json").read_text()
)
CASES = {case["name"]: case for case in DATA["cases"]}


def _floats(bits: list[int]) -> np.ndarray:
    return np.array(bits, dtype=np.int64).astype(np.int32).view(np.float32)


def _ulps(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.abs(a.view(np.int32).astype(np.int64) - b.view(np.int32).astype(np.int64))


def test_the_data_covers_every_rope_type():
    kinds = {
        (c["config"].get("rope_scaling") or {}).get("rope_type", "default") for c in DATA["cases"]
    }
    assert kinds >= {"default", "linear", "dynamic", "yarn", "llama3", "longrope"}
    assert DATA["made_with"]["transformers"] == "5.24.0"


@pytest.mark.parametrize("name", sorted(CASES))
def test_inv_freq_and_attention_factor_as_transformers(name):
    case = CASES[name]
    want = _floats(case["inv_freq_bits"])
    got = rope_frequencies(case["config"], seq_len=case["seq_len"], arithmetic="float32")
    assert got.inv_freq.shape == want.shape
    off = _ulps(got.inv_freq, want)
    assert off.max() <= 2 and np.count_nonzero(off) <= 2, (name, off)
    assert got.attention_factor == case["attention_scaling"]


@pytest.mark.parametrize("name", [n for n, c in CASES.items() if "cos_bits" in c])
def test_sampled_caches_as_transformers(name):
    case = CASES[name]
    positions = np.array(case["positions"])
    got = rope_frequencies(case["config"], seq_len=case["seq_len"], arithmetic="float32")
    cos, sin = rope_cache(got.inv_freq, positions, attention_factor=got.attention_factor)
    want_cos = _floats(case["cos_bits"]).reshape(cos.shape)
    want_sin = _floats(case["sin_bits"]).reshape(sin.shape)
    assert _ulps(cos, want_cos).max() <= 2 and _ulps(sin, want_sin).max() <= 2


def test_dynamic_base_grows_only_past_the_original_length():
    init, grown = CASES["dynamic_init"], CASES["dynamic_10000"]
    assert _floats(init["inv_freq_bits"])[-1] > _floats(grown["inv_freq_bits"])[-1]


def test_permute_is_convert_llama_weights_to_hf_permute():
    p = DATA["permute"]
    w = np.arange(4 * 8 * 3, dtype=np.float32).reshape(32, 3)
    wk = np.arange(2 * 8 * 3, dtype=np.float32).reshape(16, 3)
    assert permute_heads(w, p["n_heads"]).tolist() == p["q"]
    assert permute_heads(wk, p["n_kv_heads"]).tolist() == p["k"]
