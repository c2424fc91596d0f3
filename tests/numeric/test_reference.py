"""numeric.reference: the mpmath yardstick itself."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from numeric import max_abs_error, reference_pe, table_error
from numeric.reference import max_deviation


def test_known_values() -> None:
    values = reference_pe([0, 1, 10], [0, 1, 2, 3], 8)
    assert values.shape == (3, 4)
    assert values[0, 0] == 0 and values[0, 1] == 1
    with mpmath.workdps(50):
        assert abs(values[1, 0] - mpmath.sin(1)) < mpmath.mpf(10) ** -39
        assert abs(values[2, 2] - mpmath.sin(1)) < mpmath.mpf(10) ** -39  # 10 · 10000^(-1/4) = 1


def test_precision_is_as_asked() -> None:
    value = reference_pe([10**6], [2], 512, dps=60)[0, 0]
    with mpmath.workdps(90):
        exact = mpmath.sin(10**6 * mpmath.power(10000, -mpmath.mpf(2) / 512))
    assert abs(value - exact) < mpmath.mpf(10) ** -59


def test_concatenated_layout() -> None:
    inter = reference_pe([7], range(6), 6)
    concat = reference_pe([7], range(6), 6, layout="concatenated")
    assert list(concat[0]) == [
        inter[0, 0],
        inter[0, 2],
        inter[0, 4],
        inter[0, 1],
        inter[0, 3],
        inter[0, 5],
    ]


def test_errors_measure_what_they_should() -> None:
    exact = reference_pe([3], [0], 2)
    assert max_deviation(np.array([[math.sin(3)]]), exact) < 1e-16
    assert max_deviation(np.array([[math.sin(3) + 1e-9]]), exact) == pytest.approx(1e-9, rel=1e-6)
    assert max_deviation(np.array([[np.nan]]), exact) == math.inf
    assert max_abs_error(np.array([[0.5]]), [3], [0], 2) == pytest.approx(abs(0.5 - math.sin(3)))


def test_table_error_uses_row_offsets() -> None:
    rows = np.array([[math.sin(5), math.cos(5)], [math.sin(6), math.cos(6)]])
    assert table_error(rows, [5, 6], start=5) < 1e-15
    assert table_error(rows, [5], start=4) > 0.1  # row 1 holds position 6, not 5


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: reference_pe([1], [8], 8), "dims must be integers in \\[0, 8\\)"),
        (lambda: reference_pe([math.inf], [0], 8), "positions must be a finite number"),
        (lambda: reference_pe([1], [0], 8, dps=5), "dps must be an integer of at least 15"),
        (lambda: reference_pe([1], [0], 7), "d_model must be a positive even integer"),
        (lambda: max_abs_error(np.zeros((2, 2)), [1], [0], 8), "values must have shape"),
    ],
)
def test_bad_input(call, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        call()
