"""The pe-proofs command line: prove, list, JSON, exit statuses and one-line errors."""

import json
import subprocess
import sys

import pytest

from proofs.cli.main import main


def test_prove_one_theorem_prints_steps_and_verdict(capsys):
    assert main(["prove", "ramp"]) == 0
    out = capsys.readouterr().out
    assert "compare coefficients of pos" in out.lower()
    assert "✓ ramp: PROVED" in out
    assert "Numeric twin" in out


def test_default_command_proves_everything(capsys):
    assert main(["--no-twin"]) == 0
    out = capsys.readouterr().out
    assert "rotation: PROVED" in out and "ramp: PROVED" in out


def test_list_names_every_theorem(capsys):
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines][:3] == ["frequencies", "rotation", "ramp"]


def test_json_output_has_steps_with_both_checks(capsys):
    assert main(["prove", "rotation", "--json", "--d-model", "4"]) == 0
    data = json.loads(capsys.readouterr().out)
    (theorem,) = data
    assert theorem["name"] == "rotation" and theorem["status"] == "proved"
    linked = [s for s in theorem["steps"] if s["symbolic"] is not None]
    assert linked and all(s["symbolic"]["passed"] and s["numeric"]["passed"] for s in linked)
    assert all(
        {"expr", "justification", "symbolic", "numeric"} <= s.keys() for s in theorem["steps"]
    )
    assert theorem["numeric_twin"]["table"]["passed"] is True


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["prove", "rotaton"], "did you mean 'rotation'"),
        (["prove", "--d-model", "7"], "positive even integer"),
        (["prove", "--d-model", "x"], "positive even integer"),
        (["prove", "--d-model"], "expected one argument"),
        (["prove", "--frobnicate"], "unrecognized arguments"),
        (["nonsense"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_status_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("pe-proofs: error:")
    assert message in err


def test_theorem_module_runs_by_itself():
    done = subprocess.run(
        [sys.executable, "-m", "proofs.ramp", "--no-twin"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "ramp: PROVED" in done.stdout


def test_bad_option_in_a_subprocess_has_no_traceback():
    done = subprocess.run(
        [sys.executable, "-m", "proofs", "prove", "--d-model", "-2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.strip().count("\n") == 0


def test_a_sum_pretty_prints_first_thing_in_a_fresh_process():
    # SymPy's big-symbol glyphs depend on a global Unicode switch that sp.pretty() sets.
    code = (
        "import sympy as sp; from proofs.render.text import pretty_lines; "
        "i, n = sp.symbols('i n'); print(len(pretty_lines(sp.Sum(i, (i, 0, n)))[0]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
