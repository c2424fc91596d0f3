"""Streaming twins: row blocks cover the table exactly and give the numbers the whole table gives."""

import numpy as np
import pytest

import numeric
import numeric.checks
from numeric import blocks
from numeric.checks import rotation
from numeric.tables import sinusoidal_pe


@pytest.mark.parametrize(
    ("start", "stop", "rows"), [(0, 10, 3), (5, 6, 4096), (0, 0, 2), (3, 12, 9)]
)
def test_row_blocks_cover_the_range_once(start, stop, rows):
    covered = [r for a, b in blocks.row_blocks(start, stop, rows) for r in range(a, b)]
    assert covered == list(range(start, stop))
    assert all(b - a <= rows for a, b in blocks.row_blocks(start, stop, rows))


def test_row_blocks_refuse_an_empty_block():
    with pytest.raises(ValueError, match="rows"):
        list(blocks.row_blocks(0, 5, 0))


def test_a_block_computed_alone_is_the_same_rows_of_the_whole_table():
    whole = sinusoidal_pe(3000, 16)
    assert np.array_equal(sinusoidal_pe(700, 16, start=1234), whole[1234:1934])


@pytest.mark.parametrize("rows", [1, 7, 4096])
def test_streamed_rotation_twin_matches_the_check_on_the_whole_table(monkeypatch, rows):
    ks = (1, 5, -3, 2.5, 299, -299)
    whole = rotation.rotation_check(sinusoidal_pe(300, 8), ks)
    monkeypatch.setattr(rotation, "block_rows", lambda width: rows)
    streamed = rotation.rotation_table(max_len=300, d_model=8, ks=ks)
    assert streamed.rows == whole.rows and streamed.passed


def test_streamed_rotation_twin_still_fails_a_wrong_table(monkeypatch):
    # The streamed rows come from sinusoidal_pe; rows off by a growing 1e-9·j² must be caught.
    def drifting(*args, **kwargs):
        rows = sinusoidal_pe(*args, **kwargs)
        return rows + 1e-9 * np.arange(len(rows))[:, None] ** 2

    monkeypatch.setattr(rotation, "sinusoidal_pe", drifting)
    assert rotation.rotation_table(max_len=200, d_model=8, ks=(1,)).passed is False


def test_wide_tables_get_fewer_rows_per_block():
    assert blocks.block_rows(8) == blocks.CHUNK_ROWS == blocks.block_rows(1024)
    assert blocks.block_rows(65536) * 65536 <= blocks.CHUNK_ENTRIES
    assert blocks.block_rows(10**9) == 1


@pytest.mark.parametrize(
    "twin",
    [
        lambda: rotation.rotation_table(max_len=2**31 - 2),
        lambda: numeric.unique_rows_table(max_len=2**31),
        lambda: numeric.bounds_table(max_len=2**31),
        lambda: numeric.checks.bounds_and_norms_table(max_len=2**31),
    ],
)
def test_streamed_twins_refuse_out_of_range_positions_before_the_first_block(twin):
    with pytest.raises(ValueError, match="below 2\\*\\*31"):
        twin()
