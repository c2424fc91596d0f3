"""Issue 31's RoPE-audit points on caches made by transformers' own code (tests/data/real_rope:
the first round's caches, and the round-2 ones of make_real_rope_round2.py, truth_round2.json).

Each test fails on the audit before issue 31: a wrong base named as "other parameters" and the
first differing pair quoted (point 1), a linear factor that is not round left unidentified
(point 3), head_dim None beside pass-through columns (point 4), a cat(freqs, freqs) cache with
interleaved frequencies reported as "fits none of the scaling methods" (point 8), and a CSV of
float32 values graded as float64 (point 10).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from numeric import audit_rope
from numeric.rope_audit import compare_rope
from numeric.rope_audit.files import open_rope

safetensors = pytest.importorskip("safetensors.numpy")

DATA = Path(__file__).parent.parent / "data" / "real_rope"

ROUND2 = {
    e["file"].removesuffix(".safetensors"): e
    for e in json.loads((DATA / "truth_round2.json").read_text())["entries"]
}


def load(name: str) -> dict:
    return safetensors.load_file(str(DATA / f"{name}.safetensors"))


def config(name: str, tmp_path, **changes) -> str:
    """The config beside a cache, with fields of its rope_parameters changed, as a file."""
    data = json.loads((DATA / f"{name}.config.json").read_text())
    data["rope_parameters"].update(changes)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_a_wrong_base_is_named_with_its_worst_pair(tmp_path):
    """Point 1: transformers' Llama cache of base 10000 checked against rope_theta 500000."""
    arrays = load("llama_default")
    result = audit_rope(
        arrays["cos"],
        arrays["sin"],
        positions=arrays["positions"],
        config=config("llama_default", tmp_path, rope_theta=500000.0),
    )
    assert result.outcome == "fault" and result.bugs == ("wrong_base",)
    (text,) = [f["text"] for f in result.faults]
    assert "a wrong base" in text and "base 10000" in text and "rope_theta is 500000" in text
    # The slowest pair is 50^(31/32) = 44.2 times too fast: that pair is quoted, not pair 1.
    assert "pair 31 turns 44.2× faster" in text and "the first to differ is pair 1" in text
    assert math.isclose(result.config["frequency_ratio"], 50 ** (31 / 32), rel_tol=1e-5)


def test_frequencies_over_the_head_dim_are_named(tmp_path):
    """Point 1: GPT-NeoX rotates 16 of 64 components; a cache whose 8 frequencies are the head
    dim's (base^(−2i/64), transformers' Llama cache's first 8 pairs) is named as such."""
    arrays = load("llama_default")
    cols = [*range(8), *range(32, 40)]
    result = audit_rope(
        arrays["cos"][:, cols],
        arrays["sin"][:, cols],
        positions=arrays["positions"],
        config=DATA / "gpt_neox_partial.config.json",
    )
    assert result.bugs == ("frequencies_over_head_dim",)
    (text,) = [f["text"] for f in result.faults]
    assert "10000^(−2i/64)" in text and "10000^(−2i/16)" in text
    assert "pair 7 turns 422× faster" in text


def test_a_linear_factor_that_is_not_round_is_identified():
    """Point 3: transformers' linear scaling by 4^(64/62) = 4.1803, without the config."""
    arrays = load("round2_llama_linear_nonround")
    truth = ROUND2["round2_llama_linear_nonround"]
    result = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"])
    assert result.outcome == "sound" and result.base == truth["base"]
    assert result.scaling["type"] == "linear" and result.scaling["factor_is_round"] is False
    assert math.isclose(result.scaling["factor"], truth["scaling"]["factor"], rel_tol=1e-6)


def test_pass_through_columns_give_the_head_dim():
    """Point 4: GPT-NeoX's 16-column cache as the head applies it, components 16..63 passed
    through (cos 1, sin 0): the head dim is 64 without a config."""
    arrays = load("gpt_neox_partial")
    rows = len(arrays["positions"])
    cos = np.concatenate([arrays["cos"], np.ones((rows, 48), np.float32)], axis=1)
    sin = np.concatenate([arrays["sin"], np.zeros((rows, 48), np.float32)], axis=1)
    result = audit_rope(cos, sin, positions=arrays["positions"])
    assert result.rotary_dim == 16 and result.head_dim == 64 and result.outcome == "sound"
    assert result.unrotated == tuple(range(16, 64))
    plain = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"])
    assert plain.head_dim is None  # 16 columns alone cannot say how wide the head is


def test_rotary_embedding_torch_partial_rotary_gives_the_head_dim():
    """Point 4 on rotary-embedding-torch's own apply_rotary_emb (dim 32 of a 64 head): the
    pass-through columns say the head is 64 wide, without a config."""
    name = "round2_rotary_embedding_torch_partial"
    truth, arrays = ROUND2[name], load(name)
    result = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"])
    assert result.outcome == "sound" and result.convention == truth["convention"]
    assert (result.rotary_dim, result.head_dim) == (truth["rotary_dim"], truth["head_dim"])
    assert result.unrotated == tuple(range(32, 64)) and result.base == truth["base"]
    assert np.allclose(result.frequencies, truth["inv_freq"], rtol=1e-6)


@pytest.mark.parametrize("given", ["cos and sin", "cos", "sin"])
def test_interleaved_frequencies_in_a_rotate_half_cache_are_named(given):
    """Point 8: GPT-J's per-component cache duplicated for rotate_half pairs (llama.cpp
    #2376): the pairing mistake is named, not "fits none of the scaling methods". Given cos
    alone (rows 5 positions apart), the fastest pairs' aliases were read along a geometric
    progression, θ0 = 1 as 1.513 and θ2 as 0.694, so pairs 0 and 1 no longer shared a
    frequency and the cache came back "custom, sound"."""
    arrays = load("round2_gptj_freqs_in_cat")
    truth = ROUND2["round2_gptj_freqs_in_cat"]
    cos = arrays["cos"] if "cos" in given else None
    sin = arrays["sin"] if "sin" in given else None
    result = audit_rope(cos, sin, positions=arrays["positions"])
    assert result.outcome == "fault" and result.bugs == (truth["bug"],)
    assert (
        "only 16 distinct frequencies (base 10000 over 64 components)" in result.faults[0]["text"]
    )
    assert not any("fit none" in f for f in result.findings)
    # Every frequency as GPT-J's create_sinusoidal_positions makes it, each one twice.
    theta = 10000.0 ** (-np.arange(0, 64, 2) / 64)
    assert np.allclose(result.frequencies, np.repeat(theta[:16], 2), rtol=1e-5)


def test_a_csv_of_float32_values_is_graded_as_float32(tmp_path):
    """Point 10: transformers' float32 cache written with '%.9g' (the digits that identify a
    float32) is read back as float32, not float64."""
    arrays = load("llama_default")
    names = []
    for key in ("cos", "sin"):
        names.append(str(tmp_path / f"{key}.csv"))
        np.savetxt(names[-1], arrays[key], delimiter=",", fmt="%.9g")
    cache = open_rope(names, None, None)
    result = audit_rope(cache.cos, cache.sin, positions=arrays["positions"])
    assert result.precision["stored"] == "float32" and result.precision["dtype"] == "float64"
    assert result.outcome == "sound" and result.base == 10000.0


def test_a_sinusoidal_table_read_as_sin_is_not_rope_and_not_a_crash():
    """Pegasus-X's float16 table (real_tables) read as a RoPE sin array: no row is a rotation
    of the fitted frequencies, which the audit says (it raised on an empty argmax before)."""
    table = np.load(DATA.parent / "real_tables" / "pegasus_x_fp16.npy")
    result = audit_rope(None, table)
    assert result.outcome == "fault" and result.bugs == ("not_rope",)


def cos_of(name: str):
    """The cos array of a cache, read by the audit's own reader (bfloat16 included)."""
    cache = open_rope([str(DATA / f"{name}.safetensors")], ["cos"], "positions")
    return cache.cos, cache.positions


@pytest.mark.parametrize("name", ["llama_yarn", "llama3_1"])
def test_cos_alone_in_bfloat16_is_the_same_rope_as_in_float32(name):
    """Point 5: transformers' cache for a bfloat16 model, cos alone, against the float32 one:
    the slowest pairs' cos rounds to 1 in bfloat16 (Llama 3.1: 88 of 128 components seen
    rotating), which is not a different rotary width."""
    cos_a, at_a = cos_of(name)
    cos_b, at_b = cos_of(f"round2_{name}_bf16")
    result = compare_rope(cos_a, None, cos_b, None, positions_a=at_a, positions_b=at_b)
    assert result.same, result.findings
    if name == "llama3_1":
        assert result.findings[0].startswith("B rotates 88 components, A 128")


def test_a_narrower_cache_that_moves_is_still_different():
    """The slow-pair reading never hides a difference: Llama 3.1 with its scaling dropped
    (transformers' seeded bug), cos alone in float32, against the bfloat16 Llama 3.1 cache."""
    cos_a, at_a = cos_of("llama3_1_bug_scaling_dropped")
    cos_b, at_b = cos_of("round2_llama3_1_bf16")
    result = compare_rope(cos_a, None, cos_b, None, positions_a=at_a, positions_b=at_b)
    assert not result.same and result.first_position is not None


def test_cos_alone_in_bfloat16_with_unseen_slow_pairs_is_undecided_not_a_fault():
    """Point 5, one cache: transformers' Llama 3.1 cache for a bfloat16 model, cos alone. Its
    40 slowest columns round to cos = 1, so the rotary width, base and arithmetic read from
    the other 88 cannot be trusted: undecided (the sin array decides), never "computed in 16
    bits" as a fault; with sin it is sound."""
    cos, at = cos_of("round2_llama3_1_bf16")
    alone = audit_rope(cos, None, positions=at)
    assert alone.outcome == "undecided" and alone.faults == ()
    assert alone.decided_by == ("the sin array (a second file or --key)",)
    assert any("the rotary width is 88 to 128" in f for f in alone.findings)
    both = open_rope([str(DATA / "round2_llama3_1_bf16.safetensors")])
    full = audit_rope(both.cos, both.sin, positions=both.positions)
    assert full.outcome == "sound" and full.rotary_dim == 128 and full.scaling["type"] == "llama3"


def gemma3_flat(local_base: float) -> dict:
    """transformers' Gemma 3 config as transformers 4 wrote it (flat: rope_theta,
    rope_local_base_freq, rope_scaling), from the nested one beside the round-1 caches."""
    nested = json.loads((DATA / "gemma3_global.config.json").read_text())
    params = nested.pop("rope_parameters")
    return {
        **nested,
        "rope_theta": params["full_attention"]["rope_theta"],
        "rope_local_base_freq": local_base,
        "rope_scaling": {"rope_type": "linear", "factor": params["full_attention"]["factor"]},
    }


@pytest.mark.parametrize(
    ("name", "layer"), [("gemma3_global", "full_attention"), ("gemma3_local", "sliding_attention")]
)
def test_gemma3_rope_local_base_freq_is_read_per_layer(name, layer):
    """Stretch goal, per-layer settings: a flat Gemma 3 config's rope_local_base_freq is the
    sliding-window layers' base (transformers' Gemma3TextConfig.convert_rope_params_to_dict),
    so transformers' local cache matches its layer instead of being a scaling mismatch."""
    arrays = load(name)
    result = audit_rope(
        arrays["cos"], arrays["sin"], positions=arrays["positions"], config=gemma3_flat(10000.0)
    )
    assert result.outcome == "sound" and result.config["layer_type"] == layer
    assert result.config["matches"]


def test_gemma3_local_cache_with_another_local_base_is_a_wrong_base():
    arrays = load("gemma3_local")
    result = audit_rope(
        arrays["cos"], arrays["sin"], positions=arrays["positions"], config=gemma3_flat(20000.0)
    )
    assert result.outcome == "fault" and "wrong_base" in result.bugs


def test_gpt_oss_yarn_truncate_false_is_identified_and_a_wrong_truncate_is_named():
    """Stretch goal, YaRN's truncate as gpt-oss uses it: transformers' gpt-oss cache is YaRN
    with truncate false alone and with its config; a config saying truncate true is a
    mismatch that names the parameter."""
    name = "round2_gpt_oss_yarn"
    truth, arrays = ROUND2[name], load(name)
    alone = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"])
    assert alone.outcome == "sound" and alone.scaling["type"] == "yarn"
    assert alone.scaling["truncate"] is False and alone.base == truth["base"]
    assert math.isclose(alone.attention_factor, truth["attention_factor"], rel_tol=1e-6)
    nested = json.loads((DATA / f"{name}.config.json").read_text())
    with_config = audit_rope(
        arrays["cos"], arrays["sin"], positions=arrays["positions"], config=nested
    )
    assert with_config.outcome == "sound" and with_config.config["matches"]
    nested["rope_parameters"]["truncate"] = True
    wrong = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"], config=nested)
    assert wrong.outcome == "fault" and wrong.bugs == ("scaling_mismatch",)
    assert (
        "other parameters than the config's: truncate False (the config's True)"
        in (wrong.faults[0]["text"])
    )


@pytest.mark.parametrize(
    ("name", "role"), [("round2_llama_yarn_bf16", "cos"), ("round2_llama3_1_bf16", "sin")]
)
def test_one_bfloat16_array_never_comes_back_a_false_fault(name, role):
    """transformers' caches for a bfloat16 model, one array alone: the fits of one rounded
    array looked like a 16-bit computation (and a wrong m, or no identity at 0); those are
    undecided, decided by the other array, and with both arrays the cache is sound."""
    cache = open_rope([str(DATA / f"{name}.safetensors")])
    one = (cache.cos, None) if role == "cos" else (None, cache.sin)
    alone = audit_rope(*one, positions=cache.positions)
    other = "sin" if role == "cos" else "cos"
    assert alone.outcome == "undecided" and alone.faults == ()
    assert f"the {other} array (a second file or --key)" in alone.decided_by
    both = audit_rope(cache.cos, cache.sin, positions=cache.positions)
    assert both.outcome == "sound"


def test_gpt_oss_one_column_per_pair_is_not_called_interleaved():
    """gpt-oss's cache (GptOssRotaryEmbedding(GptOssConfig(...))) holds one column per pair and
    its _apply_rotary_emb turns the halves (i, i + d/2) with it: the cache alone names no
    pairing (it was "interleaved pairs (2i, 2i + 1)"); the config's model_type names
    rotate_half, as the truth read from the source says."""
    name = "round2_gpt_oss_yarn"
    truth, arrays = ROUND2[name], load(name)
    alone = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"])
    assert alone.cache_layout == truth["cache_layout"] == "freqs"
    assert alone.convention is None and alone.convention_source is None
    assert "interleaved pairs" not in alone.findings[0]
    assert alone.findings[0].startswith("RoPE with pairs the cache does not name")
    nested = json.loads((DATA / f"{name}.config.json").read_text())
    with_config = audit_rope(
        arrays["cos"], arrays["sin"], positions=arrays["positions"], config=nested
    )
    assert with_config.convention == truth["convention"] == "rotate_half"
    assert with_config.convention_source == "config (model_type)"
    assert with_config.outcome == "sound"
    stated = audit_rope(
        arrays["cos"], arrays["sin"], positions=arrays["positions"], convention="rotate_half"
    )
    assert stated.outcome == "sound" and stated.faults == ()


LLAMA4_CONFIG = DATA / "round2_llama4.config.json"


@pytest.mark.parametrize("name", ["round2_llama4_layer0", "round2_llama4_layer3"])
def test_llama4_caches_are_audited_against_their_layer(name):
    """Per-layer settings: Llama4Config's no_rope_layers ([1, 1, 1, 0, 1, 1, 1, 0]: 1 means
    RoPE, 0 a NoPE layer, as Llama4TextAttention reads it). Each layer's cache (the rotary
    module's for layer 0, the identity for NoPE layer 3) is sound for its own layer and a fault
    for the other. Without a layer, the rotating cache is the RoPE layers' (the rotary module's
    cache is theirs; NoPE layers use none), and the identity undecided: right for a NoPE
    layer, wrong for the others, so the layer decides."""
    truth, arrays = ROUND2[name], load(name)
    layer, other = truth["layer"], 3 - truth["layer"]
    assert truth["no_rope_layers"][layer] == truth["use_rope"]
    own = audit_rope(
        arrays["cos"],
        arrays["sin"],
        positions=arrays["positions"],
        config=LLAMA4_CONFIG,
        layer=layer,
    )
    assert own.outcome == "sound", own.findings
    wrong = audit_rope(
        arrays["cos"],
        arrays["sin"],
        positions=arrays["positions"],
        config=LLAMA4_CONFIG,
        layer=other,
    )
    assert wrong.outcome == "fault" and "no_rope_layers" in wrong.bugs
    (text,) = [f["text"] for f in wrong.faults if f["bug"] == "no_rope_layers"]
    assert f"no_rope_layers[{other}] is {int(not truth['use_rope'])}" in text
    assert "1 means RoPE and 0 a NoPE layer" in text
    unnamed = audit_rope(
        arrays["cos"], arrays["sin"], positions=arrays["positions"], config=LLAMA4_CONFIG
    )
    assert unnamed.outcome == ("sound" if truth["use_rope"] else "undecided")
    assert unnamed.faults == () and any("layers 3, 7" in f for f in unnamed.findings)
    if not truth["use_rope"]:
        assert unnamed.decided_by == ("the layer the cache is for (--layer)",)
    if truth["use_rope"]:
        # The config's text_config (Llama4TextConfig) and its model_type name the pairing.
        assert own.convention == truth["convention"] == "interleaved"
        assert own.base == truth["base"] and own.rotary_dim == truth["rotary_dim"]
        assert np.allclose(own.frequencies, truth["inv_freq"], rtol=1e-6)
    else:
        # Without the config, an identity is no RoPE cache at all.
        alone = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"])
        assert alone.outcome == "fault" and alone.bugs == ("not_rope",)


@pytest.mark.parametrize("layer", [-1, 8, True, 2.0])
def test_a_layer_outside_the_config_is_one_clear_error(layer):
    arrays = load("round2_llama4_layer0")
    with pytest.raises(ValueError, match="layer must be an integer from 0 to 7"):
        audit_rope(arrays["cos"], arrays["sin"], config=LLAMA4_CONFIG, layer=layer)


def test_a_layer_needs_a_config_with_no_rope_layers():
    arrays = load("llama_default")
    with pytest.raises(ValueError, match="layer applies with a config"):
        audit_rope(arrays["cos"], arrays["sin"], layer=0)
    with pytest.raises(ValueError, match="applies to a config with no_rope_layers"):
        audit_rope(arrays["cos"], arrays["sin"], config=DATA / "llama_default.config.json", layer=0)


@pytest.mark.parametrize("value", [[1, 2, 1], "1,1,1,0", [1.0, 0.0], [1, 1, 1]])
def test_a_bad_no_rope_layers_is_one_clear_error(value):
    nested = json.loads(LLAMA4_CONFIG.read_text())
    nested["text_config"]["no_rope_layers"] = value
    arrays = load("round2_llama4_layer0")
    with pytest.raises(ValueError, match="no_rope_layers"):
        audit_rope(arrays["cos"], arrays["sin"], config=nested)


def first_rows(name: str, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(cos, sin, positions) of a cache's first n rows, bfloat16 read by the audit's reader."""
    from numeric.rope_audit.source import cache_source

    cache = open_rope([str(DATA / f"{name}.safetensors")])
    source = cache_source(cache.cos, cache.sin, cache.positions, name)
    cos, sin = source.take(np.arange(n))
    return cos, sin, np.asarray(cache.positions)[:n]


def test_cos_alone_of_a_short_bfloat16_yarn_cache_is_undecided_not_narrower():
    """Point 5 on transformers' YaRN for a bfloat16 model, its first 13 rows (positions 0 to
    60), cos alone: the 22 slowest columns hold m·cos x rounded to bfloat16, which is m
    (1.140625), not 1, so they were read as pass-through components that are not the identity
    and the cache as 42 components wide. They are named as the slow pairs they may be, the
    outcome is undecided (the sin array decides), and with sin it is YaRN over 64."""
    truth = ROUND2["round2_llama_yarn_bf16"]
    cos, sin, at = first_rows("round2_llama_yarn_bf16", 13)
    alone = audit_rope(cos, None, positions=at)
    assert alone.outcome == "undecided" and alone.faults == ()
    assert "the sin array (a second file or --key)" in alone.decided_by
    assert any(
        "hold cos = 1.14062 (the amplitude m, rounded)" in f and "rotary width is 42 to 64" in f
        for f in alone.findings
    )
    both = audit_rope(cos, sin, positions=at)
    assert both.outcome == "sound" and both.rotary_dim == truth["rotary_dim"]
    assert both.scaling["type"] == "yarn"
    assert math.isclose(both.attention_factor, truth["attention_factor"], rel_tol=1e-6)
    wide, _, wide_at = first_rows("llama_yarn", 13)
    same = compare_rope(wide, None, cos, None, positions_a=wide_at, positions_b=at)
    assert same.same and same.findings[0].startswith("B rotates 42 components, A 64")


PASSTHROUGH = {
    e["file"].removesuffix(".safetensors"): e
    for e in json.loads((DATA / "truth_passthrough.json").read_text())["entries"]
}


@pytest.mark.parametrize("name", sorted(PASSTHROUGH))
def test_pass_through_columns_give_the_head_dim_in_more_libraries(name):
    """Point 4 on four more libraries' own partial rotary (x-transformers, litgpt, keras-hub,
    mlx and mlx's traditional pairing; make_real_rope_passthrough.py): 8 of 16 components
    rotate, the rest pass through, and the cache alone gives the head dim, the pairing the
    library's code uses, and its frequencies."""
    truth, arrays = PASSTHROUGH[name], load(name)
    result = audit_rope(arrays["cos"], arrays["sin"], positions=arrays["positions"])
    assert result.outcome == "sound", result.findings
    assert (result.rotary_dim, result.head_dim) == (truth["rotary_dim"], truth["head_dim"])
    assert result.unrotated == tuple(range(truth["rotary_dim"], truth["head_dim"]))
    assert result.convention == truth["convention"]
    assert result.cache_layout == truth["cache_layout"]
    assert result.base == truth["base"] and result.scaling["type"] == truth["scaling"]["type"]
    theta = truth["base"] ** (-np.arange(0, truth["rotary_dim"], 2) / truth["rotary_dim"])
    assert np.allclose(result.frequencies, theta, rtol=1e-6)
    # Without the pass-through columns the width of the head is not known.
    rotary = list(range(truth["rotary_dim"]))
    alone = audit_rope(
        arrays["cos"][:, rotary], arrays["sin"][:, rotary], positions=arrays["positions"]
    )
    assert alone.head_dim is None and alone.outcome == "sound"


@pytest.mark.parametrize(
    ("name", "every"),
    [("gpt_neox_partial", 3), ("round2_llama4_layer0", 2), ("passthrough_litgpt", 1)],
)
def test_sin_alone_whose_rows_miss_the_peaks_is_no_attention_factor(name, every):
    """Sin alone of sound float32 caches (transformers' GPT-NeoX and Llama 4, litgpt's) whose
    rows never fall on a peak of the sine: the largest |sin| (0.99999 to 0.999999) is m·cos δ,
    δ the rows' least distance to a peak, not m; it was read as an attention factor m < 1,
    "FAULTS FOUND". m is known within [max, max / cos δ], which holds 1: sound."""
    arrays = load(name)
    sin, at = arrays["sin"][::every], arrays["positions"][::every]
    assert np.abs(sin).max() < 1 - 2.0**-23
    result = audit_rope(None, sin, positions=at)
    assert result.outcome == "sound" and result.attention_factor == 1.0, result.findings


@pytest.mark.parametrize("role", ["cos", "sin"])
@pytest.mark.parametrize("every", [1, 7])
def test_one_array_never_hides_a_dropped_yarn_factor(role, every):
    """The room one array leaves above its largest |value| never makes transformers' YaRN
    cache with its factor dropped (m = 1 where 0.1·ln 4 + 1 is due) sound: m = 1 with no config
    stays undecided, and the doubled factor stays a fault."""
    for name, outcome in (
        ("llama_yarn_bug_factor_dropped", "undecided"),
        ("llama_yarn_bug_factor_twice", "fault"),
    ):
        arrays = load(name)
        one = arrays[role][::every]
        result = audit_rope(
            *((one, None) if role == "cos" else (None, one)),
            positions=arrays["positions"][::every],
        )
        assert result.outcome == outcome, (name, result.findings)
