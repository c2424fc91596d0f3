"""`pe-proofs latex --out DIR`: course notes as LaTeX (one fragment per theorem and main.tex)."""

from __future__ import annotations

import argparse

from proofs.cli.notes_output import add_common_arguments, write_notes
from proofs.render import notes

NAME = "latex"
HELP = "write LaTeX course notes: a fragment per theorem and a main.tex that inputs them"
EXAMPLE = "pe-proofs latex --out notes && (cd notes && latexmk -pdf main.tex)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)
    parser.add_argument(
        "--standalone",
        action="store_true",
        help="make each fragment compile on its own (main.tex still inputs it)",
    )


def run(args: argparse.Namespace) -> int:
    return write_notes(
        args,
        lambda checked: notes.latex_files(
            checked, standalone=args.standalone, index=args.theorem is None
        ),
    )
