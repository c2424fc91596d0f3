"""`pe-proofs latex --out DIR [--brief] [--for student|author]`: the course notes as LaTeX (main.tex
and PDF figures)."""

from __future__ import annotations

import argparse

from proofs.cli.notes_output import add_common_arguments, notes_options, write_notes

NAME = "latex"
HELP = "write the course notes as LaTeX: main.tex and its figures"
EXAMPLE = "pe-proofs latex --out notes --brief --for student && (cd notes && latexmk -pdf main.tex)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from proofs.render import notes  # the lesson loads only when notes are written

    return write_notes(args, notes_options(args, "pdf"), notes.latex_files)
