"""Men et al.'s Table 2 for the lengths up to 64K (the whole table runs in tests/cli's
test_papers): verdicts pinned, every failing m re-checked with mpmath at 40 digits."""

from __future__ import annotations

import mpmath
import pytest

from proofs.theorems.papers import men2024

LABELS = ("1K", "2K", "4K", "8K", "16K", "32K", "64K")


def big_b(base: str | int, m: int) -> mpmath.mpf:
    """B(m) at 40 digits, whatever precision mpmath's global context holds."""
    with mpmath.workdps(40):
        base = mpmath.mpf(base)
        return sum(mpmath.cos(m * mpmath.power(base, mpmath.mpf(-2 * i) / 128)) for i in range(64))


@pytest.fixture(scope="module")
def table():
    return {e.id: e for e in men2024.entries(LABELS)}


def test_verdicts_for_the_short_lengths(table):
    fails = {i for i, e in table.items() if e.verdict == "fails"}
    assert fails == {
        f"men2024.table2.{label}.K{k}.{r}"
        for label, k in (("4K", 1024), ("16K", 1000), ("16K", 1024), ("32K", 1000), ("32K", 1024))
        for r in ("m_le_L", "m_lt_L")
    }
    assert all(e.verdict == "holds" for i, e in table.items() if i not in fails)
    assert len(table) == 4 * len(LABELS)


def test_every_failing_m_is_negative_by_mpmath(table):
    for entry in table.values():
        w = entry.witness
        if entry.verdict == "fails":
            assert w["m"] <= w["m_max"]
            value = big_b(w["base"], w["m"])
            assert value < 0
            printed = mpmath.mpf(w["value"].strip("[").split()[0])
            assert mpmath.almosteq(value, printed, rel_eps=1e-15, abs_eps=1e-18)


def test_the_4k_failure_is_the_first_by_mpmath(table):
    w = table["men2024.table2.4K.K1024.m_le_L"].witness
    assert w["m"] == 4079
    assert all(big_b(27000, k) >= 0 for k in range(0, w["m"]))


def test_smallest_grid_bases_and_the_gaps_above_them(table):
    smallest = {i: e.witness["smallest_grid_base"] for i, e in table.items()}
    assert smallest["men2024.table2.32K.K1000.m_le_L"] == "630000"
    assert smallest["men2024.table2.16K.K1024.m_le_L"] == "350000"
    # 4300 satisfies the criterion on [0, 1000] and 4400, just above it, does not: the bases
    # that satisfy it are not an interval.
    above = table["men2024.table2.1K.K1000.m_le_L"].witness["grid_above_smallest"]
    assert above["first_failing"]["base"] == "4400"
    assert big_b(4400, above["first_failing"]["m"]) < 0


def test_the_grid_is_the_papers():
    grid = men2024.grid()
    assert len(grid) == 900 and grid == sorted(grid) and len(set(grid)) == 900
