"""What the notes commands share: their options and the verify-render-write run."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from proofs.cli.files import check_directory, write_files
from proofs.cli.options import add_out_argument, lesson_module, positive_even_int
from proofs.render.options import FigureFormat, RenderOptions

if TYPE_CHECKING:
    from numeric.result_table import Table
    from proofs.engine.theorem import TheoremRun

# render(runs, tables, options) -> file name -> bytes (proofs.render.notes).
Render = Callable[["Sequence[TheoremRun]", "Mapping[str, Table]", RenderOptions], dict[str, bytes]]


def edition_word(text: str) -> str:
    """--for: the edition, student or author."""
    if text not in ("student", "author"):
        raise argparse.ArgumentTypeError(f"must be student or author, got {text!r}")
    return text


def add_common_arguments(parser: argparse.ArgumentParser) -> None:
    add_out_argument(parser)
    parser.add_argument(
        "--module",
        type=lesson_module,
        default=10,
        help="the course module whose lesson to write: 10, the sinusoidal encoding (the "
        "default), or 11, rotary embeddings (RoPE)",
    )
    parser.add_argument(
        "--d-model",
        type=positive_even_int,
        default=8,
        help="d_model of the theorems' numeric twins checked for the notes (default 8; "
        "the module's own tables are always its (50, 8) table)",
    )
    parser.add_argument(
        "--brief",
        action="store_true",
        help="the brief notes: the module's own sections only (default: the full notes)",
    )
    parser.add_argument(
        "--for",
        dest="edition",
        type=edition_word,
        default="student",
        metavar="student|author",
        help="the edition: 'student' (the default: what a student reads, answers apart from "
        "the questions) or 'author' (adds the notes for the author and the appendix on how "
        "each claim was checked)",
    )


def lesson_tables() -> dict[str, Table]:
    """The tables the lesson shows, computed: the module's (numeric.module_tables, by name) and
    the conventions of real implementations (numeric.checks.layouts)."""
    from numeric.checks.layouts import conventions_table
    from numeric.module_table_names import TABLE_NAMES
    from numeric.module_tables import module_report

    return {
        **dict(zip(TABLE_NAMES, module_report(), strict=True)),
        "conventions": conventions_table(),
    }


def notes_options(
    args: argparse.Namespace, figure_format: FigureFormat, katex: Path | None = None
) -> RenderOptions:
    """The options of the notes the command line asks for: the edition of --brief and --for,
    the command's figure format and KaTeX's folder (HTML and MyST)."""
    return RenderOptions(
        edition=args.edition,
        brief=args.brief,
        figure_format=figure_format,
        katex=katex,
        module=args.module,
    )


def write_notes(args: argparse.Namespace, options: RenderOptions, render: Render) -> int:
    """Verify (the theorems of the options' edition, with twins at --d-model), render, write;
    exit 1 (files still written, status shown) if a theorem or a table's check failed."""
    # Imported here so that the proof run, which loads every command, does not load the lesson.
    from proofs import registry

    check_directory(args.out, "--out")  # before the slow part: a bad --out fails at once
    module = options.module
    chosen = registry.brief_names(module) if options.brief else registry.names(module)
    checked = list(registry.run(chosen, d_model=args.d_model))
    tables = lesson_tables()
    files = render(checked, tables, options)
    changed = set(write_files(args.out, files))
    for name in files:
        print(f"{'wrote' if name in changed else 'unchanged'} {args.out / name}")
    failed = [c.name for c in checked if not c.ok]
    failed += [t.title for t in tables.values() if t.passed is False]
    if failed:
        print(f"pe-proofs: not proved or check failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return 0
