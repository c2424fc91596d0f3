"""The RoPE twins pass, and each fails when the implementation it checks is wrong."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

import numeric.checks
from numeric.checks import rope_decay, rope_group, rope_layouts, rope_precision, rope_scaling
from numeric.rope import rope_cache
from numeric.rope.apply import apply_cache
from numeric.rope.methods import yarn
from numeric.rope.scaling import default_frequencies


def test_layouts_twin_passes_small():
    table = rope_layouts.rope_layouts_table(head_dim=32, max_position=20000, samples=64)
    assert table.passed is True
    assert all(row[-1] for row in table.rows)
    expected = [row[4] for row in table.rows]
    assert expected.count("refuted") == 5 and expected.count("holds") == 7


def test_layouts_twin_fails_with_a_wrong_permute(monkeypatch):
    # Pairing 2i+1 ↦ i and 2i ↦ i + d/2: the conversion row breaks.
    def swapped(head_dim):
        return np.concatenate([np.arange(1, head_dim, 2), np.arange(0, head_dim, 2)])

    monkeypatch.setattr(rope_layouts, "rotate_half_order", swapped)
    table = rope_layouts.rope_layouts_table(head_dim=16, max_position=5000, samples=16)
    assert table.passed is False


def test_layouts_twin_fails_when_the_weights_permute_ignores_heads(monkeypatch):
    monkeypatch.setattr(rope_layouts, "permute_heads", lambda w, n_heads: w)
    assert (
        rope_layouts.rope_layouts_table(head_dim=16, max_position=5000, samples=16).passed is False
    )


def test_group_twin_passes_small():
    assert rope_group.rope_group_table(
        head_dim=16, max_position=9000, samples=64, shifts=(1, -4096)
    ).passed


def test_group_twin_fails_when_the_pairing_does_not_match_the_cache(monkeypatch):
    # Interleaved cache columns applied with rotate_half pairing: no longer rotations.
    def mixed(x, positions, freqs, layout="rotate_half", **kwargs):
        cos, sin = rope_cache(
            freqs, np.asarray(positions), layout="interleaved", dtype="float64", arithmetic="exact"
        )
        return apply_cache(x, cos, sin, layout="rotate_half")

    monkeypatch.setattr(rope_group, "apply_rope", mixed)
    assert (
        rope_group.rope_group_table(head_dim=16, max_position=5000, samples=32, shifts=(1,)).passed
        is False
    )


def test_scaling_twin_passes_small():
    table = rope_scaling.rope_scaling_table(samples=64, max_position=10000)
    assert table.passed is True
    refuted = [row[1] for row in table.rows if row[5] == "refuted"]
    assert len(refuted) == 5


def _scaling_with(monkeypatch, method: str, **replaced):
    """One method's file with some of its functions replaced, as its twin rows see them."""
    module = importlib.import_module(f"numeric.rope.methods.{method}")
    for name, value in replaced.items():
        monkeypatch.setattr(module, name, value)


def _failing(table) -> list[str]:
    return [f"{row[0]}: {row[1]}" for row in table.rows if not row[-1]]


def test_scaling_twin_fails_when_yarn_ramps_the_wrong_way(monkeypatch):
    _scaling_with(
        monkeypatch,
        "yarn",
        yarn_frequencies=lambda *a, real=yarn.yarn_frequencies, **k: real(*a, **k)[::-1].copy(),
    )
    failing = _failing(rope_scaling.rope_scaling_table(samples=16, max_position=5000))
    assert any("YaRN (code): θ′_i falls with i" in f for f in failing)


def test_scaling_twin_fails_when_llama3_loses_its_smoothing(monkeypatch):
    def no_smooth(dim, base, factor, low, high, original, **kwargs):
        theta = default_frequencies(dim, base)
        return np.where(2 * np.pi / theta > original / high, theta / factor, theta)

    _scaling_with(monkeypatch, "llama3", llama3_frequencies=no_smooth)
    failing = _failing(rope_scaling.rope_scaling_table(samples=16, max_position=5000))
    assert any(f.startswith("Llama 3: = YaRN paper") for f in failing)


def test_scaling_twin_fails_when_ntk_forgets_the_exponent(monkeypatch):
    _scaling_with(
        monkeypatch,
        "ntk",
        ntk_aware_frequencies=lambda d, b, s, **k: default_frequencies(d, b * s, **k),
    )
    failing = _failing(rope_scaling.rope_scaling_table(samples=16, max_position=5000))
    assert any("θ′_{d/2−1} = θ_{d/2−1}/s" in f for f in failing)


def test_decay_twin_passes_small_and_refutes_monotonicity():
    table = rope_decay.rope_decay_table(max_distance=4000, samples=32)
    assert table.passed is True
    last = table.rows[-1]
    assert last[4] == "refuted" and "first rise at r = 18 → 19" in last[1]


def test_decay_twin_fails_on_a_wrong_abel_sum(monkeypatch):
    real = rope_decay.abel_sides
    monkeypatch.setattr(
        rope_decay, "abel_sides", lambda h, r, f: (real(h, r, f)[0], real(h, r, f)[1] * (1 + 1e-9))
    )
    assert rope_decay.rope_decay_table(max_distance=2500, samples=16).passed is False


def test_precision_twin_passes_and_fails_with_a_truncating_bfloat16(monkeypatch):
    assert rope_precision.rope_precision_table(max_position=5000).passed is True
    real = rope_precision.round_to

    def truncating(x, fmt):  # chop the low bits instead of rounding to nearest
        if fmt == "bfloat16":
            return (np.asarray(x, dtype=np.float32).view(np.uint32) & 0xFFFF0000).view(np.float32)
        return real(x, fmt)

    monkeypatch.setattr(rope_precision, "round_to", truncating)
    assert rope_precision.rope_precision_table(max_position=5000).passed is False


@pytest.mark.parametrize(
    "name",
    [
        "rope_layouts_table",
        "rope_group_table",
        "rope_scaling_table",
        "rope_decay_table",
        "rope_precision_table",
    ],
)
def test_twins_are_exported(name):
    assert callable(getattr(numeric.checks, name))


@pytest.mark.slow
@pytest.mark.parametrize(
    "twin",
    [
        rope_layouts.rope_layouts_table,
        rope_group.rope_group_table,
        rope_scaling.rope_scaling_table,
        rope_decay.rope_decay_table,
        rope_precision.rope_precision_table,
    ],
)
def test_twins_pass_at_131072_positions(twin):
    table = twin()
    assert table.passed is True, [row for row in table.rows if not row[-1]]
