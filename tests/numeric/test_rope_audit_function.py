"""numeric.audit_rope_function and numeric.testing.assert_rope_matches on black-box functions.

Plain NumPy RoPE implementations (right, with the pairing wrong, partial, leaking), and every
real_rope cache applied the way its model applies it: assert_rope_matches passes on the correct
ones and fails on each seeded bug with one message naming a pair, a position and the bug class.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from numeric import audit_rope_function
from numeric.rope.apply import apply_cache
from numeric.testing import assert_rope_matches

DATA = Path(__file__).parent.parent / "data" / "real_rope"
TRUTH = json.loads((DATA / "truth.json").read_text())
CACHES = {e["file"].removesuffix(".safetensors"): e for e in TRUTH["entries"] if "config_file" in e}
LLAMA = {"head_dim": 64, "rope_theta": 10000.0}


def numpy_rope(x: np.ndarray, positions: np.ndarray, *, pairing: str = "rotate_half", d: int = 64):
    """What an engine author writes: float32 inv_freq and angles, cat or repeat_interleave."""
    inv = (1.0 / (np.float32(10000.0) ** (np.arange(0, d, 2, dtype=np.float32) / d))).astype(
        np.float32
    )
    angles = np.outer(positions.astype(np.float32), inv)
    if pairing == "wrong":  # a rotate_half consumer given GPT-J's interleaved cache
        emb, layout = np.repeat(angles, 2, axis=-1), "rotate_half"
    elif pairing == "interleaved":
        emb, layout = np.repeat(angles, 2, axis=-1), "interleaved"
    else:
        emb, layout = np.concatenate([angles, angles], axis=-1), "rotate_half"
    return apply_cache(x, np.cos(emb), np.sin(emb), layout=layout).astype(x.dtype)


def test_a_correct_numpy_rope_passes():
    audit = assert_rope_matches(numpy_rope, LLAMA, positions=1024)
    assert audit.sound and audit.convention == "rotate_half" and audit.head_dim == 64


def test_a_wrong_pairing_fails_naming_pair_position_and_class():
    with pytest.raises(AssertionError) as caught:
        assert_rope_matches(lambda x, p: numpy_rope(x, p, pairing="wrong"), LLAMA, positions=1024)
    message = str(caught.value)
    assert "\n" not in message
    assert "pair 0 (components 0 and 32) at position 1" in message
    assert "bug class interleaved_frequencies_with_rotate_half" in message


def test_the_other_convention_is_a_weight_permutation():
    with pytest.raises(AssertionError, match="bug class wrong_permutation"):
        assert_rope_matches(
            lambda x, p: numpy_rope(x, p, pairing="interleaved"), LLAMA, positions=256
        )
    audit = assert_rope_matches(
        lambda x, p: numpy_rope(x, p, pairing="interleaved"),
        LLAMA,
        positions=256,
        convention="interleaved",
    )
    assert audit.convention == "interleaved"


def test_the_probe_reads_partial_rotary_and_leaks():
    def partial(x, p):
        out = x.copy()
        out[..., :16] = numpy_rope(x[..., :16], p, d=16)
        return out

    audit = audit_rope_function(partial, head_dim=64, positions=512)
    assert audit.rotary_dim == 16 and audit.unrotated == tuple(range(16, 64))
    assert audit.sound

    def leaking(x, p):
        out = partial(x, p)
        out[..., 40] += 0.01 * x[..., 41]
        return out

    audit = audit_rope_function(leaking, head_dim=64, positions=512)
    assert not audit.sound and "not_rope" in audit.bugs

    def scaling_pass_through(x, p):
        out = partial(x, p)
        out[..., 16:] *= 1.5
        return out

    audit = audit_rope_function(scaling_pass_through, head_dim=64, positions=512)
    assert "unrotated_not_identity" in audit.bugs


def test_bad_functions_and_arguments_are_refused():
    with pytest.raises(ValueError, match="returned shape"):
        audit_rope_function(lambda x, p: x[..., :2], head_dim=8, positions=16)
    with pytest.raises(ValueError, match="non-finite"):
        audit_rope_function(lambda x, p: x * np.nan, head_dim=8, positions=16)
    with pytest.raises(ValueError, match="head_dim must be an even integer"):
        audit_rope_function(numpy_rope, head_dim=7)
    with pytest.raises(ValueError, match="dtype must be one of"):
        audit_rope_function(numpy_rope, head_dim=64, dtype="int8")


def cache_function(name: str):
    """apply_rope(x, positions) built from a real_rope cache as its model applies it."""
    from safetensors.numpy import load_file

    entry = CACHES[name]
    arrays = load_file(str(DATA / f"{name}.safetensors"))
    cos, sin, at = arrays["cos"], arrays["sin"], arrays["positions"]
    layout = (entry.get("as_built") or {}).get("cache_layout", entry["cache_layout"])
    consumer = entry["convention"]
    if layout == "freqs":  # complex freqs_cis: one column per pair
        cos, sin = np.repeat(cos, 2, axis=1), np.repeat(sin, 2, axis=1)
    elif layout == "cat(freqs,freqs)" and consumer == "interleaved":  # DeepSeek-V3's expansion
        half = cos.shape[1] // 2
        cos, sin = np.repeat(cos[:, :half], 2, axis=1), np.repeat(sin[:, :half], 2, axis=1)

    def apply_rope(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        rows = np.searchsorted(at, positions)
        assert np.array_equal(at[rows], positions)
        return apply_cache(x, cos[rows], sin[rows], layout=consumer)

    return apply_rope, at, entry


@pytest.mark.parametrize("name", sorted(n for n, e in CACHES.items() if e["bug"] is None))
def test_assert_rope_matches_passes_every_correct_real_cache(name):
    apply_rope, at, entry = cache_function(name)
    audit = assert_rope_matches(
        apply_rope,
        DATA / entry["config_file"],
        positions=at,
        convention=entry["convention"],
        layer_type={"gemma3_local": "sliding_attention", "gemma3_global": "full_attention"}.get(
            name
        ),
    )
    assert audit.sound


@pytest.mark.parametrize("name", sorted(n for n, e in CACHES.items() if e["bug"] is not None))
def test_assert_rope_matches_fails_on_every_seeded_bug(name):
    apply_rope, at, entry = cache_function(name)
    with pytest.raises(AssertionError) as caught:
        assert_rope_matches(
            apply_rope, DATA / entry["config_file"], positions=at, convention=entry["convention"]
        )
    message = str(caught.value)
    assert "\n" not in message
    assert f"bug class {entry['bug']}" in message
    assert "at position" in message and "pair" in message


def test_the_identity_is_not_rope_and_probes_are_bounded():
    audit = audit_rope_function(lambda x, p: x, head_dim=8, positions=16)
    assert not audit.sound and audit.bugs == ("not_rope",)
    assert audit.unrotated == tuple(range(8))
    with pytest.raises(ValueError, match="more than the 8388608 entries a probe keeps"):
        audit_rope_function(lambda x, p: x, head_dim=1024, positions=100_000)


def test_a_slow_pair_off_by_more_than_float32_makes_fails():
    # Each pair is held to its own float32 cap. By hand: the slowest pair's θ = 10000^(-62/64)
    # ≈ 1.3e-4 is off so that its angle at position p is off by p·1e-4/1023 ≈ 1e-7·p, while
    # float32 code (x in float32: two roundings of 2^-24, and the angle's and θ's rounding,
    # 2^-24·(35·p·θ + 4)) makes about 3.6e-7 at small p: the entries part near position 4.
    # The fastest pair's cap there, 2^-24·(8·p + 4) ≈ 2e-6, would not have seen them before
    # position 20.
    d = 64
    theta = 10000.0 ** (-np.arange(0, d, 2) / d)
    theta[-1] *= 1 + 1e-4 / (1023 * theta[-1])

    def slow_pair_off(x: np.ndarray, positions: np.ndarray) -> np.ndarray:
        angles = np.outer(positions.astype(np.float64), theta)
        emb = np.concatenate([angles, angles], axis=-1)
        return apply_cache(x, np.cos(emb), np.sin(emb), layout="rotate_half").astype(x.dtype)

    with pytest.raises(
        AssertionError, match=r"pair 31 \(components 31 and 63\) at position [3-6]:"
    ):
        assert_rope_matches(slow_pair_off, LLAMA, positions=1024)
