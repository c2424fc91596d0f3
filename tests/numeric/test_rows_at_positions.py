"""numeric.tables.sinusoidal_rows: rows at any integer positions, bit for bit the table's rows."""

from __future__ import annotations

import numpy as np
import pytest

from numeric.tables import sinusoidal_pe, sinusoidal_rows


def _bits(rows: np.ndarray) -> np.ndarray:
    """The raw bits, so that -0.0 and 0.0 count as different."""
    return np.ascontiguousarray(rows).view(np.uint64)


@pytest.mark.parametrize("d_model", [2, 6, 8, 14, 64])
@pytest.mark.parametrize("schedule", ["paper", "tensor2tensor"])
def test_rows_in_any_order_are_the_table_rows_bit_for_bit(d_model: int, schedule: str) -> None:
    start = -700  # negative positions and several blocks of 256
    whole = sinusoidal_pe(2000, d_model, schedule=schedule, start=start)
    rng = np.random.default_rng(d_model)
    for index in (rng.permutation(2000), rng.integers(0, 2000, 37), np.array([5]), np.arange(0)):
        rows = sinusoidal_rows(index + start, d_model, schedule=schedule)
        assert rows.shape == (len(index), d_model) and rows.dtype == np.float64
        np.testing.assert_array_equal(_bits(rows), _bits(whole[index]))


def test_far_positions_and_other_base_match_blocks_of_the_table() -> None:
    rng = np.random.default_rng(7)
    for pos in rng.integers(-(2**31) + 300, 2**31 - 300, 12):
        block = sinusoidal_pe(5, 10, base=500.0, start=int(pos) - 2)
        row = sinusoidal_rows(np.array([pos], dtype=np.int32), 10, base=500.0)
        np.testing.assert_array_equal(_bits(row[0]), _bits(block[2]))


@pytest.mark.parametrize(
    ("positions", "d_model", "message"),
    [
        (np.zeros((2, 2), dtype=int), 8, "1-D integer"),
        (np.array([0.5]), 8, "1-D integer"),
        (np.array([2**31 - 1]), 8, "2\\*\\*31"),
        (np.array([-(2**31)]), 8, "2\\*\\*31"),
        (np.array([3]), 5, "d_model"),
    ],
)
def test_bad_positions_are_a_clear_error(positions, d_model: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sinusoidal_rows(positions, d_model)
