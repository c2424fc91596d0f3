"""The RoPE audit on real caches read every k-th row (k = 1, 2, 3, 7), as cos alone, sin alone
or both, without a config (issue 31).

Before the refit of one_array.through_origin, three sound caches came back FAULT read one array
at a time: transformers' Llama 3.1 and gpt-oss YaRN caches as cos every 2nd or 3rd row
("computed in 16 bits": the slow pairs' θ fitted from rebuilt angles, which a cos near 1 holds
loosely), and the pass-through caches of keras-hub, litgpt, mlx and x-transformers as sin every
7th row (10 rows, none on a peak: m read as 0.9906, each rebuilt angle pulled by it), and
transformers' LongRoPE caches (Llama's sin and Phi-3's cos every 7th row: their m of 1.0871
read from rows off the peaks, and loosely held slow pairs). A cache
whose angles really were computed in 16 bits, read the same way, is still a fault.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from numeric import audit_rope
from numeric.rope import rope_frequencies
from numeric.rope.floats import round_to
from proofs.cli.main import main

safetensors = pytest.importorskip("safetensors.numpy")

DATA = Path(__file__).parent.parent / "data" / "real_rope"
SOUND = [
    "llama3_1",
    "round2_gpt_oss_yarn",
    "llama_longrope_long",
    "phi3_longrope_long",
    "passthrough_keras_hub",
    "passthrough_litgpt",
    "passthrough_mlx",
    "passthrough_mlx_traditional",
    "passthrough_x_transformers",
]
EVERY = (1, 2, 3, 7)
GIVEN = ("cos", "sin", "cos and sin")


def load(name: str) -> dict:
    return safetensors.load_file(str(DATA / f"{name}.safetensors"))


def read(arrays: dict, k: int, given: str):
    cos = arrays["cos"][::k] if "cos" in given else None
    sin = arrays["sin"][::k] if "sin" in given else None
    return audit_rope(cos, sin, positions=arrays["positions"][::k])


def angles_in_16_bits(fmt: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A float32 cache whose angles p·θ were computed in fmt (p, θ and the product rounded to
    it, gpt-neox #1003), cos and sin then taken in float32: its values are not 16-bit ones."""
    theta = rope_frequencies({"head_dim": 64, "rope_theta": 10000.0}).inv_freq
    positions = np.arange(2048)

    def rounded(x):
        return round_to(np.asarray(x, np.float32), fmt).astype(np.float32)

    angle = rounded(rounded(positions)[:, None] * rounded(theta)[None, :])
    angle = np.concatenate([angle, angle], axis=1)
    return np.cos(angle), np.sin(angle), positions


@pytest.mark.parametrize("given", GIVEN)
@pytest.mark.parametrize("k", EVERY)
@pytest.mark.parametrize("name", SOUND)
def test_a_sound_cache_read_every_kth_row_is_never_a_fault(name, k, given):
    result = read(load(name), k, given)
    assert result.outcome != "fault", result.findings
    if given == "cos and sin" and "longrope" not in name:
        assert result.outcome == "sound"  # LongRoPE's factor alone is undecided, config aside


@pytest.mark.parametrize(
    ("name", "k", "given"),
    [
        ("llama3_1", 2, "cos"),
        ("llama3_1", 3, "cos"),
        ("round2_gpt_oss_yarn", 2, "cos"),
        ("passthrough_litgpt", 7, "sin"),
        ("llama_longrope_long", 7, "sin"),
    ],
)
def test_the_grade_a_loose_fit_gives_is_undecided_with_its_reason(name, k, given):
    """The cases that were "computed in 16 bits": the grade is kept, as undecided, with why."""
    result = read(load(name), k, given)
    assert result.outcome == "undecided" and "fp16_cache" in result.bugs
    assert result.faults == ()
    (text,) = [f for f in result.findings if "holds the frequencies loosely" in f]
    assert f"with each pair's frequency refitted to the {given} values" in text
    other = "sin" if given == "cos" else "cos"
    assert any(other in d for d in result.decided_by)


@pytest.mark.parametrize("given", GIVEN)
@pytest.mark.parametrize("k", EVERY)
@pytest.mark.parametrize("fmt", ["float16", "bfloat16"])
def test_angles_computed_in_16_bits_read_every_kth_row_are_a_fault(fmt, k, given):
    cos, sin, positions = angles_in_16_bits(fmt)
    arrays = {"cos": cos, "sin": sin, "positions": positions}
    result = read(arrays, k, given)
    assert result.outcome == "fault"
    assert {"fp16_cache", "not_rope"} & {f["bug"] for f in result.faults}
    assert not any("holds the frequencies loosely" in f for f in result.findings)


def test_the_command_line_exits_3_not_1_on_llama3_1_cos_every_2nd_row(tmp_path, capsys):
    arrays = load("llama3_1")
    path = tmp_path / "cos.npz"
    np.savez(path, cos=arrays["cos"][::2], positions=arrays["positions"][::2])
    assert main(["audit", "--rope", str(path), "--key", "cos"]) == 3
    out = capsys.readouterr().out
    assert "UNDECIDED" in out and "holds the frequencies loosely" in out


def test_the_command_line_exits_1_on_16_bit_angles_cos_every_2nd_row(tmp_path, capsys):
    cos, _, positions = angles_in_16_bits("float16")
    path = tmp_path / "cos.npz"
    np.savez(path, cos=cos[::2], positions=positions[::2])
    assert main(["audit", "--rope", str(path), "--key", "cos"]) == 1
    assert "FAULTS FOUND" in capsys.readouterr().out
