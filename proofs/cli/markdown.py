"""`pe-proofs markdown --out DIR`: course notes as Markdown (a page per theorem and README.md)."""

from __future__ import annotations

import argparse

from proofs.cli.notes_output import add_common_arguments, write_notes
from proofs.render import notes

NAME = "markdown"
HELP = "write Markdown course notes: a page per theorem and a README.md index"
EXAMPLE = "pe-proofs markdown --out notes --theorem rotation"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return write_notes(
        args, lambda checked: notes.markdown_files(checked, index=args.theorem is None)
    )
