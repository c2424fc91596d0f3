"""numeric.checks: each cross-check passes on good tables and fails on broken ones."""

from __future__ import annotations

import numpy as np
import pytest

from numeric import (
    best_linear_shift,
    bounds_table,
    module_sinusoidal_pe,
    ramp_encoding,
    ramp_range_table,
    ramp_table,
    rotation_check,
    rotation_table,
    sinusoidal_pe,
    unique_rows,
    unique_rows_table,
)
from numeric.blocks import CHUNK_ROWS
from numeric.checks.rotation import rotation_tolerance


def test_rotation_twin_passes_with_residual_beside_tolerance() -> None:
    table = rotation_table()
    assert table.passed is True
    assert [row[0] for row in table.rows] == [1, 5, -3, 2.5]
    for _k, _angle, count, residual, tol, within in table.rows:
        assert count > 0 and 0 <= residual <= tol and within


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
def test_rotation_on_other_dtypes_and_layouts(dtype: type, layout: str) -> None:
    assert rotation_table(
        max_len=600, d_model=6, dtype=dtype, layout=layout, ks=(1, -2, 0.5)
    ).passed


def test_rotation_spans_chunks_and_covers_every_pair() -> None:
    n = CHUNK_ROWS + 300
    table = rotation_check(sinusoidal_pe(n, 4), ks=(7,))
    assert table.passed and table.rows[0][2] == (n - 7) * 2


def test_rotation_detects_a_wrong_entry_anywhere() -> None:
    table = sinusoidal_pe(CHUNK_ROWS + 500, 8)
    table[CHUNK_ROWS + 123, 5] += 1e-12
    assert rotation_check(table, ks=(3,)).passed is False


def test_rotation_detects_the_module_formulas_rounding() -> None:
    assert rotation_check(module_sinusoidal_pe(20_000, 64), ks=(1,)).passed is False


def test_tolerance_grows_with_the_angle() -> None:
    assert rotation_tolerance(1000, 1.0, 1e-15) > rotation_tolerance(1, 1.0, 1e-15)


def test_best_linear_shift_finds_the_rotation_for_a_pair_and_nothing_for_the_ramp() -> None:
    m, residual = best_linear_shift(sinusoidal_pe(100, 2), 4)
    np.testing.assert_allclose(m, [[np.cos(4), np.sin(4)], [-np.sin(4), np.cos(4)]], atol=1e-13)
    assert residual < 1e-13
    a, residual = best_linear_shift(ramp_encoding(50), 5)
    assert a.shape == (1, 1) and residual > 1e-3


def test_best_linear_shift_on_random_vectors_and_negative_k() -> None:
    vectors = np.random.default_rng(0).standard_normal((40, 6))
    _, residual = best_linear_shift(vectors, -3)
    assert residual > 0.1  # random encodings have no shift map
    m, residual = best_linear_shift(vectors, 0)
    np.testing.assert_allclose(m, np.eye(6), atol=1e-12)


def test_best_linear_shift_on_a_rank_deficient_table_is_still_the_best_fit() -> None:
    # A repeated column and a zero column: QR cannot solve this, lstsq must.
    pairs = sinusoidal_pe(60, 2)
    table = np.column_stack([pairs, pairs[:, :1], np.zeros(60)])
    m, residual = best_linear_shift(table, 3)
    assert residual < 1e-12 and np.isfinite(m).all()
    m, residual = best_linear_shift(np.column_stack([ramp_encoding(30), np.zeros(30)]), 2)
    assert residual > 1e-3


def test_best_linear_shift_agrees_with_lstsq_on_full_rank_tables() -> None:
    vectors = np.random.default_rng(1).standard_normal((200, 9))
    m, residual = best_linear_shift(vectors, 7)
    reference = np.linalg.lstsq(vectors[:-7], vectors[7:], rcond=None)[0].T
    np.testing.assert_allclose(m, reference, atol=1e-10)
    worst = np.abs(vectors[:-7] @ reference.T - vectors[7:]).max()
    assert residual == pytest.approx(worst, rel=1e-9)


def test_ramp_tables() -> None:
    table = ramp_table()
    assert table.passed
    by_k = {row[0]: row for row in table.rows}
    assert by_k[1][2] > 1e-3 and by_k[5][2] > 1e-3  # ramp misfit
    assert by_k[5][3] < 1e-12  # the sinusoidal pair fits exactly
    assert ramp_table(ks=(0, 2)).passed
    ranges = ramp_range_table()
    a = [row[1] for row in ranges.rows]
    assert ranges.passed and max(a) - min(a) > 0.5
    # a = Σ p(p+k) / Σ p² over the range, computed independently
    p = np.arange(10, 20)
    assert ranges.rows[2][1] == pytest.approx((p * (p + 5)).sum() / (p * p).sum(), rel=1e-12)


def test_bounds_and_unique_rows() -> None:
    bounds = bounds_table()
    assert bounds.passed and bounds.rows[0][1] == pytest.approx(-0.9999902065507035)
    assert bounds.rows[2][2] == 49.0 and bounds.rows[2][3] is False
    unique = unique_rows_table()
    assert unique.passed and unique.note == "50 unique rows out of 50"


def test_unique_rows_counts_duplicates_exactly() -> None:
    table = np.random.default_rng(3).standard_normal((1000, 5))
    table[7] = -0.0
    table[8] = 0.0
    table[500:] = table[:500]
    assert unique_rows(table) == 499
    assert unique_rows(np.zeros((0, 3))) == 0
    # float16 tables at long positions repeat rows: the check must see it
    assert unique_rows(sinusoidal_pe(4000, 2, dtype=np.float16)) < 4000


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: rotation_check(sinusoidal_pe(10, 4), ks=(10,)),
            "integer k must satisfy \\|k\\| < max_len",
        ),
        (
            lambda: rotation_check(sinusoidal_pe(10, 4), ks=(float("nan"),)),
            "ks must be a finite number",
        ),
        (lambda: rotation_check(np.zeros((10, 3)), ks=(1,)), "even, positive number of columns"),
        (lambda: best_linear_shift(np.zeros((5, 2)), 5), "k must satisfy"),
        (lambda: best_linear_shift(np.zeros((5, 2)), 1.5), "k must be an integer"),
        (lambda: ramp_table(ks=(2.5,)), "ks must be an integer"),
        (lambda: ramp_range_table(ranges=((5, 6),)), "stop - first >= 2"),
        (lambda: bounds_table(max_len=0), "max_len must be positive"),
    ],
)
def test_bad_input(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
