"""The sinusoidal audit's findings carry whether each is a fault, and the audit fails exactly when
one is: on every table in tests/data/real_tables and on tables built with each kind of fault,
"no finding is a fault" equals the verdicts' rule (a sound structure and an accuracy of rounding
once or of an ordinary float64 or float32 computation)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from numeric.audit.findings import Finding
from numeric.audit.grading import SOUND
from numeric.audit.load import open_table
from numeric.table_audit import audit

DATA = Path(__file__).resolve().parents[1] / "data" / "real_tables"
ENTRIES = [
    e
    for e in json.loads((DATA / "truth.json").read_text(encoding="utf-8"))["entries"]
    if e["file"] is not None
]
N, D = 2000, 16


def verdicts_pass(result) -> bool:
    """The exit-0 rule as the verdicts state it."""
    return result.structure["verdict"] == "sound" and result.accuracy.get("grade") in SOUND


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
}


def assert_fails_exactly_on_faults(result) -> None:
    assert all(isinstance(f, Finding) for f in result.found)
    assert result.findings == tuple(f.text for f in result.found)
    assert result.clean == (not any(f.fault for f in result.found)) == verdicts_pass(result)
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
