"""Option parsers shared by several commands: each turns text into a checked value or fails in one line."""

from __future__ import annotations

import argparse
from pathlib import Path

from proofs.registry import COURSE_MODULES, check_d_model


def positive_even_int(text: str) -> int:
    """--d-model: a positive even integer, within the registry's limit for symbolic proofs."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive even integer, got {text!r}") from None
    try:
        return check_d_model(value)
    except ValueError as exc:
        # argparse prefixes the option's name; drop the library's own subject.
        raise argparse.ArgumentTypeError(str(exc).removeprefix("d_model ")) from None


def course_module(text: str) -> int | None:
    """--module: a course module pe-proofs covers (10 or 11), or 'all' (None) for every one."""
    if text == "all":
        return None
    allowed = ", ".join(map(str, COURSE_MODULES))
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be {allowed} or all, got {text!r}") from None
    if value not in COURSE_MODULES:
        raise argparse.ArgumentTypeError(f"must be {allowed} or all, got {value}")
    return value


def lesson_module(text: str) -> int:
    """--module of the notes commands: one course module's lesson (10 or 11; no 'all')."""
    allowed = " or ".join(map(str, COURSE_MODULES))
    if text.strip() not in {str(m) for m in COURSE_MODULES}:
        raise argparse.ArgumentTypeError(f"must be {allowed}, got {text!r}")
    return int(text)


def path_text(text: str) -> Path:
    """A file or directory path such as --out: non-empty and free of NUL bytes."""
    if not text or "\0" in text:
        raise argparse.ArgumentTypeError(
            f"must be a non-empty path without NUL bytes, got {text!r}"
        )
    return Path(text)


def job_count(text: str) -> int:
    """--jobs: worker processes, 0 (one per core) to 64."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer from 0 to 64, got {text!r}") from None
    if not 0 <= value <= 64:
        raise argparse.ArgumentTypeError(f"must be an integer from 0 to 64, got {value}")
    return value


def add_out_argument(parser: argparse.ArgumentParser) -> None:
    """--out DIR, required: where a command that writes a folder of files puts them."""
    parser.add_argument(
        "--out",
        required=True,
        type=path_text,
        metavar="DIR",
        help="output directory (created if missing)",
    )
