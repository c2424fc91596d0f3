"""`pe-proofs papers`: the whole ledger, once; every verdict pinned, the JSON shape, exit 0."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest

from proofs.cli.main import main

mpmath.mp.dps = 40
ROOT = Path(__file__).resolve().parent.parent.parent
# Men et al.'s lengths whose tabulated base fails, by reading ("K" = 1000 or 1024): the
# other entries of Table 2 hold.
MEN_FAILS = {
    1000: {"16K", "32K", "256K", "512K", "1M"},
    1024: {"4K", "16K", "32K", "128K", "256K", "512K", "1M"},
}
SU_FAILS = {
    1000: {"2K", "16K", "128K", "256K", "512K", "1M"},
    1024: {"2K", "4K", "16K", "128K", "256K", "512K", "1M"},
}


@pytest.fixture(scope="module")
def entries():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main(["papers", "--json"])
    assert status == 0
    return json.loads(out.getvalue())


def test_every_entry_has_the_fields_and_a_verdict(entries):
    keys = {"id", "paper", "where", "claim", "reading", "verdict", "witness", "facts"}
    assert all(set(e) == keys for e in entries)
    assert len({e["id"] for e in entries}) == len(entries) == 9 + 44 + 44
    assert {e["verdict"] for e in entries} <= {"holds", "fails", "undecided"}


@pytest.mark.parametrize(("prefix", "fails"), [("men2024.", MEN_FAILS), ("su2024.", SU_FAILS)])
def test_the_least_base_tables_verdicts_are_pinned(entries, prefix, fails):
    chosen = [e for e in entries if e["id"].startswith(prefix)]
    assert len(chosen) == 44
    for e in chosen:
        _, _, label, k, _ = e["id"].split(".")
        expected = "fails" if label in fails[int(k[1:])] else "holds"
        assert e["verdict"] == expected, e["id"]
        if expected == "fails":
            # Every failure of these two tables is a distance that breaks the criterion.
            assert e["witness"]["m"] <= e["witness"]["m_max"]


def test_every_table_failure_is_negative_by_mpmath(entries):
    seen = set()
    for e in entries:
        w = e["witness"]
        if e["id"].startswith(("men2024.", "su2024.")) and e["verdict"] == "fails":
            if (w["base"], w["m"]) in seen:
                continue
            seen.add((w["base"], w["m"]))
            base = mpmath.mpf(w["base"])
            value = sum(
                mpmath.cos(w["m"] * mpmath.power(base, mpmath.mpf(-2 * i) / 128)) for i in range(64)
            )
            assert value < 0, e["id"]
            printed = mpmath.mpf(w["value"].strip("[").split()[0])
            assert mpmath.almosteq(value, printed, rel_eps=1e-15, abs_eps=1e-18), e["id"]


def test_the_1m_failure_is_negative_by_mpmath(entries):
    w = next(e for e in entries if e["id"] == "men2024.table2.1M.K1000.m_le_L")["witness"]
    assert w["m"] == 874868
    value = sum(
        mpmath.cos(w["m"] * mpmath.power(510000000, mpmath.mpf(-2 * i) / 128)) for i in range(64)
    )
    assert value < 0


def test_a_bad_module_is_a_usage_error(capsys):
    assert main(["papers", "--only", "nope"]) == 2
    assert "--only must name a claim module" in capsys.readouterr().err


def test_the_text_prints_each_entry_as_a_reader_reads_it(capsys):
    assert main(["papers", "--only", "vaswani2017"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "vaswani2017.wavelengths: FAILS"
    assert [line.split(":")[0].strip() for line in lines[1:5]] == [
        "paper",
        "where",
        "claim",
        "reading",
    ]
    assert "  claimed_highest: 2*pi*10000" in lines


def test_a_terminal_without_unicode_gets_ascii_and_exit_0():
    done = subprocess.run(
        [sys.executable, "-m", "proofs", "papers", "--only", "yarn2023"],
        capture_output=True,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    assert b"where:   Sec. 3.2, Eq. 17" in done.stdout
    done.stdout.decode("ascii")  # nothing but ASCII
