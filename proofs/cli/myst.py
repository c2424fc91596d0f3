"""`pe-proofs myst --out DIR [--brief] [--for student|author] [--katex DIST]`: the course notes
as a MyST Markdown project for Sphinx (offline) and Jupyter Book 2."""

from __future__ import annotations

import argparse

from proofs.cli.files import check_directory
from proofs.cli.notes_output import add_common_arguments, notes_options, write_notes
from proofs.cli.options import path_text

NAME = "myst"
HELP = (
    "write the course notes as a MyST Markdown project: a page per section, theorem and "
    "exercise directives, figures, conf.py for Sphinx and myst.yml for Jupyter Book 2"
)
EXAMPLE = "pe-proofs myst --out book --for student && sphinx-build -W -b html book book/_build/html"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)
    parser.add_argument(
        "--katex",
        type=path_text,
        metavar="DIST",
        help="KaTeX's dist folder (holds katex.min.js); default: katex/dist on NODE_PATH",
    )


def run(args: argparse.Namespace) -> int:
    from proofs.cli.html import katex_dist
    from proofs.render import myst_project  # the lesson loads only when notes are written

    check_directory(args.out, "--out")  # a bad --out is named before a missing KaTeX
    options = notes_options(args, "svg", katex=katex_dist(args.katex))
    return write_notes(args, options, myst_project.myst_files)
