"""What the latex and markdown commands share: their options and the verify-render-write run."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence

from proofs.cli.files import check_directory, write_files
from proofs.cli.options import path_text, positive_even_int
from proofs.cli.verify import check
from proofs.render.notes import Checked


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out",
        required=True,
        type=path_text,
        metavar="DIR",
        help="output directory (created if missing)",
    )
    parser.add_argument("--theorem", metavar="NAME", help="write this theorem only (no index file)")
    parser.add_argument(
        "--d-model",
        type=positive_even_int,
        default=8,
        help="concrete d_model of whole-vector statements (default 8)",
    )


def write_notes(
    args: argparse.Namespace, render: Callable[[Sequence[Checked]], dict[str, bytes]]
) -> int:
    """Verify, render, write; exit 1 (files still written, status shown) if a theorem failed."""
    check_directory(args.out, "--out")  # before the slow part: a bad --out fails at once
    checked = check([args.theorem] if args.theorem else None, d_model=args.d_model)
    files = render(checked)
    changed = set(write_files(args.out, files))
    for name in files:
        print(f"{'wrote' if name in changed else 'unchanged'} {args.out / name}")
    failed = [c.name for c in checked if not c.ok]
    if failed:
        print(f"pe-proofs: not proved or twin failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
