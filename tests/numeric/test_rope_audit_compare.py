"""numeric.compare_rope tells equivalent caches from different ones and says why; numeric.compare_qk
reads the conversion permutation of the q/k weights transformers' own convert script wrote."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from numeric import compare_qk, compare_rope
from numeric.rope import convert_qk, rope_cache, rope_frequencies

DATA = Path(__file__).parent.parent / "data" / "real_rope"
L3 = {
    "head_dim": 128,
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
YARN = {
    **L3,
    "rope_scaling": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 8192},
}


def cache(config, n=2048, **options):
    return rope_cache(rope_frequencies(config).inv_freq, n, **options)


def test_the_same_rope_in_two_layouts_is_equivalent():
    result = compare_rope(*cache(L3), *cache(L3, layout="interleaved"))
    assert result.same and result.first_pair is None
    assert any("laid out for different pairings" in f for f in result.findings)


def test_a_shared_range_of_positions_is_compared():
    f = rope_frequencies(L3).inv_freq
    a = rope_cache(f, np.arange(0, 2048))
    b = rope_cache(f, np.arange(1024, 3072))
    result = compare_rope(*a, *b, positions_b=np.arange(1024, 3072))
    assert result.same and result.positions_compared == 1024


def test_llama3_read_as_yarn_names_the_pair_and_the_methods():
    """The pair quoted is the one furthest apart (issue 31: the worst pair, not the first)."""
    result = compare_rope(*cache(L3), *cache(YARN))
    assert not result.same
    assert result.first_pair is not None and result.first_position is not None
    assert any(
        f.startswith(
            "B's pair 28 is 2.06× slower (the first to differ is pair 19): Llama 3 scaling "
            "read as YaRN"
        )
        for f in result.findings
    ), result.findings


def test_a_dropped_attention_factor_and_a_float16_cache_are_named():
    f = rope_frequencies(YARN)
    a = rope_cache(f.inv_freq, 2048, attention_factor=f.attention_factor)
    b = rope_cache(f.inv_freq, 2048)
    result = compare_rope(*a, *b)
    assert not result.same and result.first_position == 0
    assert any("B's cos and sin carry m = 1, A's 1.20794" in x for x in result.findings)
    c = rope_cache(
        f.inv_freq, 2048, attention_factor=f.attention_factor, arithmetic="float16", dtype="float16"
    )
    result = compare_rope(*a, *c)
    assert not result.same and any("computed in 16 bits" in x for x in result.findings)


def test_different_widths_are_different():
    result = compare_rope(*cache(L3), *cache({"head_dim": 64, "rope_theta": 10000.0}))
    assert not result.same and "A rotates 128" in result.findings[0]


WEIGHTS = {
    e["file"]: e
    for e in json.loads((DATA / "truth.json").read_text())["entries"]
    if e.get("kind") == "weights"
}


@pytest.mark.parametrize("name", sorted(WEIGHTS))
def test_compare_qk_on_the_convert_script_output(name):
    from safetensors.numpy import load_file

    entry, w = WEIGHTS[name], load_file(str(DATA / name))
    heads, kv = entry["n_heads"], entry["n_kv_heads"]
    meta, hf = (w["wq_meta"], w["wk_meta"]), (w["wq_hf"], w["wk_hf"])
    right = compare_qk(meta, hf, n_heads=heads, n_kv_heads=kv)
    assert (right.relation, right.exact) == ("permuted", True)
    back = compare_qk(hf, meta, n_heads=heads, n_kv_heads=kv).relation
    # At head_dim 4 the permutation [0, 2, 1, 3] is its own inverse.
    assert back == "unpermuted" or (entry["head_dim"] == 4 and back == "permuted")
    assert compare_qk(meta, meta, n_heads=heads, n_kv_heads=kv).relation == "same"
    wrong = compare_qk(meta, (w["wq_hf"], w["wk_hf_wrong"]), n_heads=heads, n_kv_heads=kv)
    assert wrong.relation == "different" and wrong.k == "permuted_with_n_heads"
    assert f"permuted with n_heads = {heads} instead of n_kv_heads = {kv}" in wrong.findings[0]
    assert "llama.cpp #2376" in wrong.findings[0]


def test_compare_qk_within_a_bfloat16_rounding_and_bad_input():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(32, 8)), rng.normal(size=(16, 8))
    q2, k2 = convert_qk(q, k, n_heads=4, n_kv_heads=2)
    rounded = compare_qk(
        {"q": q, "k": k}, {"q": q2 * (1 + 2**-10), "k": k2}, n_heads=4, n_kv_heads=2
    )
    assert rounded.relation == "permuted" and not rounded.exact
    assert (
        compare_qk((q, k), (rng.normal(size=q.shape), k2), n_heads=4, n_kv_heads=2).relation
        == "different"
    )
    with pytest.raises(ValueError, match="n_kv_heads \\(3\\) must divide n_heads \\(4\\)"):
        compare_qk((q, k), (q2, k2), n_heads=4, n_kv_heads=3)
    with pytest.raises(ValueError, match="must hold a 'q' and a 'k'"):
        compare_qk({"q": q}, (q2, k2), n_heads=4)


def test_a_slow_pair_off_by_more_than_float32_makes_is_a_difference():
    # Each pair is held to its own float32 cap (issue 34's principle). Built here by the
    # formula in float64: B's slowest pair turns (1 + ε) times faster, ε set so that its angle
    # at the last row (4095·θ ≈ 0.41 rad, θ = 10000^(-30/32)) is off by 1e-4. float32 code
    # moves that angle by about 2^-24·(36·0.41 + 4) ≈ 1e-6 (its rounding, and ω's, which grows
    # with |ln θ| ≈ 8.6), so B is not A; the fastest pair's cap at p = 4095 would have let
    # it pass (2^-24·8·4095 ≈ 2e-3).
    rows, d = 4096, 32
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    moved = theta.copy()
    moved[-1] *= 1 + 1e-4 / ((rows - 1) * theta[-1])
    p = np.arange(rows)[:, None]
    a, b = p * np.concatenate([theta, theta]), p * np.concatenate([moved, moved])
    result = compare_rope(np.cos(a), np.sin(a), np.cos(b), np.sin(b))
    assert not result.same
    assert compare_rope(np.cos(a), np.sin(a), np.cos(a), np.sin(a)).same
