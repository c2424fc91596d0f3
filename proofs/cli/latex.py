"""`pe-proofs latex --out DIR [--brief]`: the course notes as LaTeX (main.tex and PDF figures)."""

from __future__ import annotations

import argparse

from proofs.cli.notes_output import add_common_arguments, write_notes

NAME = "latex"
HELP = "write the course notes as LaTeX: main.tex and its figures (--brief: the student version)"
EXAMPLE = "pe-proofs latex --out notes --brief && (cd notes && latexmk -pdf main.tex)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)
    parser.add_argument(
        "--brief",
        action="store_true",
        help="the student version: the module's sections only, no appendix (at most 8 pages)",
    )


def run(args: argparse.Namespace) -> int:
    from proofs.render import notes  # the lesson loads only when notes are written

    return write_notes(
        args,
        lambda checked, tables: notes.latex_files(checked, tables, brief=args.brief),
        brief=args.brief,
    )
