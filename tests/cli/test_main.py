"""The pe-proofs command line: prove, list, JSON, exit statuses, one-line errors, --version,
--help examples, verbose details, the closing summary, color/ASCII rules and progress."""

import io
import json
import re
import subprocess
import sys
from importlib.metadata import version

import pytest

from proofs.cli import terminal
from proofs.cli.main import COMMANDS, main, run_theorem_module
from proofs.engine.pointwise import MAX_BITS, START_BITS


def test_prove_one_theorem_prints_steps_and_verdict(capsys):
    assert main(["prove", "ramp"]) == 0
    out = capsys.readouterr().out
    assert "compare coefficients of pos" in out.lower()
    assert "✓ ramp: PROVED" in out
    assert "✓ numeric twin ramp_table" in out


@pytest.fixture(scope="module")
def default_run(checked_notes) -> str:
    """What `pe-proofs` alone prints at 100 columns into a UTF-8 pipe, printed from the session's
    verified theorems (tests/conftest.py) rather than proving them all again."""
    from proofs import registry

    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding="utf-8", write_through=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("COLUMNS", "100")
        patch.setattr(sys, "stdout", stream)
        patch.setattr(registry, "run", lambda names, **options: iter(checked_notes))
        assert main([]) == 0
    return raw.getvalue().decode("utf-8")


def test_default_command_proves_everything_in_a_summary(default_run):
    from proofs import registry

    out = default_run
    names = registry.names()
    blocks = [line.split(":")[0][2:] for line in out.splitlines() if line.startswith("✓ ")]
    assert blocks[: len(names)] == names  # every theorem, in the lesson's order, proved
    for name in names:  # and its row in the closing table
        assert any(line.split()[:1] == [name] and "proved" in line for line in out.splitlines())
    assert "✓ matrix product" not in out and "[1] " not in out  # no chains
    assert "pe-proofs prove NAME" in out


@pytest.mark.slow
def test_steps_prints_every_chain(capsys):
    assert main(["--steps", "--no-twin"]) == 0
    out = capsys.readouterr().out
    assert "rotation: PROVED" in out and "ramp: PROVED" in out
    assert "✓ matrix product" in out


def test_the_default_run_fits_two_screens_at_100_columns(default_run):
    lines = default_run.splitlines()
    assert len(lines) <= 100 and max(map(len, lines)) <= 100


# What the engine says in its own terms, and SymPy's raw output, which a reader should not meet
# in the default run (issue 22, section 8).
JARGON = (
    "its free symbols do not include",
    "partition checked",
    "one template in",
    "SymPy's assumptions",
    "not checked by the engine",
    "pi.is_irrational",
    "unique solution {",
    "find_shift_map",
    "(rounded)",
    "⋅1",
    "2⋅0⋅",
    "ωᵢ",
)


def test_the_default_run_speaks_to_a_reader(default_run):
    out = default_run
    assert not [word for word in JARGON if word in out]
    assert not re.search(r"\d{8}", out)  # no 22-digit denominators


def test_a_fact_s_verdict_reads_as_what_was_shown(capsys):
    assert main(["prove", "rotation", "unique", "ramp", "--no-twin"]) == 0
    out = capsys.readouterr().out
    assert "✓ proved: pos does not appear in it" in out
    assert "✓ proved: on each of the 4 blocks, both sides are lemma pair_shift at that block" in out
    assert "✓ proved: nonzero, given L > 0 and k ≠ 0" in out
    assert "✓ proved: the one solution is a = 1" in out
    assert "together they force 0 = k/L, which is false" in out
    assert "its free symbols" not in out and "partition checked" not in out
    # --verbose keeps the engine's own reason under the reader's words.
    assert main(["prove", "rotation", "--no-twin", "--verbose"]) == 0
    assert "engine: its free symbols do not include pos" in capsys.readouterr().out


def test_one_notation_for_omega_and_the_order_of_pos_and_k(capsys):
    assert main(["prove", "rotation", "--no-twin"]) == 0
    out = capsys.readouterr().out
    assert "sin((pos + k)·ω_i)" in out and "ω_i·(k + pos)" not in out and "ωᵢ" not in out
    assert "= [cos" not in out and "= [1]" not in out  # no 1×1 matrices


def test_list_names_every_theorem_under_its_course_module(capsys):
    assert main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    from proofs import registry

    headings = [i for i, line in enumerate(lines) if line.startswith("# Module ")]
    assert [lines[i].split()[2].rstrip(",") for i in headings] == ["10", "11"]
    assert lines[headings[0]].endswith(": pe-proofs proves these")
    assert lines[headings[1]].endswith(": pe-proofs --module 11 proves these")
    for module, start, end in zip((10, 11), headings, [*headings[1:], len(lines)], strict=True):
        block = lines[start + 1 : end]
        names = [line.split()[0] for line in block if line and not line.startswith(" ")]
        assert names == registry.names(module)
    assert max(map(len, lines)) <= 100


def test_json_output_has_steps_with_both_checks(capsys):
    assert main(["prove", "rotation", "--json", "--d-model", "4"]) == 0
    data = json.loads(capsys.readouterr().out)
    (theorem,) = data
    assert theorem["name"] == "rotation" and theorem["status"] == "proved"
    linked = [s for s in theorem["steps"] if s["symbolic"] is not None]
    assert linked and all(s["symbolic"]["passed"] and s["numeric"]["passed"] for s in linked)
    assert all(
        {"expr", "cited", "note", "closed_by", "symbolic", "numeric"} <= s.keys()
        for s in theorem["steps"]
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
        [sys.executable, "-m", "proofs.theorems.sinusoidal.ramp", "--no-twin"],
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
        "import sympy as sp; from proofs.render.terminal_math import pretty_lines; "
        "i, n = sp.symbols('i n'); print(len(pretty_lines(sp.Sum(i, (i, 0, n)))[0]))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_version_comes_from_the_installed_package(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"pe-proofs {version('pe-proofs')}\n"


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_help_ends_with_an_example(command, capsys):
    assert main([command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip().splitlines()[-1].startswith(f"example: pe-proofs {command}")


def test_a_theorem_module_proves_its_theorem_only(capsys):
    assert run_theorem_module("ramp", ["unique", "rotation"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert (
        "python -m proofs.theorems.sinusoidal.ramp proves ramp only, got also 'unique', 'rotation'"
        in err
    )


def test_one_theorem_reads_with_the_right_plurals(capsys):
    assert main(["prove", "ramp", "--no-twin"]) == 0
    out = capsys.readouterr().out
    assert "the link checked symbolically and numerically" in out
    assert "1 links" not in out and "1 theorems" not in out
    assert out.rstrip().splitlines()[-1] == "✓ 1 theorem: every one proved"


def test_details_per_link_only_with_verbose(capsys):
    assert main(["prove", "ramp", "--no-twin"]) == 0
    quiet = capsys.readouterr().out
    assert main(["prove", "ramp", "--no-twin", "--verbose"]) == 0
    verbose = capsys.readouterr().out
    detail = f"numeric: 24 points, arb balls of {START_BITS} to {MAX_BITS} bits, |difference| ≤"
    assert detail not in quiet and detail in verbose
    assert "symbolic: closed by algebra" in verbose
    # Each step still names its rule, in both.
    assert "✓ algebra: collect the powers of pos" in quiet
    assert "✓ algebra: collect the powers of pos" in verbose


def test_json_always_has_the_link_details(capsys):
    assert main(["prove", "ramp", "--json", "--no-twin"]) == 0
    (theorem,) = json.loads(capsys.readouterr().out)
    numeric = [s["numeric"] for s in theorem["steps"] if s["numeric"]]
    assert numeric and all(
        n["points"] == 24 and n["bits"] == [START_BITS, MAX_BITS] for n in numeric
    )
    assert theorem["links"] == 3 and "seconds" in theorem


def test_the_run_ends_with_a_summary_table(capsys):
    assert main(["prove", "ramp", "rotation", "--d-model", "4"]) == 0
    lines = capsys.readouterr().out.rstrip().splitlines()
    header = next(n for n, line in enumerate(lines) if line.startswith("theorem "))
    assert lines[header].split() == [
        "theorem",
        "parts",
        "links",
        "verdict",
        "numeric",
        "twin",
        "time",
    ]
    ramp = lines[header + 2].split()
    assert ramp[:5] == ["ramp", "7", "3", "proved", "passed"] and ramp[-1] == "s"
    assert lines[header + 5].split()[:2] == ["total", "11"]


def test_ascii_output_has_no_unicode(capsys):
    assert main(["prove", "ramp", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert out.isascii() and "ok ramp: PROVED" in out and "k != 0" in out


def _stream(encoding: str, tty: bool) -> io.TextIOWrapper:
    stream = io.TextIOWrapper(io.BytesIO(), encoding=encoding)
    stream.isatty = lambda: tty  # type: ignore[method-assign]
    return stream


def test_unicode_follows_the_encoding_and_color_needs_a_terminal(monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert terminal.wants_unicode(_stream("utf-8", False))
    assert not terminal.wants_unicode(_stream("ascii", True))
    assert terminal.wants_color(_stream("utf-8", True))
    assert not terminal.wants_color(_stream("utf-8", False))
    monkeypatch.setenv("NO_COLOR", "1")
    assert not terminal.wants_color(_stream("utf-8", True))


def test_width_is_the_terminal_s_or_100_when_not_a_terminal(monkeypatch):
    monkeypatch.delenv("COLUMNS", raising=False)
    assert terminal.terminal_width(_stream("utf-8", False)) == 100
    monkeypatch.setenv("COLUMNS", "80")
    assert terminal.terminal_width(_stream("utf-8", False)) == 80


def test_progress_only_on_a_terminal(capsys):
    assert main(["prove", "ramp", "rotation", "--no-twin", "--d-model", "4"]) == 0
    assert capsys.readouterr().err == ""
    tty = _stream("utf-8", True)
    progress = terminal.Progress(tty)
    progress.show("proving ramp (1 of 2) …")
    progress.clear()
    tty.flush()
    assert tty.buffer.getvalue().decode() == "\r\033[Kproving ramp (1 of 2) …\r\033[K"


def test_each_twin_line_says_its_headline(capsys) -> None:
    """A twin's verdict line gives the table's headline field; nothing parses a title."""
    from proofs import registry

    assert main(["prove", "bounded"]) == 0
    out = capsys.readouterr().out
    headline = registry.build("bounded").run_twin().headline
    flowing = " ".join(out.split())
    assert headline and f"numeric twin bounds_and_norms_table passed: {headline}" in flowing


def test_a_bug_is_an_internal_error_with_its_traceback_not_a_usage_error(
    monkeypatch, capsys
) -> None:
    """A ValueError from pe-proofs' own code is not the user's mistake: status 70, traceback."""
    from proofs.cli import list as list_command

    def broken(args):
        raise ValueError("a bug, not bad input")

    monkeypatch.setattr(list_command, "run", broken)
    assert main(["list"]) == 70
    err = capsys.readouterr().err
    assert "internal error, please report it" in err and "Traceback" in err
    assert "ValueError: a bug, not bad input" in err


def test_a_usage_error_is_still_one_line_with_status_2(capsys) -> None:
    assert main(["prove", "no_such_theorem"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown theorem 'no_such_theorem'" in err


def test_version_and_help_load_neither_sympy_nor_flint() -> None:
    import subprocess
    import sys

    for flag in ("--version", "--help"):
        code = (
            "import sys; from proofs.cli.main import main; "
            f"status = main([{flag!r}]); "
            "loaded = [m for m in ('sympy', 'flint', 'numpy') if m in sys.modules]; "
            "print(loaded, file=sys.stderr); sys.exit(status)"
        )
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stderr.strip().splitlines()[-1] == "[]", done.stderr


def test_a_name_outside_the_module_asked_for_is_refused(capsys):
    # `--module 11` with a module-10 theorem was silently ignored; now it is a usage error.
    assert main(["prove", "ramp", "--module", "11", "--no-twin"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'ramp' is in module 10, not --module 11" in err
    assert main(["prove", "ramp", "--module", "10", "--no-twin"]) == 0
    assert main(["prove", "ramp", "--module", "all", "--no-twin"]) == 0


def test_ctrl_c_turned_into_another_error_is_still_an_interruption(monkeypatch, capsys):
    """Ctrl-C during numpy's import of datetime surfaces as an ImportError (PyCapsule_Import
    drops the KeyboardInterrupt; CI's interrupt test hit it): still "interrupted", 130."""
    import argparse
    import os
    import signal
    import time

    from proofs.cli import main as main_module

    def run(args):
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
        except KeyboardInterrupt:
            raise ImportError('PyCapsule_Import could not import module "datetime"') from None

    class Parser:
        def parse_args(self, argv):
            return argparse.Namespace(_run=run)

    monkeypatch.setattr(main_module, "build_parser", Parser)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        assert main(["list"]) == 130
        assert capsys.readouterr().err == "pe-proofs: interrupted\n"
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored

        def broken(args):
            raise ImportError("a real bug")

        monkeypatch.setattr(main_module, "build_parser", lambda: Parser())
        Parser.parse_args = lambda self, argv: argparse.Namespace(_run=broken)
        assert main(["list"]) == 70  # no Ctrl-C: a bug stays a bug
    finally:
        signal.signal(signal.SIGINT, previous)
