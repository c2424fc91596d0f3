"""`pe-proofs list`: each course module's theorems, each with its name and one-line statement,
wrapped to the terminal."""

from __future__ import annotations

import argparse
import textwrap

from proofs import registry
from proofs.cli.terminal import terminal_width, wants_unicode

NAME = "list"
HELP = "list the theorems by course module, with their one-line statements"
EXAMPLE = "pe-proofs list"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    del parser  # no options


def run(args: argparse.Namespace) -> int:
    from proofs.render.text_style import ascii_text

    del args
    width, unicode = terminal_width(), wants_unicode()
    column = max(map(len, registry.names())) + 2
    for number, module in enumerate(registry.COURSE_MODULES):
        default = module == registry.DEFAULT_MODULE
        how = "pe-proofs" if default else f"pe-proofs --module {module}"
        if number:
            print()
        print(f"# Module {module}, {registry.MODULE_TITLES[module]}: {how} proves these")
        for name in registry.names(module):
            statement = registry.build(name).statement
            lines = textwrap.wrap(
                statement if unicode else ascii_text(statement),
                width=width,
                initial_indent=name.ljust(column),
                subsequent_indent=" " * column,
                break_on_hyphens=False,
            )
            print("\n".join(lines))
    return 0
