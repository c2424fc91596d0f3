"""`pe-proofs shift`: the derivation or certificate on the terminal, JSON, and exit statuses."""

import json

import pytest

from proofs.cli.main import main


def test_sine_cosine_prints_the_verified_rotation(capsys):
    assert main(["shift", "sin(pos)", "cos(pos)"]) == 0
    out = capsys.readouterr().out
    assert "✓ proved" in out and "✓ yes" in out
    assert "M(k) =" in out and "cos(k)" in out


def test_ramp_affine_prints_the_offset(capsys):
    assert main(["shift", "pos/L", "--affine"]) == 0
    out = capsys.readouterr().out
    assert "affine map" in out and "b(k) =" in out and "✓ yes" in out


def test_ramp_linear_prints_the_certificate(capsys):
    assert main(["shift", "pos/L"]) == 0
    out = capsys.readouterr().out
    assert "no matrix exists" in out and "0 = k/L" in out and "✗ no" in out


def test_json_answer(capsys):
    assert main(["shift", "sin(pos)", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exists"] is False and data["matrix"] is None
    assert data["certificate"]["value"] == "sin(k)"
    assert {e["basis_function"] for e in data["certificate"]["equations"]} == {
        "exp(I*pos)",
        "exp(-I*pos)",
    }


def test_json_map_carries_its_derivation(capsys):
    assert main(["shift", "pos", "--affine", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["exists"] is True and data["offset"] == ["k"]
    assert data["derivation"]["status"] == "proved" and len(data["derivation"]["steps"]) == 3


def test_undecided_exits_3(capsys):
    assert main(["shift", "log(pos)"]) == 3
    assert "? undecided: unsupported term log(pos)" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["shift", "sin(k*pos)"], "shift symbol k"),
        (["shift", "foo(pos)"], "foo"),
        (["shift", "__import__('os')"], ""),
        (["shift"], "required"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("pe-proofs: error:") and message in err and err.count("\n") == 1
