"""Every command in every output format it offers, over every theorem and every audit input kind.

What must parse parses (json.loads for --json and --format json, csv for CSV, a notebook's JSON),
the exit status is the one the command promises, and nothing reaches stderr as an internal error
or a traceback. Proving is the expensive part, so it is done once per session: the in-process
runs below render the shared session runs (conftest's checked_notes) in every format, and one
real subprocess proves a theorem end to end. The exhaustive cross product (a real subprocess per
format over all theorems, every audit input in every format, every notes command) runs with
the slow checks.
"""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from numeric.module_table_names import TABLE_NAMES
from proofs import registry
from proofs.cli.main import main
from proofs.engine.theorem import TheoremRun

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "tests" / "data" / "real_tables"
ROPE = ROOT / "tests" / "data" / "real_rope"
PROVE_FORMATS = {"text": [], "steps": ["--steps"], "verbose": ["--verbose"], "json": ["--json"]}
BROKEN = ("internal error", "Traceback")


def pe_proofs(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """`pe-proofs ARGS` in a fresh interpreter, on this tree's code, its output captured."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "proofs", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=1800,
        check=False,
    )


def clean(stderr: str) -> None:
    assert not any(word in stderr for word in BROKEN), stderr


def listed_names() -> list[str]:
    """The theorems `pe-proofs list` names: the first word of each unindented line that is
    not a course module's heading."""
    listed = pe_proofs("list")
    assert listed.returncode == 0, listed.stderr
    clean(listed.stderr)
    lines = listed.stdout.splitlines()
    return [line.split()[0] for line in lines if line[:1].strip() and not line.startswith("#")]


@pytest.fixture(scope="module")
def names() -> list[str]:
    return listed_names()


@pytest.fixture
def shared_runs(
    checked_notes: list[TheoremRun], monkeypatch: pytest.MonkeyPatch
) -> dict[str, TheoremRun]:
    """registry.run answering from the session's runs: the commands render without proving."""
    by_name = {run.name: run for run in checked_notes}
    asked.clear()

    def run(names: list[str] | None = None, **_: object) -> Iterator[TheoremRun]:
        asked.extend(names or by_name)
        return iter([by_name[n] for n in (names or list(by_name))])

    monkeypatch.setattr(registry, "run", run)
    return by_name


# The theorems the last in-process command asked registry.run for.
asked: list[str] = []


def in_process(
    capsys: pytest.CaptureFixture[str], *argv: str, expect: int | None = 0
) -> tuple[int, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    clean(err)
    if expect is not None:
        assert status == expect, err
    return status, out


def check_prove_output(fmt: str, out: str, names: list[str]) -> None:
    """What `pe-proofs prove NAMES` prints in fmt says every theorem named, and --json parses
    into one object per theorem with its twin's table."""
    if fmt == "json":
        objects = json.loads(out)
        assert [o["name"] for o in objects] == names
        for o in objects:
            assert o["status"] == "proved", o["name"]
            assert o["steps"] or o["parts"], o["name"]
            assert o["numeric_twin"]["table"]["passed"] is not False, o["name"]
        return
    for name in names:
        assert f"━━ {name}:" in out or f"== {name}:" in out, name


# --- prove: every theorem, every format, from the shared runs -------------------------------


def test_the_list_names_every_theorem_of_the_registry(names):
    assert set(names) == set(registry.names())


@pytest.mark.parametrize("fmt", PROVE_FORMATS)
def test_prove_renders_every_theorem_in_every_format(fmt, shared_runs, names, capsys):
    status, out = in_process(capsys, "prove", *names, *PROVE_FORMATS[fmt])
    assert status == 0
    check_prove_output(fmt, out, names)


def test_prove_alone_summarises_what_it_proves(shared_runs, capsys):
    _, out = in_process(capsys, "prove")
    # The summary: a line per theorem proved by default, then the hint to see the steps.
    assert asked
    summarised = [line.split(":")[0][2:] for line in out.splitlines() if line[:2] == "✓ "]
    assert [n for n in summarised if n in asked] == asked
    assert "pe-proofs prove NAME" in out
    # The default run is module 10's; its last line says where module 11's theorems are.
    assert out.rstrip().splitlines()[-1].endswith("pe-proofs --module 11.")
    assert set(asked) == set(registry.names(10))


def test_prove_json_without_twins(shared_runs, names, capsys):
    # --no-twin is honoured by registry.run; the JSON still parses with the twin left null.
    _, out = in_process(capsys, "prove", names[0], "--json", "--no-twin")
    assert json.loads(out)[0]["name"] == names[0]


def test_prove_json_end_to_end_on_the_theorem_whose_twin_holds_numpy_bools():
    # rope_decay's twin table holds numpy.bool_ values: --json used to exit 70 on them.
    done = pe_proofs("prove", "rope_decay", "--json")
    clean(done.stderr)
    assert done.returncode == 0, done.stderr
    check_prove_output("json", done.stdout, ["rope_decay"])


@pytest.mark.long(14)
@pytest.mark.slow
@pytest.mark.parametrize("fmt", PROVE_FORMATS)
def test_prove_every_theorem_in_every_format_end_to_end(fmt, names):
    done = pe_proofs("prove", *names, *PROVE_FORMATS[fmt])
    clean(done.stderr)
    assert done.returncode == 0, done.stderr
    check_prove_output(fmt, done.stdout, names)


# --- list, tables, precision, shift ----------------------------------------------------------


def test_tables_in_every_format(capsys):
    _, text = in_process(capsys, "tables")
    assert text.count("\n") > 2 * len(TABLE_NAMES)
    _, out = in_process(capsys, "tables", "--format", "json")
    assert sorted(json.loads(out)) == sorted(TABLE_NAMES)
    for name in TABLE_NAMES:
        _, out = in_process(capsys, "tables", "--format", "csv", "--table", name)
        rows = list(csv.reader(io.StringIO(out)))
        assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows), name


def test_tables_csv_into_a_folder(tmp_path, capsys):
    in_process(capsys, "tables", "--format", "csv", "--out", str(tmp_path / "csv"))
    written = sorted(p.stem for p in (tmp_path / "csv").glob("*.csv"))
    assert written == sorted(TABLE_NAMES)
    for path in (tmp_path / "csv").glob("*.csv"):
        assert len(list(csv.reader(path.open(encoding="utf-8")))) >= 2


@pytest.mark.parametrize("fmt", ["text", "csv", "json"])
def test_precision_in_every_format(fmt, capsys):
    argv = ["precision", "--d-model", "8", "--max-positions", "100,1000", "--samples", "20"]
    _, out = in_process(capsys, *argv, "--format", fmt)
    if fmt == "json":
        assert json.loads(out)[0]["rows"]
    elif fmt == "csv":
        rows = list(csv.reader(io.StringIO(out)))
        assert len(rows) >= 2 and all(len(r) == len(rows[0]) for r in rows)
    else:
        assert out.strip()


SHIFT_CASES = {
    # encoding -> (extra options, exit status, does a map exist)
    "sinusoidal": (["sin(pos)", "cos(pos)"], 0, True),
    "ramp": (["pos/L"], 0, False),
    "ramp affine": (["pos/L", "--affine"], 0, True),
}


@pytest.mark.parametrize("fmt", ["text", "verbose", "json"])
@pytest.mark.parametrize("case", SHIFT_CASES)
def test_shift_in_every_format(case, fmt, capsys):
    words, status, exists = SHIFT_CASES[case]
    extra = {"text": [], "verbose": ["--verbose"], "json": ["--json"]}[fmt]
    _, out = in_process(capsys, "shift", *words, *extra, expect=status)
    if fmt == "json":
        assert json.loads(out)["exists"] is exists
    else:
        assert out.strip()


# --- audit: every input kind ------------------------------------------------------------------


def table_inputs(folder: Path) -> dict[str, tuple[list[str], int]]:
    """Each kind of audit input -> (the command line's arguments, the exit status it promises).

    The .npz and .txt inputs are written into folder from a real table."""
    table = np.load(TABLES / "ctrl_fp32.npy")
    np.savez(folder / "ctrl_fp32.npz", pe=table)
    np.savetxt(folder / "ctrl_fp32.txt", table.astype(np.float64), fmt="%.9g")
    rope = str(ROPE / "llama3_1_bug_scaling_dropped.safetensors")
    return {
        "npy": ([str(TABLES / "ctrl_fp32.npy")], 0),
        "npy float16": ([str(TABLES / "ctrl_fp16.npy")], 1),
        "csv": ([str(TABLES / "ctrl_fp64_17g.csv")], 0),
        "txt": ([str(folder / "ctrl_fp32.txt")], 0),
        "npz": ([str(folder / "ctrl_fp32.npz"), "--key", "pe"], 0),
        "safetensors": ([str(TABLES / "marian_encoder_pos.safetensors")], 0),
        "table against table": (
            [str(TABLES / "ctrl_fp32.npy"), "--against", str(TABLES / "ctrl_fp64.npy")],
            0,
        ),
        "rope cache": ([str(ROPE / "llama_default.safetensors")], 0),
        "rope cache and config": (
            [rope, "--config", str(ROPE / "llama3_1_bug_scaling_dropped.config.json")],
            1,
        ),
        "rope against rope": ([str(ROPE / "llama3_1.safetensors"), "--against", rope], 1),
    }


@pytest.fixture(scope="module")
def audit_inputs(tmp_path_factory) -> dict[str, tuple[list[str], int]]:
    return table_inputs(tmp_path_factory.mktemp("audit"))


def check_audit(words: list[str], status: int, fmt: str, run: Callable[..., tuple[int, str]]):
    got, out = run("audit", *words, *(["--json"] if fmt == "json" else []))
    assert got == status, (words, out)
    if fmt == "json":
        assert isinstance(json.loads(out), dict)
    else:
        assert out.strip()


# One representative per format in the fast suite; every input kind with the slow checks.
FAST_AUDITS = {"text": "rope cache and config", "json": "npy float16"}
SLOW_AUDITS = [
    pytest.param(kind, fmt, marks=pytest.mark.slow)
    for kind in (
        "npy",
        "npy float16",
        "csv",
        "txt",
        "npz",
        "safetensors",
        "table against table",
        "rope cache",
        "rope cache and config",
        "rope against rope",
    )
    for fmt in ("text", "json")
    if FAST_AUDITS[fmt] != kind
]


@pytest.mark.parametrize(("kind", "fmt"), [*((k, f) for f, k in FAST_AUDITS.items()), *SLOW_AUDITS])
def test_audit_every_input_kind_in_every_format(kind, fmt, audit_inputs, capsys):
    words, status = audit_inputs[kind]

    def run(*argv: str) -> tuple[int, str]:
        return in_process(capsys, *argv, expect=None)

    check_audit(words, status, fmt, run)


def test_audit_json_end_to_end(audit_inputs):
    words, status = audit_inputs["rope cache and config"]
    done = pe_proofs("audit", *words, "--json")
    clean(done.stderr)
    assert done.returncode == status
    assert json.loads(done.stdout)["kind"] == "rope"


# --- the notes and the Coq development: files, every edition ------------------------------


NOTES = {
    "latex": "main.tex",
    "markdown": "README.md",
    "html": "index.html",
    "notebook": "lesson.ipynb",
    "myst": "conf.py",
    "coq": "_CoqProject",
}


@pytest.mark.slow
@pytest.mark.parametrize(
    ("command", "edition"),
    [
        (command, edition)
        for command in NOTES
        # The Coq development has no editions.
        for edition in ([[]] if command == "coq" else [[], ["--brief", "--for", "student"]])
    ],
)
def test_notes_commands_write_their_files(command, edition, tmp_path):
    if command in ("html", "myst") and not _katex_found():
        pytest.skip("KaTeX (the katex npm package on NODE_PATH) is not installed")
    out = tmp_path / command
    done = pe_proofs(command, "--out", str(out), *edition)
    clean(done.stderr)
    assert done.returncode == 0, done.stderr
    assert (out / NOTES[command]).is_file()
    if command == "notebook":
        assert json.loads((out / "lesson.ipynb").read_text(encoding="utf-8"))["cells"]
    manifest = json.loads((out / ".pe-proofs-manifest.json").read_text(encoding="utf-8"))
    assert manifest


def _katex_found() -> bool:
    return any(
        (Path(folder) / "katex" / "dist" / "katex.min.js").is_file()
        for folder in os.environ.get("NODE_PATH", "").split(os.pathsep)
        if folder
    )
