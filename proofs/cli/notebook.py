"""`pe-proofs notebook --out DIR [--brief] [--for student|author]`: the lesson as a Jupyter notebook,
a lab the student completes."""

from __future__ import annotations

import argparse

from proofs.cli.notes_output import add_common_arguments, notes_options, write_notes

NAME = "notebook"
HELP = "write the course notes as a Jupyter notebook (lesson.ipynb): a lab with checked exercises"
EXAMPLE = "pe-proofs notebook --out lesson"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from proofs.render import notes  # the lesson loads only when notes are written

    return write_notes(args, notes_options(args, "svg"), notes.notebook_files)
