"""`pe-proofs html --out DIR [--katex DIST] [--brief] [--for student|author]`: the course notes as a
static site with local KaTeX."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

from proofs.cli.files import check_directory
from proofs.cli.notes_output import add_common_arguments, notes_options, write_notes
from proofs.cli.options import path_text
from proofs.cli.usage import UsageError

NAME = "html"
HELP = "write the course notes as a static HTML site (index.html, a page per section, KaTeX)"
EXAMPLE = "pe-proofs html --out site && chromium site/index.html"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser)
    parser.add_argument(
        "--katex",
        type=path_text,
        metavar="DIST",
        help="KaTeX's dist folder (holds katex.min.js); default: katex/dist on NODE_PATH",
    )


def katex_dist(given: Path | None) -> Path:
    """The KaTeX dist folder to copy: given, else the first katex/dist on NODE_PATH."""
    candidates = (
        [given]
        if given is not None
        else [
            Path(p) / "katex" / "dist"
            for p in os.environ.get("NODE_PATH", "").split(os.pathsep)
            if p
        ]
    )
    for folder in candidates:
        if (folder / "katex.min.js").is_file() and (folder / "fonts").is_dir():
            return folder
    where = f"--katex {given}" if given is not None else "katex/dist on NODE_PATH"
    raise UsageError(
        f"KaTeX not found ({where} has no katex.min.js and fonts/); install it with "
        "'npm install --prefix DIR katex' and pass --katex DIR/node_modules/katex/dist"
    )


def run(args: argparse.Namespace) -> int:
    from proofs.render import notes  # the lesson loads only when notes are written

    check_directory(args.out, "--out")  # a bad --out is named before a missing KaTeX
    options = notes_options(args, "svg", katex=katex_dist(args.katex))
    return write_notes(args, options, notes.html_files)
