"""What this terminal can show: width, Unicode or ASCII, color; and progress on stderr.

The rules (also in README "Commands"):
- width: the terminal's columns when stdout is a terminal, else COLUMNS if set, else 100;
- Unicode (typeset math, ✓ ✗ ?) when stdout's encoding is UTF-8, plain ASCII otherwise or
  with --ascii; a pipe or a file keeps Unicode, since the math reads far better in it;
- color only when stdout is a terminal, NO_COLOR is unset or empty and TERM is not "dumb";
  --color always or never overrides;
- progress on stderr only when stderr is a terminal, so logs and pipes get none.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from typing import TextIO

from proofs.render.text_style import DEFAULT_WIDTH, Style

# Narrower than this, typeset math cannot be laid out sensibly.
MIN_WIDTH = 40


def add_style_arguments(parser: argparse.ArgumentParser) -> None:
    """--verbose, --ascii and --color, shared by the commands that print proofs."""
    parser.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="show each link's checks: rule, points, digits, largest difference",
    )
    parser.add_argument(
        "--ascii", action="store_true", help="plain ASCII output (default: Unicode if UTF-8)"
    )
    parser.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default="auto",
        help="color the verdicts (default auto: on a terminal, unless NO_COLOR is set)",
    )


def _is_tty(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    return bool(isatty and isatty())


def terminal_width(stream: TextIO | None = None) -> int:
    """The columns to print in: the terminal's, else COLUMNS, else 100 (at least MIN_WIDTH)."""
    stream = stream or sys.stdout
    if _is_tty(stream):
        width = shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    else:
        text = os.environ.get("COLUMNS", "")
        width = int(text) if text.isdigit() else DEFAULT_WIDTH
    return max(MIN_WIDTH, width)


def wants_unicode(stream: TextIO | None = None) -> bool:
    """True when stream's encoding is UTF-8."""
    encoding = (getattr(stream or sys.stdout, "encoding", None) or "").lower().replace("-", "")
    return encoding in ("utf8", "utf8sig")


def wants_color(stream: TextIO | None = None) -> bool:
    """True on a terminal, unless NO_COLOR is set (non-empty) or TERM is "dumb"."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    return _is_tty(stream or sys.stdout)


def style_from(args: argparse.Namespace, stream: TextIO | None = None) -> Style:
    """The Style the options and the terminal ask for."""
    color = {"always": True, "never": False}.get(args.color)
    return Style(
        width=terminal_width(stream),
        unicode=not args.ascii and wants_unicode(stream),
        color=wants_color(stream) if color is None else color,
        verbose=args.verbose,
    )


class Progress:
    """One self-erasing status line on stderr, shown only when stderr is a terminal."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.on = _is_tty(self.stream)

    def show(self, text: str) -> None:
        """Replace the status line with text."""
        if self.on:
            self.stream.write("\r\033[K" + text)
            self.stream.flush()

    def clear(self) -> None:
        """Erase the status line, before printing results."""
        if self.on:
            self.stream.write("\r\033[K")
            self.stream.flush()
