"""pe-proofs: run the proofs, print the module's tables, write course notes.

Every subcommand lives in proofs/commands/ and defines NAME, HELP, add_arguments and run.
User mistakes become one line on stderr and exit status 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS: tuple[str, ...] = ("prove", "list", "tables", "precision", "latex", "markdown", "shift")
DEFAULT_COMMAND = "prove"


class UsageError(Exception):
    """A command-line mistake; its message is printed as one line."""


class _Parser(argparse.ArgumentParser):
    # argparse prints the usage block and exits; we want one line and status 2 from main().
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(message)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subparser per command."""
    parser = _Parser(
        prog="pe-proofs",
        description="Proofs, numeric cross-checks and course notes for the sinusoidal positional encoding.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        module = importlib.import_module(f"proofs.commands.{name}")
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the pe-proofs console script; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help")):
        argv.insert(0, DEFAULT_COMMAND)
    try:
        args = build_parser().parse_args(argv)
        return args._run(args)
    except (UsageError, ValueError, TypeError) as exc:
        print(f"pe-proofs: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("pe-proofs: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def run_theorem_module(name: str, argv: Sequence[str] | None = None) -> int:
    """`python -m proofs.<name> [options]`: the same as `pe-proofs prove <name> [options]`."""
    rest = list(sys.argv[1:] if argv is None else argv)
    return main(["prove", name, *rest])


if __name__ == "__main__":
    raise SystemExit(main())
