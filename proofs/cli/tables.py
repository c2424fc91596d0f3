"""`pe-proofs tables`: the course module's printed tables and its three exercises, computed live."""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from numeric.module_table_names import TABLE_NAMES
from proofs.cli.files import check_directory, write_files, write_one_file
from proofs.cli.options import path_text
from proofs.cli.usage import UsageError, user_input
from proofs.render.json_text import dumps
from proofs.render.tables import FORMATS

if TYPE_CHECKING:
    import numpy as np

    from numeric.result_table import Table

NAME = "tables"
HELP = (
    "reproduce the module's tables and exercises (PE rows, bounds, uniqueness, rotation, spectrum)"
)
EXAMPLE = "pe-proofs tables --format csv --table rotation > rotation.csv"

PLOT_FORMATS = (".png", ".svg", ".pdf")
DEFAULT_POSITIONS = (0, 3, 7, 12, 20)
DEFAULT_MAX_LEN = "50"

_OPTION_NAMES = {
    "max_len": "--max-len",
    "d_model": "--d-model",
    "base": "--base",
    "k": "--k",
    "positions": "--positions",
    "dims": "--dims",
    "exercise_k": "--exercise-k",
}


def _number(text: str, option: str, kind: type) -> int | float:
    try:
        return kind(text)
    except ValueError:
        what = "an integer" if kind is int else "a number"
        raise UsageError(f"{option} must be {what}, got {text!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The tables command's options; values are checked in run so errors name the option."""
    parser.add_argument(
        "--max-len", default=DEFAULT_MAX_LEN, help="positions in the table (default 50)"
    )
    parser.add_argument("--d-model", default="8", help="even model width, at least 4 (default 8)")
    parser.add_argument("--base", default="10000", help="frequency base, > 1 (default 10000)")
    parser.add_argument("--k", default="5", help="offset of the rotation table (default 5)")
    parser.add_argument(
        "--exercise-k", default="3", help="offset of exercise 2 on dims 2-3 (default 3)"
    )
    parser.add_argument(
        "--positions",
        default=None,
        help="comma-separated positions of the rotation tables (default 0,3,7,12,20, "
        "those that fit the table)",
    )
    parser.add_argument(
        "--dims", default=None, help="comma-separated dims for exercise 3 (default: spread)"
    )
    parser.add_argument("--format", default="text", help="text, csv or json (default text)")
    parser.add_argument(
        "--table",
        default=None,
        metavar="NAME",
        help=f"print this table only: {', '.join(TABLE_NAMES)} (--format csv needs it, or --out)",
    )
    parser.add_argument(
        "--out",
        default=None,
        type=path_text,
        metavar="DIR",
        help="with --format csv: write one NAME.csv per table into DIR",
    )
    parser.add_argument(
        "--plot",
        default=None,
        type=path_text,
        metavar="FILE",
        help="also draw exercise 3 to FILE: .png, .svg or .pdf (needs the plot extra)",
    )
    parser.add_argument("--force", action="store_true", help="let --plot replace an existing file")


def _check_output_options(args: argparse.Namespace) -> None:
    """Refuse format, table, out and plot combinations before any work is done."""
    if args.format not in FORMATS:
        raise UsageError(f"--format must be text, csv or json, got {args.format!r}")
    if args.table is not None and args.table not in TABLE_NAMES:
        raise UsageError(f"--table must be one of {', '.join(TABLE_NAMES)}, got {args.table!r}")
    if args.out is not None:
        if args.format != "csv":
            raise UsageError("--out writes CSV files; use it with --format csv")
        check_directory(args.out, "--out")
    elif args.format == "csv" and args.table is None:
        raise UsageError(
            "--format csv prints one table: add --table NAME "
            f"({', '.join(TABLE_NAMES)}), or --out DIR for one CSV file per table"
        )
    if args.plot is not None:
        if args.plot.is_dir():
            raise UsageError(
                f"--plot {args.plot} is a directory; give a file name ending in .png, .svg or .pdf"
            )
        if args.plot.suffix.lower() not in PLOT_FORMATS:
            raise UsageError(f"--plot must end in .png, .svg or .pdf, got {args.plot.name!r}")
        if not args.plot.parent.is_dir():
            raise UsageError(
                f"--plot directory does not exist or is not a directory: {args.plot.parent}"
            )
        if args.plot.exists() and not args.force:
            raise UsageError(f"--plot {args.plot} exists; add --force to replace it")
        if args.plot.is_symlink():
            raise UsageError(f"--plot {args.plot} is a symbolic link; name a regular file")


def _positions(args: argparse.Namespace, max_len: int, shifts: dict[str, int]) -> list[int]:
    """The positions given, or the defaults that keep every shifted row inside the table.

    shifts: option -> offset. When no default fits, the message blames what the user changed:
    --max-len if it was given, otherwise the offsets that are too large.
    """
    if args.positions is not None:
        from numeric.validate import comma_integers

        with user_input():
            return comma_integers(args.positions, "--positions")
    fitting = [p for p in DEFAULT_POSITIONS if all(0 <= p + s < max_len for s in shifts.values())]
    if fitting:
        return fitting
    if args.max_len != DEFAULT_MAX_LEN:
        offsets = " and ".join(f"{option} {value}" for option, value in shifts.items())
        raise UsageError(
            f"--max-len {max_len} is too short for the rotation tables ({offsets}); "
            f"use --max-len {max(shifts.values()) + 1} or more"
        )
    option, value = max(shifts.items(), key=lambda item: abs(item[1]))
    raise UsageError(
        f"{option} {value} moves every row of the rotation tables outside the table "
        f"[0, {max_len}); use a smaller {option} or a larger --max-len"
    )


def run(args: argparse.Namespace) -> int:
    """Check every option, compute the tables, print or write them; draw the plot if asked."""
    from numeric.module_tables import check_options, module_report
    from numeric.plots.spectrum import MISSING, plotting_available
    from numeric.tables import sinusoidal_pe
    from numeric.validate import comma_integers

    _check_output_options(args)
    if args.plot is not None and not plotting_available():
        print(f"pe-proofs: error: {MISSING}", file=sys.stderr)
        return 2
    max_len = _number(args.max_len, "--max-len", int)
    k = _number(args.k, "--k", float)
    exercise_k = _number(args.exercise_k, "--exercise-k", float)
    # Non-integer offsets are refused by check_options, naming their option.
    shifts = {
        option: int(value)
        for option, value in (("--k", k), ("--exercise-k", exercise_k))
        if math.isfinite(value) and value.is_integer()
    }
    with user_input():
        options = check_options(
            max_len=max_len,
            d_model=_number(args.d_model, "--d-model", int),
            base=_number(args.base, "--base", float),
            k=k,
            exercise_k=exercise_k,
            positions=_positions(args, max_len, shifts) if max_len >= 2 and shifts else [0],
            dims=None if args.dims is None else comma_integers(args.dims, "--dims"),
            names=_OPTION_NAMES,
        )
    named = dict(zip(TABLE_NAMES, module_report(**options), strict=True))
    _output(named, args)
    if args.plot is not None:
        table = sinusoidal_pe(options["max_len"], options["d_model"], base=options["base"])
        write_one_file(args.plot, _drawn(table, options["dims"], args.plot.suffix.lower()))
        print(f"pe-proofs: wrote {args.plot}", file=sys.stderr)
    return 0 if all(t.passed is not False for t in named.values()) else 1


def _output(named: dict[str, Table], args: argparse.Namespace) -> None:
    from proofs.render.tables import render_tables, table_csv, table_object

    """Print the tables (or the one asked for), or write one CSV per table into --out."""
    if args.out is not None:
        chosen = [args.table] if args.table else list(named)
        files = {f"{name}.csv": table_csv(named[name]).encode() for name in chosen}
        write_files(args.out, files)
        print(f"pe-proofs: wrote {len(files)} CSV files into {args.out}", file=sys.stderr)
        return
    if args.table is not None:
        named = {args.table: named[args.table]}
    if args.format == "json":
        objects = {name: table_object(t) for name, t in named.items()}
        print(dumps(objects))
    else:
        print(render_tables(list(named.values()), args.format))


def _drawn(table: np.ndarray, dims: Sequence[int], suffix: str) -> bytes:
    """Exercise 3's plot as bytes in the format of suffix, so it can be written atomically."""
    from numeric.plots.spectrum import plot_spectrum

    with tempfile.TemporaryDirectory() as scratch:
        return plot_spectrum(table, dims, Path(scratch) / f"plot{suffix}").read_bytes()
