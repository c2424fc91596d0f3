"""`pe-proofs tables`: the course module's printed tables and its three exercises, computed live."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from numeric.report import check_options, module_report
from numeric.spectrum_plot import MISSING, plot_spectrum, plotting_available
from numeric.tables import sinusoidal_pe
from numeric.validate import comma_integers
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
        "--plot", default=None, metavar="FILE", help="also draw exercise 3 as a PNG"
    )


def run(args: argparse.Namespace) -> int:
    """Check every option, compute the tables, print them; write the plot if asked."""
    if args.format not in FORMATS:
        raise ValueError(f"--format must be text, csv or json, got {args.format!r}")
    if args.plot is not None:
        if not Path(args.plot).parent.is_dir():
            raise ValueError(f"--plot directory does not exist: {Path(args.plot).parent}")
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
        plot_spectrum(table, options["dims"], args.plot)
    return 0 if all(t.passed is not False for t in tables) else 1
