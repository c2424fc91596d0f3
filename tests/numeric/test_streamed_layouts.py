"""The layouts twin without dense d_model × d_model matrices: P as an index array, M_k by blocks."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from numeric.checks import layouts
from numeric.checks.layouts import (
    concatenated_index,
    concatenated_permutation,
    layout_table,
    permutation_matrix,
)
from numeric.rotations import stacked_rotations
from numeric.tables import frequencies, sinusoidal_pe


@pytest.mark.parametrize("d_model", [2, 8, 10, 4096])
def test_permutation_is_the_index_map_of_p(d_model: int) -> None:
    perm = concatenated_permutation(d_model)
    assert perm.tolist() == [concatenated_index(j, d_model) for j in range(d_model)]
    assert sorted(perm.tolist()) == list(range(d_model))


def test_permutation_matrix_is_built_from_the_index_map() -> None:
    p = permutation_matrix(6)
    assert np.array_equal(p @ sinusoidal_pe(9, 6).T, sinusoidal_pe(9, 6, layout="concatenated").T)
    assert np.array_equal(np.argmax(p, axis=0), concatenated_permutation(6))


def _dense_rows(d_model: int, max_len: int, ks: tuple[int, ...]) -> list[float]:
    """The even-d_model residuals as the twin used to compute them, with dense P and M_k."""
    p = permutation_matrix(d_model)
    inter = sinusoidal_pe(max_len, d_model)
    concat = sinusoidal_pe(max_len, d_model, layout="concatenated")
    t2t_table = sinusoidal_pe(max_len, d_model, schedule="tensor2tensor")
    omegas = frequencies(d_model)
    t2t = frequencies(d_model, schedule="tensor2tensor")

    def shifted(table: np.ndarray, m: np.ndarray, k: int) -> float:
        a, b = max(0, -k), max_len - max(0, k)
        return float(np.abs(table[a:b] @ m.T - table[a + k : b + k]).max())

    values = [float(np.abs(p @ p.T - np.eye(d_model)).max())]
    values.append(float(np.abs(inter @ p.T - concat).max()))
    values += [shifted(concat, p @ stacked_rotations(k, omegas) @ p.T, k) for k in ks]
    values += [shifted(t2t_table, stacked_rotations(k, t2t), k) for k in ks]
    return values


@pytest.mark.parametrize(("d_model", "ks"), [(2, (1, -1)), (8, (1, 5, -3)), (32, (1, 99, -150))])
def test_structured_twin_gives_the_dense_residuals(d_model: int, ks: tuple[int, ...]) -> None:
    table = layout_table(d_model=d_model, max_len=300, ks=ks, odd_len=200, odd_ks=(1,))
    even = [row for row in table.rows if "d_model = 7" not in row[0]]
    dense = _dense_rows(d_model, 300, ks)
    assert len(even) == len(dense) == 2 + 2 * len(ks)
    # P·Pᵀ and P·interleaved are exact either way; the shifts differ only by rounding.
    assert [row[2] for row in even[:2]] == dense[:2] == [0.0, 0.0]
    assert [row[2] for row in even[2:]] == pytest.approx(dense[2:], abs=4e-16)
    assert all(row[-1] for row in even)


def test_a_wrong_permutation_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    # Cosines first: still a bijection, but it puts each pair in the wrong columns.
    def cos_first(d_model: int) -> np.ndarray:
        return (concatenated_permutation(d_model) + d_model // 2) % d_model

    monkeypatch.setattr(layouts, "concatenated_permutation", cos_first)
    failed = {row[0] for row in layout_table().rows if not row[-1]}
    assert failed == {"concatenated = P·interleaved", "(P·M_k·Pᵀ)·concat[pos] = concat[pos+k]"}

    monkeypatch.setattr(layouts, "concatenated_permutation", lambda d: np.arange(d) // 2)
    table = layout_table()
    assert table.rows[0][:3] == ("P·Pᵀ = I", "exact", 1.0) and table.passed is False


@pytest.mark.slow
def test_a_wide_twin_holds_no_dense_matrix() -> None:
    d_model = 4096  # one dense d_model × d_model float64 matrix: 128 MiB
    tracemalloc.start()
    try:
        table = layout_table(d_model=d_model, max_len=64, odd_len=2000, odd_ks=(1,))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert table.passed
    # The old twin held P and P·M_k·Pᵀ, 128 MiB each; now blocks of 64 rows and the odd part.
    assert peak < d_model * d_model * 8 / 2


@pytest.mark.slow
def test_layouts_twin_at_d_model_16384_in_bounded_memory() -> None:
    d_model, max_len = 16384, 1024  # dense P alone would be 2 GiB, the table 128 MiB
    tracemalloc.start()
    try:
        table = layout_table(d_model=d_model, max_len=max_len)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert table.passed
    # Blocks of 256 rows (32 MiB) and their temporaries, and sinusoidal_pe's cached offsets.
    assert peak < d_model * d_model * 8 / 8
