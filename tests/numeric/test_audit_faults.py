"""The sinusoidal audit's findings carry whether each is a fault, and the audit fails exactly when
one is: on every table in tests/data/real_tables and on tables built with each kind of fault,
"no finding is a fault" equals the verdicts' rule (a sound structure and an accuracy of rounding
once or of an ordinary float64 or float32 computation, or what the table alone cannot decide),
and the outcome is "undecided" exactly when a verdict is."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from numeric.audit.findings import Finding
from numeric.audit.grading import SOUND
from numeric.audit.load import open_table
from numeric.table_audit import audit
from numeric.table_audit.findings import UNDECIDED

DATA = Path(__file__).resolve().parents[1] / "data" / "real_tables"
ENTRIES = [
    e
    for e in json.loads((DATA / "truth.json").read_text(encoding="utf-8"))["entries"]
    if e["file"] is not None
]
N, D = 2000, 16


def verdicts_pass(result) -> bool:
    """No fault, as the verdicts state it: a structure sound or undecided, an accuracy sound
    or undecided."""
    return result.structure["verdict"] in ("sound", "undecided") and result.accuracy.get(
        "grade"
    ) in (*SOUND, UNDECIDED)


def verdicts_open(result) -> bool:
    """Something the table alone cannot decide, as the verdicts state it."""
    return result.structure["verdict"] == "undecided" or result.accuracy.get("grade") == UNDECIDED


def paper(n: int = N, bases: tuple[float, ...] = (10000.0,) * (D // 2)) -> np.ndarray:
    """The paper's interleaved table, pair i at base bases[i], in float64."""
    pos = np.arange(n, dtype=np.float64)[:, None]
    omega = np.array([b ** (-2.0 * i / D) for i, b in enumerate(bases)])
    out = np.empty((n, D))
    out[:, 0::2], out[:, 1::2] = np.sin(pos * omega), np.cos(pos * omega)
    return out


def split_frequencies() -> np.ndarray:
    i, p = np.arange(D // 2), np.arange(N)[:, None]
    table = np.empty((N, D))
    table[:, 0::2] = np.sin(p * 10000.0 ** (-4 * i / D))
    table[:, 1::2] = np.cos(p * 10000.0 ** (-(4 * i + 2) / D))
    return table.astype(np.float32)


def in_float16() -> np.ndarray:
    pos = np.arange(N, dtype=np.float16)[:, None]
    omega = (10000.0 ** (-2.0 * np.arange(D // 2) / D)).astype(np.float16)
    angles = (pos * omega).astype(np.float16)
    out = np.empty((N, D), dtype=np.float16)
    out[:, 0::2], out[:, 1::2] = np.sin(angles), np.cos(angles)
    return out


def repeated_row() -> np.ndarray:
    table = paper().astype(np.float32)
    table[701] = table[700]
    return table


def foreign_row() -> np.ndarray:
    table = paper().astype(np.float32)
    table[900] = np.random.default_rng(28).uniform(-1, 1, D)
    return table


def shifted_row() -> np.ndarray:
    table = paper().astype(np.float32)
    angles = 900.01 * 10000.0 ** (-2.0 * np.arange(D // 2) / D)
    table[900, 0::2], table[900, 1::2] = np.sin(angles), np.cos(angles)
    return table


def rows_off_the_circles() -> np.ndarray:
    table = paper().astype(np.float32)
    table[::30] *= np.float32(1.001)  # one row in 30: too many to set aside
    return table


def odd_column() -> np.ndarray:
    extra = np.sin(0.37 * np.arange(N) + 0.5)[:, None]
    return np.hstack([paper(), extra]).astype(np.float32)


FAULTY = {
    "split frequencies": split_frequencies,
    "random vectors": lambda: np.random.default_rng(28).standard_normal((500, D)),
    "ramp": lambda: np.outer(np.arange(100) / 100, np.ones(4)),
    "constant": lambda: np.ones((50, 4)),
    "slowest pair at base 9990": lambda: paper(bases=(10000.0,) * 7 + (9990.0,)).astype(np.float32),
    "computed in float16": in_float16,
    "two equal rows": repeated_row,
    "a row of no position": foreign_row,
    "a row at position 900.01": shifted_row,
    "rows off the circles": rows_off_the_circles,
}


def assert_fails_exactly_on_faults(result) -> None:
    assert all(isinstance(f, Finding) for f in result.found)
    assert result.findings == tuple(f.text for f in result.found)
    assert (not any(f.fault for f in result.found)) == verdicts_pass(result)
    outcome = (
        "fault" if not verdicts_pass(result) else "undecided" if verdicts_open(result) else "sound"
    )
    assert result.outcome == outcome
    assert result.clean == (outcome == "sound")
    if outcome != "fault":  # after a fault, what stays open is still said
        assert bool(result.undecided) == (outcome == "undecided")
    assert result.to_json()["faults"] == [
        {"bug": f.bug, "text": f.text} for f in result.found if f.fault
    ]


@pytest.mark.parametrize("entry", ENTRIES, ids=[f"{e['file']}:{e['key']}" for e in ENTRIES])
def test_real_tables_fail_exactly_on_a_fault(entry):
    result = audit(open_table(DATA / entry["file"], key=entry["key"]), what=entry["file"])
    assert_fails_exactly_on_faults(result)


@pytest.mark.parametrize("name", FAULTY)
def test_faulty_tables_fail_on_a_fault_finding(name):
    result = audit(FAULTY[name]())
    assert not verdicts_pass(result)
    assert_fails_exactly_on_faults(result)
    assert all(f.bug for f in result.found if f.fault)


@pytest.mark.parametrize("table", [paper(), odd_column()], ids=["paper", "odd column"])
def test_other_tables_fail_exactly_on_a_fault(table):
    assert_fails_exactly_on_faults(audit(table))


def test_a_foreign_row_is_named_and_no_sentence_contradicts_itself():
    """One row of no position: the pairs still share their frequencies (the row is named),
    never 'sin uses X and cos X: they do not share a frequency'."""
    result = audit(foreign_row())
    assert result.pairs_share_frequency
    assert not any("do not share a frequency" in f for f in result.findings)
    assert any(f.startswith("row(s) 900 match no position") for f in result.findings)
    assert result.outcome == "fault"


def test_one_pair_at_a_wrong_base_is_named_not_graded_sixteen_bits():
    """A float32 table whose slowest pair is at base 9990: the pair is named with its base,
    and the error is not blamed on 16-bit arithmetic."""
    result = audit(paper(bases=(10000.0,) * 7 + (9990.0,)).astype(np.float32))
    assert result.accuracy["grade"] != "computed in 16 bits"
    off = next(f for f in result.found if f.bug == "frequency_off_formula")
    assert off.fault and "pair 7" in off.text and "(base 9990 for that pair)" in off.text
    assert result.outcome == "fault"


def test_a_foreign_row_in_a_custom_table_is_still_named():
    """Fitted frequencies hold a row to how far it stands out from the others (their angles
    are known only modulo 2π): a random row still matches no position."""
    w = np.random.default_rng(3).uniform(0.01, 1.0, D // 2)
    p = np.arange(1000)[:, None]
    table = np.empty((1000, D))
    table[:, 0::2], table[:, 1::2] = np.sin(p * w), np.cos(p * w)
    table = table.astype(np.float32)
    assert audit(table).outcome == "sound"
    table[400] = np.random.default_rng(4).uniform(-1, 1, D)
    result = audit(table)
    assert result.schedule == "custom" and result.outcome == "fault"
    assert any(f.startswith("row(s) 400 match no position") for f in result.findings)


def test_rows_off_the_circles_are_said_so_not_split_frequencies():
    """Sines and cosines at the very same frequencies, one row in 30 scaled: the sentence says
    the frequencies are shared and rows leave the circles (never 'sin uses X and cos X')."""
    result = audit(rows_off_the_circles())
    assert result.found[0].bug == "off_circle" and result.found[0].fault
    assert result.findings[0].startswith("sines and cosines share their frequencies")
    assert not any("do not share a frequency" in f for f in result.findings)
