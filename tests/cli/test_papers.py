"""`pe-proofs papers`: the whole ledger, once; every verdict pinned, the JSON shape, exit 0."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import mpmath
import pytest

from proofs.cli.main import main


@pytest.fixture(autouse=True)
def _forty_digits():
    """mpmath at 40 digits in this file's tests only (its global context is shared)."""
    with mpmath.workdps(40):
        yield


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


# ---- the summaries equal the ledger: docs/reference/papers.md, and the transcription the
# ledger started from (../shared/papers.md, where it is present) ----

DOC = (ROOT / "docs" / "reference" / "papers.md").read_text(encoding="utf-8")
SHARED = ROOT.parent / "shared" / "papers.md"
KS = (1000, 1024)
LABELS = ("1K", "2K", "4K", "8K", "16K", "32K", "64K", "128K", "256K", "512K", "1M")


def short(value: str) -> str:
    """A base as the summaries print it: 27000 -> 2.7e4."""
    mantissa, exponent = f"{float(value):.1e}".split("e")
    return f"{mantissa}e{int(exponent)}"


def by_reading(entries, prefix: str) -> dict[tuple[str, int], dict]:
    """(label, K) -> the entry at m ≤ L, after checking the range of m changes nothing."""
    out = {}
    for e in entries:
        if e["id"].startswith(prefix):
            _, _, label, k, key = e["id"].split(".")
            out.setdefault((label, int(k[1:])), {})[key] = e
    for pair in out.values():
        le, lt = pair["m_le_L"], pair["m_lt_L"]
        assert (le["verdict"], le["witness"].get("m")) == (lt["verdict"], lt["witness"].get("m"))
    return {key: pair["m_le_L"] for key, pair in out.items()}


def verdict_cell(e: dict) -> str:
    return "holds" if e["verdict"] == "holds" else f"fails at m = {e['witness']['m']}"


def test_the_docs_table_2_summary_is_the_ledger(entries):
    men = by_reading(entries, "men2024.")
    expected = []
    for label in LABELS:
        one, two = men[(label, 1000)], men[(label, 1024)]
        least = " / ".join(short(e["witness"]["smallest_grid_base"]) for e in (one, two))
        cells = (label, short(one["witness"]["base"]), verdict_cell(one), verdict_cell(two), least)
        expected.append("| " + " | ".join(cells) + " |")
    start = DOC.index("| L | b_L (Table 2) |")
    rows = DOC[start:].splitlines()[2 : 2 + len(LABELS)]
    assert rows == expected


def test_the_docs_su_summary_is_the_ledger(entries):
    su = by_reading(entries, "su2024.")
    text = " ".join(DOC.split())
    text = text[text.index("Su's table (") :]
    bases = re.search(r"Su's table \(([^)]*)\)", text)[1].split(", ")
    assert bases == [short(su[(label, 1000)]["witness"]["base"]) for label in LABELS]
    found = re.search(r"its ([\w, ]*?) bases break the criterion \(first at m = (.*?)\)", text)
    failing = [label for label in LABELS if all(su[(label, k)]["verdict"] == "fails" for k in KS)]
    assert found[1].replace(" and ", ", ").split(", ") == failing
    first = [str(su[(label, 1000)]["witness"]["m"]) for label in failing]
    assert found[2].replace(" and ", ", ").split(", ") == first
    held = re.search(
        r"holds at ([\w, ]*?) under both readings of K, and at (\S+) for K = (\d+)", text
    )
    both = [label for label in LABELS if all(su[(label, k)]["verdict"] == "holds" for k in KS)]
    assert held[1].replace(" and ", ", ").split(", ") == both
    one = [
        label for label in LABELS if su[(label, 1000)]["verdict"] != su[(label, 1024)]["verdict"]
    ]
    assert one == [held[2]] and su[(held[2], int(held[3]))]["verdict"] == "holds"


def test_the_docs_closed_claims_verdicts_are_the_ledger(entries):
    verdicts = {e["id"]: e["verdict"] for e in entries}
    seen = set()
    for line in DOC.splitlines():
        found = re.match(r"\| `([\w.]+)`(?:, `(\.\w+)`)? \|.*\| (holds|fails)[:\s]", line)
        if found is None or "<" in line.split("|")[1]:
            continue
        ids = [found[1]] + ([found[1].rsplit(".", 1)[0] + found[2]] if found[2] else [])
        for entry_id in ids:
            assert verdicts[entry_id] == found[3], entry_id
            seen.add(entry_id)
    assert seen == {i for i in verdicts if not i.startswith(("men2024.", "su2024."))}


@pytest.mark.skipif(
    not SHARED.is_file(), reason="../shared/papers.md, the transcription, is absent"
)
def test_the_transcribed_tables_are_the_ledgers_bases(entries):
    # The ledger's bases are the transcription's (Table 2's row, Su's list), in order.
    lines = SHARED.read_text(encoding="utf-8").splitlines()
    row = next(ln for ln in lines if ln.strip().startswith("| b_L |")).strip(" |").split(" | ")[1:]
    text = " ".join(" ".join(lines).split())
    su = re.search(r"lists: ([\d.e, ]+)\.", text)[1].split(", ")
    for prefix, listed in (("men2024.", row), ("su2024.", su)):
        chosen = by_reading(entries, prefix)
        assert listed == [short(chosen[(label, 1000)]["witness"]["base"]) for label in LABELS]
