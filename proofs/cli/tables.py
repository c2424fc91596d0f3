"""`pe-proofs tables`: the course module's printed tables and its three exercises, computed live."""

from __future__ import annotations

import argparse
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from numeric.module_tables import check_options, module_report
from numeric.plots.spectrum import MISSING, plot_spectrum, plotting_available
from numeric.tables import sinusoidal_pe
from numeric.validate import comma_integers
from proofs.cli.files import check_writable, write_files
from proofs.cli.options import path_text
from proofs.render.tables import FORMATS, render_tables

NAME = "tables"
HELP = (
    "reproduce the module's tables and exercises (PE rows, bounds, uniqueness, rotation, spectrum)"
)

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
        raise ValueError(f"{option} must be {what}, got {text!r}") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The tables command's options; values are checked in run so errors name the option."""
    parser.add_argument("--max-len", default="50", help="positions in the table (default 50)")
    parser.add_argument("--d-model", default="8", help="even model width, at least 4 (default 8)")
    parser.add_argument("--base", default="10000", help="frequency base, > 1 (default 10000)")
    parser.add_argument("--k", default="5", help="offset of the rotation table (default 5)")
    parser.add_argument(
        "--exercise-k", default="3", help="offset of exercise 2 on dims 2-3 (default 3)"
    )
    parser.add_argument(
        "--positions",
        default="0,3,7,12,20",
        help="comma-separated positions of the rotation tables",
    )
    parser.add_argument(
        "--dims", default=None, help="comma-separated dims for exercise 3 (default: spread)"
    )
    parser.add_argument("--format", default="text", help="text, csv or json (default text)")
    parser.add_argument(
        "--plot",
        default=None,
        type=path_text,
        metavar="FILE",
        help="also draw exercise 3 as a PNG (never over a file pe-proofs did not write)",
    )


def run(args: argparse.Namespace) -> int:
    """Check every option, compute the tables, print them; write the plot if asked."""
    if args.format not in FORMATS:
        raise ValueError(f"--format must be text, csv or json, got {args.format!r}")
    if args.plot is not None:
        if not args.plot.parent.is_dir():
            raise ValueError(
                f"--plot directory does not exist or is not a directory: {args.plot.parent}"
            )
        check_writable(args.plot.parent, [args.plot.name], "--plot directory")
        if not plotting_available():
            print(f"pe-proofs: error: {MISSING}", file=sys.stderr)
            return 2
    options = check_options(
        max_len=_number(args.max_len, "--max-len", int),
        d_model=_number(args.d_model, "--d-model", int),
        base=_number(args.base, "--base", float),
        k=_number(args.k, "--k", float),
        exercise_k=_number(args.exercise_k, "--exercise-k", float),
        positions=comma_integers(args.positions, "--positions"),
        dims=None if args.dims is None else comma_integers(args.dims, "--dims"),
        names=_OPTION_NAMES,
    )
    tables = module_report(**options)
    print(render_tables(tables, args.format))
    if args.plot is not None:
        table = sinusoidal_pe(options["max_len"], options["d_model"], base=options["base"])
        write_files(args.plot.parent, {args.plot.name: _png(table, options["dims"])})
    return 0 if all(t.passed is not False for t in tables) else 1


def _png(table: np.ndarray, dims: Sequence[int]) -> bytes:
    """Exercise 3's plot as PNG bytes, so that write_files can place it atomically."""
    with tempfile.TemporaryDirectory() as scratch:
        return plot_spectrum(table, dims, Path(scratch) / "plot.png").read_bytes()
