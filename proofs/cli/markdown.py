"""`pe-proofs markdown --out DIR`: the course notes as Markdown (README.md, a page per section)."""

from __future__ import annotations

import argparse

from proofs.cli.notes_output import add_common_arguments, write_notes
from proofs.render import notes

NAME = "markdown"
HELP = "write the course notes as Markdown: README.md, a page per section, SVG figures"
EXAMPLE = "pe-proofs markdown --out notes"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)


def run(args: argparse.Namespace) -> int:
    return write_notes(args, notes.markdown_files)
