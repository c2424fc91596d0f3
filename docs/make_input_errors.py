"""Regenerate docs/input-errors.md: every bad input tried, with its real message and exit status.

Run from the project root: `python docs/make_input_errors.py`. Each row is run for real: command
lines through proofs.cli.main in this process (or, for `python -m` rows, in a subprocess), and
library calls directly. tests/cli/test_input_errors_doc.py re-runs every row of the written table.

In inputs and messages, $TMP stands for a scratch directory holding `file` (a regular file),
`plot.png` (the user's picture) and `foreign/ramp.md` (a file pe-proofs did not write).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import shlex
import struct
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import sympy  # noqa: E402

import numeric  # noqa: E402
import proofs  # noqa: E402
from proofs import registry  # noqa: E402
from proofs.cli.main import main  # noqa: E402
from proofs.engine.parse import parse_expression  # noqa: E402
from proofs.theorems.sinusoidal.definitions import POS, K  # noqa: E402

DOC = ROOT / "docs" / "input-errors.md"
NAN, INF = math.nan, math.inf
# A Float whose binary exponent is 10**9, and a 1000 x 1000 matrix symbol: both used to run
# for seconds before the time budget started.
_HUGE_FLOAT = sympy.Float._new((0, 1, 10**9, 1), 53)
_BIG_MATRIX = sympy.MatrixSymbol("A", 1000, 1000)
# The memory a machine can spare differs from machine to machine; compare messages without it.
_SPARE = re.compile(r"the [0-9.]+ GiB this machine can spare")


@dataclass(frozen=True)
class Row:
    """One bad input: a command line ('pe-proofs ...' or 'python -m ...') or a library call."""

    input: str
    call: Callable[[], Any] | None = None  # library rows only


def _call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Row:
    """A library row; its text is the call as it would be typed."""
    shown = [repr(a) for a in args] + [f"{k}={v!r}" for k, v in kwargs.items()]
    package = function.__module__.split(".")[0]
    exported = getattr(sys.modules[package], function.__name__, None) is function
    name = f"{package if exported else function.__module__}.{function.__name__}"
    return Row(f"{name}({', '.join(shown)})", lambda: function(*args, **kwargs))


def cli_rows() -> list[Row]:
    """Bad command lines, option by option, command by command."""
    lines = [
        # prove (and the default command)
        "pe-proofs prove --d-model 7",
        "pe-proofs prove --d-model 0",
        "pe-proofs prove --d-model -2",
        "pe-proofs prove --d-model x",
        "pe-proofs prove --d-model 1e3",
        "pe-proofs prove --d-model 65538",
        "pe-proofs prove --module 12",
        "pe-proofs prove --module sinusoidal",
        "pe-proofs prove ramp --module 11",
        "pe-proofs prove --jobs 65",
        "pe-proofs prove --jobs two",
        "pe-proofs prove --d-model",
        "pe-proofs prove rotaton",
        "pe-proofs prove xyz",
        "pe-proofs prove --frobnicate",
        "pe-proofs prove --color sometimes",
        "pe-proofs prove --version",
        "pe-proofs --d-model 7",
        "pe-proofs rotaton",
        "pe-proofs nonsense",
        "pe-proofs list extra",
        # tables
        "pe-proofs tables --max-len -1",
        "pe-proofs tables --max-len 1",
        "pe-proofs tables --max-len x",
        "pe-proofs tables --max-len 1.5",
        "pe-proofs tables --max-len 10000000000",
        "pe-proofs tables --max-len 2000000000",
        "pe-proofs tables --d-model 7",
        "pe-proofs tables --d-model 2",
        "pe-proofs tables --d-model 0",
        "pe-proofs tables --d-model 2000000000",
        "pe-proofs tables --base nan",
        "pe-proofs tables --base inf",
        "pe-proofs tables --base -inf",
        "pe-proofs tables --base=-inf",
        "pe-proofs tables --base 1",
        "pe-proofs tables --base 0.5",
        "pe-proofs tables --base x",
        "pe-proofs tables --k nan",
        "pe-proofs tables --k inf",
        "pe-proofs tables --k=-inf",
        "pe-proofs tables --k 1.5",
        "pe-proofs tables --k 100",
        "pe-proofs tables --exercise-k nan",
        "pe-proofs tables --exercise-k 1e400",
        "pe-proofs tables --positions 1,,2",
        "pe-proofs tables --positions ''",
        "pe-proofs tables --positions 0,3,",
        "pe-proofs tables --positions 100",
        "pe-proofs tables --positions=-1",
        "pe-proofs tables --dims 100",
        "pe-proofs tables --dims ''",
        "pe-proofs tables --dims 1,,2",
        "pe-proofs tables --format xml",
        "pe-proofs tables --format csv",
        "pe-proofs tables --table rotations",
        "pe-proofs tables --format text --out $TMP/csv",
        "pe-proofs tables --format csv --out $TMP/file",
        "pe-proofs tables --max-len 3",
        "pe-proofs tables --plot x.gif",
        "pe-proofs tables --plot $TMP/plot.png",
        "pe-proofs tables --plot ''",
        "pe-proofs tables --plot /no/such/dir/x.png",
        "pe-proofs tables --plot $TMP/file/x.png",
        "pe-proofs tables --plot $TMP/file",
        "pe-proofs tables --plot $TMP",
        # precision
        "pe-proofs precision --d-model 7",
        "pe-proofs precision --d-model 0",
        "pe-proofs precision --d-model x",
        "pe-proofs precision --d-model 2000000000",
        "pe-proofs precision --base nan",
        "pe-proofs precision --base inf",
        "pe-proofs precision --base=-inf",
        "pe-proofs precision --base 1",
        "pe-proofs precision --max-positions 1,,2",
        "pe-proofs precision --max-positions ''",
        "pe-proofs precision --max-positions 0",
        "pe-proofs precision --max-positions 3000000000",
        "pe-proofs precision --samples 0",
        "pe-proofs precision --samples 100000",
        "pe-proofs precision --samples x",
        "pe-proofs precision --format xml",
        # latex, markdown, html and notebook
        "pe-proofs latex",
        "pe-proofs latex --out ''",
        "pe-proofs latex --out $TMP/file",
        "pe-proofs latex --out $TMP/file/sub",
        "pe-proofs markdown --out $TMP/file/sub",
        "pe-proofs notebook --out $TMP/file/sub",
        "pe-proofs latex --out $TMP/notes --theorem rotation",
        "pe-proofs latex --out $TMP/notes --d-model 7",
        "pe-proofs markdown --out $TMP/notes --d-model 0",
        "pe-proofs notebook --out $TMP/notes --d-model -2",
        "pe-proofs html --out $TMP/file/sub",
        "pe-proofs html --out $TMP/notes --d-model 3",
        "pe-proofs html --out $TMP/notes --katex $TMP/file",
        "pe-proofs latex --out $TMP/notes --for teacher",
        "pe-proofs markdown --out $TMP/notes --for ''",
        "pe-proofs html --out $TMP/notes --for students",
        "pe-proofs notebook --out $TMP/notes --for",
        "pe-proofs myst --out $TMP/file/sub",
        "pe-proofs myst --out $TMP/notes --for teacher",
        "pe-proofs myst --out $TMP/notes --d-model 5",
        "pe-proofs myst --out $TMP/notes --katex $TMP/file",
        "pe-proofs latex --out $TMP/notes --module 12",
        "pe-proofs markdown --out $TMP/notes --module all",
        "pe-proofs html --out $TMP/notes --module rope",
        "pe-proofs notebook --out $TMP/notes --module 9",
        "pe-proofs myst --out $TMP/notes --module ''",
        # audit: files from any implementation
        "pe-proofs audit",
        "pe-proofs audit $TMP/missing.npy",
        "pe-proofs audit $TMP/file",
        "pe-proofs audit $TMP/file.pkl",
        "pe-proofs audit $TMP/missing.npz --key ''",
        "pe-proofs audit $TMP/missing.npy --against $TMP/other.npy",
        "pe-proofs audit $TMP/missing.npy --against-key weight",
        "pe-proofs audit $TMP/audit/paper.npy --against-key pe",
        "pe-proofs audit $TMP/audit/paper.npy --against $TMP/audit/zeros.npy",
        "pe-proofs audit $TMP/audit/dir.npy",
        "pe-proofs audit $TMP/audit/pipe.csv",
        "pe-proofs audit $TMP/audit/zero.npy",
        "pe-proofs audit $TMP/audit/text.npy",
        "pe-proofs audit $TMP/audit/pickle.npy",
        "pe-proofs audit $TMP/audit/negative.npy",
        "pe-proofs audit $TMP/audit/bomb.npz",
        "pe-proofs audit $TMP/audit/long.csv",
        "pe-proofs audit $TMP/audit/words.csv",
        "pe-proofs audit $TMP/audit/noshape.safetensors",
        "pe-proofs audit $TMP/audit/reversed.safetensors",
        "pe-proofs audit $TMP/audit/offsets.safetensors",
        "pe-proofs audit $TMP/audit/claims.safetensors",
        "pe-proofs audit $TMP/audit/many.safetensors",
        # audit: RoPE caches and configs
        "pe-proofs audit $TMP/audit/paper.npy $TMP/audit/zeros.npy $TMP/audit/zeros.npy",
        "pe-proofs audit $TMP/audit/rope.npz --config $TMP/missing.json",
        "pe-proofs audit $TMP/audit/rope.npz --config $TMP/audit",
        "pe-proofs audit $TMP/audit/rope.npz --config $TMP/audit/ntk.json",
        "pe-proofs audit $TMP/audit/rope.npz --config $TMP/audit/nan.json",
        "pe-proofs audit $TMP/audit/rope.npz --config $TMP/audit/huge.json",
        "pe-proofs audit $TMP/audit/rope.npz --config $TMP/audit/words.json",
        "pe-proofs audit $TMP/audit/rope.npz --layer-type global",
        "pe-proofs audit $TMP/audit/rope.npz --config $TMP/audit/ntk.json --layer-type global",
        "pe-proofs audit $TMP/audit/rope.npz --layer 3",
        "pe-proofs audit $TMP/audit/rope.npz --layer three",
        "pe-proofs audit $TMP/audit/rope.npz --config $TMP/audit/llama.json --layer 3",
        "pe-proofs audit $TMP/audit/rope.npz --config $TMP/audit/nope.json --layer 4",
        "pe-proofs audit $TMP/audit/rope.npz --convention neox",
        "pe-proofs audit $TMP/audit/rope.npz --positions-key weights",
        "pe-proofs audit $TMP/audit/rope.npz --against $TMP/audit/rope.npz --config $TMP/file",
        "pe-proofs audit $TMP/audit/rope.npz --rope --key cos --key sin --key positions",
        # coq
        "pe-proofs coq",
        "pe-proofs coq --out $TMP/file/sub",
        "pe-proofs coq --out $TMP/notes --d-model 7",
        # shift: user expressions
        "pe-proofs shift",
        "pe-proofs shift ''",
        "pe-proofs shift x",
        "pe-proofs shift \"__import__('os').system('touch /tmp/pe-pwned')\"",
        "pe-proofs shift pos.real",
        "pe-proofs shift '(1).__class__'",
        "pe-proofs shift 'lambda: 1'",
        "pe-proofs shift \"open('/etc/passwd')\"",
        "pe-proofs shift 'sin(pos)[0]'",
        "pe-proofs shift 'sin(pos)' --timeout 0",
        "pe-proofs shift 'sin(pos)' --timeout never",
        "pe-proofs shift 'sin(pos)' --timeout inf",
        "pe-proofs shift --sin",
        "pe-proofs shift 'pos**(10**10)'",
        "pe-proofs shift '9**9**9**9'",
        "pe-proofs shift 'exp(10**30)'",
        "pe-proofs shift '2**2**2**2**2**2'",
        "pe-proofs shift 'sin(pos' ",
        "pe-proofs shift 'sin(pos, k)'",
        "pe-proofs shift sin(pos) --frobnicate",
        "pe-proofs shift 'pos/max_length'",
        "pe-proofs shift -x",
        "pe-proofs shift pos --color sometimes",
        "pe-proofs papers --only nope",
        # the same through python -m, in a subprocess
        "python -m proofs.theorems.sinusoidal.rotation --d-model 7",
        "python -m proofs.theorems.sinusoidal.ramp --frobnicate",
        "python -m proofs.theorems.sinusoidal.rotation ramp unique",
        "python -m proofs prove rotaton",
        "python -m proofs shift \"__import__('os').system('touch /tmp/pe-pwned')\"",
    ]
    return [Row(line) for line in lines]


def library_rows() -> list[Row]:
    """Bad arguments to the public library entry points."""
    pe, ramp, raw = numeric.sinusoidal_pe, numeric.ramp_encoding, numeric.raw_index_encoding
    return [
        _call(pe, 10, 7),
        _call(pe, 10, 0),
        _call(pe, -1, 8),
        _call(pe, 10, 8.0),
        _call(pe, "10", 8),
        _call(pe, 10, True),
        _call(pe, None, 8),
        _call(pe, 10, 8, base=NAN),
        _call(pe, 10, 8, base=INF),
        _call(pe, 10, 8, base=-INF),
        _call(pe, 10, 8, base=1),
        _call(pe, 10, 8, dtype="int8"),
        _call(pe, 10, 8, layout="diagonal"),
        _call(pe, 10, 8, start=NAN),
        _call(pe, 2**31, 8),
        _call(pe, 2**30, 64),
        _call(pe, 10, 2**40),
        _call(ramp, -1),
        _call(ramp, 2**31),
        _call(ramp, 10, dtype="int8"),
        _call(raw, 2**31),
        _call(numeric.frequencies, 7),
        _call(numeric.frequencies, 2**40),
        _call(numeric.reference_pe, [0], [9], 8),
        _call(numeric.reference_pe, [NAN], [0], 8),
        _call(numeric.reference_pe, [0], [0], 8, dps=10),
        _call(numeric.bounds_table, max_len=0),
        _call(numeric.unique_rows_table, max_len=2**31),
        _call(numeric.rotation_table, ks=[NAN]),
        _call(numeric.ramp_table, max_len=2),
        _call(proofs.prove_identity, "sin(x)**2 + cos(x)**2", 1),
        _call(proofs.prove_identity, POS, None),
        _call(proofs.find_shift_map, "sin(pos)", POS, K),
        _call(proofs.find_shift_map, [], POS, K),
        _call(proofs.find_shift_map, [POS], "pos", K),
        _call(proofs.find_shift_map, [sympy.nan], POS, K),
        _call(proofs.find_shift_map, [sympy.zoo * POS], POS, K),
        _call(proofs.find_shift_map, [sympy.sin(POS), sympy.oo], POS, K),
        _call(proofs.find_shift_map, [sympy.sin(POS)], POS, K, affine="no"),
        _call(proofs.find_shift_map, [_HUGE_FLOAT * POS], POS, K),
        _call(proofs.prove_identity, sympy.Matrix(0, 0, []), sympy.Matrix(0, 0, [])),
        _call(proofs.prove_identity, sympy.zeros(0, 3), sympy.zeros(0, 3)),
        _call(proofs.prove_identity, _BIG_MATRIX, _BIG_MATRIX, timeout=5),
        _call(proofs.prove_identity, sympy.MatrixSymbol("A", K, K), 0),
        _call(proofs.prove_identity, _HUGE_FLOAT * POS, POS, timeout=5),
        _call(proofs.prove_identity, sympy.Pow(2, 10**9, evaluate=False), 0, timeout=5),
        _call(parse_expression, 5),
        _call(parse_expression, "x + 1"),
        _call(parse_expression, "__import__('os').system('true')"),
        _call(parse_expression, "pos**(10**10)"),
        _call(parse_expression, "9**9**9**9"),
        _call(parse_expression, "1" * 40),
        _call(parse_expression, "(" * 61 + "pos" + ")" * 61),
        _call(registry.build, "rotaton"),
        _call(registry.build, "rotation", d_model=7),
        _call(registry.build, "rotation", d_model="8"),
        _call(registry.build, "rotation", d_model=10**9),
        _call(registry.names, 12),
        _call(registry.names, "10"),
        _call(numeric.audit_rope, None, None),
        _call(numeric.audit_rope, [[1.0, 0.0]], None),
        _call(numeric.audit_rope_function, None, head_dim=8),
        _call(numeric.audit_rope_function, print, head_dim=7),
        _call(numeric.compare_qk, [[1.0]], [[1.0]], n_heads=0),
    ]


def rows() -> list[Row]:
    """Every row of the table, command lines first."""
    return cli_rows() + library_rows()


def _safetensors(path: Path, header: dict, data: bytes = b"") -> None:
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data)


def _audit_files(folder: Path) -> None:
    """$TMP/audit: the bad tables of the audit rows, each wrong in one way."""
    folder.mkdir()
    np.save(folder / "paper.npy", numeric.sinusoidal_pe(64, 8, dtype=np.float32))
    np.save(folder / "zeros.npy", np.zeros((10, 8), dtype=np.float32))
    (folder / "dir.npy").mkdir()
    os.mkfifo(folder / "pipe.csv")
    (folder / "zero.npy").symlink_to("/dev/zero")
    (folder / "text.npy").write_text("0.1, 0.2\n0.3, 0.4\n")
    (folder / "pickle.npy").write_bytes(b"\x80\x04\x95\x00")
    header = b"{'descr': '<f4', 'fortran_order': False, 'shape': (-5, 16), }"
    header += b" " * (-(len(header) + 11) % 64) + b"\n"
    (folder / "negative.npy").write_bytes(
        b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header
    )
    # A zip bomb: 129 MiB of zeros, a few hundred KB compressed.
    with (
        zipfile.ZipFile(folder / "bomb.npz", "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open("pe.npy", "w", force_zip64=True) as member,
    ):
        for _ in range(129):
            member.write(bytes(2**20))
    with open(folder / "long.csv", "wb") as handle:  # one line of 8 MiB, sparse
        handle.write(b"0.5," * 4)
        handle.truncate(2**23)
    (folder / "words.csv").write_text("0.1,0.2\n0.3,x\n")
    _safetensors(folder / "noshape.safetensors", {"pe": {"dtype": "BF16", "data_offsets": [0, 4]}})
    _safetensors(
        folder / "reversed.safetensors",
        {"pe": {"dtype": "BF16", "shape": [-1, 2], "data_offsets": [4, 0]}},
    )
    _safetensors(
        folder / "offsets.safetensors",
        {"pe": {"dtype": "F32", "shape": [1, 1], "data_offsets": ["a", 4]}},
        bytes(4),
    )
    (folder / "claims.safetensors").write_bytes(struct.pack("<Q", 900 * 2**20) + b"{}")
    entry = {"dtype": "F32", "shape": [1, 1], "data_offsets": [0, 4]}
    _safetensors(
        folder / "many.safetensors", {f"layer.{i}.weight": entry for i in range(40)}, bytes(4)
    )
    inv_freq = 10000.0 ** -(np.arange(4) / 4)
    cos, sin = numeric.rope_cache(inv_freq, 64)
    np.savez(folder / "rope.npz", cos=cos, sin=sin, positions=np.arange(64))
    llama = {"head_dim": 8, "rope_theta": 10000.0, "max_position_embeddings": 64}
    for name, config in (
        ("ntk", {**llama, "rope_scaling": {"rope_type": "ntk", "factor": 2.0}}),
        ("huge", {**llama, "head_dim": 2**40}),
        ("words", {**llama, "rope_theta": "10000"}),
        ("llama", llama),
        ("nope", {**llama, "num_hidden_layers": 4, "no_rope_layers": [1, 1, 1, 0]}),
    ):
        (folder / f"{name}.json").write_text(json.dumps(config))
    (folder / "nan.json").write_text('{"head_dim": 8, "rope_theta": NaN}')


def make_scratch(folder: Path) -> None:
    """$TMP: a regular file, the user's plot.png, a directory holding a ramp.md that pe-proofs
    did not write, and audit/ (the audit's bad tables)."""
    (folder / "file").write_text("not a directory\n")
    (folder / "plot.png").write_bytes(b"the user's own picture\n")
    (folder / "foreign").mkdir()
    (folder / "foreign" / "ramp.md").write_text("someone else's notes\n")
    _audit_files(folder / "audit")


def run(row: Row, scratch: Path) -> tuple[str, str]:
    """(outcome, message): exit status or exception type, and the one line on stderr."""
    if row.call is not None:
        try:
            row.call()
        except (ValueError, TypeError) as exc:
            # The builtin class a caller catches (the audits raise typed subclasses of it).
            caught = next(c for c in type(exc).__mro__ if c.__module__ == "builtins")
            return caught.__name__, str(exc)
        return "no error", ""
    argv = [a.replace("$TMP", str(scratch)) for a in shlex.split(row.input)]
    if argv[0] == "python":
        done = subprocess.run(
            [sys.executable, *argv[1:]],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=120,
            check=False,
        )
        status, err = done.returncode, done.stderr
    else:
        stderr = io.StringIO()
        with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
            status = main(argv[1:])
        err = stderr.getvalue()
    return f"exit {status}", err.rstrip("\n").replace(str(scratch), "$TMP")


def comparable(message: str) -> str:
    """message without the machine-dependent amount of spare memory."""
    return _SPARE.sub("the … GiB this machine can spare", message)


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|").replace("`", "'") + "`" if text else ""


def table_lines(results: list[tuple[Row, str, str]]) -> list[str]:
    """The Markdown table: input, outcome, message."""
    lines = ["| input | outcome | message (stderr, or the exception's message) |", "|---|---|---|"]
    lines += [f"| {_cell(r.input)} | {outcome} | {_cell(msg)} |" for r, outcome, msg in results]
    return lines


HEADER = """# Bad input: every input tried, and what pe-proofs says

Generated by `python docs/make_input_errors.py` from real runs; `tests/cli/test_input_errors_doc.py`
re-runs every row and checks that the outcome and message still match, so this page cannot rot.

Rules (issue 6): a command-line error is one line on stderr, `pe-proofs: error: ...`, naming the
option and what it allows, with exit status 2 and no traceback; library functions raise
`ValueError` or `TypeError` with the same messages. Every value is checked before any work
starts, and a table that would not fit in memory is refused, with its size, before anything is
allocated (the amount a machine can spare differs; the test ignores that number). A value that
starts with `-` is written `--option=-1`; a `shift` expression may start with `-` as it is.
Text from the user is only ever parsed by `proofs.engine.parse.parse_expression`, which refuses
code and bounds every number.

`$TMP` is a scratch directory holding `file` (a regular file), `plot.png` (the user's picture,
replaced only with `--force`), `foreign/ramp.md` (a file pe-proofs did not write, which is
never overwritten) and `audit/`, tables each wrong in one way (`make_scratch` in the script says
how: a zip bomb, a FIFO, a symbolic link to `/dev/zero`, malformed safetensors headers, ...).
"""


def main_script() -> None:
    """Run every row and write docs/input-errors.md."""
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        make_scratch(scratch)
        results = [(row, *run(row, scratch)) for row in rows()]
    text = HEADER + "\n" + "\n".join(table_lines(results)) + "\n"
    DOC.write_text(text, encoding="utf-8")
    print(f"wrote {DOC} ({len(results)} rows)")


if __name__ == "__main__":
    main_script()
