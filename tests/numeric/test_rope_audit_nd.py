"""numeric.audit_rope on caches beyond one dimension, built by the libraries' own code
(tests/data/real_rope_nd, made by tests/data/make_real_rope_nd.py).

torchtune's vision RoPE and timm's grid RoPE are read as 2-D axial RoPE (grid, which pairs turn
with x and with y, each axis's frequencies and first position), Qwen2-VL's and Qwen3-VL's caches
as M-RoPE (mrope_section, chunked or interleaved, the text rows before the image), and
rotary-embedding-torch's xPos cache as its scale times a sound rotation; every field against the
truth read from the library's source, and none of them blamed on 16-bit arithmetic or shifted
positions (issue 31, point 2).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from numeric import audit_rope
from numeric.rope import rope_cache, rope_frequencies
from numeric.rope_audit.axial import read_grid

safetensors = pytest.importorskip("safetensors.numpy")

DATA = Path(__file__).parent.parent / "data" / "real_rope_nd"
TRUTH = {e["name"]: e for e in json.loads((DATA / "truth.json").read_text())["entries"]}
GRIDS = [n for n, e in TRUTH.items() if e["kind"] == "axial"]
MROPE = [n for n, e in TRUTH.items() if e["kind"] == "mrope"]


def load(name: str) -> tuple[np.ndarray, np.ndarray]:
    found = safetensors.load_file(str(DATA / TRUTH[name]["file"]))
    return found["cos"], found["sin"]


def pairs_of(columns: list[int], layout: str, width: int) -> list[int]:
    """The pairs the truth's cache columns hold, in the audit's numbering."""
    if layout == "freqs":
        return sorted(columns)
    if layout == "repeat_interleave":
        return sorted({c // 2 for c in columns})
    return sorted({c % (width // 2) for c in columns})


@pytest.fixture(scope="module")
def audits() -> dict:
    return {name: audit_rope(*load(name)) for name in TRUTH}


def _not_blamed_on_16_bits_or_shifts(result) -> None:
    text = " ".join(result.findings)
    assert "float16" not in text.replace("in float16 it overflows", "")
    assert "holds position" not in text and "#1003" not in text


@pytest.mark.parametrize("name", GRIDS)
def test_axial_caches_are_read_as_axial(audits, name: str) -> None:
    truth, result = TRUTH[name], audits[name]
    width = result.shape[1]
    assert result.sound, result.findings
    assert result.scaling["type"] == "axial"
    assert result.scaling["grid"] == truth["grid"]
    assert result.cache_layout == truth["layout"]
    assert result.scaling["x_pairs"] == pairs_of(truth["x_columns"], truth["layout"], width)
    assert result.scaling["y_pairs"] == pairs_of(truth["y_columns"], truth["layout"], width)
    for axis in ("x", "y"):
        np.testing.assert_allclose(
            result.scaling[f"{axis}_frequencies"], truth["axis_frequencies"], rtol=1e-5
        )
        assert result.scaling[f"{axis}_origin"] == pytest.approx(truth["origin"][axis], abs=1e-4)
    assert result.scaling["identity_rows"] == truth["identity_rows"]
    assert "2-D axial RoPE" in result.findings[0]
    _not_blamed_on_16_bits_or_shifts(result)


@pytest.mark.parametrize("name", MROPE)
def test_mrope_caches_are_read_as_mrope(audits, name: str) -> None:
    truth, result = TRUTH[name], audits[name]
    assert result.sound, result.findings
    assert result.scaling["type"] == "mrope"
    assert result.scaling["mrope_section"] == truth["mrope_section"]
    assert result.scaling["section_layout"] == truth["section_layout"]
    assert result.scaling["text_rows"] == truth["text_tokens"]
    assert result.scaling["grid"] == truth["image_grid"][1:]
    for axis in ("h", "w"):
        assert result.scaling[f"{axis}_origin"] == pytest.approx(truth["origin"][axis], abs=1e-4)
    assert f"base {truth['base']:g}" in " ".join(result.findings).replace("1e+06", "1e+06")
    _not_blamed_on_16_bits_or_shifts(result)


def test_the_xpos_cache_is_its_scale_times_a_sound_rotation(audits) -> None:
    truth = TRUTH["rotary_embedding_torch_xpos"]
    result = audits["rotary_embedding_torch_xpos"]
    assert result.sound, result.findings
    scale = result.scaling["xpos"]
    assert scale["centre"] == pytest.approx(truth["center"], abs=1e-3)
    assert scale["scale_base"] == pytest.approx(truth["xpos_scale_base"], rel=1e-4)
    assert scale["zeta"] == "(2i + 0.4·d)/(1.4·d)"
    assert result.base == pytest.approx(truth["base"])
    assert result.convention == "interleaved"
    assert result.findings[0].startswith("xPos (rotary-embedding-torch use_xpos)")
    assert "overflows from p − c = 4533" in result.findings[1]


def test_a_one_dimensional_cache_is_no_grid() -> None:
    f = rope_frequencies({"head_dim": 64, "rope_theta": 10000.0})
    cos, sin = rope_cache(f.inv_freq, 64)
    assert read_grid(cos[:, :32], sin[:, :32], 1e-9) is None
    assert audit_rope(cos, sin).scaling["type"] == "none"


def test_a_grid_with_its_rows_shuffled_is_not_called_axial() -> None:
    cos, sin = load("torchtune_vision_rope")
    order = np.random.default_rng(0).permutation(cos.shape[0])
    result = audit_rope(cos[order], sin[order])
    assert result.scaling["type"] not in ("axial", "mrope")
    assert not result.sound


def test_a_corrupted_patch_fails_the_grid_audit() -> None:
    cos, sin = load("timm_grid_rope")
    cos, sin = cos.copy(), sin.copy()
    cos[20, 0] += 0.01
    result = audit_rope(cos, sin)
    assert not result.sound


def test_an_xpos_cache_past_the_fp16_limit_is_said_to_overflow() -> None:
    # Positions far from the centre: the keys' scale leaves float16 (theorem rope_xpos).
    f = rope_frequencies({"head_dim": 64, "rope_theta": 10000.0})
    positions = np.arange(0, 12000, 7)
    cos, sin = rope_cache(f.inv_freq, positions)
    zeta = (np.arange(0, 64, 2) + 0.4 * 64) / (1.4 * 64)
    per_pair = zeta[None, :] ** ((positions[:, None] - 6000) / 512)
    scale = np.concatenate([per_pair, per_pair], axis=1)  # rope_cache's rotate_half columns
    cos, sin = (cos * scale).astype(np.float32), (sin * scale).astype(np.float32)
    result = audit_rope(cos, sin, positions=positions)
    said = " ".join(result.findings)
    assert result.sound, result.findings
    assert "keys would be infinite in float16" in said
    # Within the limit the same words are absent.
    near = positions < 9000
    inside = audit_rope(cos[near], sin[near], positions=positions[near])
    assert "xPos" in inside.findings[0]
    assert "infinite" not in " ".join(inside.findings)


QWEN2_CONFIG = {"rope_theta": 1e6, "head_dim": 128, "hidden_size": 1024, "num_attention_heads": 8}


@pytest.mark.parametrize(
    "rope",
    [
        {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [16, 24, 24]},
        # Qwen2-VL's own config.json: transformers reads type "mrope" as the default frequencies.
        {"type": "mrope", "mrope_section": [16, 24, 24]},
    ],
)
def test_the_configs_mrope_section_is_checked_and_agrees(rope) -> None:
    key = "rope_parameters" if "rope_type" in rope else "rope_scaling"
    result = audit_rope(*load("qwen2vl_mrope"), config={**QWEN2_CONFIG, key: rope})
    assert result.sound, result.findings
    assert "the config's mrope_section [16, 24, 24] agrees" in result.findings


def test_a_config_with_other_sections_is_a_fault() -> None:
    rope = {"rope_type": "default", "rope_theta": 1e6, "mrope_section": [24, 20, 20]}
    result = audit_rope(*load("qwen2vl_mrope"), config={**QWEN2_CONFIG, "rope_parameters": rope})
    assert not result.sound
    assert result.bugs == ("mrope_section_mismatch",)


@pytest.mark.parametrize(
    "section", [[16, 24], [16, 24, -1], [16.0, 24, 24], "16,24,24", [True, 1, 1]]
)
def test_a_bad_mrope_section_is_one_clear_error(section) -> None:
    rope = {"rope_type": "default", "rope_theta": 1e6, "mrope_section": section}
    with pytest.raises(ValueError, match=r"rope_parameters\.mrope_section must be three"):
        audit_rope(*load("qwen2vl_mrope"), config={**QWEN2_CONFIG, "rope_parameters": rope})


def test_the_truth_rebuilds_every_cache() -> None:
    # The truth's fields alone (no audit) rebuild each cache within float32's error.
    import subprocess
    import sys

    script = DATA.parent / "check_truth_nd.py"
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout
    assert done.stdout.count("ok ") == len(TRUTH)


@pytest.mark.parametrize(
    ("name", "kind"), [("torchtune_vision_rope", "axial"), ("qwen2vl_mrope", "mrope")]
)
def test_a_grid_cache_stored_in_float16_is_still_read_as_a_grid(name: str, kind: str) -> None:
    cos, sin = load(name)
    result = audit_rope(cos.astype(np.float16), sin.astype(np.float16))
    assert result.scaling["type"] == kind
    assert result.scaling["grid"] == TRUTH[name].get("grid", TRUTH[name].get("image_grid", [])[1:])
    _not_blamed_on_16_bits_or_shifts(result)
