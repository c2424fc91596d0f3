"""The ledger's closed-form claims: each verdict pinned, each `fails` re-checked with mpmath at
40 digits, independently of the balls that decided it."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from proofs.theorems.papers import claim_modules, gptoss2025, ledger, liu2023, t5
from proofs.theorems.papers.common.entry import Entry


@pytest.fixture(autouse=True)
def _forty_digits():
    """mpmath at 40 digits in this file's tests only (its global context is shared)."""
    with mpmath.workdps(40):
        yield


PINNED = {
    "vaswani2017.wavelengths": "fails",
    "t5.buckets": "fails",
    "t5.buckets.float32": "holds",
    "liu2023.d_extra": "holds",
    "liu2023.t_extra": "holds",
    "liu2023.beta0.T16000": "holds",
    "liu2023.beta0.T16384": "holds",
    "yarn2023.eq17_base": "holds",
    "gptoss2025.yarn_range": "holds",
}


@pytest.fixture(scope="module")
def closed() -> dict[str, Entry]:
    found = []
    for name in claim_modules():
        if name not in ("men2024", "su2024"):
            found += ledger(name)
    return {e.id: e for e in found}


def test_every_closed_claim_has_its_pinned_verdict(closed):
    assert {k: e.verdict for k, e in closed.items()} == PINNED


def test_the_registry_discovers_every_claim_module():
    assert claim_modules() == [
        "gptoss2025",
        "liu2023",
        "men2024",
        "su2024",
        "t5",
        "vaswani2017",
        "yarn2023",
    ]


def test_vaswani_top_wavelength_falls_short_of_10000_2pi_by_mpmath(closed):
    w = closed["vaswani2017.wavelengths"].witness
    gap = 2 * mpmath.pi * 10000 - 2 * mpmath.pi * mpmath.power(10000, mpmath.mpf(255) / 256)
    assert gap > 2000
    assert mpmath.almosteq(gap, mpmath.mpf(w["gap_value"].strip("[").split()[0]), rel_eps=1e-15)


def test_t5_last_bucket_starts_at_91_by_mpmath(closed):
    def bucket(r: int) -> int:
        return min(8 + int(mpmath.floor(8 * mpmath.log(mpmath.mpf(r) / 8) / mpmath.log(16))), 15)

    assert closed["t5.buckets"].witness["first_distance_of_last_bucket"] == 91
    assert (bucket(90), bucket(91)) == (14, 15)
    assert 64 * mpmath.sqrt(2) < 91 < 64 * mpmath.sqrt(2) + 1


def test_t5_float32_buckets_follow_the_code_on_both_sides():
    r = np.arange(-200, 201)
    buckets = t5.float32_buckets(r)
    assert buckets[r == 0][0] == 0 and buckets[r == 5][0] == 21 and buckets[r == -5][0] == 5
    assert set(buckets[r >= 91]) == {31} and set(buckets[r <= -91]) == {15}
    exact = [t5.exact_bucket(abs(int(x))) + (16 if x > 0 else 0) for x in r]
    assert buckets.tolist() == exact


def test_the_float32_boundaries_that_sit_exactly_on_an_integer_are_listed(closed):
    witness = closed["t5.buckets.float32"].witness
    assert witness["moved"] == []
    assert witness["exactly_on_a_boundary"] == [16, 32, 64]


def test_exact_bucket_settles_the_powers_of_two_exactly():
    assert [t5.exact_bucket(r) for r in (8, 16, 32, 64, 128, 4096)] == [8, 10, 12, 14, 15, 15]


def test_liu_d_extra_is_92_by_mpmath(closed):
    inner = 64 * mpmath.log(mpmath.mpf(4096) / (2 * mpmath.pi)) / mpmath.log(10000)
    assert 2 * int(mpmath.ceil(inner)) == closed["liu2023.d_extra"].witness["value"] == 92


def test_liu_closed_forms_agree_with_mpmath():
    by_id = {e.id: e for e in liu2023.entries()}
    t_extra = 2 * mpmath.pi * mpmath.power(10, mpmath.mpf(6 * 92) / 128)
    text = by_id["liu2023.t_extra"].witness["value"]
    assert mpmath.almosteq(t_extra, mpmath.mpf(text.strip("[").split()[0]), rel_eps=1e-15)


def test_gptoss_ends_agree_with_mpmath_and_rounding_moves_pairs_9_to_17():
    w = gptoss2025.entries()[0].witness
    low = 32 * mpmath.log(64 / mpmath.pi) / mpmath.log(150000)
    high = 32 * mpmath.log(2048 / mpmath.pi) / mpmath.log(150000)
    assert mpmath.almosteq(low, mpmath.mpf(w["low_value"].strip("[").split()[0]), rel_eps=1e-15)
    assert mpmath.almosteq(high, mpmath.mpf(w["high_value"].strip("[").split()[0]), rel_eps=1e-15)
    assert w["rounded"] == [math.floor(low), math.ceil(high)] == [8, 18]
    assert w["pairs_whose_ramp_changes"] == list(range(9, 18))
    change = (17 - low) / (high - low) - mpmath.mpf(17 - 8) / 10
    assert w["largest_change"]["pair"] == 17
    text = w["largest_change"]["value"]
    assert mpmath.almosteq(change, mpmath.mpf(text.strip("[").split()[0]), rel_eps=1e-15)


def test_an_entry_refuses_an_unknown_verdict():
    with pytest.raises(ValueError, match="verdict must be one of"):
        Entry("x", "p", "w", "c", None, "maybe")
