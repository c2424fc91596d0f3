"""`pe-proofs audit`: the report, JSON, the exit-status rule, and bad input as one-line errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from numeric import sinusoidal_pe
from proofs.cli.main import main

REAL = Path(__file__).resolve().parents[1] / "data" / "real_tables"


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tables")
    np.save(folder / "paper.npy", sinusoidal_pe(600, 16, dtype=np.float32))
    fairseq = sinusoidal_pe(600, 16, layout="concatenated", schedule="tensor2tensor")
    fairseq[1] = 0.0
    np.save(folder / "fairseq.npy", fairseq)
    np.savez(folder / "two.npz", a=np.zeros((3, 4)), b=np.ones((3, 4)))
    (folder / "bad.npy").write_bytes(b"\x93NUMPY\x01\x00garbage")
    np.save(folder / "zeros.npy", np.zeros((10, 8), dtype=np.float32))
    return folder


def run(capsys, *argv: str) -> tuple[int, str, str]:
    status = main(["audit", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_a_rounded_paper_table_is_sound_and_exits_0(tables, capsys):
    status, out, _ = run(capsys, str(tables / "paper.npy"))
    assert status == 0
    assert "structure: sound" in out
    assert "convention: layout interleaved, schedule paper, base 10000" in out
    assert "accuracy: rounded once" in out


def test_a_library_table_computed_in_float32_exits_0(capsys):
    status, out, _ = run(capsys, str(REAL / "gptj_sincos.npy"))
    assert status == 0
    assert "accuracy: computed in float32" in out and "structure: sound" in out


@pytest.mark.parametrize("name", ["pegasus_x_fp16.npy", "ctrl_bf16.safetensors"])
def test_a_library_table_computed_in_16_bits_exits_1(capsys, name):
    status, out, _ = run(capsys, str(REAL / name))
    assert status == 1
    assert "accuracy: computed in 16 bits" in out and "structure: faulty" in out
    assert "positions collapse" in out


def test_json_gives_the_three_verdicts_and_the_precision(capsys):
    status, out, _ = run(capsys, str(REAL / "marian_encoder_pos_9g.csv"), "--json")
    report = json.loads(out)
    assert status == 0
    assert report["structure"] == {"verdict": "sound", "reasons": []}
    assert report["convention"]["verdict"] == "named"
    assert (report["layout"], report["schedule"], report["base"]) == ("concatenated", "paper", 1e4)
    assert report["accuracy"]["grade"] == "rounded once"
    assert report["precision"] == "float32"  # read from the digits of the text


def test_json_names_fairseq_convention_and_padding_row(tables, capsys):
    status, out, _ = run(capsys, str(tables / "fairseq.npy"), "--json")
    report = json.loads(out)
    assert status == 0
    assert report["layout"] == "concatenated" and report["schedule"] == "tensor2tensor"
    assert report["zero_rows"] == [1] and report["rotation"]["passed"] is True
    assert any("fairseq" in f for f in report["findings"])


@pytest.mark.parametrize("columns", [80, 120])
def test_the_report_fits_the_terminal(monkeypatch, capsys, columns):
    monkeypatch.setenv("COLUMNS", str(columns))
    for name in ("xglm_packed.npy", "nemo_relposenc.npy", "diffusers_pixart_2d.npy"):
        status, out, _ = run(capsys, str(REAL / name))
        assert status == 0
        assert all(len(line) <= columns for line in out.splitlines())


def test_against_tells_conventions_apart(tables, capsys):
    status, out, _ = run(
        capsys, str(tables / "fairseq.npy"), "--against", str(tables / "paper.npy")
    )
    assert status == 1 and out.startswith("different encodings")
    status, _, _ = run(capsys, str(tables / "paper.npy"), "--against", str(tables / "paper.npy"))
    assert status == 0


def test_against_names_the_table_it_cannot_fit(tables, capsys):
    status, _, err = run(capsys, str(tables / "paper.npy"), "--against", str(tables / "zeros.npy"))
    assert status == 2
    assert "zeros.npy needs at least 4 non-zero rows" in err


def test_against_key_needs_against(tables, capsys):
    status, _, err = run(capsys, str(tables / "paper.npy"), "--against-key", "pe")
    assert status == 2 and err.count("\n") == 1
    assert "--against-key names the array in the --against file" in err


def test_running_out_of_memory_names_the_audit_not_other_commands(tables, capsys, monkeypatch):
    def exhausted(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr("numeric.table_audit.audit", exhausted)
    status, _, err = run(capsys, str(tables / "paper.npy"))
    assert status == 2 and err.count("\n") == 1
    assert "out of memory auditing" in err and "--max-len" not in err


@pytest.mark.parametrize(
    ("name", "extra", "message"),
    [
        ("missing.npy", [], "no such file"),
        ("two.npz", [], "two.npz"),
        ("two.npz", ["--key", "c"], "'c'"),
        ("bad.npy", [], "bad.npy"),
        ("folder.npy", [], "a directory, not a file"),
        ("pipe.npy", [], "a named pipe (FIFO), not a file"),
    ],
)
def test_bad_files_are_one_line_errors_with_exit_2(tables, capsys, name, extra, message):
    if name == "folder.npy":
        (tables / name).mkdir(exist_ok=True)
    if name == "pipe.npy" and not (tables / name).exists():
        os.mkfifo(tables / name)
    status, _, err = run(capsys, str(tables / name), *extra)
    assert status == 2
    assert err.count("\n") == 1 and err.startswith("pe-proofs: error: ") and message in err


def test_a_truncated_npz_and_an_empty_csv_are_one_line_naming_the_file(tmp_path, capsys):
    np.save(tmp_path / "t.npy", np.ones((4, 4)))
    (tmp_path / "cut.npz").write_bytes((tmp_path / "t.npy").read_bytes()[:100])
    (tmp_path / "empty.csv").write_text("", encoding="utf-8")
    for name in ("cut.npz", "empty.csv"):
        status, _, err = run(capsys, str(tmp_path / name))
        assert status == 2
        assert err.count("\n") == 1 and name in err and "Warning" not in err


def test_tables_of_1e308_values_are_audited_and_compared(tmp_path, capsys):
    np.save(tmp_path / "huge.npy", sinusoidal_pe(400, 16) * (1e308 / 1.5))
    np.save(tmp_path / "flat.npy", np.full((10, 4), 1e308))
    status, out, _ = run(capsys, str(tmp_path / "huge.npy"), "--json")
    assert status == 0 and json.loads(out)["scale"] == pytest.approx(1e308 / 1.5)
    status, out, _ = run(
        capsys, str(tmp_path / "huge.npy"), "--against", str(tmp_path / "huge.npy")
    )
    assert status == 0 and out.startswith("same encoding")
    status, out, _ = run(capsys, str(tmp_path / "flat.npy"))
    assert status == 1 and "structure: not sinusoidal" in out
