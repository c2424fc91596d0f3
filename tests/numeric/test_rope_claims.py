"""Issue 24's numbers: float64 beside mpmath, and which published digits are right."""

from __future__ import annotations

import mpmath
import pytest

from numeric.rope.claims import claims_table, rope_claims, round_integer

CLAIMS = {c.name: c for c in rope_claims()}


@pytest.mark.parametrize(
    ("name", "published"),
    [
        ("yarn_code_pair_38", "1.4800e-3"),
        ("yarn_paper_pair_38", "4.8661e-4"),
        ("yarn_code_over_paper_pair_38", "3.04"),
        ("hf_yarn_over_llama3_pair_33", "0.38"),
        ("llama3_vs_yarn_paper", "0"),
        ("decay_f_1000", "4.471"),
        ("decay_f_2000", "5.047"),
        ("decay_first_increase", "18"),
        ("bf16_257", "256"),
        ("fp16_2049", "2048"),
        ("fp16_10002", "10000"),
        ("fp32_2_24_plus_1", "16777216"),
    ],
)
def test_published_numbers_agree_with_mpmath(name, published):
    claim = CLAIMS[name]
    assert claim.published == published and claim.agrees is True


def test_float64_is_close_to_mpmath_everywhere():
    for claim in CLAIMS.values():
        exact = float(mpmath.mpf(claim.exact))
        assert abs(claim.float64 - exact) <= 1e-12 * max(1.0, abs(exact)), claim.name


def test_the_values_themselves():
    assert CLAIMS["yarn_code_pair_38"].exact.startswith("0.0014799925360714665")
    assert CLAIMS["yarn_paper_pair_38"].exact.startswith("0.00048661316881436151")
    assert CLAIMS["yarn_code_pair_38"].float32 == pytest.approx(1.47999e-3, rel=1e-5)
    assert CLAIMS["decay_f_18"].float64 < CLAIMS["decay_f_19"].float64
    # bf16 inv_freq's worst relative error is 1.87·2^-9: over the 2^-9, under 2^-8.
    assert 1.8 < float(CLAIMS["bf16_inv_freq_relative_error_times_2_9"].exact) < 2


def test_a_wrong_published_value_is_caught():
    from numeric.rope.claims import _agrees

    assert _agrees("4.471", mpmath.mpf("4.4707610342")) is True
    assert _agrees("4.470", mpmath.mpf("4.4707610342")) is False
    assert _agrees("1.4801e-3", mpmath.mpf("0.00147999253")) is False
    assert _agrees("0", mpmath.mpf("1e-10")) is False


def test_round_integer_ties_to_even():
    assert [round_integer(n, 8) for n in (255, 256, 257, 258, 259, 260, -257)] == [
        255,
        256,
        256,
        258,
        260,
        260,
        -256,
    ]


def test_claims_table():
    table = claims_table()
    assert table.passed is True and len(table.rows) == len(CLAIMS)
