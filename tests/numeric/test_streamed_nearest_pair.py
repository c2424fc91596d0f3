"""The nearest-rows twin without the table: the same answer as the whole-table search, in bounded memory."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from numeric.checks import unique
from numeric.checks.unique import nearest_pair, nearest_pair_streamed, nearest_rows_table
from numeric.tables import sinusoidal_pe, sinusoidal_rows


def _answer(best: unique.NearestPair) -> tuple[float, int, int]:
    return best.distance, best.p, best.q


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 296 entries (37 rows at d_model = 8): many blocks per offset, offsets longer
    than a block."""
    monkeypatch.setattr(unique, "PAIR_BLOCK_ENTRIES", 37 * 8)


@pytest.mark.parametrize(
    ("max_len", "d_model"),
    [(2, 2), (3, 4), (400, 2), (500, 4), (300, 6), (1000, 8), (250, 16), (10000, 2)],
)
def test_streamed_search_equals_the_whole_table_search(
    small_blocks: None, max_len: int, d_model: int
) -> None:
    whole = nearest_pair(sinusoidal_pe(max_len, d_model))
    assert _answer(nearest_pair_streamed(max_len, d_model)) == _answer(whole)


@pytest.mark.slow
def test_streamed_search_equals_the_whole_table_when_pruning_needs_many_offsets(
    small_blocks: None,
) -> None:
    # At d_model = 32 the nearest rows are more than 1 apart, so every pair whose first-pair
    # angles are within 2·arcsin(1/2) ≈ 1.05 rad must be compared: about n/6 offsets, far
    # more than the 37 rows of a block.
    whole = nearest_pair(sinusoidal_pe(600, 32))
    assert whole.distance > 1
    assert _answer(nearest_pair_streamed(600, 32)) == _answer(whole)


def _brute_force(table: np.ndarray) -> float:
    d = np.sqrt(((table[:, None, :] - table[None, :, :]) ** 2).sum(-1))
    d[np.diag_indices(len(table))] = np.inf
    return float(d.min())


@pytest.mark.parametrize(("max_len", "d_model"), [(2, 2), (90, 8), (200, 4), (150, 16), (60, 64)])
def test_streamed_search_matches_brute_force(
    small_blocks: None, max_len: int, d_model: int
) -> None:
    table = sinusoidal_pe(max_len, d_model)
    best = nearest_pair_streamed(max_len, d_model)
    assert best.distance == pytest.approx(_brute_force(table), rel=1e-12)
    assert 0 <= best.p < best.q < max_len
    assert np.linalg.norm(table[best.p] - table[best.q]) == pytest.approx(best.distance, rel=1e-12)


@pytest.mark.slow
def test_twin_streams_long_tables_with_the_same_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    whole = nearest_rows_table(max_lens=(50, 1000, 3000), d_model=8)

    def no_table(*args: object, **kwargs: object) -> np.ndarray:
        raise AssertionError("the streamed twin built a table")

    monkeypatch.setattr(unique, "sinusoidal_pe", no_table)
    monkeypatch.setattr(unique, "CHUNK_ENTRIES", 16)
    monkeypatch.setattr(unique, "PAIR_BLOCK_ENTRIES", 100 * 8)
    streamed = nearest_rows_table(max_lens=(50, 1000, 3000), d_model=8)
    assert streamed.rows == whole.rows and streamed.passed


def test_streamed_twin_finds_a_repeated_row(monkeypatch: pytest.MonkeyPatch) -> None:
    # Rows from an encoding where position 37 repeats position 5: distance 0, and the twin fails.
    def repeating(positions: np.ndarray, d_model: int) -> np.ndarray:
        return sinusoidal_rows(np.where(positions == 37, 5, positions), d_model)

    monkeypatch.setattr(unique, "sinusoidal_rows", repeating)
    monkeypatch.setattr(unique, "CHUNK_ENTRIES", 16)
    best = nearest_pair_streamed(50, 8)
    assert best.distance == 0 and (best.p, best.q) == (5, 37)
    assert nearest_rows_table(max_lens=(50,), d_model=8).passed is False


@pytest.mark.parametrize(("max_len", "d_model"), [(1, 8), (50, 5), (2**31, 8)])
def test_streamed_search_rejects_bad_sizes(max_len: int, d_model: int) -> None:
    with pytest.raises(ValueError):
        nearest_pair_streamed(max_len, d_model)


@pytest.mark.slow
def test_a_long_table_is_searched_in_a_fraction_of_its_memory() -> None:
    max_len, d_model = 4_000_000, 4
    table_bytes = max_len * d_model * 8  # 122 MiB
    tracemalloc.start()
    try:
        table = nearest_rows_table(max_lens=(max_len,), d_model=d_model)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert table.passed
    # 16 bytes a row for the angles and the order, 4 more while sorting, and a few blocks.
    assert peak <= 20 * max_len + 24 * 2**20
    assert peak < 0.7 * table_bytes
    distance, p, q = table.rows[0][2:5]
    # Independent check: the reported rows are that far apart, and no row is closer to row 0.
    rows = sinusoidal_rows(np.array([0, p, q]), d_model)
    assert np.linalg.norm(rows[1] - rows[2]) == pytest.approx(distance, rel=1e-9)
    whole = sinusoidal_pe(max_len, d_model)
    assert distance <= np.sqrt(((whole[1:] - whole[0]) ** 2).sum(axis=1)).min()
