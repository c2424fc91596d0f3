"""numeric.tables: layouts, dtypes, shapes, bad input, and agreement with the mpmath reference."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from numeric import (
    accuracy_bound,
    frequencies,
    module_formula_rows,
    module_sinusoidal_pe,
    ramp_encoding,
    raw_index_encoding,
    reference_pe,
    sinusoidal_pe,
    table_error,
    tables,
)
from numeric.checks.rotation import rotation_check
from numeric.reference import max_abs_error


def test_shape_dtype_and_first_row() -> None:
    table = sinusoidal_pe(7, 6)
    assert table.shape == (7, 6) and table.dtype == np.float64
    np.testing.assert_array_equal(table[0], [0, 1, 0, 1, 0, 1])


def test_agrees_with_module_function_to_rounding() -> None:
    assert np.abs(sinusoidal_pe(50, 8) - module_sinusoidal_pe(50, 8)).max() < 1e-15


def test_concatenated_is_the_interleaved_columns_regrouped() -> None:
    inter = sinusoidal_pe(600, 10)
    concat = sinusoidal_pe(600, 10, layout="concatenated")
    np.testing.assert_array_equal(concat[:, :5], inter[:, 0::2])
    np.testing.assert_array_equal(concat[:, 5:], inter[:, 1::2])


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_low_precision_is_the_float64_table_rounded_once(dtype: type) -> None:
    for layout in ("interleaved", "concatenated"):
        exact = sinusoidal_pe(700, 12, layout=layout)
        table = sinusoidal_pe(700, 12, dtype=dtype, layout=layout)
        assert table.dtype == dtype
        np.testing.assert_array_equal(table, exact.astype(dtype))


def test_rows_depend_only_on_position_not_on_table_length_or_start() -> None:
    long = sinusoidal_pe(1500, 8)
    np.testing.assert_array_equal(sinusoidal_pe(700, 8), long[:700])
    np.testing.assert_array_equal(sinusoidal_pe(300, 8, start=1000), long[1000:1300])
    np.testing.assert_array_equal(sinusoidal_pe(1, 8, start=1234)[0], long[1234])


@pytest.mark.parametrize("d_model", [2, 4, 10])
def test_tiny_and_small_d_model(d_model: int) -> None:
    positions = [0, 1, 5, 255, 256, 257, 999]
    assert table_error(sinusoidal_pe(1000, d_model), positions) < 1e-15


def test_zero_length_table() -> None:
    assert sinusoidal_pe(0, 8).shape == (0, 8)
    assert ramp_encoding(0).shape == (0, 1)


def test_float64_within_1e_14_of_reference_up_to_a_million() -> None:
    table = sinusoidal_pe(10**6 + 1, 8)
    rng = np.random.default_rng(1)
    positions = sorted({*rng.integers(0, 10**6 + 1, 150).tolist(), 10**6, 999_999, 710, 104_348})
    error = table_error(table, positions)
    assert error < 1e-14
    assert error <= accuracy_bound(np.float64)


def test_wide_table_and_other_base_against_reference() -> None:
    positions = [0, 1, 99_999, 50_000, 77_777]
    for base in (10000.0, 500.0, 1e6):
        rows = np.vstack([sinusoidal_pe(1, 512, base=base, start=p) for p in positions])
        assert max_abs_error(rows, positions, range(512), 512, base=base) <= accuracy_bound(
            np.float64
        )


def test_module_formula_is_off_at_long_positions() -> None:
    positions = [99_999, 99_998]
    rows = module_formula_rows(positions, 512)
    error = max_abs_error(rows, positions, range(512), 512)
    assert 1e-12 < error < 1e-10  # the "about 1e-11 at 1e5"


def test_module_formula_rows_equal_module_function_rows() -> None:
    np.testing.assert_array_equal(
        module_formula_rows(np.arange(300), 16), module_sinusoidal_pe(300, 16)
    )


def test_positions_near_the_limit_and_negative() -> None:
    for start in (2**31 - 10, -(2**31) + 10, -300):
        rows = sinusoidal_pe(5, 16, start=start)
        positions = list(range(start, start + 5))
        assert max_abs_error(rows, positions, range(16), 16) <= accuracy_bound(np.float64)


def test_non_integer_start() -> None:
    rows = sinusoidal_pe(600, 8, start=12.75)
    positions = [12.75 + j for j in (0, 1, 243, 244, 599)]
    assert max_abs_error(rows[[0, 1, 243, 244, 599]], positions, range(8), 8) <= accuracy_bound(
        np.float64
    )


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_low_precision_error_is_half_an_ulp(dtype: type) -> None:
    positions = [3, 77_777, 999_999]
    rows = np.vstack([sinusoidal_pe(1, 64, dtype=dtype, start=p) for p in positions])
    error = max_abs_error(rows, positions, range(64), 64)
    assert error <= accuracy_bound(dtype)
    assert error > accuracy_bound(dtype) / 8  # it really is rounded to the narrow type


@settings(max_examples=25, deadline=None)
@given(
    max_len=st.integers(0, 700),
    half=st.integers(1, 6),
    start=st.integers(-(10**7), 10**7),
    layout=st.sampled_from(["interleaved", "concatenated"]),
)
def test_any_shape_and_start_matches_reference(
    max_len: int, half: int, start: int, layout: str
) -> None:
    d_model = 2 * half
    table = sinusoidal_pe(max_len, d_model, start=start, layout=layout)
    assert table.shape == (max_len, d_model)
    if max_len:
        rows = sorted({0, max_len // 2, max_len - 1})
        positions = [start + r for r in rows]
        error = max_abs_error(table[rows], positions, range(d_model), d_model, layout=layout)
        assert error <= accuracy_bound(np.float64)


def test_frequencies() -> None:
    omega = frequencies(8)
    np.testing.assert_allclose(omega, [1, 0.1, 0.01, 0.001], rtol=1e-15)
    assert float(reference_pe([1], [2], 8)[0, 0]) == pytest.approx(np.sin(0.1), abs=1e-17)


def test_ramp_and_raw_index() -> None:
    np.testing.assert_array_equal(ramp_encoding(4)[:, 0], [0, 0.25, 0.5, 0.75])
    np.testing.assert_array_equal(raw_index_encoding(3)[:, 0], [0, 1, 2])
    assert raw_index_encoding(3, dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (
            {"max_len": 5, "d_model": 7},
            ValueError,
            "d_model must be a positive even integer, got 7",
        ),
        ({"max_len": 5, "d_model": 0}, ValueError, "d_model must be a positive even integer"),
        ({"max_len": 5, "d_model": 8.0}, ValueError, "d_model must be a positive even integer"),
        ({"max_len": 5, "d_model": True}, ValueError, "d_model must be a positive even integer"),
        ({"max_len": -1, "d_model": 8}, ValueError, "max_len must be a non-negative integer"),
        ({"max_len": 2**32, "d_model": 8}, ValueError, "max_len must be at most 2\\*\\*31"),
        (
            {"max_len": 5, "d_model": 8, "base": 1.0},
            ValueError,
            "base must be a finite number greater than 1",
        ),
        ({"max_len": 5, "d_model": 8, "base": float("nan")}, ValueError, "base must be a finite"),
        (
            {"max_len": 5, "d_model": 8, "dtype": np.int32},
            TypeError,
            "dtype must be float64, float32 or float16",
        ),
        (
            {"max_len": 5, "d_model": 8, "layout": "halves"},
            ValueError,
            "layout must be 'interleaved'",
        ),
        (
            {"max_len": 5, "d_model": 8, "start": float("inf")},
            ValueError,
            "start must be a finite number",
        ),
        ({"max_len": 5, "d_model": 8, "start": 2**31}, ValueError, "must stay below 2\\*\\*31"),
    ],
)
def test_bad_input_is_a_clear_error(kwargs: dict, error: type, message: str) -> None:
    with pytest.raises(error, match=message):
        sinusoidal_pe(**kwargs)


@pytest.mark.slow
def test_every_position_up_to_a_million_against_exact_reduction() -> None:
    """Every entry of the (10**6 + 1, 8) table against an independent yardstick.

    The yardstick reduces pos·ω modulo 2π exactly with Python integers (ω and 2π as 200-bit
    fixed-point numbers), rounds once to float64, then takes np.sin/np.cos of an angle in
    [0, 2π): no angle addition and no float splitting, so it shares nothing with the table's method.
    It is itself checked against mpmath at sampled positions.
    """
    import mpmath

    n, d_model, bits = 10**6 + 1, 8, 200
    table = sinusoidal_pe(n, d_model)
    scale = 1 << bits
    with mpmath.workprec(bits + 64):
        two_pi = int(mpmath.nint(2 * mpmath.pi * scale))
        omegas = [
            int(mpmath.nint(mpmath.power(10000, -mpmath.mpf(2 * i) / d_model) * scale))
            for i in range(4)
        ]
    worst = 0.0
    for i, w in enumerate(omegas):
        angles = np.array([(p * w) % two_pi / scale for p in range(n)])
        yard_sin, yard_cos = np.sin(angles), np.cos(angles)
        sample = [0, 1, 710, 999_999, 10**6]
        yard_error = max_abs_error(
            np.column_stack([yard_sin[sample], yard_cos[sample]]), sample, [2 * i, 2 * i + 1], 8
        )
        assert yard_error < 1e-15
        worst = max(
            worst,
            np.abs(table[:, 2 * i] - yard_sin).max(),
            np.abs(table[:, 2 * i + 1] - yard_cos).max(),
        )
    assert worst < 1e-14


def test_numeric_never_imports_sympy_or_proofs() -> None:
    import subprocess
    import sys

    code = "import sys, numeric, numeric.module_tables, numeric.precision, numeric.plots.spectrum; "
    code += "print(sorted(m for m in sys.modules if m.split('.')[0] in ('sympy', 'proofs')))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]"


@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
def test_tensor2tensor_schedule_against_reference(layout):
    positions = [0, 1, 7, 999, 123_456, 999_999]
    table = sinusoidal_pe(1_000_000, 12, schedule="tensor2tensor", layout=layout)
    exact = reference_pe(positions, range(12), 12, schedule="tensor2tensor", layout=layout)
    assert np.abs(table[positions] - exact.astype(float)).max() <= 1e-14


def test_tensor2tensor_frequencies_are_evenly_spaced_in_log():
    omegas = frequencies(8, schedule="tensor2tensor")
    np.testing.assert_allclose(omegas, 10000.0 ** (-np.arange(4) / 3), rtol=1e-15)
    assert frequencies(2, schedule="tensor2tensor").tolist() == [1.0]


def test_rotation_check_tells_the_schedules_apart():
    table = sinusoidal_pe(256, 8, schedule="tensor2tensor")
    assert rotation_check(table, (1, 5), schedule="tensor2tensor").passed
    assert not rotation_check(table, (1, 5), schedule="paper").passed


def test_unknown_schedule_is_refused():
    with pytest.raises(ValueError, match="schedule must be 'paper' or 'tensor2tensor'"):
        sinusoidal_pe(4, 8, schedule="t2t")


@pytest.fixture
def small_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Thread even tiny tables, in tasks of one block and buffers of 3 rows, to exercise every cut."""
    monkeypatch.setattr(tables, "_PARALLEL_BYTES", 0)
    monkeypatch.setattr(tables, "_TASK_BYTES", 1)
    monkeypatch.setattr(tables, "_BUFFER_BYTES", 3 * 16 * 16)


def _whole_table(max_len: int, d_model: int, **kwargs) -> np.ndarray:
    """The table from one thread in one task (the default sizes), the yardstick for the cut ones."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tables, "_TASK_BYTES", 2**40)
        return sinusoidal_pe(max_len, d_model, threads=1, **kwargs)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16])
@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
def test_same_bits_for_every_thread_count_and_start(
    small_pieces: None, dtype: type, layout: str
) -> None:
    whole = _whole_table(1300, 32, dtype=dtype, layout=layout)
    for threads in (1, 2, 3, 8):
        table = sinusoidal_pe(1300, 32, dtype=dtype, layout=layout, threads=threads)
        assert table.dtype == dtype
        np.testing.assert_array_equal(table, whole, strict=True)
    for start, stop in ((1, 1300), (255, 700), (256, 1300), (700, 701), (1299, 1300)):
        for threads in (1, 3):
            part = sinusoidal_pe(
                stop - start, 32, dtype=dtype, layout=layout, start=start, threads=threads
            )
            np.testing.assert_array_equal(part, whole[start:stop], strict=True)


@settings(max_examples=20, deadline=None)
@given(
    start=st.integers(0, 1000),
    length=st.integers(1, 900),
    threads=st.integers(1, 4),
    task_blocks=st.integers(1, 3),
    buffer_rows=st.integers(1, 300),
    dtype=st.sampled_from([np.float64, np.float32, np.float16]),
    layout=st.sampled_from(["interleaved", "concatenated"]),
)
def test_any_split_is_a_slice_of_the_whole_table(
    start: int,
    length: int,
    threads: int,
    task_blocks: int,
    buffer_rows: int,
    dtype: type,
    layout: str,
) -> None:
    d_model = 6
    whole = _whole_table(start + length, d_model, dtype=dtype, layout=layout)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tables, "_PARALLEL_BYTES", 0)
        patch.setattr(tables, "_TASK_BYTES", task_blocks * tables.BLOCK * d_model * 2)
        patch.setattr(tables, "_BUFFER_BYTES", buffer_rows * 16 * d_model // 2)
        part = sinusoidal_pe(
            length, d_model, dtype=dtype, layout=layout, start=start, threads=threads
        )
    np.testing.assert_array_equal(part, whole[start:], strict=True)


def test_large_tables_use_the_threads_and_small_ones_do_not(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pools = []

    class RecordingPool(ThreadPoolExecutor):
        def __init__(self, workers: int) -> None:
            pools.append(workers)
            super().__init__(workers)

    monkeypatch.setattr(tables, "ThreadPoolExecutor", RecordingPool)
    monkeypatch.setattr(tables, "_TASK_BYTES", 1)  # a task per block: many tasks even when small
    sinusoidal_pe(1000, 64, threads=2)
    assert pools == []
    rows = tables._PARALLEL_BYTES // (64 * 8) + 1
    threaded = sinusoidal_pe(rows, 64, threads=2)
    assert pools == [2]
    np.testing.assert_array_equal(threaded, sinusoidal_pe(rows, 64, threads=1), strict=True)
    sinusoidal_pe(rows, 64, threads=1)
    sinusoidal_pe(rows, 64)
    cores = tables.thread_count(None)
    assert pools == ([2, cores] if cores > 1 else [2])


@pytest.mark.parametrize(
    ("threads", "error"),
    [(0, ValueError), (-2, ValueError), (2.0, TypeError), (True, TypeError), ("2", TypeError)],
)
def test_bad_thread_count_is_a_clear_error(threads: object, error: type) -> None:
    with pytest.raises(error, match=r"^threads must be a positive integer or None, got "):
        sinusoidal_pe(5, 8, threads=threads)


@pytest.mark.parametrize("d_model", [2, 4, 6])
def test_a_block_of_one_or_two_rows_is_bit_identical_to_the_whole_tables_rows(d_model) -> None:
    # At d_model = 2 a one-row block is one complex product, which NumPy computes by another
    # path than its vector loop (the last bit differed at about half the positions).
    whole = sinusoidal_pe(5000, d_model, threads=1)
    for p in np.random.default_rng(d_model).integers(0, 4990, 80):
        for rows in (1, 2):
            assert np.array_equal(sinusoidal_pe(rows, d_model, start=int(p)), whole[p : p + rows])
