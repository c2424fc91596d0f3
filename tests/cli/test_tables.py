"""The tables and precision commands, and the table printers, driven as the CLI drives them."""

from __future__ import annotations

import argparse
import csv
import io
import json
import math

import pytest

from numeric.table import Table
from proofs.cli import precision, tables
from proofs.render.tables import render_tables


def _run(module, argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)
    status = module.run(parser.parse_args(argv))
    return status, capsys.readouterr().out


def test_command_modules_have_the_cli_interface() -> None:
    for module, name in ((tables, "tables"), (precision, "precision")):
        assert name == module.NAME and isinstance(module.HELP, str) and "\n" not in module.HELP


def test_tables_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _run(tables, [], capsys)
    assert status == 0
    assert "PE(1)    0.841    0.54    0.1  0.995   0.01     1.  0.001     1." in out
    assert "50 unique rows out of 50" in out and "[FAIL]" not in out
    assert "-0.9589      0.2837        -0.9589         0.2837" in out


def test_tables_json_and_csv(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _run(tables, ["--format", "json", "--max-len", "64", "--d-model", "6"], capsys)
    data = json.loads(out)
    assert status == 0 and len(data) == 7 and data[0]["rows"][1][1] == pytest.approx(math.sin(1))
    status, out = _run(tables, ["--format", "csv", "--positions", "1,2"], capsys)
    blocks = out.split("\n\n")
    assert len(blocks) == 7
    assert list(csv.reader(io.StringIO(blocks[2])))[2] == ["50", "50"]


def test_tables_plot(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "spectrum.png"
    status, _ = _run(tables, ["--plot", str(target), "--max-len", "300"], capsys)
    assert status == 0 and target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--d-model", "7"], "--d-model must be a positive even integer, got 7"),
        (["--d-model", "x"], "--d-model must be an integer, got 'x'"),
        (["--max-len", "-3"], "--max-len must be a non-negative integer, got -3"),
        (["--base", "1"], "--base must be a finite number greater than 1"),
        (["--base", "inf"], "--base must be a finite number greater than 1"),
        (["--k", "nan"], "--k must be a finite number"),
        (["--k", "1.5"], "--k must be an integer"),
        (["--positions", "1,a"], "--positions must be comma-separated integers"),
        (["--positions", "49"], "--k=5 moves --positions \\[49\\] outside the table"),
        (["--dims", "0,9"], "--dims must be integers in \\[0, 8\\)"),
        (["--format", "xml"], "--format must be text, csv or json"),
        (["--max-len", "2000000000", "--d-model", "4096"], "needs .* GiB"),
        (["--plot", "/no/such/dir/x.png"], "--plot directory does not exist"),
    ],
)
def test_tables_bad_options(argv: list[str], message: str) -> None:
    parser = argparse.ArgumentParser()
    tables.add_arguments(parser)
    with pytest.raises(ValueError, match=message):
        tables.run(parser.parse_args(argv))


def test_precision_command(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _run(
        precision, ["--d-model", "16", "--max-positions", "1000,100000", "--samples", "8"], capsys
    )
    assert status == 0 and "overflow" in out and "65504" in out
    for argv, message in (
        (["--d-model", "3"], "--d-model must be a positive even integer"),
        (["--max-positions", "0"], "--max-positions must be integers"),
        (["--samples", "0"], "--samples must be an integer in"),
    ):
        parser = argparse.ArgumentParser()
        precision.add_arguments(parser)
        with pytest.raises(ValueError, match=message):
            precision.run(parser.parse_args(argv))


def test_render_text_marks_and_alignment() -> None:
    table = Table(
        "t", ("name", "x"), (("a", 1.5), ("bb", 10.25)), formats=("", ".2f"), note="n", passed=False
    )
    text = render_tables([table], "text")
    assert text.splitlines() == [
        "t  [FAIL]",
        "name      x",
        "----  -----",
        "a      1.50",
        "bb    10.25",
        "n",
    ]


def test_render_json_keeps_raw_values_and_spells_non_finite() -> None:
    table = Table("t", ("x",), ((0.1,), (math.inf,), (None,)))
    data = json.loads(render_tables([table], "json"))
    assert data == [
        {
            "title": "t",
            "columns": ["x"],
            "rows": [[0.1], ["inf"], [None]],
            "note": "",
            "passed": None,
        }
    ]
    with pytest.raises(ValueError, match="format must be one of text, csv, json"):
        render_tables([table], "html")
