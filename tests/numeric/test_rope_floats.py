"""Rounding to bfloat16 and float16 against integer arithmetic and frexp, written apart."""

from __future__ import annotations

import math

import numpy as np
import pytest

from numeric.rope.claims import round_integer
from numeric.rope.floats import (
    FORMATS,
    check_format,
    round_to,
    significand_bits,
    storage_dtype,
    unit_roundoff,
)


def _round_bits(x: float, bits: int) -> float:
    """x to `bits` significant bits, ties to even, by frexp (normal range only)."""
    if x == 0 or not math.isfinite(x):
        return x
    mantissa, exponent = math.frexp(x)
    scaled = mantissa * 2**bits  # exact
    return math.ldexp(round(scaled), exponent - bits)  # Python's round is ties-to-even


def test_bfloat16_matches_frexp_rounding_on_random_float32():
    rng = np.random.default_rng(0)
    bits = rng.integers(0x00800000, 0x7F000000, 20000, dtype=np.uint32)  # normal, positive
    values = bits.view(np.float32)
    values = np.concatenate([values, -values])
    got = round_to(values, "bfloat16")
    want = np.array([_round_bits(float(v), 8) for v in values], dtype=np.float32)
    assert np.array_equal(got, want)


def test_bfloat16_ties_go_to_even():
    # 1 + 2^-8 is halfway between 1 and 1 + 2^-7: even is 1. 1 + 3·2^-8 goes up to 1 + 2^-6.
    values = np.array([1 + 2**-8, 1 + 3 * 2**-8, 257, 259, 2**24 + 1], dtype=np.float32)
    assert round_to(values, "bfloat16").tolist() == [1.0, 1 + 2**-6, 256.0, 260.0, 2.0**24]


def test_bfloat16_specials():
    values = np.array([np.inf, -np.inf, np.nan, 0.0, -0.0, 3.4e38, 1e-40], dtype=np.float32)
    got = round_to(values, "bfloat16")
    assert np.isinf(got[0]) and np.isinf(got[1]) and np.isnan(got[2])
    assert got[3] == 0 and np.signbit(got[4])
    assert np.isinf(got[5])  # above bfloat16's largest finite value, 3.3895e38
    # A subnormal: bfloat16's subnormals are spaced 2^-133 apart.
    tiny = float(np.float32(1e-40))
    assert float(got[6]) == round(tiny * 2.0**133) * 2.0**-133


def test_a_nan_with_low_payload_stays_nan():
    nan = np.array([0x7F800001, 0xFFFFFFFF], dtype=np.uint32).view(np.float32)
    assert np.all(np.isnan(round_to(nan, "bfloat16")))


@pytest.mark.parametrize("fmt", ["float16", "bfloat16", "float32"])
def test_integers_round_as_integer_arithmetic_says(fmt):
    for n in [*range(0, 5000, 7), 2**24 - 1, 2**24 + 1, 2**24 + 3, 10002, 65519, 65520]:
        want = round_integer(n, significand_bits(fmt))
        got = float(round_to(float(n), fmt))
        if fmt == "float16" and want > 65504:
            assert math.isinf(got)
        else:
            assert got == want, (fmt, n)


def test_float16_rounds_float64_directly_not_through_float32():
    # 2049 + 2^-20 is above the tie: float16 gives 2050; through float32 it would tie to 2048.
    assert float(round_to(2049 + 2**-20, "float16")) == 2050.0


def test_format_facts():
    assert FORMATS == ("float64", "float32", "float16", "bfloat16")
    assert [significand_bits(f) for f in FORMATS] == [53, 24, 11, 8]
    assert unit_roundoff("bfloat16") == 2**-8 and unit_roundoff("float16") == 2**-11
    assert storage_dtype("bfloat16") == np.float32
    with pytest.raises(
        ValueError, match="format must be one of float64, float32, float16, bfloat16"
    ):
        check_format("int8")
