"""`pe-proofs markdown --out DIR [--brief] [--for student|author]`: the course notes as Markdown
(README.md, a page per section)."""

from __future__ import annotations

import argparse

from proofs.cli.notes_output import add_common_arguments, notes_options, write_notes

NAME = "markdown"
HELP = "write the course notes as Markdown: README.md, a page per section, SVG figures"
EXAMPLE = "pe-proofs markdown --out notes"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)


def run(args: argparse.Namespace) -> int:
    from proofs.render import notes  # the lesson loads only when notes are written

    return write_notes(args, notes_options(args, "svg"), notes.markdown_files)
