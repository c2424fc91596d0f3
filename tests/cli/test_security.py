"""User expressions through the command line: code is refused, numbers are bounded, nothing runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from proofs.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
# A generous guard that only catches a hang; not a performance assertion.
HANG_GUARD = 60

ATTACKS = [
    ("__import__('os').system('touch {marker}')", "attribute access"),
    ("__import__('os')", "calls are allowed only to"),
    ('exec(\'open("{marker}", "w")\')', "calls are allowed only to"),
    ("open('{marker}', 'w')", "calls are allowed only to"),
    ("pos.__class__.__bases__", "attribute access"),
    ("sin.__globals__", "attribute access"),
    ("lambda: open('{marker}', 'w')", "lambda is not allowed"),
    ("[c for c in ().__class__.__bases__]", "not allowed"),
    ("(x := 1)", "not allowed"),
    ("pos**(10**10)", "too large"),
    ("9**9**9**9", "too large"),
    ("exp(10**30)", "too large"),
    ("2**2**2**2**2**2", "too large"),
    ("sin(pos)**(10**10)", "too large"),
    ("(pos+1)" + "*(pos+1)" * 600, "too"),
    ("1" + "0" * 5000, "too"),
]


def _check(argv: list[str], capsys: pytest.CaptureFixture[str], expected: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("pe-proofs: error: ") and err.count("\n") == 1
    assert expected in err


@pytest.mark.parametrize(("text", "expected"), ATTACKS, ids=[a[0][:40] for a in ATTACKS])
def test_shift_refuses_code_and_huge_numbers(text, expected, tmp_path, capsys) -> None:
    marker = tmp_path / "pwned"
    _check(["shift", "sin(pos)", text.format(marker=marker)], capsys, expected)
    _check(["shift", text.format(marker=marker), "--affine", "--json"], capsys, expected)
    assert not marker.exists()


def test_shift_in_a_subprocess_runs_nothing_and_exits_2(tmp_path) -> None:
    marker = tmp_path / "pe-pwned"
    done = subprocess.run(
        [sys.executable, "-m", "proofs", "shift", f"__import__('os').system('touch {marker}')"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=HANG_GUARD,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("pe-proofs: error: ")
    assert "Traceback" not in done.stderr
    assert not marker.exists()
