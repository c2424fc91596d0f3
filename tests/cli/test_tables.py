"""The tables and precision commands, and the table printers, driven as the CLI drives them."""

from __future__ import annotations

import argparse
import csv
import io
import json
import math

import pytest

from numeric.result_table import Table
from proofs.cli import precision, tables
from proofs.cli.main import main
from proofs.cli.usage import UsageError
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


def test_tables_json_gives_one_object_per_table(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _run(tables, ["--format", "json", "--max-len", "64", "--d-model", "6"], capsys)
    data = json.loads(out)
    assert status == 0 and list(data) == list(tables.TABLE_NAMES)
    assert data["pe_rows"]["rows"][1][1] == pytest.approx(math.sin(1))
    status, out = _run(tables, ["--format", "json", "--table", "unique"], capsys)
    assert list(json.loads(out)) == ["unique"]


def test_tables_csv_is_one_table_a_csv_reader_loads(capsys: pytest.CaptureFixture[str]) -> None:
    status, out = _run(tables, ["--format", "csv", "--table", "unique"], capsys)
    assert status == 0
    assert list(csv.reader(io.StringIO(out))) == [["unique rows", "rows"], ["50", "50"]]
    status, out = _run(tables, ["--format", "csv", "--table", "rotation"], capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [int(r["pos"]) for r in rows] == [0, 3, 7, 12, 20] and rows[0]["match"] == "True"


def test_tables_csv_without_a_table_is_refused_with_the_way_out() -> None:
    parser = argparse.ArgumentParser()
    tables.add_arguments(parser)
    with pytest.raises(UsageError, match=r"add --table NAME .* or --out DIR"):
        tables.run(parser.parse_args(["--format", "csv"]))


def test_tables_csv_out_writes_one_file_per_table(tmp_path, capsys) -> None:
    status, out = _run(tables, ["--format", "csv", "--out", str(tmp_path / "csv")], capsys)
    assert status == 0 and out == ""
    written = {p.name for p in (tmp_path / "csv").glob("*.csv")}
    assert written == {f"{name}.csv" for name in tables.TABLE_NAMES}
    header = (tmp_path / "csv" / "pe_rows.csv").read_text().splitlines()[0]
    assert header.startswith("row,dim 0,dim 1")


def test_max_len_alone_never_blames_an_option_not_given(capsys) -> None:
    # The default positions that do not fit a short table are dropped, not reported.
    status, out = _run(tables, ["--max-len", "10"], capsys)
    assert status == 0 and "0.841" in out
    parser = argparse.ArgumentParser()
    tables.add_arguments(parser)
    with pytest.raises(UsageError) as error:
        tables.run(parser.parse_args(["--max-len", "3"]))
    assert str(error.value).startswith("--max-len 3 is too short")
    assert "--positions" not in str(error.value)


@pytest.mark.parametrize(
    ("suffix", "magic"), [(".png", b"\x89PNG\r\n\x1a\n"), (".svg", b"<?xml"), (".pdf", b"%PDF")]
)
def test_tables_plot_format_follows_the_suffix(tmp_path, capsys, suffix, magic) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / f"spectrum{suffix}"
    status, _ = _run(tables, ["--plot", str(target), "--max-len", "300"], capsys)
    assert status == 0 and target.read_bytes().startswith(magic)
    # A single file: nothing else is left beside it (no manifest, no temporary file).
    assert [p.name for p in tmp_path.iterdir()] == [target.name]


def test_tables_plot_says_what_it_wrote_and_keeps_an_existing_file(tmp_path, capsys) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "spectrum.svg"
    assert main(["tables", "--plot", str(target)]) == 0
    assert capsys.readouterr().err == f"pe-proofs: wrote {target}\n"
    target.write_text("mine")
    assert main(["tables", "--plot", str(target)]) == 2
    assert "exists; add --force to replace it" in capsys.readouterr().err
    assert target.read_text() == "mine"
    assert main(["tables", "--plot", str(target), "--force"]) == 0
    assert target.read_bytes().startswith(b"<?xml")


def test_tables_plot_refuses_other_suffixes(tmp_path, capsys) -> None:
    assert main(["tables", "--plot", str(tmp_path / "x.gif")]) == 2
    assert "--plot must end in .png, .svg or .pdf, got 'x.gif'" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


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
    with pytest.raises(UsageError, match=message):
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
        with pytest.raises(UsageError, match=message):
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
