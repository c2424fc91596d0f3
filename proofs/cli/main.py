"""pe-proofs: run the proofs, print the module's tables, write course notes.

Every subcommand lives in proofs/cli/ and defines NAME, HELP, EXAMPLE, add_arguments and run;
a command module imports what its work needs inside run, so that --help and --version start
without SymPy, NumPy or python-flint. User mistakes (proofs.cli.usage.UsageError, and files the
system refuses) become one line on stderr and exit status 2, never a traceback; anything else is
a bug in pe-proofs, reported with its traceback and exit status 70.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import importlib
import os
import re
import signal
import sys
import threading
import traceback
from collections.abc import Sequence

from proofs.cli.usage import UsageError

COMMANDS: tuple[str, ...] = (
    "prove",
    "list",
    "tables",
    "precision",
    "latex",
    "markdown",
    "html",
    "notebook",
    "myst",
    "shift",
    "audit",
    "coq",
    "papers",
)
DEFAULT_COMMAND = "prove"
# sysexits.h's EX_SOFTWARE: an internal error, as opposed to a usage error (2).
INTERNAL_ERROR = 70


class _Parser(argparse.ArgumentParser):
    # argparse prints the usage block and exits; we want one line and status 2 from main().
    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(_reword(message))


def _value_missing(message: str, argv: list[str]) -> str:
    """message, without the hint about values that start with '-' when the option is the last
    word: then no value was given at all (`--key` at the end of the line)."""
    match = re.match(r"(--?[\w-]+) expected one argument; ", message)
    if match and argv and argv[-1].split("=")[0] == match[1]:
        return f"{match[1]} expected one argument, and none was given"
    return message


def _reword(message: str) -> str:
    """argparse's message in the commands' style: the option first, then what it allows.

    Also: how to pass a value that starts with '-' (such as -inf), and the closest command.
    """
    if match := re.fullmatch(r"argument (\S+): (must .*)", message):
        return f"{match[1]} {match[2]}"
    if match := re.fullmatch(r"argument (-\S+): expected one argument", message):
        option = match[1].split("/")[0]
        return (
            f"{option} expected one argument; write a value that starts with '-' "
            f"as {option}=VALUE, e.g. {option}=-1"
        )
    if match := re.fullmatch(
        r"argument COMMAND: invalid choice: '(.*)' \(choose from .*\)", message
    ):
        from proofs.registry import names

        word = match[1]
        close = difflib.get_close_matches(word, [*COMMANDS, *names()], n=1)
        if not close:
            hint = ""
        elif close[0] in COMMANDS:
            hint = f"; did you mean {close[0]!r}?"
        else:
            hint = f"; did you mean 'prove {close[0]}'?"
        return f"invalid choice: unknown command {word!r}{hint} (commands: {', '.join(COMMANDS)})"
    return message


class _Version(argparse.Action):
    """--version: reads the installed version only when asked (importlib.metadata is slow)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(
            option_strings, dest, nargs=0, help="show program's version number and exit"
        )

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from importlib.metadata import PackageNotFoundError, version

        try:
            number = version("pe-proofs")
        except PackageNotFoundError:
            number = "unknown (not installed)"
        print(f"pe-proofs {number}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with one subparser per command, each --help ending in an example."""
    parser = _Parser(
        prog="pe-proofs",
        description="Proofs, numeric cross-checks and course notes for the sinusoidal positional encoding.",
        epilog=(
            "examples:\n"
            "  pe-proofs                           prove module 10's theorems (the default)\n"
            "  pe-proofs --module 11               prove module 11's (rotary embeddings)\n"
            "  pe-proofs prove rotation --verbose  one theorem, with each link's checks"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        module = importlib.import_module(f"proofs.cli.{name}")
        p = sub.add_parser(
            module.NAME,
            help=module.HELP,
            description=module.HELP,
            epilog=f"example: {module.EXAMPLE}",
            # Keep the example on one line, as typed.
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the pe-proofs console script; returns the exit status."""
    return _main(list(sys.argv[1:] if argv is None else argv))


class _InterruptSeen:
    """Ctrl-C noticed even where it does not arrive as KeyboardInterrupt: inside a C extension's
    import (numpy's PyCapsule_Import of datetime) it becomes an ImportError that drops it."""

    def __init__(self) -> None:
        self.seen = False
        self._previous: object = None

    def _handler(self, signum: int, frame: object) -> None:
        self.seen = True
        raise KeyboardInterrupt

    def __enter__(self) -> _InterruptSeen:
        # Only over Python's own handler, and only where handlers can be set (the main thread).
        ours = threading.current_thread() is threading.main_thread()
        if ours and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            self._previous = signal.signal(signal.SIGINT, self._handler)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)


def _main(argv: list[str], only: str | None = None) -> int:
    """Parse and run argv; only: the one theorem a `python -m proofs.<name>` run may prove."""
    with _InterruptSeen() as interrupt:
        return _run_main(argv, only, interrupt)


def _run_main(argv: list[str], only: str | None, interrupt: _InterruptSeen) -> int:
    if not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version")):
        argv.insert(0, DEFAULT_COMMAND)
    try:
        try:
            args = build_parser().parse_args(argv)
        except UsageError as error:
            raise UsageError(_value_missing(str(error), argv)) from None
        if only is not None and args.names != [only]:
            from proofs.registry import module_path

            extra = ", ".join(repr(n) for n in args.names[1:])
            raise UsageError(
                f"python -m {module_path(only)} proves {only} only, got also {extra}; "
                f"run pe-proofs prove {' '.join(args.names)}"
            )
        return args._run(args)
    except SystemExit as done:
        # --help and --version print and exit 0.
        return done.code if isinstance(done.code, int) else 0
    except UsageError as exc:
        return _error(str(exc))
    except KeyboardInterrupt:
        print("pe-proofs: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `pe-proofs | head -1`): stop quietly, and keep Python's
        # final flush of stdout from failing again at exit.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:
        return _error(f"{exc.strerror or exc}: {exc.filename}" if exc.filename else str(exc))
    except MemoryError:
        return _error("out of memory: this input needs more memory than the machine can spare")
    except Exception:
        if interrupt.seen:  # an error Ctrl-C caused, not a bug
            print("pe-proofs: interrupted", file=sys.stderr)
            return 130
        print("pe-proofs: internal error, please report it:", file=sys.stderr)
        traceback.print_exc(file=sys.stderr)
        return INTERNAL_ERROR


def _error(message: str) -> int:
    """Print message as one line on stderr; the exit status of a user mistake."""
    print(f"pe-proofs: error: {' '.join(message.splitlines())}", file=sys.stderr)
    return 2


def run_theorem_module(name: str, argv: Sequence[str] | None = None) -> int:
    """`python -m proofs.theorems.<module>.<file> [options]`: `pe-proofs prove <name> [options]`,
    that theorem only."""
    rest = list(sys.argv[1:] if argv is None else argv)
    return _main(["prove", name, *rest], only=name)


if __name__ == "__main__":
    raise SystemExit(main())
