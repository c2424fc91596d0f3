"""numeric.audit_rope on caches built here with numeric.rope, each with one fault or none.

Structure (unrotated columns, direction, phase at 0, amplitude), precision (16-bit storage,
16-bit arithmetic, positions rounded so rows repeat), offsets, every scaling method from the
cache alone, one array alone, and bad input refused in one line.
"""

from __future__ import annotations

import numpy as np
import pytest

from numeric import audit_rope
from numeric.rope import rope_cache, rope_frequencies

BASE = {"head_dim": 64, "rope_theta": 10000.0, "max_position_embeddings": 2048}


def cache(config=BASE, n=2048, **options):
    f = rope_frequencies(config, seq_len=n)
    options.setdefault("attention_factor", f.attention_factor)
    return rope_cache(f.inv_freq, n, **options)


def test_a_correct_float32_cache_is_sound():
    result = audit_rope(*cache())
    assert result.sound and result.faults == ()
    assert (result.convention, result.cache_layout) == ("rotate_half", "cat(freqs,freqs)")
    assert result.precision["grade"] == "computed in float32"
    assert result.precision["computed_in"] == "float32"
    assert result.positions == {
        "rows": 2048,
        "rows_measured": 2048,
        "first": 0,
        "last": 2047,
        "step": 1,
    }


def test_an_exact_cache_is_rounded_once():
    f = rope_frequencies(BASE, arithmetic="float64")
    result = audit_rope(*rope_cache(f.inv_freq, 2048, arithmetic="exact"))
    assert result.sound and result.precision["grade"] == "rounded once"
    assert result.max_abs_error <= 2.0**-24


def test_the_interleaved_layout():
    result = audit_rope(*cache(layout="interleaved"))
    assert (result.convention, result.cache_layout) == ("interleaved", "repeat_interleave")
    assert result.sound


def test_unrotated_columns_left_alone_are_partial_rotary():
    cos, sin = cache()
    n = cos.shape[0]
    cos = np.hstack([cos, np.ones((n, 32), np.float32)])
    sin = np.hstack([sin, np.zeros((n, 32), np.float32)])
    result = audit_rope(cos, sin)
    assert result.rotary_dim == 64 and result.unrotated == tuple(range(64, 96))
    assert result.sound


def test_unrotated_columns_that_scale_are_a_fault():
    cos, sin = cache()
    n = cos.shape[0]
    cos = np.hstack([cos, np.full((n, 4), 0.5, np.float32)])
    sin = np.hstack([sin, np.zeros((n, 4), np.float32)])
    result = audit_rope(cos, sin)
    assert not result.sound and "unrotated_not_identity" in result.bugs
    assert result.structure["verdict"] == "fault"


def test_a_negated_sin_rotates_backwards():
    cos, sin = cache()
    result = audit_rope(cos, -sin)
    assert "reversed" in result.bugs and not result.sound
    assert result.base == 10000.0


def test_cos_and_sin_swapped_are_not_the_identity_at_zero():
    cos, sin = cache()
    result = audit_rope(sin, cos)
    assert not result.sound
    assert {"not_identity_at_zero", "reversed"} & set(result.bugs)


def test_one_pair_scaled_breaks_the_amplitude():
    cos, sin = cache()
    cos[:, 5] *= 1.1
    sin[:, 5] *= 1.1
    cos[:, 37] *= 1.1
    sin[:, 37] *= 1.1
    result = audit_rope(cos, sin)
    assert "amplitude" in result.bugs and not result.sound
    assert any("pairs 5" in f for f in result.findings)


def test_an_offset_describes_a_slice_unless_positions_are_stated():
    f = rope_frequencies(BASE)
    cos, sin = rope_cache(f.inv_freq, np.arange(1, 1025))
    described = audit_rope(cos, sin)
    assert described.position_offset == 1 and described.sound
    stated = audit_rope(cos, sin, positions=np.arange(1024))
    assert stated.position_offset == 1 and "position_offset" in stated.bugs
    assert not stated.sound


@pytest.mark.parametrize(("fmt", "bug"), [("bfloat16", "bf16_stored"), ("float16", "fp16_stored")])
def test_stored_in_16_bits_is_named_not_failed(fmt, bug):
    result = audit_rope(*cache(dtype=fmt))
    assert result.precision["stored"] == fmt
    assert result.precision["grade"] == "rounded once"
    assert bug in result.bugs and result.sound


@pytest.mark.parametrize("fmt", ["float16", "bfloat16"])
def test_angles_computed_in_16_bits_fail(fmt):
    result = audit_rope(*cache(arithmetic=fmt, dtype=fmt))
    assert result.precision["grade"] == "computed in 16 bits"
    assert "fp16_cache" in result.bugs and not result.sound


def test_positions_rounded_to_bfloat16_make_rows_repeat():
    result = audit_rope(*cache(n=1024, positions_format="bfloat16"))
    assert result.precision["positions_rounded_to"] == "bfloat16"
    assert "bf16_positions" in result.bugs and not result.sound
    assert any("rows for positions 256 and 257 are equal" in f for f in result.findings)


def test_inv_freq_rounded_to_bfloat16():
    result = audit_rope(*cache(inv_freq_format="bfloat16"))
    assert result.precision["inv_freq_rounded_to"] == "bfloat16"
    assert "bf16_inv_freq" in result.bugs


SCALED = {
    "linear": {"rope_type": "linear", "factor": 4.0},
    "yarn": {"rope_type": "yarn", "factor": 8.0, "original_max_position_embeddings": 1024},
    "llama3": {
        "rope_type": "llama3",
        "factor": 8.0,
        "low_freq_factor": 1.0,
        "high_freq_factor": 4.0,
        "original_max_position_embeddings": 1024,
    },
}


@pytest.mark.parametrize("kind", sorted(SCALED))
def test_each_scaling_method_from_the_cache_alone(kind):
    config = {**BASE, "head_dim": 128, "rope_theta": 500000.0, "rope_scaling": SCALED[kind]}
    result = audit_rope(*cache(config, n=4096))
    assert result.scaling["type"] == kind
    assert result.scaling["factor"] == SCALED[kind]["factor"]
    assert result.base == 500000.0
    if kind == "llama3":
        assert result.scaling["original_max_position_embeddings"] == 1024
        assert result.scaling["high_freq_factor"] == 4.0
    if kind == "yarn":
        assert result.scaling["original_max_position_embeddings"] == 1024
        assert result.attention_factor == pytest.approx(0.1 * np.log(8) + 1, rel=1e-6)
        assert result.sound


def test_frequencies_from_no_method_are_custom():
    theta = np.sort(np.random.default_rng(0).uniform(1e-4, 1.0, 32))[::-1]
    result = audit_rope(*rope_cache(theta, 1024))
    assert result.scaling["type"] == "custom"
    assert np.allclose(result.frequencies, theta, rtol=1e-5)


def test_noise_is_not_a_rope_cache():
    rng = np.random.default_rng(1)
    result = audit_rope(rng.uniform(-1, 1, (512, 16)), rng.uniform(-1, 1, (512, 16)))
    assert not result.sound


@pytest.mark.parametrize("which", ["cos", "sin"])
def test_one_array_alone(which):
    cos, sin = cache()
    result = audit_rope(cos if which == "cos" else None, sin if which == "sin" else None)
    assert (result.base, result.scaling["type"], result.rotary_dim) == (10000.0, "none", 64)
    assert result.sound


def test_no_rotating_column():
    ones = np.ones((8, 4), np.float32)
    result = audit_rope(ones, np.zeros_like(ones))
    assert not result.sound and result.bugs == ("not_rope",)


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ((None, None), "give cos, sin or both"),
        ((np.zeros(4), None), "must be 2-D"),
        ((np.zeros((4, 4), np.int32), None), "only float16"),
        ((np.zeros((4, 4)), np.zeros((4, 6))), "same shape"),
        ((np.full((4, 4), np.nan), None), "non-finite value (nan) at row 0"),
    ],
)
def test_bad_arrays_are_refused_in_one_line(arrays, message):
    with pytest.raises(ValueError, match=None) as caught:
        audit_rope(*arrays)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_bad_positions_and_conventions_are_refused():
    cos, sin = cache(n=16)
    for positions, message in (
        (np.arange(15), "one entry per row"),
        (np.arange(16)[::-1], "strictly increasing"),
        (np.linspace(0, 1, 16), "whole numbers"),
    ):
        with pytest.raises(ValueError, match=message):
            audit_rope(cos, sin, positions=positions)
    with pytest.raises(ValueError, match="'rotate_half' or 'interleaved'"):
        audit_rope(cos, sin, convention="neox")


def test_a_cache_longer_than_a_pass_is_measured_on_spread_runs(monkeypatch):
    from numeric.rope_audit import source

    monkeypatch.setattr(source, "MAX_PASS_ROWS", 2**15)
    result = audit_rope(*cache(n=2**17))
    assert result.positions["rows"] == 2**17
    assert 2**15 <= result.positions["rows_measured"] < 2**16
    assert result.sound and result.worst_position > 2**16


@pytest.mark.slow
def test_a_long_float32_cache():
    """(131072, 128): the error of float32 code passes 1e-3 and is still graded float32."""
    config = {"head_dim": 128, "rope_theta": 500000.0}
    result = audit_rope(*cache(config, n=131072))
    assert result.sound and result.precision["computed_in"] == "float32"
    assert result.max_abs_error > 1e-3


def test_an_offset_is_a_fault_when_the_config_says_position_0_is_the_identity():
    """The offset rule (issue 31, point 9): the same shifted cache is described (sound) alone,
    and a fault beside a config, which says row p is position p from 0."""
    f = rope_frequencies(BASE)
    cos, sin = rope_cache(f.inv_freq, np.arange(1, 1025))
    alone = audit_rope(cos, sin)
    assert alone.outcome == "sound"
    assert any("harmless when q and k share the cache" in t for t in alone.findings)
    with_config = audit_rope(cos, sin, config={**BASE, "max_position_embeddings": 4096})
    assert with_config.position_offset == 1 and with_config.outcome == "fault"
    assert "position_offset" in with_config.bugs
    assert any("but the config says position 0 is the identity" in t for t in with_config.findings)
