"""Bad input everywhere: every option of every command is tried (docs/input-errors.md), checks
survive `python -O` (no assert), tables too big for memory are refused before allocating, and
output paths are checked before any work."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import numeric
from numeric import validate
from proofs.cli.files import check_directory
from proofs.cli.main import build_parser, main
from proofs.cli.usage import UsageError

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "input-errors.md").read_text(encoding="utf-8")
HANG_GUARD = 120


def _options_taking_values() -> list[tuple[str, str]]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    found = []
    for command, subparser in sub.choices.items():
        for action in subparser._actions:
            if action.nargs == 0 or isinstance(action, argparse._HelpAction):
                continue
            found.append((command, action.option_strings[0] if action.option_strings else ""))
    return found


@pytest.mark.parametrize(("command", "option"), _options_taking_values())
def test_every_option_of_every_command_has_a_bad_value_row(command: str, option: str) -> None:
    rows = [line for line in DOC.splitlines() if line.startswith(f"| `pe-proofs {command}")]
    assert rows, f"no bad input tried for pe-proofs {command}"
    assert any(option in row.split("|")[1] for row in rows), f"{command} {option} never tried"


@pytest.mark.slow
def test_library_checks_survive_python_dash_o() -> None:
    """Input checks are not asserts: under -O (asserts removed) every library row still fails
    with the same message."""
    code = (
        "import json, sys; sys.path.insert(0, 'docs'); import make_input_errors as m;"
        "print(json.dumps([m.run(r, None) for r in m.library_rows()]))"
    )
    done = subprocess.run(
        [sys.executable, "-O", "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=HANG_GUARD,
        check=True,
    )
    outcomes = json.loads(done.stdout)
    assert outcomes and all(kind in ("ValueError", "TypeError") for kind, _ in outcomes)


def test_a_table_too_big_is_refused_with_its_size_before_allocating(monkeypatch) -> None:
    monkeypatch.setattr(validate, "available_memory", lambda: 2 * 2**20)  # 1 MiB to spare

    def no_allocation(*args, **kwargs):
        raise AssertionError("allocated before the memory check")

    monkeypatch.setattr(np, "empty", no_allocation)
    monkeypatch.setattr(np, "arange", no_allocation)
    for call, size in (
        (lambda: numeric.sinusoidal_pe(1000, 256), "a (1000, 256) table needs 0.0 GiB"),
        (lambda: numeric.ramp_encoding(100_000), "a (100000, 1) table needs 0.0 GiB"),
        (lambda: numeric.raw_index_encoding(100_000), "a (100000, 1) table needs 0.0 GiB"),
    ):
        with pytest.raises(ValueError, match=r"needs .* GiB, more than the 0\.0 GiB") as error:
            call()
        assert str(error.value).startswith(size)


def test_cli_messages_are_the_library_messages_with_option_names(capsys) -> None:
    for argv, library_message in (
        (["tables", "--base", "nan"], "base must be a finite number greater than 1, got nan"),
        (["tables", "--d-model", "7"], "d_model must be a positive even integer, got 7"),
        (["tables", "--max-len=-1"], "max_len must be a non-negative integer, got -1"),
    ):
        assert main(argv) == 2
        cli_message = capsys.readouterr().err.removeprefix("pe-proofs: error: ").rstrip("\n")
        option = argv[1].split("=")[0]
        assert cli_message == library_message.replace(option[2:].replace("-", "_"), option, 1)


def test_output_directory_is_checked_before_any_work(tmp_path, monkeypatch, capsys) -> None:
    (tmp_path / "file").write_text("x")

    def no_work(*args, **kwargs):
        raise AssertionError("theorems were checked before --out was")

    monkeypatch.setattr("proofs.registry.run", no_work)
    for out in (tmp_path / "file", tmp_path / "file" / "sub" / "deeper"):
        assert main(["latex", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "--out must be a directory" in err
    assert main(["markdown", "--out", "a\0b"]) == 2
    assert "NUL" in capsys.readouterr().err
    assert (tmp_path / "file").read_text() == "x"


def test_check_directory(tmp_path) -> None:
    assert check_directory(tmp_path / "new" / "dir") == tmp_path / "new" / "dir"
    assert not (tmp_path / "new").exists()  # nothing is created
    (tmp_path / "f").write_text("")
    for bad, message in (
        (tmp_path / "f", "is not a directory"),
        (tmp_path / "f" / "x", "is not a directory"),
        (f"{tmp_path}/a\0b", "without NUL bytes"),
    ):
        with pytest.raises(UsageError, match=message):
            check_directory(bad, "--out")


@pytest.mark.parametrize(
    "argv",
    [
        ["-m", "proofs.theorems.sinusoidal.group", "--base", "2"],
        ["-m", "proofs", "latex", "--out", "/dev/null/notes"],
    ],
)
def test_python_dash_m_bad_options_are_one_line_and_status_2(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, *argv], cwd=ROOT, capture_output=True, text=True, timeout=HANG_GUARD
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and done.stderr.startswith("pe-proofs: error: ")
    assert "Traceback" not in done.stderr
