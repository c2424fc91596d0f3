"""numeric.module_tables and numeric.precision: the module's tables and the precision table, computed live."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from numeric.module_tables import module_report
from numeric.precision import precision_table
from numeric.result_table import Table

MODULE = Path("/work/shared/course/module-10-sinusoidal-positional-encoding.md")


def _module_digits(label: str) -> list[str]:
    line = next(ln for ln in MODULE.read_text().splitlines() if ln.startswith(f"{label}:"))
    return line.split("[", 1)[1].rstrip("]").split()


@pytest.fixture(scope="module")
def report() -> list[Table]:
    return module_report()


def test_pe_rows_have_the_modules_digits(report: list[Table]) -> None:
    if not MODULE.exists():
        pytest.skip("course module not available")
    rows = {row[0]: row[1:] for row in report[0].formatted()}
    for label in ("PE(0)", "PE(1)", "PE(10)"):
        assert rows[label] == _module_digits(label)


def test_rotation_table_has_the_modules_digits(report: list[Table]) -> None:
    if not MODULE.exists():
        pytest.skip("course module not available")
    printed = re.findall(
        r"pos=(\d+)\s+actual=\[(.*?)\]\s+predicted=\[(.*?)\]\s+match=(\w+)", MODULE.read_text()
    )
    assert len(printed) == 5
    rows = report[3].formatted()
    for (pos, actual, predicted, match), row in zip(printed, rows, strict=True):
        assert row[0] == pos and row[1:3] == actual.split() and row[3:5] == predicted.split()
        assert row[6] == match
    assert report[3].passed


def test_bounds_unique_and_exercises(report: list[Table]) -> None:
    assert report[1].rows[0] == (pytest.approx(-0.9999902065507035), 1.0)
    assert report[2].note == "50 unique rows out of 50"
    assert all(t.passed for t in report[1:])
    assert report[4].rows[0][:2] == (50, 50)  # exercise 1, d_model 64
    assert "dims 2-3" in report[5].title
    spectrum = report[6].rows
    assert [round(row[5], 4) for row in spectrum] == [7.7986, 0.7799, 0.078, 0.0078]  # 49ω_i/2π


def test_options_change_what_is_computed() -> None:
    tables = module_report(
        max_len=200, d_model=16, k=7, positions=(1, 2), dims=(0, 4, 14), exercise_k=9
    )
    assert tables[0].title == "PE rows of the (200, 16) table" and len(tables[0].columns) == 17
    assert [r[0] for r in tables[3].rows] == [1, 2] and "k=7" in tables[3].title
    assert [r[0] for r in tables[6].rows] == [0, 4, 14]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"d_model": 2}, "d_model must be an even integer >= 4"),
        ({"positions": (0, 50)}, "positions must be integers in \\[0, 50\\)"),
        ({"k": 40}, "k=40 moves positions \\[12, 20\\] outside the table"),
        ({"k": 2.5}, "k must be an integer"),
        ({"dims": (8,)}, "dims must be integers in \\[0, 8\\)"),
        ({"max_len": 10**9, "d_model": 4096}, "needs .* GiB"),
    ],
)
def test_report_bad_options(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        module_report(**kwargs)


def test_precision_table_measures_the_known_failures() -> None:
    table = precision_table(d_model=64, max_positions=(1000, 100_000), samples=12)
    rows = {(r[0], r[1]): r[2:] for r in table.rows}
    assert all(e < 1e-14 for e in rows[("numeric.sinusoidal_pe", "float64")])
    formula = rows[("module formula", "float64")]
    assert formula[1] > formula[0] > 1e-15  # grows with position
    assert rows[("module formula", "float16")][1] == "overflow"
    assert rows[("numeric.sinusoidal_pe", "float16")][1] < 5e-4
    assert rows[("module formula", "float32")][1] > 1e-3
    assert "65504" in table.note


def test_precision_other_base_has_only_numeric_rows() -> None:
    table = precision_table(d_model=8, base=500.0, max_positions=(100,), samples=4)
    assert {r[0] for r in table.rows} == {"numeric.sinusoidal_pe"}
    with pytest.raises(ValueError, match="max_positions must be integers in \\[1, 2\\*\\*31\\]"):
        precision_table(max_positions=(0,))
