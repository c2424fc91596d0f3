"""`pe-proofs audit`: the report, JSON, exit statuses, and bad files as one-line errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

from numeric import sinusoidal_pe
from proofs.cli.main import main


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tables")
    paper = folder / "paper.npy"
    np.save(paper, sinusoidal_pe(600, 16, dtype=np.float32))
    fairseq = sinusoidal_pe(600, 16, layout="concatenated", schedule="tensor2tensor")
    fairseq[1] = 0.0
    np.save(folder / "fairseq.npy", fairseq)
    d, pos = 16, np.arange(3000, dtype=np.float16)[:, None]
    div = np.exp(np.arange(0, d, 2) * -(np.log(10000.0) / d)).astype(np.float16)
    fp16 = np.zeros((3000, d), np.float16)
    fp16[:, 0::2], fp16[:, 1::2] = np.sin(pos * div), np.cos(pos * div)
    np.save(folder / "fp16.npy", fp16)
    np.savez(folder / "two.npz", a=np.zeros((3, 4)), b=np.ones((3, 4)))
    (folder / "bad.npy").write_bytes(b"\x93NUMPY\x01\x00garbage")
    return folder


def test_a_clean_paper_table_passes_with_exit_0(tables, capsys):
    assert main(["audit", str(tables / "paper.npy")]) == 0
    out = capsys.readouterr().out
    assert "layout interleaved, schedule paper, base 10000" in out
    assert all(len(line) <= 100 for line in out.splitlines())


def test_json_names_fairseq_convention_and_padding_row(tables, capsys):
    assert main(["audit", str(tables / "fairseq.npy"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["layout"] == "concatenated" and report["schedule"] == "tensor2tensor"
    assert report["zero_rows"] == [1] and report["rotation"]["passed"] is True
    assert any("fairseq" in f for f in report["findings"])


def test_a_float16_computed_table_fails_with_exit_1(tables, capsys):
    assert main(["audit", str(tables / "fp16.npy")]) == 1
    out = capsys.readouterr().out
    assert "FAILED" in out and "rows 2048 and 2049 are identical" in out


def test_against_tells_conventions_apart(tables, capsys):
    assert main(["audit", str(tables / "fairseq.npy"), "--against", str(tables / "paper.npy")]) == 1
    assert capsys.readouterr().out.startswith("different encodings")
    assert main(["audit", str(tables / "paper.npy"), "--against", str(tables / "paper.npy")]) == 0


@pytest.mark.parametrize(
    ("name", "extra", "message"),
    [
        ("missing.npy", [], "no such file"),
        ("two.npz", [], "two.npz"),
        ("two.npz", ["--key", "c"], "'c'"),
        ("bad.npy", [], "bad.npy"),
    ],
)
def test_bad_files_are_one_line_errors_with_exit_2(tables, capsys, name, extra, message):
    assert main(["audit", str(tables / name), *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("pe-proofs: error: ") and message in err


def test_a_truncated_npz_and_an_empty_csv_are_one_line_naming_the_file(tmp_path, capsys):
    np.save(tmp_path / "t.npy", np.ones((4, 4)))
    (tmp_path / "cut.npz").write_bytes((tmp_path / "t.npy").read_bytes()[:100])
    (tmp_path / "empty.csv").write_text("", encoding="utf-8")
    for name in ("cut.npz", "empty.csv"):
        assert main(["audit", str(tmp_path / name)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and name in err and "Warning" not in err
